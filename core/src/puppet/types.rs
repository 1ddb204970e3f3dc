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
    }
}

mod inferred;

pub use inferred::Inferred;
pub(crate) use inferred::{puppet_double_quote, puppet_quote};

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
        Value::String(_) => "String".into(),
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

/// A Puppet data type, as far as `convert_to` and `--type` need them.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
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
    ArrayOf(Box<Type>),
    /// `Hash`.
    Hash,
    /// `Hash[K, V]`.
    HashOf(Box<Type>, Box<Type>),
    /// `Sensitive`.
    Sensitive,
    /// `Optional[T]`.
    Optional(Box<Type>),
    /// `Variant[T, ...]`.
    Variant(Vec<Type>),
    /// `Enum['a', ...]`, values sorted as Puppet prints them.
    Enum(Vec<String>),
    /// A name Puppet does not know.
    Reference(String),
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |ts: &[Type]| ts.iter().map(Type::to_string).collect::<Vec<_>>().join(", ");
        match self {
            Type::Any => f.write_str("Any"),
            Type::Undef => f.write_str("Undef"),
            Type::Integer => f.write_str("Integer"),
            Type::Float => f.write_str("Float"),
            Type::Numeric => f.write_str("Numeric"),
            Type::String => f.write_str("String"),
            Type::Boolean => f.write_str("Boolean"),
            Type::Scalar => f.write_str("Scalar"),
            Type::Data => f.write_str("Data"),
            Type::Array => f.write_str("Array"),
            Type::ArrayOf(t) => write!(f, "Array[{t}]"),
            Type::Hash => f.write_str("Hash"),
            Type::HashOf(k, v) => write!(f, "Hash[{k}, {v}]"),
            Type::Sensitive => f.write_str("Sensitive"),
            Type::Optional(t) => write!(f, "Optional[{t}]"),
            Type::Variant(ts) => write!(f, "Variant[{}]", list(ts)),
            Type::Enum(vs) => write!(f, "Enum[{}]", vs.iter().map(|v| puppet_quote(v)).collect::<Vec<_>>().join(", ")),
            Type::Reference(n) => write!(f, "TypeReference['{n}']"),
        }
    }
}

impl Type {
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
            Type::Any => any,
            Type::Undef => object("PUndefType", ""),
            Type::Integer => object("PIntegerType", unbounded),
            Type::Float => object("PFloatType", unbounded),
            Type::Numeric => object("PNumericType", unbounded),
            Type::String => object("PStringType", "@size_type_or_value=nil"),
            Type::Boolean => object("PBooleanType", "@value=nil"),
            Type::Scalar => object("PScalarType", ""),
            Type::Data => return None,
            Type::Array => object("PArrayType", &format!("@size_type=nil, @element_type={any}")),
            Type::ArrayOf(t) => object("PArrayType", &format!("@size_type=nil, @element_type={}", t.inspect()?)),
            Type::Hash => object("PHashType", &format!("@size_type=nil, @key_type={any}, @value_type={any}")),
            Type::HashOf(k, v) => object(
                "PHashType",
                &format!("@size_type=nil, @key_type={}, @value_type={}", k.inspect()?, v.inspect()?),
            ),
            Type::Sensitive => object("PSensitiveType", &format!("@type={any}")),
            Type::Optional(t) => object("POptionalType", &format!("@type={}", t.inspect()?)),
            Type::Variant(ts) => {
                let types: Option<Vec<String>> = ts.iter().map(Type::inspect).collect();
                object("PVariantType", &format!("@types=[{}]", types?.join(", ")))
            }
            Type::Enum(vs) => {
                let values: Vec<String> = vs.iter().map(|v| crate::value::inspect_str(v)).collect();
                object("PEnumType", &format!("@values=[{}], @case_insensitive=false", values.join(", ")))
            }
            Type::Reference(name) => {
                object("PTypeReferenceType", &format!("@type_string={}", crate::value::inspect_str(name)))
            }
        })
    }

    /// True when the value is an instance of the type.
    pub fn is_instance(&self, v: &Value) -> bool {
        match self {
            Type::Any => true,
            Type::Undef => matches!(v, Value::Undef),
            Type::Integer => matches!(v, Value::Integer(_)),
            Type::Float => matches!(v, Value::Float(_)),
            Type::Numeric => matches!(v, Value::Integer(_) | Value::Float(_)),
            Type::String => matches!(v, Value::String(_)),
            Type::Boolean => matches!(v, Value::Bool(_)),
            Type::Scalar => matches!(v, Value::Integer(_) | Value::Float(_) | Value::String(_) | Value::Bool(_)),
            Type::Data => match v {
                Value::Array(a) => a.iter().all(|e| Type::Data.is_instance(e)),
                Value::Hash(h) => h.iter().all(|(k, e)| matches!(k, Value::String(_)) && Type::Data.is_instance(e)),
                Value::Sensitive(_) | Value::Symbol(_) => false,
                _ => true,
            },
            Type::Array => matches!(v, Value::Array(_)),
            Type::ArrayOf(t) => matches!(v, Value::Array(a) if a.iter().all(|e| t.is_instance(e))),
            Type::Hash => matches!(v, Value::Hash(_)),
            Type::HashOf(kt, vt) => {
                matches!(v, Value::Hash(h) if h.iter().all(|(k, e)| kt.is_instance(k) && vt.is_instance(e)))
            }
            Type::Sensitive => matches!(v, Value::Sensitive(_)),
            Type::Optional(t) => matches!(v, Value::Undef) || t.is_instance(v),
            Type::Variant(ts) => ts.iter().any(|t| t.is_instance(v)),
            Type::Enum(vs) => matches!(v, Value::String(s) if vs.contains(s)),
            Type::Reference(_) => false,
        }
    }
}

/// Parses a type expression such as `Hash[String, Integer]`.
pub fn parse_type(text: &str) -> Result<Type, String> {
    parse_noting_loss(text).map(|(t, _)| t)
}

/// The type, and whether reading it as a [`Type`] dropped something Puppet's
/// type object keeps (bounds, sizes, a pattern, an alias).
pub(crate) fn parse_noting_loss(text: &str) -> Result<(Type, bool), String> {
    let mut p = TypeParser { s: text.as_bytes(), i: 0, lossy: false };
    let t = p.ty()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(format!("Syntax error at '{}'", &text[p.i..]));
    }
    Ok((t, p.lossy))
}

struct TypeParser<'a> {
    s: &'a [u8],
    i: usize,
    lossy: bool,
}

impl TypeParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn end_error(&self) -> String {
        if self.i >= self.s.len() {
            "Syntax error at end of input".into()
        } else {
            format!("Syntax error at '{}'", String::from_utf8_lossy(&self.s[self.i..]))
        }
    }

    fn name(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_' || self.s[self.i] == b':')
        {
            self.i += 1;
        }
        if start == self.i {
            return Err(self.end_error());
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn params(&mut self) -> Result<Vec<Param>, String> {
        let mut out = Vec::new();
        if !self.eat(b'[') {
            return Ok(out);
        }
        loop {
            self.ws();
            match self.s.get(self.i) {
                None => return Err(self.end_error()),
                Some(b']') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\'' | b'"') => {
                    let q = self.s[self.i];
                    let start = self.i + 1;
                    let end = self.s[start..].iter().position(|&c| c == q).ok_or_else(|| self.end_error())? + start;
                    out.push(Param::Str(String::from_utf8_lossy(&self.s[start..end]).into_owned()));
                    self.i = end + 1;
                }
                Some(c) if c.is_ascii_digit() || *c == b'-' => {
                    self.i += 1;
                    while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || self.s[self.i] == b'.') {
                        self.i += 1;
                    }
                    out.push(Param::Other);
                }
                Some(b'/') => {
                    let start = self.i + 1;
                    let end = self.s[start..].iter().position(|&c| c == b'/').ok_or_else(|| self.end_error())? + start;
                    out.push(Param::Other);
                    self.i = end + 1;
                }
                Some(_) => out.push(Param::Type(self.ty()?)),
            }
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Ok(out);
            }
            return Err(self.end_error());
        }
    }

    fn ty(&mut self) -> Result<Type, String> {
        let name = self.name()?;
        let params = self.params()?;
        let types: Vec<Type> =
            params.iter().filter_map(|p| if let Param::Type(t) = p { Some(t.clone()) } else { None }).collect();
        let only_types = types.len() == params.len();
        self.lossy |= match name.as_str() {
            "Array" => params.len() > 1 || !only_types,
            "Hash" => !(params.is_empty() || (params.len() == 2 && only_types)),
            "Optional" => params.len() != 1 || !only_types,
            "Variant" => !only_types,
            "Enum" => false,
            "Data" | "RichData" | "Tuple" | "Struct" | "Pattern" | "NotUndef" => true,
            _ => !params.is_empty(),
        };
        Ok(match name.as_str() {
            "Any" => Type::Any,
            "Undef" => Type::Undef,
            "Integer" => Type::Integer,
            "Float" => Type::Float,
            "Numeric" => Type::Numeric,
            "String" => Type::String,
            "Boolean" => Type::Boolean,
            "Scalar" => Type::Scalar,
            "Data" | "RichData" => Type::Data,
            "Array" | "Tuple" => match types.first() {
                Some(t) => Type::ArrayOf(Box::new(t.clone())),
                None => Type::Array,
            },
            "Hash" | "Struct" => match (types.first(), types.get(1)) {
                (Some(k), Some(v)) => Type::HashOf(Box::new(k.clone()), Box::new(v.clone())),
                _ => Type::Hash,
            },
            "Sensitive" => Type::Sensitive,
            "Optional" => Type::Optional(Box::new(types.first().cloned().unwrap_or(Type::Any))),
            "Variant" => Type::Variant(types),
            "Enum" => {
                // Puppet reads a bare word (`Enum[on, off]`) as a string.
                let mut vs: Vec<String> = params
                    .iter()
                    .filter_map(|p| match p {
                        Param::Str(s) => Some(s.clone()),
                        Param::Type(Type::Reference(word)) if word.starts_with(|c: char| c.is_ascii_lowercase()) => {
                            Some(word.clone())
                        }
                        _ => None,
                    })
                    .collect();
                vs.sort();
                vs.dedup();
                Type::Enum(vs)
            }
            "Pattern" | "NotUndef" => Type::Any,
            other => Type::Reference(other.to_string()),
        })
    }
}

enum Param {
    Type(Type),
    Str(String),
    Other,
}

/// Puppet's `--type` check: the value must be an instance of the type.
pub fn assert(subject: &str, type_text: &str, v: &Value) -> Result<(), crate::Error> {
    let t = parse_type(type_text).map_err(crate::Error::puppet)?;
    if t.is_instance(v) {
        return Ok(());
    }
    Err(crate::Error::puppet(format!(
        "{subject} has wrong type, expects {} value, got {}",
        article(&t),
        generalized(v)
    )))
}

fn article(t: &Type) -> String {
    let s = t.to_string();
    let vowel = s.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {s}", if vowel { "an" } else { "a" })
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
        Value::Array(a) => format!("Array[{}]", common(a.iter())),
        Value::Hash(h) => format!("Hash[{}, {}]", common(h.keys()), common(h.values())),
    }
}
