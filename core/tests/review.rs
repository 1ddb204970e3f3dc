//! `hiera_core::review` (what `hiera-lookup lint` prints): findings over a
//! document made to hold one of each, over the Forge modules vendored for
//! the classes cases, and over the real-world corpus where it exists; every
//! finding checked against the engine's own lookups of every node.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use hiera_core::case::Document;
use hiera_core::review::{review, Finding, Kind, Review};
use hiera_core::steps::{merge_steps, parts, Part, Step, StepOutcome};
use hiera_core::{Hiera, Node, Request};

const DOC: &str = r#"
node: web01.example.com
facts:
  osfamily: Debian
  os: {family: Debian, name: Debian}
  networking: {hostname: web01, domain: example.com}
  hostname: web01
  role: web
nodes:
  - node: db01.example.com
    facts:
      osfamily: RedHat
      os: {family: RedHat, name: RedHat}
      networking: {hostname: db01, domain: example.com}
      hostname: db01
      role: db
files:
  hiera.yaml: |
    version: 5
    hierarchy:
      - name: Role
        path: "roles/%{facts.role}.yaml"
      - name: OS family
        path: "os/%{::osfamily}.yaml"
      - name: Common
        path: common.yaml
  data/roles/web.yaml: |
    profile::web::port: 8443
    profile::web::workers: '4'
  data/roles/db.yaml: |
    profile::db::size: 10
  data/roles/mail.yaml: |
    profile::mail::relay: smtp
  data/os/Debian.yaml: |
    profile::web::port: 8080
    motd: "Hello from %{facts.hostname}"
  data/common.yaml: |
    profile::web::port: 80
    profile::web::prot: 443
    profile::base::unknown: 1
    ntp::servers: [pool.ntp.org]
    motd: hello
    legacy_banner: "on %{::domain}"
    dynamic::one: 1
    heredoc::key: 1
  manifests/site.pp: |
    node default {
      $motd = lookup('motd')
      $text = @("EOT"/L)
        Read in a heredoc that interpolates: ${lookup('heredoc::key')}
        | EOT
      $banner = lookup('legacy_banner')
      $d = lookup("dynamic::${facts['role']}")
      include profile::web
    }
  site/profile/manifests/web.pp: |
    class profile::web (
      Integer $port = 80,
      Integer $workers = 2,
    ) {}
  site/profile/manifests/db.pp: |
    class profile::db (Integer $size) {}
  environment.conf: |
    modulepath = site:modules
"#;

fn found(review: &Review, kind: Kind) -> Vec<(String, Option<usize>, Option<String>)> {
    let env = "/etc/puppetlabs/code/environments/production/";
    review
        .findings
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| (f.file.trim_start_matches(env).to_string(), f.line, f.key.clone()))
        .collect()
}

fn reviewed(doc: &Document) -> Review {
    review(&mut doc.hiera(), &doc.all_nodes())
}

#[test]
fn a_document_with_one_of_each() {
    let doc = Document::from_yaml(DOC).unwrap();
    let r = reviewed(&doc);
    let key = |k: &str| Some(k.to_string());
    assert_eq!(
        found(&r, Kind::UnusedKey),
        [
            ("data/common.yaml".into(), Some(2), key("profile::web::prot")),
            ("data/common.yaml".into(), Some(3), key("profile::base::unknown"))
        ]
    );
    let messages: Vec<&str> =
        r.findings.iter().filter(|f| f.kind == Kind::UnusedKey).map(|f| f.message.as_str()).collect();
    assert!(messages[0].starts_with("class profile::web has no parameter `prot`"), "{messages:?}");
    assert!(messages[1].starts_with("no class profile::base in module profile"), "{messages:?}");
    assert_eq!(found(&r, Kind::DeadFile), [("data/roles/mail.yaml".into(), None, None)]);
    assert_eq!(
        found(&r, Kind::Shadowed),
        // common.yaml's is db01's answer.
        [("data/os/Debian.yaml".into(), Some(1), key("profile::web::port"))]
    );
    assert_eq!(
        found(&r, Kind::LegacyFact),
        [
            ("data/common.yaml".into(), Some(6), key("legacy_banner")),
            ("data/os/Debian.yaml".into(), Some(2), key("motd")),
            ("hiera.yaml".into(), Some(6), None)
        ]
    );
    let level = r.findings.iter().find(|f| f.kind == Kind::LegacyFact && f.key.is_none()).unwrap();
    assert!(level.message.contains("`%{::osfamily}` reads the legacy fact `osfamily`"), "{}", level.message);
    assert!(level.message.contains("use `%{facts.os.family}`"), "{}", level.message);
    assert!(level.message.contains("no node of the 2 given reads a file of level \"OS family\""), "{}", level.message);
    let types = found(&r, Kind::Type);
    assert_eq!(
        types,
        [
            ("data/roles/web.yaml".into(), Some(2), key("profile::web::workers")),
            // No value for a parameter without a default: where it is declared.
            ("site/profile/manifests/db.pp".into(), Some(1), key("profile::db::size"))
        ]
    );
    let messages: Vec<(&str, &[String])> =
        r.findings.iter().filter(|f| f.kind == Kind::Type).map(|f| (f.message.as_str(), f.nodes.as_slice())).collect();
    assert_eq!(
        messages,
        [
            (
                "Class[Profile::Web]: parameter 'workers' expects an Integer value, got String",
                &["web01.example.com".to_string()][..]
            ),
            ("Class[Profile::Db]: expects a value for parameter 'size'", &["web01.example.com".to_string()][..])
        ]
    );
    // `dynamic::one` could be what lookup("dynamic::${...}") reads, and says so.
    assert!(r.notes.iter().any(|n| n.contains("lookup(dynamic::*)")), "{:?}", r.notes);
    assert!(r.notes.iter().any(|n| n.contains("not in the modulepath are not checked: ntp")), "{:?}", r.notes);
    check_against_lookups(&doc.hiera(), &doc.all_nodes(), &r);
}

#[test]
fn a_key_any_call_could_read_turns_the_unused_check_off_and_says_so() {
    let doc = DOC.replace("lookup(\"dynamic::${facts['role']}\")", "lookup($facts['role'])");
    let r = reviewed(&Document::from_yaml(&doc).unwrap());
    assert!(found(&r, Kind::UnusedKey).is_empty());
    assert!(
        r.notes.iter().any(|n| n.starts_with("unused keys are not checked: a lookup whose key is computed")),
        "{:?}",
        r.notes
    );
}

/// Every finding, checked against what the engine answers each node.
fn check_against_lookups(hiera: &Hiera, nodes: &[Node], review: &Review) {
    let mut hiera = Hiera::new(hiera.files().clone(), nodes[0].clone()).with_puppet(hiera.puppet());
    let mut read_keys: BTreeSet<String> = BTreeSet::new();
    for node in nodes {
        hiera.set_node(node.clone());
        let reads: BTreeSet<String> =
            hiera.data_locations().into_iter().filter(|l| l.exists).map(|l| l.path.replace("//", "/")).collect();
        for f in review.findings.iter() {
            match f.kind {
                // No node's hierarchy reads a dead file.
                Kind::DeadFile => assert!(!reads.contains(&f.file), "{} reads {}", node.name, f.file),
                // A shadowed value is never part of a node's answer.
                Kind::Shadowed => {
                    let key = f.key.as_deref().unwrap();
                    let steps = explained(&hiera, key);
                    for (step, part) in steps.iter().zip(parts(&steps)) {
                        let used = matches!(part, Some(Part::Wins | Part::Merged));
                        assert!(
                            !(used && step.path.replace("//", "/") == f.file),
                            "{}: {key} in {} is used",
                            node.name,
                            f.file
                        );
                    }
                }
                _ => {}
            }
        }
        // Every key a node's classes and lookups read, nested lookups too.
        for class in hiera.classes() {
            for p in &class.header.params {
                let key = format!("{}::{}", class.header.name, p.name);
                nested_keys(&explained(&hiera, &key), &mut read_keys);
                read_keys.insert(key);
            }
        }
    }
    for f in review.findings.iter().filter(|f| f.kind == Kind::UnusedKey) {
        let key = f.key.as_deref().unwrap();
        assert!(!read_keys.contains(key), "{key} is called unused, but a lookup reads it");
    }
}

fn explained(hiera: &Hiera, key: &str) -> Vec<Step> {
    let answer = hiera.lookup(&Request { keys: vec![key.to_string()], explain: true, ..Default::default() });
    answer.explanation.as_ref().map(merge_steps).unwrap_or_default()
}

fn nested_keys(steps: &[Step], out: &mut BTreeSet<String>) {
    for step in steps.iter().filter(|s| s.outcome == StepOutcome::Found) {
        for nested in step.interpolations.iter().flat_map(|i| &i.nested) {
            out.insert(nested.key.split('.').next().unwrap_or(&nested.key).to_string());
            nested_keys(&nested.steps, out);
        }
    }
}

/// Documents that share their files, as one document with every node.
fn grouped(paths: &[PathBuf]) -> Vec<(String, Document)> {
    let mut groups: BTreeMap<Vec<(String, hiera_core::case::Text)>, (String, Document)> = BTreeMap::new();
    for path in paths {
        let doc = Document::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        match groups.get_mut(&doc.files) {
            Some((_, group)) => {
                let mut node = doc.node();
                if group.all_nodes().iter().any(|n| n.name == node.name) {
                    node.name = group.free_node_name(&node.name);
                }
                group.nodes.push(hiera_core::case::OtherNode::new(node.name, None, node.facts).unwrap());
            }
            None => {
                groups.insert(doc.files.clone(), (name, doc));
            }
        }
    }
    groups.into_values().collect()
}

fn yaml_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && keep(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    paths.sort();
    paths
}

fn summary(findings: &[Finding]) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for f in findings {
        *out.entry(f.kind.as_str()).or_default() += 1;
    }
    out
}

#[test]
fn forge_modules_on_four_platforms_each() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/forge");
    // Puppet 7's cases (Puppet 8's have the same files and nodes).
    let paths = yaml_files(&dir, |name| !name.ends_with("-8.yaml"));
    let groups = grouped(&paths);
    assert_eq!(groups.len(), 3, "ntp, chrony and timezone");
    let mut seen = BTreeMap::new();
    for (name, doc) in &groups {
        let r = reviewed(doc);
        assert_eq!(doc.all_nodes().len(), 4, "{name}");
        check_against_lookups(&doc.hiera(), &doc.all_nodes(), &r);
        seen.insert(name.split('-').next().unwrap().to_string(), summary(&r.findings));
        assert!(r.notes.is_empty(), "{name}: {:?}", r.notes);
    }
    // Each module's data for platforms none of the four is (ntp's AIX, ...)
    // is dead, and its per-OS values under the environment's are shadowed.
    assert_eq!(seen["ntp"], BTreeMap::from([("dead-file", 13), ("shadowed", 8)]));
    assert_eq!(seen["chrony"], BTreeMap::from([("dead-file", 3), ("shadowed", 3)]));
    assert_eq!(seen["timezone"], BTreeMap::from([("dead-file", 9), ("shadowed", 1)]));
}

#[test]
fn real_repositories_hold_what_their_findings_say() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/realworld");
    let paths = yaml_files(&dir, |_| true);
    if paths.is_empty() {
        println!("review: {} not found; nothing checked", dir.display());
        return;
    }
    let mut total = BTreeMap::new();
    for (name, doc) in grouped(&paths) {
        let r = reviewed(&doc);
        check_against_lookups(&doc.hiera(), &doc.all_nodes(), &r);
        for (kind, n) in summary(&r.findings) {
            *total.entry(kind).or_insert(0) += n;
        }
        println!("review: {name} ({} nodes): {:?}", doc.all_nodes().len(), summary(&r.findings));
    }
    println!("review of the real-world corpus: {total:?}");
    assert!(total.get("legacy-fact").is_some_and(|n| *n > 0), "psick's and seteam's hierarchies use legacy facts");
    assert!(total.get("dead-file").is_some_and(|n| *n > 0));
}

#[test]
fn json_leaves_out_what_does_not_apply() {
    let f = Finding {
        kind: Kind::DeadFile,
        file: "/x/data/a.yaml".into(),
        line: None,
        key: None,
        nodes: Vec::new(),
        message: "m".into(),
    };
    assert_eq!(
        f.to_value("data/a.yaml").to_json().unwrap(),
        r#"{"kind":"dead-file","file":"data/a.yaml","message":"m"}"#
    );
}
