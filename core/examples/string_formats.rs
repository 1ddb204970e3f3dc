//! Converts values to strings as `convert_to: [String, format]` does, for
//! `scripts/string-formats-vs-puppet`, which compares them with Puppet's
//! own `StringConverter`.
//!
//! Usage: `string_formats PAIRS.json`, a JSON array of `[yaml, format]`
//! pairs (`format` null for the default formats); prints a JSON array with
//! `{"ok": text}`, `{"err": message}` or `{"not_utf8": true}` for each.

use hiera_core::internals::Target;
use hiera_core::{ErrorKind, Value};
use serde_json::{json, Value as Json};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: string_formats PAIRS.json")?;
    let pairs: Vec<(String, Option<String>)> = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let raised = "The convert_to lookup_option for key 'k' raised error: ";
    let results: Vec<Json> = pairs
        .into_iter()
        .map(|(yaml, format)| {
            let value = match hiera_core::yaml::load(&yaml) {
                Ok(v) => v.map_or(Value::Undef, |(v, _)| v),
                Err(e) => return json!({ "err": format!("YAML: {}", e.message) }),
            };
            let option = match format {
                Some(f) => Value::Array(vec![Value::from("String"), Value::String(f)].into()),
                None => Value::from("String"),
            };
            let applied = Target::parse("k", &option).and_then(|t| t.apply("k", value));
            match applied.map(|a| a.value) {
                Ok(Ok(Value::String(s))) => json!({ "ok": s }),
                Ok(Ok(other)) => json!({ "ok": other.to_ruby_s() }),
                Ok(Err(e)) | Err(e) if e.kind == ErrorKind::Render => json!({ "not_utf8": true }),
                Ok(Err(e)) | Err(e) => json!({ "err": e.message.strip_prefix(raised).unwrap_or(&e.message) }),
            }
        })
        .collect();
    println!("{}", serde_json::to_string(&results)?);
    Ok(())
}
