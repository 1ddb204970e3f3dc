//! Every vendored conformance case, recorded from real Puppet, against the engine.
//!
//! A lookup passes when its value (hash order included) matches Puppet's, or
//! when both failed. `known-failures.txt` lists the lookups that do not pass
//! yet; the test fails when any other lookup fails, and also when a listed one
//! passes, so that the list only ever shrinks. `known-inexact.txt` does the
//! same for lookups that pass but whose error or explain text differs.
//! Every class (`classes:`) binds as Puppet bound it, errors word for word.

mod common;

use hiera_core::case::Document;
use std::collections::BTreeSet;

#[test]
fn every_case_matches_puppet() {
    let dir = common::conformance_dir();
    let list = |name: &str| -> BTreeSet<String> {
        std::fs::read_to_string(dir.join(name))
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let (known, inexact) = (list("known-failures.txt"), list("known-inexact.txt"));
    // `cases/` is vendored from ../shared; `own/` and the page's gallery are
    // recorded by this project with the oracle.
    let paths = common::case_paths();
    let (mut passed, mut exact, mut total) = (0, 0, 0);
    let (mut passed_classes, mut exact_classes, mut classes) = (0, 0, 0);
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for path in &paths {
        let name = common::case_name(path);
        let doc =
            Document::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let loose = doc.check(false);
        let strict = doc.check(true);
        for (i, (l, s)) in loose.iter().zip(&strict).enumerate() {
            let id = format!("{name}#{i}");
            total += 1;
            exact += s.is_ok() as usize;
            match (l, known.contains(&id)) {
                (Ok(()), false) => passed += 1,
                (Ok(()), true) => {
                    passed += 1;
                    fixed.push(id.clone());
                }
                (Err(e), false) => unexpected.push(format!("{id}: {e}")),
                (Err(_), true) => {}
            }
            match (l, s, inexact.contains(&id)) {
                (Ok(()), Err(e), false) => unexpected.push(format!("{id}: {e}")),
                (_, Ok(()), true) => fixed.push(id),
                _ => {}
            }
        }
        for (class, (l, s)) in doc.classes.iter().zip(doc.check_classes(false).into_iter().zip(doc.check_classes(true)))
        {
            let id = format!("{name}@{}", class.class);
            classes += 1;
            exact_classes += s.is_ok() as usize;
            if let Err(e) = s {
                unexpected.push(format!("{id}: {e}"));
            }
            passed_classes += l.is_ok() as usize;
        }
    }
    println!("conformance: {passed} of {total} lookups match Puppet; {exact} with identical error and explain texts");
    println!("conformance: {passed_classes} of {classes} classes bind as Puppet binds them; {exact_classes} with identical errors");
    assert!(classes > 0);
    assert!(unexpected.is_empty(), "lookups that differ from Puppet:\n{}", unexpected.join("\n"));
    assert!(
        fixed.is_empty(),
        "these now pass; remove them from known-failures.txt or known-inexact.txt:\n{}",
        fixed.join("\n")
    );
}

#[test]
fn documents_survive_saving_and_reopening() {
    let dir = common::conformance_dir();
    let paths = ["cases", "puppet8", "own"].iter().flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap());
    for entry in paths {
        let path = entry.unwrap().path();
        let doc = common::read_case(&path);
        let saved = doc.to_yaml();
        let reopened = Document::from_yaml(&saved).unwrap_or_else(|e| panic!("{}: {e}\n{saved}", path.display()));
        assert_eq!(reopened.files, doc.files, "{}", path.display());
        assert_eq!(reopened.puppet, doc.puppet, "{}", path.display());
        assert_eq!(reopened.facts, doc.facts, "{}", path.display());
        assert_eq!((reopened.node.clone(), reopened.environment.clone()), (doc.node.clone(), doc.environment.clone()));
        let inputs = |d: &Document| {
            d.lookups
                .iter()
                .map(|l| (l.keys.clone(), l.merge.clone(), l.default.clone(), l.value_type.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(inputs(&reopened), inputs(&doc), "{}", path.display());
        assert_eq!(reopened.classes, doc.classes, "{}", path.display());
    }
}

#[test]
fn a_session_answers_each_plain_lookup_as_a_fresh_run_does() {
    use hiera_core::Request;
    let mut compared = 0;
    for path in common::case_paths() {
        let doc = common::read_case(&path);
        let hiera = doc.hiera();
        let mut session = hiera.session();
        // Twice: the second time from what the session kept.
        for _ in 0..2 {
            for key in doc.lookups.iter().flat_map(|l| l.keys.iter()) {
                let fresh = hiera.lookup(&Request { keys: vec![key.clone()], ..Request::default() }).result;
                let kept = session.lookup(key);
                let name = path.display();
                match (fresh, kept) {
                    (Ok(v), Ok(Some(k))) => assert_eq!(v, k, "{name}: {key}"),
                    (Err(e), Ok(None)) => assert!(e.message.contains("did not find a value"), "{name}: {key}: {e:?}"),
                    (Err(e), Err(k)) => assert_eq!(e.message, k.message, "{name}: {key}"),
                    (fresh, kept) => panic!("{name}: {key}: fresh {fresh:?}, session {kept:?}"),
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn without_spans_every_lookup_answers_and_explains_the_same() {
    use hiera_core::Hiera;
    let mut compared = 0;
    for path in common::case_paths() {
        let doc = common::read_case(&path);
        let (with, without) = (doc.hiera(), doc.hiera().without_spans());
        for request in doc.lookups.iter().filter_map(|l| l.request(true).ok()) {
            let (a, b) = (with.lookup(&request), without.lookup(&request));
            let name = format!("{}: {:?}", path.display(), request.keys);
            assert_eq!(format!("{:?}", a.result), format!("{:?}", b.result), "{name}");
            assert_eq!(a.explain_text(), b.explain_text(), "{name}");
            compared += 1;
        }
    }
    assert!(compared > 500, "{compared}");
    // Block style, which the fast path reads, and flow style, which it leaves to the event parser.
    for text in ["a:\n  - 1\nb: c\n", "a: [1, 2]\n"] {
        let mut files = hiera_core::fs::Files::new();
        files.insert("/d.yaml", text);
        let read = |hiera: Hiera| hiera.data_file("yaml_data", "/d.yaml").unwrap();
        let with = read(Hiera::new(files.clone(), Default::default()));
        let without = read(Hiera::new(files, Default::default()).without_spans());
        assert_eq!(with.hash, without.hash, "{text:?}");
        assert!(!with.spans.positions().is_empty() && without.spans.positions().is_empty(), "{text:?}");
    }
}

#[test]
fn a_session_finds_the_first_location_holding_the_key() {
    use hiera_core::{fs::Files, Hiera, Node, Value};
    let env = "/etc/puppetlabs/code/environments/production";
    let mut files = Files::new();
    files.insert(
        format!("{env}/hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n  - name: b\n    paths: [b1.yaml, missing.yaml, b2.yaml]\n  - name: c\n    glob: 'c/*.yaml'\n",
    );
    files.insert(format!("{env}/data/a.yaml"), "top: a\n");
    files.insert(format!("{env}/data/b1.yaml"), "other: b1\n");
    files.insert(format!("{env}/data/b2.yaml"), "top: b2\nmid: b2\n");
    files.insert(format!("{env}/data/c/x.yaml"), "top: x\nmid: x\n");
    files.insert(format!("{env}/data/c/y.yaml"), "low: y\nmid: y\n");
    let hiera = Hiera::new(files, Node::default());
    let mut session = hiera.session();
    for _ in 0..2 {
        for (key, want) in
            [("top", Some("a")), ("mid", Some("b2")), ("low", Some("y")), ("other", Some("b1")), ("none", None)]
        {
            assert_eq!(session.lookup(key).unwrap(), want.map(Value::from), "{key}");
        }
    }
}

#[test]
fn a_session_reads_a_large_hierarchy_ahead_as_it_would_file_by_file() {
    use hiera_core::{fs::Files, Hiera, Node, Request};
    let env = "/etc/puppetlabs/code/environments/production";
    let mut files = Files::new();
    let paths = ["n0.yaml", "n1.json", "n2.yaml", "missing.yaml", "n4.yaml", "n5.yaml"];
    let hierarchy: String = paths.iter().map(|p| format!("  - name: {p}\n    path: {p}\n")).collect();
    files.insert(format!("{env}/hiera.yaml"), format!("version: 5\nhierarchy:\n{hierarchy}"));
    // Enough text that it is read on more than one core, where there are.
    for (n, path) in paths.iter().enumerate().filter(|(_, p)| !p.starts_with("missing")) {
        let keys = (n * 300..n * 300 + 1500).map(|k| (format!("k{k}"), format!("{path} %{{facts.nope}}{k}")));
        let text = if path.ends_with(".json") {
            let entries: Vec<String> =
                keys.map(|(k, v)| format!("\"{k}\": {{\"v\": \"{v}\", \"n\": [{n}]}}")).collect();
            format!("{{{}}}", entries.join(",\n"))
        } else {
            keys.map(|(k, v)| format!("{k}:\n  v: '{v}'\n  n: [{n}]\n")).collect()
        };
        files.insert(format!("{env}/data/{path}"), text);
    }
    let total: usize = files.iter().map(|(_, t)| t.len()).sum();
    assert!(total > 256 * 1024, "{total}");
    let (ahead, alone) = (Hiera::new(files.clone(), Node::default()), Hiera::new(files, Node::default()));
    let mut session = ahead.session();
    for k in (0..3200).step_by(7) {
        let key = format!("k{k}");
        let fresh = alone.lookup(&Request { keys: vec![key.clone()], ..Request::default() }).result;
        let kept = session.lookup(&key).unwrap();
        // The first file holding the key: file n holds n * 300 up to n * 300 + 1500.
        let want = (0..6).find(|&n| n != 3 && n * 300 <= k && k < n * 300 + 1500);
        let held = kept.as_ref().and_then(|v| v.get("n")).map(|n| n.inspect());
        assert_eq!(held, want.map(|n| format!("[{n}]")), "{key}");
        match fresh {
            Ok(v) => assert_eq!(Some(v), kept, "{key}"),
            Err(e) => assert!(kept.is_none() && e.message.contains("did not find a value"), "{key}: {e:?}"),
        }
    }
}

#[test]
fn each_step_s_merged_value_is_what_was_merged_up_to_it() {
    use hiera_core::steps::{merge_steps, Change, StepOutcome};
    let mut checked = 0;
    for path in common::case_paths() {
        let doc = common::read_case(&path);
        let hiera = doc.hiera();
        for lookup in &doc.lookups {
            let Ok(request) = lookup.request(true) else { continue };
            let answer = hiera.lookup(&request);
            let (Ok(value), Some(ex)) = (&answer.result, &answer.explanation) else { continue };
            // convert_to changes the value after the merge.
            if answer.options.as_ref().is_some_and(|o| o.options.get("convert_to").is_some()) {
                continue;
            }
            let steps: Vec<_> = merge_steps(ex).into_iter().filter(|s| s.outcome == StepOutcome::Found).collect();
            let name = format!("{}: {}", path.display(), lookup.keys.join(" "));
            let Some(last) = steps.last() else { continue };
            if request.keys.len() == 1 && request.default.is_none() && !request.keys[0].contains('.') {
                assert_eq!(last.merged.as_ref(), Some(value), "{name}: the last step's merged value is the answer");
            }
            let knockout = ex.render().contains("knockout_prefix")
                || request.merge.as_ref().is_some_and(|m| m.inspect().contains("knockout"));
            for step in &steps {
                for change in &step.changes {
                    if let Change::Removed(at, v) = change {
                        assert!(
                            knockout,
                            "{name}: {} says {at:?} {v:?} was knocked out, with no knockout_prefix; {:#?}",
                            step.path,
                            steps
                                .iter()
                                .map(|s| (
                                    s.value.as_ref().map(|v| v.inspect()),
                                    s.merged.as_ref().map(|v| v.inspect())
                                ))
                                .collect::<Vec<_>>()
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
}
