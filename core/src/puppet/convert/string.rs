//! Puppet's conversion of a value to a String, which `convert_to: String`
//! and `convert_to: [String, format]` call (`String.new(value, format)`):
//! its default formats, its format strings, and its layout of arrays and
//! hashes (Puppet's `StringConverter`).

use super::sprintf::{self, Arg, Spec};
use super::Refusal;
use crate::puppet::types::{puppet_double_quote, puppet_quote, Type};
use crate::value::{Array, Hash, Int, Value};
use regex_lite::Regex;
use std::sync::LazyLock;

/// A format, as Puppet reads one: `%<flags><width>.<prec><letter>`, the
/// letter saying what to make of the value.
#[derive(Clone)]
struct Format {
    /// The text it is written as, which Puppet hands to Ruby's `format`.
    text: String,
    letter: char,
    alt: bool,
    left: bool,
    width: Option<usize>,
    prec: Option<usize>,
    /// The pair around an array's or hash's elements: from a delimiter
    /// flag, none for a space flag, else the container's own.
    delimiters: Option<(&'static str, &'static str)>,
}

/// Puppet's `Format::FMT_PATTERN`, with Ruby's `^` and `$`, which match at
/// every line.
static FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$").expect("a valid pattern")
});

impl Format {
    /// Reads `text`; Puppet's message for a format it refuses.
    fn parse(text: &str) -> Result<Format, String> {
        let caps = FORMAT.captures(text).ok_or_else(|| {
            format!("The format '{text}' is not a valid format on the form '%<flags><width>.<prec><format>'")
        })?;
        let flags: Vec<char> = caps.get(1).map_or("", |m| m.as_str()).chars().collect();
        if (1..flags.len()).any(|i| flags[..i].contains(&flags[i])) {
            return Err(format!("The same flag can only be used once, got '{text}'"));
        }
        let pairs = [('[', ("[", "]")), ('{', ("{", "}")), ('(', ("(", ")")), ('<', ("<", ">")), ('|', ("|", "|"))];
        let mut delimiters = None;
        for (flag, pair) in pairs {
            if flags.contains(&flag) {
                if delimiters.is_some() {
                    return Err(format!(
                        "Only one of the delimiters [ {{ ( < | can be given in the format flags, got '{text}'"
                    ));
                }
                delimiters = Some(pair);
            }
        }
        if delimiters.is_none() && flags.contains(&' ') {
            delimiters = Some(("", ""));
        }
        let number = |i: usize| caps.get(i).map(|m| m.as_str().parse().unwrap_or(usize::MAX));
        Ok(Format {
            text: text.to_string(),
            letter: caps.get(4).and_then(|m| m.as_str().chars().next()).unwrap_or('s'),
            alt: flags.contains(&'#'),
            left: flags.contains(&'-'),
            width: number(2),
            prec: number(3),
            delimiters,
        })
    }

    /// Ruby's `format` of the format's text with `arg`.
    fn apply(&self, arg: Arg) -> Result<String, Refusal> {
        Ok(sprintf::format(&self.text, arg)?)
    }

    /// The format's text with its letter (every one in it, as Ruby's `tr`
    /// replaces them) turned into `to`, given to Ruby's `format`.
    fn apply_as(&self, to: char, arg: Arg) -> Result<String, Refusal> {
        Ok(sprintf::format(&self.text.replace(self.letter, to.encode_utf8(&mut [0; 4])), arg)?)
    }

    /// A literal text in the format's width and precision, as Puppet's
    /// `apply_string_flags` fits it.
    fn fit(&self, literal: &str) -> String {
        let spec = Spec {
            minus: self.left,
            plus: false,
            space: false,
            sharp: false,
            zero: false,
            width: self.width,
            prec: self.prec,
            conv: 's',
        };
        sprintf::text(&spec, literal)
    }

    /// Puppet's error for a letter that the value's type has no use for.
    fn illegal(&self, type_name: &str, expected: &str) -> String {
        format!(
            "Illegal format '{}' specified for value of {type_name} type - expected one of the characters '{expected}'",
            self.letter
        )
    }
}

/// The type Puppet's `new_string` declares for its formats argument.
const FORMATS: &str = concat!("Formats = Variant[Default, String[1], TypeMap = Hash[Type, ", entry_type!(), "]]");

/// What a type map's entry may be (a format, or a container's formats).
macro_rules! entry_type {
    () => {
        concat!(
            "Variant[",
            format_type!(),
            ", ContainerFormat = Struct[{Optional['format'] => ",
            format_type!(),
            ", Optional['separator'] => String, Optional['separator2'] => String, Optional['string_formats'] => Hash[Type, ",
            format_type!(),
            "]}]]"
        )
    };
}
use entry_type;

macro_rules! format_type {
    () => {
        r"Format = Pattern[/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/]"
    };
}
use format_type;

/// `String.new(value, *args)`: with no format, a format string, or a type
/// map (which data, whose keys are never types, can only give empty).
pub(super) fn new_string(value: &Value, args: &[Value]) -> Result<String, Refusal> {
    match args {
        [] => convert(value, None),
        [Value::String(f)] if !f.is_empty() => convert(value, Some(f)),
        [Value::Hash(h)] if h.is_empty() => convert(value, None),
        [Value::Hash(h)] if h.keys().all(|k| matches!(k, Value::String(_))) => {
            Err(Refusal::Raised(type_map_refused(h)))
        }
        [other] => Err(Refusal::Raised(format!(
            "'new_string' parameter 'string_formats' expects a {FORMATS} value, got {}",
            type_name(other)
        ))),
        _ => Err(Refusal::Raised(format!("'new_string' expects between 1 and 2 arguments, got {}", args.len() + 1))),
    }
}

/// The dispatcher's message for a hash of strings given as the formats:
/// every variant's refusal, the type map's for each entry.
fn type_map_refused(h: &Hash) -> String {
    let mut msg = format!(
        "'new_string' expects (Convertible = Any from, {FORMATS} string_formats?)\n  \
         rejected: parameter 'string_formats' variant 0 expects a Default value, got Struct\n  \
         rejected: parameter 'string_formats' variant 1 expects a String value, got Struct"
    );
    let rejected = "\n  rejected: parameter 'string_formats' variant 2";
    for (k, v) in h.iter() {
        let k = k.to_ruby_s();
        msg.push_str(&format!("{rejected} key of entry '{k}' expects a Type value, got String"));
        match v {
            Value::String(f) if FORMAT.is_match(f) => {}
            Value::Hash(c) => {
                let errors = container_format_errors(c);
                if !errors.is_empty() {
                    msg.push_str(&format!(
                        "{rejected} entry '{k}' variant 0 expects a match for {}, got {}",
                        format_type!(),
                        type_name(v)
                    ));
                }
                for e in errors {
                    msg.push_str(&format!("{rejected} entry '{k}' variant 1 {e}"));
                }
            }
            v => {
                msg.push_str(&format!("{rejected} entry '{k}' expects a match for {}, got {}", entry_type!(), shown(v)))
            }
        }
    }
    msg
}

/// How a type mismatch shows a value: a string as itself, quoted, anything
/// else by its type's name.
pub(super) fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => puppet_quote(s),
        v => type_name(v),
    }
}

/// Why a hash is not a `ContainerFormat`: its members' mismatches in the
/// struct's order, then the keys it does not know.
fn container_format_errors(c: &Hash) -> Vec<String> {
    let mut errors = Vec::new();
    let member = |name: &str| c.get(&Value::from(name));
    if let Some(f) = member("format").filter(|f| !matches!(f, Value::String(f) if FORMAT.is_match(f))) {
        errors.push(format!("entry 'format' expects a match for {}, got {}", format_type!(), shown(f)));
    }
    for name in ["separator", "separator2"] {
        if let Some(v) = member(name).filter(|v| !matches!(v, Value::String(_))) {
            errors.push(format!("entry '{name}' expects a String value, got {}", type_name(v)));
        }
    }
    match member("string_formats") {
        Some(Value::Hash(formats)) => {
            for (k, v) in formats.iter() {
                let k = k.to_ruby_s();
                errors.push(format!("entry 'string_formats' key of entry '{k}' expects a Type value, got String"));
                if !matches!(v, Value::String(f) if FORMAT.is_match(f)) {
                    errors.push(format!(
                        "entry 'string_formats' entry '{k}' expects a match for {}, got {}",
                        format_type!(),
                        shown(v)
                    ));
                }
            }
        }
        Some(v) => errors.push(format!("entry 'string_formats' expects a Hash value, got {}", type_name(v))),
        None => {}
    }
    let known = ["format", "separator", "separator2", "string_formats"];
    for k in c.keys().filter(|k| !matches!(k, Value::String(k) if known.contains(&k.as_str()))) {
        errors.push(format!("unrecognized key '{}'", k.to_ruby_s()));
    }
    errors
}

/// The name of a value's type in a message about a variant it matches
/// none of: the type's name alone.
pub(super) fn type_name(v: &Value) -> String {
    match v {
        Value::Array(a) if !a.is_empty() => "Tuple".into(),
        Value::Hash(h) if !h.is_empty() && h.keys().all(|k| matches!(k, Value::String(_))) => "Struct".into(),
        Value::Array(_) => "Array".into(),
        Value::Hash(_) => "Hash".into(),
        v => Type::infer(v).generalize().to_string(),
    }
}

/// `String.new(value)`, or with the format string `format`.
fn convert(value: &Value, format: Option<&str>) -> Result<String, Refusal> {
    let given = format.map(Format::parse).transpose()?;
    let [default_array, default_hash] = DEFAULT_CONTAINERS.clone();
    // A format given for an array or a hash applies to every one inside it;
    // one for anything else to the value alone, whose type it is given for.
    // NaN's type is not one of its own (`Float[NaN, NaN]` takes no NaN), so
    // it keeps the default.
    let (formats, top) = match (value, given) {
        (Value::Array(_), Some(f)) => (Formats { array: f, hash: default_hash }, None),
        (Value::Hash(_), Some(f)) => (Formats { array: default_array, hash: f }, None),
        (Value::Float(x), Some(_)) if x.is_nan() => (Formats { array: default_array, hash: default_hash }, None),
        (_, given) => (Formats { array: default_array, hash: default_hash }, given),
    };
    match top {
        Some(f) => formats.scalar(value, &f),
        None => formats.string(value, Scalars::Default, TOP_LEVEL),
    }
}

/// The formats of arrays and hashes, at every depth.
struct Formats {
    array: Format,
    hash: Format,
}

/// How scalars are formatted: at the top level by their type's default
/// format, inside an array or a hash by `%p`.
#[derive(Clone, Copy, PartialEq)]
enum Scalars {
    Default,
    Quoted,
}

/// The default formats of a scalar: inside an array or hash, and at the
/// top level for a float, an integer and anything else.
static DEFAULT_SCALARS: LazyLock<[Format; 4]> =
    LazyLock::new(|| ["%p", "%f", "%d", "%s"].map(|f| Format::parse(f).expect("a valid format")));

/// The default formats of an array and a hash.
static DEFAULT_CONTAINERS: LazyLock<[Format; 2]> =
    LazyLock::new(|| ["%a", "%h"].map(|f| Format::parse(f).expect("a valid format")));

const TOP_LEVEL: Indentation = Indentation { level: 0, first: true, indenting: false };

/// Where a nested array or hash goes when arrays are printed one element a
/// line (Puppet's `Indentation`).
#[derive(Clone, Copy)]
struct Indentation {
    level: usize,
    first: bool,
    indenting: bool,
}

impl Indentation {
    fn subsequent(self) -> Indentation {
        Indentation { first: false, ..self }
    }
    fn indenting(self, indenting: bool) -> Indentation {
        Indentation { indenting, ..self }
    }
    fn increase(self, indenting: bool) -> Indentation {
        Indentation { level: self.level + 1, first: true, indenting }
    }
    fn breaks(self) -> bool {
        self.indenting && self.level > 0 && !self.first
    }
    fn padding(self) -> String {
        " ".repeat(2 * self.level)
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Hash(_))
}

/// What Ruby's `strip` and `rstrip` take off: its whitespace and NUL.
const RUBY_SPACE: [char; 7] = [' ', '\t', '\n', '\x0b', '\x0c', '\r', '\0'];

/// Ruby's `rstrip!`.
fn rstrip(buf: &mut String) {
    let kept = buf.trim_end_matches(RUBY_SPACE).len();
    buf.truncate(kept);
}

impl Formats {
    fn string(&self, v: &Value, scalars: Scalars, ind: Indentation) -> Result<String, Refusal> {
        match v {
            Value::Array(a) => self.array(a, ind),
            Value::Hash(h) => self.hash(h, ind),
            v => {
                let [quoted, float, integer, other] = &*DEFAULT_SCALARS;
                let f = match (scalars, v) {
                    (Scalars::Quoted, _) => quoted,
                    (_, Value::Float(_)) => float,
                    (_, Value::Integer(_)) => integer,
                    _ => other,
                };
                self.scalar(v, f)
            }
        }
    }

    /// An element of an array or hash: an array or hash as any other, a
    /// scalar by `%p`.
    fn element(&self, v: &Value, ind: Indentation) -> Result<String, Refusal> {
        self.string(v, Scalars::Quoted, ind)
    }

    /// A value by the format `f` (an array or a hash by its own).
    fn scalar(&self, v: &Value, f: &Format) -> Result<String, Refusal> {
        match v {
            Value::Undef => undef(f),
            Value::Bool(b) => boolean(*b, f),
            Value::Integer(i) => integer(i, f),
            Value::Float(x) => float(*x, f),
            Value::String(s) => string(s, f),
            Value::Symbol(s) => string(s, f),
            Value::Sensitive(_) => Ok(f.fit("Sensitive [value redacted]")),
            Value::Binary(b) => string(&String::from_utf8_lossy(b), f),
            Value::Array(_) | Value::Hash(_) => self.string(v, Scalars::Default, TOP_LEVEL),
        }
    }

    fn array(&self, a: &Array, ind: Indentation) -> Result<String, Refusal> {
        let f = &self.array;
        if !matches!(f.letter, 'a' | 's' | 'p') {
            return Err(f.illegal("Array", "asp").into());
        }
        let (open, close) = f.delimiters.unwrap_or(("[", "]"));
        let ind = ind.indenting(f.alt || ind.indenting);
        let mut buf = String::new();
        if ind.breaks() {
            buf.push('\n');
            buf.push_str(&ind.padding());
        }
        buf.push_str(open);
        // Every element is told it is not the first (Puppet's first
        // `subsequent` comes before the first element).
        let children = ind.increase(f.alt).subsequent();
        let mapped = a.iter().map(|v| self.element(v, children)).collect::<Result<Vec<_>, _>>()?;
        // With `#` and a width, a run of scalars longer than the width puts
        // each element on a line of its own.
        let breaks = f.alt
            && f.width.is_some_and(|width| {
                let mut runs = vec![0];
                for (v, s) in a.iter().zip(&mapped) {
                    match runs.last_mut() {
                        Some(run) if !is_container(v) => *run += s.chars().count(),
                        _ => runs.push(0),
                    }
                }
                runs.into_iter().max().unwrap_or(0) > width
            });
        let padding = ind.increase(f.alt).padding();
        for (i, (v, s)) in a.iter().zip(&mapped).enumerate() {
            if i == 0 {
                if breaks && !is_container(v) {
                    buf.push(' ');
                }
            } else {
                buf.push_str(", ");
                if (breaks && !is_container(v)) || (f.alt && is_container(&a[i - 1]) && !is_container(v)) {
                    if !buf.ends_with('\n') {
                        rstrip(&mut buf);
                    }
                    buf.push('\n');
                    buf.push_str(&padding);
                }
            }
            if buf.ends_with(' ') && s.starts_with('\n') {
                rstrip(&mut buf);
            }
            buf.push_str(s);
        }
        buf.push_str(close);
        Ok(buf)
    }

    fn hash(&self, h: &Hash, ind: Indentation) -> Result<String, Refusal> {
        let f = &self.hash;
        match f.letter {
            'a' => {
                let pairs: Array = h.iter().map(|(k, v)| Value::Array(vec![k.clone(), v.clone()].into())).collect();
                return self.array(&pairs, ind);
            }
            'h' | 's' | 'p' => {}
            _ => return Err(f.illegal("Hash", "hasp").into()),
        }
        let (open, close) = f.delimiters.unwrap_or(("{", "}"));
        let separator = if f.alt { ",\n" } else { ", " };
        let ind = ind.indenting(f.alt || ind.indenting);
        let mut buf = String::new();
        if ind.breaks() {
            buf.push('\n');
            buf.push_str(&ind.padding());
        }
        let children = ind.increase(false);
        let (line_break, padding) = if f.alt { ("\n", children.padding()) } else { ("", String::new()) };
        buf.push_str(open);
        buf.push_str(line_break);
        let entries = h
            .iter()
            .map(|(k, v)| Ok(format!("{padding}{} => {}", self.element(k, children)?, self.element(v, children)?)))
            .collect::<Result<Vec<String>, Refusal>>()?;
        buf.push_str(&entries.join(separator));
        if f.alt {
            buf.push_str(line_break);
            buf.push_str(&ind.padding());
        }
        buf.push_str(close);
        Ok(buf)
    }
}

fn undef(f: &Format) -> Result<String, Refusal> {
    let text = match f.letter {
        'n' if f.alt => "null",
        'n' => "nil",
        'u' if f.alt => "undefined",
        'u' => "undef",
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => "NaN",
        'v' => "n/a",
        'V' => "N/A",
        's' if f.alt => "\"\"",
        's' => "",
        'p' if f.alt => "\"undef\"",
        'p' => "undef",
        _ => return Err(f.illegal("Undef", "nudxXobBeEfgGaAvVsp").into()),
    };
    Ok(f.fit(text))
}

fn boolean(b: bool, f: &Format) -> Result<String, Refusal> {
    let word = |yes: &'static str, no: &'static str| {
        let w = if b { yes } else { no };
        f.fit(if f.alt { &w[..1] } else { w })
    };
    Ok(match f.letter {
        't' => word("true", "false"),
        'T' => word("True", "False"),
        'y' => word("yes", "no"),
        'Y' => word("Yes", "No"),
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => integer(&Int::from(b), f)?,
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => float(if b { 1.0 } else { 0.0 }, f)?,
        's' | 'p' => f.fit(if b { "true" } else { "false" }),
        _ => return Err(f.illegal("Boolean", "tTyYdxXobBeEfgGaAsp").into()),
    })
}

fn integer(i: &Int, f: &Format) -> Result<String, Refusal> {
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'p' => f.apply(Arg::Int(i.clone())),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => f.apply(Arg::Float(i.to_f64())),
        'c' => {
            // Ruby's `[i].pack("U")`, which makes a string of any code
            // point up to 2^31 - 1, a character or not.
            let Some(i) = i.to_i128().filter(|i| i64::try_from(*i).is_ok()) else {
                return Err(Refusal::Raised("bignum too big to convert into `long'".into()));
            };
            if !(0..=0x7fff_ffff).contains(&i) {
                return Err(Refusal::Raised("pack(U): value out of range".into()));
            }
            // A code point that is no character stands as U+FFFD while the
            // text is made: a string that keeps it is not UTF-8.
            let valid = u32::try_from(i).ok().and_then(char::from_u32);
            let c = valid.unwrap_or(char::REPLACEMENT_CHARACTER);
            let c = if f.alt { format!("\"{c}\"") } else { c.to_string() };
            let made = f.apply_as('s', Arg::Str(&c))?;
            if valid.is_none() && made.contains(char::REPLACEMENT_CHARACTER) {
                return Err(Refusal::NotUtf8);
            }
            Ok(made)
        }
        's' => f.apply_as(if f.alt { 'p' } else { 's' }, Arg::Str(&i.to_string())),
        _ => Err(f.illegal("Integer", "dxXobBeEfgGaAspc").into()),
    }
}

fn float(x: f64, f: &Format) -> Result<String, Refusal> {
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => f.apply(Arg::Int(sprintf::float_to_int(x)?)),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' | 'p' => f.apply(Arg::Float(x)),
        's' => {
            let text = crate::value::ruby_float(x);
            let text = if f.alt { format!("\"{text}\"") } else { text };
            f.apply(Arg::Str(&text))
        }
        _ => Err(f.illegal("Float", "dxXobBeEfgGaAsp").into()),
    }
}

fn string(s: &str, f: &Format) -> Result<String, Refusal> {
    let changed = match f.letter {
        's' => return f.apply(Arg::Str(s)),
        'p' if f.alt => return Ok(f.fit(&puppet_double_quote(s))),
        'p' => return Ok(f.fit(&puppet_quote(s))),
        'c' => capitalize(s),
        'C' => s.split("::").map(capitalize).collect::<Vec<_>>().join("::"),
        'u' => s.to_uppercase(),
        'd' => s.to_ascii_lowercase(),
        't' => s.trim_matches(RUBY_SPACE).to_string(),
        _ => return Err(f.illegal("String", "cCudspt").into()),
    };
    if f.alt {
        Ok(f.fit(&puppet_quote(&changed)))
    } else {
        f.apply_as('s', Arg::Str(&changed))
    }
}

/// Ruby's `capitalize`: the first character up, the rest down.
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars.as_str().to_ascii_lowercase().chars()).collect(),
        None => String::new(),
    }
}
