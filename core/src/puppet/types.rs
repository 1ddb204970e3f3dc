//! Puppet's type names for values, as its type mismatch messages print them.

use crate::value::Value;

/// The name Puppet's type mismatch messages give a value's type.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Undef => "Undef",
        Value::Bool(_) => "Boolean",
        Value::Integer(_) => "Integer",
        Value::Float(_) => "Float",
        Value::String(_) => "String",
        Value::Symbol(_) => "Runtime",
        Value::Array(_) => "Tuple",
        Value::Hash(h) if h.keys().all(|k| matches!(k, Value::String(_))) => "Struct",
        Value::Hash(_) => "Hash",
        Value::Sensitive(_) => "Sensitive",
        Value::Binary(_) => "String",
    }
}

mod calculator;
mod describe;
mod model;
mod parse;

pub(crate) use describe::{describe_parameters, size_mismatch};
pub(crate) use model::{puppet_double_quote, puppet_quote, Ints, Type};
use model::{Floats, Text};
pub(crate) use parse::{parse_type, parse_type_in};

/// The type Puppet's type mismatch describer names as "got ..." (from
/// `infer_set`): literal scalars as ranges (`Integer[1, 1]`), strings as
/// `Enum`, collections by their element types.
pub fn described(v: &Value) -> String {
    match v {
        Value::Undef => "Undef".into(),
        Value::Bool(b) => format!("Boolean[{b}]"),
        Value::Integer(i) => format!("Integer[{i}, {i}]"),
        Value::Float(f) => {
            let f = crate::value::ruby_float(*f);
            format!("Float[{f}, {f}]")
        }
        Value::String(_) | Value::Binary(_) => "String".into(),
        Value::Symbol(_) => "Runtime[ruby, 'Symbol']".into(),
        Value::Sensitive(_) => "Sensitive".into(),
        Value::Array(a) => {
            if a.is_empty() {
                "Array[0, 0]".into()
            } else {
                format!("Array[{}]", common(a.iter()))
            }
        }
        Value::Hash(h) => format!("Hash[{}, {}]", common(h.keys()), common(h.values())),
    }
}

/// The common type of several values: one type, an `Enum` of strings, or a `Variant`.
fn common<'a>(values: impl Iterator<Item = &'a Value>) -> String {
    let values: Vec<&Value> = values.collect();
    if !values.is_empty() && values.iter().all(|v| matches!(v, Value::String(_))) {
        let mut names: Vec<String> = values.iter().map(|v| puppet_quote(&v.to_ruby_s())).collect();
        names.sort();
        names.dedup();
        return format!("Enum[{}]", names.join(", "));
    }
    variant(values.into_iter().map(described))
}

/// `Unit` for no types, the one type, or a `Variant` of the distinct types in
/// the order first seen.
fn variant(all: impl Iterator<Item = String>) -> String {
    let mut types: Vec<String> = Vec::new();
    for t in all {
        if !types.contains(&t) {
            types.push(t);
        }
    }
    match types.len() {
        0 => "Unit".into(),
        1 => types.remove(0),
        _ => format!("Variant[{}]", types.join(", ")),
    }
}

/// A type as `convert_to` makes values of it (its `new`), read from the
/// [`Type`] it names; what it leaves out is noted (see [`NewType::of`]).
#[derive(Clone, Debug, PartialEq)]
pub enum NewType {
    /// `Any`.
    Any,
    /// `Undef`.
    Undef,
    /// `Integer` (bounds are accepted and checked).
    Integer,
    /// `Float`.
    Float,
    /// `Numeric`.
    Numeric,
    /// `String`.
    String,
    /// `Boolean`.
    Boolean,
    /// `Scalar`.
    Scalar,
    /// `Data`.
    Data,
    /// `Array` (element type checked when given).
    Array,
    /// `Array[T]`.
    ArrayOf(Box<NewType>),
    /// `Hash`.
    Hash,
    /// `Hash[K, V]`.
    HashOf(Box<NewType>, Box<NewType>),
    /// `Sensitive`.
    Sensitive,
    /// `Optional[T]`.
    Optional(Box<NewType>),
    /// `Variant[T, ...]`.
    Variant(Vec<NewType>),
    /// `Enum['a', ...]`, values sorted as Puppet prints them.
    Enum(Vec<String>),
    /// A name Puppet does not know.
    Reference(String),
}

impl std::fmt::Display for NewType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |ts: &[NewType]| ts.iter().map(NewType::to_string).collect::<Vec<_>>().join(", ");
        match self {
            NewType::Any => f.write_str("Any"),
            NewType::Undef => f.write_str("Undef"),
            NewType::Integer => f.write_str("Integer"),
            NewType::Float => f.write_str("Float"),
            NewType::Numeric => f.write_str("Numeric"),
            NewType::String => f.write_str("String"),
            NewType::Boolean => f.write_str("Boolean"),
            NewType::Scalar => f.write_str("Scalar"),
            NewType::Data => f.write_str("Data"),
            NewType::Array => f.write_str("Array"),
            NewType::ArrayOf(t) => write!(f, "Array[{t}]"),
            NewType::Hash => f.write_str("Hash"),
            NewType::HashOf(k, v) => write!(f, "Hash[{k}, {v}]"),
            NewType::Sensitive => f.write_str("Sensitive"),
            NewType::Optional(t) => write!(f, "Optional[{t}]"),
            NewType::Variant(ts) => write!(f, "Variant[{}]", list(ts)),
            NewType::Enum(vs) => {
                write!(f, "Enum[{}]", vs.iter().map(|v| puppet_quote(v)).collect::<Vec<_>>().join(", "))
            }
            NewType::Reference(n) => write!(f, "TypeReference['{n}']"),
        }
    }
}

impl NewType {
    /// What `new` of the type makes, and whether that reading leaves out
    /// something Puppet's type object shows (bounds, sizes, members, an
    /// alias), which the explanation would print.
    pub fn of(t: &Type) -> (NewType, bool) {
        let mut lossy = false;
        let t = NewType::reading(t, &mut lossy);
        (t, lossy)
    }

    fn reading(t: &Type, lossy: &mut bool) -> NewType {
        let mut read = |t: &Type| NewType::reading(t, lossy);
        let (new, lost) = match t {
            Type::Any => (NewType::Any, false),
            Type::Undef => (NewType::Undef, false),
            Type::Integer(r) => (NewType::Integer, !r.unbounded()),
            Type::Float(r) => (NewType::Float, *r != Floats::ANY),
            Type::Numeric(r) => (NewType::Numeric, *r != Floats::ANY),
            Type::String(text) => (NewType::String, *text != Text::Any),
            Type::Boolean(b) => (NewType::Boolean, b.is_some()),
            Type::Scalar => (NewType::Scalar, false),
            Type::Alias(_) => (NewType::Data, true),
            Type::Array(e, size) if **e == Type::Any => (NewType::Array, size.is_some()),
            Type::Array(e, size) => (NewType::ArrayOf(Box::new(read(e))), size.is_some()),
            Type::Tuple(ts, _) => match ts.first() {
                Some(e) => (NewType::ArrayOf(Box::new(read(e))), true),
                None => (NewType::Array, true),
            },
            Type::Hash(k, v, size) if **k == Type::Any && **v == Type::Any => (NewType::Hash, size.is_some()),
            Type::Hash(k, v, size) => (NewType::HashOf(Box::new(read(k)), Box::new(read(v))), size.is_some()),
            Type::Struct(_) => (NewType::Hash, true),
            Type::Sensitive(inner) => (NewType::Sensitive, **inner != Type::Any),
            Type::Optional(Some(inner)) => (NewType::Optional(Box::new(read(inner))), false),
            Type::Optional(None) => (NewType::Optional(Box::new(NewType::Any)), true),
            Type::Variant(ts) => (NewType::Variant(ts.iter().map(read).collect()), false),
            Type::Enum(values, _) => (NewType::Enum(values.clone()), false),
            Type::Pattern(_) | Type::NotUndef(_) => (NewType::Any, true),
            Type::Reference(name) => (NewType::Reference(name.clone()), false),
            other => (
                NewType::Reference(other.name().to_string()),
                !matches!(
                    other,
                    Type::Opaque(_)
                        | Type::Unit
                        | Type::Default
                        | Type::ScalarData
                        | Type::Regexp(None)
                        | Type::Collection(None)
                        | Type::Runtime(None, None)
                ),
            ),
        };
        *lossy |= lost;
        new
    }

    /// The Ruby `inspect` of Puppet's object for this type, memory address
    /// and all; `None` for `Data`, whose alias object prints its whole
    /// definition.
    pub(crate) fn inspect(&self) -> Option<String> {
        let object = |class: &str, fields: &str| {
            // Ruby prints where the object lives; a stable stand-in per class
            // keeps the text the same from run to run.
            let address = class.bytes().fold(0x7f00_0000_0000u64, |a, b| a.wrapping_mul(31).wrapping_add(b as u64));
            let address = 0x7f00_0000_0000 | (address & 0xff_ffff_fff8);
            let fields = if fields.is_empty() { String::new() } else { format!(" {fields}") };
            format!("#<Puppet::Pops::Types::{class}:0x{address:016x}{fields}>")
        };
        let any = object("PAnyType", "");
        let unbounded = "@from=-Infinity, @to=Infinity";
        Some(match self {
            NewType::Any => any,
            NewType::Undef => object("PUndefType", ""),
            NewType::Integer => object("PIntegerType", unbounded),
            NewType::Float => object("PFloatType", unbounded),
            NewType::Numeric => object("PNumericType", unbounded),
            NewType::String => object("PStringType", "@size_type_or_value=nil"),
            NewType::Boolean => object("PBooleanType", "@value=nil"),
            NewType::Scalar => object("PScalarType", ""),
            NewType::Data => return None,
            NewType::Array => object("PArrayType", &format!("@size_type=nil, @element_type={any}")),
            NewType::ArrayOf(t) => object("PArrayType", &format!("@size_type=nil, @element_type={}", t.inspect()?)),
            NewType::Hash => object("PHashType", &format!("@size_type=nil, @key_type={any}, @value_type={any}")),
            NewType::HashOf(k, v) => object(
                "PHashType",
                &format!("@size_type=nil, @key_type={}, @value_type={}", k.inspect()?, v.inspect()?),
            ),
            NewType::Sensitive => object("PSensitiveType", &format!("@type={any}")),
            NewType::Optional(t) => object("POptionalType", &format!("@type={}", t.inspect()?)),
            NewType::Variant(ts) => {
                let types: Option<Vec<String>> = ts.iter().map(NewType::inspect).collect();
                object("PVariantType", &format!("@types=[{}]", types?.join(", ")))
            }
            NewType::Enum(vs) => {
                let values: Vec<String> = vs.iter().map(|v| crate::value::inspect_str(v)).collect();
                object("PEnumType", &format!("@values=[{}], @case_insensitive=false", values.join(", ")))
            }
            NewType::Reference(name) => {
                object("PTypeReferenceType", &format!("@type_string={}", crate::value::inspect_str(name)))
            }
        })
    }

    /// True when the value is an instance of the type.
    pub fn is_instance(&self, v: &Value) -> bool {
        match self {
            NewType::Any => true,
            NewType::Undef => matches!(v, Value::Undef),
            NewType::Integer => matches!(v, Value::Integer(_)),
            NewType::Float => matches!(v, Value::Float(_)),
            NewType::Numeric => matches!(v, Value::Integer(_) | Value::Float(_)),
            NewType::String => matches!(v, Value::String(_)),
            NewType::Boolean => matches!(v, Value::Bool(_)),
            NewType::Scalar => matches!(v, Value::Integer(_) | Value::Float(_) | Value::String(_) | Value::Bool(_)),
            NewType::Data => match v {
                Value::Array(a) => a.iter().all(|e| NewType::Data.is_instance(e)),
                Value::Hash(h) => h.iter().all(|(k, e)| matches!(k, Value::String(_)) && NewType::Data.is_instance(e)),
                Value::Sensitive(_) | Value::Symbol(_) => false,
                _ => true,
            },
            NewType::Array => matches!(v, Value::Array(_)),
            NewType::ArrayOf(t) => matches!(v, Value::Array(a) if a.iter().all(|e| t.is_instance(e))),
            NewType::Hash => matches!(v, Value::Hash(_)),
            NewType::HashOf(kt, vt) => {
                matches!(v, Value::Hash(h) if h.iter().all(|(k, e)| kt.is_instance(k) && vt.is_instance(e)))
            }
            NewType::Sensitive => matches!(v, Value::Sensitive(_)),
            NewType::Optional(t) => matches!(v, Value::Undef) || t.is_instance(v),
            NewType::Variant(ts) => ts.iter().any(|t| t.is_instance(v)),
            NewType::Enum(vs) => matches!(v, Value::String(s) if vs.contains(s)),
            NewType::Reference(_) => false,
        }
    }
}

/// Puppet's `--type` check (`TypeAsserter.assert_instance_of`): the value
/// must be an instance of the type, or the error says where it is not.
pub fn assert(subject: &str, type_text: &str, v: &Value) -> Result<(), crate::Error> {
    let t = parse_type(type_text).map_err(crate::Error::puppet)?;
    if t.instance(v) {
        return Ok(());
    }
    let subject = format!("{subject} has wrong type,");
    Err(crate::Error::puppet(describe::describe_mismatch(&subject, &t, &Type::infer_set(v))))
}

/// Puppet's `lookup` resolves the aliases and unknown names in a `--type`
/// through the scope it was given, which has no `load`: a type that names
/// one fails before anything is looked up (Puppet 7.23 and 8.28 alike).
pub fn check_lookup_type(type_text: &str) -> Result<(), crate::Error> {
    match parse::parse_noting_names(type_text) {
        Ok((_, true)) => {
            Err(crate::Error::puppet("private method `load' called for Scope(Class[main]):Puppet::Parser::Scope"))
        }
        _ => Ok(()),
    }
}

/// The generalized type of a value (`Sensitive[Hash[String, String]]`), as
/// the oracle records the type of a rich value.
pub fn generalized(v: &Value) -> String {
    fn common<'a>(vs: impl Iterator<Item = &'a Value>) -> String {
        variant(vs.map(generalized))
    }
    match v {
        Value::Undef => "Undef".into(),
        Value::Bool(_) => "Boolean".into(),
        Value::Integer(_) => "Integer".into(),
        Value::Float(_) => "Float".into(),
        Value::String(_) => "String".into(),
        Value::Symbol(_) => "Runtime[ruby, 'Symbol']".into(),
        Value::Sensitive(inner) => format!("Sensitive[{}]", generalized(inner)),
        Value::Binary(_) => "String".into(),
        Value::Array(a) => format!("Array[{}]", common(a.iter())),
        Value::Hash(h) => format!("Hash[{}, {}]", common(h.keys()), common(h.values())),
    }
}
