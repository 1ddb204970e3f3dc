//! A playground kept across edits keeps parsed files, resolved hierarchies and
//! compiled `lookup_options` between them. Whatever is edited, its answers must
//! be those of a playground opened afresh on the edited document.

mod common;

use hiera_core::case::Document;
use hiera_core::playground::{Evaluation, Playground};

fn cases() -> Vec<(String, Document)> {
    let read = |p: &std::path::PathBuf| Document::from_yaml(&std::fs::read_to_string(p).unwrap()).unwrap();
    common::case_paths().iter().map(|p| (p.file_stem().unwrap().to_string_lossy().to_string(), read(p))).collect()
}

fn answers(p: &Playground) -> Vec<Evaluation> {
    p.document().lookups.iter().map(|l| p.evaluate(l, true)).collect()
}

fn assert_fresh(name: &str, step: &str, kept: &Playground) {
    let fresh = Playground::new(kept.document().clone());
    assert!(answers(kept) == answers(&fresh), "{name}, after {step}: the kept playground answers differently from a fresh one");
}

#[test]
fn a_kept_playground_answers_as_a_fresh_one_after_every_edit() {
    for (name, doc) in cases() {
        let mut p = Playground::new(doc.clone());
        answers(&p);
        for (path, text) in &doc.files {
            if path.ends_with('/') {
                continue;
            }
            p.set_file(path, "");
            assert_fresh(&name, &format!("emptying {path}"), &p);
            p.set_file(path, &format!("{text}\n"));
            assert_fresh(&name, &format!("restoring {path}"), &p);
            p.remove_file(path);
            assert_fresh(&name, &format!("removing {path}"), &p);
            p.set_file(path, text);
        }
        p.set_facts(Default::default());
        assert_fresh(&name, "removing the facts", &p);
        p.set_facts(doc.facts.clone());
        assert_fresh(&name, "restoring the facts", &p);
    }
}
