//! What the integration tests share: where the recorded cases are.

// Each test crate compiles this module and uses only part of it.
#![allow(dead_code)]

use std::path::PathBuf;

/// The conformance directory (`tests/conformance`).
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

/// Every case recorded from Puppet, sorted: the vendored shared ones
/// (`cases/`, `puppet8/`, `backends/`), this project's own (`own/`), the
/// YAML test suite's and ruby-hocon's documents (`yaml-suite/`,
/// `hocon-suite/`), the page's gallery and the tour's lessons (and their
/// solutions, `lessons/`).
pub fn case_paths() -> Vec<PathBuf> {
    let dir = conformance_dir();
    let mut paths: Vec<PathBuf> = [
        "cases",
        "puppet8",
        "backends",
        "own",
        "forge",
        "yaml-suite",
        "hocon-suite",
        "lightbend",
        "lessons",
        "../../www/examples",
        "../../www/lessons",
    ]
    .map(|d| dir.join(d))
    .iter()
    .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
    .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
    .collect();
    paths.sort();
    paths
}

/// The case document at `path`.
pub fn read_case(path: &std::path::Path) -> hiera_core::case::Document {
    let text = std::fs::read_to_string(path).unwrap();
    hiera_core::case::Document::from_yaml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Which of a document's lookups read the file at `path`, given their
/// explanations on the document as it is: a lookup whose explanation never
/// names the file (as `Path "..."` or `Using configuration "..."`) does not
/// read it, and an edit to it cannot change the lookup's answer. A lookup
/// that failed without an explanation counts as reading every file, and so
/// does every lookup when none names `path` (a path the document maps
/// elsewhere). This keeps tests that edit every file of every case from
/// growing with files times lookups.
pub fn readers(explains: &[String], path: &str) -> Vec<bool> {
    let quoted_end = format!("{path}\"");
    let named: Vec<bool> = explains.iter().map(|e| e.is_empty() || e.contains(&quoted_end)).collect();
    if explains.iter().any(|e| e.contains(&quoted_end)) {
        named
    } else {
        vec![true; explains.len()]
    }
}

/// A case's name in the lists of known differences: its folder and file
/// stem (`cases/glob`), the gallery's folder being `examples`.
pub fn case_name(path: &std::path::Path) -> String {
    let dir = path.parent().and_then(|d| d.file_name()).unwrap_or_default().to_string_lossy();
    format!("{dir}/{}", path.file_stem().unwrap_or_default().to_string_lossy())
}
