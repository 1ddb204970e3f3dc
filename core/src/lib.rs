//! Puppet's Hiera 5 lookup, re-implemented over an in-memory filesystem.
//!
//! The engine is a pipeline, and its modules follow it (ARCHITECTURE.md
//! maps them): `settings` says which Puppet is reproduced and what its
//! `puppet.conf` sets, [`fs`] holds the files, [`yaml`] and [`data`] load
//! them, `config` reads hiera.yaml, `lookup` expands the hierarchy and finds
//! values, `interpolate` reads `%{...}`, [`merge`] merges, `lookup_options`
//! and `convert` apply the options, and [`explain`] records and prints the
//! trace. The stages' own modules are the engine's business; what the
//! front ends use is public: [`Hiera`], [`Request`] and [`Answer`], the data
//! model ([`value`]), the document ([`case`]) and the page's engine
//! ([`playground`]).
//!
//! ```
//! use hiera_core::{case::Document, Hiera, Request};
//!
//! let doc = Document::from_yaml(r#"
//! files:
//!   hiera.yaml: |
//!     version: 5
//!   data/common.yaml: |
//!     ntp::servers: [0.pool.ntp.org]
//! "#).unwrap();
//! let hiera = Hiera::new(doc.files(), doc.node());
//! let answer = hiera.lookup(&Request { keys: vec!["ntp::servers".into()], ..Request::default() });
//! assert_eq!(answer.result.unwrap().inspect(), r#"["0.pool.ntp.org"]"#);
//! ```

#![warn(missing_docs)]

// The pipeline's stages, in the order a lookup runs them (ARCHITECTURE.md):
// load files, read the config, expand the hierarchy and find values (the
// lookup, through the backends), interpolate, merge, apply lookup_options,
// explain.
mod load;

pub(crate) mod config;

pub(crate) mod lookup;

mod backends;

pub(crate) mod interpolate;

pub mod merge;

pub(crate) mod lookup_options;

pub mod explain;

// Beside the lookup: classes bound for the node (automatic parameter lookup).
pub mod classes;

// What the stages share: the data model, the lookup key, the formats,
// Puppet's own rules, errors, threads.
mod error;
mod formats;
pub(crate) mod key;
mod manifests;
mod puppet;
mod threads;
pub mod value;

// What the front ends build on the engine.
mod document;

// The public modules, by their short names.
use backends::data;
pub use backends::eyaml;
pub use document::{archive, case, fleet, lesson, playground, reduce, report, review, share, steps};
pub use formats::{hocon, json, yaml};
pub use load::{facts, fs};

/// What the repository's own tools and fuzz targets reach into: not API.
#[doc(hidden)]
pub mod internals {
    pub use crate::backends::data;
    pub use crate::config::{HieraConfig, Layer};
    pub use crate::formats::yaml::hooks::{document_in_pieces, holds_symbol, load_in_pieces};
    pub use crate::interpolate::pieces;
    pub use crate::key::{split_key, LookupKey};
    pub use crate::puppet::convert::Target;
}

pub use config::scope::Node;
pub use config::settings::{Puppet, PUPPET_CONF};
pub use error::{Details, Error, ErrorKind};
pub use lookup::{Answer, Request};
pub use value::Value;

use backends::data::DataFile;
use config::scope::Scope;
use config::{HieraConfig, Layer};
use load::fs::Files;
use lookup_options::Compiled;
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::rc::Rc;
use value::Hash;

/// The directories of `environment`'s modulepath, in order, as its
/// `environment.conf` sets them (or as Puppet's default has them), whether
/// they exist or not; an error where Puppet fails on that file.
pub fn modulepath(files: &Files, environment: &str) -> Result<Vec<String>, Error> {
    config::environment::read(files, &document::case::environment_dir(environment), environment).map(|c| c.modulepath)
}

/// The data_hash function whose files an edit can update in place.
const YAML_DATA: &str = "yaml_data";

/// A Puppet installation to look things up in: its files and the node.
///
/// Parsed data files and configurations are kept between lookups and
/// dropped only when their file changes, so re-running lookups after an
/// edit costs only what the edit touched.
pub struct Hiera {
    files: Files,
    node: Node,
    puppet: Puppet,
    scope: Scope,
    strict_error: bool,
    /// Whether data files note where each value is (see [`Hiera::without_spans`]).
    spans: bool,
    data: RefCell<HashMap<(String, String), Loaded<DataFile>>>,
    configs: RefCell<HashMap<(Layer, String), Loaded<HieraConfig>>>,
    /// Compiled `lookup_options` by the options they were compiled from.
    compiled: RefCell<Vec<(Hash, Rc<Compiled>)>>,
    resolved: RefCell<lookup::Resolved>,
    /// What decrypts eyaml's PKCS7 blocks, when something does.
    pkcs7: Option<Rc<dyn eyaml::Pkcs7>>,
    /// What reads HOCON, when something does.
    hocon: Option<Rc<dyn hocon::Reader>>,
    /// eyaml blocks decrypted so far.
    decrypted: eyaml::Decrypted,
    /// Manifests parsed, or why they could not be (Puppet's message).
    manifests: RefCell<HashMap<String, Result<Rc<manifests::Manifest>, String>>>,
}

impl Hiera {
    /// An installation with these files, looked up for this node as
    /// Puppet 8 does (see [`Hiera::with_puppet`]).
    pub fn new(files: Files, node: Node) -> Hiera {
        let puppet = Puppet::default();
        let scope = Scope::new(&node, puppet);
        let strict_error = config::settings::strict_is_error(puppet, &files);
        Hiera {
            files,
            node,
            puppet,
            scope,
            strict_error,
            spans: true,
            data: RefCell::default(),
            configs: RefCell::default(),
            compiled: RefCell::default(),
            resolved: RefCell::default(),
            pkcs7: eyaml::builtin(),
            hocon: hocon::builtin(),
            decrypted: eyaml::Decrypted::default(),
            manifests: RefCell::default(),
        }
    }

    /// This installation, looked up as `puppet` does.
    pub fn with_puppet(mut self, puppet: Puppet) -> Hiera {
        self.set_puppet(puppet);
        self
    }

    /// Looks up as `puppet` does from now on; what was read under the other
    /// version is read again.
    pub fn set_puppet(&mut self, puppet: Puppet) {
        if puppet == self.puppet {
            return;
        }
        self.puppet = puppet;
        self.scope = Scope::new(&self.node, puppet);
        self.strict_error = config::settings::strict_is_error(puppet, &self.files);
        self.data.get_mut().clear();
        // The kept nodes' scopes were read for the other version.
        *self.resolved.get_mut() = lookup::Resolved::default();
    }

    /// The Puppet whose lookup is reproduced.
    pub fn puppet(&self) -> Puppet {
        self.puppet
    }

    /// Decrypts eyaml's PKCS7 blocks with `pkcs7` from now on (without the
    /// `pkcs7` feature there is nothing to decrypt with until one is given).
    pub fn set_pkcs7(&mut self, pkcs7: Option<Rc<dyn eyaml::Pkcs7>>) {
        self.pkcs7 = pkcs7;
        self.decrypted.get_mut().clear();
    }

    /// What decrypts eyaml's PKCS7 blocks, if anything does.
    pub fn pkcs7(&self) -> Option<Rc<dyn eyaml::Pkcs7>> {
        self.pkcs7.clone()
    }

    /// Reads `hocon_data` files with `hocon` from now on (without the
    /// `hocon` feature there is nothing to read them with until one is
    /// given); files read before are read again.
    pub fn set_hocon(&mut self, hocon: Option<Rc<dyn hocon::Reader>>) {
        self.hocon = hocon;
        self.data.get_mut().retain(|(function, _), _| function != "hocon_data");
        // The hierarchies hold what their levels read, failures included.
        self.resolved.get_mut().forget();
    }

    /// What reads HOCON, if anything does.
    pub fn hocon(&self) -> Option<Rc<dyn hocon::Reader>> {
        self.hocon.clone()
    }

    /// This installation, its data files read without noting where each
    /// value is: for a command that never shows it (the page's steps and
    /// sources of values need it). YAML files read in fewer instructions.
    pub fn without_spans(mut self) -> Hiera {
        self.spans = false;
        self.data.get_mut().clear();
        self
    }

    /// How its data files are read.
    fn reading(&self) -> data::Reading {
        data::Reading { strict_error: self.strict_error, spans: self.spans }
    }

    /// The files.
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// The node.
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// The variables `puppet lookup` gives the node beyond its facts (see
    /// [`Node`]): the facts it fills in, `trusted`, `server_facts`.
    pub fn added_facts(&self) -> Vec<(String, Value)> {
        self.scope.added(&self.node.facts)
    }

    /// Adds or replaces one file, forgetting only what was read from it.
    pub fn set_file(&mut self, path: &str, text: &str) {
        let existed = self.files.is_file(path);
        let spliced = if existed { self.splice_yaml(path, text) } else { None };
        self.files.insert(path, text);
        self.forget(path, existed);
        if let Some(file) = spliced {
            self.data.get_mut().insert((YAML_DATA.to_string(), path.to_string()), Ok(Rc::new(file)));
        }
    }

    /// The YAML data file at `path` once its text is `text`, made from what
    /// was read before when the edit lies inside one entry (see
    /// [`data::splice_yaml`]).
    fn splice_yaml(&mut self, path: &str, text: &str) -> Option<DataFile> {
        let old = self.data.get_mut().remove(&(YAML_DATA.to_string(), path.to_string()))?.ok()?;
        // The hierarchies hold the file too; it must be this cache's alone to change.
        self.resolved.get_mut().forget_data(path);
        let mut file = Rc::try_unwrap(old).ok()?;
        data::splice_yaml(self.files.read(path)?, text, &mut file).then_some(file)
    }

    /// Removes one file.
    pub fn remove_file(&mut self, path: &str) {
        self.files.remove(path);
        self.forget(path, false);
    }

    /// Changes the node (facts, name, environment); parsed files are kept.
    pub fn set_node(&mut self, node: Node) {
        if node == self.node {
            return;
        }
        let from = std::mem::replace(&mut self.node, node);
        let kept = self.resolved.get_mut().switch(from, self.scope.clone(), &self.node);
        self.scope = kept.unwrap_or_else(|| Scope::new(&self.node, self.puppet));
    }

    /// Forgets what was read from `path`; `text_only` when the file was there
    /// before and is still there.
    fn forget(&mut self, path: &str, text_only: bool) {
        if path == PUPPET_CONF {
            self.strict_error = config::settings::strict_is_error(self.puppet, &self.files);
            self.data.borrow_mut().clear();
        }
        // A level's path may name the file with empty segments (`dc9//.yaml`).
        self.data.borrow_mut().retain(|(_, p), _| load::fs::collapsed(p) != path);
        self.configs.borrow_mut().retain(|(_, p), _| p != path);
        self.manifests.borrow_mut().remove(path);
        // Hierarchies depend on the configurations and on which files exist.
        let resolved = self.resolved.get_mut();
        let config = path.ends_with("hiera.yaml") || config::environment::is_conf(path) || path == PUPPET_CONF;
        if text_only && !config {
            resolved.forget_data(path);
        } else {
            resolved.forget();
        }
    }

    /// Looks up keys as `puppet lookup` does.
    pub fn lookup(&self, request: &Request) -> Answer {
        lookup::Run::new(self, request.explain).answer(request)
    }

    /// A session for many plain lookups: like one Puppet compiler, it keeps
    /// `lookup_options` and resolved hierarchies between lookups. Nothing is
    /// explained.
    pub fn session(&self) -> Session<'_> {
        Session { run: lookup::Run::plain(self) }
    }

    /// A session that also notes the path tokens of the locations it
    /// searches (see [`Session::take_path_tokens`]), which it searches as
    /// an explained lookup does: what an explanation's locations say,
    /// without the cost of explaining.
    pub fn tracing_session(&self) -> Session<'_> {
        Session { run: lookup::Run::tracing(self) }
    }

    /// Every key in the data this node sees, in order of first appearance.
    pub fn keys(&self) -> Vec<String> {
        lookup::Run::new(self, false).all_keys()
    }

    /// Every data file the node's hierarchies name (see [`review::DataLocation`]).
    pub fn data_locations(&self) -> Vec<review::DataLocation> {
        lookup::Run::new(self, false).data_locations()
    }

    /// A data file as its backend reads it, parsed once until it changes.
    pub fn data_file(&self, function: &str, path: &str) -> Result<Rc<DataFile>, Error> {
        let key = (function.to_string(), path.to_string());
        if let Some(cached) = self.data.borrow().get(&key) {
            return cached.clone();
        }
        let loaded = match self.files.load(path) {
            Some(Ok(text)) if function == "hocon_data" => {
                data::hocon_file(path, self.hocon.as_ref().map(|r| r.parse(text))).map(Rc::new)
            }
            Some(Ok(text)) => data::load(function, path, text, self.reading()).map(Rc::new),
            // Ruby's error reading the file (`Permission denied @ rb_sysopen - PATH`).
            Some(Err(message)) => Err(Error::runtime(message).at(path, None, None)),
            None => Err(Error::runtime(format!("Is a directory @ io_fread - {path}"))),
        };
        self.data.borrow_mut().insert(key, loaded.clone());
        loaded
    }

    /// Reads the data files of `wanted` (backend function and path) that are
    /// not read yet, at once on the cores there are, for [`Hiera::data_file`]
    /// to find ready: a session's first lookup reads every file its
    /// hierarchy names.
    pub(crate) fn read_data_files(&self, wanted: Vec<(&str, &str)>) {
        let jobs: Vec<(&str, &str)> = {
            let data = self.data.borrow();
            wanted.into_iter().filter(|&(f, p)| !data.contains_key(&(f.to_string(), p.to_string()))).collect()
        };
        let texts: Vec<(&str, &str, &str)> = jobs
            .into_iter()
            .filter(|&(f, _)| f != "hocon_data")
            .filter_map(|(f, p)| Some((f, p, self.files.read(p)?)))
            .collect();
        // Starting a thread costs about what reading 64 KiB does.
        if texts.len() < 2 || texts.iter().map(|t| t.2.len()).sum::<usize>() < 128 * 1024 {
            return;
        }
        let reading = self.reading();
        let read =
            threads::map(texts, |(function, path, text)| (function, path, data::load(function, path, text, reading)));
        let mut data = self.data.borrow_mut();
        for (function, path, loaded) in read {
            data.insert((function.to_string(), path.to_string()), loaded.map(Rc::new));
        }
    }

    /// `lookup_options` compiled, or taken from an earlier run that compiled
    /// the same options: compiling their regexps is most of what a fresh
    /// lookup costs, and an edit rarely changes them.
    pub(crate) fn compile_options(&self, options: Option<&Hash>) -> Result<Option<Rc<Compiled>>, Error> {
        // The environment's, and a few modules'.
        const KEPT: usize = 8;
        let Some(options) = options else { return Ok(None) };
        let same = |kept: &Hash| value::identical_hashes(kept, options);
        if let Some((_, compiled)) = self.compiled.borrow().iter().find(|(kept, _)| same(kept)) {
            return Ok(Some(compiled.clone()));
        }
        let compiled = Rc::new(Compiled::new(options)?);
        let mut cache = self.compiled.borrow_mut();
        if cache.len() == KEPT {
            cache.remove(0);
        }
        cache.push((options.clone(), compiled.clone()));
        Ok(Some(compiled))
    }

    /// Puppet's own global configuration (its data under `root`), used
    /// where there is no global hiera.yaml at `path`: read once (from YAML,
    /// as Puppet's is), and kept as a file's would be until one is made there.
    pub(crate) fn default_config(&self, path: &str, root: &str) -> Rc<HieraConfig> {
        let key = (Layer::Global, path.to_string());
        if let Some(Ok(cached)) = self.configs.borrow().get(&key) {
            return cached.clone();
        }
        let config = Rc::new(HieraConfig::default_for(root));
        self.configs.borrow_mut().insert(key, Ok(config.clone()));
        config
    }

    pub(crate) fn config(&self, layer: Layer, path: &str) -> Result<Rc<HieraConfig>, Error> {
        let key = (layer, path.to_string());
        if let Some(cached) = self.configs.borrow().get(&key) {
            return cached.clone();
        }
        let parsed = match self.files.load(path) {
            Some(Err(message)) => Err(Error::runtime(message).at(path, None, None)),
            text => HieraConfig::parse_for(layer, path, text.and_then(Result::ok).unwrap_or("")).map(Rc::new),
        };
        self.configs.borrow_mut().insert(key, parsed.clone());
        parsed
    }
}

/// A file as read, or why it could not be: kept until the file changes.
type Loaded<T> = Result<Rc<T>, Error>;

/// Plain lookups that share one run's caches (see [`Hiera::session`]).
pub struct Session<'h> {
    run: lookup::Run<'h>,
}

impl Session<'_> {
    /// `lookup(key)`: the value, `None` when not found, or the error.
    pub fn lookup(&mut self, key: &str) -> Result<Option<Value>, Error> {
        self.run.lookup_one(key)
    }

    /// A request's lookup (its keys, merge, default and type): the value or
    /// the error, as [`Hiera::lookup`] answers it; nothing is explained.
    pub fn answer(&mut self, request: &Request) -> Result<Value, Error> {
        self.run.answer_one(request)
    }

    /// In a [tracing session](Hiera::tracing_session), what each `%{...}`
    /// of the hierarchy paths searched for data became since the last call:
    /// the tokens of an explanation's locations, in order.
    pub fn take_path_tokens(&mut self) -> Vec<explain::Token> {
        self.run.take_path_tokens()
    }
}
