//! The document: a small Puppet installation, a node and its lookups, in the
//! conformance case format (FORMAT.md). Examples, saved work, shared links
//! and conformance cases are all documents.

use crate::config::scope::Node;
use crate::config::settings::Puppet;
use crate::error::Error;
use crate::formats::yaml;
use crate::load::fs::Files;
use crate::lookup::{Answer, Request};
use crate::merge::MergeOptions;
use crate::value::{Hash, Str, Value};

/// A file's text in a [`Document`].
pub type Text = std::sync::Arc<str>;

/// Where relative paths of a document live.
pub fn environment_dir(environment: &str) -> String {
    format!("/etc/puppetlabs/code/environments/{environment}")
}

/// A lookup of a document, with what Puppet returned if it was recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseLookup {
    /// The keys (one, or several where the first found wins).
    pub keys: Vec<String>,
    /// True when the document gave a list of keys.
    pub key_is_list: bool,
    /// `merge`: a strategy name or a hash with `strategy` and deep options.
    pub merge: Option<Value>,
    /// `default`.
    pub default: Option<Value>,
    /// `type`.
    pub value_type: Option<String>,
    /// What Puppet returned, when recorded.
    pub expect: Option<Expect>,
    /// The recorded `puppet lookup --explain` text.
    pub explain: Option<String>,
}

/// What real Puppet returned for a lookup.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// A plain value.
    Value(Value),
    /// A rich value: Puppet's `String()` of it and its type.
    Rendered {
        /// E.g. `Sensitive [value redacted]`.
        rendered: String,
        /// E.g. `Sensitive[String]`.
        type_name: String,
    },
    /// The lookup failed with this message.
    Error(String),
}

/// A class compiled with `include` for the document's node, with what
/// Puppet bound if it was recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseClass {
    /// The class as `include` names it.
    pub class: String,
    /// What Puppet bound, when recorded.
    pub expect: Option<ClassExpect>,
}

/// What real Puppet bound for a class.
#[derive(Clone, Debug, PartialEq)]
pub enum ClassExpect {
    /// Every parameter, in declaration order, as a lookup's value is recorded.
    Parameters(Vec<(String, Expect)>),
    /// The compile failed with this message.
    Error(String),
}

/// A node looked up beside a document's own (`nodes:`), with the document's
/// files and lookups: the fleet view compares their answers.
#[derive(Clone, Debug, PartialEq)]
pub struct OtherNode {
    /// Its name (`trusted.certname`).
    pub name: String,
    /// Its environment, when it is not the document's: the document's
    /// relative files are in the document's environment, so this one's
    /// are those given by their full path
    /// (`/etc/puppetlabs/code/environments/NAME/...`).
    pub environment: Option<String>,
    /// Its facts.
    pub facts: Hash,
}

/// A document in the case format.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// What the document shows.
    pub description: Option<String>,
    /// The Puppet whose answers it shows (absent in the text: Puppet 7, as
    /// documents were before Puppet 8 was).
    pub puppet: Puppet,
    /// The environment (default `production`).
    pub environment: String,
    /// The node name, if given.
    pub node: Option<String>,
    /// The facts.
    pub facts: Hash,
    /// Path (relative to the environment, or absolute) → text, in order.
    /// Texts are shared: a copy of a document (the page keeps one in each
    /// state) costs no copy of its files.
    pub files: Vec<(String, Text)>,
    /// The lookups.
    pub lookups: Vec<CaseLookup>,
    /// More nodes (none in a conformance case).
    pub nodes: Vec<OtherNode>,
    /// Classes compiled for the node.
    pub classes: Vec<CaseClass>,
}

impl Document {
    /// Reads a document; a malformed one is an error naming what is wrong.
    pub fn from_yaml(text: &str) -> Result<Document, Error> {
        let loaded = yaml::load(text).map_err(|e| {
            let at = e.at;
            Error::lookup(format!("document: {}", e.message)).at(
                "document",
                at.map(|a| a.line as usize),
                at.map(|a| a.column as usize),
            )
        })?;
        let Some((Value::Hash(top), _)) = loaded else {
            return Err(Error::lookup("document: expected a mapping with 'files' and 'lookups'"));
        };
        let get = |k: &str| top.get(&Str(k));
        let string = |k: &str| get(k).filter(|v| !matches!(v, Value::Undef)).map(Value::to_ruby_s);
        let facts = match get("facts") {
            None | Some(Value::Undef) => Hash::default(),
            Some(Value::Hash(h)) => h.clone(),
            Some(_) => return Err(Error::lookup("document: 'facts' must be a mapping")),
        };
        let files = match get("files") {
            None | Some(Value::Undef) => Vec::new(),
            Some(Value::Hash(h)) => h.iter().map(|(k, v)| (k.to_ruby_s(), v.to_ruby_s().into())).collect(),
            Some(_) => return Err(Error::lookup("document: 'files' must be a mapping of path to text")),
        };
        let puppet = match get("puppet") {
            None | Some(Value::Undef) => Puppet::V7,
            Some(Value::Integer(n)) => n
                .to_i128()
                .and_then(Puppet::from_major)
                .ok_or_else(|| Error::lookup("document: 'puppet' must be 7 or 8"))?,
            Some(_) => return Err(Error::lookup("document: 'puppet' must be 7 or 8")),
        };
        let lookups = match get("lookups") {
            None | Some(Value::Undef) => Vec::new(),
            Some(Value::Array(a)) => a.iter().map(CaseLookup::from_value).collect::<Result<_, _>>()?,
            Some(_) => return Err(Error::lookup("document: 'lookups' must be a list")),
        };
        let classes = match get("classes") {
            None | Some(Value::Undef) => Vec::new(),
            Some(Value::Array(a)) => a.iter().map(CaseClass::from_value).collect::<Result<_, _>>()?,
            Some(_) => return Err(Error::lookup("document: 'classes' must be a list")),
        };
        let nodes = match get("nodes") {
            None | Some(Value::Undef) => Vec::new(),
            Some(Value::Array(a)) => a.iter().map(OtherNode::from_value).collect::<Result<_, _>>()?,
            Some(_) => return Err(Error::lookup("document: 'nodes' must be a list")),
        };
        Ok(Document {
            description: string("description"),
            puppet,
            environment: string("environment").unwrap_or_else(|| "production".into()),
            node: string("node"),
            facts,
            files,
            lookups,
            nodes,
            classes,
        })
    }

    /// The files with absolute paths, relative ones placed in the environment.
    pub fn files(&self) -> Files {
        let env = environment_dir(&self.environment);
        let mut files = Files::new();
        for (path, text) in &self.files {
            let abs = if path.starts_with('/') { path.clone() } else { format!("{env}/{path}") };
            files.insert(abs, text.to_string());
        }
        files
    }

    /// The node: `node`, else the `clientcert` fact, else `localhost`.
    pub fn node(&self) -> Node {
        let name = self
            .node
            .clone()
            .or_else(|| self.facts.get(&Str("clientcert")).map(Value::to_ruby_s))
            .unwrap_or_else(|| "localhost".into());
        Node { name, environment: self.environment.clone(), facts: self.facts.clone() }
    }

    /// `name` (empty: "node"), or, when the document has a node of that
    /// name, a name made from it with a number on its host part
    /// (`web01-2.example.com` keeps its domain): nodes are told apart by name.
    pub fn free_node_name(&self, name: &str) -> String {
        let base = if name.trim().is_empty() { "node" } else { name.trim() };
        let taken: Vec<String> = self.all_nodes().into_iter().map(|n| n.name).collect();
        let (host, domain) = base.split_once('.').map_or((base, String::new()), |(h, d)| (h, format!(".{d}")));
        std::iter::once(base.to_string())
            .chain((2..).map(|i| format!("{host}-{i}{domain}")))
            .find(|n| !taken.contains(n))
            .unwrap_or_default()
    }

    /// Every node the document holds: its own first, then [`Document::nodes`].
    pub fn all_nodes(&self) -> Vec<Node> {
        let others = self.nodes.iter().map(|n| Node {
            name: n.name.clone(),
            environment: n.environment.clone().unwrap_or_else(|| self.environment.clone()),
            facts: n.facts.clone(),
        });
        std::iter::once(self.node()).chain(others).collect()
    }

    /// The installation to look things up in, as the document's Puppet does.
    pub fn hiera(&self) -> crate::Hiera {
        crate::Hiera::new(self.files(), self.node()).with_puppet(self.puppet)
    }
}

impl OtherNode {
    /// A node beside the document's own. An environment must be named as
    /// Puppet names one (lower-case letters, digits and `_`), which also
    /// keeps it one directory.
    pub fn new(name: String, environment: Option<String>, facts: Hash) -> Result<OtherNode, Error> {
        let valid =
            |e: &str| !e.is_empty() && e.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if let Some(e) = environment.as_deref().filter(|e| !valid(e)) {
            return Err(Error::lookup(format!(
                "node {name} has an invalid environment '{e}': an environment's name is lower-case letters, digits and _"
            )));
        }
        Ok(OtherNode { name, environment, facts })
    }

    fn from_value(v: &Value) -> Result<OtherNode, Error> {
        let refused = || Error::lookup("document: each of 'nodes' must be a mapping with 'node' and 'facts'");
        let Value::Hash(h) = v else { return Err(refused()) };
        let name = match h.get(&Str("node")) {
            Some(Value::Undef) | None => return Err(refused()),
            Some(n) => n.to_ruby_s(),
        };
        let facts = match h.get(&Str("facts")) {
            None | Some(Value::Undef) => Hash::default(),
            Some(Value::Hash(f)) => f.clone(),
            Some(_) => return Err(Error::lookup(format!("document: the facts of node {name} must be a mapping"))),
        };
        let environment = match h.get(&Str("environment")) {
            None | Some(Value::Undef) => None,
            Some(Value::String(e)) => Some(e.to_string()),
            Some(e) => {
                return Err(Error::lookup(format!("document: node {name} has an invalid environment {}", e.inspect())))
            }
        };
        OtherNode::new(name, environment, facts).map_err(|e| Error::lookup(format!("document: {}", e.into_message())))
    }
}

impl CaseClass {
    fn from_value(v: &Value) -> Result<CaseClass, Error> {
        let refused = || Error::lookup("document: each of 'classes' must be a mapping with 'class'");
        let Value::Hash(h) = v else { return Err(refused()) };
        let class = match h.get(&Str("class")) {
            Some(Value::String(c)) => c.to_string(),
            _ => return Err(refused()),
        };
        let expect = match h.get(&Str("expect")) {
            Some(Value::Hash(e)) => match (e.get(&Str("error")), e.get(&Str("parameters"))) {
                (Some(err), _) => Some(ClassExpect::Error(err.to_ruby_s())),
                (None, Some(Value::Hash(params))) => {
                    let rendered: Vec<String> = match e.get(&Str("rendered")) {
                        Some(Value::Array(names)) => names.iter().map(Value::to_ruby_s).collect(),
                        _ => Vec::new(),
                    };
                    let params = params.iter().map(|(name, value)| {
                        let name = name.to_ruby_s();
                        let expect = match value {
                            Value::Hash(r) if rendered.contains(&name) => Expect::Rendered {
                                rendered: r.get(&Str("value_rendered")).map(Value::to_ruby_s).unwrap_or_default(),
                                type_name: r.get(&Str("type")).map(Value::to_ruby_s).unwrap_or_default(),
                            },
                            v => Expect::Value(v.clone()),
                        };
                        (name, expect)
                    });
                    Some(ClassExpect::Parameters(params.collect()))
                }
                _ => None,
            },
            _ => None,
        };
        Ok(CaseClass { class, expect })
    }

    /// How the class as bound differs from what Puppet bound; `exact` also
    /// compares error texts. Parameters whose defaults only Puppet
    /// evaluates are not compared.
    pub fn compare(&self, bound: &crate::classes::Binding, exact: bool) -> Result<(), Mismatch> {
        use crate::classes::Bound;
        let Some(expected) = &self.expect else { return Ok(()) };
        let differs = |m: String| Err(Mismatch(m));
        match (expected, &bound.error) {
            (ClassExpect::Error(e), Some(g)) if exact && mask_addresses(e) != mask_addresses(g) => {
                differs(format!("error text differs:\n  puppet: {e}\n  engine: {g}"))
            }
            (ClassExpect::Error(_), Some(_)) => Ok(()),
            (ClassExpect::Error(e), None) => differs(format!("expected error \"{e}\", got parameters")),
            (ClassExpect::Parameters(_), Some(g)) => differs(format!("expected parameters, got error \"{g}\"")),
            (ClassExpect::Parameters(expected), None) => {
                let names: Vec<&str> = bound.parameters.iter().map(|p| p.name.as_str()).collect();
                let want: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
                if names != want {
                    return differs(format!("expected parameters {want:?}, got {names:?}"));
                }
                for ((name, e), p) in expected.iter().zip(&bound.parameters) {
                    let got = match &p.value {
                        Bound::Value(v) => value_outcome(v),
                        Bound::Missing => Expect::Value(Value::Undef),
                        Bound::Unevaluated(_) => continue,
                    };
                    let equal = match (e, &got) {
                        (Expect::Value(a), Expect::Value(b)) => same(a, b),
                        (a, b) => a == b,
                    };
                    if !equal {
                        return differs(format!("parameter {name}: expected {}, got {}", describe(e), describe(&got)));
                    }
                }
                Ok(())
            }
        }
    }
}

impl CaseLookup {
    pub(crate) fn from_value(v: &Value) -> Result<CaseLookup, Error> {
        let Value::Hash(h) = v else { return Err(Error::lookup("document: each lookup must be a mapping with 'key'")) };
        let get = |k: &str| h.get(&Str(k));
        let (keys, key_is_list) = match get("key") {
            Some(Value::Array(a)) => (a.iter().map(Value::to_ruby_s).collect(), true),
            Some(Value::Undef) | None => return Err(Error::lookup("document: a lookup has no 'key'")),
            Some(k) => (vec![k.to_ruby_s()], false),
        };
        let expect = match get("expect") {
            Some(Value::Hash(e)) => {
                let eg = |k: &str| e.get(&Str(k));
                if let Some(err) = eg("error") {
                    Some(Expect::Error(err.to_ruby_s()))
                } else if let Some(r) = eg("value_rendered") {
                    Some(Expect::Rendered {
                        rendered: r.to_ruby_s(),
                        type_name: eg("type").map(Value::to_ruby_s).unwrap_or_default(),
                    })
                } else {
                    eg("value").map(|v| Expect::Value(v.clone()))
                }
            }
            _ => None,
        };
        Ok(CaseLookup {
            keys,
            key_is_list,
            merge: get("merge").cloned().filter(|m| !matches!(m, Value::Undef)),
            default: get("default").cloned(),
            value_type: get("type").map(Value::to_ruby_s),
            expect,
            explain: get("explain").map(Value::to_ruby_s),
        })
    }

    /// The request `puppet lookup` would make for this lookup, with the merge
    /// options it passes: `--merge deep` always carries both array flags.
    pub fn request(&self, explain: bool) -> Result<Request, Error> {
        Ok(Request {
            keys: self.keys.clone(),
            merge: self.merge_options().request()?,
            default: self.default.clone(),
            value_type: self.value_type.clone(),
            explain,
        })
    }

    /// The key as written: the key, or the list as JSON.
    pub fn key_label(&self) -> String {
        if self.key_is_list {
            let keys: Vec<Value> = self.keys.iter().map(|k| Value::String(k.clone())).collect();
            Value::Array(keys.into()).to_json().unwrap_or_default()
        } else {
            self.keys.first().cloned().unwrap_or_default()
        }
    }
}

impl CaseLookup {
    /// This lookup's options and keys on `puppet lookup`'s command line,
    /// quoted for a POSIX shell (`--merge deep --knock-out-prefix '--' 'k'`).
    pub fn puppet_args(&self) -> String {
        let mut args = self.options();
        args.extend(self.keys.iter().map(|k| shell(k)));
        args.join(" ")
    }

    /// The key as written, then the options `puppet lookup` is given
    /// (`ntp::servers --merge unique`): what tells two lookups apart.
    pub fn label(&self) -> String {
        std::iter::once(self.key_label()).chain(self.options()).collect::<Vec<_>>().join(" ")
    }

    /// The merge options of `merge:`.
    pub fn merge_options(&self) -> MergeOptions {
        MergeOptions::from_value(self.merge.as_ref())
    }

    /// `puppet lookup`'s options for this lookup, shell-quoted.
    fn options(&self) -> Vec<String> {
        let mut args = self.merge_options().args(shell);
        if let Some(d) = &self.default {
            args.push(format!("--default {}", shell(&d.to_ruby_s())));
        }
        if let Some(t) = &self.value_type {
            args.push(format!("--type {}", shell(t)));
        }
        args
    }
}

/// `s` quoted for a POSIX shell.
pub fn shell(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The outcome of a lookup as the oracle records it: a value (which must
/// also render as JSON), a rich value, or an error message.
pub fn outcome(answer: &Answer) -> Expect {
    match &answer.result {
        Err(e) => Expect::Error(e.message.clone()),
        Ok(v) => value_outcome(v),
    }
}

/// A value as the oracle records it: plain data, or a rich value's
/// rendering and type.
pub fn value_outcome(v: &Value) -> Expect {
    match (v.to_json(), rich_rendering(v)) {
        (Err(e), _) => Expect::Error(e.to_string()),
        (Ok(_), Some(rendered)) => Expect::Rendered { rendered, type_name: crate::puppet::types::generalized(v) },
        (Ok(_), None) => Expect::Value(v.clone()),
    }
}

/// How Puppet prints a value that is not plain data: a `Sensitive` as
/// redacted, a binary string (YAML's `!!binary`) as its text.
pub fn rich_rendering(v: &Value) -> Option<String> {
    match v {
        Value::Sensitive(_) => Some("Sensitive [value redacted]".into()),
        Value::Binary(b) => Some(String::from_utf8_lossy(b).into_owned()),
        _ => None,
    }
}

/// How an answer differs from the expected one, in words (`expected value
/// 8080, got value 9090`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch(pub String);

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Mismatch {}

/// Compares an answer with Puppet's recorded one. By default a lookup
/// passes when the value matches (hash order included) or both failed;
/// `exact` also requires the same error and explain texts. Says what
/// differed.
pub fn compare(lookup: &CaseLookup, answer: &Answer, exact: bool) -> Result<(), Mismatch> {
    differences(lookup, answer, exact).map_err(Mismatch)
}

fn differences(lookup: &CaseLookup, answer: &Answer, exact: bool) -> Result<(), String> {
    let Some(expected) = &lookup.expect else { return Ok(()) };
    let got = outcome(answer);
    match (expected, &got) {
        (Expect::Value(e), Expect::Value(g)) if same(e, g) => {}
        (Expect::Rendered { rendered: er, type_name: et }, Expect::Rendered { rendered: gr, type_name: gt })
            if er == gr && et == gt => {}
        (Expect::Error(e), Expect::Error(g)) => {
            // A Ruby error that prints an object (`#<Hocon::Impl::SimpleIncluder:0x...>`)
            // prints its address, which differs from run to run.
            if exact && mask_addresses(e) != mask_addresses(g) {
                return Err(format!("error text differs:\n  puppet: {e}\n  engine: {g}"));
            }
        }
        (e, g) => return Err(format!("expected {}, got {}", describe(e), describe(g))),
    }
    if exact {
        if let Some(expected) = &lookup.explain {
            let text = answer.explain_text();
            let (expected, text) = (mask_addresses(expected), mask_addresses(&text));
            if expected != text {
                return Err(format!("explain differs:\n{}", first_difference(&expected, &text)));
            }
        }
    }
    Ok(())
}

/// An expectation as the case format writes it.
fn expect_hash(e: &Expect) -> Hash {
    let mut h = Hash::default();
    match e {
        Expect::Value(v) => h.insert("value".into(), v.clone()),
        Expect::Rendered { rendered, type_name } => {
            h.insert("value_rendered".into(), Value::String(rendered.clone()));
            h.insert("type".into(), Value::String(type_name.clone()))
        }
        Expect::Error(m) => h.insert("error".into(), Value::String(m.clone())),
    };
    h
}

/// A class's expectation as the case format writes it.
fn class_expect_hash(e: &ClassExpect) -> Hash {
    let mut h = Hash::default();
    match e {
        ClassExpect::Error(m) => {
            h.insert("error".into(), Value::String(m.clone()));
        }
        ClassExpect::Parameters(params) => {
            let mut rendered = Vec::new();
            let values = params.iter().map(|(name, e)| {
                let value = match e {
                    Expect::Value(v) => v.clone(),
                    Expect::Rendered { .. } => {
                        rendered.push(Value::String(name.clone()));
                        Value::Hash(expect_hash(e))
                    }
                    Expect::Error(m) => Value::String(m.clone()),
                };
                (Value::String(name.clone()), value)
            });
            h.insert("parameters".into(), Value::Hash(values.collect()));
            if !rendered.is_empty() {
                h.insert("rendered".into(), Value::Array(rendered.into()));
            }
        }
    }
    h
}

/// What an expectation holds, in words (`value [1, 2]`).
pub fn describe(e: &Expect) -> String {
    match e {
        Expect::Value(v) => format!("value {}", v.inspect()),
        Expect::Rendered { rendered, type_name } => format!("{type_name} {rendered}"),
        Expect::Error(m) => format!("error \"{m}\""),
    }
}

/// Deep equality with hash order significant.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        (a, b) => a == b,
    }
}

/// Ruby object addresses (`0x` and 16 hex digits) differ from run to run.
fn mask_addresses(s: &str) -> String {
    let re = regex_lite::Regex::new("0x[0-9a-f]{16}").expect("a valid pattern");
    re.replace_all(s, "0x################").into_owned()
}

fn first_difference(expected: &str, got: &str) -> String {
    let (e, g): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    for i in 0..e.len().max(g.len()) {
        if e.get(i) != g.get(i) {
            return format!(
                "  line {}:\n  puppet: {}\n  engine: {}",
                i + 1,
                e.get(i).unwrap_or(&"<end>"),
                g.get(i).unwrap_or(&"<end>")
            );
        }
    }
    "  (trailing newline)".into()
}

impl Document {
    /// A document to start from: a version 5 hiera.yaml with one level,
    /// `common.yaml`, which is there and empty, answered as Puppet 8.
    pub fn blank() -> Document {
        let config = "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: Common\n    path: common.yaml\n";
        Document {
            description: None,
            puppet: Puppet::V8,
            environment: "production".into(),
            node: None,
            facts: Hash::default(),
            files: vec![("hiera.yaml".into(), config.into()), ("data/common.yaml".into(), "".into())],
            lookups: Vec::new(),
            nodes: Vec::new(),
            classes: Vec::new(),
        }
    }

    /// Writes the document in the case format, with each lookup's expected
    /// answer (a pinned value makes the document a test) but without the
    /// recorded explanations, which only the oracle writes.
    pub fn to_yaml(&self) -> String {
        self.written(true)
    }

    /// The document in the case format without its `files:`: what an
    /// embed's markup carries beside the files it shows as they are.
    pub fn to_yaml_without_files(&self) -> String {
        self.written(false)
    }

    fn written(&self, with_files: bool) -> String {
        let mut top = Hash::default();
        if let Some(d) = &self.description {
            top.insert("description".into(), Value::String(d.clone()));
        }
        if self.puppet != Puppet::V7 {
            top.insert("puppet".into(), Value::Integer(self.puppet.major().into()));
        }
        if self.environment != "production" {
            top.insert("environment".into(), Value::String(self.environment.clone()));
        }
        if let Some(n) = &self.node {
            top.insert("node".into(), Value::String(n.clone()));
        }
        if !self.facts.is_empty() {
            top.insert("facts".into(), Value::Hash(self.facts.clone()));
        }
        if with_files {
            let files: Hash =
                self.files.iter().map(|(p, t)| (Value::String(p.clone()), Value::String(t.to_string()))).collect();
            top.insert("files".into(), Value::Hash(files));
        }
        let lookups = self
            .lookups
            .iter()
            .map(|l| {
                let mut h = Hash::default();
                let key = if l.key_is_list {
                    Value::Array(l.keys.iter().cloned().map(Value::String).collect())
                } else {
                    Value::String(l.keys.first().cloned().unwrap_or_default())
                };
                h.insert("key".into(), key);
                if let Some(m) = &l.merge {
                    h.insert("merge".into(), m.clone());
                }
                if let Some(d) = &l.default {
                    h.insert("default".into(), d.clone());
                }
                if let Some(t) = &l.value_type {
                    h.insert("type".into(), Value::String(t.clone()));
                }
                if let Some(e) = &l.expect {
                    h.insert("expect".into(), Value::Hash(expect_hash(e)));
                }
                Value::Hash(h)
            })
            .collect();
        top.insert("lookups".into(), Value::Array(lookups));
        if !self.classes.is_empty() {
            let classes = self.classes.iter().map(|c| {
                let mut h = Hash::default();
                h.insert("class".into(), Value::String(c.class.clone()));
                if let Some(e) = &c.expect {
                    h.insert("expect".into(), Value::Hash(class_expect_hash(e)));
                }
                Value::Hash(h)
            });
            top.insert("classes".into(), Value::Array(classes.collect()));
        }
        if !self.nodes.is_empty() {
            let nodes = self.nodes.iter().map(|n| {
                let mut h = Hash::default();
                h.insert("node".into(), Value::String(n.name.clone()));
                if let Some(env) = &n.environment {
                    h.insert("environment".into(), Value::String(env.clone()));
                }
                h.insert("facts".into(), Value::Hash(n.facts.clone()));
                Value::Hash(h)
            });
            top.insert("nodes".into(), Value::Array(nodes.collect()));
        }
        crate::formats::yaml::to_yaml(&Value::Hash(top)).trim_start_matches("---\n").to_string()
    }

    /// The files that hold a PEM private key (an eyaml key pair's
    /// `private_key.pkcs7.pem`): secrets a shared copy should not carry
    /// unless its owner says so.
    pub fn private_keys(&self) -> Vec<&str> {
        self.files.iter().filter(|(_, text)| text.contains("PRIVATE KEY-----")).map(|(p, _)| p.as_str()).collect()
    }

    /// The document path of an absolute path.
    pub fn relative(&self, path: &str) -> String {
        let env = format!("{}/", environment_dir(&self.environment));
        path.strip_prefix(&env).map(str::to_string).unwrap_or_else(|| path.to_string())
    }

    /// Whether some hiera.yaml names `function` (`eyaml_lookup_key`,
    /// `hocon_data`): the document then needs that backend's part the
    /// engine may be built without
    /// ([`Playground::set_pkcs7`](crate::playground::Playground::set_pkcs7),
    /// [`Playground::set_hocon`](crate::playground::Playground::set_hocon)).
    pub fn uses_backend(&self, function: &str) -> bool {
        self.files.iter().any(|(path, text)| path.ends_with("hiera.yaml") && text.contains(function))
    }

    /// This document without the files [`Document::private_keys`] names:
    /// its eyaml values then fail to decrypt, as on a Puppet without the key.
    pub fn without_private_keys(&self) -> Document {
        let mut doc = self.clone();
        doc.files.retain(|(_, text)| !text.contains("PRIVATE KEY-----"));
        doc
    }

    /// Binds every class with the engine and compares each with what
    /// Puppet bound (see [`CaseClass::compare`]), in order.
    pub fn check_classes(&self, exact: bool) -> Vec<Result<(), Mismatch>> {
        let hiera = self.hiera();
        self.classes.iter().map(|c| c.compare(&hiera.bind_class(&c.class), exact)).collect()
    }

    /// Runs every lookup against the engine and compares each with Puppet's
    /// recorded answer (see [`compare`]), in order.
    pub fn check(&self, exact: bool) -> Vec<Result<(), Mismatch>> {
        let hiera = self.hiera();
        self.lookups
            .iter()
            .map(|l| {
                let answer = match l.request(true) {
                    Ok(request) => hiera.lookup(&request),
                    Err(e) => Answer { result: Err(e), explanation: None, options: None },
                };
                compare(l, &answer, exact)
            })
            .collect()
    }
}
