//! Bad input never panics: every case's files, truncated at every tenth
//! byte, still give each lookup an answer (a value or an error).

mod common;

use hiera_core::case::Document;
use hiera_core::{Hiera, Request};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

#[test]
fn truncated_files_never_panic() {
    let dir = common::conformance_dir();
    let mut paths: Vec<PathBuf> = ["cases", "own"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    paths.sort();
    let mut runs = 0;
    for path in paths {
        let doc = Document::from_yaml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let requests: Vec<Request> = doc.lookups.iter().filter_map(|l| l.request(true).ok()).collect();
        let files = doc.files();
        let intact = Hiera::new(files.clone(), doc.node()).with_puppet(doc.puppet);
        let explains: Vec<String> = requests.iter().map(|r| intact.lookup(r).explain_text()).collect();
        for (file, text) in files.iter() {
            let readers = common::readers(&explains, file);
            for cut in (0..text.len()).step_by(10).filter(|c| text.is_char_boundary(*c)) {
                let mut hiera = Hiera::new(files.clone(), doc.node()).with_puppet(doc.puppet);
                hiera.set_file(file, &text[..cut]);
                for request in requests.iter().zip(&readers).filter(|(_, &reads)| reads).map(|(r, _)| r) {
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        let answer = hiera.lookup(request);
                        answer.explain_text();
                    }));
                    assert!(outcome.is_ok(), "{}: {file} cut at byte {cut}, key {:?}", path.display(), request.keys);
                    runs += 1;
                }
            }
        }
    }
    println!("{runs} lookups over truncated files, none panicked");
}

/// Looks up `key` in a document whose common.yaml is `data`.
fn lookup_in(data: &str, key: &str) -> Result<hiera_core::Value, hiera_core::Error> {
    let mut files = hiera_core::fs::Files::new();
    files.insert("/etc/puppetlabs/code/environments/production/hiera.yaml", "version: 5\n");
    files.insert("/etc/puppetlabs/code/environments/production/data/common.yaml", data);
    let hiera = Hiera::new(files, hiera_core::Node::default());
    hiera.lookup(&Request { keys: vec![key.into()], explain: true, ..Request::default() }).result
}

#[test]
fn an_alias_bomb_ends_with_a_message() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = if i == 0 { "a".to_string() } else { ["b", "c", "d", "e", "f", "g", "h"][i - 1].to_string() };
        bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let started = std::time::Instant::now();
    let e = lookup_in(&bomb, "a").unwrap_err();
    assert!(e.message.contains("alias bomb"), "{}", e.message);
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn deep_nesting_ends_with_a_message() {
    let started = std::time::Instant::now();
    let flow = format!("k: {}1{}\n", "[".repeat(600), "]".repeat(600));
    assert!(lookup_in(&flow, "k").unwrap_err().message.starts_with("Unable to parse"));
    let block: String = (0..600).map(|i| format!("{}a{i}:\n", " ".repeat(i))).collect();
    assert!(lookup_in(&block, "a0").unwrap_err().message.contains("nested deeper"));
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn lookup_recursion_ends_with_puppets_message() {
    let e = lookup_in("a: \"%{lookup('b')}\"\nb: \"%{alias('a')}\"\n", "a").unwrap_err();
    assert!(e.message.contains("Recursive lookup detected"), "{}", e.message);
}

#[test]
fn long_keys_and_huge_values_are_fine() {
    // YAML allows implicit keys of up to 1024 characters.
    let key = "k".repeat(1000);
    let value = "v".repeat(1_000_000);
    let found = lookup_in(&format!("{key}: {value}\n"), &key).map(|v| v.as_str().map(str::len));
    assert!(matches!(found, Ok(Some(1_000_000))), "a long key and a huge value are found");
    let too_long = "k".repeat(100_000);
    assert!(lookup_in(&format!("{too_long}: v\n"), &too_long).is_err(), "an over-long key is an error, not a hang");
}

#[test]
fn a_glob_that_matches_everything_stays_quick() {
    let mut files = hiera_core::fs::Files::new();
    files.insert(
        "/etc/puppetlabs/code/environments/production/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: all\n    glob: \"**/*\"\n",
    );
    for i in 0..2000 {
        files.insert(
            format!("/etc/puppetlabs/code/environments/production/data/d{}/f{i}.yaml", i % 40),
            format!("k{i}: {i}\n"),
        );
    }
    let hiera = Hiera::new(files, hiera_core::Node::default());
    let started = std::time::Instant::now();
    let answer = hiera.lookup(&Request { keys: vec!["k1999".into()], ..Request::default() });
    assert_eq!(answer.result.unwrap().inspect(), "1999");
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn a_glob_with_too_many_alternatives_is_a_lookup_error() {
    let mut files = hiera_core::fs::Files::new();
    let glob = "{a,b}".repeat(12);
    files.insert(
        "/etc/puppetlabs/code/environments/production/hiera.yaml",
        format!("version: 5\nhierarchy:\n  - name: many\n    glob: \"{glob}.yaml\"\n"),
    );
    files.insert("/etc/puppetlabs/code/environments/production/data/ab.yaml", "k: v\n");
    let hiera = Hiera::new(files, hiera_core::Node::default());
    let answer = hiera.lookup(&Request { keys: vec!["k".into()], ..Request::default() });
    let message = answer.result.unwrap_err().into_message();
    assert!(message.contains("has too many alternatives"), "{message}");
}
