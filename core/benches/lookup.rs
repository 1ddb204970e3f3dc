//! Lookups per second over a control repo from ../shared/bench's generator
//! (vendored as tests/bench/gen-control-repo).
//!
//! `HIERA_BENCH_PRESET` picks the preset (small, medium, large; default
//! medium); the repo is generated under target/ on first use. "cold" starts
//! from nothing parsed, as a fresh Puppet compiler does; "warm" reuses one
//! session, as Puppet's second pass reuses its compiler. "edit" is the
//! engine's share of a keystroke in the page: one data file changed, then
//! every lookup of the document evaluated with its explanation, and the
//! keys offered for completion. "nodes" is the engine's share of a
//! keystroke in the page with the Nodes tab open: one data file of the
//! welcome example changed, then every lookup answered for 10 nodes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hiera_core::case::{environment_dir, CaseLookup, Document, OtherNode};
use hiera_core::fs::Files;
use hiera_core::playground::Playground;
use hiera_core::{Hiera, Node, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(preset: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join(format!("target/bench-repo-{preset}"));
    if !dir.join("keys.txt").exists() {
        let status = Command::new("python3")
            .arg(root.join("tests/bench/gen-control-repo"))
            .args(["--preset", preset])
            .arg(&dir)
            .status()
            .expect("python3 runs the generator");
        assert!(status.success(), "gen-control-repo failed");
    }
    dir
}

fn read_tree(dir: &Path, at: &str, files: &mut Files) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let target = format!("{at}/{}", entry.file_name().to_string_lossy());
        if path.is_dir() {
            read_tree(&path, &target, files);
        } else {
            files.insert(target, std::fs::read_to_string(&path).unwrap_or_default());
        }
    }
}

fn load(dir: &Path) -> (Files, Node, Vec<String>) {
    let mut files = Files::new();
    read_tree(dir, &environment_dir("production"), &mut files);
    let facts = hiera_core::yaml::load(&std::fs::read_to_string(dir.join("facts.yaml")).unwrap()).unwrap().unwrap().0;
    let facts = facts.as_hash().unwrap().clone();
    let name = facts.get(&Value::from("clientcert")).unwrap().to_ruby_s();
    let keys = std::fs::read_to_string(dir.join("keys.txt")).unwrap().lines().map(str::to_string).collect();
    (files, Node { name, environment: "production".into(), facts }, keys)
}

fn lookups(c: &mut Criterion) {
    let preset = std::env::var("HIERA_BENCH_PRESET").unwrap_or_else(|_| "medium".into());
    let (files, node, keys) = load(&repo(&preset));
    let mut group = c.benchmark_group(format!("every key ({preset})"));
    group.throughput(Throughput::Elements(keys.len() as u64));
    group.sample_size(10);
    group.bench_function("cold", |b| {
        b.iter(|| {
            let hiera = Hiera::new(files.clone(), node.clone());
            let mut session = hiera.session();
            for k in &keys {
                let _ = session.lookup(k);
            }
        })
    });
    let hiera = Hiera::new(files.clone(), node.clone());
    let mut session = hiera.session();
    group.bench_function("warm", |b| {
        b.iter(|| {
            for k in &keys {
                let _ = session.lookup(k);
            }
        })
    });
    group.finish();
}

fn edits(c: &mut Criterion) {
    let preset = std::env::var("HIERA_BENCH_PRESET").unwrap_or_else(|_| "medium".into());
    let (files, node, keys) = load(&repo(&preset));
    let env = format!("{}/", environment_dir("production"));
    let mut doc = Document::from_yaml("files: {}").unwrap();
    doc.facts = node.facts.clone();
    doc.files = files.iter().filter_map(|(p, t)| Some((p.strip_prefix(&env)?.to_string(), (*t).into()))).collect();
    doc.files.retain(|(p, _)| p == "hiera.yaml" || p.starts_with("data/"));
    // As many lookups as the page's perf test shows.
    doc.lookups = keys.iter().take(7).map(|k| CaseLookup { keys: vec![k.clone()], ..CaseLookup::default() }).collect();
    let node_file = doc.files.iter().map(|(p, _)| p.clone()).find(|p| p.starts_with("data/nodes/")).unwrap();
    let mut playground = Playground::new(doc);
    let mut group = c.benchmark_group(format!("edit ({preset})"));
    group.sample_size(10);
    for file in [node_file.as_str(), "data/common.yaml"] {
        let text = playground.document().files.iter().find(|(p, _)| p == file).unwrap().1.clone();
        let mut n = 0usize;
        group.bench_function(file, |b| {
            b.iter(|| {
                n += 1;
                playground.set_file(file, &format!("{text}\n#{n}"));
                let lookups = playground.document().lookups.clone();
                let results: Vec<_> = lookups.iter().map(|l| playground.evaluate(l, true)).collect();
                (results, playground.data_keys(), playground.problems(file))
            })
        });
    }
    group.finish();
}

fn nodes(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../www/examples/00-welcome.yaml");
    let doc = Document::from_yaml(&std::fs::read_to_string(root).unwrap()).unwrap();
    let facts = doc.facts.clone();
    let mut playground = Playground::new(doc);
    for i in 1..10 {
        playground.add_node(OtherNode::new(format!("node{i}.example.com"), None, facts.clone()).unwrap());
    }
    let file = "data/common.yaml";
    let text = playground.document().files.iter().find(|(p, _)| p == file).unwrap().1.clone();
    let mut n = 0usize;
    c.bench_function("nodes (welcome, 10 nodes)", |b| {
        b.iter(|| {
            n += 1;
            playground.set_file(file, &format!("{text}\n#{n}"));
            playground.fleet_and_scopes()
        })
    });
}

criterion_group!(benches, lookups, edits, nodes);
criterion_main!(benches);
