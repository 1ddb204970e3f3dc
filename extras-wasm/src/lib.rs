//! What most visits to the page never use, built into a WebAssembly module
//! of its own (`web/js/backends.mjs`) that the page fetches when first
//! used, so that the page's first download stays within its budget: "Report
//! it" (the document as Markdown, the markup that embeds it), Nodes (every
//! lookup for every node of the document), and control-repo zips and
//! folders ([`hiera_core::archive`]). Documents cross as the page holds them
//! (case-format YAML); this module answers with an engine of its own, eyaml
//! and HOCON built in.

use std::cell::RefCell;

use hiera_core::case::Document;
use hiera_core::fleet::{Answer, Table};
use hiera_core::playground::{Evaluation, Playground, Variable};
use hiera_core::value::Hash;
use hiera_core::Value;
use wasm_bindgen::prelude::*;

/// The zip of a document (see [`hiera_core::archive::export`]).
#[wasm_bindgen]
pub fn export_zip(document: &str) -> Result<Vec<u8>, String> {
    Ok(hiera_core::archive::export(&read(document)?))
}

/// The document a zip holds (see [`hiera_core::archive::import_files`]), as YAML.
#[wasm_bindgen]
pub fn import_zip(bytes: &[u8]) -> Result<String, String> {
    let mut files = Vec::new();
    for entry in hiera_core::archive::unzip(bytes).map_err(|e| e.to_string())? {
        let data = match entry.deflated {
            true => miniz_oxide::inflate::decompress_to_vec_with_limit(&entry.data, entry.size)
                .map_err(|_| hiera_core::archive::DAMAGED.to_string())?,
            false => entry.data,
        };
        files.push((entry.name, data));
    }
    Ok(hiera_core::archive::import_files(files).map_err(|e| e.to_string())?.to_yaml())
}

/// The document the files of a folder make (see
/// [`hiera_core::archive::import_files`]), as YAML: file `i` is named
/// `names[i]` and is the next `lengths[i]` bytes of `bytes`.
#[wasm_bindgen]
pub fn import_folder(names: Vec<String>, lengths: Vec<u32>, bytes: &[u8]) -> Result<String, String> {
    let mut rest = bytes;
    let mut files = Vec::with_capacity(names.len());
    for (name, length) in names.into_iter().zip(lengths) {
        let (file, after) = rest.split_at_checked(length as usize).ok_or("the folder's files were cut short")?;
        files.push((name, file.to_vec()));
        rest = after;
    }
    Ok(hiera_core::archive::import_files(files).map_err(|e| e.to_string())?.to_yaml())
}

fn read(document: &str) -> Result<Document, String> {
    Document::from_yaml(document).map_err(|e| e.to_string())
}

/// The document with its answers as Markdown, and the `embed.js` markup
/// that shows it in a page served beside `base` (see [`hiera_core::report`]).
#[wasm_bindgen]
pub fn report(document: &str, base: &str) -> Result<Vec<String>, String> {
    let engine = Playground::new(read(document)?);
    let evaluations: Vec<Evaluation> = engine.document().lookups.iter().map(|l| engine.evaluate(l, true)).collect();
    let markdown = hiera_core::report::markdown(engine.document(), &evaluations.iter().collect::<Vec<_>>());
    Ok(vec![markdown, hiera_core::report::embed_markup(engine.document(), base)])
}

thread_local! {
    /// The pinned document's answers, kept while it stays pinned: it does
    /// not change as the user edits.
    static PINNED: RefCell<Option<(String, Table)>> = const { RefCell::new(None) };
}

/// Every lookup's answer for every node of `document`, and, when `pinned`
/// (a document as it was when the user pinned it) is not empty, what
/// changed since, as JSON: `{nodes, environments, rows: [{key, varies,
/// cells: [{text, state, title}]}], changes: [line], used, added}`, where
/// `used` (the variables the hierarchy's paths used) and `added` (those
/// `puppet lookup` adds to the facts) are `[{name, values}]`, a value per
/// node or null. A cell's state is `changed` (since
/// the pin), `differs` (from the first node's answer) or `same`; a change
/// line is what `hiera-lookup diff` prints.
#[wasm_bindgen]
pub fn fleet(document: &str, pinned: &str) -> Result<String, String> {
    let doc = read(document)?;
    let environments: Vec<Value> = doc.all_nodes().into_iter().map(|n| Value::String(n.environment)).collect();
    let (table, scopes) = Playground::new(doc).fleet_and_scopes();
    let before = match pinned {
        "" => None,
        text => Some(PINNED.with(|cell| -> Result<Table, String> {
            let mut cell = cell.borrow_mut();
            match cell.as_ref() {
                Some((kept, table)) if kept == text => Ok(table.clone()),
                _ => {
                    let table = Playground::new(read(text)?).fleet();
                    *cell = Some((text.to_string(), table.clone()));
                    Ok(table)
                }
            }
        })?),
    };
    let changes = before.as_ref().map(|b| b.changes(&table)).unwrap_or_default();
    let string = |s: &str| Value::String(s.to_string());
    let rows = table.keys.iter().zip(&table.answers).map(|(key, answers)| {
        let cells = answers.iter().zip(&table.nodes).map(|(answer, node)| {
            let was = before.as_ref().and_then(|b| b.get(node, key)).filter(|b| !b.same(answer));
            let state = match was {
                Some(_) => "changed",
                None if !answer.same(&answers[0]) => "differs",
                None => "same",
            };
            let title = match was {
                Some(b) => format!("{node}: {b} -> {answer} since the pin"),
                None => format!("{node}: {answer}"),
            };
            object(&[
                ("text", string(&answer.to_string())),
                ("state", string(state)),
                ("failed", Value::Bool(matches!(answer, Answer::Error(_)))),
                ("title", string(&title)),
            ])
        });
        object(&[
            ("key", string(key)),
            ("varies", Value::Bool(answers.iter().any(|a| !a.same(&answers[0])))),
            ("cells", Value::Array(cells.collect())),
        ])
    });
    object(&[
        ("nodes", Value::Array(table.nodes.iter().map(|n| string(n)).collect())),
        ("environments", Value::Array(environments.into())),
        ("used", variables(&scopes.used)),
        ("added", variables(&scopes.added)),
        ("rows", Value::Array(rows.collect())),
        ("changes", Value::Array(changes.iter().map(|c| string(&c.to_string())).collect())),
    ])
    .to_json()
    .map_err(|e| e.to_string())
}

fn variables(rows: &[Variable]) -> Value {
    let row = |v: &Variable| {
        let values = v.values.iter().map(|x| x.as_ref().map_or(Value::Undef, |s| Value::String(s.clone())));
        object(&[("name", Value::String(v.name.clone())), ("values", Value::Array(values.collect()))])
    };
    Value::Array(rows.iter().map(row).collect())
}

fn object(fields: &[(&str, Value)]) -> Value {
    let mut h = Hash::default();
    for (k, v) in fields {
        h.insert(Value::from(*k), v.clone());
    }
    Value::Hash(h)
}
