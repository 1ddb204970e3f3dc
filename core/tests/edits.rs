//! A playground kept across edits keeps parsed files, resolved hierarchies
//! (other nodes' too) and compiled `lookup_options` between them. Whatever is edited, its answers must
//! be those of a playground opened afresh on the edited document.

mod common;

use hiera_core::case::Document;
use hiera_core::playground::{Evaluation, Playground};

fn cases() -> Vec<(String, Document)> {
    let read = |p: &std::path::PathBuf| Document::from_yaml(&std::fs::read_to_string(p).unwrap()).unwrap();
    common::case_paths().iter().map(|p| (p.file_stem().unwrap().to_string_lossy().to_string(), read(p))).collect()
}

/// The answers to the lookups marked in `which`.
fn answers(p: &Playground, which: &[bool]) -> Vec<Evaluation> {
    p.document().lookups.iter().zip(which).filter(|(_, &w)| w).map(|(l, _)| p.evaluate(l, true)).collect()
}

fn assert_fresh(name: &str, step: &str, kept: &Playground, which: &[bool]) {
    let fresh = Playground::new(kept.document().clone());
    assert!(
        answers(kept, which) == answers(&fresh, which),
        "{name}, after {step}: the kept playground answers differently from a fresh one"
    );
    // Manifests are kept parsed too.
    for class in &kept.document().classes {
        let (a, b) = (kept.hiera().bind_class(&class.class), fresh.hiera().bind_class(&class.class));
        assert!(a == b, "{name}, after {step}: class {} binds differently from a fresh playground", class.class);
    }
}

#[test]
fn a_kept_playground_answers_as_a_fresh_one_after_every_edit() {
    for (name, doc) in cases() {
        let mut p = Playground::new(doc.clone());
        let all = vec![true; doc.lookups.len()];
        let explains: Vec<String> = answers(&p, &all).iter().map(Evaluation::explain).collect();
        for (path, text) in &doc.files {
            // Templates, licences and Ruby functions are read by Puppet alone.
            let read = [".yaml", ".yml", ".json", ".conf", ".eyaml", ".pp", ".pem"].iter().any(|e| path.ends_with(e));
            if path.ends_with('/') || !read && path.contains('.') {
                continue;
            }
            let readers = common::readers(&explains, path);
            p.set_file(path, "");
            assert_fresh(&name, &format!("emptying {path}"), &p, &readers);
            p.set_file(path, &format!("{text}\n"));
            assert_fresh(&name, &format!("restoring {path}"), &p, &readers);
            p.remove_file(path);
            assert_fresh(&name, &format!("removing {path}"), &p, &readers);
            p.set_file(path, text);
        }
        p.set_facts(Default::default());
        assert_fresh(&name, "removing the facts", &p, &all);
        p.set_facts(doc.facts.clone());
        assert_fresh(&name, "restoring the facts", &p, &all);
    }
}

#[test]
fn a_spliced_edit_reads_as_the_whole_file_does() {
    use hiera_core::internals::data::{load, splice_yaml, Reading};
    // As the page reads: splicing moves the spans.
    const READING: Reading = Reading { strict_error: false, spans: true };
    // Characters that make and break YAML structure, and plain ones.
    const TYPED: [&str; 12] = ["a", " ", "\n", ":", "- ", "#", "\"", "&x ", "*x", "yes", "0755", "\n  - b"];
    let (mut spliced, mut edits) = (0, 0);
    for (name, doc) in cases() {
        for (path, text) in doc.files.iter().filter(|(p, _)| p.ends_with(".yaml") && !p.ends_with("hiera.yaml")) {
            let Ok(before) = load("yaml_data", path, text, READING) else { continue };
            // What a file has learnt of its entries must follow an edit.
            (0..before.hash.len()).for_each(|i| assert!(before.entry(i).is_some()));
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
            let typed = bounds.iter().enumerate().step_by(3).map(|(n, &at)| {
                let next = bounds.get(n + 1).copied().unwrap_or(at);
                match n % 3 {
                    0 => format!("{}{}{}", &text[..at], TYPED[n % TYPED.len()], &text[at..]),
                    1 => format!("{}{}", &text[..at], &text[next..]),
                    _ => format!("{}{}{}", &text[..at], TYPED[(n / 3) % TYPED.len()], &text[next..]),
                }
            });
            // Whole indented lines copied or removed move the entries below.
            let lines: Vec<(usize, &str)> =
                text.split_inclusive('\n').scan(0, |at, l| Some((std::mem::replace(at, *at + l.len()), l))).collect();
            let moved = lines.iter().filter(|(_, l)| l.starts_with(' ') && l.ends_with('\n')).flat_map(|&(at, l)| {
                [format!("{}{l}{}", &text[..at], &text[at..]), format!("{}{}", &text[..at], &text[at + l.len()..])]
            });
            for (at, edited) in typed.chain(moved).enumerate() {
                edits += 1;
                let mut file = before.clone();
                if splice_yaml(text, &edited, &mut file) {
                    spliced += 1;
                    let whole = load("yaml_data", path, &edited, READING);
                    assert_eq!(Ok(&file), whole.as_ref(), "{name} {path}: edit {at}:\n{edited}");
                }
            }
        }
    }
    assert!(spliced * 4 > edits, "only {spliced} of {edits} edits were spliced");
}

/// The page hands the engine its HOCON reader and PKCS7 encryptor after the
/// document is open: what was read (and failed) without them must not stay.
#[test]
fn backends_given_later_answer_as_if_there_from_the_start() {
    use hiera_core::{eyaml, hocon};
    let mut missed = [0, 0];
    for (name, doc) in cases().into_iter().filter(|(n, _)| n.starts_with("hocon-") || n.starts_with("eyaml-")) {
        let requests: Vec<_> = doc.lookups.iter().filter_map(|l| l.request(true).ok()).collect();
        let mut hiera = doc.hiera();
        hiera.set_hocon(None);
        hiera.set_pkcs7(None);
        let without: Vec<_> = requests.iter().map(|r| hiera.lookup(r)).collect();
        let said = |a: &hiera_core::Answer, what: &str| a.result.as_ref().is_err_and(|e| e.message.contains(what));
        let (family, missing) = if name.starts_with("hocon-") { (0, hocon::NOT_LOADED) } else { (1, eyaml::NO_PKCS7) };
        missed[family] += without.iter().filter(|a| said(a, missing)).count();
        hiera.set_hocon(hocon::builtin());
        hiera.set_pkcs7(eyaml::builtin());
        let fresh = doc.hiera();
        for r in &requests {
            assert_eq!(hiera.lookup(r), fresh.lookup(r), "{name}: {:?} after the backends arrived", r.keys);
        }
    }
    assert!(missed[0] > 10 && missed[1] > 10, "lookups that said a backend was missing: {missed:?}");
}

#[test]
fn a_node_looked_up_again_hears_of_the_edits_made_while_another_was() {
    let doc = Document::from_yaml(
        "facts:\n  role: web\nfiles:\n  hiera.yaml: \"version: 5\\nhierarchy:\\n  - name: Role\\n    path: '%{facts.role}.yaml'\\n  - name: Common\\n    path: common.yaml\\n\"\n  data/common.yaml: \"x: 1\\n\"\n  data/web.yaml: \"y: 1\\n\"\nlookups:\n  - key: x\n  - key: y\n",
    )
    .unwrap();
    let mut p = Playground::new(doc.clone());
    let both = [true, true];
    answers(&p, &both);
    p.set_facts(Default::default());
    answers(&p, &both);
    p.set_file("data/common.yaml", "x: 2\n");
    p.set_file("data/web.yaml", "y: 2\n");
    p.set_facts(doc.facts.clone());
    assert_fresh("two nodes", "editing while the other node was looked up", &p, &both);
    p.set_facts(Default::default());
    p.remove_file("data/common.yaml");
    p.set_facts(doc.facts.clone());
    assert_fresh("two nodes", "removing a file while the other node was looked up", &p, &both);
}
