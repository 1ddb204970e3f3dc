//! The data model: the values Hiera data holds, as Puppet sees them.
//!
//! Hash keys are values too (YAML allows integer keys, and Puppet keeps them),
//! and hashes keep their insertion order, which is part of every result.

use std::fmt::Write as _;
use std::hash::{Hash as StdHash, Hasher};
use std::sync::{Arc, LazyLock};

mod int;
mod map;

pub use int::Int;
pub use map::{hash_of, Iter, Key, Map};

/// An ordered hash, as Ruby's `Hash`: keys keep the order they were inserted in.
/// Keys are hashed with FxHash: the data is the user's own, and hashing is
/// a large part of a lookup's cost.
///
/// Copies share their entries until one of them is changed (it derefs to
/// its [`Map`], mutably by copying first when shared): a lookup hands out
/// the hashes of a parsed file many times over and seldom changes them.
/// The count is atomic so that a file can be read on several threads.
#[derive(Clone)]
pub struct Hash(Arc<Map>);

impl PartialEq for Hash {
    /// Equal entries in any order; a copy is equal at once (a node's facts
    /// are compared each time the node is looked up).
    fn eq(&self, other: &Hash) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

/// What every empty [`Hash`](struct@Hash) made by `default` shares until it
/// is changed, so that one that stays empty (a lookup's default merge
/// options) costs no allocation.
static EMPTY_MAP: LazyLock<Arc<Map>> = LazyLock::new(Default::default);

impl Default for Hash {
    fn default() -> Hash {
        Hash(EMPTY_MAP.clone())
    }
}

impl Hash {
    /// An empty hash with room for `n` entries.
    pub fn with_capacity(n: usize) -> Hash {
        Hash(Arc::new(Map::with_capacity(n)))
    }

    /// The map, copied only if it is shared.
    pub fn into_map(self) -> Map {
        Arc::unwrap_or_clone(self.0)
    }
}

impl std::ops::Deref for Hash {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.0
    }
}

impl std::ops::DerefMut for Hash {
    fn deref_mut(&mut self) -> &mut Map {
        Arc::make_mut(&mut self.0)
    }
}

impl std::fmt::Debug for Hash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Map> for Hash {
    fn from(map: Map) -> Hash {
        Hash(Arc::new(map))
    }
}

impl FromIterator<(Value, Value)> for Hash {
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(iter: I) -> Hash {
        Hash(Arc::new(iter.into_iter().collect()))
    }
}

impl IntoIterator for Hash {
    type Item = (Value, Value);
    type IntoIter = std::vec::IntoIter<(Value, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl<'a> IntoIterator for &'a Hash {
    type Item = (&'a Value, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// An array. Like [`Hash`](struct@Hash), copies share their elements until one of them
/// is changed; it derefs to its `Vec`.
#[derive(Clone, PartialEq)]
pub struct Array(Arc<Vec<Value>>);

/// What every empty [`Array`] made by `default` shares.
static EMPTY_VEC: LazyLock<Arc<Vec<Value>>> = LazyLock::new(Default::default);

impl Default for Array {
    fn default() -> Array {
        Array(EMPTY_VEC.clone())
    }
}

impl Array {
    /// Whether both are copies of one array, as Ruby's `equal?`: the same
    /// object, not only equal elements.
    pub fn is_same(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The elements, copied only if they are shared.
    pub fn into_vec(self) -> Vec<Value> {
        Arc::unwrap_or_clone(self.0)
    }
}

impl std::ops::Deref for Array {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl std::ops::DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        Arc::make_mut(&mut self.0)
    }
}

impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Vec<Value>> for Array {
    fn from(elements: Vec<Value>) -> Array {
        Array(Arc::new(elements))
    }
}

impl FromIterator<Value> for Array {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Array {
        Array(Arc::new(iter.into_iter().collect()))
    }
}

impl IntoIterator for Array {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Value;
    type IntoIter = std::slice::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).iter_mut()
    }
}

/// A Hiera value: plain data plus the few rich values `convert_to` can make.
#[derive(Clone, Debug)]
pub enum Value {
    /// Ruby's `nil` (YAML `~`, `null` or an empty value; Puppet's `undef`).
    Undef,
    /// `true` or `false`.
    Bool(bool),
    /// An integer.
    Integer(Int),
    /// A floating point number.
    Float(f64),
    /// A string.
    String(String),
    /// A Ruby symbol, as Psych loads `:name`; Puppet rejects it as data.
    /// Boxed, so that a `Value` is three words.
    Symbol(Box<str>),
    /// An array.
    Array(Array),
    /// An ordered hash.
    Hash(Hash),
    /// A `Sensitive` wrapper, made by `convert_to`.
    Sensitive(Box<Value>),
    /// A binary string, as Psych decodes YAML's `!!binary`: Ruby's
    /// ASCII-8BIT `String`, which Puppet prints only when it is UTF-8.
    Binary(Box<[u8]>),
}

// Three words, the size of a `String`, which is most of what parsed data holds.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value>() == 24);

impl PartialEq for Value {
    /// Ruby's `eql?`: `1` and `1.0` differ, floats compare by value.
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Undef, Undef) => true,
            (Bool(a), Bool(b)) => a == b,
            (Integer(a), Integer(b)) => a == b,
            (Float(a), Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            (String(a), String(b)) => a == b,
            (Symbol(a), Symbol(b)) => a == b,
            (Array(a), Array(b)) => a == b,
            (Hash(a), Hash(b)) => a == b,
            (Sensitive(a), Sensitive(b)) => a == b,
            (Binary(a), Binary(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

/// Whether two hashes are equal with their keys in the same order, down to
/// nested hashes (`==` ignores order, as Ruby's does).
pub fn identical_hashes(a: &Hash, b: &Hash) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| identical(ka, kb) && identical(va, vb))
}

fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Hash(a), Value::Hash(b)) => identical_hashes(a, b),
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| identical(x, y)),
        (Value::Sensitive(a), Value::Sensitive(b)) => identical(a, b),
        (a, b) => a == b,
    }
}

impl StdHash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Value::Undef => {}
            Value::Bool(b) => b.hash(state),
            Value::Integer(i) => i.hash(state),
            // -0.0 == 0.0, so they hash alike (as in Ruby).
            Value::Float(f) => (if *f == 0.0 { 0.0f64 } else { *f }).to_bits().hash(state),
            Value::String(s) => s.hash(state),
            Value::Symbol(s) => s.hash(state),
            Value::Array(a) => a.hash(state),
            // Order-independent, to agree with `eq`.
            Value::Hash(h) => h.len().hash(state),
            Value::Sensitive(v) => v.hash(state),
            Value::Binary(b) => b.hash(state),
        }
    }
}

/// A string to look a [`Map`] up by, standing for the `Value::String` key
/// it equals without making one: `map.get(&Str("name"))`.
#[derive(Clone, Copy, Debug)]
pub struct Str<'a>(pub &'a str);

impl StdHash for Str<'_> {
    /// As `Value::String(self.0)` hashes.
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(&Value::String(String::new())).hash(state);
        self.0.hash(state);
    }
}

impl Key for Str<'_> {
    fn is(&self, key: &Value) -> bool {
        matches!(key, Value::String(s) if s == self.0)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl Value {
    /// The string inside, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The hash inside, if this is a hash.
    pub fn as_hash(&self) -> Option<&Hash> {
        match self {
            Value::Hash(h) => Some(h),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// Looks up a string key in a hash value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_hash()?.get(&Str(key))
    }

    /// Ruby truthiness: everything but `nil` and `false`.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Undef | Value::Bool(false))
    }

    /// Ruby's `inspect` (Ruby 3.1), as `puppet lookup --explain` prints scalars
    /// and as interpolation prints arrays and hashes.
    pub fn inspect(&self) -> String {
        let mut out = String::new();
        self.write_inspect(&mut out);
        out
    }

    fn write_inspect(&self, out: &mut String) {
        match self {
            Value::Undef => out.push_str("nil"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Integer(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Float(f) => out.push_str(&ruby_float(*f)),
            Value::String(s) => out.push_str(&inspect_str(s)),
            Value::Symbol(s) => {
                out.push(':');
                out.push_str(s);
            }
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_inspect(out);
                }
                out.push(']');
            }
            Value::Hash(h) => {
                out.push('{');
                for (i, (k, v)) in h.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.write_inspect(out);
                    out.push_str("=>");
                    v.write_inspect(out);
                }
                out.push('}');
            }
            Value::Sensitive(_) => out.push_str("#<Sensitive [value redacted]:0x0000000000000000>"),
            Value::Binary(b) => out.push_str(&inspect_binary(b)),
        }
    }

    /// The Ruby class of the value, as Ruby's error messages name it.
    pub(crate) fn ruby_class(&self) -> &'static str {
        match self {
            Value::Undef => "NilClass",
            Value::Bool(true) => "TrueClass",
            Value::Bool(false) => "FalseClass",
            Value::Integer(_) => "Integer",
            Value::Float(_) => "Float",
            Value::String(_) => "String",
            Value::Symbol(_) => "Symbol",
            Value::Array(_) => "Array",
            Value::Hash(_) => "Hash",
            Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive",
            Value::Binary(_) => "String",
        }
    }

    /// Ruby's `to_s`, as string interpolation uses it: strings as they are,
    /// `nil` as the empty string, collections as `inspect`.
    pub fn to_ruby_s(&self) -> String {
        match self {
            Value::String(s) => s.clone(),
            Value::Symbol(s) => s.to_string(),
            Value::Undef => String::new(),
            Value::Sensitive(_) => "Sensitive [value redacted]".to_string(),
            Value::Binary(b) => String::from_utf8_lossy(b).into_owned(),
            _ => self.inspect(),
        }
    }
}

/// Ruby's `Float#to_s`: the shortest digits that round-trip, in fixed
/// notation from 1e-4 up to 1e16, scientific (`1.0e+16`) outside that.
pub fn ruby_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    let decpt = exp + 1;
    let sign = if f < 0.0 { "-" } else { "" };
    let n = digits.len() as i32;
    if decpt > 0 && decpt <= 16 {
        if n <= decpt {
            format!("{sign}{digits}{}.0", "0".repeat((decpt - n) as usize))
        } else {
            let (int, frac) = digits.split_at(decpt as usize);
            format!("{sign}{int}.{frac}")
        }
    } else if decpt <= 0 && decpt > -4 {
        format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        let e = decpt - 1;
        let esign = if e < 0 { '-' } else { '+' };
        format!("{sign}{first}.{rest}e{esign}{:02}", e.abs())
    }
}

/// Ruby's `inspect` of a binary (ASCII-8BIT) string: printable ASCII as it
/// is, the usual escapes, every other byte as `\xNN`.
pub fn inspect_binary(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'#' if matches!(bytes.get(i + 1), Some(b'{' | b'$' | b'@')) => out.push_str("\\#"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x0c => out.push_str("\\f"),
            0x0b => out.push_str("\\v"),
            0x08 => out.push_str("\\b"),
            0x07 => out.push_str("\\a"),
            0x1b => out.push_str("\\e"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
    out.push('"');
    out
}

/// Ruby's `String#inspect` for UTF-8 strings.
pub fn inspect_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            '\x08' => out.push_str("\\b"),
            '\x07' => out.push_str("\\a"),
            '\x1b' => out.push_str("\\e"),
            '#' if matches!(chars.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f || is_unprintable(c) => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_unprintable(c: char) -> bool {
    matches!(c as u32, 0x80..=0x9f | 0x2028 | 0x2029)
}

/// Puppet's `symkeys_to_string`: symbol keys become strings, deeply.
pub fn symkeys_to_string(hash: Hash) -> Hash {
    // Data seldom has symbol keys: looking costs less than building the hashes again.
    fn has_symbol_keys(hash: &Hash) -> bool {
        hash.iter().any(|(k, v)| {
            matches!(k, Value::Symbol(_))
                || match v {
                    Value::Hash(h) => has_symbol_keys(h),
                    Value::Array(a) => a.iter().any(|e| matches!(e, Value::Hash(h) if has_symbol_keys(h))),
                    _ => false,
                }
        })
    }
    if !has_symbol_keys(&hash) {
        return hash;
    }
    hash.into_iter()
        .map(|(k, v)| {
            let k = match k {
                Value::Symbol(s) => Value::String(s.into()),
                k => k,
            };
            let v = match v {
                Value::Hash(h) => Value::Hash(symkeys_to_string(h)),
                Value::Array(a) => Value::Array(
                    a.into_iter()
                        .map(|e| match e {
                            Value::Hash(h) => Value::Hash(symkeys_to_string(h)),
                            e => e,
                        })
                        .collect(),
                ),
                v => v,
            };
            (k, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_str_finds_the_string_key_and_only_it() {
        let mut map = Map::default();
        map.insert(Value::Symbol("name".into()), Value::Integer(Int::new(1)));
        map.insert(Value::from("name"), Value::Integer(Int::new(2)));
        map.insert(Value::Integer(Int::new(3)), Value::Integer(Int::new(3)));
        assert_eq!(map.get(&Str("name")), Some(&Value::Integer(Int::new(2))));
        assert_eq!(map.get(&Str("3")), None);
        map.shift_remove(&Value::from("name"));
        assert_eq!(map.get(&Str("name")), None);
    }

    #[test]
    fn identical_hashes_have_the_same_order_all_the_way_down() {
        let hash = |y: &str| crate::formats::yaml::load(y).unwrap().unwrap().0.as_hash().unwrap().clone();
        let a = hash("a: 1\nb: {c: 1, d: [1, {e: 1, f: 2}]}\n");
        assert!(identical_hashes(&a, &hash("a: 1\nb: {c: 1, d: [1, {e: 1, f: 2}]}\n")));
        assert!(!identical_hashes(&a, &hash("b: {c: 1, d: [1, {e: 1, f: 2}]}\na: 1\n")));
        assert!(!identical_hashes(&a, &hash("a: 1\nb: {c: 1, d: [1, {f: 2, e: 1}]}\n")));
        assert!(!identical_hashes(&a, &hash("a: 1.0\nb: {c: 1, d: [1, {e: 1, f: 2}]}\n")));
        assert_eq!(
            Value::Hash(a.clone()),
            Value::Hash(hash("b: {c: 1, d: [1, {f: 2, e: 1}]}\na: 1\n")),
            "== ignores order"
        );
    }

    #[test]
    fn floats_print_as_ruby_prints_them() {
        assert_eq!(ruby_float(1.0), "1.0");
        assert_eq!(ruby_float(1500.0), "1500.0");
        assert_eq!(ruby_float(0.5), "0.5");
        assert_eq!(ruby_float(1e16), "1.0e+16");
        assert_eq!(ruby_float(1e15), "1000000000000000.0");
        assert_eq!(ruby_float(0.0001), "0.0001");
        assert_eq!(ruby_float(0.00001), "1.0e-05");
        assert_eq!(ruby_float(-2.5e-7), "-2.5e-07");
        assert_eq!(ruby_float(2.71875), "2.71875");
    }

    #[test]
    fn inspect_matches_ruby() {
        let v = Value::Array(vec![Value::from("a\"b"), Value::Undef, Value::Integer(Int::new(1))].into());
        assert_eq!(v.inspect(), r#"["a\"b", nil, 1]"#);
        let mut h = Hash::default();
        h.insert(Value::from("k"), Value::Bool(true));
        assert_eq!(Value::Hash(h).inspect(), r#"{"k"=>true}"#);
        assert_eq!(inspect_str("#{x} é"), r#""\#{x} é""#);
    }
}
