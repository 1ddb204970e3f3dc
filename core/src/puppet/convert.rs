//! `convert_to`: Puppet's `new(Type, value, ...)` for the types lookup
//! options use in practice. String's `new` is Puppet's string conversion
//! (`string`, over Ruby's `format` in `sprintf`), Hash's with a build
//! option its `from_tree` (`hash`).

mod hash;
mod sprintf;
mod string;

use crate::error::{Error, ErrorKind};
use crate::puppet::types::{self, parse_type, NewType as Type};
use crate::value::{Hash, Int, Str, Value};
use regex_lite::Regex;
use std::sync::LazyLock;

/// A `convert_to` option read as Puppet reads it before calling `new`: the
/// type to make, and `new`'s other arguments.
#[derive(Debug)]
pub struct Target {
    ty: Type,
    args: Vec<Value>,
    /// Written as an array (`[Array, true]`): Puppet then stores the parsed
    /// type back into it, where the explanation shows it.
    array_form: bool,
    /// Whether the engine's reading of the type dropped something Puppet's
    /// type object shows.
    lossy: bool,
}

impl Target {
    /// Reads a `convert_to` option: a type name, or `[type, args...]`.
    pub fn parse(key: &str, convert_to: &Value) -> Result<Target, Error> {
        let (type_text, args): (String, Vec<Value>) = match convert_to {
            Value::Array(a) if !a.is_empty() => (a[0].to_ruby_s(), a[1..].to_vec()),
            v => (v.to_ruby_s(), Vec::new()),
        };
        let (ty, lossy) = parse_type(&type_text).map(|t| Type::of(&t)).map_err(|e| {
            Error::lookup(format!(
                "Invalid data type in lookup_options for key '{key}' could not parse '{type_text}', error: '{e}"
            ))
        })?;
        Ok(Target { ty, args, array_form: matches!(convert_to, Value::Array(_)), lossy })
    }

    /// The Ruby `inspect` of the type object Puppet stores into an
    /// array-form option (`#<Puppet::Pops::Types::PIntegerType:0x... @from=-Infinity, @to=Infinity>`);
    /// `None` for a type name alone, or where the engine does not keep all
    /// that the object would show.
    pub fn type_object(&self) -> Option<String> {
        (self.array_form && !self.lossy).then(|| self.ty.inspect()).flatten()
    }

    /// Applies the option to a value: what `new` made of it, and the
    /// arguments as the explanation prints them.
    pub fn apply(&self, key: &str, value: Value) -> Result<Applied, Error> {
        let raised =
            |msg: String| Error::lookup(format!("The convert_to lookup_option for key '{key}' raised error: {msg}"));
        let value = match new_value(&self.ty, value, &self.args) {
            Ok(v) => Ok(v),
            Err(Refusal::Raised(msg)) => return Err(raised(msg)),
            // Puppet makes the string, and fails when it is printed.
            Err(refusal @ Refusal::NotUtf8) => Err(Error::lookup(refusal.into_message()).with_kind(ErrorKind::Render)),
        };
        let mut printed = vec![self.ty.to_string()];
        printed.extend(self.args.iter().map(puppet_string));
        Ok(Applied { value, args: format!("[{}]", printed.join(", ")) })
    }
}

/// What applying a `convert_to` option gave.
#[derive(Debug)]
pub struct Applied {
    /// The new value, or the error that the value Puppet made raises when
    /// it is used.
    pub value: Result<Value, Error>,
    /// The arguments `new` was called with, as the explanation prints them.
    pub args: String,
}

/// Why `new` gave no value.
#[derive(Debug)]
enum Refusal {
    /// It raised an error with this message.
    Raised(String),
    /// It made a string that is not UTF-8 (`%c` of a code point that is no
    /// character).
    NotUtf8,
}

impl Refusal {
    fn into_message(self) -> String {
        match self {
            Refusal::Raised(msg) => msg,
            Refusal::NotUtf8 => "source sequence is illegal/malformed utf-8".into(),
        }
    }
}

impl From<String> for Refusal {
    fn from(msg: String) -> Refusal {
        Refusal::Raised(msg)
    }
}

/// Puppet's `String(value)`, with its default formats.
pub fn to_puppet_string(value: &Value) -> String {
    // The default formats have no `%c`, the one way to fail.
    string::new_string(value, &[]).unwrap_or_else(|refusal| refusal.into_message())
}

/// Puppet's `String()` of a value in an argument list.
fn puppet_string(v: &Value) -> String {
    match v {
        Value::String(s) => crate::puppet::types::puppet_quote(s),
        Value::Undef => "undef".into(),
        v => v.to_ruby_s(),
    }
}

/// The error a type's `new` returns for a value it does not take, named
/// after the function that implements it.
fn cannot(v: &Value, to: &str) -> String {
    let function = match to {
        "Float" => "new_float",
        "Numeric" => "new_numeric",
        "Boolean" => "new_boolean",
        _ => "new",
    };
    match v {
        Value::String(s) => format!("'{function}' The string '{s}' cannot be converted to {to}"),
        v => format!("'{function}' Value of type {} cannot be converted to {to}", types::Type::infer(v).generalize()),
    }
}

/// The strings Integer's `new` takes (its `Convertible` pattern).
const INTEGER_PATTERN: &str = r"\A[+-]?\s*(?:(?:\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\z";
static INTEGER_TEXT: LazyLock<Regex> = LazyLock::new(|| Regex::new(INTEGER_PATTERN).expect("a valid pattern"));

/// Integer's `radix` argument, as Puppet prints its type.
const RADIX: &str = "Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]";

/// The strings Float's and Numeric's `new` take.
const FLOAT_PATTERN: &str =
    r"\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\z";
static FLOAT_TEXT: LazyLock<Regex> = LazyLock::new(|| Regex::new(FLOAT_PATTERN).expect("a valid pattern"));

/// Whether Integer's `new` (`integer`), or Float's and Numeric's, takes `v`:
/// their `Convertible` types.
fn convertible(integer: bool, v: &Value) -> bool {
    match v {
        Value::Integer(_) | Value::Float(_) | Value::Bool(_) => true,
        Value::String(s) => if integer { &INTEGER_TEXT } else { &FLOAT_TEXT }.is_match(s),
        _ => false,
    }
}

/// Integer's, Float's and Numeric's `new` take a hash as their named
/// arguments: `from`, `radix` (Integer's only) and `abs`.
fn from_named(ty: &Type, h: &Hash) -> Result<Value, String> {
    let integer = matches!(ty, Type::Integer);
    let get = |k: &str| h.get(&Str(k));
    let names: &[&str] = if integer { &["from", "radix", "abs"] } else { &["from", "abs"] };
    let radix_ok = |r: &Value| matches!(r, Value::Integer(i) if matches!(i.to_i128(), Some(2 | 8 | 10 | 16)));
    let (radix, abs) = (get("radix"), get("abs"));
    let fits = h.keys().all(|k| matches!(k, Value::String(k) if names.contains(&k.as_str())))
        && radix.is_none_or(radix_ok)
        && abs.is_none_or(|a| matches!(a, Value::Bool(_)));
    if let Some(from) = get("from").filter(|from| fits && convertible(integer, from)) {
        let value = match ty {
            Type::Integer => to_integer(from, radix),
            Type::Float => to_float(from),
            _ => new_value(ty, from.clone(), &[]).map_err(Refusal::into_message),
        }?;
        return Ok(absolute(value, abs));
    }
    if !integer {
        return Err(cannot(&Value::Hash(h.clone()), &ty.to_string()));
    }
    // Integer's `on_error_hash`: `from`, then `radix`, then the signature.
    if let Some(from) = get("from").filter(|from| !convertible(integer, from)) {
        return Err(cannot(from, "Integer"));
    }
    if let Some(r) = radix.filter(|r| !matches!(r, Value::Undef) && !radix_ok(r)) {
        return Err(format!("Illegal radix: {}, expected 2, 8, 10, 16, or default", r.to_ruby_s()));
    }
    Err(named_args_mismatch(h))
}

/// How Puppet's type checker says a hash does not fit Integer's named
/// arguments: every way it misses, one a line.
fn named_args_mismatch(h: &Hash) -> String {
    let subject = "Integer.new has wrong type,";
    if h.is_empty() {
        return format!("{subject} expects size to be between 1 and 3, got 0");
    }
    if !h.keys().all(|k| matches!(k, Value::String(k) if !k.is_empty())) {
        let got = crate::puppet::types::described(&Value::Hash(h.clone()));
        return format!(
            "{subject} expects a NamedArgs = Struct[{{'from' => Convertible = Variant[Numeric, Boolean, \
             Pattern[/{INTEGER_PATTERN}/], Timespan, Timestamp], Optional['radix'] => {RADIX}, \
             Optional['abs'] => Boolean}}] value, got {got}"
        );
    }
    let got = |v: &Value| types::Type::infer(v).generalize();
    let mut errors = Vec::new();
    if h.get(&Str("from")).is_none() {
        errors.push("expects a value for key 'from'".to_string());
    }
    if let Some(r @ Value::Undef) = h.get(&Str("radix")) {
        errors.push(format!("entry 'radix' expects a {RADIX} value, got {}", got(r)));
    }
    if let Some(a) = h.get(&Str("abs")).filter(|a| !matches!(a, Value::Bool(_))) {
        errors.push(format!("entry 'abs' expects a Boolean value, got {}", got(a)));
    }
    for k in h.keys().filter_map(Value::as_str).filter(|k| !["from", "radix", "abs"].contains(k)) {
        errors.push(format!("unrecognized key '{k}'"));
    }
    match errors.as_slice() {
        [one] => format!("{subject} {one}"),
        all => all.iter().map(|e| format!(" {subject} {e}")).collect::<Vec<_>>().join("\n "),
    }
}

fn new_value(ty: &Type, value: Value, args: &[Value]) -> Result<Value, Refusal> {
    // With arguments (`[Integer, 10, true]`), `new` has something to do even
    // for a value of the type.
    if args.is_empty()
        && !matches!(ty, Type::Reference(_))
        && ty.is_instance(&value)
        && !matches!(ty, Type::Array | Type::Sensitive)
    {
        return Ok(value);
    }
    if let (Type::Integer | Type::Float | Type::Numeric, Value::Hash(h)) = (ty, &value) {
        return Ok(from_named(ty, h)?);
    }
    // The arguments after the value: Integer's radix and abs, the others' abs.
    let made = match ty {
        Type::Integer | Type::Float | Type::Numeric => number_new(ty, &value, args),
        Type::String => return string::new_string(&value, args).map(Value::String),
        Type::Boolean if !args.is_empty() => Err(format!("'new_boolean' expects 1 argument, got {}", args.len() + 1)),
        Type::Boolean => to_boolean(&value),
        Type::Array => match args {
            [] => to_array(value, false),
            [Value::Bool(wrap)] => to_array(value, *wrap),
            [wrap] => Err(format!(
                "'new_array' parameter 'wrap' expects a Boolean value, got {}",
                types::Type::infer(wrap).generalize()
            )),
            _ => Err(format!("'new_array' expects between 1 and 2 arguments, got {}", args.len() + 1)),
        },
        Type::Hash => match args {
            [] => to_hash(value),
            [option] => hash::from_tree(value, option),
            _ => Err(format!("'new_hash' expects between 1 and 2 arguments, got {}", args.len() + 1)),
        },
        Type::Sensitive => Ok(Value::Sensitive(Box::new(value))),
        Type::Optional(inner) => match value {
            Value::Undef => Ok(Value::Undef),
            v => return new_value(inner, v, args),
        },
        other => Err(format!("Creation of new instance of type '{other}' is not supported")),
    };
    Ok(made?)
}

/// A number made positive when `abs` is `true`, as `new`'s `abs` argument does.
fn absolute(v: Value, abs: Option<&Value>) -> Value {
    match (v, abs) {
        (Value::Integer(i), Some(Value::Bool(true))) if i.is_negative() => Value::Integer(i.neg()),
        (Value::Float(f), Some(Value::Bool(true))) => Value::Float(f.abs()),
        (v, _) => v,
    }
}

/// The radixes Integer's `new` takes.
fn radix_of(r: &Value) -> Option<u32> {
    match r {
        Value::Integer(i) => [2, 8, 10, 16].into_iter().find(|&b| i.to_i128() == Some(i128::from(b))),
        _ => None,
    }
}

/// Integer's `new(from, radix?, abs?)`, and Float's and Numeric's
/// `new(from, abs?)`, as Puppet dispatches them: to `from_args` when every
/// argument fits, else to `on_error` when the radix is an integer and `abs`
/// a boolean, else to the dispatcher's own message.
fn number_new(ty: &Type, from: &Value, args: &[Value]) -> Result<Value, String> {
    let (function, to, pattern, numbers) = match ty {
        Type::Integer => ("new", "Integer", INTEGER_PATTERN, "Numeric"),
        Type::Float => ("new_float", "Float", FLOAT_PATTERN, "Numeric"),
        _ => ("new_numeric", "Numeric", FLOAT_PATTERN, "Integer, Float"),
    };
    let integer = matches!(ty, Type::Integer);
    let most = if integer { 3 } else { 2 };
    if args.len() + 1 > most {
        return Err(format!("'{function}' expects between 1 and {most} arguments, got {}", args.len() + 1));
    }
    let (radix, abs) = if integer { (args.first(), args.get(1)) } else { (None, args.first()) };
    let abs_fits = abs.is_none_or(|a| matches!(a, Value::Bool(_)));
    let radix_fits = radix.is_none_or(|r| radix_of(r).is_some());
    let takes_from = convertible(integer, from);
    if takes_from && radix_fits && abs_fits {
        let value = match ty {
            Type::Integer => to_integer(from, radix),
            Type::Float => to_float(from),
            _ => to_integer(from, None).or_else(|_| to_float(from)).map_err(|_| cannot(from, to)),
        }?;
        return Ok(absolute(value, abs));
    }
    if radix.is_none_or(|r| matches!(r, Value::Integer(_))) && abs_fits {
        return Err(match radix.filter(|_| !radix_fits) {
            Some(r) => format!("Illegal radix: {}, expected 2, 8, 10, 16, or default", r.to_ruby_s()),
            None => cannot(from, to),
        });
    }
    // The first parameter that does not fit, as the dispatcher describes it.
    let got = |v: &Value| types::Type::infer(v).generalize().to_string();
    let convertible_type =
        format!("Convertible = Variant[{numbers}, Boolean, Pattern[/{pattern}/], Timespan, Timestamp]");
    let rejected = match (takes_from, radix.filter(|_| !radix_fits), abs) {
        (false, ..) => format!("parameter 'from' expects a {convertible_type} value, got {}", got(from)),
        (true, Some(r), _) => format!("parameter 'radix' expects a {RADIX} value, got {}", got(r)),
        (true, None, a) => format!("parameter 'abs' expects a Boolean value, got {}", a.map_or(String::new(), got)),
    };
    let (radix_param, radix_entry) = match integer {
        true => (format!(", {RADIX} radix?"), format!(", Optional['radix'] => {RADIX}")),
        false => (String::new(), String::new()),
    };
    Err(format!(
        "The function '{function}' was called with arguments it does not accept. It expects one of:\n  \
         ({convertible_type} from{radix_param}, Boolean abs?)\n    rejected: {rejected}\n  \
         (NamedArgs = Struct[{{'from' => {convertible_type}{radix_entry}, Optional['abs'] => Boolean}}] \
         hash_args)\n    rejected: expects 1 argument, got {}",
        args.len() + 1
    ))
}

/// Integer's `new` of a value it takes, with a radix it takes or none.
fn to_integer(v: &Value, radix: Option<&Value>) -> Result<Value, String> {
    match v {
        Value::Integer(i) => Ok(Value::Integer(i.clone())),
        // Ruby's FloatDomainError for what is not finite.
        Value::Float(f) => sprintf::float_to_int(*f).map(Value::Integer),
        Value::Bool(b) => Ok(Value::Integer((*b as i128).into())),
        // Only what the `Convertible` pattern lets through reaches Ruby's `Integer()`.
        Value::String(s) if !INTEGER_TEXT.is_match(s) => Err(cannot(v, "Integer")),
        Value::String(s) => {
            let base = radix.and_then(radix_of);
            // Puppet tries again without blanks between the sign and the number.
            let unspaced = || {
                let rest = s.strip_prefix(['+', '-'])?;
                let digits = rest.trim_start_matches([' ', '\t']);
                (digits.len() < rest.len()).then(|| format!("{}{digits}", &s[..1]))
            };
            ruby_integer(s, base)
                .or_else(|| ruby_integer(&unspaced()?, base))
                .map(Value::Integer)
                .ok_or_else(|| format!("invalid value for Integer(): {}", crate::value::inspect_str(s)))
        }
        v => Err(cannot(v, "Integer")),
    }
}

/// Ruby's `Integer(text)`, or `Integer(text, base)`, on a text that
/// Integer's `Convertible` pattern lets through: `None` where Ruby raises.
fn ruby_integer(text: &str, base: Option<u32>) -> Option<Int> {
    let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let prefixed = |p: &str| body.len() > 2 && body.get(..2).is_some_and(|b| b.eq_ignore_ascii_case(p));
    // A prefix says the base, and may repeat the one given.
    let (base, digits) = match base {
        None | Some(16) if prefixed("0x") => (16, &body[2..]),
        None | Some(2) if prefixed("0b") => (2, &body[2..]),
        None if body.len() > 1 && body.starts_with('0') => (8, &body[1..]),
        None => (10, body),
        Some(base) => (base, body),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(base)) {
        return None;
    }
    let n = Int::from_digits(digits, base)?;
    Some(if negative { n.neg() } else { n })
}

fn to_float(v: &Value) -> Result<Value, String> {
    match v {
        Value::Integer(i) => Ok(Value::Float(i.to_f64())),
        Value::Float(f) => Ok(Value::Float(*f)),
        Value::Bool(b) => Ok(Value::Float(if *b { 1.0 } else { 0.0 })),
        Value::String(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| cannot(v, "Float")),
        v => Err(cannot(v, "Float")),
    }
}

fn to_boolean(v: &Value) -> Result<Value, String> {
    match v {
        Value::Bool(b) => Ok(Value::Bool(*b)),
        Value::Integer(i) => Ok(Value::Bool(*i != Int::ZERO)),
        Value::Float(f) => Ok(Value::Bool(*f != 0.0)),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" => Ok(Value::Bool(true)),
            "false" | "no" | "n" | "" => Ok(Value::Bool(false)),
            _ => Err(cannot(v, "Boolean")),
        },
        v => Err(cannot(v, "Boolean")),
    }
}

fn to_array(v: Value, wrap: bool) -> Result<Value, String> {
    Ok(match v {
        Value::Array(a) => Value::Array(a),
        v if wrap => Value::Array(vec![v].into()),
        Value::Hash(h) => Value::Array(h.into_iter().map(|(k, v)| Value::Array(vec![k, v].into())).collect()),
        Value::String(s) => Value::Array(s.chars().map(|c| Value::String(c.to_string())).collect()),
        // An Integer is iterable in Puppet: `Array(3)` is `[0, 1, 2]`. Past
        // a million elements the engine gives up, as Ruby does past memory.
        Value::Integer(n) if n.is_negative() => Value::Array(Default::default()),
        Value::Integer(n) => match n.to_usize().filter(|&n| n <= crate::formats::yaml::MAX_NODES) {
            Some(n) => Value::Array((0..n).map(|i| Value::Integer(Int::from(i as u64))).collect()),
            None => return Err("failed to allocate memory".into()),
        },
        v => Value::Array(vec![v].into()),
    })
}

fn to_hash(v: Value) -> Result<Value, String> {
    match v {
        Value::Hash(h) => Ok(Value::Hash(h)),
        Value::Array(a) => {
            let mut h = Hash::default();
            if a.iter().all(|e| matches!(e, Value::Array(p) if p.len() == 2)) {
                for e in a {
                    if let Value::Array(mut p) = e {
                        let v = p.pop().unwrap_or(Value::Undef);
                        let k = p.pop().unwrap_or(Value::Undef);
                        h.insert(k, v);
                    }
                }
            } else {
                if a.len() % 2 != 0 {
                    return Err("odd number of arguments for Hash".into());
                }
                let mut it = a.into_iter();
                while let (Some(k), Some(v)) = (it.next(), it.next()) {
                    h.insert(k, v);
                }
            }
            Ok(Value::Hash(h))
        }
        v => Err(cannot(&v, "Hash")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abs_of_the_least_integer_is_its_opposite_as_in_ruby() {
        let least = Value::Integer(i128::MIN.into());
        let opposite = Int::from_digits("170141183460469231731687303715884105728", 10).unwrap();
        assert_eq!(absolute(least, Some(&Value::Bool(true))), Value::Integer(opposite));
    }

    #[test]
    fn an_array_of_a_huge_integer_fails_instead_of_filling_memory() {
        let three = to_array(Value::Integer(Int::small(3)), false).unwrap();
        assert_eq!(three, Value::Array((0..3).map(|i| Value::Integer(Int::small(i))).collect()));
        assert_eq!(to_array(Value::Integer(Int::small(-3)), false), Ok(Value::Array(Default::default())));
        let huge = Value::Integer(Int::new(10i128.pow(12)));
        assert_eq!(to_array(huge, false), Err("failed to allocate memory".to_string()));
    }
}
