//! The reader itself: tokens, then a tree of fields with substitutions,
//! then the substitutions resolved.

use super::Error;
use crate::value::{inspect_str, Hash, Int, Value};
use std::cell::Cell;

/// Nesting deeper than this is refused, so that a hostile text cannot
/// exhaust the stack.
pub const MAX_DEPTH: usize = 100;

/// Parses a HOCON text into the hash `Hocon.parse` returns.
pub fn parse(text: &str) -> Result<Hash, Error> {
    let chars: Vec<char> = text.chars().collect();
    let tokens = tokenize(&chars);
    let mut parser = Parser {
        tokens,
        chars,
        at: 0,
        depth: 0,
        unsupported: None,
        delayed_merge_loaded: false,
        prefix: Vec::new(),
        in_list: 0,
        seen: Cell::new(0),
    };
    let root = parser.root();
    // ruby-hocon tokenizes as its parser reads: a Ruby error of its
    // tokenizer's is raised once the parser has looked that far.
    let seen = parser.seen.get();
    if let Some(message) = parser.tokens[..=seen].iter().find_map(|t| match &t.0 {
        Tok::RubyError(m) => Some(m.clone()),
        _ => None,
    }) {
        return Err(Error { message, line: 0, ruby: true });
    }
    let root = root?;
    // ruby-hocon reads the whole text before it includes anything; its
    // includer for a string has neither URLs nor resources.
    if let Some(e) = parser.unsupported {
        return Err(e);
    }
    let mut resolver = Resolver::new(&root, false);
    match resolver.resolve(&root)? {
        Some(Value::Hash(h)) => Ok(h),
        _ => Ok(Hash::default()),
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Comma,
    Equals,
    Colon,
    PlusEquals,
    OpenCurly,
    CloseCurly,
    OpenSquare,
    CloseSquare,
    Newline,
    Whitespace(String),
    /// A quoted string.
    Quoted(String),
    /// Unquoted text, `true`, `false` or `null` (ruby-hocon's boolean and
    /// null values start unquoted text: `trueabc` is `true` then `abc`).
    Unquoted(String),
    /// A number's text, which Ruby's `Integer()` or `Float()` reads.
    Number(String),
    Substitution {
        path: Vec<String>,
        text: String,
        optional: bool,
    },
    /// A substitution whose path ruby-hocon's `PathParser` refuses, and
    /// its message, told when the parser meets it as a value.
    BadSubstitution {
        text: String,
        message: String,
    },
    /// A character that cannot be there, and why.
    Problem {
        what: String,
        message: String,
    },
    /// Where ruby-hocon's tokenizer fails with a Ruby error of its own,
    /// once the parser reads this far: the message.
    RubyError(String),
    /// `#` or `//` to the end of the line; never in the token list.
    Comment,
    End,
}

impl Tok {
    /// How ruby-hocon names a token in a message.
    fn describe(&self) -> String {
        match self {
            Tok::Comma => "','".into(),
            Tok::Equals => "'='".into(),
            Tok::Colon => "':'".into(),
            Tok::PlusEquals => "'+='".into(),
            Tok::OpenCurly => "'{'".into(),
            Tok::CloseCurly => "'}'".into(),
            Tok::OpenSquare => "'['".into(),
            Tok::CloseSquare => "']'".into(),
            Tok::Newline => "NEWLINE".into(),
            Tok::End => "end of file".into(),
            Tok::Comment => "comment".into(),
            Tok::Problem { what, message } => format!("'{what}' ({message})"),
            Tok::RubyError(message) => message.clone(),
            // ruby-hocon's value tokens say their type; a value is shown as Ruby's `to_s` of it.
            Tok::Unquoted(s) if s == "true" || s == "false" => format!("'{s}' (BOOLEAN)"),
            Tok::Unquoted(s) if s == "null" => "'' (NULL)".into(),
            Tok::Number(s) => match number(s) {
                Some(Value::Float(f)) => format!("'{}' (NUMBER)", crate::value::ruby_float(f)),
                Some(v) => format!("'{}' (NUMBER)", v.to_ruby_s()),
                None => format!("'{s}'"),
            },
            Tok::Quoted(s) => format!("'{s}' (STRING)"),
            Tok::Unquoted(s) | Tok::Whitespace(s) => format!("'{s}'"),
            Tok::Substitution { text, .. } | Tok::BadSubstitution { text, .. } => format!("'{text}'"),
        }
    }

    /// Whether it is a problem, which a parser meets as a bad token.
    fn is_problem(&self) -> bool {
        matches!(self, Tok::Problem { .. })
    }
}

/// Characters that cannot be in unquoted text (ruby-hocon's `NOT_IN_UNQUOTED_TEXT`).
const NOT_IN_UNQUOTED: &str = "$\"{}[]:=,+#`^?!@*&\\";
/// What a number may be made of, and start with.
const NUMBER_CHARS: &str = "0123456789eE+-.";
const FIRST_NUMBER_CHARS: &str = "0123456789-";
/// How deep substitutions may stand in substitutions before the text is refused.
const MAX_NESTED_SUBSTITUTIONS: usize = 8;

/// A token, the line ruby-hocon says it is on, and the characters it was
/// read from.
type Token = (Tok, usize, std::ops::Range<usize>);

/// The text as ruby-hocon's `Tokenizer` reads it, a comment left out.
fn tokenize(chars: &[char]) -> Vec<Token> {
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let (tok, len) = token_at(chars, i, 0);
        let lines = chars[i..i + len].iter().filter(|&&c| c == '\n').count();
        // A problem, and a substitution (ruby-hocon reads what is inside as
        // tokens, line breaks too), are told on the line where reading them
        // ended; but ruby-hocon counts no line break that it reads as a
        // character: in a quoted string's `\u` escape (the only place one
        // can hold one), or after a `+` or `$` that it does not follow.
        let quoted = chars[i] == '"' && !chars[i..].starts_with(&['"', '"', '"']);
        let after_sign = matches!(chars[i], '+' | '$') && len == 2;
        let ends = tok.is_problem() || matches!(tok, Tok::Substitution { .. } | Tok::BadSubstitution { .. });
        let at = if ends && !quoted && !after_sign { line + lines } else { line };
        // A comment is no token; the line break after it is.
        if tok != Tok::Comment {
            out.push((tok, at, i..i + len));
        }
        line += lines;
        i += len;
    }
    out.push((Tok::End, line, chars.len()..chars.len()));
    out
}

/// The token at `chars[i]` and how many characters it takes; `nested`:
/// how many substitutions it stands in.
fn token_at(chars: &[char], i: usize, nested: usize) -> (Tok, usize) {
    let c = chars[i];
    let next = chars.get(i + 1).copied();
    // ruby-hocon reads the character after `$` or `+` whatever it is.
    let after = |sign: char, wanted: char| {
        let what = next.map_or_else(|| "-1".to_string(), |n| n.to_string());
        let message = format!("'{sign}' not followed by {wanted}, '{what}' not allowed after '{sign}'");
        (Tok::Problem { what, message }, if next.is_some() { 2 } else { 1 })
    };
    match c {
        '\n' => (Tok::Newline, 1),
        '#' => (Tok::Comment, comment_len(&chars[i..])),
        '/' if next == Some('/') => (Tok::Comment, comment_len(&chars[i..])),
        c if c.is_whitespace() => {
            let n = chars[i..].iter().take_while(|c| c.is_whitespace() && **c != '\n').count();
            (Tok::Whitespace(chars[i..i + n].iter().collect()), n)
        }
        ',' => (Tok::Comma, 1),
        '=' => (Tok::Equals, 1),
        ':' => (Tok::Colon, 1),
        '{' => (Tok::OpenCurly, 1),
        '}' => (Tok::CloseCurly, 1),
        '[' => (Tok::OpenSquare, 1),
        ']' => (Tok::CloseSquare, 1),
        '+' if next == Some('=') => (Tok::PlusEquals, 2),
        '+' => after('+', '='),
        '"' => quoted(&chars[i..]),
        '$' if next == Some('{') => substitution(&chars[i..], nested),
        '$' => after('$', '{'),
        c if FIRST_NUMBER_CHARS.contains(c) => number_token(&chars[i..]),
        c if NOT_IN_UNQUOTED.contains(c) => reserved(c, " "),
        _ => unquoted(&chars[i..]),
    }
}

/// A character that cannot stand outside quotes; `space`: what ruby-hocon
/// puts after the character in its message (a number's message has none).
fn reserved(c: char, space: &str) -> (Tok, usize) {
    let message = format!("Reserved character '{c}'{space}is not allowed outside quotes");
    (Tok::Problem { what: c.to_string(), message }, 1)
}

/// Unquoted text, up to a character that ends it; `true`, `false` and
/// `null` end it as soon as they are read.
fn unquoted(chars: &[char]) -> (Tok, usize) {
    let mut n = 0;
    while let Some(&c) = chars.get(n) {
        if c.is_whitespace() || NOT_IN_UNQUOTED.contains(c) || (c == '/' && chars.get(n + 1) == Some(&'/')) {
            break;
        }
        n += 1;
        if matches!(&chars[..n], ['t', 'r', 'u', 'e'] | ['n', 'u', 'l', 'l'] | ['f', 'a', 'l', 's', 'e']) {
            break;
        }
    }
    (Tok::Unquoted(chars[..n].iter().collect()), n)
}

/// ruby-hocon's `pull_number`: the longest run of number characters, a
/// number if Ruby reads it as one, else unquoted text (or a problem, for a
/// `+` in it).
fn number_token(chars: &[char]) -> (Tok, usize) {
    let n = 1 + chars[1..].iter().take_while(|&&c| NUMBER_CHARS.contains(c)).count();
    let text: String = chars[..n].iter().collect();
    if ruby_number(&text) {
        return (Tok::Number(text), n);
    }
    match text.chars().find(|&c| NOT_IN_UNQUOTED.contains(c)) {
        Some(c) => (reserved(c, "").0, n),
        None => (Tok::Unquoted(text), n),
    }
}

/// Whether Ruby's `Float()` (for text with `.`, `e` or `E`) or `Integer()`
/// (else) reads the text, made of number characters, as a number.
fn ruby_number(text: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    if !text.contains(['.', 'e', 'E']) {
        // A leading zero makes the digits octal.
        return digits(unsigned) && (!unsigned.starts_with('0') || unsigned.bytes().all(|b| b < b'8'));
    }
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(digits)
}

fn comment_len(chars: &[char]) -> usize {
    chars.iter().take_while(|&&c| c != '\n').count()
}

/// The Ruby error ruby-hocon 1.3.1 fails with on a backslash before `c` in
/// a quoted string: its `as_string(c)` is given as the problem's origin
/// (Ruby 3.1's message, with the line that `error_highlight` marks), and
/// a control character cannot even be named (`"%x" % string`).
fn invalid_escape(c: char) -> String {
    let named = match c {
        '\n' => "newline".to_string(),
        '\t' => "tab".to_string(),
        c if c.is_control() => return format!("invalid value for Integer(): {}", inspect_str(&c.to_string())),
        c => c.to_string(),
    };
    format!(
        "undefined method `line_number' for {}:String\n\n      @origin.line_number\n             ^^^^^^^^^^^^",
        inspect_str(&named)
    )
}

/// A quoted string at the start of `chars` (triple-quoted ones raw).
fn quoted(chars: &[char]) -> (Tok, usize) {
    if chars.starts_with(&['"', '"', '"']) {
        let body = &chars[3..];
        let Some(end) = (0..body.len()).find(|&k| body[k..].starts_with(&['"', '"', '"'])) else {
            // ruby-hocon names the end of input by the -1 its reader gives.
            let message = "End of input but triple-quoted string was still open".to_string();
            return (Tok::Problem { what: "-1".into(), message }, chars.len());
        };
        // Quotes beyond three at the close belong to the string.
        let extra = body[end + 3..].iter().take_while(|&&c| c == '"').count();
        let s: String = body[..end + extra].iter().collect();
        return (Tok::Quoted(s), 3 + end + extra + 3);
    }
    let mut s = String::new();
    let mut k = 1;
    while k < chars.len() {
        let c = chars[k];
        match c {
            '"' => return (Tok::Quoted(s), k + 1),
            '\\' => {
                let escaped = match chars.get(k + 1) {
                    Some('"') => '"',
                    Some('\\') => '\\',
                    Some('/') => '/',
                    Some('b') => '\u{8}',
                    Some('f') => '\u{c}',
                    Some('n') => '\n',
                    Some('r') => '\r',
                    Some('t') => '\t',
                    // The next four characters, whatever they are, read by
                    // Ruby's `String#hex` and packed as a code point; one
                    // that packs to `_` is refused.
                    Some('u') => {
                        let hex: String = chars.iter().skip(k + 2).take(4).collect();
                        if hex.chars().count() < 4 {
                            let message = "End of input but expecting 4 hex digits for \\uXXXX escape".to_string();
                            return (Tok::Problem { what: "-1".into(), message }, chars.len());
                        }
                        let code = u32::try_from(ruby_hex(&hex)).ok().filter(|&c| c != 0x5F).and_then(char::from_u32);
                        match code {
                            Some(c) => {
                                s.push(c);
                                k += 6;
                                continue;
                            }
                            None => {
                                let message = format!("Malformed hex digits after \\u escape in string: '{hex}'");
                                return (Tok::Problem { what: hex, message }, k + 2);
                            }
                        }
                    }
                    None => {
                        let message = "End of input but backslash in string had nothing after it".to_string();
                        return (Tok::Problem { what: String::new(), message }, k + 1);
                    }
                    // ruby-hocon 1.3.1 means to say that this is no escape,
                    // but hands its problem a string where an origin goes,
                    // and fails with Ruby's error instead.
                    Some(&c) => return (Tok::RubyError(invalid_escape(c)), k + 2),
                };
                s.push(escaped);
                k += 2;
            }
            c if (c as u32) < 0x20 => {
                let what = c.to_string();
                let message = format!("JSON does not allow unescaped {c} in quoted strings, use a backslash escape");
                return (Tok::Problem { what, message }, k);
            }
            c => {
                s.push(c);
                k += 1;
            }
        }
    }
    let message = "End of input but string quote was still open".to_string();
    (Tok::Problem { what: "-1".into(), message }, chars.len())
}

/// Ruby's `String#hex`: the number `s` starts with (after blanks, a sign
/// and `0x`; `_` between digits), 0 when there is none.
fn ruby_hex(s: &str) -> i64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let t = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    let (mut n, mut after_digit) = (0i64, false);
    for c in t.chars() {
        match c.to_digit(16) {
            Some(d) => (n, after_digit) = (n * 16 + i64::from(d), true),
            None if c == '_' && after_digit => after_digit = false,
            None => break,
        }
    }
    if negative {
        -n
    } else {
        n
    }
}

/// `${path}` or `${?path}` at the start of `chars`, read as ruby-hocon's
/// `pull_substitution` reads it: tokens up to the `}`, a problem among them
/// the whole substitution's.
fn substitution(chars: &[char], nested: usize) -> (Tok, usize) {
    if nested >= MAX_NESTED_SUBSTITUTIONS {
        let message = format!("substitutions nested more than {MAX_NESTED_SUBSTITUTIONS} deep");
        return (Tok::Problem { what: "${".into(), message }, chars.len());
    }
    let optional = chars.get(2) == Some(&'?');
    let mut k = 2 + optional as usize;
    let mut inner = Vec::new();
    loop {
        if k >= chars.len() {
            let message = "Substitution ${ was not closed with a }".to_string();
            return (Tok::Problem { what: "end of file".into(), message }, chars.len());
        }
        let (tok, len) = token_at(chars, k, nested + 1);
        k += len;
        match tok {
            Tok::CloseCurly => break,
            Tok::Problem { .. } | Tok::RubyError(_) => return (tok, k),
            Tok::Comment => {}
            tok => inner.push(tok),
        }
    }
    let text: String = chars[..k].iter().collect();
    match path_of(&inner) {
        Ok(path) => (Tok::Substitution { path, text, optional }, k),
        Err(message) => (Tok::BadSubstitution { text, message }, k),
    }
}

/// A key or substitution path as ruby-hocon's `PathParser` reads it:
/// unquoted text split at dots, quoted strings whole, whitespace kept only
/// between two of them; or its message.
/// ruby-hocon's error for `+=` inside a list or another `+=`'s value.
const PLUS_EQUALS_IN_LIST: &str = "Due to current limitations of the config parser, += does not work nested inside a list. += expands to a ${} substitution and the path in ${} cannot currently refer to list elements. You might be able to move the += outside of the list and then refer to it from inside the list with ${}.";

/// ruby-hocon's error for a path with an empty unquoted element.
const EMPTY_ELEMENT: &str =
    "path has a leading, trailing, or two adjacent period '.' (use quoted \"\" empty string if you want an empty element)";

fn path_of(tokens: &[Tok]) -> Result<Vec<String>, String> {
    if tokens.iter().all(|t| matches!(t, Tok::Whitespace(_))) {
        return Err("Expecting a field name or path here, but got nothing".into());
    }
    let text = |t: &Tok| matches!(t, Tok::Quoted(_) | Tok::Unquoted(_) | Tok::Number(_));
    let mut path = vec![String::new()];
    // A quoted segment may be empty (`"" = 1`); an unquoted one may not (`a..b`).
    let mut quoted = vec![false];
    for (i, tok) in tokens.iter().enumerate() {
        match tok {
            Tok::Quoted(s) => {
                path.last_mut().expect("a segment").push_str(s);
                *quoted.last_mut().expect("a segment") = true;
            }
            Tok::Whitespace(s) if i > 0 && text(&tokens[i - 1]) && tokens.get(i + 1).is_some_and(text) => {
                path.last_mut().expect("a segment").push_str(s)
            }
            Tok::Whitespace(_) => {}
            Tok::Unquoted(s) | Tok::Number(s) => {
                let mut parts = s.split('.');
                path.last_mut().expect("a segment").push_str(parts.next().unwrap_or_default());
                for part in parts {
                    path.push(part.to_string());
                    quoted.push(false);
                }
            }
            // ruby-hocon prints a substitution in a path by a StringIO's `to_s`.
            Tok::Substitution { .. } | Tok::BadSubstitution { .. } => {
                return Err("Token not allowed in path expression: '${#<StringIO:0x0000000000000000>}' (you can double-quote this token if you really want it here)".into());
            }
            t => {
                return Err(format!(
                "Token not allowed in path expression: {} (you can double-quote this token if you really want it here)",
                t.describe()
            ))
            }
        }
    }
    if path.iter().zip(&quoted).all(|(segment, quoted)| *quoted || !segment.is_empty()) {
        Ok(path)
    } else {
        Err(EMPTY_ELEMENT.into())
    }
}

/// A value as read, before substitutions are resolved.
#[derive(Clone, Debug)]
enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    /// Pieces that make one value, on the line it starts on: they join as
    /// ruby-hocon's `ConfigConcatenation` joins them (a lone piece keeps
    /// its type; see [`join`]).
    Concat(Vec<Piece>, usize),
    /// A value still to be resolved set over an earlier one (ruby-hocon's
    /// `ConfigDelayedMerge`): once resolved, an object is merged over the
    /// earlier value, anything else replaces it, and nothing (optional
    /// substitutions of nothing) leaves it.
    Merge(Box<Node>, Box<Node>),
}

#[derive(Clone, Debug)]
enum Piece {
    /// Unquoted text, or the whitespace between two simple values.
    Text(String),
    /// A quoted string.
    Quoted(String),
    /// A number, boolean or null, and its text as written.
    Scalar(Value, String),
    Node(Node),
    Subst {
        path: Vec<String>,
        text: String,
        optional: bool,
        line: usize,
    },
}

struct Parser {
    tokens: Vec<Token>,
    /// The text, for keys shown as they are written.
    chars: Vec<char>,
    at: usize,
    depth: usize,
    /// The error of the first include that ruby-hocon cannot carry out on a
    /// string (`url(...)`, `classpath(...)`), met once the text is read.
    unsupported: Option<Error>,
    /// Whether ruby-hocon has loaded `ConfigDelayedMergeObject` yet: its
    /// file comes with `ConfigDelayedMerge`'s, which is required when a
    /// value still to be resolved is first merged with another (see
    /// [`DELAYED_MERGE_OBJECT`]).
    delayed_merge_loaded: bool,
    /// The path of the field whose value is being read, from the root
    /// (ruby-hocon's `path_stack`): `+=` and a field set again refer to
    /// the field by it.
    prefix: Vec<String>,
    /// How many lists (and `+=` values, which become lists) the text being
    /// read is in: ruby-hocon's `array_count`.
    in_list: usize,
    /// The furthest token the parser has looked at.
    seen: Cell<usize>,
}

const QUOTE_HINT: &str = "to be part of a key or string value, try enclosing the key or value in double quotes";

/// ruby-hocon's `add_quote_suggestion`: the message, and the hint to quote
/// the token, which it leaves out for the end of the file.
fn with_quote_hint(message: String, t: &Tok) -> String {
    match t {
        Tok::End => message,
        t => {
            let t = t.describe();
            format!("{message} (if you intended {t} {QUOTE_HINT}")
        }
    }
}

impl Parser {
    fn peek(&self) -> &Tok {
        self.seen.set(self.seen.get().max(self.at));
        &self.tokens[self.at].0
    }

    fn line(&self) -> usize {
        self.tokens[self.at].1
    }

    fn bump(&mut self) -> Tok {
        self.seen.set(self.seen.get().max(self.at));
        let t = self.tokens[self.at].0.clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn fail<T>(&self, message: String) -> Result<T, Error> {
        Err(Error { message, line: self.line(), ruby: false })
    }

    fn skip(&mut self, newlines: bool) {
        while matches!(self.peek(), Tok::Whitespace(_)) || (newlines && *self.peek() == Tok::Newline) {
            self.bump();
        }
    }

    fn root(&mut self) -> Result<Node, Error> {
        self.skip(true);
        // A list is read, errors and all, before its place is refused.
        let (node, list_at) = match self.peek() {
            Tok::OpenCurly => {
                self.bump();
                (self.object(true)?, None)
            }
            Tok::OpenSquare => {
                let line = self.line();
                self.bump();
                (self.array()?, Some(line))
            }
            _ => return self.object(false),
        };
        self.skip(true);
        if *self.peek() != Tok::End {
            let t = self.peek().describe();
            return self.fail(format!("Document has trailing tokens after first object or array: {t}"));
        }
        match list_at {
            Some(line) => {
                // ruby-hocon joins the list's concatenations as it parses
                // them, before it looks at what the root is.
                let mut resolver = Resolver::new(&node, true);
                match resolver.resolve(&node) {
                    Err(e) if e.message.starts_with(CANNOT_CONCATENATE) => Err(e),
                    _ => Err(Error {
                        message: " has type LIST rather than object at file root".into(),
                        line,
                        ruby: false,
                    }),
                }
            }
            None => Ok(node),
        }
    }

    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fail(format!("nested more than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    /// An object's fields, after its `{` when `braced`.
    fn object(&mut self, braced: bool) -> Result<Node, Error> {
        self.enter()?;
        let mut fields: Vec<(String, Node)> = Vec::new();
        loop {
            self.skip(true);
            // `include` alone is the keyword, whatever follows it.
            let include = matches!(self.peek(), Tok::Unquoted(w) if w == "include");
            match self.peek().clone() {
                Tok::CloseCurly if braced => {
                    self.bump();
                    break;
                }
                Tok::CloseCurly => {
                    let hint =
                        format!("unbalanced close brace '}}' with no open brace (if you intended '}}' {QUOTE_HINT}");
                    return self.fail(hint);
                }
                Tok::End if !braced => break,
                Tok::End => return self.fail("expecting a close brace or a field name here, got end of file".into()),
                _ if include => self.include()?,
                _ => {
                    let (path, value) = self.field()?;
                    let added = add_field(&mut fields, &self.prefix, &path, value, &mut self.delayed_merge_loaded);
                    if let Err(message) = added {
                        return Err(Error { message, line: self.line(), ruby: true });
                    }
                }
            }
            self.skip(false);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::Newline => {
                    // A comma on the next line separates like one on this.
                    self.skip(true);
                    if *self.peek() == Tok::Comma {
                        self.bump();
                    }
                }
                Tok::CloseCurly | Tok::End => {}
                t => {
                    let t = t.describe();
                    return self.fail(format!(
                        "Expecting close brace }} or a comma, got {t} (if you intended {t} {QUOTE_HINT}"
                    ));
                }
            }
        }
        self.depth -= 1;
        Ok(Node::Object(fields))
    }

    /// ruby-hocon's `parse_include`, after the keyword: `"file"`, or
    /// `file(`, `url(` or `classpath(` then a quoted string and `)`. A
    /// parsed string includes no file; its includer has no URLs nor
    /// resources, and fails on them once the text is read.
    fn include(&mut self) -> Result<(), Error> {
        self.bump();
        self.skip(true);
        let kind = match self.peek().clone() {
            Tok::Quoted(_) => {
                self.bump();
                return Ok(());
            }
            Tok::Unquoted(kind) if matches!(kind.as_str(), "url(" | "file(" | "classpath(") => kind,
            // A number, true, false or null is a value token, not unquoted text.
            t @ Tok::Unquoted(_) if !matches!(t, Tok::Unquoted(ref w) if w == "true" || w == "false" || w == "null") => {
                return self.fail(format!("expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: {}", t.describe()));
            }
            t => {
                return self
                    .fail(format!("include keyword is not followed by a quoted string, but by: {}", t.describe()))
            }
        };
        self.bump();
        self.skip(true);
        if !matches!(self.peek(), Tok::Quoted(_)) {
            let t = self.peek().describe();
            return self
                .fail(format!("expecting a quoted string inside file(), classpath(), or url(), rather than: {t}"));
        }
        self.bump();
        self.skip(true);
        if !matches!(self.peek(), Tok::Unquoted(p) if p == ")") {
            let t = self.peek().describe();
            return self.fail(format!("expecting a close parentheses ')' here, not: {t}"));
        }
        self.bump();
        let (method, call, marks) = match kind.as_str() {
            "url(" => ("include_url", "include_url(@include_context, url)", 12),
            "classpath(" => ("include_resources", "include_resources(@include_context, n.name)", 18),
            _ => return Ok(()),
        };
        if self.unsupported.is_none() {
            let message = format!(
                "undefined method `{method}' for #<Hocon::Impl::SimpleIncluder:0x0000000000000000 @fallback=nil>\n\n          obj = @includer.{call}\n                         {}\nDid you mean?  include_file",
                "^".repeat(marks)
            );
            self.unsupported = Some(Error { message, line: self.line(), ruby: true });
        }
        Ok(())
    }

    fn field(&mut self) -> Result<(Vec<String>, Node), Error> {
        let start = self.at;
        while matches!(self.peek(), Tok::Quoted(_) | Tok::Unquoted(_) | Tok::Number(_) | Tok::Whitespace(_)) {
            self.bump();
        }
        let mut key_tokens = &self.tokens[start..self.at];
        while let [rest @ .., (Tok::Whitespace(_), ..)] = key_tokens {
            key_tokens = rest;
        }
        // The key as it is written, quotes and all.
        let written: String = match key_tokens {
            [first, .., last] => self.chars[first.2.start..last.2.end].iter().collect(),
            [only] => self.chars[only.2.clone()].iter().collect(),
            [] => String::new(),
        };
        let key: Vec<Tok> = key_tokens.iter().map(|t| t.0.clone()).collect();
        let path = path_of(&key);
        // ruby-hocon's path parser raises this one without an origin.
        if matches!(&path, Err(message) if message == EMPTY_ELEMENT && !key_tokens.is_empty()) {
            return Err(Error { message: EMPTY_ELEMENT.into(), line: 0, ruby: false });
        }
        let Some(path) = path.ok().filter(|_| !key_tokens.is_empty()) else {
            let t = self.tokens[start].0.describe();
            self.at = start;
            return self.fail(format!("expecting a close brace or a field name here, got {t}"));
        };
        // A separator may stand on a line of its own.
        self.skip(true);
        let depth = self.prefix.len();
        self.prefix.extend(path.iter().cloned());
        let value = self.field_value(&written);
        self.prefix.truncate(depth);
        Ok((path, value?))
    }

    /// A field's value, after its key (`written` as it is in the text).
    fn field_value(&mut self, written: &str) -> Result<Node, Error> {
        match self.peek() {
            Tok::Equals | Tok::Colon => {
                self.bump();
                self.skip(true);
                self.value()
            }
            Tok::PlusEquals => {
                let line = self.line();
                if self.in_list > 0 {
                    return Err(Error { message: PLUS_EQUALS_IN_LIST.into(), line, ruby: false });
                }
                self.bump();
                self.skip(true);
                self.in_list += 1;
                let value = self.value();
                self.in_list -= 1;
                let value = value?;
                let previous = Piece::Subst { path: self.prefix.clone(), text: String::new(), optional: true, line };
                Ok(Node::Concat(vec![previous, Piece::Node(Node::Array(vec![value]))], line))
            }
            // An object straight after its key is that object alone, never
            // the start of a concatenation (ruby-hocon's `parse_object`).
            Tok::OpenCurly => {
                let line = self.line();
                self.bump();
                Ok(Node::Concat(vec![Piece::Node(self.object(true)?)], line))
            }
            t => {
                let message = format!("Key '{written}' may not be followed by token: {}", t.describe());
                self.fail(with_quote_hint(message, t))
            }
        }
    }

    /// A value: one or more pieces on one line.
    fn value(&mut self) -> Result<Node, Error> {
        self.skip(false);
        let start = self.line();
        let mut pieces = Vec::new();
        // A simple value: text, a quoted string, a number, a substitution.
        let simple = |t: &Tok| {
            matches!(
                t,
                Tok::Quoted(_)
                    | Tok::Unquoted(_)
                    | Tok::Number(_)
                    | Tok::Substitution { .. }
                    | Tok::BadSubstitution { .. }
            )
        };
        loop {
            let line = self.line();
            let piece = match self.peek().clone() {
                Tok::Quoted(s) => {
                    self.bump();
                    Piece::Quoted(s)
                }
                Tok::Unquoted(s) | Tok::Number(s) => {
                    self.bump();
                    scalar(&s)
                }
                // Whitespace is part of the value between two simple values
                // only (ruby-hocon's `WhitespaceSaver`), else ignored.
                Tok::Whitespace(s) if !pieces.is_empty() => {
                    self.bump();
                    let between = matches!(
                        pieces.last(),
                        Some(Piece::Text(_) | Piece::Quoted(_) | Piece::Scalar(..) | Piece::Subst { .. })
                    ) && simple(self.peek());
                    if !between {
                        continue;
                    }
                    Piece::Text(s)
                }
                Tok::BadSubstitution { message, .. } => return self.fail(message),
                Tok::Substitution { path, text, optional } => {
                    self.bump();
                    Piece::Subst { path, text, optional, line }
                }
                Tok::OpenCurly => {
                    self.bump();
                    Piece::Node(self.object(true)?)
                }
                Tok::OpenSquare => {
                    self.bump();
                    Piece::Node(self.array()?)
                }
                t if pieces.is_empty() => {
                    let message = format!("Expecting a value but got wrong token: {}", t.describe());
                    return self.fail(with_quote_hint(message, &t));
                }
                _ => break,
            };
            pieces.push(piece);
        }
        Ok(Node::Concat(pieces, start))
    }

    fn array(&mut self) -> Result<Node, Error> {
        self.in_list += 1;
        let array = self.array_items();
        self.in_list -= 1;
        array
    }

    fn array_items(&mut self) -> Result<Node, Error> {
        self.enter()?;
        let mut items = Vec::new();
        self.skip(true);
        if *self.peek() == Tok::CloseSquare {
            self.bump();
            self.depth -= 1;
            return Ok(Node::Array(items));
        }
        if !matches!(
            self.peek(),
            Tok::Quoted(_)
                | Tok::Unquoted(_)
                | Tok::Number(_)
                | Tok::Substitution { .. }
                | Tok::BadSubstitution { .. }
                | Tok::OpenCurly
                | Tok::OpenSquare
        ) {
            let t = self.peek().describe();
            return self.fail(format!("List should have ] or a first element after the open [, instead had token: {t} (if you want {t} to be part of a string value, then double-quote it)"));
        }
        loop {
            items.push(self.value()?);
            self.skip(false);
            let separated = matches!(self.peek(), Tok::Comma | Tok::Newline);
            match self.peek() {
                Tok::CloseSquare => {
                    self.bump();
                    break;
                }
                Tok::Comma => {
                    self.bump();
                    self.skip(true);
                }
                Tok::Newline => {
                    // A comma on the next line separates like one on this.
                    self.skip(true);
                    if *self.peek() == Tok::Comma {
                        self.bump();
                        self.skip(true);
                    }
                }
                t => {
                    let t = t.describe();
                    return self.fail(format!("List should have ended with ] or had a comma, instead had token: {t} (if you want {t} to be part of a string value, then double-quote it)"));
                }
            }
            if separated {
                match self.peek() {
                    Tok::CloseSquare => {
                        self.bump();
                        break;
                    }
                    Tok::Comma
                    | Tok::End
                    | Tok::CloseCurly
                    | Tok::Colon
                    | Tok::Equals
                    | Tok::PlusEquals
                    | Tok::Problem { .. } => {
                        let t = self.peek().describe();
                        return self.fail(format!("List should have had new element after a comma, instead had token: {t} (if you want the comma or {t} to be part of a string value, then double-quote it)"));
                    }
                    _ => {}
                }
            }
        }
        self.depth -= 1;
        Ok(Node::Array(items))
    }
}

/// An unquoted word: `true`, `false`, `null`, a number, or text.
fn scalar(word: &str) -> Piece {
    let value = match word {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        "null" => Some(Value::Undef),
        _ => number(word),
    };
    match value {
        Some(v) => Piece::Scalar(v, word.to_string()),
        None => Piece::Text(word.to_string()),
    }
}

/// A number as ruby-hocon reads one; a whole float is an integer.
fn number(word: &str) -> Option<Value> {
    if !ruby_number(word) {
        return None;
    }
    if !word.contains(['.', 'e', 'E']) {
        // Ruby's `Integer()`: a leading zero makes the digits octal, and
        // a word that is not an octal number stays text (`08`).
        let (minus, digits) = word.strip_prefix('-').map_or((false, word), |d| (true, d));
        let n = match digits.strip_prefix('0').filter(|rest| !rest.is_empty()) {
            Some(octal) => Int::from_digits(octal, 8),
            None => Int::from_digits(digits, 10),
        }?;
        return Some(Value::Integer(if minus { n.neg() } else { n }));
    }
    // `ConfigNumber.new_number`: a float equal to its `to_i` is that integer.
    let f: f64 = word.parse().ok()?;
    match Int::from_f64(f).filter(|_| f.fract() == 0.0) {
        Some(i) => Some(Value::Integer(i)),
        None => Some(Value::Float(f)),
    }
}

/// Sets `path` in `fields`: a key defined again keeps its place, and its new
/// value is merged over the old one; or the Ruby error ruby-hocon meets.
/// Sets `path` in the object at `prefix` (from the root) to `value`, over
/// what the object had there. A field new at the root has no earlier value
/// for its substitutions of itself to read; one new in an object inside
/// may have one in an earlier definition of that object, met when the two
/// are merged.
fn add_field(
    fields: &mut Vec<(String, Node)>,
    prefix: &[String],
    path: &[String],
    value: Node,
    loaded: &mut bool,
) -> Result<(), String> {
    let value = path[1..].iter().rev().fold(value, |v, k| Node::Object(vec![(k.clone(), v)]));
    let at = [prefix, &path[..1]].concat();
    match fields.iter_mut().find(|(k, _)| *k == path[0]) {
        Some((_, existing)) => {
            let old = std::mem::replace(existing, Node::Array(Vec::new()));
            *existing = with_fallback(value, old, &at, loaded)?;
        }
        None if prefix.is_empty() => fields.push((path[0].clone(), without_self(value, &at))),
        None => fields.push((path[0].clone(), value)),
    }
    Ok(())
}

/// ruby-hocon 1.3.1 makes a `ConfigDelayedMergeObject` of an object set
/// over a value still to be resolved, a class whose file it loads only with
/// `ConfigDelayedMerge`'s, when a value still to be resolved is first
/// merged with another: until then, the merge is this Ruby error.
const DELAYED_MERGE_OBJECT: &str = "uninitialized constant Hocon::Impl::ConfigDelayedMergeObject\n\n    Hocon::Impl::ConfigDelayedMergeObject.new(origin, stack)\n               ^^^^^^^^^^^^^^^^^^^^^^^^^^\nDid you mean?  Hocon::Impl::ConfigNodeObject";

/// `later.with_fallback(earlier)`: objects merge with the later keys first;
/// an object over a value still to be resolved is merged with it once
/// resolved, or ruby-hocon's Ruby error while `loaded` is false; a value
/// still to be resolved over anything is merged with it once resolved (a
/// substitution of the field itself, or of a path inside it, reads the
/// earlier value), which loads the delayed merges; anything else replaces.
fn with_fallback(later: Node, earlier: Node, path: &[String], loaded: &mut bool) -> Result<Node, String> {
    Ok(match (as_object(later), as_object(earlier)) {
        (Ok(later), Ok(earlier)) => {
            // Fields the earlier object did not have have no earlier value.
            let mut later: Vec<(String, Node)> = later
                .into_iter()
                .map(|(k, v)| match earlier.iter().any(|(ek, _)| *ek == k) {
                    true => (k, v),
                    false => {
                        let v = without_self(v, &[path, std::slice::from_ref(&k)].concat());
                        (k, v)
                    }
                })
                .collect();
            for (k, old) in earlier {
                match later.iter_mut().find(|(lk, _)| *lk == k) {
                    Some((_, new)) => {
                        let taken = std::mem::replace(new, Node::Array(Vec::new()));
                        let mut sub = path.to_vec();
                        sub.push(k);
                        *new = with_fallback(taken, old, &sub, loaded)?;
                    }
                    None => later.push((k, old)),
                }
            }
            Node::Object(later)
        }
        // ruby-hocon delays the merge of an object over a value still to be
        // resolved, and of an object with substitutions in it over any value
        // (resolved, it then replaces it).
        (Ok(later), Err(earlier))
            if !*loaded && (unresolved(&earlier) || later.iter().any(|(_, v)| has_substitution(v))) =>
        {
            return Err(DELAYED_MERGE_OBJECT.into())
        }
        (Ok(later), Err(earlier)) if unresolved(&earlier) => {
            // Over a substitution, the object's substitutions of itself read
            // what the substitution names.
            let later = match &earlier {
                Node::Concat(pieces, _) => match pieces.as_slice() {
                    [Piece::Subst { path: to, optional: false, .. }] => rebase(Node::Object(later), path, path, to),
                    _ => Node::Object(later),
                },
                _ => Node::Object(later),
            };
            Node::Merge(Box::new(later), Box::new(earlier))
        }
        (Ok(later), Err(_)) => without_self(Node::Object(later), path),
        (Err(Node::Concat(pieces, line)), earlier) => {
            let earlier = earlier.map_or_else(|e| e, Node::Object);
            // A value with nothing to resolve and no object in it ignores the earlier one.
            if !pieces.iter().any(|p| matches!(p, Piece::Subst { .. } | Piece::Node(Node::Object(_)))) {
                return Ok(Node::Concat(pieces, line));
            }
            *loaded = true;
            // A substitution of the field itself holds the earlier value already.
            let whole = pieces.iter().any(|p| matches!(p, Piece::Subst { path: sp, .. } if sp == path));
            let pieces = pieces
                .into_iter()
                .map(|piece| match piece {
                    Piece::Subst { path: p, .. } if p == path => Piece::Node(earlier.clone()),
                    Piece::Subst { path: p, text, optional, line } if p.starts_with(path) => {
                        match lookup(&earlier, &p[path.len()..]) {
                            Some(inside) => Piece::Node(inside.clone()),
                            None => Piece::Subst { path: p, text, optional, line },
                        }
                    }
                    p => p,
                })
                .collect();
            match whole {
                true => Node::Concat(pieces, line),
                false => Node::Merge(Box::new(Node::Concat(pieces, line)), Box::new(earlier)),
            }
        }
        (Err(later), _) => later,
    })
}

/// Whether a value is one ruby-hocon cannot merge an object over until it
/// is resolved (its `Unmergeable`: a substitution, a concatenation with
/// one, a merge waiting on one); a list or object holding one is not.
/// Whether a substitution is anywhere in `node`, objects and lists included
/// (ruby-hocon's `resolve_status` of a value).
fn has_substitution(node: &Node) -> bool {
    match node {
        Node::Object(fields) => fields.iter().any(|(_, v)| has_substitution(v)),
        Node::Array(items) => items.iter().any(has_substitution),
        Node::Concat(pieces, _) => pieces.iter().any(|p| match p {
            Piece::Subst { .. } => true,
            Piece::Node(n) => has_substitution(n),
            _ => false,
        }),
        Node::Merge(..) => true,
    }
}

fn unresolved(node: &Node) -> bool {
    match node {
        Node::Object(_) | Node::Array(_) => false,
        Node::Concat(pieces, _) => pieces.iter().any(|p| matches!(p, Piece::Subst { .. })),
        Node::Merge(later, _) => unresolved(later),
    }
}

/// The fields of a node that is an object, or the node.
fn as_object(node: Node) -> Result<Vec<(String, Node)>, Node> {
    match node {
        Node::Object(fields) => Ok(fields),
        Node::Concat(mut pieces, line) if pieces.len() == 1 && matches!(pieces[0], Piece::Node(Node::Object(_))) => {
            match pieces.pop() {
                Some(Piece::Node(Node::Object(fields))) => Ok(fields),
                _ => Err(Node::Concat(pieces, line)),
            }
        }
        other => Err(other),
    }
}

/// `node`, the value of the field at `at` inside `from`, with each
/// field's substitutions of itself made substitutions of the same path
/// inside `to` (what `from` was set to before).
fn rebase(node: Node, at: &[String], from: &[String], to: &[String]) -> Node {
    match node {
        Node::Object(fields) => Node::Object(
            fields
                .into_iter()
                .map(|(k, v)| {
                    let inner = [at, std::slice::from_ref(&k)].concat();
                    let v = rebase(v, &inner, from, to);
                    (k, v)
                })
                .collect(),
        ),
        Node::Array(items) => Node::Array(items.into_iter().map(|v| rebase(v, at, from, to)).collect()),
        Node::Concat(pieces, line) => Node::Concat(
            pieces
                .into_iter()
                .map(|p| match p {
                    Piece::Subst { path, text, optional, line } if path == at => {
                        Piece::Subst { path: [to, &path[from.len()..]].concat(), text, optional, line }
                    }
                    Piece::Node(n) => Piece::Node(rebase(n, at, from, to)),
                    p => p,
                })
                .collect(),
            line,
        ),
        Node::Merge(later, earlier) => {
            Node::Merge(Box::new(rebase(*later, at, from, to)), Box::new(rebase(*earlier, at, from, to)))
        }
    }
}

/// A new field's value, its substitutions of itself read as there being no
/// earlier value: an optional one comes to nothing, a required one is left
/// to fail as a cycle, as ruby-hocon fails it.
fn without_self(value: Node, path: &[String]) -> Node {
    match value {
        // The earlier values a field set again took in hold substitutions of it too.
        Node::Concat(pieces, line) => Node::Concat(
            pieces
                .into_iter()
                .filter(|p| !matches!(p, Piece::Subst { path: sp, optional: true, .. } if sp == path))
                .map(|p| match p {
                    Piece::Node(n) => Piece::Node(without_self(n, path)),
                    p => p,
                })
                .collect(),
            line,
        ),
        // `b.c += 3` with no `b` before: the field inside is new too.
        Node::Object(fields) => Node::Object(
            fields
                .into_iter()
                .map(|(k, v)| {
                    let inner = [path, std::slice::from_ref(&k)].concat();
                    let v = without_self(v, &inner);
                    (k, v)
                })
                .collect(),
        ),
        other => other,
    }
}

struct Resolver<'a> {
    root: &'a Node,
    active: Vec<String>,
    depth: usize,
    /// What each path resolved to: a path means the same wherever it is
    /// used (a field's substitutions of itself were read at parse time), and
    /// values that substitute each other twice would otherwise be resolved
    /// exponentially often.
    resolved: std::collections::HashMap<Vec<String>, Option<Joinable>>,
    /// Joining as ruby-hocon's parser does, before anything is resolved:
    /// a substitution is left alone and parts the pieces around it.
    parsing: bool,
}

impl<'a> Resolver<'a> {
    fn new(root: &'a Node, parsing: bool) -> Resolver<'a> {
        Resolver { root, active: Vec::new(), depth: 0, resolved: Default::default(), parsing }
    }

    /// The node's value, or `None` when it comes to nothing (an optional
    /// substitution of nothing).
    fn resolve(&mut self, node: &Node) -> Result<Option<Value>, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH * 4 {
            return Err(Error { message: "substitutions nested too deeply".into(), line: 1, ruby: false });
        }
        let out = match node {
            Node::Object(fields) => {
                let mut hash = Hash::with_capacity(fields.len());
                for (k, v) in fields {
                    if let Some(v) = self.resolve(v)? {
                        hash.insert(Value::String(k.clone()), v);
                    }
                }
                Some(Value::Hash(hash))
            }
            Node::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.extend(self.resolve(item)?);
                }
                Some(Value::Array(out.into()))
            }
            Node::Concat(pieces, line) => self.concat(pieces, *line)?.map(|j| j.value),
            // A value that comes to nothing (optional substitutions of
            // nothing) leaves the earlier one.
            Node::Merge(later, earlier) => match self.resolve(later)? {
                Some(Value::Hash(later)) => match self.resolve(earlier)? {
                    Some(Value::Hash(earlier)) => Some(Value::Hash(merge_hashes(later, earlier))),
                    _ => Some(Value::Hash(later)),
                },
                None => self.resolve(earlier)?,
                v => v,
            },
        };
        self.depth -= 1;
        Ok(out)
    }

    /// The node's value as a concatenation joins it.
    fn joinable(&mut self, node: &Node) -> Result<Option<Joinable>, Error> {
        // Substitutions of substitutions recurse through here.
        self.depth += 1;
        if self.depth > MAX_DEPTH * 4 {
            return Err(Error { message: "substitutions nested too deeply".into(), line: 1, ruby: false });
        }
        let out = match node {
            Node::Concat(pieces, line) => self.concat(pieces, *line)?,
            node => self.resolve(node)?.map(Joinable::of),
        };
        self.depth -= 1;
        Ok(out)
    }

    /// ruby-hocon's `ConfigConcatenation.consolidate`: each piece joined to
    /// what the pieces before it made.
    fn concat(&mut self, pieces: &[Piece], line: usize) -> Result<Option<Joinable>, Error> {
        let mut joined: Option<Joinable> = None;
        for piece in pieces {
            if self.parsing && matches!(piece, Piece::Subst { .. }) {
                joined = None;
                continue;
            }
            let Some(right) = self.piece(piece)? else { continue };
            joined = Some(match joined {
                None => right,
                Some(left) => join(left, right).map_err(|(message, ruby)| Error { message, line, ruby })?,
            });
        }
        Ok(joined)
    }

    fn piece(&mut self, piece: &Piece) -> Result<Option<Joinable>, Error> {
        match piece {
            Piece::Text(s) => Ok(Some(Joinable { value: Value::String(s.clone()), class: Class::Unquoted })),
            Piece::Quoted(s) => Ok(Some(Joinable { value: Value::String(s.clone()), class: Class::Quoted })),
            Piece::Scalar(v, text) => Ok(Some(Joinable { value: v.clone(), class: Class::Scalar(text.clone()) })),
            Piece::Node(n) => self.joinable(n),
            Piece::Subst { path, text, optional, line } => {
                let shown = if text.is_empty() { format!("${{{}}}", path.join(".")) } else { text.clone() };
                if self.active.contains(&shown) {
                    let mut cycle = self.active.clone();
                    cycle.push(shown.clone());
                    return Err(Error {
                        message: format!(
                            "Could not resolve substitution to a value: {shown} was part of a cycle of substitutions involving {}",
                            cycle.join(", ")
                        ),
                        line: *line,
                        ruby: false,
                    });
                }
                self.active.push(shown.clone());
                let value = self.at_path(path);
                self.active.pop();
                let value = value?;
                match value {
                    None if !optional => Err(Error {
                        message: format!("Could not resolve substitution to a value: {shown}"),
                        line: *line,
                        ruby: false,
                    }),
                    v => Ok(v),
                }
            }
        }
    }
}

impl Resolver<'_> {
    /// The value at `path` from the root: the node there, or, where a
    /// value on the way is known only once resolved (a merge over a
    /// substitution), that value's inside.
    fn at_path(&mut self, path: &[String]) -> Result<Option<Joinable>, Error> {
        if let Some(known) = self.resolved.get(path) {
            return Ok(known.clone());
        }
        let value = self.find(path)?;
        self.resolved.insert(path.to_vec(), value.clone());
        Ok(value)
    }

    /// The value at `rest` inside `node`, a value known only once resolved
    /// (kept out of [`Resolver::find`], whose frame every substitution of a
    /// chain adds to the stack).
    fn inside(&mut self, node: &Node, rest: &[String]) -> Result<Option<Value>, Error> {
        match node {
            // Inside an object set over a value still to be resolved: the
            // path there, without resolving all of it (which may be what
            // asks for the path, as `c : ${q.d}` inside `q` does).
            Node::Merge(later, earlier) => self.in_merge(later, earlier, rest),
            node => Ok(walk(self.resolve(node)?, rest)),
        }
    }

    /// The value at `rest` inside `later` set over `earlier`: the later
    /// one's, merged with the earlier one's where both are objects.
    fn in_merge(&mut self, later: &Node, earlier: &Node, rest: &[String]) -> Result<Option<Value>, Error> {
        let later = match lookup(later, rest) {
            Some(node) => self.resolve(node)?,
            None => None,
        };
        if matches!(later, Some(ref v) if !matches!(v, Value::Hash(_))) {
            return Ok(later);
        }
        let value = walk(self.resolve(earlier)?, rest);
        Ok(match (later, value) {
            (Some(Value::Hash(later)), Some(Value::Hash(earlier))) => Some(Value::Hash(merge_hashes(later, earlier))),
            (Some(later), _) => Some(later),
            (None, earlier) => earlier,
        })
    }

    fn find(&mut self, path: &[String]) -> Result<Option<Joinable>, Error> {
        if let Some(node) = lookup(self.root, path) {
            return self.joinable(node);
        }
        for known in (1..path.len()).rev() {
            let Some(node) = lookup(self.root, &path[..known]) else { continue };
            // An object there that lacks the rest lacks it: only a value known
            // once resolved (a merge over a substitution) may hold it.
            if matches!(node, Node::Object(_)) || as_single_object(node) {
                return Ok(None);
            }
            return Ok(self.inside(node, &path[known..])?.map(Joinable::of));
        }
        Ok(None)
    }
}

/// The value at `rest` inside `value`.
fn walk(mut value: Option<Value>, rest: &[String]) -> Option<Value> {
    for key in rest {
        value = match value {
            Some(Value::Hash(mut h)) => h.shift_remove(&Value::String(key.clone())),
            _ => None,
        };
    }
    value
}

/// Whether a node is a value that is one object as written.
fn as_single_object(node: &Node) -> bool {
    matches!(node, Node::Concat(pieces, _) if matches!(pieces.as_slice(), [Piece::Node(Node::Object(_))]))
}

/// A value as a concatenation sees it: its ruby-hocon class decides how it
/// joins.
#[derive(Clone)]
struct Joinable {
    value: Value,
    class: Class,
}

#[derive(Clone, Debug, PartialEq)]
enum Class {
    /// A quoted string, or values joined into a string.
    Quoted,
    /// Unquoted text, which ruby-hocon takes for ignorable whitespace after
    /// a list or an object, whatever it says (`[1] x` is `[1]`).
    Unquoted,
    /// A number, boolean or null, and its text as written.
    Scalar(String),
    List,
    Object,
}

impl Joinable {
    fn of(value: Value) -> Joinable {
        let class = match &value {
            Value::Array(_) => Class::List,
            Value::Hash(_) => Class::Object,
            Value::String(_) => Class::Quoted,
            Value::Undef => Class::Scalar("null".into()),
            v => Class::Scalar(v.to_ruby_s()),
        };
        Joinable { value, class }
    }

    /// `transform_to_string`: a primitive's text; none for a list or object.
    fn text(&self) -> Option<String> {
        match (&self.class, &self.value) {
            (Class::List | Class::Object, _) => None,
            (Class::Scalar(text), _) => Some(text.clone()),
            (_, Value::String(s)) => Some(s.clone()),
            (_, v) => Some(v.to_ruby_s()),
        }
    }

    /// Ruby's `to_s` of the value: its class and its concise rendering.
    fn describe(&self) -> String {
        let json = || self.value.to_json().unwrap_or_default();
        match (&self.class, &self.value) {
            (Class::Quoted, _) => format!("Quoted({})", json()),
            (Class::Unquoted, _) => format!("Unquoted({})", json()),
            (Class::List, _) => format!("SimpleConfigList({})", json()),
            (Class::Object, _) => format!("SimpleConfigObject({})", json()),
            (Class::Scalar(_), Value::Bool(b)) => format!("ConfigBoolean({b})"),
            (Class::Scalar(_), Value::Undef) => "ConfigNull(null)".into(),
            (Class::Scalar(text), Value::Float(_)) => format!("ConfigDouble({text})"),
            (Class::Scalar(text), _) => format!("ConfigInt({text})"),
        }
    }
}

const CANNOT_CONCATENATE: &str = "Cannot concatenate object or list with a non-object-or-list";

/// ruby-hocon's `ConfigConcatenation.join`, or its error (a message, and
/// whether it is a Ruby error rather than ruby-hocon's) when the two
/// cannot join.
fn join(left: Joinable, right: Joinable) -> Result<Joinable, (String, bool)> {
    // An object of numeric keys beside a list is to be taken for a list, but
    // ruby-hocon 1.3.1's `DefaultTransformer` names a class it cannot see.
    let numeric = |j: &Joinable| matches!(&j.value, Value::Hash(h) if j.class == Class::Object && has_index_keys(h));
    if (left.class == Class::List && numeric(&right)) || (numeric(&left) && right.class == Class::List) {
        let message = "uninitialized constant Hocon::Impl::DefaultTransformer::SimpleConfigList\n\n        return SimpleConfigList.new(value.origin, list)\n               ^^^^^^^^^^^^^^^^\nDid you mean?  Hocon::Impl::SimpleConfig";
        return Err((message.into(), true));
    }
    match (left.class.clone(), right.class.clone(), left.value, right.value) {
        (Class::Object, Class::Object, Value::Hash(l), Value::Hash(r)) => {
            Ok(Joinable { value: Value::Hash(merge_hashes(r, l)), class: Class::Object })
        }
        (Class::List, Class::List, Value::Array(l), Value::Array(r)) => {
            let joined: Vec<Value> = l.iter().chain(r.iter()).cloned().collect();
            Ok(Joinable { value: Value::Array(joined.into()), class: Class::List })
        }
        (Class::List | Class::Object, Class::Unquoted, l, _) => Ok(Joinable { value: l, class: left.class }),
        (lc, rc, l, r) => {
            let (left, right) = (Joinable { value: l, class: lc }, Joinable { value: r, class: rc });
            match (left.text(), right.text()) {
                (Some(a), Some(b)) => Ok(Joinable { value: Value::String(a + &b), class: Class::Quoted }),
                _ => Err((
                    format!("{CANNOT_CONCATENATE}, {} and {} are not compatible", left.describe(), right.describe()),
                    false,
                )),
            }
        }
    }
}

/// Whether a key of the object is one Ruby's `Integer(key, 10)` reads as
/// not negative (what ruby-hocon would make a list index of).
fn has_index_keys(h: &Hash) -> bool {
    h.iter().any(|(k, _)| {
        let Some(k) = k.as_str() else { return false };
        let t = k.trim_matches(|c: char| c.is_ascii_whitespace());
        let (negative, digits) = match t.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let well_formed = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
            && !digits.starts_with('_')
            && !digits.ends_with('_')
            && !digits.contains("__");
        well_formed && (!negative || digits.bytes().all(|b| b == b'0' || b == b'_'))
    })
}

/// The node at `path` from the root, if the root's objects lead there.
fn lookup<'a>(root: &'a Node, path: &[String]) -> Option<&'a Node> {
    let mut node = root;
    for key in path {
        node = match node {
            Node::Object(fields) => &fields.iter().find(|(k, _)| k == key)?.1,
            Node::Concat(pieces, _) if pieces.len() == 1 => match &pieces[0] {
                Piece::Node(Node::Object(fields)) => &fields.iter().find(|(k, _)| k == key)?.1,
                _ => return None,
            },
            _ => return None,
        };
    }
    Some(node)
}

/// `later` over `earlier`, later keys first, objects merged.
fn merge_hashes(later: Hash, earlier: Hash) -> Hash {
    let mut out = later.clone();
    for (k, v) in earlier.iter() {
        match (out.get_mut(k), v) {
            (Some(Value::Hash(new)), Value::Hash(old)) => {
                let taken = std::mem::take(new);
                *new = merge_hashes(taken, old.clone());
            }
            (Some(_), _) => {}
            (None, _) => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> String {
        match parse(text) {
            Ok(h) => Value::Hash(h).inspect(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn reads_objects_paths_and_merges_as_ruby_hocon_does() {
        assert_eq!(read("a.b = 1\na.c = 2\na { d = 3 }"), r#"{"a"=>{"d"=>3, "c"=>2, "b"=>1}}"#);
        assert_eq!(read("x { a = 1, b = 2 }\nx { b = 3 }"), r#"{"x"=>{"b"=>3, "a"=>1}}"#);
        assert_eq!(read("x = [1, 2,]\nx += 3\ny = [a] [b]"), r#"{"x"=>[1, 2, 3], "y"=>["a", "b"]}"#);
        assert_eq!(read("s = a  b \"c\"2 // no\nn = 1.0\nf = 1.5"), r#"{"s"=>"a  b c2", "n"=>1, "f"=>1.5}"#);
    }

    #[test]
    fn resolves_substitutions() {
        assert_eq!(read("a = 1\nb = ${a}\"x\"\nc = ${?nope}"), r#"{"a"=>1, "b"=>"1x"}"#);
        assert_eq!(read("p = a\np = ${p}\":b\""), r#"{"p"=>"a:b"}"#);
        assert_eq!(read("p = a\np = ${?nope}"), r#"{"p"=>"a"}"#);
        // A substitution over fields merges with them once resolved, its own inside included.
        assert_eq!(read("a.e = 2\na = ${c}\nc.d = 1"), r#"{"a"=>{"d"=>1, "e"=>2}, "c"=>{"d"=>1}}"#);
        assert_eq!(read("a { b { c = 1 } }\na = ${a.b}"), r#"{"a"=>{"c"=>1, "b"=>{"c"=>1}}}"#);
        // Fields over a substitution: ruby-hocon 1.3.1 fails on a class it never loads.
        assert!(parse("b { x = 1 }\na = ${b}\na.y = 2").is_err_and(|e| e.ruby));
        // But over a value with nothing to resolve, or a list holding a substitution, they merge.
        assert_eq!(read("a = 1\na = 2\na.b = 1"), r#"{"a"=>{"b"=>1}}"#);
        assert_eq!(read("a = [${c}]\nc = 1\na { b = 1 }"), r#"{"a"=>{"b"=>1}, "c"=>1}"#);
        // An optional substitution over an object merges with it; one of nothing leaves it.
        assert_eq!(read("a { x = 1 }\na = ${?b}\nb { y = 2 }"), r#"{"a"=>{"y"=>2, "x"=>1}, "b"=>{"y"=>2}}"#);
        assert_eq!(read("a = 5\na = ${?x}${?y}"), r#"{"a"=>5}"#);
        // A key missing from the object that holds the substitution is missing, not a cycle.
        assert_eq!(read("a { b = ${?a.c} }"), r#"{"a"=>{}}"#);
        // Text that is no number as Ruby reads one stays text.
        assert_eq!(read("h = 0-23\nv = 1.\nw = -0-7"), r#"{"h"=>"0-23", "v"=>"1.", "w"=>"-0-7"}"#);
        assert_eq!(read("b = ${c.d}"), "String: 1: Could not resolve substitution to a value: ${c.d}");
    }

    #[test]
    fn tokenizes_and_joins_as_ruby_hocon_does() {
        // Numbers as Ruby reads them; true, false and null start unquoted text.
        assert_eq!(
            read("a = 10e+3\nb = 10abc\nc = trueabc\nd = 08"),
            r#"{"a"=>10000, "b"=>"10abc", "c"=>"trueabc", "d"=>"08"}"#
        );
        // Quoted whitespace is kept; unquoted text after a list is dropped, as ruby-hocon drops it.
        assert_eq!(read("a = x \"  \"\nb = [1] x"), r#"{"a"=>"x   ", "b"=>[1]}"#);
        assert_eq!(
            read("a = [1] \" \""),
            r#"String: 1: Cannot concatenate object or list with a non-object-or-list, SimpleConfigList([1]) and Quoted(" ") are not compatible"#
        );
        assert_eq!(read("a = 1+2"), "String: 1: Expecting a value but got wrong token: '+' (Reserved character '+'is not allowed outside quotes) (if you intended '+' (Reserved character '+'is not allowed outside quotes) to be part of a key or string value, try enclosing the key or value in double quotes");
        assert_eq!(read("a = ${}"), "String: 1: Expecting a field name or path here, but got nothing");
        assert_eq!(read("include foo"), "String: 1: expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: 'foo'");
        assert!(parse("include url(\"x\")").is_err_and(|e| e.ruby));
        assert_eq!(read("a = 1\ninclude file( \"x\" )"), r#"{"a"=>1}"#);
    }

    #[test]
    fn bad_text_is_an_error_never_a_panic() {
        assert_eq!(read("[1]"), "String: 1:  has type LIST rather than object at file root");
        for text in
            ["{", "a = [", "a = \"", "a = ${", "a = \"\\u12", "}}}", "a = \"\"\"x", "a.", ".a = 1", "a = {b = ${a}}"]
        {
            assert!(parse(text).is_err(), "{text}");
        }
        let deep = "a = ".to_string() + &"[".repeat(10_000);
        assert!(parse(&deep).is_err());
        let nested = "a = ".to_string() + &"${".repeat(10_000);
        assert!(parse(&nested).is_err());
    }

    #[test]
    fn hostile_text_is_read_in_bounded_time_and_memory() {
        // Appending to a field again and again grows it linearly.
        let appended = "a = [1]\n".to_string() + &"a += 1\n".repeat(60);
        assert!(matches!(parse(&appended).unwrap().get(&Value::from("a")), Some(Value::Array(a)) if a.len() == 61));
        let doubled = "p = a\n".to_string() + &"p = ${p}\"x\"\n".repeat(60);
        assert!(parse(&doubled).is_ok());
        // A long chain of substitutions ends with an error, not a stack overflow.
        let chain: String = (0..5000).map(|i| format!("k{i} = ${{k{}}}\n", i + 1)).collect::<String>() + "k5000 = 1\n";
        assert!(parse(&chain).is_err());
        // Values that substitute each other twice, forty deep, are each resolved once.
        let twice: String =
            (1..=40).map(|i| format!("a{i} = ${{a{0}}} ${{a{0}}}\n", i - 1)).collect::<String>() + "a0 { x = 1 }\n";
        assert!(parse(&twice).is_ok());
        // A long word is read in one pass.
        assert!(parse(&format!("a = {}", "x".repeat(200_000))).is_ok());
    }
}
