//! The fleet view over real data: puppetlabs-ntp's module data recorded from
//! Puppet for five platforms (`../shared/realworld/module-ntp-*.yaml`), put
//! in one document as five nodes. Each node's column must be what a
//! one-node document of that node answers, which the realworld test holds
//! to Puppet's recorded answers; what changed after an edit must be what
//! the one-node documents say changed.

mod common;

use std::path::PathBuf;

use hiera_core::case::{Document, OtherNode};
use hiera_core::explain::{Explanation, NodeId, NodeKind, Token};
use hiera_core::fleet::{touched_keys, Answer, Change};
use hiera_core::playground::Playground;

/// The ntp cases, each with what a one-node document answers for it.
fn cases() -> Option<Vec<Document>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/realworld");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("module-ntp-")))
        .collect();
    paths.sort();
    let docs: Vec<Document> =
        paths.iter().map(|p| Document::from_yaml(&std::fs::read_to_string(p).unwrap()).unwrap()).collect();
    Some(docs)
}

fn one_node(doc: &Document) -> Vec<Answer> {
    let hiera = doc.hiera();
    doc.lookups.iter().map(|l| Answer::of(l.request(false).and_then(|r| hiera.lookup(&r).result))).collect()
}

fn together(docs: &[Document]) -> Document {
    let mut fleet = docs[0].clone();
    fleet.nodes = docs[1..]
        .iter()
        .map(|d| OtherNode { name: d.node().name, environment: None, facts: d.facts.clone() })
        .collect();
    fleet
}

#[test]
fn each_column_is_what_the_node_alone_answers_and_an_edit_changes_what_it_changes_alone() {
    let Some(docs) = cases().filter(|d| d.len() > 1) else {
        eprintln!("no ../shared/realworld here: skipped");
        return;
    };
    // The same module data, recorded for several platforms; the lookups
    // are the first case's (the others' are mostly the same).
    assert!(docs.iter().all(|d| d.files == docs[0].files));
    for d in &docs {
        assert!(d.check(false).iter().all(Result::is_ok), "{} no longer agrees with Puppet", d.node().name);
    }
    let alone: Vec<Document> =
        docs.iter().map(|d| Document { lookups: docs[0].lookups.clone(), ..d.clone() }).collect();
    let mut playground = Playground::new(together(&alone));
    let table = playground.fleet();
    assert_eq!(table.nodes, docs.iter().map(|d| d.node().name).collect::<Vec<_>>());
    let (mut differing_rows, mut recorded) = (0, 0);
    for (column, (doc, recorded_doc)) in alone.iter().zip(&docs).enumerate() {
        let puppet = one_node(recorded_doc);
        for (row, answer) in one_node(doc).iter().enumerate() {
            let cell = &table.answers[row][column];
            assert!(cell.same(answer), "{} {}", table.nodes[column], table.keys[row]);
            // Where Puppet answered this very lookup for this node.
            let same_lookup = |l: &&hiera_core::case::CaseLookup| {
                (&l.keys, &l.merge, &l.default, &l.value_type)
                    == (
                        &doc.lookups[row].keys,
                        &doc.lookups[row].merge,
                        &doc.lookups[row].default,
                        &doc.lookups[row].value_type,
                    )
            };
            if let Some(i) = recorded_doc.lookups.iter().position(|l| same_lookup(&l)) {
                assert!(cell.same(&puppet[i]));
                recorded += 1;
            }
        }
    }
    assert!(recorded > table.keys.len() * docs.len() * 9 / 10, "only {recorded} cells were recorded from Puppet");
    for row in &table.answers {
        differing_rows += usize::from(row.iter().any(|a| !a.same(&row[0])));
    }
    assert!(differing_rows > 10, "the platforms differ in {differing_rows} keys only");

    // An edit of one family's data changes that family's nodes only.
    let path = "modules/ntp/data/RedHat-family.yaml";
    let text = docs[0].files.iter().find(|(p, _)| p == path).map(|(_, t)| t.to_string()).unwrap();
    let edited = text.replace("ntp::iburst_enable: false", "ntp::iburst_enable: true");
    assert_ne!(edited, text);
    playground.set_file(path, &edited);
    let changes = table.changes(&playground.fleet());
    let mut expected = Vec::new();
    for doc in &alone {
        let mut after = doc.clone();
        after.files.iter_mut().filter(|(p, _)| p == path).for_each(|(_, t)| *t = edited.as_str().into());
        for ((lookup, before), now) in doc.lookups.iter().zip(one_node(doc)).zip(one_node(&after)) {
            if !before.same(&now) {
                let (node, key) = (doc.node().name, lookup.label());
                expected.push(Change { node, key, before, after: now });
            }
        }
    }
    hiera_core::fleet::sort(&mut expected);
    assert!(!expected.is_empty());
    assert_eq!(changes, expected);
}

/// What each `%{...}` of the hierarchy paths an explained lookup searched
/// for data became: the tokens of its locations, outside nested lookups and
/// the search for `lookup_options`.
fn explained_path_tokens(ex: &Explanation) -> Vec<Token> {
    fn walk(ex: &Explanation, id: NodeId, out: &mut Vec<Token>) {
        let node = ex.node(id);
        match &node.kind {
            NodeKind::Interpolate(_) | NodeKind::Search { meta: true, .. } => {}
            NodeKind::Location { .. } => out.extend(node.tokens.iter().cloned()),
            _ => node.branches.iter().for_each(|&b| walk(ex, b, out)),
        }
    }
    let mut out = Vec::new();
    walk(ex, Explanation::ROOT, &mut out);
    out
}

/// The table answers each node's lookups from one unexplained session:
/// every recorded case's and gallery example's cells, and the variables its
/// paths read, must be what each lookup explained on its own says.
#[test]
fn every_cell_and_variable_is_what_the_lookup_explained_alone_says() {
    for path in common::case_paths() {
        let doc = common::read_case(&path);
        let (table, scopes) = Playground::new(doc.clone()).fleet_and_scopes();
        let mut hiera = doc.hiera();
        for (column, node) in doc.all_nodes().into_iter().enumerate() {
            hiera.set_node(node);
            let mut used: Vec<(String, String)> = Vec::new();
            for (row, lookup) in doc.lookups.iter().enumerate() {
                let (result, explanation) = match lookup.request(true) {
                    Ok(r) => {
                        let answer = hiera.lookup(&r);
                        (answer.result, answer.explanation)
                    }
                    Err(e) => (Err(e), None),
                };
                assert_eq!(
                    table.answers[row][column],
                    Answer::of(result),
                    "{}: lookup {row}, node {column}",
                    path.display()
                );
                for t in explanation.iter().flat_map(explained_path_tokens).filter(|t| t.method == "scope") {
                    let name = format!("%{{{}}}", t.expression);
                    if !used.iter().any(|(n, _)| *n == name) {
                        used.push((name, if t.undefined { "(undefined)".into() } else { t.result }));
                    }
                }
            }
            let shown: Vec<(String, String)> =
                scopes.used.iter().filter_map(|v| Some((v.name.clone(), v.values[column].clone()?))).collect();
            assert_eq!(shown, used, "{}: the variables node {column}'s paths read", path.display());
        }
    }
}

#[test]
fn a_document_keeps_its_nodes_and_shows_any_of_them() {
    let text = "node: a.example.com\nfacts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Role\n        path: \"%{facts.role}.yaml\"\n  data/web.yaml: \"k: web\\n\"\n  data/db.yaml: \"k: db\\n\"\nlookups:\n  - key: k\nnodes:\n  - node: b.example.com\n    facts:\n      role: db\n";
    let doc = Document::from_yaml(text).unwrap();
    assert_eq!(Document::from_yaml(&doc.to_yaml()).unwrap(), doc);
    let mut playground = Playground::new(doc);
    let value = |s: &str| Answer::Value(s.into());
    assert_eq!(playground.fleet().answers, vec![vec![value("web"), value("db")]]);
    // Answering for every node leaves the engine answering for the shown one.
    let shown = playground.evaluate(&playground.document().lookups[0], false).outcome;
    assert!(matches!(shown, hiera_core::playground::Outcome::Found(r) if r.value == "web".into()));
    assert!(playground.show_node(0));
    assert_eq!(playground.document().node.as_deref(), Some("b.example.com"));
    let shown = playground.fleet();
    assert_eq!(shown.nodes, ["b.example.com", "a.example.com"]);
    assert_eq!(shown.answers, vec![vec![value("db"), value("web")]]);
    let hiera = playground.document().hiera();
    assert_eq!(hiera.lookup(&playground.document().lookups[0].request(false).unwrap()).result.unwrap(), "db".into());
    let refused = Document::from_yaml("files: {}\nnodes:\n  - facts: {}\n").unwrap_err();
    assert!(refused.to_string().contains("'nodes' must be a mapping with 'node'"), "{refused}");
}

#[test]
fn a_node_of_another_environment_answers_from_that_environment_s_files() {
    // The document's relative files are production's; staging's are given by their full path.
    let text = r#"files:
  hiera.yaml: |
    version: 5
  data/common.yaml: "k: production\n"
  /etc/puppetlabs/code/environments/staging/hiera.yaml: |
    version: 5
  /etc/puppetlabs/code/environments/staging/data/common.yaml: "k: staging\n"
lookups:
  - key: k
nodes:
  - node: s.example.com
    environment: staging
  - node: p.example.com
    environment: production
"#;
    let doc = Document::from_yaml(text).unwrap();
    assert_eq!(doc.nodes[0].environment.as_deref(), Some("staging"));
    assert_eq!(Document::from_yaml(&doc.to_yaml()).unwrap(), doc);
    let mut playground = Playground::new(doc);
    let value = |s: &str| Answer::Value(s.into());
    assert_eq!(playground.fleet().answers, vec![vec![value("production"), value("staging"), value("production")]]);
    // Why shows nodes of the document's environment only: its files are there.
    assert!(!playground.show_node(0));
    assert_eq!(playground.document().node, None);
    assert!(playground.show_node(1));
    for bad in ["Staging", "../x", ""] {
        let text = format!("files: {{}}\nnodes:\n  - node: n\n    environment: {bad:?}\n");
        let refused = Document::from_yaml(&text).unwrap_err();
        assert!(refused.to_string().contains("invalid environment"), "{bad}: {refused}");
    }
}

#[test]
fn a_change_touches_the_keys_of_the_files_it_changes_and_the_keys_that_look_them_up() {
    let doc = |common: &str, config: &str, extra: &str| {
        let text = format!(
            "files:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Role\n        path: \"roles/%{{facts.role}}.yaml\"\n      - name: Common\n        path: common.yaml{config}\n  data/common.yaml: {common:?}\n  data/roles/web.yaml: \"port: 80\\nbanner: \\\"%{{alias('motd')}}\\\"\\ndeep: \\\"%{{hiera('owner.name')}}\\\"\\n\"\n  data/roles/db.yaml: \"motd: \\\"%{{lookup('owner')}}\\\"\\n\"\n{extra}"
        );
        Document::from_yaml(&text).unwrap().hiera()
    };
    let before = doc("owner: ops\nsize: 1\n", "", "");
    let keys = |t: Option<std::collections::BTreeSet<String>>| t.map(|t| t.into_iter().collect::<Vec<_>>());
    // common.yaml changed: the keys whose values changed, and the keys that look
    // them up (motd and deep look owner up, banner motd).
    let after = doc("owner: dev\nsize: 1\nnew: 2\n", "", "");
    let expected = ["banner", "deep", "motd", "new", "owner"].map(String::from).to_vec();
    assert_eq!(keys(touched_keys(&before, &after)), Some(expected));
    assert_eq!(keys(touched_keys(&before, &before)), Some(vec![]));
    // A manifest no lookup reads changes nothing.
    let site = "  manifests/site.pp: \"node default {}\\n\"\n";
    assert_eq!(keys(touched_keys(&before, &doc("owner: ops\nsize: 1\n", "", site))), Some(vec![]));
    // A changed hiera.yaml or lookup_options can change any key.
    assert_eq!(
        touched_keys(&before, &doc("owner: ops\nsize: 1\n", "\n      - name: Extra\n        path: extra.yaml", "")),
        None
    );
    let options = "lookup_options:\n  size:\n    merge: unique\nowner: ops\nsize: 1\n";
    assert_eq!(touched_keys(&before, &doc(options, "", "")), None);
    let conf = "  /etc/puppetlabs/puppet/puppet.conf: \"[server]\\nstrict = off\\n\"\n";
    assert_eq!(touched_keys(&before, &doc("owner: ops\nsize: 1\n", "", conf)), None);
    // So does a modulepath: it says where the module layers are.
    let modulepath = "  environment.conf: \"modulepath = site:modules\\n\"\n";
    assert_eq!(touched_keys(&before, &doc("owner: ops\nsize: 1\n", "", modulepath)), None);
    // A changed data file one side cannot read, too.
    assert_eq!(touched_keys(&before, &doc("owner: [\n", "", "")), None);
}
