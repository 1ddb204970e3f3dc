//! Type expressions (`Hash[String, Array[Integer, 1]]`,
//! `Struct[{name => String, Optional[port] => Integer}]`) read into the
//! types of `model.rs`, as Puppet's `TypeParser` reads them for `--type`
//! and `convert_to`. A name Puppet has no type for is a `TypeReference`;
//! parameters a type does not take are passed over.

use super::model::{Alias, Floats, Ints, Member, Text, Type, OPAQUE};
use std::rc::Rc;

use crate::value::Int;

/// Parses a type expression such as `Hash[String, Integer]`.
pub fn parse_type(text: &str) -> Result<Type, String> {
    parse_noting_names(text).map(|(t, _)| t)
}

/// The type, and whether Puppet resolves a name in it through its loader:
/// an alias (`Data`), or a name no type has (`Foo`, `Enum[Web]`), wherever
/// it stands.
pub fn parse_noting_names(text: &str) -> Result<(Type, bool), String> {
    parse_with(text, &|_| None)
}

/// Parses a type expression whose names may be the type aliases `aliases`
/// resolves (`Stdlib::Port`), besides Puppet's own types.
pub fn parse_type_in(text: &str, aliases: &dyn Fn(&str) -> Option<Type>) -> Result<Type, String> {
    parse_with(text, aliases).map(|(t, _)| t)
}

fn parse_with(text: &str, aliases: &dyn Fn(&str) -> Option<Type>) -> Result<(Type, bool), String> {
    let mut p = Parser { s: text.as_bytes(), i: 0, loads: false, aliases };
    let t = p.ty()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(format!("Syntax error at '{}'", &text[p.i..]));
    }
    Ok((t, p.loads))
}

/// A parameter in brackets.
#[derive(Clone, Debug)]
enum Param {
    Type(Type),
    /// A quoted string, or a bare lowercase word.
    Str(String),
    Int(i128),
    Float(f64),
    /// `default`.
    Default,
    Bool(bool),
    Regexp(String),
    /// `{key => Type, ...}`: each key (a name, or `Optional[name]`) and type.
    Hash(Vec<(Param, Param)>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    /// Whether a name was resolved through the loader.
    loads: bool,
    /// The aliases names may stand for.
    aliases: &'a dyn Fn(&str) -> Option<Type>,
}

impl Parser<'_> {
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

    fn word(&mut self) -> Result<String, String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b':' | b'-'))
        {
            self.i += 1;
        }
        if start == self.i {
            return Err(self.end_error());
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// The text up to `close`; a backslash escapes the character after it
    /// (`/a\/b/`), which is kept as written.
    fn delimited(&mut self, close: u8) -> Result<String, String> {
        let start = self.i + 1;
        let mut end = start;
        while end < self.s.len() && self.s[end] != close {
            end += if self.s[end] == b'\\' { 2 } else { 1 };
        }
        if end >= self.s.len() {
            return Err(self.end_error());
        }
        self.i = end + 1;
        Ok(String::from_utf8_lossy(&self.s[start..end]).into_owned())
    }

    fn param(&mut self) -> Result<Param, String> {
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.end_error()),
            Some(q @ (b'\'' | b'"')) => self.delimited(*q).map(Param::Str),
            Some(b'/') => self.delimited(b'/').map(Param::Regexp),
            Some(b'{') => {
                self.i += 1;
                let mut entries = Vec::new();
                loop {
                    if self.eat(b'}') {
                        return Ok(Param::Hash(entries));
                    }
                    let key = self.param()?;
                    if !(self.eat(b'=') && self.eat(b'>')) {
                        return Err(self.end_error());
                    }
                    entries.push((key, self.param()?));
                    if !self.eat(b',') && !matches!(self.s.get(self.i), Some(b'}')) {
                        self.ws();
                        if self.s.get(self.i) != Some(&b'}') {
                            return Err(self.end_error());
                        }
                    }
                }
            }
            Some(c) if c.is_ascii_digit() || *c == b'-' => {
                let start = self.i;
                self.i += 1;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'.') {
                    self.i += 1;
                }
                let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                if let Ok(n) = text.parse::<i128>() {
                    Ok(Param::Int(n))
                } else {
                    text.parse::<f64>().map(Param::Float).map_err(|_| format!("Syntax error at '{text}'"))
                }
            }
            Some(c) if c.is_ascii_lowercase() => {
                let word = self.word()?;
                Ok(match word.as_str() {
                    "default" => Param::Default,
                    "true" => Param::Bool(true),
                    "false" => Param::Bool(false),
                    _ => Param::Str(word),
                })
            }
            Some(_) => self.ty().map(Param::Type),
        }
    }

    fn params(&mut self) -> Result<Vec<Param>, String> {
        let mut out = Vec::new();
        if !self.eat(b'[') {
            return Ok(out);
        }
        loop {
            if self.eat(b']') {
                return Ok(out);
            }
            out.push(self.param()?);
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
        let name = self.word()?;
        let params = self.params()?;
        let t = match build(&name, params) {
            Type::Reference(name) => match (self.aliases)(name.trim_start_matches("::")) {
                Some(resolved) => Type::Alias(Rc::new(Alias { name: name.trim_start_matches("::").into(), resolved })),
                None => Type::Reference(name),
            },
            t => t,
        };
        self.loads |= matches!(t, Type::Alias(_) | Type::Reference(_));
        Ok(t)
    }
}

fn types_of(params: &[Param]) -> Vec<Type> {
    params.iter().filter_map(|p| if let Param::Type(t) = p { Some(t.clone()) } else { None }).collect()
}

fn int_of(p: &Param) -> Option<Option<i128>> {
    match p {
        Param::Int(n) => Some(Some(*n)),
        Param::Default => Some(None),
        _ => None,
    }
}

/// The integer range in `params` (`[min]`, `[min, max]`, `default` for an
/// open end); `None` when they give none.
fn range_of(params: &[Param]) -> Option<Ints> {
    let bounds: Vec<Option<Int>> = params.iter().filter_map(int_of).map(|b| b.map(Int::new)).collect();
    match bounds.as_slice() {
        [] => None,
        [from] => Some(Ints { from: from.clone(), to: None }),
        [from, to, ..] => Some(Ints { from: from.clone(), to: to.clone() }),
    }
}

fn float_range(params: &[Param]) -> Floats {
    let bound = |p: &Param| match p {
        Param::Int(n) => Some(Some(*n as f64)),
        Param::Float(f) => Some(Some(*f)),
        Param::Default => Some(None),
        _ => None,
    };
    let bounds: Vec<Option<f64>> = params.iter().filter_map(bound).collect();
    Floats {
        from: bounds.first().copied().flatten().unwrap_or(f64::NEG_INFINITY),
        to: bounds.get(1).copied().flatten().unwrap_or(f64::INFINITY),
    }
}

fn string_of(p: &Param) -> Option<String> {
    match p {
        Param::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// A struct key: a name, or `Optional[name]` / `NotUndef[name]`.
fn member(key: &Param, value: &Param) -> Option<Member> {
    let value = match value {
        Param::Type(t) => t.clone(),
        _ => return None,
    };
    let (name, optional_key) = match key {
        Param::Str(s) => (s.clone(), false),
        Param::Type(Type::Optional(Some(t))) => match &**t {
            Type::String(Text::Value(s)) => (s.clone(), true),
            _ => return None,
        },
        Param::Type(Type::NotUndef(Some(t))) => match &**t {
            Type::String(Text::Value(s)) => (s.clone(), false),
            _ => return None,
        },
        _ => return None,
    };
    // A key whose value takes undef may be left out.
    let optional_key =
        optional_key || (value.assignable(&Type::Undef) && !matches!(key, Param::Type(Type::NotUndef(_))));
    Some(Member { name, optional_key, value })
}

/// `Optional['x']` and `NotUndef['x']` name one string.
fn contained(params: &[Param]) -> Option<Box<Type>> {
    match params.first()? {
        Param::Type(Type::Any) => None,
        Param::Type(t) => Some(Box::new(t.clone())),
        Param::Str(s) => Some(Box::new(Type::String(Text::Value(s.clone())))),
        _ => None,
    }
}

fn build(name: &str, params: Vec<Param>) -> Type {
    let types = types_of(&params);
    let first = || Box::new(types.first().cloned().unwrap_or(Type::Any));
    match name {
        "Any" => Type::Any,
        "Unit" => Type::Unit,
        "Undef" => Type::Undef,
        "Default" => Type::Default,
        "NotUndef" => Type::NotUndef(contained(&params)),
        "Boolean" => Type::Boolean(params.iter().find_map(|p| if let Param::Bool(b) = p { Some(*b) } else { None })),
        "Integer" => Type::Integer(range_of(&params).unwrap_or(Ints::ANY)),
        "Float" => Type::Float(float_range(&params)),
        "Numeric" => Type::Numeric(float_range(&params)),
        "String" => match (params.first(), range_of(&params)) {
            (Some(Param::Str(s)), _) => Type::String(Text::Value(s.clone())),
            (_, Some(size)) => Type::String(Text::Size(size.into_size())),
            _ => Type::String(Text::Any),
        },
        "Enum" => {
            let mut values: Vec<String> = params.iter().filter_map(string_of).collect();
            values.sort();
            values.dedup();
            Type::Enum(values, matches!(params.last(), Some(Param::Bool(true))))
        }
        "Pattern" => Type::Pattern(
            params
                .iter()
                .filter_map(|p| match p {
                    Param::Regexp(r) | Param::Str(r) => Some(r.clone()),
                    _ => None,
                })
                .collect(),
        ),
        "Regexp" => Type::Regexp(params.iter().find_map(|p| match p {
            Param::Regexp(r) | Param::Str(r) => Some(r.clone()),
            _ => None,
        })),
        "Scalar" => Type::Scalar,
        "ScalarData" => Type::ScalarData,
        "Data" => Type::data(),
        "RichData" => Type::rich_data(),
        "Collection" => Type::Collection(range_of(&params).map(Ints::into_size)),
        "Array" => {
            let size = range_of(&params).map(Ints::into_size);
            if size == Some(Ints::new(0, 0)) {
                Type::Array(Box::new(Type::Unit), size)
            } else {
                Type::Array(first(), size)
            }
        }
        "Hash" => {
            let size = range_of(&params).map(Ints::into_size);
            if size == Some(Ints::new(0, 0)) {
                return Type::Hash(Box::new(Type::Unit), Box::new(Type::Unit), size);
            }
            match types.as_slice() {
                [k, v, ..] => Type::Hash(Box::new(k.clone()), Box::new(v.clone()), size),
                _ => Type::Hash(Box::new(Type::Any), Box::new(Type::Any), size),
            }
        }
        "Tuple" => Type::Tuple(types, range_of(&params).map(Ints::into_size)),
        "Struct" => match params.first() {
            Some(Param::Hash(entries)) => Type::Struct(entries.iter().filter_map(|(k, v)| member(k, v)).collect()),
            _ => Type::Struct(Vec::new()),
        },
        "Optional" => Type::Optional(contained(&params)),
        "Variant" => Type::Variant(types),
        "Sensitive" => Type::Sensitive(Box::new(first().generalize())),
        "Runtime" => {
            let mut strings = params.iter().filter_map(string_of);
            Type::Runtime(strings.next(), strings.next())
        }
        other => match OPAQUE.iter().find(|n| **n == other) {
            Some(known) => Type::Opaque(known),
            None => Type::Reference(other.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::parse_type;

    #[test]
    fn prints_what_it_reads_as_puppet_prints_it() {
        for (text, printed) in [
            ("Array[String]", "Array[String]"),
            ("Array[Any]", "Array"),
            ("Hash[String, Array[Integer, 1]]", "Hash[String, Array[Integer, 1]]"),
            ("Integer[1, 1024]", "Integer[1, 1024]"),
            ("Integer[default, 5]", "Integer[default, 5]"),
            ("Float[1.0, 2]", "Float[1.0, 2.0]"),
            ("String[1]", "String[1]"),
            ("Enum[b, 'a', b]", "Enum['a', 'b']"),
            ("Pattern[/^db/]", "Pattern[/^db/]"),
            ("Tuple[Integer, String, 1, 5]", "Tuple[Integer, String, 1, 5]"),
            (
                "Struct[{a => String, Optional[b] => Integer, c => Optional[String]}]",
                "Struct[{'a' => String, Optional['b'] => Integer, 'c' => Optional[String]}]",
            ),
            ("Optional[Enum[a]]", "Optional[Enum['a']]"),
            ("Data", "Data"),
            ("Foo", "TypeReference['Foo']"),
            ("Sensitive[String[1, 3]]", "Sensitive[String]"),
        ] {
            assert_eq!(parse_type(text).unwrap().to_string(), printed, "{text}");
        }
        assert_eq!(parse_type("Hash[String").unwrap_err(), "Syntax error at end of input");
    }
}
