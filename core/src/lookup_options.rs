//! `lookup_options`: validated, split into literal keys and regexp keys, and
//! matched against a key as Puppet matches them (literal first, then the
//! patterns in order).

use crate::error::Error;
use crate::key::LookupKey;
use crate::puppet::regexp;
use crate::value::{Hash, Value};
use std::cell::OnceCell;

mod simple;

/// The options that apply to keys: by exact key, then by pattern.
#[derive(Debug, Default)]
pub struct Compiled {
    /// Options by exact root key.
    pub keys: Hash,
    /// Options by pattern, in the order they were given.
    pub patterns: Vec<Pattern>,
}

/// A `lookup_options` regexp key.
#[derive(Debug)]
pub struct Pattern {
    /// The key as written.
    pub source: String,
    /// The regexp as Ruby reads it: `^` and `$` match at line breaks. Only
    /// a key with a line break needs it, so a pattern of the usual shape,
    /// which always compiles, compiles it then.
    lines: OnceCell<Option<regex_lite::Regex>>,
    /// The same for a key without line breaks, where `^` and `$` can only
    /// match at its ends.
    whole: Whole,
    /// Literal text every match of a key without line breaks contains,
    /// checked before the regexp runs.
    literals: Literals,
    /// The options.
    pub options: Value,
}

impl Pattern {
    /// Whether `key` matches; `has_break` tells whether it has a line break.
    fn is_match(&self, key: &str, has_break: bool) -> bool {
        if has_break {
            let lines = self.lines.get_or_init(|| compile(&self.source).ok());
            return lines.as_ref().is_some_and(|r| r.is_match(key));
        }
        let Literals { prefix, inner, suffix } = &self.literals;
        // A key's last and first bytes turn most keys away without
        // comparing strings: every lookup asks every pattern.
        let edge = |literal: &str, at: fn(&[u8]) -> Option<&u8>| {
            at(literal.as_bytes()).is_none_or(|b| at(key.as_bytes()) == Some(b))
        };
        edge(suffix, <[u8]>::last)
            && edge(prefix, <[u8]>::first)
            && key.starts_with(prefix.as_str())
            && key.ends_with(suffix.as_str())
            && inner.iter().all(|r| key.contains(r.as_str()))
            && match &self.whole {
                Whole::Simple(simple) => simple.is_match(key),
                Whole::Regex(regex) => regex.is_match(key),
            }
    }
}

/// How a pattern matches a key without line breaks.
#[derive(Debug)]
enum Whole {
    /// The usual shape of pattern, with a matcher of its own.
    Simple(Box<simple::Simple>),
    /// Any other, anchored at the start of the key by regex-lite.
    Regex(regex_lite::Regex),
}

impl Compiled {
    /// Splits options into literal keys and patterns (keys starting with `^`).
    pub fn new(options: &Hash) -> Result<Compiled, Error> {
        let mut compiled = Compiled::default();
        for (k, v) in options {
            let key = k.to_ruby_s();
            if key.starts_with('^') {
                let (lines, whole) = match simple::Simple::new(&key) {
                    Some(simple) => (OnceCell::new(), Whole::Simple(Box::new(simple))),
                    None => {
                        let lines = OnceCell::from(Some(compile(&key)?));
                        let whole = regex_lite::Regex::new(&regexp::translate(&key))
                            .map_err(|e| Error::runtime(e.to_string()))?;
                        (lines, Whole::Regex(whole))
                    }
                };
                let literals = required_literals(&key);
                compiled.patterns.push(Pattern { source: key, lines, whole, literals, options: v.clone() });
            } else {
                compiled.keys.insert(k.clone(), v.clone());
            }
        }
        Ok(compiled)
    }

    /// The options for a key's root, and the literal key or pattern that matched.
    pub fn for_key(&self, key: &LookupKey) -> Option<(&Value, &str)> {
        self.find(key).map(|m| self.get(m))
    }

    /// Which options apply to a key's root, to be read with [`Compiled::get`].
    pub fn find(&self, key: &LookupKey) -> Option<Match> {
        let same = |k: &Value| key.is_root(k);
        if let Some((i, v)) =
            self.keys.index_from_hash(key.root_hash, same).and_then(|i| Some((i, self.keys.get_index(i)?.1)))
        {
            if !matches!(v, Value::Undef) {
                return Some(Match::Key(i));
            }
        }
        let root = key.root();
        // Without an early exit the scan compiles to vector instructions,
        // where `contains` costs more than the matching for a short key.
        let has_break = root.bytes().fold(false, |found, b| found | (b == b'\n'));
        let index = self.patterns.iter().position(|p| p.is_match(root, has_break));
        index.map(Match::Pattern)
    }

    /// The options a [`Match`] of these options names, and the literal key or pattern.
    pub fn get(&self, m: Match) -> (&Value, &str) {
        match m {
            Match::Key(i) => match self.keys.get_index(i) {
                Some((k, v)) => (v, k.as_str().unwrap_or_default()),
                None => (&Value::Undef, ""),
            },
            Match::Pattern(i) => match self.patterns.get(i) {
                Some(p) => (&p.options, p.source.as_str()),
                None => (&Value::Undef, ""),
            },
        }
    }
}

/// Which of a [`Compiled`]'s options apply to a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Match {
    /// The literal key at this position.
    Key(usize),
    /// The pattern at this position.
    Pattern(usize),
}

/// Literal text a pattern's matches must contain.
#[derive(Debug, Default, PartialEq)]
struct Literals {
    /// What a match starts with (the literal text after `^`).
    prefix: String,
    /// Other literal runs.
    inner: Vec<String>,
    /// What a match ends with (the literal text before a final `$`).
    suffix: String,
}

/// What a pattern's matches must contain, when the key has no line break.
/// Patterns with alternation, groups, classes, counted or stacked
/// repetition (`a+*`), or escapes other than one-character classes and
/// anchors (`\x41`, `\1`) give nothing, which only means the regexp decides
/// alone.
fn required_literals(pattern: &str) -> Literals {
    let stacked = pattern.as_bytes().windows(2).any(|w| matches!(w, [b'*' | b'+' | b'?', b'*' | b'+' | b'?']));
    if pattern.contains(['|', '(', '[', '{']) || stacked {
        return Literals::default();
    }
    let body = pattern.strip_prefix('^').unwrap_or(pattern);
    let mut runs: Vec<(usize, String)> = Vec::new();
    let mut run = String::new();
    let mut start = 0;
    let mut anchored_end = false;
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        anchored_end = false;
        match c {
            '\\' => match chars.next() {
                // An escaped punctuation character is itself.
                Some((_, e)) if e.is_ascii_punctuation() => run.push(e),
                // A class (`\w`, `\d`...), anchor or control character ends the literal run.
                Some((
                    _,
                    'w' | 'W' | 'd' | 'D' | 's' | 'S' | 'h' | 'H' | 'b' | 'B' | 'A' | 'z' | 'Z' | 'n' | 't' | 'r',
                ))
                | None => {
                    runs.push((start, std::mem::take(&mut run)));
                    start = i + 1;
                }
                // Anything else may stand for several characters of the pattern.
                Some(_) => return Literals::default(),
            },
            '*' | '?' => {
                run.pop();
                runs.push((start, std::mem::take(&mut run)));
                start = i + 1;
            }
            '.' | '+' | '$' | '^' => {
                runs.push((start, std::mem::take(&mut run)));
                start = i + 1;
                anchored_end = c == '$';
            }
            c => run.push(c),
        }
    }
    let suffix = if anchored_end { runs.pop().map(|(_, r)| r).unwrap_or_default() } else { String::new() };
    runs.push((start, run));
    let prefix = match runs.first_mut() {
        Some((0, first)) => std::mem::take(first),
        _ => String::new(),
    };
    let inner = runs.into_iter().map(|(_, r)| r).filter(|r| r.len() > 1).collect();
    Literals { prefix, inner, suffix }
}

/// Puppet's `validate_lookup_options`: a hash, and in a module only keys and
/// patterns of that module.
pub fn validate(options: Value, module: Option<&str>) -> Result<Hash, Error> {
    let Value::Hash(options) = options else {
        return Err(Error::lookup("value of lookup_options must be a hash"));
    };
    if let Some(m) = module {
        let prefix = format!("{m}::");
        for k in options.keys() {
            let key = k.to_ruby_s();
            if let Some(pattern) = key.strip_prefix('^') {
                if !pattern.starts_with(&prefix) {
                    return Err(Error::lookup(format!(
                        "all lookup_options patterns must match a key starting with module name '{m}'"
                    )));
                }
            } else if !key.starts_with(&prefix) {
                return Err(Error::lookup(format!("all lookup_options keys must start with module name '{m}'")));
            }
        }
    }
    Ok(options)
}

/// Compiles a Ruby regexp with regex-lite, with Ruby's message for the
/// mistakes Ruby reports and a clear one for what regex-lite cannot express.
pub fn compile(pattern: &str) -> Result<regex_lite::Regex, Error> {
    if let Some(problem) = regexp::unbalanced(pattern) {
        return Err(Error::runtime(format!("{problem}: /{pattern}/")));
    }
    regex_lite::Regex::new(&regexp::to_regex_lite(pattern)).map_err(|e| {
        Error::runtime(format!(
            "lookup_options pattern /{pattern}/ cannot be used: {}",
            e.to_string().lines().last().unwrap_or("invalid regexp")
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_beats_pattern_and_first_pattern_wins() {
        let key = |k: &str| LookupKey::parse(k).unwrap();
        let (opts, _) = crate::formats::yaml::load("'^profile::.*_hosts$': {merge: unique}\n'^profile::web::.*': {merge: hash}\nprofile::web::x_hosts: {merge: deep}\n").unwrap().unwrap();
        let c = Compiled::new(opts.as_hash().unwrap()).unwrap();
        assert_eq!(c.for_key(&key("profile::web::x_hosts")).unwrap().1, "profile::web::x_hosts");
        assert_eq!(c.for_key(&key("profile::web::y_hosts")).unwrap().1, "^profile::.*_hosts$");
        assert!(c.for_key(&key("other")).is_none());
    }

    #[test]
    fn literal_prefilter_is_sound() {
        let literals = |prefix: &str, inner: &[&str], suffix: &str| Literals {
            prefix: prefix.into(),
            inner: inner.iter().map(|s| s.to_string()).collect(),
            suffix: suffix.into(),
        };
        assert_eq!(required_literals("^profile::.*_settings$"), literals("profile::", &[], "_settings"));
        assert_eq!(required_literals("^ab*c"), literals("a", &[], ""));
        assert_eq!(required_literals("^(a|b)::x$"), literals("", &[], ""));
        assert_eq!(required_literals(r"^profile::\w+::\w+_settings$"), literals("profile::", &["::"], "_settings"));
        assert_eq!(required_literals(r"^a\.b"), literals("a.b", &[], ""));
        assert_eq!(required_literals(r"^a\$"), literals("a$", &[], ""));
        assert_eq!(required_literals(r"^x.*\.com$"), literals("x", &[], ".com"));
        assert_eq!(required_literals(r"^x.*ab?$"), literals("x", &[], ""));
        assert_eq!(required_literals(r"^xa+*"), literals("", &[], ""));
        assert_eq!(required_literals(r"^\x41bc"), literals("", &[], ""));
        assert_eq!(required_literals(r"^a\>"), literals("a>", &[], ""));
    }

    /// Patterns and keys from small alphabets, drawn by a seeded xorshift
    /// generator, to compare matchers with regex-lite.
    pub(super) struct Generated(u64);

    impl Generated {
        pub(super) fn new(seed: u64) -> Generated {
            Generated(seed)
        }

        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        /// `^`, then 1 to `most` atoms each with a quantifier, and half the time `$`.
        pub(super) fn pattern(&mut self, atoms: &[&str], quantifiers: &[&str], most: usize) -> String {
            let mut pattern = String::from("^");
            for _ in 0..1 + self.below(most) {
                pattern.push_str(atoms[self.below(atoms.len())]);
                pattern.push_str(quantifiers[self.below(quantifiers.len())]);
            }
            if self.below(2) == 0 {
                pattern.push('$');
            }
            pattern
        }

        /// Fewer than `most` characters.
        pub(super) fn key(&mut self, chars: &[char], most: usize) -> String {
            (0..self.below(most)).map(|_| chars[self.below(chars.len())]).collect()
        }
    }

    /// The prefilter and the matcher together against regex-lite, on
    /// patterns built from atoms and quantifiers a prefilter could misread.
    #[test]
    fn a_key_without_line_breaks_matches_as_regex_lite_says() {
        let atoms = ["a", "b", ":", ".", r"\w", r"\d", r"\.", r"\<", r"\>", r"\x41", r"\$", "é"];
        let quantifiers = ["", "", "?", "*", "+", "+*", "*?", "+?", "??"];
        let key_chars = ['a', 'b', ':', 'A', '<', '>', '.', '$', 'é', '1'];
        let mut generated = Generated::new(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for _ in 0..2000 {
            let pattern = generated.pattern(&atoms, &quantifiers, 5);
            let mut options = Hash::default();
            options.insert(Value::from(pattern.as_str()), Value::Undef);
            // Patterns regex-lite refuses are an error before any matching.
            let Ok(compiled) = Compiled::new(&options) else { continue };
            let p = &compiled.patterns[0];
            // What a key with a line break is matched with, compiled only then:
            // a pattern that compiled must compile again.
            let lines = compile(&pattern).expect(&pattern);
            for _ in 0..20 {
                let key = generated.key(&key_chars, 8);
                assert_eq!(p.is_match(&key, false), lines.is_match(&key), "{pattern} on {key:?}");
                checked += 1;
            }
        }
        assert!(checked > 30_000, "{checked}");
    }

    #[test]
    fn a_line_break_lets_anchors_match_inside_the_key() {
        let (opts, _) = crate::formats::yaml::load("'^web::.*_hosts$': {merge: unique}\n").unwrap().unwrap();
        let c = Compiled::new(opts.as_hash().unwrap()).unwrap();
        let matches = |k: &str| c.patterns[0].is_match(k, k.contains('\n'));
        assert!(matches("web::a_hosts"));
        assert!(!matches("web::a_hosts::x"));
        // Ruby's `^` and `$` match at line breaks.
        assert!(matches("x\nweb::a_hosts\ny"));
        assert!(!matches("x\nweb::a_host"));
    }

    #[test]
    fn ruby_messages_for_bad_patterns() {
        let e = compile("^profile::(web|db::users$").unwrap_err();
        assert_eq!(e.message, "end pattern with unmatched parenthesis: /^profile::(web|db::users$/");
    }
}
