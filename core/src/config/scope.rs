//! The variables a lookup sees, as `puppet lookup` sets them up: the facts,
//! every fact as a top-scope variable, `trusted`, `server_facts`,
//! `environment`, and the few built-ins of a top scope.

use crate::config::settings::Puppet;
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
    server_facts: Value,
    environment: String,
}

/// What Puppet 8's `puppet lookup` adds to `$server_facts` from Facter on the
/// machine it runs on. The engine runs on none, so it stands in the machine
/// the conformance cases were recorded on.
const SERVER: [(&str, &str); 3] = [("servername", "vm"), ("serverip", "192.0.2.2"), ("serverip6", "fd00::2")];

impl Scope {
    /// The scope `puppet lookup --node NAME --facts FILE` gives: the facts
    /// plus `clientcert`, `fqdn`, `hostname` and `domain` where not given;
    /// Puppet 8 also fills `$server_facts`.
    pub fn new(node: &Node, puppet: Puppet) -> Scope {
        let Value::Hash(mut facts) = sanitize(Value::Hash(node.facts.clone())) else {
            unreachable!("a hash stays one")
        };
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
        let mut server_facts = Hash::default();
        if puppet == Puppet::V8 {
            server_facts.insert("serverimplementation".into(), "openvox".into());
            server_facts.insert("serverversion".into(), "8.28.1".into());
            for (k, v) in SERVER {
                server_facts.insert(k.into(), v.into());
            }
            server_facts.insert("environment".into(), Value::String(node.environment.clone()));
        }
        Scope {
            facts: Value::Hash(facts),
            trusted: Value::Hash(trusted),
            server_facts: Value::Hash(server_facts),
            environment: node.environment.clone(),
        }
    }

    /// What `puppet lookup` adds to the facts `given`, as the page shows
    /// it: the facts it fills in where they are not given (`clientcert`,
    /// `fqdn`, `hostname`, `domain`), `trusted`, and on Puppet 8
    /// `server_facts`.
    pub fn added(&self, given: &Hash) -> Vec<(String, Value)> {
        let filled = ["clientcert", "fqdn", "hostname", "domain"]
            .into_iter()
            .filter(|k| !given.contains_key(&Str(k)))
            .filter_map(|k| Some((format!("facts.{k}"), self.facts.get(k)?.clone())));
        let server = matches!(&self.server_facts, Value::Hash(h) if !h.is_empty())
            .then(|| ("server_facts".to_string(), self.server_facts.clone()));
        filled.chain([("trusted".to_string(), self.trusted.clone())]).chain(server).collect()
    }

    /// A variable by name (`facts`, `::fqdn`, `trusted`...): `None` when the
    /// variable does not exist, which Puppet tells apart from a nil value.
    /// (Copying `facts` copies no entries: hashes share them.)
    pub fn get(&self, name: &str) -> Option<Value> {
        let name = name.strip_prefix("::").unwrap_or(name);
        match name {
            "facts" => Some(self.facts.clone()),
            "trusted" => Some(self.trusted.clone()),
            "server_facts" => Some(self.server_facts.clone()),
            "environment" => Some(Value::String(self.environment.clone())),
            "name" | "title" => Some(Value::from("main")),
            "module_name" => Some(Value::from("")),
            "caller_module_name" => Some(Value::Undef),
            // Puppet 8 makes each server fact a variable too, unless a fact has its name.
            _ => {
                self.facts.get(name).or_else(|| self.server_facts.get(name).filter(|_| name != "environment")).cloned()
            }
        }
    }

    /// Puppet's message for a variable that does not exist: a qualified
    /// name (`foo::bar`) names the class Puppet could not find, as only
    /// `settings` is known to `puppet lookup`.
    pub fn undefined(name: &str) -> String {
        let Some(i) = name.find("::") else { return format!("Undefined variable '{name}'; ") };
        let qualified = if i == 0 { &name[2..] } else { name };
        match qualified.rsplit_once("::") {
            Some((class, _)) if class != "settings" => {
                format!("Undefined variable '{qualified}'; class {class} could not be found")
            }
            _ => format!("Undefined variable '::{qualified}'; "),
        }
    }

    /// The environment's name.
    pub fn environment(&self) -> &str {
        &self.environment
    }
}

/// Facts as `puppet lookup` hands them to the compiler: a nil anywhere in
/// them is an empty string.
fn sanitize(value: Value) -> Value {
    match value {
        Value::Undef => Value::from(""),
        Value::Array(a) => Value::Array(a.into_vec().into_iter().map(sanitize).collect::<Vec<_>>().into()),
        Value::Hash(h) => Value::Hash(h.into_iter().map(|(k, v)| (sanitize(k), sanitize(v))).collect()),
        other => other,
    }
}
