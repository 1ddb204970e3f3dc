//! The variables a lookup sees, as `puppet lookup` sets them up: the facts,
//! every fact as a top-scope variable, `trusted`, `server_facts`,
//! `environment`, and the few built-ins of a top scope.

use crate::value::{Hash, Str, Value};

/// The node a lookup is made for.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The node's certname (`--node`).
    pub name: String,
    /// The environment's name.
    pub environment: String,
    /// The node's facts as given (a hash, nested as Facter gives them).
    pub facts: Hash,
}

impl Default for Node {
    fn default() -> Self {
        Node { name: "localhost".into(), environment: "production".into(), facts: Hash::default() }
    }
}

/// The variables of the top scope.
#[derive(Clone, Debug, PartialEq)]
pub struct Scope {
    facts: Value,
    trusted: Value,
    environment: String,
}

impl Scope {
    /// The scope `puppet lookup --node NAME --facts FILE` gives: the facts
    /// plus `clientcert`, `fqdn`, `hostname` and `domain` where not given.
    pub fn new(node: &Node) -> Scope {
        let mut facts = node.facts.clone();
        let (host, domain) = match node.name.split_once('.') {
            Some((h, d)) => (h.to_string(), d.to_string()),
            None => (node.name.clone(), String::new()),
        };
        for (k, v) in
            [("clientcert", node.name.clone()), ("fqdn", node.name.clone()), ("hostname", host), ("domain", domain)]
        {
            facts.get_or_insert_with(Value::from(k), || Value::String(v));
        }
        let certname = facts.get(&Str("clientcert")).map(Value::to_ruby_s).unwrap_or_default();
        let (thost, tdomain) = match certname.split_once('.') {
            Some((h, d)) => (Value::from(h), Value::from(d)),
            None => (Value::String(certname.clone()), Value::Undef),
        };
        let mut trusted = Hash::default();
        trusted.insert("authenticated".into(), "local".into());
        trusted.insert("certname".into(), Value::String(certname));
        trusted.insert("extensions".into(), Value::Hash(Hash::default()));
        trusted.insert("hostname".into(), thost);
        trusted.insert("domain".into(), tdomain);
        trusted.insert("external".into(), Value::Hash(Hash::default()));
        Scope { facts: Value::Hash(facts), trusted: Value::Hash(trusted), environment: node.environment.clone() }
    }

    /// A variable by name (`facts`, `::fqdn`, `trusted`...): `None` when the
    /// variable does not exist, which Puppet tells apart from a nil value.
    /// (Copying `facts` copies no entries: hashes share them.)
    pub fn get(&self, name: &str) -> Option<Value> {
        let name = name.strip_prefix("::").unwrap_or(name);
        match name {
            "facts" => Some(self.facts.clone()),
            "trusted" => Some(self.trusted.clone()),
            "server_facts" => Some(Value::Hash(Hash::default())),
            "environment" => Some(Value::String(self.environment.clone())),
            "name" | "title" => Some(Value::from("main")),
            "module_name" => Some(Value::from("")),
            _ => self.facts.get(name).cloned(),
        }
    }

    /// The environment's name.
    pub fn environment(&self) -> &str {
        &self.environment
    }
}
