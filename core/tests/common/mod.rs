//! What the integration tests share: where the recorded cases are.

use std::path::PathBuf;

/// The conformance directory (`tests/conformance`).
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

/// Every case recorded from Puppet, sorted: the vendored shared ones
/// (`cases/`), this project's own (`own/`) and the page's gallery.
pub fn case_paths() -> Vec<PathBuf> {
    let dir = conformance_dir();
    let mut paths: Vec<PathBuf> = [dir.join("cases"), dir.join("own"), dir.join("../../www/examples")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths
}
