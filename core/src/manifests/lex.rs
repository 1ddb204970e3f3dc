//! Puppet's lexer (`lib/puppet/pops/parser/lexer2.rb`), as far as reading
//! class headers and type aliases needs: every token of the language is
//! recognised, so that bodies with strings, heredocs, comments and regexps
//! are skipped whole, but only names, variables, literals and punctuation
//! carry what they hold.

/// A token and where it starts in the text (a byte offset).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What it is.
    pub kind: Tok,
    /// Its first byte.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

/// The kinds of token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A lowercase name, `::` segments included (keywords too).
    Name(String),
    /// A capitalised name: a type or resource reference (`Stdlib::Port`).
    Ref(String),
    /// `$name`, without the `$`.
    Var(String),
    /// A single-quoted string, unescaped.
    Str(String),
    /// A double-quoted string: its text and interpolated expressions.
    Dq(Vec<Part>),
    /// A heredoc: the expressions it interpolates (none unless its tag is
    /// quoted and it is not itself inside an interpolation); its text is not
    /// kept.
    Heredoc(Vec<Vec<Token>>),
    /// A number as written.
    Number(String),
    /// `/regexp/`, its source without the slashes.
    Regexp(String),
    /// An operator or punctuation (`(`, `=>`, `::`...).
    Punct(&'static str),
}

/// A piece of a double-quoted string.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Text, escapes applied.
    Text(String),
    /// `${...}` or `$name`: the tokens of the expression.
    Expr(Vec<Token>),
}

/// Why the text could not be read, and the byte offset where.
#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    /// Puppet's message, without the location.
    pub message: String,
    /// The byte offset it is about.
    pub at: usize,
}

/// Which escapes a heredoc's flags turn on, as far as finding its
/// interpolations needs: any (and with them `\\`), and `\$`.
#[derive(Clone, Copy)]
struct Escapes {
    on: bool,
    dollar: bool,
}

/// Operators, longest first so that `=>` is read before `=`.
const PUNCT: [&str; 42] = [
    "<<|", "|>>", "==", "!=", "=~", "!~", "<=", ">=", "=>", "+>", "->", "~>", "<-", "<~", "<<", ">>", "<|", "|>", "+=",
    "-=", "::", "(", ")", "[", "]", "{", "}", ",", ";", "=", ":", "?", "<", ">", "+", "-", "*", "%", "!", "|", "@",
    ".",
];

/// Reads all of `text` into tokens.
pub fn tokens(text: &str) -> Result<Vec<Token>, LexError> {
    let mut lexer = Lexer { s: text, i: 0, heredoc_end: None, out: Vec::new(), nesting: 0 };
    lexer.run(Stop::End)?;
    Ok(lexer.out)
}

/// Where a lexer stops.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// At the end of the text.
    End,
    /// At the `}` closing an interpolation (`${...}`).
    Brace,
    /// After the `[...]` accesses that follow a variable in a string.
    AfterBrackets,
}

struct Lexer<'a> {
    s: &'a str,
    i: usize,
    /// Where the text after the current line's heredocs resumes: reached at
    /// the end of the line, the lexer jumps there.
    heredoc_end: Option<usize>,
    out: Vec<Token>,
    /// How many strings' interpolations this lexer is inside.
    nesting: usize,
}

/// How deep interpolations may nest (`"${"${...}"}"`): deeper is refused,
/// not a stack overflow.
const MAX_NESTING: usize = 64;

impl<'a> Lexer<'a> {
    /// A lexer for an interpolation inside a string at the current position.
    fn nested(&self) -> Result<Lexer<'a>, LexError> {
        if self.nesting >= MAX_NESTING {
            return Err(self.error("Interpolations nested too deep", self.i));
        }
        Ok(Lexer { s: self.s, i: self.i, heredoc_end: None, out: Vec::new(), nesting: self.nesting + 1 })
    }

    fn bytes(&self) -> &[u8] {
        self.s.as_bytes()
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes().get(self.i + ahead).copied()
    }

    /// Lexes until `stop`.
    fn run(&mut self, stop: Stop) -> Result<(), LexError> {
        let mut depth = 0usize;
        loop {
            if stop == Stop::AfterBrackets && depth == 0 && !self.out.is_empty() && self.peek(0) != Some(b'[') {
                return Ok(());
            }
            self.skip_space()?;
            let Some(c) = self.peek(0) else {
                return match stop {
                    Stop::End => Ok(()),
                    _ => Err(self.error("Syntax error at end of input", self.s.len())),
                };
            };
            let start = self.i;
            match (stop, c) {
                (Stop::Brace, b'{') | (Stop::AfterBrackets, b'[') => depth += 1,
                (Stop::Brace, b'}') if depth == 0 => return Ok(()),
                (Stop::Brace, b'}') | (Stop::AfterBrackets, b']') => depth = depth.saturating_sub(1),
                (Stop::AfterBrackets, b'"' | b'\n') => return Err(self.error("Syntax error", self.i)),
                _ => {}
            }
            let kind = match c {
                b'\'' => Tok::Str(self.single_quoted()?),
                b'"' => Tok::Dq(self.double_quoted()?),
                b'$' => self.variable(),
                b'@' if self.peek(1) == Some(b'(') => self.heredoc()?,
                b'/' if self.regexp_acceptable() => match self.regexp() {
                    Some(r) => Tok::Regexp(r),
                    None => {
                        self.i += 1;
                        Tok::Punct("/")
                    }
                },
                b'/' => {
                    self.i += 1;
                    Tok::Punct("/")
                }
                b'0'..=b'9' => Tok::Number(self.take_while(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')),
                c if c.is_ascii_alphabetic() || c == b'_' => self.name(),
                b':' if self.peek(1) == Some(b':') && self.peek(2).is_some_and(|b| b.is_ascii_alphabetic()) => {
                    self.name()
                }
                _ => match PUNCT.iter().find(|p| self.s[self.i..].starts_with(**p)) {
                    Some(p) => {
                        self.i += p.len();
                        Tok::Punct(p)
                    }
                    None => {
                        let ch = self.s[self.i..].chars().next().unwrap_or('?');
                        return Err(self.error(&format!("Illegal input '{ch}'"), self.i));
                    }
                },
            };
            self.out.push(Token { kind, start, end: self.i });
        }
    }

    fn error(&self, message: &str, at: usize) -> LexError {
        LexError { message: message.to_string(), at }
    }

    fn take_while(&mut self, f: impl Fn(u8) -> bool) -> String {
        let start = self.i;
        while self.peek(0).is_some_and(&f) {
            self.i += 1;
        }
        self.s[start..self.i].to_string()
    }

    /// Whitespace and comments, and the bodies of heredocs begun on the
    /// line just ended.
    fn skip_space(&mut self) -> Result<(), LexError> {
        loop {
            match self.peek(0) {
                Some(b'\n') => {
                    self.i += 1;
                    if let Some(end) = self.heredoc_end.take() {
                        self.i = end;
                    }
                }
                Some(c) if c.is_ascii_whitespace() => self.i += 1,
                Some(b'#') => {
                    while self.peek(0).is_some_and(|b| b != b'\n') {
                        self.i += 1;
                    }
                }
                Some(b'/') if self.peek(1) == Some(b'*') => match self.s[self.i + 2..].find("*/") {
                    Some(n) => self.i += n + 4,
                    None => return Err(self.error("Unclosed comment", self.i)),
                },
                _ => return Ok(()),
            }
        }
    }

    /// lexer2's `regexp_acceptable?`: not after what ends an operand.
    fn regexp_acceptable(&self) -> bool {
        !matches!(
            self.out.last().map(|t| &t.kind),
            Some(
                Tok::Punct(")" | "]")
                    | Tok::Name(_)
                    | Tok::Ref(_)
                    | Tok::Number(_)
                    | Tok::Str(_)
                    | Tok::Dq(_)
                    | Tok::Heredoc(_)
                    | Tok::Regexp(_)
                    | Tok::Var(_)
            )
        )
    }

    /// `/.../` on one line, `\/` escaped; `None` where there is no closing slash.
    fn regexp(&mut self) -> Option<String> {
        let b = self.bytes();
        let mut j = self.i + 1;
        while j < b.len() && b[j] != b'\n' {
            match b[j] {
                b'\\' => j += 2,
                b'/' => {
                    let source = self.s[self.i + 1..j].to_string();
                    self.i = j + 1;
                    return Some(source);
                }
                _ => j += 1,
            }
        }
        None
    }

    /// A name (`ntp`, `ntp::config`, `::ntp`) or a reference (`Stdlib::Port`).
    fn name(&mut self) -> Tok {
        let start = self.i;
        if self.s[self.i..].starts_with("::") {
            self.i += 2;
        }
        loop {
            while self.peek(0).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
                // A hyphen belongs to a name only inside a word, as in bare
                // resource titles; Puppet reads `a-b` as a name too.
                if self.peek(0) == Some(b'-') && !self.peek(1).is_some_and(|b| b.is_ascii_alphanumeric()) {
                    break;
                }
                self.i += 1;
            }
            if self.s[self.i..].starts_with("::") && self.peek(2).is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                self.i += 2;
            } else {
                break;
            }
        }
        let text = self.s[start..self.i].to_string();
        if text.trim_start_matches("::").starts_with(|c: char| c.is_ascii_uppercase()) {
            Tok::Ref(text)
        } else {
            Tok::Name(text)
        }
    }

    /// `$name`, `$::name`, `$a::b`, `$0`.
    fn variable(&mut self) -> Tok {
        self.i += 1;
        let start = self.i;
        if self.s[self.i..].starts_with("::") {
            self.i += 2;
        }
        loop {
            while self.peek(0).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                self.i += 1;
            }
            if self.s[self.i..].starts_with("::")
                && self.peek(2).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
            {
                self.i += 2;
            } else {
                break;
            }
        }
        if start == self.i {
            return Tok::Punct("$");
        }
        Tok::Var(self.s[start..self.i].to_string())
    }

    fn single_quoted(&mut self) -> Result<String, LexError> {
        let start = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.s[self.i..].chars().next() else {
                return Err(self.unclosed('\'', start));
            };
            self.i += c.len_utf8();
            match c {
                '\'' => return Ok(out),
                '\\' if matches!(self.peek(0), Some(b'\\' | b'\'')) => {
                    out.push(self.peek(0).unwrap_or(b'\\') as char);
                    self.i += 1;
                }
                c => out.push(c),
            }
        }
    }

    /// Puppet's "Unclosed quote after "'" followed by '...'" message.
    fn unclosed(&self, quote: char, start: usize) -> LexError {
        let rest: String = self.s[start + 1..].chars().take(5).collect();
        let followed = if self.s.len() - start - 1 > 5 { format!("{rest}...") } else { rest };
        let after = if quote == '"' { "'\"'".to_string() } else { "\"'\"".to_string() };
        // Puppet points just past the quote.
        self.error(&format!("Unclosed quote after {after} followed by '{followed}'"), start + 1)
    }

    fn double_quoted(&mut self) -> Result<Vec<Part>, LexError> {
        let start = self.i;
        self.i += 1;
        let mut parts = Vec::new();
        let mut text = String::new();
        loop {
            let Some(c) = self.s[self.i..].chars().next() else {
                return Err(self.unclosed('"', start));
            };
            match c {
                '"' => {
                    self.i += 1;
                    break;
                }
                '\\' => {
                    self.i += 1;
                    let Some(e) = self.s[self.i..].chars().next() else { continue };
                    self.i += e.len_utf8();
                    match e {
                        'n' => text.push('\n'),
                        't' => text.push('\t'),
                        'r' => text.push('\r'),
                        's' => text.push(' '),
                        '$' | '"' | '\'' | '\\' => text.push(e),
                        '\n' => {}
                        'u' => text.push_str(&self.unicode_escape()),
                        e => {
                            text.push('\\');
                            text.push(e);
                        }
                    }
                }
                '$' => match self.interpolation().map_err(|_| self.unclosed('"', start))? {
                    Some(expr) => {
                        if !text.is_empty() {
                            parts.push(Part::Text(std::mem::take(&mut text)));
                        }
                        parts.push(Part::Expr(expr));
                    }
                    None => {
                        self.i += 1;
                        text.push('$');
                    }
                },
                c => {
                    self.i += c.len_utf8();
                    text.push(c);
                }
            }
        }
        if !text.is_empty() || parts.is_empty() {
            parts.push(Part::Text(text));
        }
        Ok(parts)
    }

    /// The `${...}` or `$name` at the `$` here, as a double-quoted string or
    /// an interpolating heredoc holds one: the tokens of its expression, or
    /// `None` where the `$` begins none; an error where `${` is not closed.
    fn interpolation(&mut self) -> Result<Option<Vec<Token>>, LexError> {
        if self.peek(1) == Some(b'{') {
            self.i += 2;
            let mut inner = self.nested()?;
            inner.run(Stop::Brace)?;
            self.i = inner.i + 1;
            return Ok(Some(inner.out));
        }
        if !self.peek(1).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
            return Ok(None);
        }
        let at = self.i;
        let var = self.variable();
        let mut expr = vec![Token { kind: var, start: at, end: self.i }];
        // `"$x[0]"` indexes, as `${x[0]}` does.
        if self.peek(0) == Some(b'[') {
            let mut inner = self.nested()?;
            if inner.run(Stop::AfterBrackets).is_ok() {
                self.i = inner.i;
                expr.extend(inner.out);
            }
        }
        Ok(Some(expr))
    }

    /// `\uXXXX` or `\u{X...}`.
    fn unicode_escape(&mut self) -> String {
        let rest = &self.s[self.i..];
        let (hex, used) = if let Some(braced) = rest.strip_prefix('{') {
            match braced.find('}') {
                Some(n) => (&braced[..n], n + 2),
                None => return "\\u".into(),
            }
        } else if rest.len() >= 4 && rest.is_char_boundary(4) {
            (&rest[..4], 4)
        } else {
            return "\\u".into();
        };
        match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
            Some(c) => {
                self.i += used;
                c.to_string()
            }
            None => "\\u".into(),
        }
    }

    /// `@(TAG)`, `@("TAG")`, `@(TAG:syntax/flags)`: the body is the lines
    /// after this one, up to the line holding only `|`, `-` and the tag.
    fn heredoc(&mut self) -> Result<Tok, LexError> {
        let start = self.i;
        let close = match self.s[self.i..].find(')') {
            Some(n) if !self.s[self.i..self.i + n].contains('\n') => self.i + n,
            _ => return Err(self.error("Unclosed heredoc tag", start)),
        };
        let spec = &self.s[self.i + 2..close];
        let quoted = spec.split([':', '/']).next().unwrap_or("").trim();
        let tag = quoted.trim_matches('"');
        // `@("TAG")` interpolates. Flags after `/` turn escapes on, `\\`
        // always among them; `\$` stands for itself when they name `$` (a bare
        // `/` names every escape).
        let interpolates = quoted.starts_with('"');
        let flags = spec.rsplit_once('/').map(|(_, flags)| flags);
        let escapes = Escapes { on: flags.is_some(), dollar: flags.is_some_and(|f| f.is_empty() || f.contains('$')) };
        self.i = close + 1;
        let body = match self.heredoc_end {
            Some(end) => end,
            None => match self.s[self.i..].find('\n') {
                Some(n) => self.i + n + 1,
                None => return Err(self.error("Heredoc without end-tagged line", start)),
            },
        };
        let mut line_start = body;
        loop {
            if line_start >= self.s.len() {
                return Err(self.error("Heredoc without end-tagged line", start));
            }
            let line_end = self.s[line_start..].find('\n').map_or(self.s.len(), |n| line_start + n);
            let line = self.s[line_start..line_end].trim_start().trim_start_matches('|').trim_start();
            let line = line.strip_prefix('-').unwrap_or(line).trim();
            if line == tag {
                // Only the outermost text's heredocs are scanned: one inside an
                // interpolation has its body in lines an outer heredoc scans too,
                // and scanning it again at every depth took exponential time.
                let scanned = interpolates && self.nesting == 0;
                let exprs = if scanned { self.interpolations(body, line_start, escapes)? } else { Vec::new() };
                self.heredoc_end = Some((line_end + 1).min(self.s.len()));
                return Ok(Tok::Heredoc(exprs));
            }
            line_start = line_end + 1;
        }
    }

    /// The expressions a heredoc's body, `from..to`, interpolates.
    fn interpolations(&mut self, from: usize, to: usize, escapes: Escapes) -> Result<Vec<Vec<Token>>, LexError> {
        let resume = self.i;
        self.i = from;
        let mut exprs = Vec::new();
        while self.i < to {
            match self.peek(0) {
                Some(b'\\') if escapes.on && self.peek(1) == Some(b'\\') => self.i += 2,
                Some(b'\\') if escapes.dollar && self.peek(1) == Some(b'$') => self.i += 2,
                Some(b'$') => match self.interpolation()? {
                    Some(expr) => exprs.push(expr),
                    None => self.i += 1,
                },
                _ => self.i += 1,
            }
        }
        self.i = resume;
        Ok(exprs)
    }
}
