//! The trace of a lookup, and its rendering as `puppet lookup --explain` text.
//!
//! The tree mirrors Puppet's explainer node for node (a searched key, a data
//! provider, a hierarchy entry, a location, a merge, an interpolation...), so
//! that the text rendering can follow Puppet's `dump_on` exactly, while the
//! page draws the same tree as merge steps.

use crate::formats::yaml::Spans;
use crate::value::{Array, Value};

/// What one `%{...}` token became.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token as written, `%{...}` included.
    pub text: String,
    /// The expression inside, trimmed.
    pub expression: String,
    /// `scope` for a variable, else the function (`lookup`, `alias`...).
    pub method: String,
    /// What it became (Ruby's `to_s` of the value; `""` when undefined).
    pub result: String,
    /// True when the variable does not exist (it became an empty string).
    pub undefined: bool,
}

/// Where a found value is in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct Origin {
    /// The data file (absolute path).
    pub file: String,
    /// The value's position, and its parts' positions.
    pub spans: Spans,
    /// Scalars within the value that YAML 1.1 reads differently than a
    /// reader might expect.
    pub surprises: Vec<crate::formats::yaml::Surprise>,
    /// The value as the file writes it, when interpolation or decryption
    /// changed it: `spans` follow its layout, not the found value's.
    pub raw: Option<Value>,
}

/// Index of a node in an [`Explanation`].
pub type NodeId = usize;

/// What a node of the trace stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// The root of the trace.
    Root,
    /// `Searching for "key"`: a top-level search (for data or `lookup_options`).
    Search {
        /// The key searched for.
        key: String,
        /// True for the search for `lookup_options`.
        meta: bool,
    },
    /// A key Puppet refuses to look up (`lookup_options` itself).
    InvalidKey(String),
    /// A data provider: a layer (`Global Data Provider (...)`) or a hierarchy entry.
    Provider {
        /// Its name as Puppet prints it.
        name: String,
        /// The hiera.yaml it was configured by, if any.
        config_path: Option<String>,
    },
    /// A merge of several sources.
    Merge {
        /// The strategy's name (`hash`, `deep`...).
        strategy: String,
        /// Its options, printed as Puppet prints them.
        options: Option<Value>,
    },
    /// A data file location.
    Location {
        /// The path (or URI) after interpolation.
        path: String,
        /// The path as written in hiera.yaml.
        original: String,
        /// True for a `uri`/`uris` location.
        uri: bool,
    },
    /// The interpolation of a string.
    Interpolate(String),
    /// A scope (`Global Scope`, or a module's default hierarchy).
    Scope(String),
    /// A module that has no data.
    Module {
        /// The module's name.
        name: String,
        /// True when the module exists but has no hiera.yaml.
        provider_missing: bool,
    },
    /// Digging into a value with a dotted key.
    SubLookup(Vec<Value>),
    /// One segment of a dotted key.
    Segment(Value),
    /// A line of text (the error that ended the lookup, a convert_to note).
    MergeSource(String),
}

/// What happened at a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A value was found for the key.
    Found {
        /// The key (or segment) found.
        key: String,
        /// The value.
        value: Value,
    },
    /// The key is not in this place.
    NotFound(String),
    /// The data file does not exist.
    LocationNotFound,
    /// The merged result of a merge.
    Result(Value),
    /// The key was there, but its value could not be used (an interpolation
    /// or a decryption failed): the error. Puppet's explanation prints
    /// nothing for it; the lookup fails with the error.
    Failed(String),
}

/// One node of the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What the node stands for.
    pub kind: NodeKind,
    /// Its children, in order.
    pub branches: Vec<NodeId>,
    /// What happened there, if anything.
    pub event: Option<Event>,
    /// Text lines attached to the node.
    pub texts: Vec<String>,
    /// Under a merge: the merged value once this branch was merged in.
    pub merged: Option<Value>,
    /// For an interpolation or a location: what each `%{...}` became.
    pub tokens: Vec<Token>,
    /// For a value found in a data file: where it is in the file.
    pub origin: Option<Origin>,
    /// The value as found, when a merge changed it afterwards.
    pub unmerged: Option<Value>,
    /// For a value found by `eyaml_lookup_key`: whether it held encrypted
    /// blocks, now decrypted.
    pub decrypted: bool,
    parent: Option<NodeId>,
}

impl Node {
    fn new(kind: NodeKind, parent: Option<NodeId>) -> Node {
        Node {
            kind,
            branches: Vec::new(),
            event: None,
            texts: Vec::new(),
            merged: None,
            tokens: Vec::new(),
            origin: None,
            unmerged: None,
            decrypted: false,
            parent,
        }
    }

    /// The node's parent (none for the root).
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }
}

/// The trace of one lookup: a tree of nodes built as the lookup runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    nodes: Vec<Node>,
    current: NodeId,
    /// The array-form `convert_to` Puppet applied, and the `inspect` of the
    /// type object it put in place of the array's type name.
    type_object: Option<(Array, String)>,
}

impl Default for Explanation {
    fn default() -> Self {
        Explanation { nodes: vec![Node::new(NodeKind::Root, None)], current: 0, type_object: None }
    }
}

impl Explanation {
    /// The root node's id.
    pub const ROOT: NodeId = 0;

    /// A node by id.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// All nodes; index 0 is the root.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub(crate) fn push(&mut self, kind: NodeKind) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node::new(kind, Some(self.current)));
        self.nodes[self.current].branches.push(id);
        self.current = id;
        id
    }

    pub(crate) fn pop(&mut self) {
        if let Some(p) = self.nodes[self.current].parent {
            self.current = p;
        }
    }

    /// The node new events go to.
    pub(crate) fn current(&self) -> NodeId {
        self.current
    }

    /// Moves back to `id` (after an error unwound past pushes).
    pub(crate) fn reset_to(&mut self, id: NodeId) {
        self.current = id;
    }

    pub(crate) fn set_event(&mut self, event: Event) -> NodeId {
        self.nodes[self.current].event = Some(event);
        self.current
    }

    /// Replaces the value recorded at `id`: Puppet's deep merge mutates the
    /// value it found, and its explanation prints the mutated object.
    pub(crate) fn update_value(&mut self, id: NodeId, value: Value) {
        let node = &mut self.nodes[id];
        if let Some(Event::Found { value: v, .. }) | Some(Event::Result(v)) = &mut node.event {
            if *v != value {
                node.unmerged.get_or_insert_with(|| v.clone());
                *v = value;
            }
        }
    }

    /// The number of nodes (the id the next one gets).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: there is a root.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id]
    }

    pub(crate) fn text(&mut self, text: String) {
        let c = self.current;
        self.nodes[c].texts.push(text);
    }

    pub(crate) fn module_not_found(&mut self, name: &str, provider_missing: bool) {
        self.push(NodeKind::Module { name: name.to_string(), provider_missing });
        self.pop();
    }

    /// Notes that Puppet parsed the type name in `convert_to`, an array
    /// from a lookup_options hash, and put the type object in its place:
    /// it changes that hash itself, so everywhere the trace shows the array
    /// shows the object (`inspect` is what it prints).
    pub(crate) fn type_object(&mut self, convert_to: Array, inspect: String) {
        self.type_object = Some((convert_to, inspect));
    }

    pub(crate) fn merge_source(&mut self, source: &str) {
        let id = self.nodes.len();
        self.nodes.push(Node::new(NodeKind::MergeSource(source.to_string()), Some(self.current)));
        let c = self.current;
        self.nodes[c].branches.push(id);
    }

    /// The text `puppet lookup --explain` prints.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let root = &self.nodes[0];
        for &b in &root.branches {
            self.dump(&mut out, b, "", "");
        }
        for t in &root.texts {
            out.push_str(t);
            out.push('\n');
        }
        out
    }

    fn dump(&self, io: &mut String, id: NodeId, indent: &str, first_indent: &str) {
        let node = &self.nodes[id];
        let inner = format!("{indent}  ");
        match &node.kind {
            NodeKind::Root => {}
            NodeKind::Search { key, .. } => {
                io.push_str(&format!("{first_indent}Searching for \"{key}\"\n"));
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
            }
            NodeKind::InvalidKey(key) => io.push_str(&format!("{first_indent}Invalid key \"{key}\"\n")),
            NodeKind::MergeSource(source) => {
                io.push_str(&format!("{first_indent}Using merge options from \"{source}\" hash\n"))
            }
            NodeKind::Module { name, provider_missing } => {
                if *provider_missing {
                    io.push_str(&format!("{indent}Module data provider for module \"{name}\" not found\n"));
                } else {
                    io.push_str(&format!("{indent}Module \"{name}\" not found\n"));
                }
            }
            NodeKind::Interpolate(expr) => {
                io.push_str(&format!("{first_indent}Interpolation on \"{expr}\"\n"));
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
            }
            NodeKind::Merge { strategy, options } => {
                match node.branches.len() {
                    0 => return,
                    1 => return self.dump(io, node.branches[0], indent, first_indent),
                    _ => {}
                }
                io.push_str(&format!("{first_indent}Merge strategy {strategy}\n"));
                if let Some(options) = options {
                    io.push_str(&format!("{inner}Options: "));
                    self.dump_value(io, &inner, options);
                    io.push('\n');
                }
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
                if let Some(Event::Result(v)) = &node.event {
                    io.push_str(&format!("{inner}Merged result: "));
                    self.dump_value(io, &inner, v);
                    io.push('\n');
                }
            }
            NodeKind::Provider { name, config_path } => {
                io.push_str(&format!("{first_indent}{name}\n"));
                if let Some(p) = config_path {
                    io.push_str(&format!("{inner}Using configuration \"{p}\"\n"));
                }
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
                self.dump_outcome(io, node, &inner);
            }
            NodeKind::Location { path, original, uri } => {
                let (name, lower) = if *uri { ("URI", "uri") } else { ("Path", "path") };
                io.push_str(&format!("{indent}{name} \"{path}\"\n"));
                io.push_str(&format!("{inner}Original {lower}: \"{original}\"\n"));
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
                if node.event == Some(Event::LocationNotFound) {
                    io.push_str(&format!("{inner}{name} not found\n"));
                }
                self.dump_outcome(io, node, &inner);
            }
            NodeKind::SubLookup(segments) => {
                let joined: Vec<String> = segments.iter().map(Value::to_ruby_s).collect();
                io.push_str(&format!("{indent}Sub key: \"{}\"\n", joined.join(".")));
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
                self.dump_outcome(io, node, &inner);
            }
            NodeKind::Segment(_) => self.dump_outcome(io, node, indent),
            NodeKind::Scope(name) => {
                io.push_str(&format!("{indent}{name}\n"));
                for &b in &node.branches {
                    self.dump(io, b, &inner, &inner);
                }
                self.dump_outcome(io, node, &inner);
            }
        }
    }

    fn dump_outcome(&self, io: &mut String, node: &Node, indent: &str) {
        match &node.event {
            Some(Event::NotFound(key)) => io.push_str(&format!("{indent}No such key: \"{key}\"\n")),
            Some(Event::Found { key, value }) => {
                io.push_str(&format!("{indent}Found key: \"{key}\" value: "));
                self.dump_value(io, indent, value);
                io.push('\n');
            }
            _ => {}
        }
        for t in &node.texts {
            io.push_str(indent);
            io.push_str(t);
            io.push('\n');
        }
    }
}

/// Puppet's explainer rendering of a value: hashes and arrays one entry a
/// line, scalars as Ruby's `inspect`.
pub fn dump_value(io: &mut String, indent: &str, value: &Value) {
    dump_value_with(io, indent, value, None)
}

impl Explanation {
    fn dump_value(&self, io: &mut String, indent: &str, value: &Value) {
        dump_value_with(io, indent, value, self.type_object.as_ref())
    }
}

fn dump_value_with(io: &mut String, indent: &str, value: &Value, type_object: Option<&(Array, String)>) {
    let dump = |io: &mut String, indent: &str, v: &Value| dump_value_with(io, indent, v, type_object);
    match value {
        Value::Hash(h) => {
            io.push('{');
            if !h.is_empty() {
                let inner = format!("{indent}  ");
                let mut sep = "\n";
                for (k, v) in h {
                    io.push_str(sep);
                    io.push_str(&inner);
                    dump(io, &inner, k);
                    io.push_str(" => ");
                    dump(io, &inner, v);
                    sep = ",\n";
                }
                io.push('\n');
                io.push_str(indent);
            }
            io.push('}');
        }
        Value::Array(a) => {
            io.push('[');
            if !a.is_empty() {
                let inner = format!("{indent}  ");
                let mut sep = "\n";
                let object = type_object.filter(|(converted, _)| converted.is_same(a)).map(|(_, inspect)| inspect);
                for (i, v) in a.iter().enumerate() {
                    io.push_str(sep);
                    io.push_str(&inner);
                    match object {
                        Some(inspect) if i == 0 => io.push_str(inspect),
                        _ => dump(io, &inner, v),
                    }
                    sep = ",\n";
                }
                io.push('\n');
                io.push_str(indent);
            }
            io.push(']');
        }
        v => io.push_str(&v.inspect()),
    }
}
