//! The syntax of `%{...}` interpolation, as Puppet's `Interpolation` module
//! reads it. Evaluation needs the scope and nested lookups, so it lives with
//! the lookup itself; this module only reads the text.

use crate::value::Value;

/// A piece of an interpolated string.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece<'a> {
    /// Literal text.
    Text(&'a str),
    /// A `%{...}` token: the whole token and the expression inside, trimmed.
    Token {
        /// `%{...}` as written.
        whole: &'a str,
        /// The expression inside the braces, without surrounding whitespace.
        expr: &'a str,
    },
}

/// Splits a string at its `%{...}` tokens (`%\{([^\}]*)\}`).
pub fn pieces(s: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find("%{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        if start > 0 {
            out.push(Piece::Text(&rest[..start]));
        }
        out.push(Piece::Token { whole: &rest[start..start + 2 + end + 1], expr: after[..end].trim() });
        rest = &after[end + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// True when some string in the value (hash keys too) has a `%{`: only
/// such values are interpolated.
pub fn has_tokens(v: &Value) -> bool {
    match v {
        Value::String(s) => has_token(s),
        Value::Array(a) => a.iter().any(has_tokens),
        Value::Hash(h) => h.iter().any(|(k, v)| has_tokens(k) || has_tokens(v)),
        _ => false,
    }
}

/// True when the string has a `%{`.
pub fn has_token(s: &str) -> bool {
    // Data strings are short: a plain scan beats `str::contains`'s set-up.
    s.as_bytes().windows(2).any(|w| w[0] == b'%' && w[1] == b'{')
}

/// Expressions that interpolate to the empty string without a lookup.
pub fn is_empty_expression(expr: &str) -> bool {
    matches!(expr, "" | "::" | "\"\"" | "''" | "\"::\"" | "'::'")
}

/// A method call `name('arg')` or `name("arg")`: (method, argument).
/// Anything else is a scope variable.
pub fn method_call(expr: &str) -> Option<(&str, &str)> {
    let open = expr.find('(')?;
    let name = &expr[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let inner = expr[open + 1..].strip_suffix(')')?;
    let q = inner.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let arg = inner[1..].strip_suffix(q)?;
    (!arg.is_empty() && !arg.contains(q)).then_some((name, arg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tokens() {
        let p = pieces("a%{ x }b%{y");
        assert_eq!(p, vec![Piece::Text("a"), Piece::Token { whole: "%{ x }", expr: "x" }, Piece::Text("b%{y")]);
    }

    #[test]
    fn reads_method_calls() {
        assert_eq!(method_call("lookup('a::b')"), Some(("lookup", "a::b")));
        assert_eq!(method_call("alias(\"x\")"), Some(("alias", "x")));
        assert_eq!(method_call("lookup( 'x' )"), None);
        assert_eq!(method_call("lookup('')"), None);
        assert_eq!(method_call("facts.os"), None);
    }
}
