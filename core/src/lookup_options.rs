//! `lookup_options`: validated, split into literal keys and regexp keys, and
//! matched against a key as Puppet matches them (literal first, then the
//! patterns in order).

use crate::error::Error;
use crate::value::{Hash, Value};

/// The options that apply to keys: by exact key, then by pattern.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    /// Options by exact root key.
    pub keys: Hash,
    /// Options by pattern, in the order they were given.
    pub patterns: Vec<(String, regex_lite::Regex, Value)>,
}

impl Compiled {
    /// Splits options into literal keys and patterns (keys starting with `^`).
    pub fn new(options: &Hash) -> Result<Compiled, Error> {
        let mut compiled = Compiled::default();
        for (k, v) in options {
            let key = k.to_ruby_s();
            if key.starts_with('^') {
                let re = compile(&key)?;
                compiled.patterns.push((key, re, v.clone()));
            } else {
                compiled.keys.insert(k.clone(), v.clone());
            }
        }
        Ok(compiled)
    }

    /// The options for a root key, and the literal key or pattern that matched.
    pub fn for_key(&self, root: &str) -> Option<(&Value, &str)> {
        if let Some((Value::String(k), v)) = self.keys.get_key_value(&Value::from(root)) {
            if !matches!(v, Value::Undef) {
                return Some((v, k.as_str()));
            }
        }
        self.patterns.iter().find(|(_, re, _)| re.is_match(root)).map(|(p, _, v)| (v, p.as_str()))
    }
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
    if let Some(problem) = unbalanced(pattern) {
        return Err(Error::runtime(format!("{problem}: /{pattern}/")));
    }
    regex_lite::Regex::new(&ruby_regex_to_rust(pattern)).map_err(|e| {
        Error::runtime(format!("lookup_options pattern /{pattern}/ cannot be used: {}", e.to_string().lines().last().unwrap_or("invalid regexp")))
    })
}

fn unbalanced(pattern: &str) -> Option<&'static str> {
    let mut depth = 0i32;
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth -= 1;
                if depth < 0 {
                    return Some("unmatched close parenthesis");
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        Some("end pattern with unmatched parenthesis")
    } else if in_class {
        Some("premature end of char-class")
    } else {
        None
    }
}

/// Ruby's `^`/`$` match at line boundaries and `\A`/`\z`/`\Z` at the ends;
/// `\h` is a hex digit. The rest of the common syntax is shared.
pub fn ruby_regex_to_rust(pattern: &str) -> String {
    let mut out = String::from("(?m)");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') => out.push_str("[^0-9a-fA-F]"),
                Some('Z') => out.push_str(r"(?:\n?\z)"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push_str(r"\\"),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_beats_pattern_and_first_pattern_wins() {
        let (opts, _) = crate::yaml::load("'^profile::.*_hosts$': {merge: unique}\n'^profile::web::.*': {merge: hash}\nprofile::web::x_hosts: {merge: deep}\n").unwrap().unwrap();
        let c = Compiled::new(opts.as_hash().unwrap()).unwrap();
        assert_eq!(c.for_key("profile::web::x_hosts").unwrap().1, "profile::web::x_hosts");
        assert_eq!(c.for_key("profile::web::y_hosts").unwrap().1, "^profile::.*_hosts$");
        assert!(c.for_key("other").is_none());
    }

    #[test]
    fn ruby_messages_for_bad_patterns() {
        let e = compile("^profile::(web|db::users$").unwrap_err();
        assert_eq!(e.message, "end pattern with unmatched parenthesis: /^profile::(web|db::users$/");
    }
}
