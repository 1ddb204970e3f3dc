//! Finding values: the data backends (`yaml_data`, `json_data`) that turn a
//! data file into a hash, and the checks Puppet makes on what they return.

use crate::config::{symkeys_to_string, type_name};
use crate::error::Error;
use crate::value::{Hash, Value};
use crate::yaml::{self, Spans};

/// A data file read by its backend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataFile {
    /// The file's hash.
    pub hash: Hash,
    /// Where each top-level value came from, by key position in `hash`.
    pub spans: Vec<Spans>,
    /// Scalars a reader may misread (YAML only).
    pub surprises: Vec<yaml::Surprise>,
}

/// The data_hash functions this engine provides.
pub fn is_known_data_hash(function: &str) -> bool {
    matches!(function, "yaml_data" | "json_data")
}

/// Reads a data file with a data_hash function, as Puppet's function would.
pub fn load(function: &str, path: &str, text: &str, strict_error: bool) -> Result<DataFile, Error> {
    match function {
        "json_data" => load_json(path, text),
        _ => load_yaml(path, text, strict_error),
    }
}

fn load_yaml(path: &str, text: &str, strict_error: bool) -> Result<DataFile, Error> {
    match yaml::load_noting_surprises(text) {
        Err(e) => {
            let at = e.at;
            Err(Error::lookup(format!("Unable to parse ({path}): {}", e.message)).at(
                path,
                at.map(|a| a.line as usize),
                at.map(|a| a.column as usize),
            ))
        }
        Ok((Some((Value::Hash(h), spans)), surprises)) => Ok(DataFile { hash: symkeys_to_string(h), spans: spans.children, surprises }),
        Ok((other, _)) => {
            // Psych's nil becomes `false`, which even strict mode lets through.
            let is_false = matches!(other, None | Some((Value::Bool(false), _)));
            if strict_error && !is_false {
                return Err(Error::lookup(format!("{path}: file does not contain a valid yaml hash")).at(path, None, None));
            }
            Ok(DataFile::default())
        }
    }
}

fn load_json(path: &str, text: &str) -> Result<DataFile, Error> {
    let value = crate::json::parse(text).map_err(|e| {
        let (line, column) = line_column(text, e.offset);
        Error::lookup(format!("Unable to parse ({path}): {}", e.message)).at(path, Some(line), Some(column))
    })?;
    match value {
        Value::Hash(hash) => {
            let spans = hash.iter().map(|_| Spans::default()).collect();
            Ok(DataFile { hash, spans, surprises: Vec::new() })
        }
        other => Err(Error::lookup(format!(
            "Value returned from data_hash function 'json_data', when using location '{path}', has wrong type, expects a Hash value, got {}",
            type_name(&other)
        ))),
    }
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Puppet's check that a value is `RichData` (`Puppet::LookupValue`):
/// scalars, undef, arrays, and hashes keyed by strings or numbers.
pub fn check_value(key: &str, function: &str, location: Option<&str>, value: &Value) -> Result<(), Error> {
    fn rich(v: &Value) -> bool {
        match v {
            Value::Symbol(_) => false,
            Value::Array(a) => a.iter().all(rich),
            Value::Hash(h) => h.iter().all(|(k, v)| matches!(k, Value::String(_) | Value::Integer(_) | Value::Float(_)) && rich(v)),
            _ => true,
        }
    }
    if rich(value) {
        return Ok(());
    }
    let mut msg = format!("Value for key '{key}', in hash returned from data_hash function '{function}'");
    if let Some(l) = location {
        msg.push_str(&format!(", when using location '{l}',"));
    }
    let got = match value {
        Value::Symbol(_) => "Runtime[ruby, 'Symbol']".to_string(),
        v => crate::types::infer(v),
    };
    Err(Error::puppet(format!("{msg} has wrong type, expects Puppet::LookupValue, got {got}")))
}
