//! Puppet's type calculator for data: the type it infers for a value
//! (`TypeCalculator#infer`), the common type of two types, and the general
//! form of a type (`generalize`), printed as its `TypeFormatter` prints them.
//!
//! Puppet names these types in errors: a value a data file may not hold
//! ("got Hash[ScalarData, Enum['off', 'on'], 2, 2]"), or one `convert_to`
//! cannot convert ("Value of type Array[String[4, 4]] cannot be converted").

use crate::value::Value;
use std::fmt;

/// A range of integers or sizes, both ends included.
type Range = (i128, i128);

/// A type inferred from data, or one of the abstract types that two of them
/// have in common.
#[derive(Clone, Debug, PartialEq)]
pub enum Inferred {
    /// `Any`: what two types have in common when nothing narrower is.
    Any,
    /// `Unit`: the element type of an empty collection.
    Unit,
    /// `Undef`.
    Undef,
    /// `Boolean`, or `Boolean[true]`.
    Boolean(Option<bool>),
    /// `Integer`, or `Integer[from, to]`.
    Integer(Option<Range>),
    /// `Float`, or `Float[from, to]`.
    Float(Option<(f64, f64)>),
    /// A string type (see [`Text`]).
    String(Text),
    /// `Enum['a', 'b']`, its values sorted and distinct; `Enum` when empty.
    Enum(Vec<String>),
    /// `Numeric`.
    Numeric,
    /// `ScalarData`.
    ScalarData,
    /// `Scalar`.
    Scalar,
    /// `Data`.
    Data,
    /// `RichData`.
    RichData,
    /// `Array[T, from, to]`; the size is absent once generalized.
    Array(Box<Inferred>, Option<Range>),
    /// `Hash[K, V, from, to]`; the size is absent once generalized.
    Hash(Box<Inferred>, Box<Inferred>, Option<Range>),
    /// `Runtime[ruby, 'Symbol']`, a Ruby symbol.
    Symbol,
    /// `Sensitive[T]`.
    Sensitive(Box<Inferred>),
}

/// What a string type says about its strings.
#[derive(Clone, Debug, PartialEq)]
pub enum Text {
    /// Any string: `String`.
    Any,
    /// Exactly this string; printed as `String` too.
    Value(String),
    /// Strings with a length in this range: `String[4, 4]`.
    Size(Range),
}

impl Inferred {
    /// `TypeCalculator#infer`: literal scalars as one-value types,
    /// collections as the common type of their elements and their size.
    pub fn of(v: &Value) -> Inferred {
        match v {
            Value::Undef => Inferred::Undef,
            Value::Bool(b) => Inferred::Boolean(Some(*b)),
            Value::Integer(i) => Inferred::Integer(Some((i.get(), i.get()))),
            Value::Float(f) => Inferred::Float(Some((*f, *f))),
            Value::String(s) => Inferred::String(Text::Value(s.clone())),
            Value::Symbol(_) => Inferred::Symbol,
            Value::Sensitive(inner) => Inferred::Sensitive(Box::new(Inferred::of(inner))),
            Value::Array(a) if a.is_empty() => Inferred::Array(Box::new(Inferred::Unit), Some((0, 0))),
            Value::Array(a) => Inferred::Array(Box::new(reduce(a.iter())), Some(size(a.len()))),
            Value::Hash(h) if h.is_empty() => {
                Inferred::Hash(Box::new(Inferred::Unit), Box::new(Inferred::Unit), Some((0, 0)))
            }
            Value::Hash(h) => {
                Inferred::Hash(Box::new(reduce(h.keys())), Box::new(reduce(h.values())), Some(size(h.len())))
            }
        }
    }

    /// `generalize`: the type without its values and sizes (`Enum['a', 'bc']`
    /// becomes `String[1, 2]`).
    pub fn generalize(&self) -> Inferred {
        match self {
            Inferred::Boolean(_) => Inferred::Boolean(None),
            Inferred::Integer(_) => Inferred::Integer(None),
            Inferred::Float(_) => Inferred::Float(None),
            Inferred::String(_) => Inferred::String(Text::Any),
            Inferred::Enum(values) => Inferred::String(lengths(values).map_or(Text::Any, Text::Size)),
            Inferred::Array(e, _) if **e == Inferred::Any => Inferred::Array(Box::new(Inferred::Any), None),
            Inferred::Array(e, _) => Inferred::Array(Box::new(e.generalize()), None),
            Inferred::Hash(_, _, Some((0, 0))) => self.clone(),
            Inferred::Hash(k, v, _) => Inferred::Hash(Box::new(k.generalize()), Box::new(v.generalize()), None),
            Inferred::Sensitive(t) => Inferred::Sensitive(Box::new(t.generalize())),
            t => t.clone(),
        }
    }

    /// `TypeCalculator#common_type`: the narrowest type Puppet finds that
    /// both `self` and `other` are assignable to.
    fn common(self, other: Inferred) -> Inferred {
        use Inferred::*;
        // In Puppet's order, which decides `Unit` against `Undef`.
        match (&self, &other) {
            (Undef, _) => return other,
            (_, Undef) => return self,
            (Unit, _) => return other,
            (_, Unit) => return self,
            _ => {}
        }
        if self.accepts(&other) {
            return self;
        }
        if other.accepts(&self) {
            return other;
        }
        match (self, other) {
            (Array(a, _), Array(b, _)) => Array(Box::new(a.common(*b)), None),
            (Hash(ka, va, _), Hash(kb, vb, _)) => Hash(Box::new(ka.common(*kb)), Box::new(va.common(*vb)), None),
            (Integer(Some(a)), Integer(Some(b))) => Integer(Some((a.0.min(b.0), a.1.max(b.1)))),
            (Float(Some(a)), Float(Some(b))) => Float(Some((a.0.min(b.0), a.1.max(b.1)))),
            (String(a), String(b)) => match (a, b) {
                (Text::Size(a), Text::Size(b)) => String(Text::Size((a.0.min(b.0), a.1.max(b.1)))),
                (Text::Value(a), Text::Value(b)) => Enum(sorted(vec![a, b])),
                _ => String(Text::Any),
            },
            (String(Text::Value(s)), Enum(mut values)) | (Enum(mut values), String(Text::Value(s))) => {
                values.push(s);
                Enum(sorted(values))
            }
            (String(_), Enum(_)) | (Enum(_), String(_)) => Enum(Vec::new()),
            (Enum(mut a), Enum(b)) => {
                a.extend(b);
                Enum(sorted(a))
            }
            (a, b) => [Numeric, ScalarData, Scalar, Data, RichData]
                .into_iter()
                .find(|t| t.accepts(&a) && t.accepts(&b))
                .unwrap_or(Any),
        }
    }

    /// `assignable?`: whether every instance of `other` is an instance of
    /// `self`, for the types inferred from data.
    fn accepts(&self, other: &Inferred) -> bool {
        use Inferred::*;
        let within = |outer: &Range, inner: &Range| outer.0 <= inner.0 && inner.1 <= outer.1;
        let sized = |size: &Option<Range>, other: &Option<Range>| match (size, other) {
            (None, _) => true,
            (Some(s), Some(o)) => within(s, o),
            (Some(_), None) => false,
        };
        match (self, other) {
            (Any, _) | (_, Unit) => true,
            (Undef, Undef) | (Symbol, Symbol) => true,
            (Boolean(a), Boolean(b)) => a.is_none() || a == b,
            (Integer(None) | Numeric, Integer(_)) | (Float(None) | Numeric, Float(_)) => true,
            (Integer(Some(a)), Integer(Some(b))) => within(a, b),
            (Float(Some(a)), Float(Some(b))) => a.0 <= b.0 && b.1 <= a.1,
            (Numeric, Numeric) => true,
            (String(Text::Any), String(_) | Enum(_)) => true,
            (String(Text::Value(a)), String(Text::Value(b))) => a == b,
            // Puppet's test ends in the enum's value rather than a comparison with it.
            (String(Text::Value(_)), Enum(values)) => values.len() == 1,
            (String(Text::Size(s)), String(t)) => match t {
                Text::Any => within(s, &(0, i128::MAX)),
                Text::Value(v) => within(s, &size(v.chars().count())),
                Text::Size(t) => within(s, t),
            },
            (String(Text::Size(s)), Enum(values)) => match lengths(values) {
                Some(range) => within(s, &range),
                None => within(s, &(0, i128::MAX)),
            },
            (Enum(values), String(Text::Value(v))) => values.is_empty() || values.contains(v),
            (Enum(values), String(_)) => values.is_empty(),
            (Enum(a), Enum(b)) => a.is_empty() || (!b.is_empty() && b.iter().all(|v| a.contains(v))),
            (ScalarData, t) => t.is_scalar_data(),
            (Scalar, t) => t.is_scalar_data() || *t == Scalar,
            (Data, t) => t.is_data(),
            (RichData, t) => t.is_rich_data(),
            (Array(a, sa), Array(b, sb)) => sized(sa, sb) && a.accepts(b),
            (Hash(_, _, sa), Hash(_, _, Some((0, 0)))) if sa.is_none_or(|s| s.0 == 0) => true,
            (Hash(ka, va, sa), Hash(kb, vb, sb)) => ka.accepts(kb) && va.accepts(vb) && sized(sa, sb),
            (Sensitive(a), Sensitive(b)) => a.accepts(b),
            _ => false,
        }
    }

    fn is_scalar_data(&self) -> bool {
        matches!(
            self,
            Inferred::ScalarData
                | Inferred::Numeric
                | Inferred::Integer(_)
                | Inferred::Float(_)
                | Inferred::String(_)
                | Inferred::Enum(_)
                | Inferred::Boolean(_)
        )
    }

    /// An instance of `Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]`.
    fn is_data(&self) -> bool {
        match self {
            Inferred::Data | Inferred::Undef | Inferred::Unit => true,
            Inferred::Array(e, _) => e.is_data(),
            Inferred::Hash(k, v, _) => Inferred::String(Text::Any).accepts(k) && v.is_data(),
            t => t.is_scalar_data(),
        }
    }

    /// An instance of `RichData`, as far as data can be: `Data` with numeric
    /// keys too, `Scalar`, and `Sensitive`.
    fn is_rich_data(&self) -> bool {
        match self {
            Inferred::RichData | Inferred::Data | Inferred::Scalar | Inferred::Sensitive(_) => true,
            Inferred::Array(e, _) => e.is_rich_data(),
            Inferred::Hash(k, v, _) => {
                (Inferred::String(Text::Any).accepts(k) || Inferred::Numeric.accepts(k)) && v.is_rich_data()
            }
            t => t.is_data(),
        }
    }
}

/// The common type of the types of several values, as `infer_and_reduce_type`.
fn reduce<'a>(values: impl Iterator<Item = &'a Value>) -> Inferred {
    values.map(Inferred::of).reduce(Inferred::common).unwrap_or(Inferred::Unit)
}

fn size(n: usize) -> Range {
    (n as i128, n as i128)
}

fn lengths(values: &[String]) -> Option<Range> {
    let counts = values.iter().map(|v| v.chars().count() as i128);
    Some((counts.clone().min()?, counts.max()?))
}

/// An `Enum`'s values: distinct, in Ruby's string order (by bytes).
fn sorted(mut values: Vec<String>) -> Vec<String> {
    values.sort();
    values.dedup();
    values
}

impl fmt::Display for Inferred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = |f: &mut fmt::Formatter<'_>, r: &Option<Range>| match r {
            Some((from, to)) => write!(f, ", {from}, {to}"),
            None => Ok(()),
        };
        match self {
            Inferred::Any => f.write_str("Any"),
            Inferred::Unit => f.write_str("Unit"),
            Inferred::Undef => f.write_str("Undef"),
            Inferred::Boolean(None) => f.write_str("Boolean"),
            Inferred::Boolean(Some(b)) => write!(f, "Boolean[{b}]"),
            Inferred::Integer(None) => f.write_str("Integer"),
            Inferred::Integer(Some((from, to))) => write!(f, "Integer[{from}, {to}]"),
            Inferred::Float(None) => f.write_str("Float"),
            Inferred::Float(Some((from, to))) => {
                write!(f, "Float[{}, {}]", crate::value::ruby_float(*from), crate::value::ruby_float(*to))
            }
            Inferred::String(Text::Size((from, to))) => write!(f, "String[{from}, {to}]"),
            Inferred::String(_) => f.write_str("String"),
            Inferred::Enum(values) if values.is_empty() => f.write_str("Enum"),
            Inferred::Enum(values) => {
                let quoted: Vec<String> = values.iter().map(|v| puppet_quote(v)).collect();
                write!(f, "Enum[{}]", quoted.join(", "))
            }
            Inferred::Numeric => f.write_str("Numeric"),
            Inferred::ScalarData => f.write_str("ScalarData"),
            Inferred::Scalar => f.write_str("Scalar"),
            Inferred::Data => f.write_str("Data"),
            Inferred::RichData => f.write_str("RichData"),
            Inferred::Array(_, Some((0, 0))) => f.write_str("Array[0, 0]"),
            Inferred::Array(e, None) if **e == Inferred::Any => f.write_str("Array"),
            Inferred::Array(e, size) => {
                write!(f, "Array[{e}")?;
                range(f, size)?;
                f.write_str("]")
            }
            Inferred::Hash(_, _, Some((0, 0))) => f.write_str("Hash[0, 0]"),
            Inferred::Hash(k, v, None) if **k == Inferred::Any && **v == Inferred::Any => f.write_str("Hash"),
            Inferred::Hash(k, v, size) => {
                write!(f, "Hash[{k}, {v}")?;
                range(f, size)?;
                f.write_str("]")
            }
            Inferred::Symbol => f.write_str("Runtime[ruby, 'Symbol']"),
            Inferred::Sensitive(t) if **t == Inferred::Any => f.write_str("Sensitive"),
            Inferred::Sensitive(t) => write!(f, "Sensitive[{t}]"),
        }
    }
}

/// Puppet's `puppet_quote`: single quotes unless the string holds a control
/// character, with `'` escaped and a backslash kept with what follows it.
pub(crate) fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut out = String::from("'");
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// Puppet's `puppet_double_quote`: double quotes, with what would end or
/// interpolate the string escaped, and control characters as `\u{..}`.
pub(crate) fn puppet_double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::Inferred;

    /// Each value (YAML flow), then what Puppet 7.23's `TypeCalculator`
    /// printed for `infer(v)` and `infer(v).generalize`.
    const PUPPET: &[(&str, &str, &str)] = &[
        ("['5672', '5673']", "Array[Enum['5672', '5673'], 2, 2]", "Array[String[4, 4]]"),
        ("abc", "String", "String"),
        (
            "{true: enabled, false: disabled}",
            "Hash[ScalarData, Enum['disabled', 'enabled'], 2, 2]",
            "Hash[ScalarData, String[7, 8]]",
        ),
        ("[1, a]", "Array[ScalarData, 2, 2]", "Array[ScalarData]"),
        ("[1, 2.5]", "Array[Numeric, 2, 2]", "Array[Numeric]"),
        ("[1, ~]", "Array[Integer[1, 1], 2, 2]", "Array[Integer]"),
        ("[[1], [2, 3]]", "Array[Array[Integer[1, 3]], 2, 2]", "Array[Array[Integer]]"),
        ("{a: 1}", "Hash[String, Integer[1, 1], 1, 1]", "Hash[String, Integer]"),
        ("{1: x, 2: yy}", "Hash[Integer[1, 2], Enum['x', 'yy'], 2, 2]", "Hash[Integer, String[1, 2]]"),
        ("[true, false]", "Array[ScalarData, 2, 2]", "Array[ScalarData]"),
        (":sym", "Runtime[ruby, 'Symbol']", "Runtime[ruby, 'Symbol']"),
        ("[1.5, 2.5]", "Array[Float[1.5, 2.5], 2, 2]", "Array[Float]"),
        ("{a: [1, 2], b: {c: d}}", "Hash[Enum['a', 'b'], Data, 2, 2]", "Hash[String[1, 1], Data]"),
        ("[]", "Array[0, 0]", "Array[Unit]"),
        ("{}", "Hash[0, 0]", "Hash[0, 0]"),
        ("[a, '']", "Array[Enum['', 'a'], 2, 2]", "Array[String[0, 1]]"),
        ("[~, ~]", "Array[Undef, 2, 2]", "Array[Undef]"),
        ("[x, 1, true]", "Array[ScalarData, 3, 3]", "Array[ScalarData]"),
        ("[{a: 1}, {b: x}]", "Array[Hash[Enum['a', 'b'], ScalarData], 2, 2]", "Array[Hash[String[1, 1], ScalarData]]"),
        ("[[1, a], [b, 2]]", "Array[Array[ScalarData, 2, 2], 2, 2]", "Array[Array[ScalarData]]"),
        ("{~: 1}", "Hash[Undef, Integer[1, 1], 1, 1]", "Hash[Undef, Integer]"),
    ];

    #[test]
    fn infers_and_generalizes_as_puppet_does() {
        for (yaml, inferred, general) in PUPPET {
            let (value, _) = crate::formats::yaml::load(yaml).unwrap().unwrap();
            let t = Inferred::of(&value);
            assert_eq!((t.to_string().as_str(), t.generalize().to_string().as_str()), (*inferred, *general), "{yaml}");
        }
    }

    #[test]
    fn quotes_as_puppet_does() {
        for (s, quoted) in [
            ("it's", r"'it\'s'"),
            (r"back\slash", r"'back\slash'"),
            ("end\\", r"'end\'"),
            ("tab\there", r#""tab\there""#),
        ] {
            assert_eq!(super::puppet_quote(s), quoted);
        }
    }
}
