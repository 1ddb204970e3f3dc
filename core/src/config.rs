//! Stage 2, read the config: a `hiera.yaml` (versions 3, 4 and 5, validated
//! as Puppet validates them, with Puppet's messages) here; the node's scope
//! (`scope`) and what the Puppet reproduced and its `puppet.conf` set
//! (`settings`) beside it.

pub(crate) mod environment;
pub(crate) mod scope;
pub(crate) mod settings;

use crate::error::Error;
use crate::formats::yaml;
use crate::puppet::types::type_name;
use crate::value::{symkeys_to_string, Hash, Int, Str, Value};

/// Which layer a hiera.yaml configures; some keys are allowed only in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// `$confdir/hiera.yaml` or `$codedir/hiera.yaml`.
    Global,
    /// The environment's hiera.yaml.
    Environment,
    /// A module's hiera.yaml.
    Module,
}

/// The data provider function of a hierarchy level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// `data_hash`: a function returning the whole file as a hash.
    DataHash,
    /// `lookup_key`: a function called per key.
    LookupKey,
    /// `data_dig`: a function called per dotted key.
    DataDig,
    /// `hiera3_backend`: a Hiera 3 backend (global layer only).
    Hiera3Backend,
    /// `v4_data_hash` (deprecated).
    V4DataHash,
}

impl FunctionKind {
    /// The key naming it in hiera.yaml.
    pub fn key(&self) -> &'static str {
        match self {
            FunctionKind::DataHash => "data_hash",
            FunctionKind::LookupKey => "lookup_key",
            FunctionKind::DataDig => "data_dig",
            FunctionKind::Hiera3Backend => "hiera3_backend",
            FunctionKind::V4DataHash => "v4_data_hash",
        }
    }
}

const FUNCTION_KEYS: [&str; 4] = ["data_hash", "lookup_key", "data_dig", "hiera3_backend"];
const ALL_FUNCTION_KEYS: [&str; 5] = ["data_hash", "lookup_key", "data_dig", "hiera3_backend", "v4_data_hash"];
const LOCATION_KEYS: [&str; 7] = ["path", "paths", "glob", "globs", "uri", "uris", "mapped_paths"];

/// Where a level's data lives, as written (before interpolation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Locations {
    /// No location: the function is called without a path.
    None,
    /// `path` or `paths`.
    Paths(Vec<String>),
    /// `glob` or `globs`.
    Globs(Vec<String>),
    /// `uri` or `uris`.
    Uris(Vec<String>),
    /// `mapped_paths`: the variable, the name bound to each element, the template.
    MappedPaths(String, String, String),
}

/// One level of a hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Its name (`Hierarchy entry "name"`).
    pub name: String,
    /// The data provider function and its name (`yaml_data`...).
    pub function: Option<(FunctionKind, String)>,
    /// Its own datadir, when it has one.
    pub datadir: Option<String>,
    /// Where its data lives.
    pub locations: Locations,
    /// Options passed to the function.
    pub options: Option<Hash>,
    /// For Hiera 3 and 4 levels: the extension the paths get (`.yaml`).
    pub extension: Option<String>,
}

/// A validated hiera.yaml.
#[derive(Clone, Debug, PartialEq)]
pub struct HieraConfig {
    /// The file it was read from; `None` for Puppet's built-in default.
    pub path: Option<String>,
    /// The directory relative datadirs start from.
    pub root: String,
    /// 3, 4 or 5.
    pub version: u32,
    /// The levels, most specific first.
    pub hierarchy: Vec<Level>,
    /// A module's `default_hierarchy`.
    pub default_hierarchy: Option<Vec<Level>>,
    /// The file's text, for finding the line of a later error.
    text: String,
}

/// Puppet's default when the global layer has no hiera.yaml.
const DEFAULT_V5: &str = "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: Common\n    path: common.yaml\n";

impl HieraConfig {
    /// Reads a hiera.yaml for the given layer, with that layer's rules.
    pub fn parse_for(layer: Layer, path: &str, text: &str) -> Result<HieraConfig, Error> {
        let loaded = match yaml::load(text) {
            Ok(v) => v.map(|(v, _)| v),
            Err(e) => {
                let at = e.at;
                let message = if e.names_file { format!("({path}): {}", e.message) } else { e.message };
                // Puppet's YamlLoadError wraps Psych's, and `puppet lookup`
                // prints both.
                return Err(Error::puppet(format!("{message}\nWrapped exception:\n{message}")).at(
                    path,
                    at.map(|a| a.line as usize),
                    at.map(|a| a.column as usize),
                ));
            }
        };
        let hash = match loaded {
            Some(Value::Hash(h)) => symkeys_to_string(h),
            // Puppet warns and falls back to the Hiera 3 default.
            _ => Hash::default(),
        };
        let root = crate::load::fs::parent(path);
        HieraConfig::from_hash(layer, Some(path), &root, hash, text)
    }

    /// Puppet's built-in default configuration, rooted at `root` (`$confdir`).
    pub fn default_for(root: &str) -> HieraConfig {
        let (value, _) =
            yaml::load(DEFAULT_V5).ok().flatten().unwrap_or((Value::Hash(Hash::default()), Default::default()));
        let hash = value.as_hash().cloned().unwrap_or_default();
        HieraConfig::from_hash(Layer::Global, None, root, hash, "").unwrap_or(HieraConfig {
            path: None,
            root: root.to_string(),
            version: 5,
            hierarchy: Vec::new(),
            default_hierarchy: None,
            text: String::new(),
        })
    }

    fn from_hash(layer: Layer, path: Option<&str>, root: &str, hash: Hash, text: &str) -> Result<HieraConfig, Error> {
        let version = match hash.get(&Str("version")) {
            None | Some(Value::Undef) => 3,
            Some(v) => ruby_to_i(v),
        };
        let mut config = HieraConfig {
            path: path.map(str::to_string),
            root: root.to_string(),
            version: version as u32,
            hierarchy: Vec::new(),
            default_hierarchy: None,
            text: text.to_string(),
        };
        match version {
            5 => config.validate_v5(layer, hash)?,
            4 => config.validate_v4(hash)?,
            3 => config.validate_v3(hash)?,
            v => return Err(config.fail(&format!("This runtime does not support hiera.yaml version {v}"), None)),
        }
        Ok(config)
    }

    /// A Puppet issue raised against this file.
    pub(crate) fn fail(&self, message: &str, line: Option<usize>) -> Error {
        Error::issue(message, self.path.as_deref(), line)
    }

    /// Puppet's `find_line_matching`: the first line at or after `start`
    /// whose text (with unquoted comments removed) matches.
    pub(crate) fn find_line_matching(&self, start: usize, matches: impl Fn(&str) -> bool) -> Option<usize> {
        for (i, line) in self.text.lines().enumerate() {
            let n = i + 1;
            if n < start {
                continue;
            }
            let mut quote = None;
            let mut stripped = String::new();
            for c in line.chars() {
                if c == '"' || c == '\'' {
                    if quote == Some(c) {
                        quote = None;
                    } else if quote.is_none() {
                        quote = Some(c);
                    }
                } else if c == '#' && quote.is_none() {
                    break;
                }
                stripped.push(c);
            }
            if matches(&stripped) {
                return Some(n);
            }
        }
        None
    }

    fn type_error(&self, detail: &str) -> Error {
        let at = self.path.as_deref().unwrap_or("");
        Error::puppet(format!("The Lookup Configuration at '{at}' has wrong type, {detail}"))
    }

    fn validate_v5(&mut self, layer: Layer, mut hash: Hash) -> Result<(), Error> {
        let defaults_key = Value::from("defaults");
        if !hash.contains_key(&defaults_key) {
            let mut d = Hash::default();
            d.insert("datadir".into(), "data".into());
            d.insert("data_hash".into(), "yaml_data".into());
            hash.insert(defaults_key.clone(), Value::Hash(d));
        }
        if !hash.contains_key(&Str("hierarchy")) {
            let mut common = Hash::default();
            common.insert("name".into(), "Common".into());
            common.insert("path".into(), "common.yaml".into());
            hash.insert("hierarchy".into(), Value::Array(vec![Value::Hash(common)].into()));
        }
        // The type check (Puppet's Struct assertion).
        for (k, v) in &hash {
            let key = k.to_ruby_s();
            match key.as_str() {
                "version" => {
                    if !matches!(v, Value::Integer(i) if *i == Int::small(5)) {
                        return Err(self.type_error(&format!("entry 'version' {}", expects("an Integer", v))));
                    }
                }
                "defaults" => check_struct(v, &["data_hash", "lookup_key", "data_dig", "datadir", "options"], &[])
                    .map_err(|e| self.type_error(&format!("entry 'defaults' {e}")))?,
                "hierarchy" | "plan_hierarchy" | "default_hierarchy" => {
                    check_hierarchy(v).map_err(|e| self.type_error(&format!("entry '{key}' {e}")))?
                }
                _ => return Err(self.type_error(&format!("unrecognized key '{key}'"))),
            }
        }
        let defaults = hash.get(&defaults_key).and_then(Value::as_hash).cloned().unwrap_or_default();
        if FUNCTION_KEYS.iter().filter(|k| defaults.contains_key(&Str(k))).count() > 1 {
            return Err(self.fail(&format!("Only one of {} can be defined in defaults", combine(&FUNCTION_KEYS)), None));
        }
        if let Some(Value::Hash(options)) = defaults.get(&Str("options")) {
            for reserved in ["path", "uri"] {
                if options.contains_key(&Str(reserved)) {
                    return Err(
                        self.fail(&format!("Option key '{reserved}' used in defaults is reserved by Puppet"), None)
                    );
                }
            }
        }
        let levels = hash.get(&Str("hierarchy")).and_then(Value::as_array).unwrap_or(&[]);
        self.hierarchy = levels.iter().map(|l| self.level_v5(layer, l, &defaults)).collect::<Result<_, _>>()?;
        if let Some(Value::Array(plan)) = hash.get(&Str("plan_hierarchy")) {
            for l in plan {
                self.level_v5(layer, l, &defaults)?;
            }
        }
        if let Some(dh) = hash.get(&Str("default_hierarchy")) {
            if layer != Layer::Module {
                let line = self.find_line_matching(1, |l| {
                    l.starts_with("default_hierarchy:")
                        || l.contains(" default_hierarchy:")
                        || l.contains("\tdefault_hierarchy:")
                });
                return Err(self.fail("'default_hierarchy' is only allowed in the module layer", line));
            }
            let levels = dh.as_array().unwrap_or(&[]);
            self.default_hierarchy =
                Some(levels.iter().map(|l| self.level_v5(layer, l, &defaults)).collect::<Result<_, _>>()?);
        }
        Ok(())
    }

    fn level_v5(&self, layer: Layer, level: &Value, defaults: &Hash) -> Result<Level, Error> {
        let he = level.as_hash().cloned().unwrap_or_default();
        let get = |k: &str| field(&he, k);
        let name = get("name").map(Value::to_ruby_s).unwrap_or_default();
        let functions: Vec<&str> = ALL_FUNCTION_KEYS.iter().copied().filter(|k| field(&he, k).is_some()).collect();
        match functions.len() {
            0 if !FUNCTION_KEYS.iter().any(|k| field(defaults, k).is_some()) => {
                return Err(self
                    .fail(&format!("One of {} must be defined in hierarchy '{name}'", combine(&FUNCTION_KEYS)), None))
            }
            0 | 1 => {}
            _ => {
                return Err(self.fail(
                    &format!("Only one of {} can be defined in hierarchy '{name}'", combine(&FUNCTION_KEYS)),
                    None,
                ))
            }
        }
        if let Some(backend) = get("hiera3_backend") {
            if layer != Layer::Global {
                let line =
                    self.find_line_matching(1, |l| l.contains("hiera3_backend:") && l.starts_with(char::is_whitespace));
                return Err(self.fail("'hiera3_backend' is only allowed in the global layer", line));
            }
            let b = backend.to_ruby_s();
            if b == "json" || b == "yaml" {
                return Err(self.fail(&format!("Use \"data_hash: {b}_data\" instead of \"hiera3_backend: {b}\""), None));
            }
        }
        if LOCATION_KEYS.iter().filter(|k| field(&he, k).is_some()).count() > 1 {
            return Err(self
                .fail(&format!("Only one of {} can be defined in hierarchy '{name}'", combine(&LOCATION_KEYS)), None));
        }
        if let Some(Value::Hash(options)) = get("options") {
            for reserved in ["path", "uri"] {
                if options.contains_key(&Str(reserved)) {
                    return Err(self.fail(
                        &format!("Option key '{reserved}' used in hierarchy '{name}' is reserved by Puppet"),
                        None,
                    ));
                }
            }
        }
        let function = match functions.first() {
            Some(k) => Some((function_kind(k), get(k).map(Value::to_ruby_s).unwrap_or_default())),
            None => FUNCTION_KEYS
                .iter()
                .find(|k| field(defaults, k).is_some())
                .map(|k| (function_kind(k), field(defaults, k).map(Value::to_ruby_s).unwrap_or_default())),
        };
        let strings = |v: &Value| -> Vec<String> { v.as_array().unwrap_or(&[]).iter().map(Value::to_ruby_s).collect() };
        let locations = if let Some(p) = get("path") {
            Locations::Paths(vec![p.to_ruby_s()])
        } else if let Some(p) = get("paths") {
            Locations::Paths(strings(p))
        } else if let Some(g) = get("glob") {
            Locations::Globs(vec![g.to_ruby_s()])
        } else if let Some(g) = get("globs") {
            Locations::Globs(strings(g))
        } else if let Some(u) = get("uri") {
            Locations::Uris(vec![u.to_ruby_s()])
        } else if let Some(u) = get("uris") {
            Locations::Uris(strings(u))
        } else if let Some(m) = get("mapped_paths") {
            let m = strings(m);
            Locations::MappedPaths(m[0].clone(), m[1].clone(), m[2].clone())
        } else {
            Locations::None
        };
        let datadir = get("datadir").or_else(|| field(defaults, "datadir")).map(Value::to_ruby_s);
        let options = get("options").or_else(|| field(defaults, "options")).and_then(Value::as_hash).cloned();
        Ok(Level { name, function, datadir, locations, options, extension: None })
    }

    fn validate_v4(&mut self, hash: Hash) -> Result<(), Error> {
        let datadir = hash.get(&Str("datadir")).map(Value::to_ruby_s).unwrap_or_else(|| "data".into());
        let levels = match hash.get(&Str("hierarchy")) {
            Some(Value::Array(a)) => a.to_vec(),
            Some(v) => return Err(self.type_error(&format!("entry 'hierarchy' {}", expects("an Array", v)))),
            None => {
                let mut l = Hash::default();
                l.insert("name".into(), "common".into());
                l.insert("backend".into(), "yaml".into());
                vec![Value::Hash(l)]
            }
        };
        for (i, l) in levels.iter().enumerate() {
            check_struct(l, &["backend", "name", "datadir", "path", "paths"], &["backend", "name"])
                .map_err(|e| self.type_error(&format!("entry 'hierarchy' index {i} {e}")))?;
            let he = l.as_hash().cloned().unwrap_or_default();
            let get = |k: &str| he.get(&Str(k)).map(Value::to_ruby_s);
            let name = get("name").unwrap_or_default();
            let backend = get("backend").unwrap_or_default();
            let paths = match he.get(&Str("paths")) {
                Some(Value::Array(a)) => a.iter().map(Value::to_ruby_s).collect(),
                _ => vec![get("path").unwrap_or_else(|| name.clone())],
            };
            if backend != "yaml" && backend != "json" {
                let line = self.find_line_matching(1, |l| contains_word(l, &backend));
                return Err(self.fail(&format!("No data provider is registered for backend '{backend}'"), line));
            }
            self.hierarchy.push(Level {
                name,
                function: Some((FunctionKind::DataHash, format!("{backend}_data"))),
                datadir: Some(get("datadir").unwrap_or_else(|| datadir.clone())),
                locations: Locations::Paths(paths),
                options: None,
                extension: Some(format!(".{backend}")),
            });
        }
        Ok(())
    }

    fn validate_v3(&mut self, hash: Hash) -> Result<(), Error> {
        let nes_or_array = |key: &str| -> Result<Vec<String>, Error> {
            match hash.get(&Str(key)) {
                None => Ok(Vec::new()),
                Some(Value::String(s)) => Ok(vec![s.clone()]),
                Some(Value::Array(a)) if a.iter().all(|v| matches!(v, Value::String(_))) => {
                    Ok(a.iter().map(Value::to_ruby_s).collect())
                }
                Some(v) => {
                    let first = format!("entry '{key}' variant 0 {}", expects("a String", v));
                    let index = v
                        .as_array()
                        .and_then(|a| a.iter().position(|e| !matches!(e, Value::String(_))).map(|i| (i, &a[i])));
                    let second = match index {
                        Some((i, e)) => format!("entry '{key}' variant 1 index {i} {}", expects("a String", e)),
                        None => format!("entry '{key}' variant 1 {}", expects("an Array", v)),
                    };
                    let at = self.path.clone().unwrap_or_default();
                    Err(Error::puppet(format!(
                        " The Lookup Configuration at '{at}' has wrong type, {first}\n  The Lookup Configuration at '{at}' has wrong type, {second}"
                    )))
                }
            }
        };
        let mut backends = nes_or_array("backends")?;
        if backends.is_empty() {
            backends.push("yaml".into());
        }
        let mut hierarchy = nes_or_array("hierarchy")?;
        if hierarchy.is_empty() {
            hierarchy = vec!["nodes/%{::trusted.certname}".into(), "common".into()];
        }
        for backend in backends {
            let conf = hash.get(&Value::from(backend.as_str())).and_then(Value::as_hash);
            let datadir = conf.and_then(|c| c.get(&Str("datadir"))).map(Value::to_ruby_s);
            let ext = conf.and_then(|c| c.get(&Str("extension"))).map(Value::to_ruby_s).unwrap_or(backend.clone());
            self.hierarchy.push(Level {
                name: backend.clone(),
                function: Some((FunctionKind::DataHash, format!("{backend}_data"))),
                datadir: Some(
                    datadir.unwrap_or_else(|| "/etc/puppetlabs/code/environments/%{::environment}/hieradata".into()),
                ),
                locations: Locations::Paths(hierarchy.clone()),
                options: None,
                extension: Some(format!(".{ext}")),
            });
        }
        Ok(())
    }
}

fn function_kind(key: &str) -> FunctionKind {
    match key {
        "data_hash" => FunctionKind::DataHash,
        "lookup_key" => FunctionKind::LookupKey,
        "data_dig" => FunctionKind::DataDig,
        "hiera3_backend" => FunctionKind::Hiera3Backend,
        _ => FunctionKind::V4DataHash,
    }
}

fn contains_word(line: &str, word: &str) -> bool {
    let is_w = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        before.is_some_and(|c| !is_w(c)) && after.is_none_or(|c| !is_w(c))
    })
}

/// Puppet's `combine_strings`: `a, b, or c`.
fn combine(items: &[&str]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].to_string(),
        2 => format!("{} or {}", items[0], items[1]),
        n => format!("{}, or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Ruby's `to_i` on the `version` value.
fn ruby_to_i(v: &Value) -> i128 {
    match v {
        Value::Integer(i) => i.to_i128().unwrap_or(0),
        Value::Float(f) => *f as i128,
        Value::String(s) => {
            let t = s.trim_start();
            let end = t
                .char_indices()
                .take_while(|(i, c)| c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+')))
                .map(|(i, c)| i + c.len_utf8())
                .last()
                .unwrap_or(0);
            t[..end].parse().unwrap_or(0)
        }
        _ => 0,
    }
}

/// A field of a hierarchy level or of `defaults`: such hashes hold a few
/// keys, which a scan finds sooner than hashing the name does.
fn field<'a>(hash: &'a Hash, name: &str) -> Option<&'a Value> {
    hash.iter().find(|(k, _)| matches!(k, Value::String(k) if k == name)).map(|(_, v)| v)
}

fn expects(what: &str, v: &Value) -> String {
    format!("expects {what} value, got {}", type_name(v))
}

/// Checks a hash against a struct of optional `keys` (`required` among them
/// must be there); string values must be non-empty strings, `options` a hash.
fn check_struct(v: &Value, keys: &[&str], required: &[&str]) -> Result<(), String> {
    let Some(h) = v.as_hash() else { return Err(expects("a Hash", v)) };
    for r in required {
        if !h.contains_key(&Str(r)) {
            return Err(format!("expects a value for key '{r}'"));
        }
    }
    for (k, val) in h {
        let key = k.to_ruby_s();
        if !keys.contains(&key.as_str()) {
            return Err(format!("unrecognized key '{key}'"));
        }
        check_level_value(&key, val).map_err(|e| format!("entry '{key}' {e}"))?;
    }
    Ok(())
}

fn check_level_value(key: &str, v: &Value) -> Result<(), String> {
    let nes = |v: &Value| match v {
        Value::String(s) if !s.is_empty() => Ok(()),
        Value::String(_) => Err("expects a String[1] value, got String".to_string()),
        v => Err(expects("a String", v)),
    };
    match key {
        "options" => match v {
            Value::Hash(_) => Ok(()),
            v => Err(expects("a Hash", v)),
        },
        "paths" | "globs" | "uris" | "mapped_paths" => {
            let Some(a) = v.as_array() else { return Err(expects("an Array", v)) };
            use crate::puppet::types::Ints;
            let size =
                if key == "mapped_paths" { Ints::new(3, 3) } else { Ints { from: Some(Int::small(1)), to: None } };
            if !size.contains_count(a.len()) {
                return Err(crate::puppet::types::size_mismatch(&size, &Ints::exactly(a.len())));
            }
            for (i, e) in a.iter().enumerate() {
                nes(e).map_err(|m| format!("index {i} {m}"))?;
            }
            Ok(())
        }
        _ => nes(v),
    }
}

fn check_hierarchy(v: &Value) -> Result<(), String> {
    let Some(levels) = v.as_array() else { return Err(expects("an Array", v)) };
    const LEVEL_KEYS: [&str; 15] = [
        "name",
        "options",
        "data_hash",
        "lookup_key",
        "hiera3_backend",
        "v4_data_hash",
        "data_dig",
        "path",
        "paths",
        "glob",
        "globs",
        "uri",
        "uris",
        "mapped_paths",
        "datadir",
    ];
    for (i, l) in levels.iter().enumerate() {
        check_struct(l, &LEVEL_KEYS, &["name"]).map_err(|e| format!("index {i} {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_levels_and_defaults() {
        let c = HieraConfig::parse_for(
            Layer::Environment,
            "/env/hiera.yaml",
            "version: 5\nhierarchy:\n  - name: Nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: Common\n    path: common.yaml\n",
        )
        .unwrap();
        assert_eq!(c.version, 5);
        let names: Vec<&str> = c.hierarchy.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Nodes", "Common"]);
        assert_eq!(c.hierarchy[0].function, Some((FunctionKind::DataHash, "yaml_data".into())));
    }

    #[test]
    fn validation_errors_are_puppets() {
        let e = HieraConfig::parse_for(Layer::Environment, "/e/hiera.yaml", "version: 5\nhierarchy:\n  - pth: x\n")
            .unwrap_err();
        assert_eq!(e.message, "The Lookup Configuration at '/e/hiera.yaml' has wrong type, entry 'hierarchy' index 0 expects a value for key 'name'");
        let e = HieraConfig::parse_for(Layer::Environment, "/e/hiera.yaml", "version: 6\n").unwrap_err();
        assert_eq!(e.message, "This runtime does not support hiera.yaml version 6 (file: /e/hiera.yaml)");
    }
}
