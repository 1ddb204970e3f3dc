//! The reader itself: tokens, then a tree of fields with substitutions,
//! then the substitutions resolved.

use super::Error;
use crate::value::{Hash, Int, Value};

/// Nesting deeper than this is refused, so that a hostile text cannot
/// exhaust the stack.
pub const MAX_DEPTH: usize = 100;

/// Parses a HOCON text into the hash `Hocon.parse` returns.
pub fn parse(text: &str) -> Result<Hash, Error> {
    let tokens = tokenize(text);
    let mut parser = Parser { tokens, at: 0, depth: 0 };
    let root = parser.root()?;
    let mut resolver = Resolver { root: &root, active: Vec::new(), depth: 0 };
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
    /// Unquoted text, a number's text, `true`, `false` or `null`.
    Unquoted(String),
    Substitution {
        path: Vec<String>,
        text: String,
        optional: bool,
    },
    /// A character that cannot be there, and why.
    Problem {
        what: String,
        message: String,
    },
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
            Tok::Newline => "'\n'".into(),
            Tok::End => "end of file".into(),
            Tok::Comment => "comment".into(),
            Tok::Problem { what, message } => format!("'{what}' ({message})"),
            Tok::Quoted(s) | Tok::Unquoted(s) | Tok::Whitespace(s) => format!("'{s}'"),
            Tok::Substitution { text, .. } => format!("'{text}'"),
        }
    }
}

const RESERVED: &str = "`^?!@*&\\";

fn tokenize(text: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let (tok, len) = match c {
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
            '"' => quoted(&chars[i..]),
            '$' if next == Some('{') => substitution(&chars[i..]),
            c if RESERVED.contains(c) || c == '$' || c == '+' => (
                Tok::Problem {
                    what: c.to_string(),
                    message: format!("Reserved character '{c}' is not allowed outside quotes"),
                },
                1,
            ),
            _ => {
                let n = chars[i..]
                    .iter()
                    .enumerate()
                    .take_while(|&(k, &c)| {
                        !(c.is_whitespace()
                            || "$\"{}[]:=,+#".contains(c)
                            || RESERVED.contains(c)
                            || (c == '/' && chars.get(i + k + 1) == Some(&'/')))
                    })
                    .count();
                (Tok::Unquoted(chars[i..i + n].iter().collect()), n)
            }
        };
        // A comment is no token; the line break after it is.
        if tok != Tok::Comment {
            out.push((tok, line));
        }
        line += chars[i..i + len].iter().filter(|&&c| c == '\n').count();
        i += len;
    }
    out.push((Tok::End, line));
    out
}

fn comment_len(chars: &[char]) -> usize {
    chars.iter().take_while(|&&c| c != '\n').count()
}

/// A quoted string at the start of `chars` (triple-quoted ones raw).
fn quoted(chars: &[char]) -> (Tok, usize) {
    if chars.starts_with(&['"', '"', '"']) {
        let body = &chars[3..];
        let Some(end) = (0..body.len()).find(|&k| body[k..].starts_with(&['"', '"', '"'])) else {
            let message = "End of input but triple-quoted string was still open".to_string();
            return (Tok::Problem { what: "\"\"\"".into(), message }, chars.len());
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
                    Some('u') => {
                        let hex: String = chars.iter().skip(k + 2).take(4).collect();
                        match u32::from_str_radix(&hex, 16).ok().filter(|_| hex.len() == 4).and_then(char::from_u32) {
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
                    other => {
                        let what = other.map(|c| c.to_string()).unwrap_or_default();
                        let message = format!(
                            "backslash followed by '{what}', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)"
                        );
                        return (Tok::Problem { what, message }, k + 1);
                    }
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
    (Tok::Problem { what: "\"".into(), message }, chars.len())
}

/// `${path}` or `${?path}` at the start of `chars`.
fn substitution(chars: &[char]) -> (Tok, usize) {
    let Some(close) = chars.iter().position(|&c| c == '}') else {
        let message = "Substitution ${ was not closed with a }".to_string();
        return (Tok::Problem { what: "${".into(), message }, 2);
    };
    let inner: Vec<char> = chars[2..close].to_vec();
    let optional = inner.first() == Some(&'?');
    let body = &inner[optional as usize..];
    let text: String = chars[..=close].iter().collect();
    let path = path_of(&tokenize(&body.iter().collect::<String>()));
    match path {
        Some(path) if !path.is_empty() => (Tok::Substitution { path, text, optional }, close + 1),
        _ => {
            let message = format!("Invalid path in substitution: '{}'", body.iter().collect::<String>());
            (Tok::Problem { what: text, message }, close + 1)
        }
    }
}

/// A key or substitution path: unquoted text split at dots, quoted strings whole.
fn path_of(tokens: &[(Tok, usize)]) -> Option<Vec<String>> {
    let mut path = vec![String::new()];
    // A quoted segment may be empty (`"" = 1`); an unquoted one may not (`a..b`).
    let mut quoted = vec![false];
    for (tok, _) in tokens {
        match tok {
            Tok::Quoted(s) => {
                path.last_mut()?.push_str(s);
                *quoted.last_mut()? = true;
            }
            Tok::Whitespace(s) => path.last_mut()?.push_str(s),
            Tok::Unquoted(s) => {
                let mut parts = s.split('.');
                path.last_mut()?.push_str(parts.next()?);
                for part in parts {
                    path.push(part.to_string());
                    quoted.push(false);
                }
            }
            Tok::End => {}
            _ => return None,
        }
    }
    path.iter().zip(&quoted).all(|(segment, quoted)| *quoted || !segment.is_empty()).then_some(path)
}

/// A value as read, before substitutions are resolved.
#[derive(Clone, Debug)]
enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    /// Pieces that make one value: strings and numbers join into a string
    /// (a lone piece keeps its type), arrays join, objects merge.
    Concat(Vec<Piece>),
    /// A lone optional substitution, and the value it replaced, which
    /// stays when the substitution comes to nothing.
    Fallback(Box<Node>, Box<Node>),
}

#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Scalar(Value, String),
    Node(Node),
    Subst { path: Vec<String>, text: String, optional: bool, line: usize },
}

struct Parser {
    tokens: Vec<(Tok, usize)>,
    at: usize,
    depth: usize,
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
        &self.tokens[self.at].0
    }

    fn line(&self) -> usize {
        self.tokens[self.at].1
    }

    fn bump(&mut self) -> Tok {
        let t = self.tokens[self.at].0.clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn fail<T>(&self, message: String) -> Result<T, Error> {
        Err(Error { message, line: self.line() })
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
            Some(line) => Err(Error { message: " has type LIST rather than object at file root".into(), line }),
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
                _ if include && self.include()? => {}
                _ => {
                    let (path, value) = self.field()?;
                    add_field(&mut fields, &path, value);
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

    /// `include "file"` (and its `file(...)`, `required(...)` forms): a
    /// parsed string includes nothing. False when `include` is a key.
    fn include(&mut self) -> Result<bool, Error> {
        let start = self.at;
        self.bump();
        // `include "a.conf"`, with the quote right after the word or on a later line.
        if !matches!(self.peek(), Tok::Whitespace(_) | Tok::Quoted(_) | Tok::Newline) {
            self.at = start;
            return Ok(false);
        }
        self.skip(true);
        if !matches!(self.peek(), Tok::Quoted(_) | Tok::Unquoted(_)) {
            self.at = start;
            return Ok(false);
        }
        while !matches!(self.peek(), Tok::Newline | Tok::Comma | Tok::CloseCurly | Tok::End) {
            self.bump();
        }
        Ok(true)
    }

    fn field(&mut self) -> Result<(Vec<String>, Node), Error> {
        let start = self.at;
        while matches!(self.peek(), Tok::Quoted(_) | Tok::Unquoted(_) | Tok::Whitespace(_)) {
            self.bump();
        }
        let mut key_tokens = self.tokens[start..self.at].to_vec();
        while matches!(key_tokens.last(), Some((Tok::Whitespace(_), _))) {
            key_tokens.pop();
        }
        let Some(path) = path_of(&key_tokens).filter(|_| !key_tokens.is_empty()) else {
            let t = self.tokens[start].0.describe();
            self.at = start;
            return self.fail(format!("expecting a close brace or a field name here, got {t}"));
        };
        // A separator may stand on a line of its own.
        self.skip(true);
        match self.peek() {
            Tok::Equals | Tok::Colon => {
                self.bump();
                self.skip(true);
                Ok((path, self.value()?))
            }
            Tok::PlusEquals => {
                let line = self.line();
                self.bump();
                self.skip(true);
                let value = self.value()?;
                let previous = Piece::Subst { path: path.clone(), text: String::new(), optional: true, line };
                Ok((path, Node::Concat(vec![previous, Piece::Node(Node::Array(vec![value]))])))
            }
            Tok::OpenCurly => Ok((path, self.value()?)),
            t => {
                let message = format!("Key '{}' may not be followed by token: {}", path.join("."), t.describe());
                self.fail(with_quote_hint(message, t))
            }
        }
    }

    /// A value: one or more pieces on one line.
    fn value(&mut self) -> Result<Node, Error> {
        self.skip(false);
        let mut pieces = Vec::new();
        loop {
            let line = self.line();
            let piece = match self.peek().clone() {
                Tok::Quoted(s) => {
                    self.bump();
                    Piece::Text(s)
                }
                Tok::Unquoted(s) => {
                    self.bump();
                    scalar(&s)
                }
                Tok::Whitespace(s) if !pieces.is_empty() => {
                    self.bump();
                    Piece::Text(s)
                }
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
        // Whitespace after the last value is not part of it.
        while matches!(pieces.last(), Some(Piece::Text(s)) if s.trim().is_empty() && pieces.len() > 1) {
            pieces.pop();
        }
        Ok(Node::Concat(pieces))
    }

    fn array(&mut self) -> Result<Node, Error> {
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
            Tok::Quoted(_) | Tok::Unquoted(_) | Tok::Substitution { .. } | Tok::OpenCurly | Tok::OpenSquare
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
    let first = word.chars().next()?;
    if !(first.is_ascii_digit() || first == '-') || !word.chars().all(|c| "0123456789eE+-.".contains(c)) {
        return None;
    }
    if !word.contains(['.', 'e', 'E']) {
        // Ruby's `Integer()`: a leading zero makes the digits octal, and
        // a word that is not an octal number stays text (`08`).
        let (sign, digits) = word.strip_prefix('-').map_or((1, word), |d| (-1, d));
        let parsed = match digits.strip_prefix('0').filter(|rest| !rest.is_empty()) {
            Some(octal) => i128::from_str_radix(octal, 8),
            None => digits.parse::<i128>(),
        };
        return parsed.ok().filter(|_| !digits.starts_with(['+', '-'])).map(|i| Value::Integer(Int::from(sign * i)));
    }
    let f: f64 = word.parse().ok()?;
    if f.fract() == 0.0 && f.abs() < 1e38 {
        Some(Value::Integer(Int::from(f as i128)))
    } else {
        Some(Value::Float(f))
    }
}

/// Sets `path` in `fields`: a key defined again keeps its place, and its new
/// value is merged over the old one.
fn add_field(fields: &mut Vec<(String, Node)>, path: &[String], value: Node) {
    let value = path[1..].iter().rev().fold(value, |v, k| Node::Object(vec![(k.clone(), v)]));
    match fields.iter_mut().find(|(k, _)| *k == path[0]) {
        Some((_, existing)) => {
            let old = std::mem::replace(existing, Node::Array(Vec::new()));
            *existing = with_fallback(value, old, &path[..1]);
        }
        None => fields.push((path[0].clone(), without_self(value, &path[..1]))),
    }
}

/// `later.with_fallback(earlier)`: objects merge with the later keys first;
/// anything else replaces, but a substitution of the field itself reads
/// the earlier value.
fn with_fallback(later: Node, earlier: Node, path: &[String]) -> Node {
    match (as_object(later), as_object(earlier)) {
        (Ok(mut later), Ok(earlier)) => {
            for (k, old) in earlier {
                match later.iter_mut().find(|(lk, _)| *lk == k) {
                    Some((_, new)) => {
                        let taken = std::mem::replace(new, Node::Array(Vec::new()));
                        let mut sub = path.to_vec();
                        sub.push(k);
                        *new = with_fallback(taken, old, &sub);
                    }
                    None => later.push((k, old)),
                }
            }
            Node::Object(later)
        }
        (Ok(later), Err(_)) => Node::Object(later),
        (Err(Node::Concat(pieces)), earlier) => {
            let earlier = earlier.map_or_else(|e| e, Node::Object);
            if matches!(pieces.as_slice(), [Piece::Subst { optional: true, path: p, .. }] if p != path) {
                // `a = x` then `a = ${?undefined}`: a stays x.
                return Node::Fallback(Box::new(Node::Concat(pieces)), Box::new(earlier));
            }
            let pieces = pieces
                .into_iter()
                .map(|piece| match piece {
                    Piece::Subst { path: p, .. } if p == path => Piece::Node(earlier.clone()),
                    p => p,
                })
                .collect();
            Node::Concat(pieces)
        }
        (Err(later), _) => later,
    }
}

/// The fields of a node that is an object, or the node.
fn as_object(node: Node) -> Result<Vec<(String, Node)>, Node> {
    match node {
        Node::Object(fields) => Ok(fields),
        Node::Concat(mut pieces) if pieces.len() == 1 && matches!(pieces[0], Piece::Node(Node::Object(_))) => {
            match pieces.pop() {
                Some(Piece::Node(Node::Object(fields))) => Ok(fields),
                _ => Err(Node::Concat(pieces)),
            }
        }
        other => Err(other),
    }
}

/// A new field's value, its substitutions of itself read as there being no
/// earlier value: an optional one comes to nothing, a required one is left
/// to fail as a cycle, as ruby-hocon fails it.
fn without_self(value: Node, path: &[String]) -> Node {
    match value {
        Node::Concat(pieces) => Node::Concat(
            pieces
                .into_iter()
                .filter(|p| !matches!(p, Piece::Subst { path: sp, optional: true, .. } if sp == path))
                .collect(),
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
}

impl Resolver<'_> {
    /// The node's value, or `None` when it comes to nothing (an optional
    /// substitution of nothing).
    fn resolve(&mut self, node: &Node) -> Result<Option<Value>, Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH * 4 {
            return Err(Error { message: "substitutions nested too deeply".into(), line: 1 });
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
            Node::Concat(pieces) => self.concat(pieces)?,
            Node::Fallback(first, fallback) => match self.resolve(first)? {
                Some(v) => Some(v),
                None => self.resolve(fallback)?,
            },
        };
        self.depth -= 1;
        Ok(out)
    }

    fn concat(&mut self, pieces: &[Piece]) -> Result<Option<Value>, Error> {
        let mut values = Vec::new();
        for piece in pieces {
            if let Some(v) = self.piece(piece)? {
                values.push((v, piece));
            }
        }
        if values.is_empty() {
            return Ok(None);
        }
        if values.len() == 1 {
            return Ok(values.pop().map(|(v, _)| v));
        }
        let real: Vec<&(Value, &Piece)> = values
            .iter()
            .filter(|(v, p)| !matches!((v, p), (Value::String(s), Piece::Text(_)) if s.trim().is_empty()))
            .collect();
        if real.iter().all(|(v, _)| matches!(v, Value::Array(_))) {
            let joined: Vec<Value> = real.iter().flat_map(|(v, _)| v.as_array().unwrap_or_default().to_vec()).collect();
            return Ok(Some(Value::Array(joined.into())));
        }
        if real.iter().all(|(v, _)| matches!(v, Value::Hash(_))) {
            let mut merged = Hash::default();
            // Each object over the ones before it, its keys first (`withFallback`).
            for (v, _) in real.iter() {
                if let Value::Hash(h) = v {
                    merged = merge_hashes(h.clone(), merged);
                }
            }
            return Ok(Some(Value::Hash(merged)));
        }
        let mut s = String::new();
        for (v, piece) in &values {
            match (v, piece) {
                (_, Piece::Scalar(_, text)) => s.push_str(text),
                (Value::String(t), _) => s.push_str(t),
                (Value::Undef, _) => {}
                (Value::Array(_) | Value::Hash(_), _) => {
                    let line = match piece {
                        Piece::Subst { line, .. } => *line,
                        _ => 1,
                    };
                    return Err(Error {
                        message: "Cannot concatenate object or list with a non-object-or-list".into(),
                        line,
                    });
                }
                (other, _) => s.push_str(&other.to_ruby_s()),
            }
        }
        Ok(Some(Value::String(s)))
    }

    fn piece(&mut self, piece: &Piece) -> Result<Option<Value>, Error> {
        match piece {
            Piece::Text(s) => Ok(Some(Value::String(s.clone()))),
            Piece::Scalar(v, _) => Ok(Some(v.clone())),
            Piece::Node(n) => self.resolve(n),
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
                    });
                }
                let target = lookup(self.root, path);
                let value = match target {
                    Some(node) => {
                        self.active.push(shown.clone());
                        let v = self.resolve(node);
                        self.active.pop();
                        v?
                    }
                    None => None,
                };
                match value {
                    None if !optional => Err(Error {
                        message: format!("Could not resolve substitution to a value: {shown}"),
                        line: *line,
                    }),
                    v => Ok(v),
                }
            }
        }
    }
}

/// The node at `path` from the root, if the root's objects lead there.
fn lookup<'a>(root: &'a Node, path: &[String]) -> Option<&'a Node> {
    let mut node = root;
    for key in path {
        node = match node {
            Node::Object(fields) => &fields.iter().find(|(k, _)| k == key)?.1,
            Node::Concat(pieces) if pieces.len() == 1 => match &pieces[0] {
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
        assert_eq!(read("b = ${c.d}"), "String: 1: Could not resolve substitution to a value: ${c.d}");
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
    }
}
