//! A node's facts as people have them at hand: `facter -y` or `facter -j`,
//! `puppet facts show`, `puppet facts find` (`{"name": ..., "values": ...}`)
//! or a PuppetDB factset (`{"certname": ..., "facts": {"data": [{"name":
//! ..., "value": ...}]}}`, or a list of them, of which the first is taken).

use crate::value::{Hash, Str, Value};

/// Facts read from a text, with the node and environment it names, if any.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeFacts {
    /// The facts.
    pub facts: Hash,
    /// The node's certname, where the text names one (a factset's
    /// `certname`, `puppet facts find`'s `name`, else the `clientcert` or
    /// `trusted.certname` fact).
    pub certname: Option<String>,
    /// The environment a factset names.
    pub environment: Option<String>,
}

impl NodeFacts {
    /// The node these facts are of: the certname, else the `networking.fqdn`
    /// or `fqdn` fact (what `facter -y` of the node says it is called).
    pub fn node_name(&self) -> Option<String> {
        self.certname.clone().or_else(|| fqdn(&self.facts))
    }
}

/// The node facts alone name: `networking.fqdn`, else `fqdn`.
pub fn fqdn(facts: &Hash) -> Option<String> {
    let text = |v: &Value| Some(v.to_ruby_s()).filter(|s| !s.is_empty());
    let networking = facts.get(&Str("networking")).and_then(Value::as_hash);
    networking.and_then(|n| n.get(&Str("fqdn"))).and_then(text).or_else(|| facts.get(&Str("fqdn")).and_then(text))
}

/// Why a text holds no facts.
#[derive(Clone, Debug, PartialEq)]
pub struct FactsError {
    /// What is wrong, with the line and column where the text does not
    /// read as YAML or JSON.
    pub message: String,
}

impl std::fmt::Display for FactsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FactsError {}

/// Reads facts in any of the shapes the module comment names; an empty
/// text is no facts.
pub fn read(text: &str) -> Result<NodeFacts, FactsError> {
    let fail = |message: String| FactsError { message };
    let value = match text.trim_start().as_bytes().first() {
        None => return Ok(NodeFacts::default()),
        Some(b'{' | b'[') => crate::formats::json::parse(text).map_err(|e| fail(e.message))?,
        _ => match crate::formats::yaml::load(text).map_err(|e| fail(e.message))? {
            Some((v, _)) => v,
            None => return Ok(NodeFacts::default()),
        },
    };
    let value = match value {
        Value::Array(a) => a.first().cloned().unwrap_or(Value::Hash(Hash::default())),
        v => v,
    };
    let Value::Hash(h) = value else {
        return Err(fail("The facts must be a hash: one `name: value` per line.".into()));
    };
    let text_of = |h: &Hash, k: &str| h.get(&Str(k)).map(Value::to_ruby_s);
    let (facts, certname, environment) = match (h.get(&Str("facts")), h.get(&Str("values"))) {
        (Some(facts), _) if h.contains_key(&Str("certname")) => {
            (factset(facts), text_of(&h, "certname"), text_of(&h, "environment"))
        }
        (_, Some(Value::Hash(values))) if h.contains_key(&Str("name")) => (values.clone(), text_of(&h, "name"), None),
        _ => (h, None, None),
    };
    let certname = certname.or_else(|| {
        let trusted = facts.get(&Str("trusted")).and_then(Value::as_hash).and_then(|t| text_of(t, "certname"));
        text_of(&facts, "clientcert").or(trusted)
    });
    Ok(NodeFacts { facts, certname, environment })
}

/// Facts as YAML, the way `facter -y` prints them (no `---`); empty for none.
pub fn to_text(facts: &Hash) -> String {
    if facts.is_empty() {
        return String::new();
    }
    crate::formats::yaml::to_yaml(&Value::Hash(facts.clone())).trim_start_matches("---\n").to_string()
}

/// A factset's facts: `{"data": [{"name", "value"}...]}`, or the list itself.
fn factset(facts: &Value) -> Hash {
    let data = match facts {
        Value::Hash(h) => h.get(&Str("data")).and_then(Value::as_array).map(|a| a.to_vec()).unwrap_or_default(),
        Value::Array(a) => a.to_vec(),
        _ => Vec::new(),
    };
    data.iter()
        .filter_map(|f| {
            let f = f.as_hash()?;
            Some((f.get(&Str("name"))?.clone(), f.get(&Str("value")).cloned().unwrap_or(Value::Undef)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os_family(n: &NodeFacts) -> Option<String> {
        n.facts.get(&Str("os"))?.as_hash()?.get(&Str("family")).map(Value::to_ruby_s)
    }

    #[test]
    fn reads_facter_puppet_and_puppetdb_shapes() {
        let facter = read("os:\n  family: Debian\nclientcert: web01.example.com\n").unwrap();
        assert_eq!(
            (os_family(&facter).as_deref(), facter.certname.as_deref()),
            (Some("Debian"), Some("web01.example.com"))
        );
        let json = read(r#"{"os": {"family": "RedHat"}, "trusted": {"certname": "db01"}}"#).unwrap();
        assert_eq!((os_family(&json).as_deref(), json.certname.as_deref()), (Some("RedHat"), Some("db01")));
        let find = read(r#"{"name": "app01", "values": {"os": {"family": "windows"}}, "timestamp": "x"}"#).unwrap();
        assert_eq!((os_family(&find).as_deref(), find.certname.as_deref()), (Some("windows"), Some("app01")));
        let factset = r#"[{"certname": "pdb01", "environment": "staging", "facts": {"data": [{"name": "os", "value": {"family": "FreeBSD"}}, {"name": "role", "value": "db"}], "href": "/pdb"}}]"#;
        let pdb = read(factset).unwrap();
        assert_eq!((os_family(&pdb).as_deref(), pdb.certname.as_deref()), (Some("FreeBSD"), Some("pdb01")));
        assert_eq!((pdb.environment.as_deref(), pdb.facts.len()), (Some("staging"), 2));
        assert_eq!(read("  \n").unwrap(), NodeFacts::default());
        assert_eq!(read(&to_text(&facter.facts)).unwrap().facts, facter.facts);
    }

    #[test]
    fn a_node_is_named_by_its_certname_else_its_fully_qualified_name() {
        let name = |text: &str| read(text).unwrap().node_name();
        assert_eq!(name("networking:\n  fqdn: web03.example.com\nfqdn: old\n").as_deref(), Some("web03.example.com"));
        assert_eq!(name("fqdn: web04.example.com\n").as_deref(), Some("web04.example.com"));
        assert_eq!(name("clientcert: c\nnetworking:\n  fqdn: f\n").as_deref(), Some("c"));
        assert_eq!(name("os:\n  family: Debian\n"), None);
    }

    #[test]
    fn says_where_a_text_does_not_read() {
        assert_eq!(read("- a\n").unwrap_err().message, "The facts must be a hash: one `name: value` per line.");
        assert!(read("os: [\n").unwrap_err().message.contains("at line"), "a position");
        assert!(read("{\"os\": }").unwrap_err().message.contains("unexpected token"));
    }
}
