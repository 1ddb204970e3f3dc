//! `hiera-lookup reduce`: the smallest document (in the case format) that
//! gives the lookups asked the answers and explanations the tree gives them
//! (see `hiera_core::reduce`), for a question to share without the
//! repository.

use crate::args::Options;
use hiera_core::case::{self, CaseLookup, Document};
use hiera_core::Value;
use std::process::ExitCode;

/// Writes the reduced document to standard output, and what was left out
/// to standard error.
pub fn run(o: &Options) -> ExitCode {
    let loaded = (|| {
        let hiera = super::load_with_spans(o)?;
        let merge = o.merge_value().map_err(|e| e.to_string())?;
        Ok::<_, String>((hiera, merge))
    })();
    let (hiera, merge) = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    };
    let env = format!("{}/", case::environment_dir(&o.environment));
    let relative = |p: &str| p.strip_prefix(&env).unwrap_or(p).to_string();
    // What the lookups can read: the configurations, and the data files the
    // node's hierarchies name that exist (manifests, templates and the rest
    // of a control repository are not read at all).
    let mut wanted: Vec<String> = hiera
        .files()
        .paths()
        .filter(|p| p.ends_with("hiera.yaml") || p.ends_with("environment.conf") || p.ends_with("puppet.conf"))
        .map(str::to_string)
        .collect();
    for location in hiera.data_locations().into_iter().filter(|l| l.exists) {
        let path = location.path.replace("//", "/");
        if !wanted.contains(&path) {
            wanted.push(path);
        }
    }
    // Key files the levels' options name (eyaml), so that leaving them out is said.
    wanted.extend(hiera.files().paths().filter(|p| p.ends_with(".pem")).map(str::to_string));
    let files = wanted.iter().filter_map(|p| Some((relative(p), hiera.files().read(p)?.into()))).collect();
    let node = hiera.node();
    let doc = Document {
        description: None,
        puppet: o.puppet,
        environment: o.environment.clone(),
        node: Some(node.name.clone()),
        facts: node.facts.clone(),
        files,
        lookups: Vec::new(),
        nodes: Vec::new(),
        classes: Vec::new(),
    };
    let lookups: Vec<CaseLookup> = o
        .keys
        .iter()
        .map(|k| CaseLookup {
            keys: vec![k.clone()],
            merge: merge.clone(),
            default: o.default.clone().map(Value::String),
            value_type: o.value_type.clone(),
            ..CaseLookup::default()
        })
        .collect();
    let reduced = hiera_core::reduce::reduce(&doc, &lookups, o.with_keys);
    print!("{}", reduced.document.to_yaml());
    eprintln!("{}", reduced.summary());
    ExitCode::SUCCESS
}
