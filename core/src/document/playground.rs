//! The engine as the page uses it: a document kept in step with a [`Hiera`]
//! that re-parses only what an edit touched, and every lookup's outcome in
//! the forms the page shows (JSON, YAML, Puppet's rendering, the explanation,
//! and where an error points).

use std::cell::RefCell;
use std::rc::Rc;

use crate::config::Layer;
use crate::document::case::{environment_dir, CaseLookup, Document, OtherNode, Text};
use crate::document::fleet::{Answer, Table};
use crate::error::{Error, ErrorKind};
use crate::explain::{Event, Explanation, NodeKind};
use crate::value::{Hash, Value};
use crate::{Hiera, Puppet};

/// A document with its engine.
pub struct Playground {
    doc: Document,
    hiera: Hiera,
    /// The engine of the other Puppet version, made when first asked how it
    /// answers, then kept in step with every edit: switching versions swaps
    /// the two.
    other: RefCell<Option<Hiera>>,
    /// [`Playground::data_keys`] until an edit changes some file's keys:
    /// most keystrokes change a value, and the list can be long.
    keys: RefCell<Option<Rc<Vec<String>>>>,
}

/// Where in the document something is: a file as the document names it.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    /// The file's path as the document writes it (relative or absolute).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
}

/// A problem in a file, for the editor to mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// What a lookup gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A value.
    Found(Rendered),
    /// No value: the error, and where it points if it names a file.
    Failed {
        /// Puppet's message.
        message: String,
        /// True when no key was found (rather than something being wrong).
        not_found: bool,
        /// The file (and line) the error is about.
        place: Option<Place>,
    },
}

impl Outcome {
    /// Whether two outcomes give the same answer: the same value (hash
    /// order included), or the same error.
    pub fn same_answer(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Found(a), Outcome::Found(b)) => a.json == b.json && a.rich == b.rich,
            (Outcome::Failed { message: a, .. }, Outcome::Failed { message: b, .. }) => a == b,
            _ => false,
        }
    }
}

/// A value in every form the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The value itself.
    pub value: Value,
    /// Compact JSON, hash keys in order (what `--render-as json` prints).
    pub json: String,
    /// YAML.
    pub yaml: String,
    /// Puppet's own rendering (`String()` of the value).
    pub puppet: String,
    /// For a value that is not plain data (Sensitive): Puppet's rendering.
    pub rich: Option<String>,
}

/// What the nodes' scopes hold beyond their facts ([`Playground::fleet_and_scopes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Scopes {
    /// The variables the hierarchy's paths used.
    pub used: Vec<Variable>,
    /// The variables `puppet lookup` adds to the facts.
    pub added: Vec<Variable>,
}

/// A variable (`%{facts.role}`) and its value for each node, where it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// The variable as interpolated, `%{...}` included.
    pub name: String,
    /// Its value per node, as a path shows it (Puppet's string of it).
    pub values: Vec<Option<String>>,
}

/// One lookup, evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The result.
    pub outcome: Outcome,
    /// The trace.
    pub explanation: Option<Explanation>,
    /// The steps of the search, with the merged value after each.
    pub steps: Vec<crate::document::steps::Step>,
    /// The `lookup_options` that applied, and whether a merge given with
    /// the lookup overrode them.
    pub options: Option<crate::lookup::AppliedOptions>,
    /// The traps the lookup fell into.
    pub warnings: Vec<crate::document::steps::Warning>,
    /// True when the lookup failed while reading `lookup_options`, before
    /// it searched for data: `steps` are then that search's.
    pub failed_in_options: bool,
    /// How the document's other Puppet version answers, when it answers
    /// otherwise (only from [`Playground::evaluate_in_both`]).
    pub other_puppet: Option<Outcome>,
    /// For a lookup with an expected answer (`expect:`, pinned or recorded
    /// from Puppet): whether this is it, or what differs (as
    /// [`crate::document::case::compare`] tells it, which `hiera-lookup conformance`
    /// runs).
    pub expectation: Option<Result<(), crate::document::case::Mismatch>>,
    /// Puppet prints no explanation for this failure.
    unexplained: bool,
}

impl Evaluation {
    /// The `puppet lookup --explain` text. Made on demand: it can be long,
    /// and only the lookup on show needs it.
    pub fn explain(&self) -> String {
        match &self.explanation {
            Some(ex) if !self.unexplained => ex.render(),
            _ => String::new(),
        }
    }
}

/// A key the node resolves: its value (or why it has none) and where it came from.
pub type ResolvedKey = (String, Result<Rendered, String>, Vec<Source>);

/// Where a value was found: a hierarchy level and its data file.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    /// The layer's provider (`Environment Data Provider (...)`).
    pub provider: String,
    /// The hierarchy level's name.
    pub level: String,
    /// The data file, as the document names it.
    pub file: String,
    /// The line of the value in it, when known.
    pub line: Option<usize>,
}

/// A class bound for the node, as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundClass {
    /// How `include` binds it.
    pub binding: crate::classes::Binding,
    /// The manifest that defines it, as the document names it.
    pub file: String,
    /// For each parameter, in order, where Hiera found its value (nothing
    /// for a default).
    pub sources: Vec<Vec<Source>>,
}

impl Playground {
    /// The engine for a document.
    pub fn new(doc: Document) -> Playground {
        let hiera = doc.hiera();
        Playground { doc, hiera, other: RefCell::default(), keys: RefCell::default() }
    }

    /// Answers as `puppet` does from now on.
    pub fn set_puppet(&mut self, puppet: Puppet) {
        if puppet == self.doc.puppet {
            return;
        }
        self.doc.puppet = puppet;
        match self.other.get_mut().take() {
            Some(other) => *self.other.get_mut() = Some(std::mem::replace(&mut self.hiera, other)),
            None => self.hiera.set_puppet(puppet),
        }
    }

    /// Decrypts eyaml's PKCS7 blocks with `pkcs7` from now on.
    pub fn set_pkcs7(&mut self, pkcs7: Rc<dyn crate::backends::eyaml::Pkcs7>) {
        self.engines(|h| h.set_pkcs7(Some(pkcs7.clone())));
    }

    /// Reads HOCON with `hocon` from now on.
    pub fn set_hocon(&mut self, hocon: Rc<dyn crate::formats::hocon::Reader>) {
        self.engines(|h| h.set_hocon(Some(hocon.clone())));
        // HOCON files' keys were not read without it.
        self.keys.take();
    }

    /// The document as edited so far.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The engine.
    pub fn hiera(&self) -> &Hiera {
        &self.hiera
    }

    /// The absolute path of a document path.
    pub fn absolute(&self, path: &str) -> String {
        if path.starts_with('/') {
            path.to_string()
        } else {
            format!("{}/{path}", environment_dir(&self.doc.environment))
        }
    }

    /// Adds or changes a file; only it is parsed again.
    pub fn set_file(&mut self, path: &str, text: &str) {
        match self.doc.files.iter_mut().find(|(p, _)| p == path) {
            Some((_, t)) => *t = text.into(),
            None => self.doc.files.push((path.to_string(), text.into())),
        }
        let abs = self.absolute(path);
        let before = self.keys.borrow().is_some().then(|| self.keys_fingerprint(path));
        self.engines(|h| h.set_file(&abs, text));
        if before.is_some_and(|b| b != self.keys_fingerprint(path)) {
            self.keys.take();
        }
    }

    /// Removes a file.
    pub fn remove_file(&mut self, path: &str) {
        self.doc.files.retain(|(p, _)| p != path);
        let abs = self.absolute(path);
        self.engines(|h| h.remove_file(&abs));
        self.keys.take();
    }

    /// Renames a file (or every file below a folder, when `from` ends in `/`).
    pub fn rename(&mut self, from: &str, to: &str) {
        let moved: Vec<(String, Text)> = self
            .doc
            .files
            .iter()
            .filter(|(p, _)| p == from || (from.ends_with('/') && p.starts_with(from)))
            .map(|(p, t)| (format!("{to}{}", &p[from.len()..]), t.clone()))
            .collect();
        let gone: Vec<String> = self
            .doc
            .files
            .iter()
            .map(|(p, _)| p.clone())
            .filter(|p| p == from || (from.ends_with('/') && p.starts_with(from)))
            .collect();
        for p in gone {
            self.remove_file(&p);
        }
        for (p, t) in moved {
            self.set_file(&p, &t);
        }
    }

    /// Changes the facts; parsed files are kept.
    pub fn set_facts(&mut self, facts: Hash) {
        self.doc.facts = facts;
        let node = self.doc.node();
        self.engines(|h| h.set_node(node.clone()));
    }

    /// Changes the node name (`None`: the clientcert fact, else localhost).
    pub fn set_node_name(&mut self, node: Option<String>) {
        self.doc.node = node;
        let node = self.doc.node();
        self.engines(|h| h.set_node(node.clone()));
    }

    /// Changes the environment, which moves every relative file.
    pub fn set_environment(&mut self, environment: &str) {
        self.doc.environment = environment.to_string();
        let (pkcs7, hocon) = (self.hiera.pkcs7(), self.hiera.hocon());
        self.hiera = self.doc.hiera();
        self.hiera.set_pkcs7(pkcs7);
        self.hiera.set_hocon(hocon);
        self.other.take();
        self.keys.take();
    }

    /// Applies a change to the engine and, when there is one, the other
    /// version's.
    fn engines(&mut self, mut change: impl FnMut(&mut Hiera)) {
        change(&mut self.hiera);
        if let Some(other) = self.other.get_mut() {
            change(other);
        }
    }

    /// Adds a node beside the document's own.
    pub fn add_node(&mut self, node: OtherNode) {
        self.doc.nodes.push(node);
    }

    /// Removes the `i`-th of [`Document::nodes`].
    pub fn remove_node(&mut self, i: usize) {
        if i < self.doc.nodes.len() {
            self.doc.nodes.remove(i);
        }
    }

    /// Makes the `i`-th of [`Document::nodes`] the document's own node, and
    /// its own node one of the others, in its place. A node of another
    /// environment cannot be: the document's relative files are in the
    /// document's environment (false then, and nothing changes).
    pub fn show_node(&mut self, i: usize) -> bool {
        let Some(other) = self.doc.nodes.get(i).cloned() else { return false };
        if other.environment.as_ref().is_some_and(|e| *e != self.doc.environment) {
            return false;
        }
        let shown = OtherNode { name: self.doc.node().name, environment: None, facts: self.doc.facts.clone() };
        self.doc.nodes[i] = shown;
        self.doc.node = Some(other.name);
        self.set_facts(other.facts);
        true
    }

    /// Every lookup's answer (a row, named by [`CaseLookup::label`]) for every node (a
    /// column: the document's own first, then [`Document::nodes`]).
    pub fn fleet(&mut self) -> Table {
        self.answer_every_node(false).0
    }

    /// [`Playground::fleet`], and for every node the variables the
    /// hierarchy's paths interpolated for the document's lookups and those
    /// `puppet lookup` adds to the facts ([`Hiera::added_facts`]), from the
    /// same lookups.
    pub fn fleet_and_scopes(&mut self) -> (Table, Scopes) {
        self.answer_every_node(true)
    }

    /// The lookups, node after node (the document's engine keeps the files
    /// it has read, and is the shown node's again after); with the
    /// variables their paths read when `scopes`.
    fn answer_every_node(&mut self, scopes: bool) -> (Table, Scopes) {
        let nodes = self.doc.all_nodes();
        let requests: Vec<_> = self.doc.lookups.iter().map(|l| l.request(false)).collect();
        let mut answers = vec![Vec::with_capacity(nodes.len()); requests.len()];
        let (mut used, mut added) = (Vec::new(), Vec::new());
        // A row of values per variable, in the order first met; a node that
        // did not use a variable has none.
        let put = |rows: &mut Vec<Variable>, column: usize, name: String, value: String| {
            let i = rows.iter().position(|v| v.name == name).unwrap_or_else(|| {
                rows.push(Variable { name, values: vec![None; nodes.len()] });
                rows.len() - 1
            });
            rows[i].values[column].get_or_insert(value);
        };
        for (column, node) in nodes.iter().enumerate() {
            self.hiera.set_node(node.clone());
            // One session per node, as one `puppet lookup` of its keys.
            let mut session = if scopes { self.hiera.tracing_session() } else { self.hiera.session() };
            for (row, request) in requests.iter().enumerate() {
                let result = match request {
                    Ok(r) => session.answer(r),
                    Err(e) => Err(e.clone()),
                };
                for t in session.take_path_tokens().into_iter().filter(|t| t.method == "scope") {
                    let value = if t.undefined { "(undefined)".to_string() } else { t.result };
                    put(&mut used, column, format!("%{{{}}}", t.expression), value);
                }
                answers[row].push(Answer::of(result));
            }
            drop(session);
            for (name, value) in self.hiera.added_facts().into_iter().filter(|_| scopes) {
                put(&mut added, column, format!("%{{{name}}}"), crate::puppet::convert::to_puppet_string(&value));
            }
        }
        self.hiera.set_node(self.doc.node());
        let table = Table {
            nodes: nodes.into_iter().map(|n| n.name).collect(),
            keys: self.doc.lookups.iter().map(CaseLookup::label).collect(),
            answers,
        };
        (table, Scopes { used, added })
    }

    /// A review of the document's data over all its nodes (see
    /// [`crate::review`]), the files named as the document names them; the
    /// engine is the shown node's again after.
    pub fn review(&mut self) -> crate::review::Review {
        let mut review = crate::review::review(&mut self.hiera, &self.doc.all_nodes());
        self.hiera.set_node(self.doc.node());
        for finding in &mut review.findings {
            finding.file = self.doc.relative(&finding.file);
        }
        review
    }

    /// Replaces the lookups.
    pub fn set_lookups(&mut self, lookups: Vec<CaseLookup>) {
        self.doc.lookups = lookups;
    }

    /// Pins the `i`-th lookup's answer as its expected one (`pin`), or
    /// forgets its expected answer.
    pub fn pin(&mut self, i: usize, pin: bool) {
        let expect = match (pin, self.doc.lookups.get(i).map(|l| l.request(false))) {
            (true, Some(Ok(request))) => Some(crate::document::case::outcome(&self.hiera.lookup(&request))),
            (true, Some(Err(e))) => Some(crate::document::case::Expect::Error(e.into_message())),
            _ => None,
        };
        if let Some(l) = self.doc.lookups.get_mut(i) {
            l.expect = expect;
        }
    }

    /// Evaluates a lookup; with `explain`, also its trace and explain text.
    pub fn evaluate(&self, lookup: &CaseLookup, explain: bool) -> Evaluation {
        let answer = match lookup.request(explain) {
            Ok(request) => self.hiera.lookup(&request),
            Err(e) => crate::Answer { result: Err(e), explanation: None, options: None },
        };
        let unexplained = answer.is_unexplained();
        let key = lookup.keys.first().map(String::as_str).unwrap_or("");
        let mut steps = answer.explanation.as_ref().map(crate::document::steps::merge_steps).unwrap_or_default();
        let warnings = crate::document::steps::warnings(&answer, key, &steps);
        let mut failed_in_options = false;
        if let (true, true, Some(ex)) = (steps.is_empty(), answer.result.is_err(), answer.explanation.as_ref()) {
            steps = crate::document::steps::options_steps(ex);
            failed_in_options = !steps.is_empty();
        }
        let options = answer.options.clone();
        let expectation = lookup.expect.as_ref().map(|_| crate::document::case::compare(lookup, &answer, false));
        let mut outcome = self.outcome(answer.result);
        // An interpolation or a decryption that failed names no file: the
        // place is the value that held it.
        if let Outcome::Failed { place: place @ None, .. } = &mut outcome {
            *place = steps.iter().filter(|s| s.error.is_some()).find_map(|s| {
                let origin = s.origin.as_ref()?;
                let at = origin.spans.at();
                Some(Place {
                    file: self.doc.relative(&origin.file),
                    line: Some(at.line as usize),
                    column: Some(at.column as usize),
                })
            });
        }
        Evaluation {
            outcome,
            explanation: answer.explanation,
            steps,
            options,
            warnings,
            failed_in_options,
            other_puppet: None,
            expectation,
            unexplained,
        }
    }

    /// [`Playground::evaluate`] with its trace, and how the other Puppet
    /// version answers where it answers otherwise.
    pub fn evaluate_in_both(&self, lookup: &CaseLookup) -> Evaluation {
        let mut evaluation = self.evaluate(lookup, true);
        let Ok(request) = lookup.request(false) else { return evaluation };
        let mut other = self.other.borrow_mut();
        let other = other.get_or_insert_with(|| {
            let mut hiera = self.doc.hiera().with_puppet(self.doc.puppet.other());
            hiera.set_pkcs7(self.hiera.pkcs7());
            hiera.set_hocon(self.hiera.hocon());
            hiera
        });
        let outcome = self.outcome(other.lookup(&request).result);
        if !outcome.same_answer(&evaluation.outcome) {
            evaluation.other_puppet = Some(outcome);
        }
        evaluation
    }

    fn outcome(&self, result: Result<Value, Error>) -> Outcome {
        match result {
            Ok(value) => match render(&value) {
                Ok(r) => Outcome::Found(r),
                Err(e) => Outcome::Failed { message: e.to_string(), not_found: false, place: None },
            },
            Err(e) => Outcome::Failed {
                not_found: e.kind == ErrorKind::NotFound,
                place: self.place(&e),
                message: e.into_message(),
            },
        }
    }

    fn place(&self, e: &Error) -> Option<Place> {
        let file = e.file.as_ref()?;
        Some(Place { file: self.doc.relative(file), line: e.line, column: e.column })
    }

    /// Syntax and validation problems of a file, for the editor to mark
    /// (from the engine's cache: only a changed file is read again).
    pub fn problems(&self, path: &str) -> Vec<Problem> {
        if !self.doc.files.iter().any(|(p, _)| p == path) {
            return Vec::new();
        }
        let abs = self.absolute(path);
        let problem =
            |e: Error| Problem { line: e.line.unwrap_or(1), column: e.column.unwrap_or(1), message: e.into_message() };
        let environment = &self.doc.environment;
        if crate::config::environment::is_conf(&abs) {
            return crate::modulepath(self.hiera.files(), environment).err().map(problem).into_iter().collect();
        }
        if abs.ends_with("/hiera.yaml") {
            let modulepath = crate::modulepath(self.hiera.files(), environment).unwrap_or_default();
            let base = crate::load::fs::parent(&crate::load::fs::parent(&abs));
            let layer = if modulepath.iter().any(|dir| dir.trim_end_matches('/') == base) {
                Layer::Module
            } else if abs.starts_with(&environment_dir(environment)) {
                Layer::Environment
            } else {
                Layer::Global
            };
            return match self.hiera.config(layer, &abs) {
                Err(e) => vec![problem(e)],
                Ok(config) => unknown_functions(&config),
            };
        }
        if abs.ends_with(".pp") {
            let text = self.hiera.files().read(&abs).unwrap_or_default();
            return crate::manifests::parse(text)
                .err()
                .map(|e| {
                    let (line, column) = e.at.unwrap_or((text.lines().count().max(1), 1));
                    Problem { line, column, message: e.message }
                })
                .into_iter()
                .collect();
        }
        match crate::backends::data::function_for(&abs) {
            Some(function) => self.hiera.data_file(function, &abs).err().map(problem).into_iter().collect(),
            None => Vec::new(),
        }
    }

    /// Every key in the document's data files (for completion), in file order.
    pub fn data_keys(&self) -> Rc<Vec<String>> {
        if let Some(keys) = self.keys.borrow().as_ref() {
            return keys.clone();
        }
        let mut keys = indexmap::IndexSet::<String, rustc_hash::FxBuildHasher>::default();
        for (path, _) in &self.doc.files {
            keys.extend(self.file_keys(path));
        }
        let keys = Rc::new(keys.into_iter().collect::<Vec<_>>());
        *self.keys.borrow_mut() = Some(keys.clone());
        keys
    }

    /// One of the document's data files (none if it is not one, or is broken).
    fn data_file(&self, path: &str) -> Option<Rc<crate::backends::data::DataFile>> {
        let function = crate::backends::data::function_for(path).filter(|_| !path.ends_with("hiera.yaml"))?;
        self.hiera.data_file(function, &self.absolute(path)).ok()
    }

    /// The keys of one of the document's data files.
    fn file_keys(&self, path: &str) -> Vec<String> {
        let Some(file) = self.data_file(path) else { return Vec::new() };
        file.hash.keys().map(Value::to_ruby_s).filter(|k| k != "lookup_options").collect()
    }

    /// A digest of a data file's keys in order, to tell whether an edit
    /// changed them without going through thousands of keys on every
    /// keystroke (a collision would only leave the completion list behind).
    fn keys_fingerprint(&self, path: &str) -> u64 {
        self.data_file(path).map_or(0, |f| f.keys_digest())
    }

    /// Every key the node resolves, with its value and where it came from.
    pub fn resolved_keys(&self) -> Vec<ResolvedKey> {
        self.hiera
            .keys()
            .into_iter()
            .filter_map(|key| {
                let request = crate::Request { keys: vec![key.clone()], explain: true, ..Default::default() };
                let answer = self.hiera.lookup(&request);
                let sources = answer.explanation.as_ref().map(|e| self.sources(e)).unwrap_or_default();
                match answer.result {
                    Ok(v) => Some((key, render(&v).map_err(|e| e.to_string()), sources)),
                    Err(e) if e.kind == ErrorKind::NotFound => None,
                    Err(e) => Some((key, Err(e.into_message()), sources)),
                }
            })
            .collect()
    }

    /// Every class the document's modules define, bound for the node as
    /// `include` binds it, with where each value from Hiera came from: for
    /// every parameter when `all_sources`, else only for those that fail
    /// their type (where an editor marks them; finding a value's source is
    /// an explained lookup).
    pub fn classes(&self, all_sources: bool) -> Vec<BoundClass> {
        let defined = self.hiera.classes();
        let bindings = self.hiera.bind_classes(defined.iter().map(|d| d.header.name.as_str()));
        defined
            .into_iter()
            .zip(bindings)
            .map(|(defined, binding)| {
                let sources = binding
                    .parameters
                    .iter()
                    .map(|p| {
                        if p.from != crate::classes::From::Hiera || !(all_sources || p.mismatch.is_some()) {
                            return Vec::new();
                        }
                        let key = format!("{}::{}", binding.class, p.name);
                        let request = crate::Request { keys: vec![key], explain: true, ..Default::default() };
                        self.hiera.lookup(&request).explanation.as_ref().map(|e| self.sources(e)).unwrap_or_default()
                    })
                    .collect();
                BoundClass { file: self.doc.relative(&defined.file), binding, sources }
            })
            .collect()
    }

    /// The data files (and levels) the values of a lookup came from, most
    /// specific first: every place the trace found the key, outside nested
    /// lookups and the search for `lookup_options`.
    pub fn sources(&self, ex: &Explanation) -> Vec<Source> {
        let mut out = Vec::new();
        let root = ex.node(Explanation::ROOT);
        for &top in &root.branches {
            if matches!(&ex.node(top).kind, NodeKind::Search { meta: false, .. }) {
                self.collect_sources(ex, top, "", "", &mut out);
            }
        }
        out
    }

    fn collect_sources(&self, ex: &Explanation, id: usize, provider: &str, level: &str, out: &mut Vec<Source>) {
        let node = ex.node(id);
        let (mut provider, mut level) = (provider.to_string(), level.to_string());
        match &node.kind {
            NodeKind::Interpolate(_) | NodeKind::Search { meta: true, .. } => return,
            NodeKind::Provider { name, config_path: Some(_) } => provider = name.clone(),
            NodeKind::Provider { name, config_path: None } if name.starts_with("Hierarchy entry") => {
                level = name.trim_start_matches("Hierarchy entry ").trim_matches('"').to_string()
            }
            NodeKind::Provider { name, .. } => provider = name.clone(),
            NodeKind::Location { path, .. } => {
                if matches!(node.event, Some(Event::Found { .. })) {
                    let line = node.origin.as_ref().map(|o| o.spans.at().line as usize);
                    let file = self.doc.relative(path);
                    out.push(Source { provider: provider.clone(), level: level.clone(), file, line });
                }
            }
            _ => {}
        }
        for &b in &node.branches {
            self.collect_sources(ex, b, &provider, &level, out);
        }
    }
}

/// The levels whose backend function Puppet would not find, marked where
/// their hiera.yaml names it, with the error every lookup through them gets.
fn unknown_functions(config: &crate::config::HieraConfig) -> Vec<Problem> {
    let levels = config.hierarchy.iter().chain(config.default_hierarchy.iter().flatten());
    levels
        .filter_map(|level| level.function.as_ref())
        .filter(|(kind, name)| !crate::backends::data::is_provided(kind, name))
        .map(|(kind, name)| {
            let line = config.find_line_matching(1, |l| l.contains(kind.key()) && l.contains(name.as_str()));
            Problem {
                line: line.unwrap_or(1),
                column: 1,
                message: format!("Unable to find '{}' function named '{name}'", kind.key()),
            }
        })
        .collect()
}

/// A value in the page's forms; a value JSON cannot hold (a non-finite
/// float) fails as `--render-as json` fails.
pub fn render(value: &Value) -> Result<Rendered, crate::formats::json::NotJson> {
    let json = value.to_json()?;
    let rich = crate::case::rich_rendering(value);
    Ok(Rendered {
        value: value.clone(),
        json,
        yaml: crate::formats::yaml::to_yaml(value),
        puppet: crate::puppet::convert::to_puppet_string(value),
        rich,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "facts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Role\n        path: \"roles/%{facts.role}.yaml\"\n      - name: Common\n        path: common.yaml\n  data/roles/web.yaml: |\n    app::port: 8080\n  data/common.yaml: |\n    app::port: 80\n    app::name: demo\nlookups:\n  - key: app::port\n";

    #[test]
    fn a_level_whose_backend_puppet_would_not_find_is_marked_where_it_is_named() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        assert_eq!(p.problems("hiera.yaml"), []);
        let config = "version: 5\nhierarchy:\n  - name: Vault\n    data_hash: vault_hiera_hash\n    path: common.yaml\n  - name: Secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n  - name: Conf\n    data_hash: hocon_data\n    path: common.conf\n";
        p.set_file("hiera.yaml", config);
        let problems = p.problems("hiera.yaml");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(
            (problems[0].line, problems[0].message.as_str()),
            (4, "Unable to find 'data_hash' function named 'vault_hiera_hash'")
        );
    }

    #[test]
    fn a_module_s_hiera_yaml_is_checked_as_a_module_s_where_the_modulepath_puts_it() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        let module_only = "version: 5\ndefault_hierarchy:\n  - name: Defaults\n    path: defaults.yaml\n";
        p.set_file("site/profiles/hiera.yaml", module_only);
        assert_eq!(p.problems("site/profiles/hiera.yaml").len(), 1, "site/ is not on the default modulepath");
        p.set_file("environment.conf", "# r10k\nmodulepath = site:modules:$basemodulepath\n");
        assert_eq!(p.problems("environment.conf"), []);
        assert_eq!(p.problems("site/profiles/hiera.yaml"), []);
        p.set_file("environment.conf", "modulepath = site\nnot a setting\n");
        let problems = p.problems("environment.conf");
        assert_eq!(problems.len(), 1, "{problems:?}");
        let message = "Could not match line not a setting (file: /etc/puppetlabs/code/environments/production/environment.conf, line: 2)";
        assert_eq!((problems[0].line, problems[0].message.as_str()), (2, message));
    }

    #[test]
    fn edits_change_results_and_sources_point_at_files() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        let l = p.document().lookups[0].clone();
        let e = p.evaluate(&l, true);
        let Outcome::Found(r) = &e.outcome else { panic!("{e:?}") };
        assert_eq!(r.json, "8080");
        let sources = p.sources(e.explanation.as_ref().unwrap());
        assert_eq!(sources[0].file, "data/roles/web.yaml");
        assert_eq!(sources[0].level, "Role");
        p.set_file("data/roles/web.yaml", "app::port: [8081\n");
        let e = p.evaluate(&l, true);
        let Outcome::Failed { place: Some(place), .. } = &e.outcome else { panic!("{e:?}") };
        assert_eq!(place.file, "data/roles/web.yaml");
        assert_eq!(p.problems("data/roles/web.yaml").len(), 1);
        assert_eq!(*p.data_keys(), vec!["app::port", "app::name"]);
    }

    #[test]
    fn a_pinned_answer_is_checked_from_then_on_and_written_with_the_document() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        let l = p.document().lookups[0].clone();
        assert_eq!(p.evaluate(&l, false).expectation, None);
        p.pin(0, true);
        let l = p.document().lookups[0].clone();
        assert_eq!(p.evaluate(&l, false).expectation, Some(Ok(())));
        let written = Document::from_yaml(&p.document().to_yaml()).unwrap();
        assert_eq!(written.lookups[0].expect, l.expect);
        assert!(written.check(false).iter().all(Result::is_ok));
        p.set_file("data/roles/web.yaml", "app::port: 9\n");
        let Some(Err(diff)) = p.evaluate(&l, false).expectation else { panic!("the pin is no longer met") };
        assert_eq!(diff.to_string(), "expected value 8080, got value 9");
        p.pin(0, false);
        assert_eq!(p.document().lookups[0].expect, None);
    }

    #[test]
    fn each_row_tells_how_the_other_puppet_answers_and_switching_swaps_them() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        assert_eq!(p.document().puppet, Puppet::V7);
        let l = p.document().lookups[0].clone();
        assert_eq!(p.evaluate_in_both(&l).other_puppet, None, "both answer 8080");
        // An undefined variable: empty in 7, an error in 8. Edits reach both engines.
        p.set_file("data/roles/web.yaml", "app::port: '%{::no_such}8080'\n");
        let seven = p.evaluate_in_both(&l);
        let Outcome::Found(r) = &seven.outcome else { panic!("{seven:?}") };
        assert_eq!(r.json, "\"8080\"");
        let Some(Outcome::Failed { message, .. }) = &seven.other_puppet else { panic!("{seven:?}") };
        assert_eq!(message, "Undefined variable '::no_such'; ");
        p.set_puppet(Puppet::V8);
        assert_eq!(p.hiera().puppet(), Puppet::V8);
        let eight = p.evaluate_in_both(&l);
        assert!(matches!(eight.outcome, Outcome::Failed { .. }), "{eight:?}");
        assert_eq!(eight.other_puppet, Some(seven.outcome.clone()));
        p.set_facts(Hash::default());
        p.set_file("data/common.yaml", "app::port: '%{::no_such}81'\n");
        let Some(Outcome::Found(r)) = p.evaluate_in_both(&l).other_puppet else { panic!() };
        assert_eq!(r.json, "\"81\"", "the other engine saw the facts and the file change");
        assert!(p.document().to_yaml().starts_with("puppet: 8\n"));
    }

    #[test]
    fn the_key_list_is_made_again_only_when_some_file_keys_change() {
        let mut p = Playground::new(Document::from_yaml(DOC).unwrap());
        let keys = p.data_keys();
        p.set_file("data/common.yaml", "app::port: 81\napp::name: demo\n");
        assert!(Rc::ptr_eq(&keys, &p.data_keys()), "a changed value keeps the list");
        p.set_file("data/common.yaml", "app::port: 81\napp::title: demo\n");
        assert_eq!(*p.data_keys(), vec!["app::port", "app::title"]);
        p.set_file("data/nodes/a.yaml", "app::node: 1\n");
        assert_eq!(*p.data_keys(), vec!["app::port", "app::title", "app::node"]);
        p.remove_file("data/roles/web.yaml");
        p.remove_file("data/nodes/a.yaml");
        assert_eq!(*p.data_keys(), vec!["app::port", "app::title"]);
        p.set_file("data/common.yaml", "app::port: [\n");
        assert!(p.data_keys().is_empty(), "a broken file offers no keys");
    }
}
