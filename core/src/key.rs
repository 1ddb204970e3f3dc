//! Dotted keys: `a.b.0`, `a."b.c"`, split as Puppet's `SubLookup#split_key`.

use crate::value::{Int, Key, Str, Value};
use std::rc::Rc;

/// A key split into its root and the segments that dig into the root's value.
#[derive(Clone, Debug, PartialEq)]
pub struct LookupKey {
    /// The key as written (shared: a lookup keeps it in its recursion guard).
    pub key: Rc<str>,
    /// The root's hash as a key of a [`crate::value::Hash`], computed once
    /// for the many files it is looked up in.
    pub root_hash: u64,
    /// The module the key belongs to (`ntp` for `ntp::servers`).
    pub module: Option<Rc<str>>,
    /// A dotted key's root and segments. Most keys are their own root: a
    /// session keeps every key it is asked for, and they then cost a word.
    dotted: Option<Box<Dotted>>,
}

#[derive(Clone, Debug, PartialEq)]
struct Dotted {
    root: String,
    segments: Vec<Value>,
}

impl LookupKey {
    /// Splits `key`; a malformed key is Puppet's "Syntax error in key".
    pub fn parse(key: &str) -> Result<LookupKey, crate::Error> {
        LookupKey::parse_sharing(key, |m| Rc::from(m))
    }

    /// [`LookupKey::parse`], with the module name made by `module`: a run
    /// shares one per module among its keys.
    pub fn parse_sharing(key: &str, module: impl FnOnce(&str) -> Rc<str>) -> Result<LookupKey, crate::Error> {
        let syntax_error = || crate::Error::lookup(format!("Syntax error in key: '{key}'"));
        let dotted = if needs_split(key) {
            let mut segments = split_key(key).ok_or_else(syntax_error)?;
            let root = segments.remove(0).to_ruby_s();
            (root != key || !segments.is_empty()).then(|| Box::new(Dotted { root, segments }))
        } else {
            None
        };
        let root = dotted.as_ref().map_or(key, |d| &d.root);
        let module =
            root.as_bytes().windows(2).position(|w| w == b"::").map(|i| module(if i == 0 { root } else { &root[..i] }));
        let root_hash = crate::value::hash_of(&Str(root));
        Ok(LookupKey { key: Rc::from(key), root_hash, module, dotted })
    }

    /// The part looked up in the data.
    pub fn root(&self) -> &str {
        self.dotted.as_ref().map_or(&self.key, |d| &d.root)
    }

    /// Segments to dig into the root's value with; integers index arrays.
    pub fn segments(&self) -> &[Value] {
        self.dotted.as_ref().map_or(&[], |d| &d.segments)
    }

    /// Whether a hash key is the root.
    pub fn is_root(&self, key: &Value) -> bool {
        Str(self.root()).is(key)
    }
}

/// Whether a key has a dot or a quote: most have neither, and are their own root.
fn needs_split(key: &str) -> bool {
    key.bytes().any(|b| matches!(b, b'\'' | b'"' | b'.'))
}

/// Puppet's `split_key`: `None` on a syntax error.
pub fn split_key(key: &str) -> Option<Vec<Value>> {
    if !needs_split(key) {
        return Some(vec![Value::from(key)]);
    }
    // The common shape, unquoted segments between single dots
    // (`facts.os.family`), is what the matching below makes of it.
    if !key.contains(['\'', '"']) && !key.split('.').any(str::is_empty) {
        return Some(key.split('.').map(segment).collect());
    }
    split_matching(key)
}

/// [`split_key`] the way Puppet does it, for any key.
fn split_matching(key: &str) -> Option<Vec<Value>> {
    // Ruby's `key.split(/(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/)`: the text
    // between matches and the matches themselves, trailing empties dropped.
    let mut parts: Vec<String> = Vec::new();
    let mut between = String::new();
    let mut i = 0;
    while i < key.len() {
        match match_segment(&key[i..]) {
            Some(len) => {
                parts.push(std::mem::take(&mut between));
                parts.push(key[i..i + len].to_string());
                i += len;
            }
            None => {
                let c = key[i..].chars().next()?;
                between.push(c);
                i += c.len_utf8();
            }
        }
    }
    parts.push(between);
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    if parts.is_empty() || !parts.remove(0).is_empty() {
        return None;
    }
    let count = parts.len();
    if count == 0 {
        return None;
    }
    parts.retain(|p| p != ".");
    if parts.len() * 2 != count + 1 {
        return None;
    }
    Some(parts.iter().map(|p| segment(p)).collect())
}

/// A segment's value: quotes removed, or an integer to index an array with.
fn segment(p: &str) -> Value {
    let p = p.trim();
    if p.starts_with('"') || p.starts_with('\'') {
        Value::String(p[1..p.len() - 1].to_string())
    } else if is_int_segment(p) {
        Value::Integer(ruby_to_i(p))
    } else {
        Value::String(p.to_string())
    }
}

/// Length of a match of `\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+` at the start of `s`.
fn match_segment(s: &str) -> Option<usize> {
    for q in ['"', '\''] {
        let ws = s.len() - s.trim_start().len();
        let rest = &s[ws..];
        if let Some(body) = rest.strip_prefix(q) {
            if let Some(end) = body.find(q) {
                if end > 0 {
                    let after = &body[end + 1..];
                    let trailing = after.len() - after.trim_start().len();
                    return Some(ws + 1 + end + 1 + trailing);
                }
            }
        }
    }
    let n: usize = s.chars().take_while(|c| !matches!(c, '\'' | '"' | '.')).map(char::len_utf8).sum();
    (n > 0).then_some(n)
}

/// `/^(:?[+-]?[0-9]+)$/` (the optional colon is Puppet's).
fn is_int_segment(p: &str) -> bool {
    let p = p.strip_prefix(':').unwrap_or(p);
    let p = p.strip_prefix(['+', '-']).unwrap_or(p);
    !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())
}

fn ruby_to_i(p: &str) -> Int {
    if p.starts_with(':') {
        return Int::ZERO;
    }
    Int::from_decimal(p).unwrap_or(Int::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_puppet() {
        let s = |k: &str| split_key(k).map(|v| v.iter().map(Value::inspect).collect::<Vec<_>>().join(" "));
        assert_eq!(s("a.b.0"), Some(r#""a" "b" 0"#.into()));
        assert_eq!(s(r#"a."b.c".d"#), Some(r#""a" "b.c" "d""#.into()));
        assert_eq!(s("a..b"), None);
        assert_eq!(s(r#"a."b"#), None);
        assert_eq!(s("plain"), Some(r#""plain""#.into()));
        assert_eq!(s("a.-1"), Some(r#""a" -1"#.into()));
        assert_eq!(s("a.+2.:3"), Some(r#""a" 2 0"#.into()));
        let big = "123456789012345678901234567890123456789012";
        assert_eq!(s(&format!("a.{big}.-{big}")), Some(format!(r#""a" {big} -{big}"#)));
    }

    #[test]
    fn a_key_knows_its_root_as_a_hash_key() {
        use std::hash::BuildHasher;
        for (key, root) in [("ntp::servers", "ntp::servers"), ("a.b.0", "a"), (r#""x.y".z"#, "x.y"), ("'q'", "q")] {
            let lk = LookupKey::parse(key).unwrap();
            assert_eq!(lk.root(), root);
            assert!(lk.is_root(&Value::from(root)));
            assert_eq!(lk.is_root(&Value::from(key)), key == root);
            assert_eq!(lk.root_hash, rustc_hash::FxBuildHasher.hash_one(Value::from(root)), "{key}");
        }
    }

    #[test]
    fn the_shortcut_splits_as_the_matching_does() {
        let alphabet = ['a', '.', ' ', '1', '-', ':', '+', 'é'];
        let mut checked = 0;
        for n in 1..=5u32 {
            for mut i in 0..alphabet.len().pow(n) {
                let mut key = String::new();
                for _ in 0..n {
                    key.push(alphabet[i % alphabet.len()]);
                    i /= alphabet.len();
                }
                if needs_split(&key) {
                    assert_eq!(split_key(&key), split_matching(&key), "{key:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
