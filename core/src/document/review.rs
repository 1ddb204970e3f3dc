//! Reviewing Hiera data over many nodes, as a team reviews it: keys nothing
//! reads, data files no node's hierarchy reads, values that every node
//! reading them gets from somewhere else, legacy facts that Puppet 8 no
//! longer gives nodes, and class parameters whose value fails their type.
//! Every finding is the engine's own answer for the nodes given (what a
//! node reads is its hierarchy as Puppet resolves it; what a node gets is
//! its lookup's trace), so a finding is wrong only where the nodes given
//! are not the nodes there are.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::backends::data::{function_for, DataFile};
use crate::config::scope::Node;
use crate::document::steps::{found_steps, merge_steps, parts, Part, StepOutcome};
use crate::interpolate::{method_call, pieces, Piece};
use crate::load::facts::legacy_replacement;
use crate::load::fs::collapsed;
use crate::manifests::{lookup_calls, KeyText, LookupCall};
use crate::value::Value;
use crate::{Hiera, Request};

pub use crate::lookup::DataLocation;

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A key that nothing reads: no class parameter, no `lookup()` or
    /// `hiera()` in the manifests, no `%{lookup()}` or `%{alias()}` in the data.
    UnusedKey,
    /// A data file that no node's hierarchy reads.
    DeadFile,
    /// A value that every node reading its file gets from elsewhere.
    Shadowed,
    /// A legacy fact, which Puppet 8 no longer gives nodes.
    LegacyFact,
    /// A class that would fail to compile for a node: a parameter whose
    /// value fails its type, or has none.
    Type,
}

impl Kind {
    /// Its name in `hiera-lookup lint`'s output (`unused-key`...).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::UnusedKey => "unused-key",
            Kind::DeadFile => "dead-file",
            Kind::Shadowed => "shadowed",
            Kind::LegacyFact => "legacy-fact",
            Kind::Type => "type",
        }
    }
}

/// One thing the review found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// What it is about.
    pub kind: Kind,
    /// The file (absolute).
    pub file: String,
    /// The 1-based line, where there is one.
    pub line: Option<usize>,
    /// The key, where it is about one.
    pub key: Option<String>,
    /// The nodes it holds for, where it depends on the node.
    pub nodes: Vec<String>,
    /// What is wrong, in a sentence or two.
    pub message: String,
}

impl Finding {
    /// The finding as `hiera-lookup lint --render-as json` writes it:
    /// `{kind, file, line, key, nodes, message}`, fields that do not apply
    /// left out.
    pub fn to_value(&self, file: &str) -> Value {
        let mut h = crate::value::Hash::default();
        h.insert("kind".into(), self.kind.as_str().into());
        h.insert("file".into(), file.into());
        if let Some(line) = self.line {
            h.insert("line".into(), Value::Integer((line as i64).into()));
        }
        if let Some(key) = &self.key {
            h.insert("key".into(), key.as_str().into());
        }
        if !self.nodes.is_empty() {
            h.insert("nodes".into(), Value::Array(self.nodes.iter().map(|n| n.as_str().into()).collect()));
        }
        h.insert("message".into(), self.message.as_str().into());
        Value::Hash(h)
    }
}

/// What a review found, and what it could not check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// The findings, by file, line and kind.
    pub findings: Vec<Finding>,
    /// What was not checked, and why (a computed `lookup()` key, modules
    /// that are not there, manifests that do not parse).
    pub notes: Vec<String>,
}

/// Reviews the data of `hiera`'s files for `nodes` (each looked up as
/// `hiera` looks up, in its own environment).
pub fn review(hiera: &mut Hiera, nodes: &[Node]) -> Review {
    let environment = nodes.first().map_or("production", |n| n.environment.as_str());
    // The manifests are read once: their calls say which keys are read, and with which merges.
    let calls = manifest_calls(hiera, environment);
    let mut run = Reviewing { merges: manifest_merges(&calls), ..Reviewing::default() };
    for (i, node) in nodes.iter().enumerate() {
        // As Puppet 8's Facter gives the node: no legacy facts.
        let mut without = node.clone();
        without.facts.retain(|k, _| legacy_replacement(&k.to_ruby_s()).is_none());
        hiera.set_node(without);
        for location in hiera.data_locations() {
            run.reach(&location, i, false);
        }
        hiera.set_node(node.clone());
        run.node(hiera, i);
    }
    run.finish(hiera, nodes, environment, &calls)
}

/// Where a class fails: file, line, the parameter's key (or the class),
/// Puppet's message.
type Failure = (String, Option<usize>, String, String);

/// Nodes by their index, each once, in order (nodes are gone through in
/// order).
#[derive(Default)]
struct Nodes(Vec<usize>);

impl Nodes {
    fn add(&mut self, i: usize) {
        if self.0.last() != Some(&i) {
            self.0.push(i);
        }
    }
}

/// The nodes that read a file of a hierarchy level.
struct LevelReach {
    /// Its hiera.yaml.
    config: Option<String>,
    /// Its name.
    level: String,
    /// Its paths as written.
    originals: Vec<String>,
    /// The nodes that read one of its files, with their facts.
    with: Nodes,
    /// The nodes that do without legacy facts.
    without: Nodes,
}

/// A data file a node reads: its path, the module whose layer reads it, and
/// the file.
type Read = (String, Option<String>, std::rc::Rc<DataFile>);

/// What the nodes read, gathered node by node.
#[derive(Default)]
struct Reviewing {
    /// Each data file a node reads, and which nodes do.
    reads: HashMap<String, Nodes>,
    /// The levels, in the order met.
    levels: Vec<LevelReach>,
    /// The datadirs, and the module each is of.
    datadirs: Vec<(String, Option<String>)>,
    /// (file, key) whose value is part of some node's answer.
    used: HashSet<(String, String)>,
    /// (file, key): the nodes whose answer it is not part of.
    shadowed: HashMap<(String, String), Nodes>,
    /// (file, line, key or class, message): the nodes a class fails for.
    types: Vec<(Failure, Nodes)>,
    /// The merges the manifests ask for, by key.
    merges: HashMap<String, Vec<String>>,
}

impl Reviewing {
    /// Notes that `node` reads (or not) a location, with its facts
    /// (`legacy`) or without legacy facts.
    fn reach(&mut self, l: &DataLocation, node: usize, legacy: bool) {
        let i = match self.levels.iter().position(|r| r.config == l.config && r.level == l.level) {
            Some(i) => i,
            None => {
                self.levels.push(LevelReach {
                    config: l.config.clone(),
                    level: l.level.clone(),
                    originals: Vec::new(),
                    with: Nodes::default(),
                    without: Nodes::default(),
                });
                self.levels.len() - 1
            }
        };
        let level = &mut self.levels[i];
        if !level.originals.contains(&l.original) {
            level.originals.push(l.original.clone());
        }
        if l.exists {
            if legacy { &mut level.with } else { &mut level.without }.add(node);
        }
    }

    /// What node `i` (set in `hiera`) reads and gets.
    fn node(&mut self, hiera: &Hiera, i: usize) {
        let mut read: Vec<Read> = Vec::new();
        for location in hiera.data_locations() {
            if !self.datadirs.iter().any(|(d, _)| *d == location.datadir) {
                self.datadirs.push((location.datadir.clone(), location.module.clone()));
            }
            self.reach(&location, i, true);
            if !location.exists {
                continue;
            }
            let path = collapsed(&location.path).into_owned();
            self.reads.entry(path.clone()).or_default().add(i);
            if let Some(file) = data_file(hiera, &path) {
                read.push((path, location.module.clone(), file));
            }
        }
        // A key only one file holds for the node is the node's answer.
        let mut held: HashMap<String, usize> = HashMap::default();
        for (_, module, file) in &read {
            for key in file.hash.keys().map(Value::to_ruby_s).filter(|k| in_layer(k, module.as_deref())) {
                *held.entry(key).or_default() += 1;
            }
        }
        for (key, _) in held.into_iter().filter(|(_, count)| *count > 1) {
            let wanted: Vec<Option<String>> =
                self.merges.get(&key).into_iter().flatten().map(|m| Some(m.clone())).collect();
            for merge in std::iter::once(None).chain(wanted) {
                self.answer(hiera, i, &key, merge, &read);
            }
        }
        // Classes that would fail to compile, as `hiera-lookup check` lists
        // them: each parameter where its value is (its data file, else its
        // manifest), or the class.
        let classes = hiera.classes();
        let bindings = hiera.bind_classes(classes.iter().map(|c| c.header.name.as_str()));
        for (defined, binding) in classes.iter().zip(bindings) {
            let Some(error) = &binding.error else { continue };
            let mut told = false;
            for p in binding.parameters.iter() {
                let Some(mismatch) = &p.mismatch else { continue };
                told = true;
                let key = format!("{}::{}", binding.class, p.name);
                let in_data = (p.from == crate::classes::From::Hiera).then(|| first_found(hiera, &key)).flatten();
                let (file, line) = in_data.unwrap_or_else(|| (defined.file.clone(), Some(p.line)));
                let message = format!("{}: {mismatch}", binding.resource());
                self.failed((file, line, key, message), i);
            }
            if !told {
                let at = (defined.file.clone(), Some(defined.header.line), binding.class.clone(), error.clone());
                self.failed(at, i);
            }
        }
    }

    /// Notes that a class fails for node `i` (where, the key or class, the message).
    fn failed(&mut self, at: Failure, i: usize) {
        match self.types.iter_mut().find(|(known, _)| *known == at) {
            Some((_, nodes)) => nodes.add(i),
            None => self.types.push((at, Nodes(vec![i]))),
        }
    }

    /// Which of the files the node reads that hold `key` its answer takes
    /// a value from.
    fn answer(&mut self, hiera: &Hiera, i: usize, key: &str, merge: Option<String>, read: &[Read]) {
        // A key with a dot is a path into a value; the key itself, quoted.
        let asked = if key.contains('.') { format!("\"{key}\"") } else { key.to_string() };
        let request =
            Request { keys: vec![asked], merge: merge.map(Value::String), explain: true, ..Default::default() };
        let answer = hiera.lookup(&request);
        let Some(ex) = answer.explanation.as_ref() else { return };
        let steps = merge_steps(ex);
        // A failed lookup cannot tell what its values would have done.
        let failed = answer.result.as_ref().is_err_and(|e| e.kind != crate::ErrorKind::NotFound);
        let mut reached = HashSet::default();
        for (step, part) in steps.iter().zip(parts(&steps)) {
            let path = collapsed(&step.path).into_owned();
            if matches!(step.outcome, StepOutcome::Found | StepOutcome::Failed) {
                let used =
                    failed || step.outcome == StepOutcome::Failed || matches!(part, Some(Part::Wins | Part::Merged));
                self.mark((path.clone(), key.to_string()), i, used);
            }
            reached.insert(path);
        }
        // The files holding the key that a first-found search stopped before.
        let key_value = Value::from(key);
        for (path, module, file) in read {
            if !reached.contains(path) && in_layer(key, module.as_deref()) && file.hash.get(&key_value).is_some() {
                self.mark((path.clone(), key.to_string()), i, failed);
            }
        }
    }

    /// Notes whether a value is part of node `i`'s answer.
    fn mark(&mut self, id: (String, String), i: usize, used: bool) {
        if used {
            self.shadowed.remove(&id);
            self.used.insert(id);
        } else if !self.used.contains(&id) {
            self.shadowed.entry(id).or_default().add(i);
        }
    }

    fn finish(self, hiera: &Hiera, nodes: &[Node], environment: &str, calls: &[ManifestCalls]) -> Review {
        let name = |i: &usize| nodes[*i].name.clone();
        let mut review = Review::default();
        let files = hiera.files();
        // Every data file under a datadir some level reads from.
        let mut data_files: Vec<(String, Option<String>)> = Vec::new();
        for (dir, module) in &self.datadirs {
            let prefix = format!("{}/", dir.trim_end_matches('/'));
            for path in files.paths().filter(|p| p.starts_with(&prefix)) {
                if function_for(path).is_some() && !path.ends_with("hiera.yaml") {
                    data_files.push((path.to_string(), module.clone()));
                }
            }
        }
        data_files.sort();
        data_files.dedup();
        for (path, _) in data_files.iter().filter(|(p, _)| !self.reads.contains_key(p)) {
            review.findings.push(Finding {
                kind: Kind::DeadFile,
                file: path.clone(),
                line: None,
                key: None,
                nodes: Vec::new(),
                message: format!("no node's hierarchy reads this file (of {} nodes)", nodes.len()),
            });
        }
        let mut lines: HashMap<&str, HashMap<String, usize>> = HashMap::default();
        for ((path, key), shadowed) in &self.shadowed {
            let readers = self.reads.get(path).map_or(0, |r| r.0.len());
            if self.used.contains(&(path.clone(), key.clone())) || shadowed.0.len() < readers {
                continue;
            }
            let Some(file) = data_file(hiera, path) else { continue };
            let lines = lines.entry(path).or_insert_with(|| key_lines(hiera, &file, path));
            review.findings.push(Finding {
                kind: Kind::Shadowed,
                file: path.clone(),
                line: lines.get(key).copied(),
                key: Some(key.clone()),
                nodes: shadowed.0.iter().map(name).collect(),
                message: format!(
                    "every node that reads this file ({}) gets `{key}` from a higher level: this value is never used",
                    shadowed.0.len()
                ),
            });
        }
        for ((file, line, key, message), failing) in &self.types {
            review.findings.push(Finding {
                kind: Kind::Type,
                file: file.clone(),
                line: *line,
                key: Some(key.clone()),
                nodes: failing.0.iter().map(name).collect(),
                message: message.clone(),
            });
        }
        self.legacy_in_levels(hiera, nodes, &mut review);
        let live: Vec<&(String, Option<String>)> =
            data_files.iter().filter(|(p, _)| self.reads.contains_key(p)).collect();
        legacy_in_data(hiera, &live, &mut review);
        unused_keys(hiera, environment, calls, &live, &mut review);
        review.findings.sort_by(|a, b| (&a.file, a.line, a.kind, &a.key).cmp(&(&b.file, b.line, b.kind, &b.key)));
        review
    }

    /// Paths that interpolate legacy facts, and the levels no node reads
    /// without them.
    fn legacy_in_levels(&self, hiera: &Hiera, nodes: &[Node], review: &mut Review) {
        for reach in &self.levels {
            let Some(config) = &reach.config else { continue };
            let Some(text) = hiera.files().read(config) else { continue };
            let lost = if !reach.with.0.is_empty() && reach.without.0.is_empty() {
                let n = reach.with.0.len();
                format!(
                    "; with Puppet 8's facts no node of the {} given reads a file of level \"{}\" ({n} {} with legacy facts)",
                    nodes.len(),
                    reach.level,
                    if n == 1 { "does" } else { "do" }
                )
            } else {
                String::new()
            };
            for original in &reach.originals {
                for (whole, fact, replacement) in legacy_tokens(original) {
                    review.findings.push(Finding {
                        kind: Kind::LegacyFact,
                        file: config.clone(),
                        line: text.lines().position(|l| l.contains(original.as_str())).map(|l| l + 1),
                        key: None,
                        nodes: Vec::new(),
                        message: format!(
                            "`{whole}` reads the legacy fact `{fact}`, which Puppet 8 does not give nodes: use `%{{facts.{replacement}}}`{lost}"
                        ),
                    });
                }
            }
        }
    }
}

/// The data file at `path`, as its backend reads it.
fn data_file(hiera: &Hiera, path: &str) -> Option<std::rc::Rc<DataFile>> {
    hiera.data_file(function_for(path)?, path).ok()
}

/// Whether Hiera reads `key` from a file of the module `module` (any key
/// outside the module layer).
fn in_layer(key: &str, module: Option<&str>) -> bool {
    key != "lookup_options" && module.is_none_or(|m| key.strip_prefix(m).is_some_and(|r| r.starts_with("::")))
}

/// Where the first value a lookup of `key` found is.
fn first_found(hiera: &Hiera, key: &str) -> Option<(String, Option<usize>)> {
    let step = found_steps(hiera, key).into_iter().next()?;
    Some((collapsed(&step.path).into_owned(), step.origin.map(|o| o.spans.at().line as usize)))
}

/// The line of each top-level key of a data file: the line its value
/// starts on, or the line above that names the key (a block value starts
/// under its key), looked for no higher than the value before it.
fn key_lines(hiera: &Hiera, file: &DataFile, path: &str) -> HashMap<String, usize> {
    let lines: Vec<&str> = hiera.files().read(path).unwrap_or_default().lines().collect();
    let mut out = HashMap::default();
    let mut floor = 1;
    for (i, key) in file.hash.keys().enumerate() {
        let key = key.to_ruby_s();
        let Some(value_line) = file.value_spans(i).first().map(|p| p.line as usize).filter(|l| *l > 0) else {
            continue;
        };
        let names = |l: &str| {
            let l = l.trim_start_matches(['"', '\'']);
            l.strip_prefix(key.as_str())
                .is_some_and(|r| r.trim_start_matches(['"', '\'']).trim_start().starts_with(':'))
        };
        let top = value_line.min(lines.len());
        let line = (floor.min(top)..=top).rev().find(|n| *n >= 1 && names(lines[n - 1])).unwrap_or(value_line);
        floor = value_line;
        out.insert(key, line);
    }
    out
}

/// The legacy facts an interpolated text reads: each token, the fact and
/// its structured replacement.
fn legacy_tokens(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for piece in pieces(text) {
        let Piece::Token { whole, expr } = piece else { continue };
        if method_call(expr).is_some() {
            continue;
        }
        let variable = expr.trim_start_matches("::");
        let fact = match variable.strip_prefix("facts.") {
            Some(path) => path.split('.').next().unwrap_or(path),
            None => variable.split('.').next().unwrap_or(variable),
        };
        if let Some(replacement) = legacy_replacement(fact) {
            out.push((whole.to_string(), fact.to_string(), replacement));
        }
    }
    out
}

/// Every string of a value, hash keys too.
fn strings<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Hash(h) => h.iter().for_each(|(k, v)| {
            strings(k, out);
            strings(v, out);
        }),
        _ => {}
    }
}

/// Data that interpolates legacy facts.
fn legacy_in_data(hiera: &Hiera, files: &[&(String, Option<String>)], review: &mut Review) {
    for (path, _) in files {
        let Some(file) = data_file(hiera, path) else { continue };
        let text = hiera.files().read(path).unwrap_or_default();
        let lines = key_lines(hiera, &file, path);
        for (key, value) in file.hash.iter() {
            let mut texts = Vec::new();
            strings(value, &mut texts);
            let key = key.to_ruby_s();
            let from = lines.get(&key).copied().unwrap_or(1);
            for (whole, fact, replacement) in texts.into_iter().flat_map(legacy_tokens) {
                let line =
                    text.lines().enumerate().skip(from - 1).find(|(_, l)| l.contains(&whole)).map(|(n, _)| n + 1);
                review.findings.push(Finding {
                    kind: Kind::LegacyFact,
                    file: path.clone(),
                    line: line.or(Some(from)),
                    key: Some(key.clone()),
                    nodes: Vec::new(),
                    message: format!(
                        "`{whole}` reads the legacy fact `{fact}`, which Puppet 8 does not give nodes: use `%{{facts.{replacement}}}`"
                    ),
                });
            }
        }
    }
}

/// The merges the manifests' calls ask for, by the key they name.
fn manifest_merges(calls: &[ManifestCalls]) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::default();
    for (_, calls) in calls {
        for call in calls.iter().flatten() {
            let Some(merge) = call.merge.clone().filter(|m| m != "first") else { continue };
            for key in call.keys.iter().filter_map(KeyText::literal) {
                let merges = out.entry(key.to_string()).or_default();
                if !merges.contains(&merge) {
                    merges.push(merge.clone());
                }
            }
        }
    }
    out
}

/// A manifest's path, and its calls that look keys up or why it cannot be read.
type ManifestCalls = (String, Result<Vec<LookupCall>, String>);

/// Every manifest of the environment (its own and its modules'), with its
/// calls that look keys up, or why it cannot be read.
fn manifest_calls(hiera: &Hiera, environment: &str) -> Vec<ManifestCalls> {
    let env = crate::case::environment_dir(environment);
    let mut dirs = vec![format!("{env}/")];
    dirs.extend(
        crate::modulepath(hiera.files(), environment)
            .unwrap_or_default()
            .iter()
            .map(|d| format!("{}/", d.trim_end_matches('/'))),
    );
    hiera
        .files()
        .paths()
        .filter(|p| p.ends_with(".pp") && dirs.iter().any(|d| p.starts_with(d.as_str())))
        .map(|p| {
            let calls = hiera.files().read(p).map(|t| lookup_calls(t).map_err(|e| e.message)).unwrap_or(Ok(Vec::new()));
            (p.to_string(), calls)
        })
        .collect()
}

/// The top-level key a call's key reads (`a` of `a.b`), as far as told.
fn root(key: &KeyText) -> KeyText {
    let mut pieces = Vec::new();
    for piece in &key.0 {
        match piece {
            Some(text) => match text.find('.') {
                Some(dot) => {
                    pieces.push(Some(text[..dot].to_string()));
                    return KeyText(pieces);
                }
                None => pieces.push(Some(text.clone())),
            },
            None => pieces.push(None),
        }
    }
    KeyText(pieces)
}

/// Keys that nothing reads.
fn unused_keys(
    hiera: &Hiera,
    environment: &str,
    calls: &[ManifestCalls],
    files: &[&(String, Option<String>)],
    review: &mut Review,
) {
    if calls.is_empty() {
        review.notes.push("unused keys are not checked: the environment has no manifests".into());
        return;
    }
    let mut read: Vec<KeyText> = Vec::new();
    let mut computed = Vec::new();
    let mut broken = Vec::new();
    for (path, result) in calls {
        match result {
            Ok(calls) => {
                for call in calls {
                    for key in &call.keys {
                        if key.literal().is_none() {
                            computed.push(format!("{}({}) at {path}:{}", call.function, key.pattern(), call.line));
                        }
                        read.push(root(key));
                    }
                }
            }
            Err(message) => broken.push(format!("{path} ({message})")),
        }
    }
    if !broken.is_empty() {
        review.notes.push(format!(
            "unused keys are not checked: these manifests do not parse, and may read any key: {}",
            broken.join(", ")
        ));
        return;
    }
    if read.iter().any(|k| k.0 == [None]) {
        review.notes.push(format!(
            "unused keys are not checked: a lookup whose key is computed could read any key: {}",
            computed.join(", ")
        ));
        return;
    }
    if !computed.is_empty() {
        review.notes.push(format!("keys a computed lookup could read are not called unused: {}", computed.join(", ")));
    }
    let defined = hiera.classes();
    let parameters: HashSet<String> = defined
        .iter()
        .flat_map(|c| c.header.params.iter().map(move |p| format!("{}::{}", c.header.name, p.name)))
        .collect();
    let classes: HashSet<&str> = defined.iter().map(|c| c.header.name.as_str()).collect();
    let modules: HashSet<String> = crate::modulepath(hiera.files(), environment)
        .unwrap_or_default()
        .iter()
        .flat_map(|dir| hiera.files().list(dir).into_iter().filter(|(_, d)| *d).map(|(m, _)| m))
        .collect();
    // What interpolations in the data look up.
    let mut in_data: HashSet<String> = HashSet::default();
    for (path, _) in files {
        let Some(file) = data_file(hiera, path) else { continue };
        let mut texts = Vec::new();
        for (key, value) in file.hash.iter() {
            strings(key, &mut texts);
            strings(value, &mut texts);
        }
        for text in texts {
            for piece in pieces(text) {
                if let Piece::Token { expr, .. } = piece {
                    if let Some((_, key)) =
                        method_call(expr).filter(|(f, _)| matches!(*f, "lookup" | "hiera" | "alias"))
                    {
                        in_data.insert(root(&KeyText(vec![Some(key.to_string())])).pattern());
                    }
                }
            }
        }
    }
    let mut missing_modules: Vec<String> = Vec::new();
    for (path, module) in files {
        let Some(file) = data_file(hiera, path) else { continue };
        let lines = key_lines(hiera, &file, path);
        for key in file.hash.keys().map(Value::to_ruby_s).filter(|k| k != "lookup_options") {
            let message = if let Some(m) = module.as_deref().filter(|m| !in_layer(&key, Some(m))) {
                format!(
                    "module {m}'s data: Hiera looks here only for keys that start with `{m}::`, so it never reads `{key}`"
                )
            } else if parameters.contains(&key) || in_data.contains(&key) || read.iter().any(|k| k.matches(&key)) {
                continue;
            } else if let Some((class, parameter)) = key.rsplit_once("::") {
                let module = class.split("::").next().unwrap_or(class);
                if !modules.contains(module) {
                    missing_modules.push(module.to_string());
                    continue;
                }
                if classes.contains(class) {
                    format!("class {class} has no parameter `{parameter}`, and no lookup in the manifests or data reads `{key}`")
                } else {
                    format!("no class {class} in module {module}, and no lookup in the manifests or data reads `{key}`")
                }
            } else {
                format!("no class parameter, lookup in the manifests or interpolation in the data reads `{key}`")
            };
            review.findings.push(Finding {
                kind: Kind::UnusedKey,
                file: path.clone(),
                line: lines.get(&key).copied(),
                key: Some(key),
                nodes: Vec::new(),
                message,
            });
        }
    }
    if !missing_modules.is_empty() {
        missing_modules.sort();
        missing_modules.dedup();
        let list = missing_modules;
        review
            .notes
            .push(format!("keys of modules that are not in the modulepath are not checked: {}", list.join(", ")));
    }
}
