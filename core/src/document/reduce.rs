//! The smallest document that reproduces a few lookups: for sharing a
//! question about a real repository without the repository. Only the files
//! the lookups read are kept (their hiera.yaml files, and of each data file
//! the keys the lookups searched there), only the facts and node name the
//! answers depend on, no other node, class or manifest. Every step is
//! proven by the engine: the reduced document must give each lookup the
//! same answer and the same `--explain` text, byte for byte, or the step is
//! not taken.

use crate::case::{CaseLookup, Document, Text};
use crate::document::playground::{Outcome, Playground};
use crate::value::{Hash, Value};

/// A reduced document, and what was left out of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced {
    /// The document, with the lookups it was reduced for.
    pub document: Document,
    /// The files left out, as the original names them.
    pub files: Vec<String>,
    /// How many top-level keys of the kept data files were left out.
    pub keys: usize,
    /// The facts left out (top-level names).
    pub facts: Vec<String>,
    /// The private key files left out (the eyaml values they decrypt then
    /// fail, as on a Puppet without the key).
    pub secrets: Vec<String>,
    /// Whether the node's name was left out.
    pub node: bool,
}

impl Reduced {
    /// What was left out, in a sentence for the page and the command.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if !self.files.is_empty() {
            parts.push(plural(self.files.len(), "file"));
        }
        if self.keys > 0 {
            parts.push(plural(self.keys, "key"));
        }
        if !self.facts.is_empty() {
            parts.push(plural(self.facts.len(), "fact"));
        }
        if self.node {
            parts.push("the node's name".to_string());
        }
        if !self.secrets.is_empty() {
            parts.push(format!(
                "{} (its eyaml values fail without it, as on a Puppet without the key)",
                plural(self.secrets.len(), "private key")
            ));
        }
        match parts.len() {
            0 => "Nothing could be left out: every file, key and fact is needed.".into(),
            _ => format!("Left out: {}. The answers and their explanations are the same.", parts.join(", ")),
        }
    }
}

/// Each lookup's answer and explain text in the engine's document.
fn answers(engine: &Playground) -> Vec<(Outcome, String)> {
    let doc = engine.document();
    doc.lookups.iter().map(|l| engine.evaluate(l, true)).map(|e| (e.outcome.clone(), e.explain())).collect()
}

/// The reduction under way: one engine, edited step by step, each step
/// undone unless the answers and explanations stay what they were.
struct Reducing {
    engine: Playground,
    wanted: Vec<(Outcome, String)>,
}

impl Reducing {
    /// Makes `change`, and keeps it if the answers hold; else `undo`.
    fn try_step(&mut self, change: impl FnOnce(&mut Playground), undo: impl FnOnce(&mut Playground)) -> bool {
        change(&mut self.engine);
        if answers(&self.engine) == self.wanted {
            return true;
        }
        undo(&mut self.engine);
        false
    }
}

/// The smallest document that gives `lookups` of `doc` the answers and
/// explanations `doc` gives them. Private keys are kept only `with_keys`;
/// without them, the answers kept are those of the document without its
/// keys.
pub fn reduce(doc: &Document, lookups: &[CaseLookup], with_keys: bool) -> Reduced {
    let mut start = if with_keys { doc.clone() } else { doc.without_private_keys() };
    start.lookups = lookups.iter().map(|l| CaseLookup { expect: None, explain: None, ..l.clone() }).collect();
    start.nodes.clear();
    start.classes.clear();
    let secrets: Vec<String> =
        doc.files.iter().filter(|(p, _)| !start.files.iter().any(|(q, _)| q == p)).map(|(p, _)| p.clone()).collect();
    let engine = Playground::new(start.clone());
    let wanted = answers(&engine);
    let explains: Vec<&str> = wanted.iter().map(|(_, e)| e.as_str()).collect();
    let read = read_files(&explains);
    let mut r = Reducing { engine, wanted: wanted.clone() };

    // The files: those the lookups read (or looked for and found), and every
    // configuration, which says where the others are.
    let configuration = |p: &str| {
        p.ends_with("hiera.yaml") || p.ends_with("environment.conf") || p.ends_with("puppet.conf") || p.ends_with('/')
    };
    let is_read = |engine: &Playground, p: &str| read.iter().any(|(path, _)| engine.document().relative(path) == p);
    let unread: Vec<(String, Text)> =
        start.files.iter().filter(|(p, _)| !configuration(p) && !is_read(&r.engine, p)).cloned().collect();
    r.try_step(
        |e| unread.iter().for_each(|(p, _)| e.remove_file(p)),
        |e| unread.iter().for_each(|(p, t)| e.set_file(p, t)),
    );

    // Of each data file, the keys searched there (and lookup_options): all
    // files at once, else file by file.
    let reductions: Vec<(String, Text, String, usize)> = r
        .engine
        .document()
        .files
        .iter()
        .filter_map(|(path, text)| {
            let searched = read.iter().find(|(p, _)| r.engine.document().relative(p) == *path).map(|(_, k)| k)?;
            let (reduced, dropped) = reduced_text(&r.engine, path, searched)?;
            (dropped > 0).then(|| (path.clone(), text.clone(), reduced, dropped))
        })
        .collect();
    let mut keys = 0;
    let all = r.try_step(
        |e| reductions.iter().for_each(|(p, _, reduced, _)| e.set_file(p, reduced)),
        |e| reductions.iter().for_each(|(p, text, _, _)| e.set_file(p, text)),
    );
    if all {
        keys = reductions.iter().map(|r| r.3).sum();
    } else {
        for (path, text, reduced, dropped) in &reductions {
            if r.try_step(|e| e.set_file(path, reduced), |e| e.set_file(path, text)) {
                keys += dropped;
            }
        }
    }

    // The facts: those no kept file names, all at once; then each of the
    // others that the answers do not depend on.
    let facts_before = r.engine.document().facts.clone();
    let named = |name: &str, engine: &Playground| engine.document().files.iter().any(|(_, t)| t.contains(name));
    let unnamed: Vec<Value> = facts_before.keys().filter(|k| !named(&k.to_ruby_s(), &r.engine)).cloned().collect();
    let mut facts = Vec::new();
    let mut without = facts_before.clone();
    without.retain(|k, _| !unnamed.contains(k));
    if r.try_step(|e| e.set_facts(without.clone()), |e| e.set_facts(facts_before.clone())) {
        facts.extend(unnamed.iter().map(Value::to_ruby_s));
    }
    let names: Vec<Value> = r.engine.document().facts.keys().cloned().collect();
    for name in names {
        let before = r.engine.document().facts.clone();
        let mut fewer = before.clone();
        fewer.retain(|k, _| *k != name);
        if r.try_step(|e| e.set_facts(fewer), |e| e.set_facts(before)) {
            facts.push(name.to_ruby_s());
        }
    }

    // The node's name, when nothing reads it.
    let name = r.engine.document().node.clone();
    let node = name.is_some() && r.try_step(|e| e.set_node_name(None), |e| e.set_node_name(name));

    let mut current = r.engine.document().clone();
    let files = doc
        .files
        .iter()
        .filter(|(p, _)| !current.files.iter().any(|(q, _)| q == p) && !secrets.contains(p))
        .map(|(p, _)| p.clone())
        .collect();
    let keys_label: Vec<String> = lookups.iter().map(CaseLookup::key_label).collect();
    current.description = Some(format!(
        "The smallest example of {} that gives the same answers and explanations as the document it was cut from.",
        keys_label.join(", ")
    ));
    Reduced { document: current, files, keys, facts, secrets, node }
}

/// Each file an explanation reads (an absolute path), with the keys it
/// searched there: from `puppet lookup --explain`'s own lines, so that
/// whatever it prints of a file is kept.
fn read_files(explains: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for explain in explains {
        // The Path lines enclosing the line (a nested lookup's inside its
        // file's), each with how far it is indented: the lines under it
        // (indented further) are about that file.
        let mut paths: Vec<(String, usize)> = Vec::new();
        for raw in explain.lines() {
            let line = raw.trim_start();
            let indent = raw.len() - line.len();
            while paths.last().is_some_and(|(_, at)| indent <= *at) {
                paths.pop();
            }
            if let Some(p) = quoted_after(line, "Path ") {
                if !out.iter().any(|(q, _)| *q == p) {
                    out.push((p.clone(), Vec::new()));
                }
                paths.push((p, indent));
                continue;
            }
            let key = quoted_after(line, "Found key: ").or_else(|| quoted_after(line, "No such key: "));
            if let (Some(key), Some((p, _))) = (key, paths.last()) {
                let entry = out.iter_mut().find(|(q, _)| q == p).map(|(_, k)| k);
                if let Some(keys) = entry {
                    let root = crate::key::split_key(&key).and_then(|s| s.first().map(Value::to_ruby_s)).unwrap_or(key);
                    if !keys.contains(&root) {
                        keys.push(root);
                    }
                }
            }
        }
    }
    out
}

/// `"text"` right after `prefix` at the start of `line`, unescaped.
fn quoted_after(line: &str, prefix: &str) -> Option<String> {
    let rest = line.strip_prefix(prefix)?.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            '"' => return Some(out),
            c => out.push(c),
        }
    }
    None
}

/// A data file's text with only `keys` (and `lookup_options`), in its
/// format, and how many keys were left out; `None` for a file that is not
/// YAML or JSON data, or does not read.
fn reduced_text(playground: &Playground, path: &str, keys: &[String]) -> Option<(String, usize)> {
    let yaml = path.ends_with(".yaml") || path.ends_with(".yml") || path.ends_with(".eyaml");
    if !(yaml || path.ends_with(".json")) || path.ends_with("hiera.yaml") {
        return None;
    }
    let absolute = playground.absolute(path);
    let function = crate::backends::data::function_for(&absolute)?;
    let file = playground.hiera().data_file(function, &absolute).ok()?;
    let mut hash = Hash::default();
    for (k, v) in file.hash.iter() {
        let name = k.to_ruby_s();
        if name == "lookup_options" || keys.contains(&name) {
            hash.insert(k.clone(), v.clone());
        }
    }
    let dropped = file.hash.len() - hash.len();
    let reduced = if yaml {
        crate::formats::yaml::to_yaml(&Value::Hash(hash))
    } else {
        Value::Hash(hash).to_json_pretty().ok()?
    };
    Some((reduced, dropped))
}
