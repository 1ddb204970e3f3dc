//! Merge strategies: `first`, `unique`, `hash` and `deep` (the deep_merge
//! gem's algorithm, quirks included), with Puppet's type checks and messages.

use crate::error::Error;
use crate::puppet::types::type_name;
use crate::value::{Hash, Str, Value};

/// The merge a lookup asks for as `puppet lookup` takes it: `--merge NAME`
/// and, with `deep`, `--knock-out-prefix`, `--sort-merged-arrays` and
/// `--merge-hash-arrays`. A document's `merge:` (a name, or a hash with
/// `strategy` and the deep options) is read into it and written from it, and
/// the command line's flags are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// `--merge`: `first`, `unique`, `hash` or `deep`; empty when not given.
    pub strategy: String,
    /// `--knock-out-prefix`.
    pub knockout_prefix: Option<String>,
    /// `--sort-merged-arrays`.
    pub sort_merged_arrays: bool,
    /// `--merge-hash-arrays`.
    pub merge_hash_arrays: bool,
}

impl MergeOptions {
    /// Reads a document's `merge:`.
    pub fn from_value(merge: Option<&Value>) -> MergeOptions {
        match merge {
            None | Some(Value::Undef) => MergeOptions::default(),
            Some(Value::Hash(h)) => {
                let get = |k: &str| h.get(&Str(k)).filter(|v| !matches!(v, Value::Undef));
                MergeOptions {
                    strategy: get("strategy").map(Value::to_ruby_s).unwrap_or_default(),
                    knockout_prefix: get("knockout_prefix").map(Value::to_ruby_s),
                    sort_merged_arrays: get("sort_merged_arrays").is_some_and(Value::is_truthy),
                    merge_hash_arrays: get("merge_hash_arrays").is_some_and(Value::is_truthy),
                }
            }
            Some(v) => MergeOptions { strategy: v.to_ruby_s(), ..MergeOptions::default() },
        }
    }

    /// A document's `merge:` for these options: none, a name, or a hash
    /// when a deep merge has options.
    pub fn to_value(&self) -> Option<Value> {
        match self.strategy.as_str() {
            "" => None,
            "deep" if self.deep_flags() => {
                let mut h = Hash::default();
                h.insert("strategy".into(), "deep".into());
                if let Some(p) = &self.knockout_prefix {
                    h.insert("knockout_prefix".into(), p.as_str().into());
                }
                if self.sort_merged_arrays {
                    h.insert("sort_merged_arrays".into(), Value::Bool(true));
                }
                if self.merge_hash_arrays {
                    h.insert("merge_hash_arrays".into(), Value::Bool(true));
                }
                Some(Value::Hash(h))
            }
            s => Some(Value::from(s)),
        }
    }

    fn deep_flags(&self) -> bool {
        self.knockout_prefix.is_some() || self.sort_merged_arrays || self.merge_hash_arrays
    }

    /// The merge `puppet lookup` hands the engine for these options (a deep
    /// merge always carries both array flags), or its refusal of them.
    pub fn request(&self) -> Result<Option<Value>, Error> {
        let name = self.strategy.as_str();
        if name.is_empty() && self.deep_flags() {
            return Err(Error::runtime(
                "The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'",
            ));
        }
        if name.is_empty() {
            return Ok(None);
        }
        if !matches!(name, "first" | "hash" | "unique" | "deep") {
            return Err(Error::runtime(
                "The --merge option only accepts 'first', 'hash', 'unique', or 'deep'\nRun 'puppet lookup --help' for more details",
            ));
        }
        let mut out = Hash::default();
        out.insert("strategy".into(), Value::from(name));
        if name == "deep" {
            out.insert("sort_merged_arrays".into(), Value::Bool(self.sort_merged_arrays));
            out.insert("merge_hash_arrays".into(), Value::Bool(self.merge_hash_arrays));
            if let Some(p) = &self.knockout_prefix {
                out.insert("knockout_prefix".into(), p.as_str().into());
            }
        } else if self.deep_flags() {
            return Err(Error::runtime(
                "The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'\nRun 'puppet lookup --help' for more details",
            ));
        }
        Ok(Some(Value::Hash(out)))
    }

    /// `puppet lookup`'s flags for these options, a value shell-quoted with
    /// `quote`; none when `puppet lookup` would refuse them.
    pub fn args(&self, quote: impl Fn(&str) -> String) -> Vec<String> {
        if !matches!(self.request(), Ok(Some(_))) {
            return Vec::new();
        }
        let mut args = vec![format!("--merge {}", self.strategy)];
        if self.strategy == "deep" {
            if let Some(p) = &self.knockout_prefix {
                args.push(format!("--knock-out-prefix {}", quote(p)));
            }
            if self.sort_merged_arrays {
                args.push("--sort-merged-arrays".into());
            }
            if self.merge_hash_arrays {
                args.push("--merge-hash-arrays".into());
            }
        }
        args
    }
}

/// Which strategy merges the values found.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// No strategy given: the first value found.
    Default,
    /// `first`: the first value found.
    First,
    /// `unique`: arrays flattened and concatenated, duplicates removed.
    Unique,
    /// `hash`: top-level keys merged, higher priority wins.
    Hash,
    /// `deep`: recursive merge.
    Deep,
}

/// A merge strategy with its options, as Puppet's `MergeStrategy.strategy(merge)` builds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Strategy {
    /// The strategy.
    pub kind: Kind,
    /// The options hash as given (may include `strategy`).
    pub options: Hash,
}

/// The deep merge options that change behaviour.
#[derive(Clone, Debug, Default)]
struct DeepOptions {
    knockout_prefix: Option<String>,
    sort_merged_arrays: bool,
    merge_hash_arrays: bool,
}

impl Strategy {
    /// The strategy used when none is given.
    pub fn default_strategy() -> Strategy {
        Strategy { kind: Kind::Default, options: Hash::default() }
    }

    /// A strategy without options.
    pub fn of(kind: Kind) -> Strategy {
        Strategy { kind, options: Hash::default() }
    }

    /// Builds a strategy from a `merge` value: nil, a name, or a hash with `strategy`.
    pub fn from_value(merge: Option<&Value>) -> Result<Strategy, Error> {
        let Some(merge) = merge.filter(|m| m.is_truthy()) else { return Ok(Strategy::default_strategy()) };
        let (name, options) = match merge {
            Value::Hash(h) => {
                let name = h.get(&Str("strategy")).filter(|v| v.is_truthy()).ok_or_else(|| {
                    Error::runtime("The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'")
                })?;
                (name.to_ruby_s(), if h.len() == 1 { Hash::default() } else { h.clone() })
            }
            v => (v.to_ruby_s(), Hash::default()),
        };
        let kind = match name.as_str() {
            "first" => Kind::First,
            "default" => Kind::Default,
            "unique" => Kind::Unique,
            "hash" => Kind::Hash,
            "deep" => Kind::Deep,
            _ => return Err(Error::runtime(format!("Unknown merge strategy: '{name}'"))),
        };
        let allowed: &[&str] = if kind == Kind::Deep {
            &["strategy", "knockout_prefix", "merge_debug", "merge_hash_arrays", "sort_merged_arrays"]
        } else {
            &["strategy"]
        };
        for (k, v) in &options {
            let key = k.to_ruby_s();
            if !allowed.contains(&key.as_str()) {
                return Err(Error::puppet(format!("The merge options has wrong type, unrecognized key '{key}'")));
            }
            let ok = match key.as_str() {
                "knockout_prefix" => matches!(v, Value::String(_) | Value::Undef),
                "merge_debug" | "merge_hash_arrays" | "sort_merged_arrays" => {
                    matches!(v, Value::Bool(_) | Value::Undef)
                }
                _ => true,
            };
            if !ok {
                let expected = if key == "knockout_prefix" { "a String" } else { "a Boolean" };
                return Err(Error::puppet(format!(
                    "The merge options has wrong type, entry '{key}' expects {expected} value, got {}",
                    type_name(v)
                )));
            }
        }
        Ok(Strategy { kind, options })
    }

    /// The strategy's name as the explanation prints it.
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Default => "default",
            Kind::First => "first",
            Kind::Unique => "unique",
            Kind::Hash => "hash",
            Kind::Deep => "deep",
        }
    }

    /// True for strategies that stop at the first value found.
    pub fn is_first_found(&self) -> bool {
        matches!(self.kind, Kind::Default | Kind::First)
    }

    /// The options without `strategy`, as the explanation prints them.
    pub fn options_without_strategy(&self) -> Option<Value> {
        let mut o = self.options.clone();
        o.shift_remove(&Value::from("strategy"));
        (!o.is_empty()).then_some(Value::Hash(o))
    }

    fn deep_options(&self) -> DeepOptions {
        let get = |k: &str| self.options.get(&Str(k));
        DeepOptions {
            knockout_prefix: get("knockout_prefix").and_then(|v| v.as_str().map(str::to_string)),
            sort_merged_arrays: get("sort_merged_arrays").is_some_and(Value::is_truthy),
            merge_hash_arrays: get("merge_hash_arrays").is_some_and(Value::is_truthy),
        }
    }

    /// The first value found, made ready to merge into (`convert_value`).
    pub fn convert_value(&self, value: Value) -> Value {
        match self.kind {
            Kind::Unique => Value::Array(flatten_or_wrap(value).into()),
            _ => value,
        }
    }

    /// The value when only one place was searched (`merge_single`).
    pub fn merge_single(&self, value: Value) -> Value {
        match (&self.kind, value) {
            (Kind::Unique, Value::Array(a)) => Value::Array(uniq(a.into_vec()).into()),
            (_, v) => v,
        }
    }

    /// Merges `higher` (the merged value so far) with `lower` (the next value
    /// found). Deep merge mutates `higher` as Ruby's does, which the
    /// explanation shows.
    pub fn merge(&self, higher: &mut Value, lower: Value) -> Result<Value, Error> {
        match self.kind {
            Kind::Default | Kind::First => Ok(higher.clone()),
            Kind::Hash => {
                check_hash("The first element of the merge", higher)?;
                check_hash("The second element of the merge", &lower)?;
                let (Value::Hash(h), Value::Hash(mut l)) = (higher.clone(), lower) else { unreachable!() };
                for (k, v) in h {
                    l.insert(k, v);
                }
                Ok(Value::Hash(l))
            }
            Kind::Unique => {
                check_unique("The first element of the merge", higher)?;
                check_unique("The second element of the merge", &lower)?;
                let mut all = flatten_or_wrap(higher.clone());
                all.extend(flatten_or_wrap(lower));
                Ok(Value::Array(uniq(all).into()))
            }
            Kind::Deep => {
                let opts = self.deep_options();
                if opts.knockout_prefix.as_deref() == Some("") {
                    return Err(Error::runtime("knockout_prefix cannot be an empty string in deep_merge!"));
                }
                let ko = match &opts.knockout_prefix {
                    Some(p) => Some(Knockout::new(p)?),
                    None => None,
                };
                deep_merge(higher, lower, &opts, ko.as_ref())
            }
        }
    }
}

fn check_hash(what: &str, v: &Value) -> Result<(), Error> {
    match v {
        Value::Hash(h) if h.iter().all(|(k, v)| matches!(k, Value::String(_)) && is_data(v)) => Ok(()),
        Value::Hash(_) => Err(Error::puppet(format!(
            "{what} has wrong type, expects a Hash[String, Data] value, got {}",
            crate::puppet::types::described(v)
        ))),
        v => Err(Error::puppet(format!("{what} has wrong type, expects a Hash value, got {}", type_name(v)))),
    }
}

fn check_unique(what: &str, v: &Value) -> Result<(), Error> {
    let ok = match v {
        Value::Array(a) => a.iter().all(is_data),
        Value::Hash(_) | Value::Undef | Value::Sensitive(_) | Value::Symbol(_) => false,
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::puppet(format!(
            "{what} has wrong type, expects a value of type Scalar or Array, got {}",
            type_name(v)
        )))
    }
}

/// Puppet's `Data`: scalars, undef, arrays of data, hashes of string to data.
fn is_data(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().all(is_data),
        Value::Hash(h) => h.iter().all(|(k, v)| matches!(k, Value::String(_)) && is_data(v)),
        Value::Sensitive(_) | Value::Symbol(_) => false,
        _ => true,
    }
}

fn flatten_or_wrap(v: Value) -> Vec<Value> {
    fn flatten(a: Vec<Value>, out: &mut Vec<Value>) {
        for v in a {
            match v {
                Value::Array(inner) => flatten(inner.into_vec(), out),
                v => out.push(v),
            }
        }
    }
    match v {
        Value::Array(a) => {
            let mut out = Vec::with_capacity(a.len());
            flatten(a.into_vec(), &mut out);
            out
        }
        v => vec![v],
    }
}

/// Ruby's `uniq` (and `|`): first occurrences, in order.
fn uniq(a: Vec<Value>) -> Vec<Value> {
    let mut seen: indexmap::IndexSet<Value, rustc_hash::FxBuildHasher> =
        indexmap::IndexSet::with_capacity_and_hasher(a.len(), Default::default());
    for v in a {
        seen.insert(v);
    }
    seen.into_iter().collect()
}

/// The knockout prefix as Ruby's `%r{^#{prefix}}`: a regexp at line starts.
struct Knockout {
    prefix: String,
    re: regex_lite::Regex,
}

impl Knockout {
    fn new(prefix: &str) -> Result<Knockout, Error> {
        // Ruby reads a repeat right after `^` as repeating the anchor
        // (`^**linux` is `linux` anywhere, `^+x` is `^x`); regex-lite refuses it.
        let mut rest = prefix;
        let mut anchored = true;
        while let Some((repeat, after)) = leading_repeat(rest) {
            anchored &= !(repeat.starts_with(['*', '?']) || repeat.starts_with("{0") || repeat.starts_with("{,"));
            rest = after;
        }
        let anchor = if anchored { "^" } else { "" };
        let re = regex_lite::Regex::new(&format!("(?m){anchor}{}", crate::puppet::regexp::translate(rest)))
            .map_err(|e| Error::runtime(format!("invalid knockout_prefix /^{prefix}/: {e}")))?;
        Ok(Knockout { prefix: prefix.to_string(), re })
    }

    /// `s.gsub(/^prefix/, "")`.
    fn strip(&self, s: &str) -> String {
        self.re.replace_all(s, "").into_owned()
    }

    fn matches(&self, s: &str) -> bool {
        self.re.is_match(s)
    }

    /// `source.index(knockout_prefix)`: an element that is the prefix itself.
    fn is_prefix_alone(&self, v: &Value) -> bool {
        matches!(v, Value::String(s) if *s == self.prefix)
    }
}

/// A repeat operator at the start of a pattern (`*`, `+`, `?`, `{2,3}`),
/// and what follows it.
fn leading_repeat(pattern: &str) -> Option<(&str, &str)> {
    if pattern.starts_with(['*', '+', '?']) {
        return Some(pattern.split_at(1));
    }
    let end = pattern.strip_prefix('{')?.find('}')? + 2;
    let inner = &pattern[1..end - 1];
    let counts = !inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit() || c == ',');
    counts.then(|| pattern.split_at(end))
}

/// `DeepMerge.deep_merge!(source, dest)` with `preserve_unmergeables: false`.
/// `source` (the higher priority value) is mutated where Ruby mutates it.
fn deep_merge(source: &mut Value, dest: Value, o: &DeepOptions, ko: Option<&Knockout>) -> Result<Value, Error> {
    if matches!(source, Value::Undef) {
        return Ok(dest);
    }
    if !dest.is_truthy() {
        return Ok(source.clone());
    }
    let mut dest = dest;
    match source {
        Value::Hash(src) => {
            for i in 0..src.len() {
                let (src_key, src_value) = match src.get_index_mut(i) {
                    Some((k, v)) => (k.clone(), v),
                    None => break,
                };
                match &mut dest {
                    Value::Hash(d) => {
                        let existing = d.get(&src_key).filter(|v| v.is_truthy()).cloned();
                        let merged = match existing {
                            Some(existing) => deep_merge(src_value, existing, o, ko)?,
                            None => {
                                let dup = src_value.clone();
                                deep_merge(src_value, dup, o, ko)?
                            }
                        };
                        d.insert(src_key, merged);
                    }
                    _ => {
                        let whole = Value::Hash(src.clone());
                        dest = overwrite_unmergeables(whole, ko);
                    }
                }
            }
            Ok(dest)
        }
        Value::Array(src) => {
            if let Some(ko) = ko {
                let prefix_alone = src.iter().position(|v| ko.is_prefix_alone(v));
                if prefix_alone.is_some() {
                    dest = match dest {
                        Value::Array(_) => Value::Array(Default::default()),
                        Value::Hash(_) => Value::Hash(Hash::default()),
                        Value::String(_) => Value::String(String::new()),
                        _ => Value::Undef,
                    };
                    src.retain(|v| !ko.is_prefix_alone(v));
                }
            }
            match dest {
                Value::Array(mut d) => {
                    if let Some(ko) = ko {
                        src.retain(|item| {
                            let Value::String(s) = item else { return true };
                            let stripped = ko.strip(s);
                            if &stripped == s {
                                return true;
                            }
                            let stripped = Value::String(stripped);
                            d.retain(|x| x != &stripped && x != item);
                            false
                        });
                    }
                    let src_all_hashes = src.iter().all(|v| matches!(v, Value::Hash(_)));
                    let dest_all_hashes = d.iter().all(|v| matches!(v, Value::Hash(_)));
                    let mut result = if o.merge_hash_arrays && src_all_hashes && dest_all_hashes {
                        let mut list = Vec::with_capacity(d.len().max(src.len()));
                        let dest_len = d.len();
                        for (i, dv) in d.into_iter().enumerate() {
                            let mut s = src.get(i).cloned().unwrap_or(Value::Hash(Hash::default()));
                            list.push(deep_merge(&mut s, dv, o, ko)?);
                            if let Some(orig) = src.get_mut(i) {
                                *orig = s;
                            }
                        }
                        if src.len() > dest_len {
                            list.extend(src[dest_len..].iter().cloned());
                        }
                        list
                    } else {
                        d.extend(src.iter().cloned());
                        uniq(d.into_vec())
                    };
                    if o.sort_merged_arrays {
                        sort_values(&mut result)?;
                    }
                    Ok(Value::Array(result.into()))
                }
                _ => {
                    // Ruby's `delete_if` empties the source of knockouts in place.
                    let result = overwrite_unmergeables(Value::Array(std::mem::take(src)), ko);
                    *source = result.clone();
                    Ok(result)
                }
            }
        }
        _ => Ok(overwrite_unmergeables(source.clone(), ko)),
    }
}

/// `overwrite_unmergeables(source, dest)`: the source wins, except that a
/// knocked-out string becomes `""` and knockout elements leave arrays.
fn overwrite_unmergeables(source: Value, ko: Option<&Knockout>) -> Value {
    let Some(ko) = ko else { return source };
    match source {
        Value::String(s) => {
            let stripped = ko.strip(&s);
            if stripped == s {
                Value::String(s)
            } else {
                Value::String(String::new())
            }
        }
        Value::Array(a) => {
            Value::Array(a.into_iter().filter(|v| !matches!(v, Value::String(s) if ko.matches(s))).collect())
        }
        v => v,
    }
}

/// Ruby's `sort!` on merged arrays: numbers with numbers, strings with
/// strings. A merge sort that compares an earlier element with a later one,
/// as Ruby does, so that a failure names the classes in Ruby's order.
fn sort_values(a: &mut Vec<Value>) -> Result<(), Error> {
    if a.len() < 2 {
        return Ok(());
    }
    let right = a.split_off(a.len() / 2);
    let mut left = std::mem::take(a);
    let mut right = right;
    sort_values(&mut left)?;
    sort_values(&mut right)?;
    let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(x), Some(y)) = (l.peek(), r.peek()) {
        if compare(x, y)? == std::cmp::Ordering::Greater {
            a.extend(r.next());
        } else {
            a.extend(l.next());
        }
    }
    a.extend(l);
    a.extend(r);
    Ok(())
}

fn compare(x: &Value, y: &Value) -> Result<std::cmp::Ordering, Error> {
    use Value::*;
    let fail = || Error::runtime(format!("comparison of {} with {} failed", x.ruby_class(), y.ruby_class()));
    match (x, y) {
        (Integer(a), Integer(b)) => Ok(a.cmp(b)),
        (Integer(a), Float(b)) => a.to_f64().partial_cmp(b).ok_or_else(fail),
        (Float(a), Integer(b)) => a.partial_cmp(&b.to_f64()).ok_or_else(fail),
        (Float(a), Float(b)) => a.partial_cmp(b).ok_or_else(fail),
        (String(a), String(b)) => Ok(a.as_bytes().cmp(b.as_bytes())),
        (Array(a), Array(b)) => {
            for (p, q) in a.iter().zip(b) {
                let o = compare(p, q)?;
                if o != std::cmp::Ordering::Equal {
                    return Ok(o);
                }
            }
            Ok(a.len().cmp(&b.len()))
        }
        _ => Err(fail()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::yaml;

    #[test]
    fn merge_options_read_and_write_a_documents_merge_and_refuse_as_puppet_lookup_does() {
        let json = |m: &MergeOptions| m.request().map(|r| r.map(|v| v.to_json().unwrap()));
        let deep =
            MergeOptions::from_value(Some(&v("{strategy: deep, knockout_prefix: '--', sort_merged_arrays: true}")));
        assert_eq!(deep.knockout_prefix.as_deref(), Some("--"));
        assert_eq!(MergeOptions::from_value(deep.to_value().as_ref()), deep);
        assert_eq!(
            json(&deep).unwrap().as_deref(),
            Some(r#"{"strategy":"deep","sort_merged_arrays":true,"merge_hash_arrays":false,"knockout_prefix":"--"}"#)
        );
        assert_eq!(
            deep.args(|s| format!("<{s}>")),
            ["--merge deep", "--knock-out-prefix <-->", "--sort-merged-arrays"]
        );
        // A plain deep merge is written as its name; no merge as nothing.
        let plain = MergeOptions { strategy: "deep".into(), ..MergeOptions::default() };
        assert_eq!(plain.to_value(), Some(Value::from("deep")));
        assert_eq!(MergeOptions::from_value(None).to_value(), None);
        assert_eq!(json(&MergeOptions::default()).unwrap(), None);
        let refused = |m: MergeOptions| m.request().unwrap_err().into_message();
        assert!(refused(MergeOptions { strategy: "deepest".into(), ..MergeOptions::default() })
            .starts_with("The --merge option only accepts"));
        let flags = MergeOptions { sort_merged_arrays: true, ..MergeOptions::default() };
        assert!(refused(flags.clone()).ends_with("only available with '--merge deep'"));
        assert!(refused(MergeOptions { strategy: "hash".into(), ..flags })
            .contains("'--merge deep'\nRun 'puppet lookup --help'"));
    }

    fn v(text: &str) -> Value {
        yaml::load(&format!("v: {text}\n")).unwrap().unwrap().0.get("v").unwrap().clone()
    }

    fn deep(opts: &str) -> Strategy {
        Strategy::from_value(Some(&v(opts))).unwrap()
    }

    #[test]
    fn deep_merge_keeps_lower_order_and_appends() {
        let s = deep("{strategy: deep}");
        let mut hi = v("{a: {x: 1}, l: [b]}");
        let r = s.merge(&mut hi, v("{a: {y: 2}, l: [a], z: 0}")).unwrap();
        assert_eq!(r.inspect(), r#"{"a"=>{"y"=>2, "x"=>1}, "l"=>["a", "b"], "z"=>0}"#);
    }

    #[test]
    fn knockout_removes_from_the_next_level_only_and_mutates_the_source() {
        let s = deep("{strategy: deep, knockout_prefix: '--'}");
        let mut hi = v("['--web1', web9]");
        let r = s.merge(&mut hi, v("[web1, web2]")).unwrap();
        assert_eq!(r.inspect(), r#"["web2", "web9"]"#);
        assert_eq!(hi.inspect(), r#"["web9"]"#);
    }

    #[test]
    fn hash_and_unique() {
        let mut hi = v("{b: 2, a: 1}");
        let r = Strategy::of(Kind::Hash).merge(&mut hi, v("{a: 0, c: 3}")).unwrap();
        assert_eq!(r.inspect(), r#"{"a"=>1, "c"=>3, "b"=>2}"#);
        let mut hi = v("[a, [b]]");
        let r = Strategy::of(Kind::Unique).merge(&mut hi, v("[b, c]")).unwrap();
        assert_eq!(r.inspect(), r#"["a", "b", "c"]"#);
    }

    #[test]
    fn sorting_mixed_arrays_fails_as_ruby() {
        let s = deep("{strategy: deep, sort_merged_arrays: true}");
        // The lower level's elements come first: [1] | [a] sorts 1 <=> "a".
        let mut hi = v("[a]");
        let e = s.merge(&mut hi, v("[1]")).unwrap_err();
        assert_eq!(e.message, "comparison of Integer with String failed");
    }
}
