//! The calls of a manifest that read Hiera: `lookup()`, the `hiera()`
//! family and `hiera_include()`, as functions or methods (`'k'.lookup`),
//! wherever they are (bodies and string interpolations too), with the keys
//! they name as far as the text tells them.

use super::lex::{tokens, Part, Tok, Token};
use super::parse::position;
use super::SyntaxError;

/// A call that looks keys up.
#[derive(Clone, Debug, PartialEq)]
pub struct LookupCall {
    /// The function (`lookup`, `hiera`, `hiera_array`, `hiera_hash`,
    /// `hiera_include`).
    pub function: String,
    /// The keys it looks up, each as far as the text tells it.
    pub keys: Vec<KeyText>,
    /// The merge it asks for, when the text says (`hiera_array` is
    /// `unique`, `hiera_hash` and `hiera_include`... as Puppet maps them).
    pub merge: Option<String>,
    /// 1-based line of the call.
    pub line: usize,
}

/// A key as a call writes it: text, and `None` where an expression goes
/// (`"profile::${name}::port"` is `[profile::, None, ::port]`).
#[derive(Clone, Debug, PartialEq)]
pub struct KeyText(pub Vec<Option<String>>);

impl KeyText {
    /// The key when nothing of it is computed.
    pub fn literal(&self) -> Option<&str> {
        match self.0.as_slice() {
            [Some(text)] => Some(text),
            _ => None,
        }
    }

    /// Whether the call could look up `key` (an expression stands for any
    /// text).
    pub fn matches(&self, key: &str) -> bool {
        fn go(pieces: &[Option<String>], rest: &str) -> bool {
            match pieces.split_first() {
                None => rest.is_empty(),
                Some((Some(text), tail)) => rest.strip_prefix(text.as_str()).is_some_and(|r| go(tail, r)),
                Some((None, tail)) => {
                    (0..=rest.len()).filter(|&i| rest.is_char_boundary(i)).any(|i| go(tail, &rest[i..]))
                }
            }
        }
        go(&self.0, key)
    }

    /// The key as written, `*` for what is computed.
    pub fn pattern(&self) -> String {
        self.0.iter().map(|p| p.as_deref().unwrap_or("*")).collect()
    }
}

/// The functions that read Hiera, and the merge each implies.
const FUNCTIONS: [(&str, Option<&str>); 5] = [
    ("lookup", None),
    ("hiera", None),
    ("hiera_array", Some("unique")),
    ("hiera_hash", Some("hash")),
    ("hiera_include", Some("unique")),
];

/// Every call in `text` that reads Hiera, in the order written.
pub fn lookup_calls(text: &str) -> Result<Vec<LookupCall>, SyntaxError> {
    let tokens = tokens(text).map_err(|e| SyntaxError { message: e.message, at: Some(position(text, e.at)) })?;
    let mut out = Vec::new();
    scan(text, &tokens, &mut out);
    Ok(out)
}

fn scan(text: &str, t: &[Token], out: &mut Vec<LookupCall>) {
    for (i, token) in t.iter().enumerate() {
        match &token.kind {
            Tok::Dq(parts) => {
                for part in parts {
                    if let Part::Expr(inner) = part {
                        scan(text, inner, out);
                    }
                }
            }
            Tok::Heredoc(exprs) => exprs.iter().for_each(|inner| scan(text, inner, out)),
            _ => {}
        }
        let Tok::Name(name) = &token.kind else { continue };
        let Some(&(function, implied)) = FUNCTIONS.iter().find(|(f, _)| f == name) else { continue };
        let line = position(text, token.start).0;
        let is = |at: usize, p: &str| matches!(t.get(at).map(|t| &t.kind), Some(Tok::Punct(q)) if *q == p);
        let method = i >= 1 && is(i - 1, ".");
        let args = if is(i + 1, "(") { arguments(&t[i + 2..]) } else { Vec::new() };
        // `receiver.lookup(type, merge)`: the receiver is the key.
        let (keys, merge) = if method {
            let receiver = receiver(&t[..i - 1]);
            (vec![receiver], args.get(1).and_then(|a| strategy(a)))
        } else if args.is_empty() {
            // Not a call (a parameter or attribute so named).
            continue;
        } else {
            let first = args[0];
            let from_options = |a: &[Token]| hash_value(a, "merge").and_then(strategy);
            match first.first().map(|t| &t.kind) {
                Some(Tok::Punct("{")) => {
                    (hash_value(first, "name").map(names).unwrap_or_else(|| vec![any()]), from_options(first))
                }
                _ => {
                    let merge = match args.get(1) {
                        Some(a) if a.first().is_some_and(|t| t.kind == Tok::Punct("{")) => from_options(a),
                        _ => args.get(2).and_then(|a| strategy(a)),
                    };
                    (names(first), merge)
                }
            }
        };
        let merge = merge.or(implied.map(str::to_string));
        out.push(LookupCall { function: function.to_string(), keys, merge, line });
    }
}

/// A key nothing of which is told.
fn any() -> KeyText {
    KeyText(vec![None])
}

/// The key (or keys, from an array) an argument names.
fn names(arg: &[Token]) -> Vec<KeyText> {
    match arg {
        [only] => vec![key_text(only)],
        [Token { kind: Tok::Punct("["), .. }, inner @ .., Token { kind: Tok::Punct("]"), .. }] => {
            let elements = arguments_until(inner, None);
            if elements.is_empty() {
                vec![any()]
            } else {
                elements.into_iter().map(|e| if let [only] = e { key_text(only) } else { any() }).collect()
            }
        }
        _ => vec![any()],
    }
}

fn key_text(token: &Token) -> KeyText {
    match &token.kind {
        Tok::Str(s) | Tok::Name(s) => KeyText(vec![Some(s.clone())]),
        Tok::Dq(parts) => {
            let mut pieces: Vec<Option<String>> = Vec::new();
            for part in parts {
                match (part, pieces.last_mut()) {
                    (Part::Text(t), Some(Some(last))) => last.push_str(t),
                    (Part::Text(t), _) => pieces.push(Some(t.clone())),
                    (Part::Expr(_), Some(None)) => {}
                    (Part::Expr(_), _) => pieces.push(None),
                }
            }
            if pieces.is_empty() {
                pieces.push(Some(String::new()));
            }
            KeyText(pieces)
        }
        _ => any(),
    }
}

/// The receiver of a method call ending `before`: a string is the key.
fn receiver(before: &[Token]) -> KeyText {
    match before.last() {
        Some(t @ Token { kind: Tok::Str(_) | Tok::Dq(_), .. }) => key_text(t),
        _ => any(),
    }
}

/// A merge argument: `'deep'`, or a hash with `'strategy' => 'deep'`.
fn strategy(arg: &[Token]) -> Option<String> {
    match arg {
        [Token { kind: Tok::Str(s) | Tok::Name(s), .. }] => Some(s.clone()),
        [Token { kind: Tok::Punct("{"), .. }, ..] => match hash_value(arg, "strategy")? {
            [Token { kind: Tok::Str(s) | Tok::Name(s), .. }] => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The value of `field` in a hash literal `{ 'field' => value, ... }`.
fn hash_value<'t>(hash: &'t [Token], field: &str) -> Option<&'t [Token]> {
    let (open, inner) = hash.split_first()?;
    if open.kind != Tok::Punct("{") {
        return None;
    }
    for entry in arguments_until(inner, Some("}")) {
        let Some(arrow) = entry.iter().position(|t| t.kind == Tok::Punct("=>")) else { continue };
        let named = matches!(&entry[..arrow], [Token { kind: Tok::Str(s) | Tok::Name(s), .. }] if s == field);
        if named {
            return Some(&entry[arrow + 1..]);
        }
    }
    None
}

/// The arguments of a call whose `(` is just before `t`.
fn arguments(t: &[Token]) -> Vec<&[Token]> {
    arguments_until(t, Some(")"))
}

/// `t` split at its top-level commas, up to the unmatched `close` (or the
/// end); empty pieces left out.
fn arguments_until<'t>(t: &'t [Token], close: Option<&str>) -> Vec<&'t [Token]> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, token) in t.iter().enumerate() {
        let Tok::Punct(p) = token.kind else { continue };
        match p {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" if depth == 0 => {
                if close == Some(p) {
                    out.push(&t[start..i]);
                    return out.into_iter().filter(|a| !a.is_empty()).collect();
                }
                break;
            }
            ")" | "]" | "}" => depth -= 1,
            "," if depth == 0 => {
                out.push(&t[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if close.is_none() {
        out.push(&t[start..]);
    }
    out.into_iter().filter(|a| !a.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(text: &str) -> Vec<(String, Vec<String>, Option<String>, usize)> {
        lookup_calls(text)
            .unwrap()
            .into_iter()
            .map(|c| (c.function, c.keys.iter().map(KeyText::pattern).collect(), c.merge, c.line))
            .collect()
    }

    #[test]
    fn literal_computed_and_array_keys_with_their_merge() {
        let text = r#"class profile::web (
  $port = lookup('profile::web::port'),
) {
  $servers = lookup("ntp::${kind}_servers", Array, 'unique', [])
  $users = lookup(['users', 'admins'], { 'merge' => 'deep' })
  $any = lookup($key)
  $opts = lookup({ 'name' => 'opts', 'merge' => { 'strategy' => 'hash' } })
  hiera_include('classes')
  $h = hiera_hash('mounts')
  $m = 'motd::message'.lookup(String, 'first')
  notify { "x": message => "${lookup('nested')} and ${hiera('old')}" }
  file { '/x': lookup => 'not a call' }
}
"#;
        assert_eq!(
            calls(text),
            vec![
                ("lookup".into(), vec!["profile::web::port".into()], None, 2),
                ("lookup".into(), vec!["ntp::*_servers".into()], Some("unique".into()), 4),
                ("lookup".into(), vec!["users".into(), "admins".into()], Some("deep".into()), 5),
                ("lookup".into(), vec!["*".into()], None, 6),
                ("lookup".into(), vec!["opts".into()], Some("hash".into()), 7),
                ("hiera_include".into(), vec!["classes".into()], Some("unique".into()), 8),
                ("hiera_hash".into(), vec!["mounts".into()], Some("hash".into()), 9),
                ("lookup".into(), vec!["motd::message".into()], Some("first".into()), 10),
                ("lookup".into(), vec!["nested".into()], None, 11),
                ("hiera".into(), vec!["old".into()], None, 11),
            ]
        );
    }

    #[test]
    fn calls_in_heredocs_that_interpolate_and_none_in_those_that_do_not() {
        let text = r#"class motd {
  $a = @("EOT"/L)
    Hello ${lookup('motd::greeting')} and $name, \${lookup('escaped')}
    | EOT
  $b = @(EOT)
    ${lookup('not::interpolated')}
    | EOT
  $c = [@("ONE"), @("TWO":json/$)]
    ${hiera('first')}
    | ONE
    ${lookup('second')} \${lookup('escaped')} \\${lookup('after_backslash')}
    | TWO
}
"#;
        assert_eq!(
            calls(text),
            vec![
                ("lookup".into(), vec!["motd::greeting".into()], None, 3),
                ("lookup".into(), vec!["escaped".into()], None, 3),
                ("hiera".into(), vec!["first".into()], None, 9),
                ("lookup".into(), vec!["second".into()], None, 11),
                ("lookup".into(), vec!["after_backslash".into()], None, 11),
            ]
        );
        assert!(lookup_calls("$x = @(\"E\")\n  ${lookup('x')\n  | E\n").is_err());
    }

    #[test]
    fn a_computed_key_matches_what_it_could_be() {
        let key = KeyText(vec![Some("ntp::".into()), None, Some("_servers".into())]);
        assert!(key.matches("ntp::pool_servers"));
        assert!(key.matches("ntp::_servers"));
        assert!(!key.matches("ntp::servers"));
        assert!(KeyText(vec![None]).matches("anything"));
        assert!(!KeyText(vec![Some("a".into())]).matches("ab"));
    }

    #[test]
    fn text_puppet_cannot_read_is_an_error() {
        assert!(lookup_calls("lookup('x").is_err());
    }
}
