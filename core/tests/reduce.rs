//! `hiera_core::reduce`: the smallest document that reproduces lookups. On
//! a made document, and on every lookup of the real-world corpus's control
//! repositories (`../shared/realworld/`, read in place): the reduced
//! document gives the same answer and explain text, and is smaller; the
//! sizes and link lengths are reported.

use std::path::PathBuf;

use hiera_core::case::Document;
use hiera_core::playground::Playground;
use hiera_core::reduce::reduce;

const DOC: &str = r#"
node: web01.example.com
facts:
  role: web
  os: {family: Debian}
  unrelated: {big: fact}
files:
  hiera.yaml: |
    version: 5
    hierarchy:
      - name: "Per-node data"
        path: "nodes/%{trusted.certname}.yaml"
      - name: "Per-role"
        path: "roles/%{facts.role}.yaml"
      - name: "Common data"
        path: "common.yaml"
  data/nodes/web01.example.com.yaml: |
    profile::web::port: 8080
    secret::thing: hunter2
  data/roles/web.yaml: |
    other::key: 1
  data/roles/db.yaml: |
    profile::web::port: 5432
  data/common.yaml: |
    lookup_options:
      ntp::servers:
        merge: unique
    profile::web::port: 80
    profile::web::banner: "port %{lookup('profile::web::port')}"
    ntp::servers: [pool.ntp.org]
    unrelated::key: "nothing reads me"
  modules/web/manifests/init.pp: |
    class web (Integer $port) {}
lookups:
  - key: profile::web::banner
"#;

fn texts(doc: &Document) -> Vec<(String, String)> {
    let p = Playground::new(doc.clone());
    doc.lookups.iter().map(|l| p.evaluate(l, true)).map(|e| (format!("{:?}", e.outcome), e.explain())).collect()
}

#[test]
fn a_lookup_keeps_what_it_reads_and_nothing_else() {
    let doc = Document::from_yaml(DOC).unwrap();
    let reduced = reduce(&doc, &doc.lookups, false);
    let paths: Vec<&str> = reduced.document.files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["hiera.yaml", "data/nodes/web01.example.com.yaml", "data/roles/web.yaml", "data/common.yaml"]);
    assert_eq!(reduced.files, ["data/roles/db.yaml", "modules/web/manifests/init.pp"]);
    let text = |p: &str| reduced.document.files.iter().find(|(q, _)| q == p).unwrap().1.clone();
    // The interpolated key is read in the node's file: it stays, the secret goes.
    assert!(text("data/nodes/web01.example.com.yaml").contains("profile::web::port: 8080"));
    assert!(!text("data/nodes/web01.example.com.yaml").contains("hunter2"));
    assert!(!text("data/common.yaml").contains("nothing reads me"));
    assert!(text("data/common.yaml").contains("lookup_options"));
    // The role's file is looked in (no such key): it stays, empty.
    assert!(!text("data/roles/web.yaml").contains("other::key"));
    assert_eq!(reduced.keys, 4);
    // The role is in a path, the node in another; the rest of the facts go.
    assert_eq!(reduced.facts, ["os", "unrelated"]);
    assert!(!reduced.node);
    assert_eq!(texts(&reduced.document), texts(&Document { lookups: doc.lookups.clone(), ..doc.clone() }));
    assert!(reduced.summary().starts_with("Left out: 2 files, 4 keys, 2 facts."), "{}", reduced.summary());
}

#[test]
fn private_keys_are_left_out_unless_asked_and_the_values_they_decrypt_fail() {
    let doc = Document::from_yaml(&DOC.replace("  modules/web/manifests/init.pp: |\n    class web (Integer $port) {}\n", "  keys/private_key.pkcs7.pem: |\n    -----BEGIN RSA PRIVATE KEY-----\n    MIIB\n    -----END RSA PRIVATE KEY-----\n")).unwrap();
    let without = reduce(&doc, &doc.lookups, false);
    assert_eq!(without.secrets, ["keys/private_key.pkcs7.pem"]);
    assert!(without.document.private_keys().is_empty());
    assert!(without.summary().contains("1 private key (its eyaml values fail without it"), "{}", without.summary());
    let with = reduce(&doc, &doc.lookups, true);
    assert!(with.secrets.is_empty());
}

fn deflated_link_length(doc: &Document) -> usize {
    let packed = miniz_oxide::deflate::compress_to_vec(doc.to_yaml().as_bytes(), 9);
    // base64url without padding, as the page's links carry it.
    packed.len().div_ceil(3) * 4
}

#[test]
fn every_lookup_of_the_real_world_corpus_reduces_to_the_same_answer_and_explanation() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/realworld");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("reduce: {} not found; nothing checked", dir.display());
        return;
    };
    // The control repositories (SOURCES.md): a module's own data is not what people paste.
    let control = |p: &PathBuf| {
        let name = p.file_name().unwrap().to_string_lossy();
        p.extension().is_some_and(|e| e == "yaml") && (name.starts_with("control-") || name.starts_with("combined-"))
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).filter(control).collect();
    paths.sort();
    let (mut before, mut after, mut links_before, mut links_after) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for path in &paths {
        let doc = Document::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap();
        for lookup in &doc.lookups {
            let one = std::slice::from_ref(lookup);
            let reduced = reduce(&doc, one, false);
            let mut original = doc.without_private_keys();
            original.lookups = vec![hiera_core::case::CaseLookup { expect: None, explain: None, ..lookup.clone() }];
            original.nodes.clear();
            assert_eq!(texts(&reduced.document), texts(&original), "{}: {}", path.display(), lookup.key_label());
            let (b, a) = (original.to_yaml().len(), reduced.document.to_yaml().len());
            assert!(a <= b, "{}: {} grew", path.display(), lookup.key_label());
            before.push(b);
            after.push(a);
            links_before.push(deflated_link_length(&original));
            links_after.push(deflated_link_length(&reduced.document));
        }
    }
    let median = |v: &mut Vec<usize>| {
        v.sort();
        v[v.len() / 2]
    };
    println!(
        "reduce: {} lookups of {} documents; median document {} -> {} bytes, median link {} -> {} characters",
        before.len(),
        paths.len(),
        median(&mut before),
        median(&mut after),
        median(&mut links_before),
        median(&mut links_after)
    );
}
