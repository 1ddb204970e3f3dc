//! Reads YAML texts as the engine does and prints each reading as JSON, for
//! `scripts/yaml-vs-psych`, which compares them with Psych's.
//!
//! Usage: `yaml_readings TEXTS.json`, a JSON array of strings; prints a JSON
//! array with `{"ok": value}` or `{"err": message}` for each. Values are
//! tagged so that no reading collapses into another: `{"s": ..}` a string,
//! `{"sym": ..}` a symbol, `{"i": "..."}` an integer, `{"f": ..}` a float,
//! `{"a": [..]}` an array, `{"h": [[key, value], ..]}` a hash in order,
//! `{"bin": [bytes]}` a binary string.

use hiera_core::Value;
use serde_json::{json, Value as Json};

fn tagged(v: &Value) -> Json {
    match v {
        Value::Undef => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Integer(i) => json!({ "i": i.to_string() }),
        Value::Float(f) if f.is_nan() => json!({ "f": "nan" }),
        Value::Float(f) if f.is_infinite() => json!({ "f": if *f > 0.0 { "inf" } else { "-inf" } }),
        Value::Float(f) => json!({ "f": f }),
        Value::String(s) => json!({ "s": s }),
        Value::Symbol(s) => json!({ "sym": &**s }),
        Value::Array(a) => json!({ "a": a.iter().map(tagged).collect::<Vec<_>>() }),
        Value::Hash(h) => json!({ "h": h.iter().map(|(k, v)| json!([tagged(k), tagged(v)])).collect::<Vec<_>>() }),
        Value::Sensitive(_) => json!({ "other": "Sensitive" }),
        Value::Binary(b) => json!({ "bin": b.to_vec() }),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: yaml_readings TEXTS.json")?;
    let texts: Vec<String> = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let readings: Vec<Json> = texts
        .iter()
        .map(|text| match hiera_core::yaml::load(text) {
            Ok(value) => json!({ "ok": value.map_or(Json::Null, |(v, _)| tagged(&v)) }),
            Err(e) => json!({ "err": e.message }),
        })
        .collect();
    println!("{}", serde_json::to_string(&readings)?);
    Ok(())
}
