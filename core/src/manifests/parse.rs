//! Class headers, type aliases and default expressions out of the tokens.

use super::lex::{tokens, Part, Tok, Token};
use super::{Class, DefaultExpr, Expr, Manifest, Param, Piece, SyntaxError, TypeAlias};

/// Reads the classes and type aliases `text` defines.
pub fn parse(text: &str) -> Result<Manifest, SyntaxError> {
    let tokens = tokens(text).map_err(|e| SyntaxError { message: e.message, at: Some(position(text, e.at)) })?;
    let mut p = Parser { text, t: &tokens, i: 0 };
    p.manifest()
}

/// The 1-based line and column of a byte offset.
pub(super) fn position(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |n| before[n + 1..].chars().count()) + 1;
    (line, column)
}

struct Parser<'a> {
    text: &'a str,
    t: &'a [Token],
    i: usize,
}

impl<'a> Parser<'a> {
    fn kind(&self, ahead: usize) -> Option<&'a Tok> {
        let t: &'a [Token] = self.t;
        t.get(self.i + ahead).map(|t| &t.kind)
    }

    fn is(&self, punct: &str) -> bool {
        matches!(self.kind(0), Some(Tok::Punct(p)) if *p == punct)
    }

    fn line(&self) -> usize {
        self.t.get(self.i).map_or(1, |t| position(self.text, t.start).0)
    }

    /// Puppet's `Syntax error at 'TOKEN'`, or `at end of input`.
    fn error(&self) -> SyntaxError {
        match self.t.get(self.i) {
            Some(t) => {
                let shown: String = self.text[t.start..t.end].chars().take(20).collect();
                SyntaxError { message: format!("Syntax error at '{shown}'"), at: Some(position(self.text, t.start)) }
            }
            None => SyntaxError { message: "Syntax error at end of input".into(), at: None },
        }
    }

    fn expect(&mut self, punct: &str) -> Result<(), SyntaxError> {
        if self.is(punct) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn manifest(&mut self) -> Result<Manifest, SyntaxError> {
        let mut manifest = Manifest::default();
        let mut depth = Vec::new();
        while let Some(kind) = self.kind(0) {
            match kind {
                Tok::Name(n) if n == "class" && depth.is_empty() && matches!(self.kind(1), Some(Tok::Name(_))) => {
                    manifest.classes.push(self.class()?);
                    continue;
                }
                Tok::Name(n) if n == "type" && depth.is_empty() && matches!(self.kind(1), Some(Tok::Ref(_))) => {
                    if let Some(alias) = self.alias()? {
                        manifest.aliases.push(alias);
                        continue;
                    }
                }
                Tok::Punct(open @ ("(" | "[" | "{")) => depth.push(*open),
                Tok::Punct(close @ (")" | "]" | "}")) => {
                    let open = match *close {
                        ")" => "(",
                        "]" => "[",
                        _ => "{",
                    };
                    if depth.pop() != Some(open) {
                        return Err(self.error());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        if !depth.is_empty() {
            return Err(SyntaxError { message: "Syntax error at end of input".into(), at: None });
        }
        Ok(manifest)
    }

    /// `class NAME (PARAMS) inherits PARENT { BODY }`.
    fn class(&mut self) -> Result<Class, SyntaxError> {
        let line = self.line();
        self.i += 1;
        let Some(Tok::Name(name)) = self.kind(0) else { return Err(self.error()) };
        let name = name.trim_start_matches("::").to_string();
        self.i += 1;
        let mut params: Vec<Param> = Vec::new();
        if self.is("(") {
            self.i += 1;
            while !self.is(")") {
                let start = self.i;
                let param = self.param()?;
                if params.iter().any(|p| p.name == param.name) {
                    let message =
                        format!("The parameter '{}' is declared more than once in the parameter list", param.name);
                    // Said at its variable, after any type.
                    let var = self.t[start..].iter().find(|t| matches!(t.kind, Tok::Var(_))).map_or(0, |t| t.start);
                    return Err(SyntaxError { message, at: Some(position(self.text, var)) });
                }
                params.push(param);
                if !self.is(")") {
                    self.expect(",")?;
                }
            }
            self.i += 1;
        }
        let mut inherits = None;
        if matches!(self.kind(0), Some(Tok::Name(n)) if n == "inherits") {
            self.i += 1;
            match self.kind(0) {
                Some(Tok::Name(parent)) => inherits = Some(parent.trim_start_matches("::").to_string()),
                _ => return Err(self.error()),
            }
            self.i += 1;
        }
        self.expect("{")?;
        self.skip_to_close("}")?;
        Ok(Class { name, inherits, params, line })
    }

    /// `[TYPE] $name [= DEFAULT]`.
    fn param(&mut self) -> Result<Param, SyntaxError> {
        let type_start = self.i;
        while !matches!(self.kind(0), Some(Tok::Var(_))) {
            match self.kind(0) {
                Some(Tok::Punct("[")) => {
                    self.i += 1;
                    self.skip_to_close("]")?;
                }
                Some(Tok::Ref(_) | Tok::Punct("*")) => self.i += 1,
                _ => return Err(self.error()),
            }
        }
        let type_text = (self.i > type_start)
            .then(|| self.source(type_start, self.i))
            .filter(|t| t != "*")
            .map(|t| t.trim_start_matches('*').trim().to_string());
        let line = self.line();
        let Some(Tok::Var(name)) = self.kind(0) else { return Err(self.error()) };
        let name = name.clone();
        // Puppet's validator refuses these for every class (`RESERVED_PARAMETERS`).
        if name == "name" || name == "title" {
            let message = format!("The parameter ${name} redefines a built in parameter in the Host Class Definition");
            return Err(SyntaxError { message, at: Some(position(self.text, self.t[self.i].start)) });
        }
        self.i += 1;
        let mut default = None;
        if self.is("=") {
            self.i += 1;
            let start = self.i;
            let mut depth = 0usize;
            loop {
                match self.kind(0) {
                    None => return Err(self.error()),
                    Some(Tok::Punct("(" | "[" | "{")) => depth += 1,
                    Some(Tok::Punct(")" | "]" | "}")) if depth == 0 => break,
                    Some(Tok::Punct(")" | "]" | "}")) => depth -= 1,
                    Some(Tok::Punct(",")) if depth == 0 => break,
                    _ => {}
                }
                self.i += 1;
            }
            if self.i == start {
                return Err(self.error());
            }
            let expr = expression(self.text, &self.t[start..self.i]);
            default = Some(DefaultExpr { source: self.source(start, self.i), expr });
        }
        Ok(Param { name, type_text, default, line })
    }

    /// `type NAME = TYPE`; `None` (and nothing consumed) for what is not
    /// one (`type` used as a name).
    fn alias(&mut self) -> Result<Option<TypeAlias>, SyntaxError> {
        let line = self.line();
        let Some(Tok::Ref(name)) = self.kind(1) else { return Ok(None) };
        if !matches!(self.kind(2), Some(Tok::Punct("="))) {
            return Ok(None);
        }
        let name = name.trim_start_matches("::").to_string();
        self.i += 3;
        let start = self.i;
        match self.kind(0) {
            Some(Tok::Ref(_)) => self.i += 1,
            _ => return Err(self.error()),
        }
        if self.is("[") {
            self.i += 1;
            self.skip_to_close("]")?;
        }
        Ok(Some(TypeAlias { name, type_text: self.source(start, self.i), line }))
    }

    /// Past the bracket that closes the one just opened.
    fn skip_to_close(&mut self, close: &str) -> Result<(), SyntaxError> {
        let mut depth = vec![close];
        while let Some(kind) = self.kind(0) {
            self.i += 1;
            match kind {
                Tok::Punct("(") => depth.push(")"),
                Tok::Punct("[") => depth.push("]"),
                Tok::Punct("{") => depth.push("}"),
                Tok::Punct(c @ (")" | "]" | "}")) => {
                    if depth.pop() != Some(*c) {
                        self.i -= 1;
                        return Err(self.error());
                    }
                    if depth.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(self.error())
    }

    fn source(&self, from: usize, to: usize) -> String {
        self.text[self.t[from].start..self.t[to - 1].end].to_string()
    }
}

/// Reads an expression; what defaults rarely hold is [`Expr::Other`].
fn expression(text: &str, t: &[Token]) -> Expr {
    let mut e = Expressions { text, t, i: 0, depth: 0 };
    match e.sum() {
        Some(expr) if e.i == t.len() => expr,
        _ => Expr::Other,
    }
}

struct Expressions<'a> {
    text: &'a str,
    t: &'a [Token],
    i: usize,
    /// How deep in brackets and parentheses: past [`MAX_DEPTH`] the
    /// expression is left to Puppet rather than overflowing the stack.
    depth: usize,
}

/// See [`Expressions::depth`].
const MAX_DEPTH: usize = 100;

impl<'a> Expressions<'a> {
    fn kind(&self) -> Option<&'a Tok> {
        let t: &'a [Token] = self.t;
        t.get(self.i).map(|t| &t.kind)
    }

    fn eat(&mut self, punct: &str) -> bool {
        let found = matches!(self.kind(), Some(Tok::Punct(p)) if *p == punct);
        self.i += usize::from(found);
        found
    }

    fn operator(&mut self, ops: &[&str]) -> Option<char> {
        match self.kind() {
            Some(Tok::Punct(p)) if ops.contains(p) => {
                self.i += 1;
                p.chars().next()
            }
            _ => None,
        }
    }

    fn sum(&mut self) -> Option<Expr> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let sum = self.sum_within();
        self.depth -= 1;
        sum
    }

    fn sum_within(&mut self) -> Option<Expr> {
        let mut left = self.product()?;
        while let Some(op) = self.operator(&["+", "-"]) {
            left = Expr::Arith(op, Box::new(left), Box::new(self.product()?));
        }
        Some(left)
    }

    fn product(&mut self) -> Option<Expr> {
        let mut left = self.unary()?;
        while let Some(op) = self.operator(&["*", "/", "%"]) {
            left = Expr::Arith(op, Box::new(left), Box::new(self.unary()?));
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Expr> {
        let mut negations = 0;
        while self.eat("-") {
            negations += 1;
        }
        if negations > MAX_DEPTH {
            return None;
        }
        let mut operand = self.postfix()?;
        for _ in 0..negations {
            operand = Expr::Neg(Box::new(operand));
        }
        Some(operand)
    }

    /// A primary expression and the accesses after it (`$facts['os']`).
    fn postfix(&mut self) -> Option<Expr> {
        let mut primary = self.primary()?;
        let mut keys = Vec::new();
        while self.eat("[") {
            keys.push(self.sum()?);
            if !self.eat("]") {
                return None;
            }
        }
        if !keys.is_empty() {
            primary = Expr::Access(Box::new(primary), keys);
        }
        Some(primary)
    }

    fn primary(&mut self) -> Option<Expr> {
        let kind = self.kind()?.clone();
        let at = position(self.text, self.t[self.i].start);
        self.i += 1;
        Some(match kind {
            Tok::Name(n) => match n.as_str() {
                "undef" => Expr::Undef,
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                // A function call, or a keyword that starts an expression.
                _ if matches!(self.kind(), Some(Tok::Punct("(" | "{"))) => return None,
                "if" | "unless" | "case" | "default" | "and" | "or" | "in" => return None,
                _ => Expr::Str(n),
            },
            Tok::Var(v) => Expr::Var(v, at),
            Tok::Str(s) => Expr::Str(s),
            Tok::Number(n) => Expr::Number(n),
            Tok::Dq(parts) => dq(self.text, &parts)?,
            Tok::Punct("(") => {
                let inner = self.sum()?;
                self.eat(")").then_some(inner)?
            }
            Tok::Punct("[") => {
                let mut items = Vec::new();
                while !self.eat("]") {
                    items.push(self.sum()?);
                    if !self.eat(",") && !matches!(self.kind(), Some(Tok::Punct("]"))) {
                        return None;
                    }
                }
                Expr::Array(items)
            }
            Tok::Punct("{") => {
                let mut entries = Vec::new();
                while !self.eat("}") {
                    let key = self.sum()?;
                    if !self.eat("=>") {
                        return None;
                    }
                    entries.push((key, self.sum()?));
                    if !self.eat(",") && !matches!(self.kind(), Some(Tok::Punct("}"))) {
                        return None;
                    }
                }
                Expr::Hash(entries)
            }
            _ => return None,
        })
    }
}

/// A double-quoted string: plain text, or its pieces.
fn dq(text: &str, parts: &[Part]) -> Option<Expr> {
    let mut pieces = Vec::new();
    for part in parts {
        pieces.push(match part {
            Part::Text(t) => Piece::Text(t.clone()),
            Part::Expr(tokens) => Piece::Expr(interpolated(text, tokens)?),
        });
    }
    match pieces.as_slice() {
        [Piece::Text(t)] => Some(Expr::Str(t.clone())),
        _ => Some(Expr::Interpolated(pieces)),
    }
}

/// `${...}`: a leading bare name is a variable (`${facts['os']}`).
fn interpolated(text: &str, tokens: &[Token]) -> Option<Expr> {
    let mut tokens = tokens.to_vec();
    if let Some(Token { kind: kind @ Tok::Name(_), .. }) = tokens.first_mut() {
        if let Tok::Name(n) = kind.clone() {
            *kind = Tok::Var(n);
        }
    }
    match expression(text, &tokens) {
        Expr::Other => None,
        e => Some(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_class_headers_past_bodies_with_strings_heredocs_and_regexps() {
        let m = parse(
            r#"# a comment { not a brace
class ntp (
  Array[Stdlib::Host] $servers,
  Boolean $iburst = true,
  $untyped = "x${iburst}}",
  Hash[String, Integer] $h = { 'a' => 1, b => [1, 2] },
) inherits ntp::params {
  $re = $x =~ /}{/
  $doc = @("END")
    } not code {
    | END
  file { '/x': content => "}" }
  /* } */
}
type Stdlib::Port = Integer[0, 65535]
class ntp::config { }
"#,
        )
        .unwrap();
        let names: Vec<&str> = m.classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["ntp", "ntp::config"]);
        let ntp = &m.classes[0];
        assert_eq!(ntp.inherits.as_deref(), Some("ntp::params"));
        let params: Vec<(&str, Option<&str>)> =
            ntp.params.iter().map(|p| (p.name.as_str(), p.type_text.as_deref())).collect();
        assert_eq!(
            params,
            [
                ("servers", Some("Array[Stdlib::Host]")),
                ("iburst", Some("Boolean")),
                ("untyped", None),
                ("h", Some("Hash[String, Integer]"))
            ]
        );
        assert_eq!(ntp.params[1].default.as_ref().unwrap().expr, Expr::Bool(true));
        assert_eq!(
            ntp.params[2].default.as_ref().unwrap().expr,
            Expr::Interpolated(vec![
                Piece::Text("x".into()),
                Piece::Expr(Expr::Var("iburst".into(), (5, 18))),
                Piece::Text("}".into())
            ])
        );
        assert_eq!(ntp.params[3].default.as_ref().unwrap().source, "{ 'a' => 1, b => [1, 2] }");
        assert_eq!(m.aliases[0].name, "Stdlib::Port");
        assert_eq!(m.aliases[0].type_text, "Integer[0, 65535]");
        assert_eq!(m.classes[1].line, 16);
    }

    #[test]
    fn reads_defaults_it_can_and_marks_the_others() {
        let m = parse(
            "class a ($x = $facts['os']['family'], $y = 1 + 2 * 3, $z = lookup('k'), $w = $x ? { default => 1 }) {}",
        )
        .unwrap();
        let exprs: Vec<&Expr> = m.classes[0].params.iter().map(|p| &p.default.as_ref().unwrap().expr).collect();
        assert!(matches!(exprs[0], Expr::Access(_, keys) if keys.len() == 2));
        assert!(matches!(exprs[1], Expr::Arith('+', _, _)));
        assert_eq!(exprs[2], &Expr::Other);
        assert_eq!(exprs[3], &Expr::Other);
    }

    #[test]
    fn says_where_a_manifest_does_not_parse() {
        assert_eq!(parse("class bad ($a = { { }").unwrap_err().message, "Syntax error at end of input");
        let e = parse("class x (\n  $a = ,\n) {}").unwrap_err();
        assert_eq!((e.message.as_str(), e.at), ("Syntax error at ','", Some((2, 8))));
        assert!(parse("class x { $s = 'unclosed }").unwrap_err().message.starts_with("Unclosed quote"));
    }

    #[test]
    fn refuses_what_puppet_s_validator_refuses_where_it_says() {
        let e = parse("class x (Integer $a = 1,\n  String $a) {}").unwrap_err();
        assert_eq!(e.message, "The parameter 'a' is declared more than once in the parameter list");
        assert_eq!(e.at, Some((2, 10)));
        let e = parse("class x ($name) {}").unwrap_err();
        assert_eq!(e.message, "The parameter $name redefines a built in parameter in the Host Class Definition");
        assert_eq!(e.at, Some((1, 10)));
    }
}
