//! What a value is an instance of (`instance?`), what a type is assignable
//! to (`assignable?`), and the type Puppet infers for a value as a set of
//! its parts (`TypeCalculator#infer_set`), transcribed from
//! `lib/puppet/pops/types/types.rb` and `type_calculator.rb` for the types
//! in `model.rs`.

use super::model::{Floats, Ints, Member, Text, Type};
use crate::value::{Int, Value};
use std::mem::discriminant;

impl Type {
    /// `instance?`: whether the value is one of the type's.
    pub fn instance(&self, v: &Value) -> bool {
        // A binary string is a String to the type system.
        if let Value::Binary(b) = v {
            return self.instance(&Value::String(String::from_utf8_lossy(b).into_owned()));
        }
        match self {
            Type::Any | Type::Unit => true,
            Type::Undef => matches!(v, Value::Undef),
            Type::NotUndef(t) => !matches!(v, Value::Undef) && t.as_ref().is_none_or(|t| t.instance(v)),
            Type::Boolean(b) => matches!(v, Value::Bool(x) if b.is_none_or(|b| b == *x)),
            Type::Integer(r) => matches!(v, Value::Integer(i) if r.contains(i)),
            Type::Float(r) => matches!(v, Value::Float(f) if r.from <= *f && *f <= r.to),
            Type::Numeric(r) => {
                let n = match v {
                    Value::Integer(i) => i.to_f64(),
                    Value::Float(f) => *f,
                    _ => return false,
                };
                r.from <= n && n <= r.to
            }
            Type::String(text) => match (text, v) {
                (Text::Any, Value::String(_)) => true,
                (Text::Size(r), Value::String(s)) => r.contains_count(s.chars().count()),
                (Text::Value(x), Value::String(s)) => x == s,
                _ => false,
            },
            Type::Enum(values, insensitive) => match v {
                Value::String(s) if *insensitive => values.iter().any(|x| x.eq_ignore_ascii_case(s)),
                Value::String(s) => values.contains(s),
                _ => false,
            },
            Type::Pattern(ps) => matches!(v, Value::String(s) if ps.is_empty() || ps.iter().any(|p| matches(p, s))),
            Type::Scalar => matches!(v, Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Bool(_)),
            Type::ScalarData => matches!(v, Value::String(_) | Value::Integer(_) | Value::Float(_) | Value::Bool(_)),
            Type::Collection(size) => match v {
                Value::Array(a) => size.as_ref().is_none_or(|s| s.contains_count(a.len())),
                Value::Hash(h) => size.as_ref().is_none_or(|s| s.contains_count(h.len())),
                _ => false,
            },
            Type::Array(e, size) => {
                matches!(v, Value::Array(a) if a.iter().all(|x| e.instance(x)) && size.as_ref().is_none_or(|s| s.contains_count(a.len())))
            }
            Type::Hash(k, t, size) => matches!(v, Value::Hash(h)
                if h.keys().all(|x| k.instance(x)) && h.values().all(|x| t.instance(x))
                    && size.as_ref().is_none_or(|s| s.contains_count(h.len()))),
            Type::Tuple(types, size) => {
                let Value::Array(a) = v else { return false };
                let sized = match size {
                    Some(s) => s.contains_count(a.len()),
                    None => types.is_empty() || types.len() == a.len(),
                };
                sized
                    && (types.is_empty()
                        || a.iter().enumerate().all(|(i, x)| types[i.min(types.len() - 1)].instance(x)))
            }
            Type::Struct(members) => {
                let Value::Hash(h) = v else { return false };
                let mut matched = 0;
                let all = members.iter().all(|m| match h.get(&crate::value::Str(&m.name)) {
                    None => m.key_type().assignable(&Type::Undef),
                    Some(x) => {
                        matched += 1;
                        m.value.instance(x)
                    }
                });
                all && matched == h.len()
            }
            Type::Optional(t) => matches!(v, Value::Undef) || t.as_ref().is_some_and(|t| t.instance(v)),
            Type::Variant(ts) => ts.iter().any(|t| t.instance(v)),
            Type::Sensitive(t) => matches!(v, Value::Sensitive(inner) if t.instance(inner)),
            Type::Runtime(runtime, name) => {
                matches!(v, Value::Symbol(_))
                    && runtime.as_deref().is_none_or(|r| r == "ruby")
                    && name.as_deref().is_none_or(|n| n == "Symbol")
            }
            Type::Alias(a) => a.resolved.instance(v),
            Type::Default | Type::Regexp(_) | Type::Reference(_) | Type::Opaque(_) => false,
        }
    }

    /// `assignable?`: whether every instance of `o` is an instance of `self`.
    pub fn assignable(&self, o: &Type) -> bool {
        match (self, o) {
            (Type::Unit, _) | (_, Type::Unit) => true,
            (Type::Variant(ts), Type::Undef) if ts.is_empty() => false,
            (Type::Variant(ts), Type::Variant(os)) => {
                ts.is_empty() || (!os.is_empty() && os.iter().all(|vt| self.assignable_one(vt)))
            }
            _ => self.assignable_one(o),
        }
    }

    /// `PAnyType#assignable?`, before the type's own `_assignable?`.
    fn assignable_one(&self, o: &Type) -> bool {
        match o {
            Type::Unit => true,
            Type::Alias(a) => self.assignable(&a.resolved),
            Type::Variant(os) => {
                if *self == Type::Any {
                    return true;
                }
                if matches!(self, Type::NotUndef(_)) && os.is_empty() {
                    return self.assignable_own(o);
                }
                !os.is_empty() && os.iter().all(|vt| self.assignable(vt))
            }
            Type::Optional(t) => self.assignable(&Type::Undef) && t.as_ref().is_none_or(|t| self.assignable(t)),
            Type::NotUndef(Some(t)) if !t.assignable(&Type::Undef) => self.assignable(t),
            _ => self.assignable_own(o),
        }
    }

    /// Each type's own `_assignable?`.
    fn assignable_own(&self, o: &Type) -> bool {
        let string_like = |o: &Type| matches!(o, Type::String(_) | Type::Enum(..) | Type::Pattern(_));
        match self {
            Type::Any | Type::Unit => true,
            Type::Undef => *o == Type::Undef,
            Type::Default => *o == Type::Default,
            Type::NotUndef(t) => !o.assignable(&Type::Undef) && t.as_ref().is_none_or(|t| t.assignable(o)),
            Type::Boolean(b) => matches!(o, Type::Boolean(x) if b.is_none() || b == x),
            Type::Integer(r) => matches!(o, Type::Integer(x) if r.covers(x)),
            Type::Float(r) => matches!(o, Type::Float(x) if r.from <= x.from && r.to >= x.to),
            Type::Numeric(r) => match o {
                Type::Numeric(x) | Type::Float(x) => r.from <= x.from && r.to >= x.to,
                Type::Integer(x) => r.from <= x.low() && r.to >= x.high(),
                _ => false,
            },
            Type::String(Text::Size(size)) => match o {
                Type::String(t) => size.covers(&derived_size(t)),
                Type::Enum(values, _) if values.is_empty() => size.covers(&Ints::SIZE),
                Type::Enum(values, _) => {
                    let counts = values.iter().map(|v| v.chars().count() as i128);
                    let (min, max) = (counts.clone().min().unwrap_or(0), counts.max().unwrap_or(0));
                    size.low() <= min as f64 && size.high() >= max as f64
                }
                Type::Pattern(_) => size.covers(&Ints::SIZE),
                _ => false,
            },
            Type::String(text) => match o {
                Type::String(t) => *text == Text::Any || text == t,
                // Puppet's test ends in the enum's value, true for any.
                Type::Enum(values, insensitive) => *text == Text::Any || (values.len() == 1 && !insensitive),
                Type::Pattern(_) => *text == Text::Any,
                _ => false,
            },
            Type::Enum(values, insensitive) => {
                if self == o || (values.is_empty() && string_like(o)) {
                    return true;
                }
                match o {
                    Type::String(Text::Value(v)) => self.instance(&Value::String(v.clone())),
                    Type::Enum(os, o_insensitive) => {
                        !os.is_empty()
                            && (*insensitive || !o_insensitive)
                            && os.iter().all(|v| self.instance(&Value::String(v.clone())))
                    }
                    _ => false,
                }
            }
            Type::Pattern(ps) => {
                if self == o {
                    return true;
                }
                match o {
                    Type::String(Text::Value(v)) => ps.is_empty() || ps.iter().any(|p| matches(p, v)),
                    Type::String(_) => ps.is_empty(),
                    Type::Enum(values, _) if values.is_empty() => ps.is_empty(),
                    Type::Enum(values, _) => ps.is_empty() || values.iter().all(|v| ps.iter().any(|p| matches(p, v))),
                    Type::Pattern(_) => ps.is_empty(),
                    _ => false,
                }
            }
            Type::Regexp(p) => matches!(o, Type::Regexp(x) if p.is_none() || p == x),
            Type::Scalar => o.is_scalar(),
            Type::ScalarData => o.is_scalar_data(),
            Type::Collection(size) => {
                let size = Type::size_or_default(size);
                match o {
                    Type::Collection(x) | Type::Array(_, x) | Type::Hash(_, _, x) => {
                        size.covers(&Type::size_or_default(x))
                    }
                    Type::Tuple(ts, x) => size.covers(&x.clone().unwrap_or(Ints::exactly(ts.len()))),
                    Type::Struct(ms) => size.covers(&Ints::exactly(ms.len())),
                    _ => false,
                }
            }
            Type::Array(e, size) => match o {
                Type::Tuple(ts, x) => {
                    Type::size_or_default(size).covers(&x.clone().unwrap_or(Ints::exactly(ts.len())))
                        && ts.iter().all(|t| e.assignable(t))
                }
                Type::Array(oe, x) => Type::size_or_default(size).covers(&Type::size_or_default(x)) && e.assignable(oe),
                _ => false,
            },
            Type::Hash(k, v, size) => match o {
                Type::Hash(ok, ov, x) => {
                    if size.as_ref().is_none_or(|s| s.from == Some(Int::ZERO)) && super::model::is_empty_hash(ok, ov, x)
                    {
                        return true;
                    }
                    k.assignable(ok)
                        && v.assignable(ov)
                        && Type::size_or_default(size).covers(&Type::size_or_default(x))
                }
                Type::Struct(ms) => {
                    Type::size_or_default(size).contains_count(ms.len())
                        && ms.iter().all(|m| k.instance(&Value::from(m.name.as_str())) && v.assignable(&m.value))
                }
                _ => false,
            },
            Type::Tuple(ts, size) => {
                if self == o {
                    return true;
                }
                let size_s = Type::tuple_size(ts, size);
                match o {
                    Type::Tuple(os, x) => {
                        if !size_s.covers(&Type::tuple_size(os, x)) {
                            return false;
                        }
                        if ts.is_empty() {
                            return true;
                        }
                        if os.is_empty() {
                            return size_s.from == Some(Int::ZERO);
                        }
                        os.iter().enumerate().all(|(i, ot)| ts[i.min(ts.len() - 1)].assignable(ot))
                    }
                    Type::Array(oe, x) => {
                        let size_o = Type::size_or_default(x);
                        if !size_s.covers(&size_o) {
                            return false;
                        }
                        let count = size_o.max_count().map_or(ts.len(), |t| ts.len().min(t));
                        ts.is_empty() || (0..count).all(|i| ts[i.min(ts.len() - 1)].assignable(oe))
                    }
                    _ => false,
                }
            }
            Type::Struct(ms) => match o {
                Type::Struct(os) => {
                    let mut matched = 0;
                    let all = ms.iter().all(|m| match os.iter().find(|x| x.name == m.name) {
                        None => m.key_type().assignable(&Type::Undef),
                        Some(x) => {
                            matched += 1;
                            m.key_type().assignable(&x.key_type()) && m.value.assignable(&x.value)
                        }
                    });
                    all && matched == os.len()
                }
                Type::Hash(ok, ov, x) => {
                    let mut required = 0;
                    let fits = ms.iter().all(|m| {
                        if m.key_type().assignable(&Type::Undef) {
                            return true;
                        }
                        required += 1;
                        m.value.assignable(ov) && m.key_type().generalize().assignable(ok)
                    });
                    fits && Ints::new(required, ms.len() as i128).covers(&Type::size_or_default(x))
                }
                _ => false,
            },
            Type::Optional(t) => match (t, o) {
                (_, Type::Undef) | (None, _) => true,
                (Some(t), Type::Optional(Some(ot))) => t.assignable(ot),
                (Some(t), o) => t.assignable(o),
            },
            Type::Variant(ts) => ts.iter().any(|t| t.assignable(o)),
            Type::Sensitive(t) => matches!(o, Type::Sensitive(ot) if t.assignable(ot)),
            Type::Runtime(..) => self == o || matches!((self, o), (Type::Runtime(None, None), Type::Runtime(..))),
            Type::Alias(a) => a.resolved.assignable(o),
            Type::Reference(_) | Type::Opaque(_) => self == o,
        }
    }

    fn is_scalar_data(&self) -> bool {
        matches!(
            self,
            Type::ScalarData
                | Type::Enum(..)
                | Type::Numeric(_)
                | Type::Integer(_)
                | Type::Float(_)
                | Type::String(_)
                | Type::Pattern(_)
                | Type::Boolean(_)
        )
    }

    fn is_scalar(&self) -> bool {
        self.is_scalar_data()
            || matches!(self, Type::Scalar | Type::Regexp(_))
            || matches!(self, Type::Opaque(n) if ["SemVer", "SemVerRange", "Timespan", "Timestamp"].contains(n))
    }

    /// The class's `DEFAULT`: the type with no parameters.
    pub(crate) fn default_of(&self) -> Type {
        match self {
            Type::NotUndef(_) => Type::NotUndef(None),
            Type::Boolean(_) => Type::Boolean(None),
            Type::Integer(_) => Type::INTEGER,
            Type::Float(_) => Type::Float(Floats::ANY),
            Type::Numeric(_) => Type::Numeric(Floats::ANY),
            Type::String(_) => Type::String(Text::Any),
            Type::Enum(..) => Type::Enum(Vec::new(), false),
            Type::Pattern(_) => Type::Pattern(Vec::new()),
            Type::Regexp(_) => Type::Regexp(None),
            Type::Collection(_) => Type::Collection(None),
            Type::Array(..) => Type::Array(Box::new(Type::Any), None),
            Type::Hash(..) => Type::Hash(Box::new(Type::Any), Box::new(Type::Any), None),
            Type::Tuple(..) => Type::Tuple(Vec::new(), None),
            Type::Struct(_) => Type::Struct(Vec::new()),
            Type::Optional(_) => Type::Optional(None),
            Type::Variant(_) => Type::Variant(Vec::new()),
            Type::Sensitive(_) => Type::Sensitive(Box::new(Type::Any)),
            Type::Runtime(..) => Type::Runtime(None, None),
            Type::Alias(a) => a.resolved.default_of(),
            Type::Reference(_) => Type::Reference("UnresolvedReference".into()),
            t => t.clone(),
        }
    }

    /// Whether the two are of one class of Puppet's (`e.class == a.class`).
    pub(crate) fn same_class(&self, o: &Type) -> bool {
        discriminant(self) == discriminant(o)
    }

    /// `TypeCalculator#infer`, for the scalars `infer_set` leaves to it.
    fn infer_scalar(v: &Value) -> Type {
        match v {
            Value::Undef => Type::Undef,
            Value::Bool(b) => Type::Boolean(Some(*b)),
            Value::Integer(i) => Type::Integer(Ints::only(i)),
            Value::Float(f) => Type::Float(Floats { from: *f, to: *f }),
            Value::String(s) => Type::String(Text::Value(s.clone())),
            Value::Symbol(_) => Type::Runtime(Some("ruby".into()), Some("Symbol".into())),
            Value::Sensitive(inner) => Type::Sensitive(Box::new(Type::infer(inner).generalize())),
            Value::Binary(b) => Type::String(Text::Value(String::from_utf8_lossy(b).into_owned())),
            Value::Array(_) | Value::Hash(_) => Type::infer(v),
        }
    }

    /// `TypeCalculator#infer`: literal scalars as one-value types
    /// (`Integer[1, 1]`), collections by the common type of their elements
    /// and their size.
    pub fn infer(v: &Value) -> Type {
        let common = |values: &mut dyn Iterator<Item = &Value>| {
            values.map(Type::infer).reduce(Type::common).unwrap_or(Type::Unit)
        };
        match v {
            Value::Array(a) if a.is_empty() => Type::Array(Box::new(Type::Unit), Some(Ints::new(0, 0))),
            Value::Array(a) => Type::Array(Box::new(common(&mut a.iter())), Some(Ints::exactly(a.len()))),
            Value::Hash(h) if h.is_empty() => {
                Type::Hash(Box::new(Type::Unit), Box::new(Type::Unit), Some(Ints::new(0, 0)))
            }
            Value::Hash(h) => Type::Hash(
                Box::new(common(&mut h.keys())),
                Box::new(common(&mut h.values())),
                Some(Ints::exactly(h.len())),
            ),
            v => Type::infer_scalar(v),
        }
    }

    /// `TypeCalculator#common_type`: the narrowest type Puppet finds that
    /// both are assignable to.
    fn common(self, other: Type) -> Type {
        // In Puppet's order, which decides `Unit` against `Undef`.
        match (&self, &other) {
            (Type::Undef, _) | (Type::Unit, _) => return other,
            (_, Type::Undef) | (_, Type::Unit) => return self,
            _ => {}
        }
        if self.assignable(&other) {
            return self;
        }
        if other.assignable(&self) {
            return other;
        }
        let values = |t: Type| match t {
            Type::Enum(values, _) => values,
            Type::String(Text::Value(v)) => vec![v],
            _ => Vec::new(),
        };
        match (self, other) {
            (Type::Array(a, _), Type::Array(b, _)) => Type::Array(Box::new(a.common(*b)), None),
            (Type::Hash(ka, va, _), Type::Hash(kb, vb, _)) => {
                Type::Hash(Box::new(ka.common(*kb)), Box::new(va.common(*vb)), None)
            }
            (Type::Integer(a), Type::Integer(b)) => {
                Type::Integer(Ints { from: Ints::lesser(&a.from, &b.from), to: Ints::greater(&a.to, &b.to) })
            }
            (Type::Float(a), Type::Float(b)) => Type::Float(Floats { from: a.from.min(b.from), to: a.to.max(b.to) }),
            (Type::String(Text::Size(a)), Type::String(Text::Size(b))) => {
                Type::String(Text::Size(Ints { from: Ints::lesser(&a.from, &b.from), to: Ints::greater(&a.to, &b.to) }))
            }
            (
                a @ (Type::String(Text::Value(_)) | Type::Enum(..)),
                b @ (Type::String(Text::Value(_)) | Type::Enum(..)),
            ) => {
                let mut all = values(a);
                all.extend(values(b));
                all.sort();
                all.dedup();
                Type::Enum(all, false)
            }
            (Type::String(_), Type::String(_)) => Type::String(Text::Any),
            (Type::String(_), Type::Enum(..)) | (Type::Enum(..), Type::String(_)) => Type::Enum(Vec::new(), false),
            (a, b) => [Type::Numeric(Floats::ANY), Type::ScalarData, Type::Scalar, Type::data(), Type::rich_data()]
                .into_iter()
                .find(|t| t.assignable(&a) && t.assignable(&b))
                .unwrap_or(Type::Any),
        }
    }

    /// `TypeCalculator#infer_set`: an array as a `Tuple` of its elements'
    /// types, a hash with string keys as a `Struct`, each part inferred.
    pub fn infer_set(v: &Value) -> Type {
        match v {
            Value::Array(a) if a.is_empty() => Type::Array(Box::new(Type::Unit), Some(Ints::new(0, 0))),
            Value::Array(a) => Type::Tuple(a.iter().map(Type::infer_set).collect(), None),
            Value::Hash(h) if h.is_empty() => {
                Type::Hash(Box::new(Type::Unit), Box::new(Type::Unit), Some(Ints::new(0, 0)))
            }
            Value::Hash(h) if h.keys().all(|k| matches!(k, Value::String(s) if !s.is_empty())) => Type::Struct(
                h.iter()
                    .map(|(k, x)| Member { name: k.to_ruby_s(), optional_key: false, value: Type::infer_set(x) })
                    .collect(),
            ),
            Value::Hash(h) => Type::Hash(
                Box::new(Type::variant(h.keys().map(Type::infer_set).collect())),
                Box::new(Type::variant(h.values().map(Type::infer_set).collect())),
                Some(Ints::exactly(h.len())),
            ),
            v => Type::infer_scalar(v),
        }
    }
}

/// `PStringType#derived_size_type`.
fn derived_size(t: &Text) -> Ints {
    match t {
        Text::Size(s) => s.clone(),
        Text::Value(v) => Ints::exactly(v.chars().count()),
        Text::Any => Ints::SIZE,
    }
}

/// Whether a Ruby regexp (a `Pattern`'s source) matches the string.
fn matches(pattern: &str, s: &str) -> bool {
    regex_lite::Regex::new(&crate::puppet::regexp::to_regex_lite(pattern)).is_ok_and(|re| re.is_match(s))
}

#[cfg(test)]
mod tests {
    use super::Type;

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
            let t = Type::infer(&value);
            assert_eq!((t.to_string().as_str(), t.generalize().to_string().as_str()), (*inferred, *general), "{yaml}");
        }
    }
}
