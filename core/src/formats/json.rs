//! JSON the way Ruby's json gem (2.6) reads and writes it. Reading, as
//! `json_data` does: integers of any size stay integers, `-0` is `0`, the
//! last of duplicate keys wins, and errors quote the input from where the
//! gem's parser gave up. Writing, as `puppet lookup --render-as json`
//! prints a value: keys in order, floats as Ruby prints them (`1.0e+20`),
//! integers in full.

use crate::value::{Hash, Int, Value};

/// JSON is written here, apart from the data model (as serde_json's `Value`
/// is apart from its serializer).
impl Value {
    /// The value as JSON on one line, the way `puppet lookup --render-as
    /// json` prints it (see [`generate`]); NaN and infinities are an error
    /// there too.
    pub fn to_json(&self) -> Result<String, NotJson> {
        generate(self, false)
    }

    /// The value as indented JSON, an element a line, for people to read.
    pub fn to_json_pretty(&self) -> Result<String, NotJson> {
        generate(self, true)
    }
}

/// A parse error: the gem's message (`859: unexpected token at '...'`) and
/// the byte offset it points at.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// The message as the json gem words it.
    pub message: String,
    /// Byte offset in the input.
    pub offset: usize,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JsonError {}

/// A value JSON cannot hold (NaN, an infinity), refused with the json
/// gem's message (`1003: NaN not allowed in JSON`).
#[derive(Clone, Debug, PartialEq)]
pub struct NotJson(pub String);

impl std::fmt::Display for NotJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotJson {}

/// The most nesting the reader follows (the gem's own default limit).
const MAX_NESTING: usize = 100;

/// Writes `value` as JSON, on one line as the gem's `generate` does, or
/// `pretty`: an element a line, indented two spaces a level (empty arrays
/// and hashes as `[]` and `{}`, where `pretty_generate` breaks them over
/// lines). NaN and infinities are errors, with the gem's messages.
pub fn generate(value: &Value, pretty: bool) -> Result<String, NotJson> {
    let mut out = String::new();
    write(&mut out, value, pretty.then_some(0))?;
    Ok(out)
}

fn write(out: &mut String, value: &Value, indent: Option<usize>) -> Result<(), NotJson> {
    // The line break and indentation before an element at `depth`.
    let line = |out: &mut String, depth: usize| {
        if indent.is_some() {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
    };
    let depth = indent.unwrap_or(0);
    let inner = indent.map(|d| d + 1);
    match value {
        Value::Undef => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Integer(i) => out.push_str(&i.to_string()),
        Value::Float(f) if f.is_nan() => return Err(NotJson("1003: NaN not allowed in JSON".into())),
        Value::Float(f) if f.is_infinite() => {
            return Err(NotJson(format!("1000: {}Infinity not allowed in JSON", if *f < 0.0 { "-" } else { "" })))
        }
        Value::Float(f) => out.push_str(&crate::value::ruby_float(*f)),
        Value::String(s) => string(out, s),
        Value::Symbol(s) => string(out, s),
        Value::Sensitive(_) => string(out, "Sensitive [value redacted]"),
        // Ruby's generator refuses a string that is not UTF-8.
        Value::Binary(b) => match std::str::from_utf8(b) {
            Ok(s) => string(out, s),
            Err(_) => return Err(NotJson(not_utf8(b).into())),
        },
        Value::Array(a) => {
            out.push('[');
            for (n, v) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                line(out, depth + 1);
                write(out, v, inner)?;
            }
            if !a.is_empty() {
                line(out, depth);
            }
            out.push(']');
        }
        Value::Hash(h) => {
            out.push('{');
            for (n, (k, v)) in h.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                line(out, depth + 1);
                string(out, &k.to_ruby_s());
                out.push_str(if indent.is_some() { ": " } else { ":" });
                write(out, v, inner)?;
            }
            if !h.is_empty() {
                line(out, depth);
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A JSON string: quotes, backslashes and control characters escaped.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parses a JSON document.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser { s: text.as_bytes(), text, i: 0, depth: 0 };
    p.ws();
    let start = p.i;
    let value = match p.value() {
        Ok(v) => v,
        Err(Fail::Reported(e)) => return Err(e),
        Err(Fail::Bubble) => return Err(p.error(859, start)),
    };
    p.ws();
    if p.i < p.s.len() {
        return Err(p.error(859, p.i));
    }
    Ok(value)
}

enum Fail {
    /// An error already located (by an array, or a NaN).
    Reported(JsonError),
    /// A failure inside an object, reported by whatever encloses it.
    Bubble,
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, code: u32, at: usize) -> JsonError {
        let rest = self.text.get(at..).unwrap_or("");
        JsonError { message: format!("{code}: unexpected token at '{rest}'"), offset: at }
    }

    fn ws(&mut self) {
        loop {
            while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
            // The gem skips /* */ and // comments.
            if self.s[self.i..].starts_with(b"/*") {
                match self.text[self.i + 2..].find("*/") {
                    Some(end) => self.i += end + 4,
                    None => return,
                }
            } else if self.s[self.i..].starts_with(b"//") {
                self.i = self.text[self.i..].find('\n').map_or(self.s.len(), |e| self.i + e);
            } else {
                return;
            }
        }
    }

    fn value(&mut self) -> Result<Value, Fail> {
        self.ws();
        let rest = &self.s[self.i..];
        for (word, v) in [(&b"true"[..], Value::Bool(true)), (b"false", Value::Bool(false)), (b"null", Value::Undef)] {
            if rest.starts_with(word) {
                self.i += word.len();
                return Ok(v);
            }
        }
        for word in [&b"NaN"[..], b"Infinity", b"-Infinity"] {
            if rest.starts_with(word) {
                return Err(Fail::Reported(self.error(225, self.i)));
            }
        }
        match rest.first() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(Fail::Bubble),
        }
    }

    fn nest(&mut self) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Fail::Reported(JsonError {
                message: format!("nesting of {} is too deep", self.depth),
                offset: self.i,
            }));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Value, Fail> {
        self.nest()?;
        self.i += 1;
        let mut h = Hash::default();
        self.ws();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Hash(h));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(Fail::Bubble);
            }
            let key = self.string()?;
            self.ws();
            if self.s.get(self.i) != Some(&b':') {
                return Err(Fail::Bubble);
            }
            self.i += 1;
            let v = self.value()?;
            h.insert(Value::String(key), v);
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Value::Hash(h));
                }
                _ => return Err(Fail::Bubble),
            }
        }
    }

    fn array(&mut self) -> Result<Value, Fail> {
        self.nest()?;
        self.i += 1;
        let mut a = Vec::new();
        self.ws();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Array(a.into()));
        }
        loop {
            self.ws();
            let start = self.i;
            match self.value() {
                Ok(v) => a.push(v),
                Err(Fail::Bubble) => return Err(Fail::Reported(self.error(451, start))),
                Err(e) => return Err(e),
            }
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    self.depth -= 1;
                    return Ok(Value::Array(a.into()));
                }
                _ => return Err(Fail::Reported(self.error(451, self.i))),
            }
        }
    }

    fn string(&mut self) -> Result<String, Fail> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.i..].chars().next() else { return Err(Fail::Bubble) };
            self.i += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.text[self.i..].chars().next() else { return Err(Fail::Bubble) };
                    self.i += e.len_utf8();
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        'b' => out.push('\u{8}'),
                        'f' => out.push('\u{c}'),
                        'u' => out.push(self.unicode_escape()?),
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
    }

    fn unicode_escape(&mut self) -> Result<char, Fail> {
        let hex = |p: &mut Self| -> Result<u32, Fail> {
            let h = p.text.get(p.i..p.i + 4).ok_or(Fail::Bubble)?;
            let n = u32::from_str_radix(h, 16).map_err(|_| Fail::Bubble)?;
            p.i += 4;
            Ok(n)
        };
        let hi = hex(self)?;
        if (0xd800..0xdc00).contains(&hi) && self.s[self.i..].starts_with(b"\\u") {
            self.i += 2;
            let lo = hex(self)?;
            let c = 0x10000 + ((hi - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff);
            return Ok(char::from_u32(c).unwrap_or('\u{fffd}'));
        }
        Ok(char::from_u32(hi).unwrap_or('\u{fffd}'))
    }

    fn number(&mut self) -> Result<Value, Fail> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.i < p.s.len() && p.s[p.i].is_ascii_digit() {
                p.i += 1;
            }
            p.i - from
        };
        if digits(self) == 0 {
            return Err(Fail::Bubble);
        }
        let mut float = false;
        if self.s.get(self.i) == Some(&b'.') && self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
            digits(self);
            float = true;
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            let save = self.i;
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                self.i = save;
            } else {
                float = true;
            }
        }
        let text = &self.text[start..self.i];
        if float {
            return text.parse::<f64>().map(Value::Float).map_err(|_| Fail::Bubble);
        }
        // The json gem reads any integer, as Ruby's integers have no bound.
        Int::from_decimal(text).map(Value::Integer).ok_or(Fail::Bubble)
    }
}

/// The json gem's generator's words for bytes that are not UTF-8
/// (`convert_UTF8_to_JSON`): at the first character it cannot read, a
/// sequence its lead byte says runs past the end is "partial"; any other is
/// "illegal/malformed".
fn not_utf8(bytes: &[u8]) -> &'static str {
    let mut at = 0;
    while at < bytes.len() {
        let lead = bytes[at];
        let trailing = match lead {
            0x00..=0xBF => 0,
            0xC0..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            0xF8..=0xFB => 4,
            _ => 5,
        };
        if at + trailing >= bytes.len() && trailing > 0 {
            return "partial character in source, but hit end";
        }
        if std::str::from_utf8(&bytes[at..at + trailing + 1]).is_err() {
            return "source sequence is illegal/malformed utf-8";
        }
        at += trailing + 1;
    }
    "source sequence is illegal/malformed utf-8"
}

#[cfg(test)]
mod tests {
    use crate::value::Value;

    // Expectations printed by `puppet lookup --render-as json` and Ruby's
    // `JSON.generate`.
    #[test]
    fn writes_as_the_json_gem_does() {
        let doc = |yaml: &str| crate::formats::yaml::load(yaml).unwrap().unwrap().0;
        let floats = doc("[1.0e+20, 100.0, 0.1, 1.0e-07, 2.5]");
        assert_eq!(super::generate(&floats, false).unwrap(), "[1.0e+20,100.0,0.1,1.0e-07,2.5]");
        let text = Value::from("a\u{1}\u{1f}/\u{2028}\"\\\n");
        assert_eq!(super::generate(&text, false).unwrap(), "\"a\\u0001\\u001f/\u{2028}\\\"\\\\\\n\"");
        let nested = doc("{a: [1, {}], b: [], 2: ~}");
        assert_eq!(super::generate(&nested, false).unwrap(), r#"{"a":[1,{}],"b":[],"2":null}"#);
        assert_eq!(
            super::generate(&nested, true).unwrap(),
            "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": [],\n  \"2\": null\n}"
        );
        assert_eq!(
            super::generate(&Value::Float(f64::NAN), false),
            Err(super::NotJson("1003: NaN not allowed in JSON".into()))
        );
    }

    use super::*;

    #[test]
    fn numbers_as_ruby_reads_them() {
        let v = parse("[-0, -0.0, 1E2, 12345678901234567890]").unwrap();
        assert_eq!(v.inspect(), "[0, -0.0, 100.0, 12345678901234567890]");
    }

    #[test]
    fn errors_quote_where_the_gem_gave_up() {
        assert_eq!(parse(r#"{"a": 1,}"#).unwrap_err().message, r#"859: unexpected token at '{"a": 1,}'"#);
        assert_eq!(parse(r#"{"a": [1, 2,]}"#).unwrap_err().message, "451: unexpected token at ']}'");
        assert_eq!(parse(r#"{"a": NaN}"#).unwrap_err().message, "225: unexpected token at 'NaN}'");
        assert_eq!(parse(r#"{"a": 1} x"#).unwrap_err().message, "859: unexpected token at 'x'");
        assert_eq!(parse("").unwrap_err().message, "859: unexpected token at ''");
    }
}
