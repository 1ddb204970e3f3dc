//! What most visits to the page never use, built into a WebAssembly module
//! of its own (`web/js/backends.mjs`) that the page fetches when first
//! used, so that the page's first download stays within its budget:
//! control-repo zips and folders ([`hiera_core::archive`]), packed and
//! unpacked. It answers no lookup: documents cross as the page holds them
//! (case-format YAML), and every answer is the page's engine's.

use hiera_core::case::Document;
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
