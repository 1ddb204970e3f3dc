//! ARCHITECTURE.md's rules for the engine, checked on its source as
//! rust-analyzer's `tidy` tests check theirs: the pipeline's stages in
//! `lib.rs` in order, the modules depending one way, no I/O, and nothing
//! public but what the front ends build on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The stages, in the order a lookup runs them (ARCHITECTURE.md's table),
/// then the one that binds classes with lookups.
const STAGES: [&str; 9] =
    ["load", "config", "lookup", "backends", "interpolate", "merge", "lookup_options", "explain", "classes"];

/// The top-level modules from the bottom up: each may use those of the
/// layers below it and no other (`value` ← `formats` ← ... ← `document`).
const LAYERS: [&[&str]; 8] = [
    &["value"],
    &["formats", "manifests"],
    &["puppet", "load", "key", "interpolate"],
    &["config", "merge", "lookup_options", "explain"],
    &["backends"],
    &["lookup"],
    &["classes"],
    &["document"],
];

/// Shared by every layer, using none of them.
const UTILITIES: [&str; 2] = ["error", "threads"];

/// Everything `lib.rs` makes public, outside `internals` (which is not API).
const PUBLIC: [&str; 14] = [
    "pub mod merge;",
    "pub mod explain;",
    "pub mod classes;",
    "pub mod value;",
    "pub use backends::eyaml;",
    "pub use document::{archive, case, fleet, lesson, playground, reduce, report, review, share, steps};",
    "pub use formats::{hocon, json, yaml};",
    "pub use load::{facts, fs};",
    "pub mod internals {",
    "pub use config::scope::Node;",
    "pub use config::settings::{Puppet, PUPPET_CONF};",
    "pub use error::{Details, Error, ErrorKind};",
    "pub use lookup::{Answer, Request};",
    "pub use value::Value;",
];

/// The public items of `lib.rs` besides the modules: what `Hiera` is built from.
const PUBLIC_ITEMS: [&str; 3] = ["pub fn modulepath", "pub struct Hiera", "pub struct Session"];

fn lib_rs() -> String {
    std::fs::read_to_string(Path::new(SRC).join("lib.rs")).unwrap()
}

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A source file without its unit tests, which may do what the engine may not.
fn without_tests(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

/// Each top-level module (a file and its folder) and the text of its files.
fn modules() -> BTreeMap<String, String> {
    let mut files = Vec::new();
    sources(Path::new(SRC), &mut files);
    let mut modules: BTreeMap<String, String> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(SRC).unwrap();
        let top = relative.components().next().unwrap().as_os_str().to_string_lossy();
        let top = top.trim_end_matches(".rs").to_string();
        if top == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        modules.entry(top).or_default().push_str(without_tests(&text));
    }
    modules
}

#[test]
fn lib_rs_declares_the_stages_in_the_order_a_lookup_runs_them() {
    let lib = lib_rs();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim_start_matches("pub(crate) ").trim_start_matches("pub ").strip_prefix("mod "))
        .map(|l| l.trim_end_matches(';'))
        .filter(|m| STAGES.contains(m))
        .collect();
    assert_eq!(declared, STAGES);
}

#[test]
fn modules_depend_one_way_from_the_pipeline_down_to_the_data_model() {
    let modules = modules();
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    for name in modules.keys() {
        assert!(
            layer(name).is_some() || UTILITIES.contains(&name.as_str()),
            "{name} is in no layer: place it in LAYERS and ARCHITECTURE.md"
        );
    }
    // `crate::used` and `crate::{used::..., ...}`.
    let grouped = regex_lite::Regex::new(r"crate::\{([^}]*)\}").unwrap();
    let uses = |text: &str, used: &str| {
        text.contains(&format!("crate::{used}"))
            || grouped.captures_iter(text).any(|c| c[1].split(',').any(|p| p.trim().split("::").next() == Some(used)))
    };
    let mut wrong = Vec::new();
    for (name, text) in &modules {
        for used in modules.keys().filter(|u| *u != name) {
            if !uses(text, used) {
                continue;
            }
            let allowed = match (layer(name), layer(used)) {
                // Utilities serve everyone and use no one.
                (_, None) => true,
                (None, Some(_)) => false,
                (Some(from), Some(to)) => to < from,
            };
            if !allowed {
                wrong.push(format!("{name} uses {used}"));
            }
        }
    }
    assert!(wrong.is_empty(), "against the layers of ARCHITECTURE.md: {wrong:?}");
}

#[test]
fn the_engine_does_no_io() {
    let mut files = Vec::new();
    sources(Path::new(SRC), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for io in ["std::fs", "std::env", "std::process", "std::net", "std::io::stdin"] {
            assert!(
                !without_tests(&text).contains(io),
                "{} uses {io}: everything it reads comes through Files",
                file.display()
            );
        }
    }
}

#[test]
fn nothing_is_public_but_what_the_front_ends_build_on() {
    let lib = lib_rs();
    // Top-level lines only: the `internals` module's own lines are not API.
    let public: Vec<&str> = lib.lines().filter(|l| l.starts_with("pub ") && !l.starts_with("pub(crate)")).collect();
    let (modules, items): (Vec<&str>, Vec<&str>) =
        public.into_iter().partition(|l| l.starts_with("pub mod ") || l.starts_with("pub use "));
    assert_eq!(
        modules, PUBLIC,
        "a public module or re-export is API: add it here and to ARCHITECTURE.md, or make it pub(crate) or internal"
    );
    let items: Vec<&str> = items.iter().map(|l| l.split(['(', '<', '{']).next().unwrap_or(l).trim()).collect();
    assert_eq!(items, PUBLIC_ITEMS, "a public item of lib.rs is API: add it here, or make it pub(crate)");
}
