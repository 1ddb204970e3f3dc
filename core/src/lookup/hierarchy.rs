//! Expanding the hierarchy: each layer's provider (its hiera.yaml, or the
//! defaults), and its levels with their locations resolved for the node, as
//! Puppet's `configured_data_providers` does.

use super::{KeyIndex, Run, CODEDIR, CONFDIR, ENVIRONMENTS};
use crate::backends::data::DataFile;
use crate::config::environment;
use crate::config::scope::{Node, Scope};
use crate::config::{FunctionKind, HieraConfig, Layer, Level, Locations};
use crate::error::Error;
use crate::explain::Token;
use crate::value::{Hash, Value};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum ProviderKey {
    Global,
    Environment,
    Module(Rc<str>),
}

/// Hierarchies resolved for the node, with the data files their locations
/// have read: kept by [`Hiera`](crate::Hiera) across runs until a configuration
/// or the set of files changes, so that a run after an edit resolves nothing
/// again and reads only the edited file. The scopes and hierarchies of the
/// last nodes looked up before are kept too, and come back with their node:
/// the page's Nodes tab and a review go through every node after an edit.
#[derive(Default)]
pub(crate) struct Resolved {
    levels: Hierarchies,
    others: Vec<Kept>,
}

/// Another node's scope (its facts read as Puppet reads them) and hierarchies.
struct Kept {
    node: Node,
    scope: Scope,
    levels: Hierarchies,
}

type Hierarchies = HashMap<(ProviderKey, bool), Rc<Vec<LevelProvider>>>;

/// How many other nodes' hierarchies are kept.
const KEPT_NODES: usize = 32;

impl Resolved {
    /// Forgets what was read from a data file whose text changed.
    pub(crate) fn forget_data(&mut self, path: &str) {
        for levels in std::iter::once(&mut self.levels).chain(self.others.iter_mut().map(|k| &mut k.levels)) {
            forget_data_in(levels, path);
        }
    }

    /// Forgets every hierarchy (the nodes' scopes stay).
    pub(crate) fn forget(&mut self) {
        self.levels.clear();
        self.others.iter_mut().for_each(|k| k.levels.clear());
    }

    /// The node looked up is `to` instead of `from`: `from`'s scope and
    /// hierarchies are kept, `to`'s scope comes back if it was, with its
    /// hierarchies.
    pub(crate) fn switch(&mut self, from: Node, scope: Scope, to: &Node) -> Option<Scope> {
        let kept = self.others.iter().position(|k| k.node == *to).map(|i| self.others.remove(i));
        let (scope_to, levels_to) = kept.map(|k| (Some(k.scope), k.levels)).unwrap_or_default();
        let levels = std::mem::replace(&mut self.levels, levels_to);
        if self.others.len() == KEPT_NODES {
            self.others.remove(0);
        }
        self.others.push(Kept { node: from, scope, levels });
        scope_to
    }

    /// The node's hierarchy for a provider, if resolved.
    fn get(&self, key: &(ProviderKey, bool)) -> Option<Rc<Vec<LevelProvider>>> {
        self.levels.get(key).cloned()
    }
}

/// Forgets what `levels` read from a data file whose text changed.
fn forget_data_in(levels: &mut Hierarchies, path: &str) {
    let mut in_use = false;
    for levels in levels.values_mut() {
        match Rc::get_mut(levels) {
            Some(levels) => levels
                .iter_mut()
                .flat_map(|l| l.locations.iter_mut().flatten())
                .filter(|l| crate::load::fs::collapsed(&l.path) == path)
                .for_each(|l| drop(l.data.take())),
            None => in_use = true,
        }
    }
    // A run still holding a hierarchy cannot be told; it is dropped instead.
    if in_use {
        levels.clear();
    }
}

/// A resolved data location of a hierarchy level.
#[derive(Clone, Debug)]
pub(super) struct Location {
    pub(super) original: String,
    pub(super) path: String,
    pub(super) exists: bool,
    pub(super) uri: bool,
    /// What each `%{...}` of the path became.
    pub(super) tokens: Vec<Token>,
    /// The file as its backend read it, once read.
    pub(super) data: std::cell::OnceCell<Result<Rc<DataFile>, Error>>,
    /// Its place among all the locations of its hierarchy, in order.
    pub(super) id: u32,
}

impl Location {
    pub(super) fn new(original: String, path: String, exists: bool, uri: bool, tokens: Vec<Token>) -> Location {
        Location { original, path, exists, uri, tokens, data: std::cell::OnceCell::new(), id: 0 }
    }
}

/// A hierarchy level with its locations resolved for this node.
#[derive(Clone, Debug)]
pub(super) struct LevelProvider {
    pub(super) name: String,
    pub(super) function: Option<(FunctionKind, String)>,
    pub(super) locations: Option<Vec<Location>>,
    /// The id of its first location.
    pub(super) first: u32,
    pub(super) config_path: Option<String>,
    pub(super) module: Option<String>,
    pub(super) options: Option<Hash>,
    /// Its datadir, interpolated for the node.
    pub(super) datadir: String,
}

impl LevelProvider {
    /// Whether the level's backend is `lookup_key: eyaml_lookup_key`.
    pub(super) fn is_eyaml(&self) -> bool {
        matches!(&self.function, Some((FunctionKind::LookupKey, f)) if f == "eyaml_lookup_key")
    }
}

pub(super) struct Provider {
    pub(super) config: Rc<HieraConfig>,
    pub(super) levels: Option<Rc<Vec<LevelProvider>>>,
    pub(super) default_levels: Option<Rc<Vec<LevelProvider>>>,
    /// A session's [`KeyIndex`] of `levels` and of `default_levels`.
    pub(super) index: Option<Rc<KeyIndex>>,
    pub(super) default_index: Option<Rc<KeyIndex>>,
}

/// The providers a run has set up (`None` inside: the layer has none).
/// Every lookup asks for the global and environment ones, so those are
/// not looked up by key.
#[derive(Default)]
pub(super) struct Providers {
    pub(super) global: Option<Option<Provider>>,
    pub(super) environment: Option<Option<Provider>>,
    pub(super) modules: HashMap<Rc<str>, Option<Provider>>,
}

impl Providers {
    pub(super) fn get(&self, key: &ProviderKey) -> Option<&Option<Provider>> {
        match key {
            ProviderKey::Global => self.global.as_ref(),
            ProviderKey::Environment => self.environment.as_ref(),
            ProviderKey::Module(m) => self.modules.get(m),
        }
    }

    pub(super) fn get_mut(&mut self, key: &ProviderKey) -> Option<&mut Provider> {
        match key {
            ProviderKey::Global => self.global.as_mut(),
            ProviderKey::Environment => self.environment.as_mut(),
            ProviderKey::Module(m) => self.modules.get_mut(m),
        }?
        .as_mut()
    }

    pub(super) fn insert(&mut self, key: &ProviderKey, provider: Option<Provider>) {
        match key {
            ProviderKey::Global => self.global = Some(provider),
            ProviderKey::Environment => self.environment = Some(provider),
            ProviderKey::Module(m) => {
                self.modules.insert(m.clone(), provider);
            }
        }
    }
}

impl Run<'_> {
    /// `f` of a layer's provider, set up the first time it is asked for.
    /// (Giving `f` the provider, rather than returning it, looks it up once.)
    pub(super) fn with_provider<T>(
        &mut self,
        key: &ProviderKey,
        f: impl FnOnce(Option<&Provider>) -> T,
    ) -> Result<T, Error> {
        if let Some(provider) = self.providers.get(key) {
            return Ok(f(provider.as_ref()));
        }
        let config = self.load_config(key)?;
        let provider = config.map(|config| Provider {
            config,
            levels: None,
            default_levels: None,
            index: None,
            default_index: None,
        });
        let answer = f(provider.as_ref());
        self.providers.insert(key, provider);
        Ok(answer)
    }

    /// Whether a layer has a provider (a hiera.yaml, or the defaults).
    pub(super) fn has_provider(&mut self, key: &ProviderKey) -> Result<bool, Error> {
        self.with_provider(key, |p| p.is_some())
    }

    fn load_config(&mut self, key: &ProviderKey) -> Result<Option<Rc<HieraConfig>>, Error> {
        let hiera = self.hiera;
        match key {
            ProviderKey::Global => {
                let code = format!("{CODEDIR}/hiera.yaml");
                let path = if hiera.files.is_file(&code) { code } else { format!("{CONFDIR}/hiera.yaml") };
                let config = if hiera.files.is_file(&path) {
                    hiera.config(Layer::Global, &path)?
                } else {
                    hiera.default_config(&path, CONFDIR)
                };
                if config.version == 4 {
                    return Err(config.fail("hiera.yaml version 4 cannot be used in the global layer", None));
                }
                Ok(Some(config))
            }
            ProviderKey::Environment => {
                let path = format!("{}/hiera.yaml", self.environment_dir());
                if !hiera.files.is_file(&path) {
                    return Ok(None);
                }
                self.layer_config(Layer::Environment, &path, "an environment")
            }
            ProviderKey::Module(name) => {
                let Some(dir) = self.module_dir(name) else { return Ok(None) };
                let path = format!("{dir}/hiera.yaml");
                if !hiera.files.is_file(&path) {
                    return Ok(None);
                }
                self.layer_config(Layer::Module, &path, "a module")
            }
        }
    }

    /// An environment's or module's config; version 3 there is ignored (or,
    /// with `strict = error`, refused).
    fn layer_config(&self, layer: Layer, path: &str, where_: &str) -> Result<Option<Rc<HieraConfig>>, Error> {
        let config = self.hiera.config(layer, path)?;
        if config.version > 3 {
            return Ok(Some(config));
        }
        if self.hiera.strict_error {
            return Err(config.fail(&format!("hiera.yaml version 3 cannot be used in {where_}"), None));
        }
        Ok(None)
    }

    pub(super) fn environment_dir(&self) -> String {
        [ENVIRONMENTS, "/", self.hiera.scope.environment()].concat()
    }

    /// The directory of a module on the environment's modulepath.
    pub(super) fn module_dir(&self, name: &str) -> Option<String> {
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return None;
        }
        // Concatenation costs a fraction of `format!`, and this runs for
        // every module a key names.
        let bases = self.module_bases().ok()?;
        let dir = bases.iter().map(|base| [base, name].concat()).find(|dir| self.hiera.files.is_dir(dir))?;
        self.loads_metadata(&dir).then_some(dir)
    }

    /// Whether Puppet keeps a module with its `metadata.json`: one that does
    /// not parse drops the module under `strict = error`, and one that lacks
    /// a required key always does (Puppet logs why; the lookup only sees no
    /// module).
    fn loads_metadata(&self, dir: &str) -> bool {
        let Some(text) = self.hiera.files.read(&[dir, "/metadata.json"].concat()) else { return true };
        // Puppet 8 reads an empty file as `{}`; Puppet 7 gives it to the JSON parser.
        if text.is_empty() && self.hiera.puppet == crate::Puppet::V8 {
            return true;
        }
        match crate::formats::json::parse(text) {
            Err(_) => !self.hiera.strict_error,
            Ok(Value::Hash(h)) if !h.is_empty() => {
                let present = |k: &str| h.get(&crate::value::Str(k)).is_some_and(|v| !matches!(v, Value::Undef));
                ["source", "author", "version", "license"].iter().all(|k| present(k))
                    && matches!(h.get(&crate::value::Str("dependencies")), Some(Value::Array(_)))
            }
            Ok(_) => true,
        }
    }

    /// The directories of the environment's modulepath that exist (most
    /// keys name a module, and most installations have no module data), or
    /// why Puppet fails before any lookup: its `environment.conf`.
    pub(super) fn module_bases(&self) -> Result<&[String], &Error> {
        let bases = self.module_bases.get_or_init(|| {
            let conf = environment::read(&self.hiera.files, &self.environment_dir(), self.hiera.scope.environment())?;
            let mut bases: Vec<String> = Vec::new();
            for dir in conf.modulepath {
                let dir = [dir.trim_end_matches('/'), "/"].concat();
                if self.hiera.files.is_dir(&dir) && !bases.contains(&dir) {
                    bases.push(dir);
                }
            }
            Ok(bases)
        });
        bases.as_deref()
    }

    /// `configured_data_providers`: the levels with their locations resolved
    /// for this node. Resolving them is not explained (Puppet resolves them
    /// with an invocation of its own).
    pub(super) fn levels(
        &mut self,
        pkey: &ProviderKey,
        default_hierarchy: bool,
    ) -> Result<Rc<Vec<LevelProvider>>, Error> {
        let Some(provider) = self.providers.get(pkey).and_then(Option::as_ref) else { return Ok(Rc::new(Vec::new())) };
        let cached = if default_hierarchy { &provider.default_levels } else { &provider.levels };
        if let Some(levels) = cached {
            return Ok(levels.clone());
        }
        let kept = self.hiera.resolved.borrow().get(&(pkey.clone(), default_hierarchy));
        let levels = match kept {
            Some(levels) => levels,
            None => {
                let levels =
                    Rc::new(self.create_levels_unexplained(pkey, provider.config.clone(), default_hierarchy)?);
                self.hiera.resolved.borrow_mut().levels.insert((pkey.clone(), default_hierarchy), levels.clone());
                levels
            }
        };
        if let Some(p) = self.providers.get_mut(pkey) {
            if default_hierarchy {
                p.default_levels = Some(levels.clone());
            } else {
                p.levels = Some(levels.clone());
            }
        }
        Ok(levels)
    }

    fn create_levels_unexplained(
        &mut self,
        pkey: &ProviderKey,
        config: Rc<HieraConfig>,
        default_hierarchy: bool,
    ) -> Result<Vec<LevelProvider>, Error> {
        let ex = self.ex.take();
        let names = std::mem::take(&mut self.names);
        let module = match pkey {
            ProviderKey::Module(m) => Some(m.to_string()),
            _ => None,
        };
        let created =
            self.create_levels(&config, module, default_hierarchy).map_err(|e| undefined_in_config(&config, e));
        self.ex = ex;
        self.names = names;
        created
    }

    fn create_levels(
        &mut self,
        config: &HieraConfig,
        module: Option<String>,
        default_hierarchy: bool,
    ) -> Result<Vec<LevelProvider>, Error> {
        let cfg = config.path.as_deref();
        let is_default = config.path.is_none();
        let hierarchy = if default_hierarchy {
            match &config.default_hierarchy {
                Some(h) => h.as_slice(),
                None => return Ok(Vec::new()),
            }
        } else {
            config.hierarchy.as_slice()
        };
        let mut out: Vec<LevelProvider> = Vec::new();
        for level in hierarchy {
            if out.iter().any(|l| l.name == level.name) {
                return Err(duplicate_name(config, &level.name));
            }
            let datadir = crate::load::fs::join(&config.root, level.datadir.as_deref().unwrap_or("data"));
            let datadir = self.interpolate(Value::String(datadir), false, cfg)?.to_ruby_s();
            // Only a version 5 hierarchy's locations are resolved so.
            self.lenient_variables = self.hiera.puppet == crate::Puppet::V8 && config.version == 5;
            let locations = self.resolve_locations(level, &datadir, is_default, cfg);
            self.lenient_variables = false;
            let mut locations = locations?;
            if is_default && locations.as_ref().is_some_and(Vec::is_empty) {
                continue;
            }
            let first =
                out.last().map_or(0, |l: &LevelProvider| l.first + l.locations.as_ref().map_or(0, |l| l.len() as u32));
            for (i, l) in locations.iter_mut().flatten().enumerate() {
                l.id = first + i as u32;
            }
            let options = match &level.options {
                Some(options) => self.interpolate(Value::Hash(options.clone()), false, cfg)?.as_hash().cloned(),
                None => None,
            };
            out.push(LevelProvider {
                name: level.name.clone(),
                function: level.function.clone(),
                locations,
                first,
                config_path: config.path.clone(),
                module: module.clone(),
                options,
                datadir,
            });
        }
        Ok(out)
    }

    fn resolve_locations(
        &mut self,
        level: &Level,
        datadir: &str,
        is_default: bool,
        cfg: Option<&str>,
    ) -> Result<Option<Vec<Location>>, Error> {
        Ok(Some(match &level.locations {
            Locations::None => return Ok(None),
            Locations::Paths(paths) => {
                let mut out = Vec::new();
                for declared in paths {
                    let (path, tokens) = self.interpolate_location(declared, cfg);
                    let mut path = path?;
                    if let Some(ext) = &level.extension {
                        if !path.ends_with(ext.as_str()) {
                            path.push_str(ext);
                        }
                    }
                    let path = crate::load::fs::join(datadir, &path);
                    let exists = self.hiera.files.exists(&path);
                    if is_default && !exists {
                        continue;
                    }
                    out.push(Location::new(declared.clone(), path, exists, false, tokens));
                }
                out
            }
            Locations::Globs(globs) => {
                let mut out = Vec::new();
                for declared in globs {
                    let (pattern, tokens) = self.interpolate_location(declared, cfg);
                    let pattern = crate::load::fs::join(datadir, &pattern?);
                    for path in self.hiera.files.glob(&pattern).map_err(Error::lookup)? {
                        out.push(Location::new(pattern.clone(), path, true, false, tokens.clone()));
                    }
                }
                out
            }
            Locations::Uris(uris) => {
                let mut out = Vec::new();
                for declared in uris {
                    let (uri, tokens) = self.interpolate_location(declared, cfg);
                    out.push(Location::new(declared.clone(), uri?, true, true, tokens));
                }
                out
            }
            Locations::MappedPaths(var, name, template) => {
                let vars = self.scope_lookup(var, "mapped_path[0]")?;
                let vars: Vec<Value> = match vars {
                    Value::String(s) if !s.is_empty() => vec![Value::String(s)],
                    Value::Array(a) => a.into_vec(),
                    Value::Hash(h) => h.into_iter().map(|(k, v)| Value::Array(vec![k, v].into())).collect(),
                    _ => Vec::new(),
                };
                let mut out = Vec::new();
                for v in vars {
                    self.locals.push((name.clone(), v));
                    let (path, tokens) = self.interpolate_location(template, cfg);
                    self.locals.pop();
                    let path = crate::load::fs::join(datadir, &path?);
                    let exists = self.hiera.files.exists(&path);
                    out.push(Location::new(template.clone(), path, exists, false, tokens));
                }
                out
            }
        }))
    }

    /// A location as its level declares it, interpolated, and the `%{...}`
    /// tokens met on the way (for the explanation).
    fn interpolate_location(&mut self, declared: &str, cfg: Option<&str>) -> (Result<String, Error>, Vec<Token>) {
        let (value, tokens) = self.recording(|run| run.interpolate(Value::from(declared), false, cfg));
        (value.map(|v| v.to_ruby_s()), tokens)
    }
}

pub(super) fn provider_name(key: &ProviderKey, config: &HieraConfig) -> String {
    let place = match key {
        ProviderKey::Global => "Global ".to_string(),
        ProviderKey::Environment => "Environment ".to_string(),
        ProviderKey::Module(m) => format!("Module \"{m}\" "),
    };
    format!("{place}Data Provider (hiera configuration version {})", config.version)
}

/// Puppet re-raises an undefined variable met while resolving a hiera.yaml
/// as its own issue, pointing at the line that uses the variable.
fn undefined_in_config(config: &HieraConfig, e: Error) -> Error {
    let Some(var) = e.message.strip_prefix("Undefined variable '").and_then(|r| r.split('\'').next()) else { return e };
    let uses = |l: &str| ["", "'", "\""].iter().any(|q| l.contains(&format!("%{{{q}{var}{q}}}")));
    let line = config.find_line_matching(1, uses);
    config.fail(&format!("Undefined variable '{var}'"), line)
}

fn duplicate_name(config: &HieraConfig, name: &str) -> Error {
    let matches = |l: &str| {
        let Some(i) = l.find("name:") else { return false };
        if i == 0 || !l[..i].ends_with(char::is_whitespace) {
            return false;
        }
        let rest = l[i + 5..].trim_start().trim_start_matches(['"', '\'']);
        rest.strip_prefix(name).is_some_and(|r| r.chars().next().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
    };
    let first = config.find_line_matching(1, matches);
    let second = first.and_then(|f| config.find_line_matching(f + 1, matches));
    let (first, line) = match second {
        Some(l) => (first, Some(l)),
        None => (None, first),
    };
    let mut message = format!("Hierarchy name '{name}' defined more than once.");
    if let Some(f) = first {
        message.push_str(&format!(" First defined at (line: {f})"));
    }
    config.fail(&message, line)
}
