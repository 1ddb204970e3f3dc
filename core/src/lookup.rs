//! The lookup itself: layers, providers, hierarchy levels, interpolation and
//! merging, step for step as Puppet's `LookupAdapter` and `Invocation` do it,
//! recording the explanation as it goes.

use crate::config::{FunctionKind, HieraConfig, Layer, Level, Locations};
use crate::data::{self, DataFile};
use crate::error::{Error, ErrorKind};
use crate::explain::{Event, Explanation, NodeId, NodeKind, Token};
use crate::interpolate::{has_tokens, is_empty_expression, method_call, pieces, Piece};
use crate::key::{split_key, LookupKey};
use crate::lookup_options::{self, Compiled};
use crate::merge::{Kind, Strategy};
use crate::value::{Hash, Value};
use crate::Hiera;
use indexmap::map::RawEntryApiV1;
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};
use std::cell::OnceCell;
use std::rc::Rc;

/// What to look up, with `puppet lookup`'s options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// The keys; the first one found wins.
    pub keys: Vec<String>,
    /// `--merge` (a strategy name or a hash with `strategy`); `None` lets
    /// `lookup_options` decide.
    pub merge: Option<Value>,
    /// `--default`: returned when no key is found.
    pub default: Option<Value>,
    /// `--type`: the type the value must have.
    pub value_type: Option<String>,
    /// Whether to record the explanation.
    pub explain: bool,
}

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The value found, or why there is none ([`ErrorKind::NotFound`] when no key was found).
    pub result: Result<Value, Error>,
    /// The trace, when asked for.
    pub explanation: Option<Explanation>,
    /// The `lookup_options` that applied to the (last) key looked up.
    pub options: Option<AppliedOptions>,
}

impl Answer {
    /// The text `puppet lookup --explain` prints for this answer: the trace,
    /// ending with the error for a failed lookup; empty for a hard error.
    pub fn explain_text(&self) -> String {
        match &self.explanation {
            Some(ex) if !self.is_unexplained() => ex.render(),
            _ => String::new(),
        }
    }

    /// Whether this is a failure Puppet prints no explanation for.
    pub fn is_unexplained(&self) -> bool {
        matches!(&self.result, Err(e) if matches!(e.kind, ErrorKind::Puppet | ErrorKind::Runtime))
    }
}

/// A value found, with the trace node that holds the same value (Puppet's
/// deep merge mutates it, and the trace shows the mutation).
type Hit = (Value, Option<NodeId>);
type Found = Result<Option<Hit>, Error>;

const LOOKUP_OPTIONS: &str = "lookup_options";
const ENVIRONMENTS: &str = "/etc/puppetlabs/code/environments";
const CODEDIR: &str = "/etc/puppetlabs/code";
const CONFDIR: &str = "/etc/puppetlabs/puppet";

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ProviderKey {
    Global,
    Environment,
    Module(Rc<str>),
}

/// Hierarchies resolved for the node, with the data files their locations
/// have read: kept by [`Hiera`] across runs until the node, a configuration
/// or the set of files changes, so that a run after an edit resolves nothing
/// again and reads only the edited file.
#[derive(Default)]
pub(crate) struct Resolved(HashMap<(ProviderKey, bool), Rc<Vec<LevelProvider>>>);

impl Resolved {
    /// Forgets what was read from a data file whose text changed.
    pub(crate) fn forget_data(&mut self, path: &str) {
        let mut in_use = false;
        for levels in self.0.values_mut() {
            match Rc::get_mut(levels) {
                Some(levels) => levels
                    .iter_mut()
                    .flat_map(|l| l.locations.iter_mut().flatten())
                    .filter(|l| l.path == path)
                    .for_each(|l| drop(l.data.take())),
                None => in_use = true,
            }
        }
        // A run still holding a hierarchy cannot be told; it is dropped instead.
        if in_use {
            self.forget();
        }
    }

    /// Forgets every hierarchy.
    pub(crate) fn forget(&mut self) {
        self.0.clear();
    }
}

/// Which locations of a hierarchy hold each key, for a session's plain
/// lookups: a lookup then skips the files that cannot answer it, as it would
/// find nothing there. Locations whose file could not be read are always
/// visited, so that the error comes when the search reaches them.
struct KeyIndex {
    /// By key: the ids of the locations holding it, each with the key's
    /// position in its file (the session's files do not change).
    holding: IndexMap<Value, Vec<(u32, u32)>, FxBuildHasher>,
    unreadable: Vec<u32>,
    /// Whether every level has locations: a first-found lookup may then go
    /// straight to the locations visited (see [`Run::first_visited`]).
    located: bool,
}

/// The locations a lookup visits (see [`KeyIndex`]), ids in order.
#[derive(Clone, Copy)]
struct Visit<'a> {
    holding: &'a [(u32, u32)],
    unreadable: &'a [u32],
}

impl Visit<'_> {
    fn includes(&self, id: u32) -> bool {
        self.holding.binary_search_by_key(&id, |h| h.0).is_ok() || self.unreadable.binary_search(&id).is_ok()
    }

    /// Whether any id in `first..first + len` is visited.
    fn any_in(&self, first: u32, len: usize) -> bool {
        let end = first + len as u32;
        let held = self.holding.get(self.holding.partition_point(|h| h.0 < first)).is_some_and(|h| h.0 < end);
        let unreadable = &self.unreadable;
        held || unreadable.get(unreadable.partition_point(|&i| i < first)).is_some_and(|&i| i < end)
    }
}

/// A resolved data location of a hierarchy level.
#[derive(Clone, Debug)]
struct Location {
    original: String,
    path: String,
    exists: bool,
    uri: bool,
    /// What each `%{...}` of the path became.
    tokens: Vec<Token>,
    /// The file as its backend read it, once read.
    data: std::cell::OnceCell<Result<Rc<DataFile>, Error>>,
    /// Its place among all the locations of its hierarchy, in order.
    id: u32,
}

impl Location {
    fn new(original: String, path: String, exists: bool, uri: bool, tokens: Vec<Token>) -> Location {
        Location { original, path, exists, uri, tokens, data: std::cell::OnceCell::new(), id: 0 }
    }
}

/// A hierarchy level with its locations resolved for this node.
#[derive(Clone, Debug)]
struct LevelProvider {
    name: String,
    function: Option<(FunctionKind, String)>,
    locations: Option<Vec<Location>>,
    /// The id of its first location.
    first: u32,
    config_path: Option<String>,
    module: Option<String>,
    options: Option<Hash>,
}

struct Provider {
    config: Rc<HieraConfig>,
    levels: Option<Rc<Vec<LevelProvider>>>,
    default_levels: Option<Rc<Vec<LevelProvider>>>,
    /// A session's [`KeyIndex`] of `levels` and of `default_levels`.
    index: Option<Rc<KeyIndex>>,
    default_index: Option<Rc<KeyIndex>>,
}

/// The providers a run has set up (`None` inside: the layer has none).
/// Every lookup asks for the global and environment ones, so those are
/// not looked up by key.
#[derive(Default)]
struct Providers {
    global: Option<Option<Provider>>,
    environment: Option<Option<Provider>>,
    modules: HashMap<Rc<str>, Option<Provider>>,
}

impl Providers {
    fn get(&self, key: &ProviderKey) -> Option<&Option<Provider>> {
        match key {
            ProviderKey::Global => self.global.as_ref(),
            ProviderKey::Environment => self.environment.as_ref(),
            ProviderKey::Module(m) => self.modules.get(m),
        }
    }

    fn get_mut(&mut self, key: &ProviderKey) -> Option<&mut Provider> {
        match key {
            ProviderKey::Global => self.global.as_mut(),
            ProviderKey::Environment => self.environment.as_mut(),
            ProviderKey::Module(m) => self.modules.get_mut(m),
        }?
        .as_mut()
    }

    fn insert(&mut self, key: &ProviderKey, provider: Option<Provider>) {
        match key {
            ProviderKey::Global => self.global = Some(provider),
            ProviderKey::Environment => self.environment = Some(provider),
            ProviderKey::Module(m) => {
                self.modules.insert(m.clone(), provider);
            }
        }
    }
}

/// One `puppet lookup` run: the adapter's caches and the invocation's state.
pub(crate) struct Run<'h> {
    hiera: &'h Hiera,
    ex: Option<Explanation>,
    names: Vec<Rc<str>>,
    top_key: Rc<str>,
    module_name: Option<Rc<str>>,
    /// Keys asked for before: a session asks for the same keys again.
    keys: HashMap<Rc<str>, Rc<KnownKey>>,
    /// One copy of each module name those keys have: every lookup takes
    /// its key's, and most keys share a few.
    module_names: rustc_hash::FxHashSet<Rc<str>>,
    options: HashMap<Option<Rc<str>>, Option<Rc<Compiled>>>,
    module_default_options: HashMap<Rc<str>, Option<Rc<Compiled>>>,
    global_options: Option<Option<Hash>>,
    env_options: Option<Option<Rc<Hash>>>,
    env_compiled: Option<Option<Rc<Compiled>>>,
    providers: Providers,
    locals: Vec<(String, Value)>,
    /// Collects the `%{...}` tokens interpolation meets (see `recording`).
    recorder: Option<Vec<Token>>,
    /// How deep in nested `%{lookup()}`s the run is.
    depth: usize,
    /// The `lookup_options` that applied to the requested key.
    applied: Option<AppliedOptions>,
    /// Whether to note `applied`: a session's plain lookups do not report it.
    keep_applied: bool,
    /// Whether to index each hierarchy searched (see [`KeyIndex`]).
    indexing: bool,
}

/// A key a run was asked for before.
struct KnownKey {
    lk: LookupKey,
    /// The `lookup_options` of its module and which of them apply to it,
    /// once read (they do not change during a run).
    options: OnceCell<(Option<Rc<Compiled>>, Option<lookup_options::Match>)>,
}

/// The `lookup_options` that applied to a lookup.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedOptions {
    /// The literal key or the regexp that matched the key.
    pub matched: String,
    /// The options (`merge`, `convert_to`).
    pub options: Value,
    /// True when a merge given with the lookup overrode their `merge`.
    pub merge_overridden: bool,
}

impl<'h> Run<'h> {
    pub(crate) fn new(hiera: &'h Hiera, explain: bool) -> Run<'h> {
        Run {
            hiera,
            ex: explain.then(Explanation::default),
            names: Vec::new(),
            top_key: Rc::from(""),
            module_name: None,
            keys: HashMap::default(),
            module_names: Default::default(),
            options: HashMap::default(),
            module_default_options: HashMap::default(),
            global_options: None,
            env_options: None,
            env_compiled: None,
            providers: Providers::default(),
            locals: Vec::new(),
            recorder: None,
            depth: 0,
            applied: None,
            keep_applied: true,
            indexing: false,
        }
    }

    /// A run for many plain lookups (see [`Hiera::session`]): nothing is
    /// explained, which `lookup_options` applied is not noted, and each
    /// hierarchy's keys are indexed the first time it is searched.
    pub(crate) fn plain(hiera: &'h Hiera) -> Run<'h> {
        Run { keep_applied: false, indexing: true, ..Run::new(hiera, false) }
    }

    /// `puppet lookup`'s `main`: the lookup, with a lookup error added to the
    /// explanation as Puppet prints it.
    pub(crate) fn answer(mut self, request: &Request) -> Answer {
        let result = self.lookup_names(
            &request.keys,
            request.merge.as_ref(),
            request.default.clone(),
            request.value_type.as_deref(),
        );
        if let (Err(e), Some(ex)) = (&result, &mut self.ex) {
            if matches!(e.kind, ErrorKind::Lookup | ErrorKind::NotFound) {
                ex.reset_to(Explanation::ROOT);
                ex.text(e.message.clone());
            }
        }
        Answer { result, explanation: self.ex, options: self.applied }
    }

    // ---- the explanation ----

    /// Runs `f` inside a new trace node (built only when explaining).
    fn with<T>(&mut self, kind: impl FnOnce() -> NodeKind, f: impl FnOnce(&mut Self) -> T) -> T {
        let Some(ex) = self.ex.as_mut() else { return f(self) };
        let parent = ex.current();
        ex.push(kind());
        let r = f(self);
        if let Some(ex) = self.ex.as_mut() {
            ex.reset_to(parent);
        }
        r
    }

    fn found(&mut self, key: &str, value: &Value) -> Option<NodeId> {
        let ex = self.ex.as_mut()?;
        Some(ex.set_event(Event::Found { key: key.to_string(), value: value.clone() }))
    }

    fn not_found(&mut self, key: &str) {
        if let Some(ex) = self.ex.as_mut() {
            ex.set_event(Event::NotFound(key.to_string()));
        }
    }

    fn result(&mut self, value: &Value) -> Option<NodeId> {
        let ex = self.ex.as_mut()?;
        Some(ex.set_event(Event::Result(value.clone())))
    }

    // ---- Lookup.lookup and the adapter ----

    fn lookup_names(
        &mut self,
        names: &[String],
        merge: Option<&Value>,
        default: Option<Value>,
        value_type: Option<&str>,
    ) -> Result<Value, Error> {
        for name in names {
            if let Some((value, _)) = self.adapter_lookup(name, merge)? {
                if let Some(t) = value_type {
                    crate::types::assert("Found value", t, &value)?;
                }
                return Ok(value);
            }
        }
        if let Some(d) = default {
            if let Some(t) = value_type {
                crate::types::assert("Default value", t, &d)?;
            }
            return Ok(d);
        }
        let message = match names {
            [one] => format!("Function lookup() did not find a value for the name '{one}'"),
            many => format!(
                "Function lookup() did not find a value for any of the names [{}]",
                many.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
            ),
        };
        Err(Error::lookup(message).with_kind(ErrorKind::NotFound))
    }

    fn adapter_lookup(&mut self, key: &str, merge: Option<&Value>) -> Found {
        if key == LOOKUP_OPTIONS || key.starts_with("lookup_options.") {
            return self.with(|| NodeKind::InvalidKey(LOOKUP_OPTIONS.into()), |_| Ok(None));
        }
        let known = self.known_key(key)?;
        let saved = (
            std::mem::replace(&mut self.top_key, known.lk.key.clone()),
            std::mem::replace(&mut self.module_name, known.lk.module.clone()),
        );
        let r = self.adapter_lookup_key(&known, merge);
        (self.top_key, self.module_name) = saved;
        r
    }

    /// The key split, from the keys asked for before or newly.
    fn known_key(&mut self, key: &str) -> Result<Rc<KnownKey>, Error> {
        if let Some(known) = self.keys.get(key) {
            return Ok(known.clone());
        }
        let names = &mut self.module_names;
        let lk = LookupKey::parse_sharing(key, |m| match names.get(m) {
            Some(shared) => shared.clone(),
            None => {
                let m = Rc::from(m);
                names.insert(Rc::clone(&m));
                m
            }
        })?;
        let known = Rc::new(KnownKey { lk, options: OnceCell::new() });
        self.keys.insert(known.lk.key.clone(), known.clone());
        Ok(known)
    }

    fn adapter_lookup_key(&mut self, known: &KnownKey, merge: Option<&Value>) -> Found {
        let lk = &known.lk;
        let (compiled, found) = match known.options.get() {
            Some(options) => options.clone(),
            None => {
                let compiled = self.compiled_options(lk)?;
                let found = compiled.as_deref().and_then(|c| c.find(lk));
                known.options.get_or_init(|| (compiled, found)).clone()
            }
        };
        let applied = compiled.as_deref().zip(found).map(|(c, m)| c.get(m));
        let applied = applied.and_then(|(options, matched)| Some((options.as_hash()?, matched)));
        // Options hashes hold a key or two: a scan costs less than making a key to hash.
        let option =
            |name: &str| applied.and_then(|(o, _)| o.iter().find(|(k, _)| k.as_str() == Some(name))).map(|(_, v)| v);
        if self.depth == 0 && self.keep_applied {
            self.applied = applied.map(|(options, matched)| AppliedOptions {
                matched: matched.to_string(),
                options: Value::Hash(options.clone()),
                merge_overridden: merge.is_some() && option("merge").is_some(),
            });
        }
        let merge = match merge {
            Some(m) => Some(m.clone()),
            None => {
                let m = option("merge").cloned();
                if m.is_some() {
                    if let Some(ex) = self.ex.as_mut() {
                        ex.merge_source(LOOKUP_OPTIONS);
                    }
                }
                m
            }
        };
        let convert_to = option("convert_to").cloned();
        let found = self.with(
            || NodeKind::Search { key: lk.key.to_string(), meta: false },
            |run| {
                if let Some(hit) = run.do_lookup(lk, merge.as_ref())? {
                    return Ok(Some(hit));
                }
                match run.lookup_default_in_module(lk)? {
                    Some((v, _)) => run.dig(lk, v),
                    None => Ok(None),
                }
            },
        )?;
        match (found, convert_to) {
            (Some((value, _)), Some(convert_to)) => {
                let (converted, args) = crate::convert::convert(&lk.key, &convert_to, value)?;
                if let Some(ex) = self.ex.as_mut() {
                    ex.text(format!("Applying convert_to lookup_option with arguments {args}"));
                }
                Ok(Some((converted, None)))
            }
            (found, _) => Ok(found),
        }
    }

    fn do_lookup(&mut self, lk: &LookupKey, merge: Option<&Value>) -> Found {
        let strategy = Strategy::from_value(merge)?;
        let layers = [Layer::Global, Layer::Environment, Layer::Module];
        let found = self.merge_lookup(&strategy, &layers, |run, layer| match layer {
            Layer::Global => run.lookup_global(lk, &strategy),
            Layer::Environment => run.lookup_in_environment(lk, &strategy),
            Layer::Module => run.lookup_in_module(lk, &strategy),
        })?;
        match found {
            Some((v, id)) if lk.segments.is_empty() => Ok(Some((v, id))),
            Some((v, _)) => self.dig(lk, v),
            None => Ok(None),
        }
    }

    fn dig(&mut self, lk: &LookupKey, value: Value) -> Found {
        if lk.segments.is_empty() {
            return Ok(Some((value, None)));
        }
        Ok(self.sub_lookup(&lk.key, &lk.segments, &value)?.map(|v| (v, None)))
    }

    /// `MergeStrategy#lookup`: each variant in turn, merged (or the first found).
    fn merge_lookup<V>(
        &mut self,
        strategy: &Strategy,
        variants: &[V],
        mut f: impl FnMut(&mut Self, &V) -> Found,
    ) -> Found {
        if strategy.is_first_found() {
            for v in variants {
                if let Some(hit) = f(self, v)? {
                    return Ok(Some(hit));
                }
            }
            return Ok(None);
        }
        let keeps_identity = strategy.kind != Kind::Unique;
        match variants.len() {
            0 => Ok(None),
            1 => Ok(f(self, &variants[0])?.map(|(v, id)| (strategy.merge_single(v), id.filter(|_| keeps_identity)))),
            _ => {
                let kind = || NodeKind::Merge {
                    strategy: strategy.name().to_string(),
                    options: strategy.options_without_strategy(),
                };
                self.with(kind, |run| {
                    let mut memo: Option<Hit> = None;
                    for v in variants {
                        let branch = run.ex.as_ref().map(Explanation::len);
                        let Some((value, id)) = f(run, v)? else { continue };
                        memo = Some(match memo.take() {
                            None => (strategy.convert_value(value), id.filter(|_| keeps_identity)),
                            Some((mut higher, higher_id)) => {
                                let merged = strategy.merge(&mut higher, value)?;
                                if let (Some(hid), Some(ex)) = (higher_id, run.ex.as_mut()) {
                                    ex.update_value(hid, higher);
                                }
                                (merged, None)
                            }
                        });
                        // The page shows the merged value after each branch.
                        if let (Some(b), Some(ex), Some((m, _))) = (branch, run.ex.as_mut(), memo.as_ref()) {
                            if b < ex.len() {
                                ex.node_mut(b).merged = Some(m.clone());
                            }
                        }
                    }
                    Ok(match memo {
                        None => None,
                        Some((v, _)) => {
                            let id = run.result(&v);
                            Some((v, id))
                        }
                    })
                })
            }
        }
    }

    /// Puppet's recursion guard around a provider's lookup; Puppet errors
    /// raised inside become lookup errors.
    fn check<T>(&mut self, name: &Rc<str>, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        if self.names.contains(name) {
            return Err(Error::lookup(format!("Recursive lookup detected in [{}]", self.names.join(", "))));
        }
        self.names.push(name.clone());
        let r = f(self);
        self.names.pop();
        r.map_err(|e| match e.kind {
            ErrorKind::Puppet => {
                let mut e = e.with_kind(ErrorKind::Lookup);
                e.has_issue_code = false;
                e
            }
            _ => e,
        })
    }

    // ---- layers ----

    fn lookup_global(&mut self, lk: &LookupKey, strategy: &Strategy) -> Found {
        match self.provider_lookup(&ProviderKey::Global, lk, strategy, false) {
            Err(e) if e.kind == ErrorKind::Lookup && !e.has_issue_code => {
                Err(Error::puppet(format!("Lookup of key '{}' failed: {}", self.top_key, e.message)))
            }
            r => r,
        }
    }

    fn lookup_in_environment(&mut self, lk: &LookupKey, strategy: &Strategy) -> Found {
        if !self.has_provider(&ProviderKey::Environment)? {
            return Ok(None);
        }
        self.provider_lookup(&ProviderKey::Environment, lk, strategy, false)
    }

    fn lookup_in_module(&mut self, lk: &LookupKey, strategy: &Strategy) -> Found {
        let Some(module) = self.module_name.clone() else { return Ok(None) };
        let key = ProviderKey::Module(module.clone());
        if !self.has_provider(&key)? {
            if self.ex.is_some() {
                let exists = self.module_dir(&module).is_some();
                if let Some(ex) = self.ex.as_mut() {
                    ex.module_not_found(&module, exists);
                }
            }
            return Ok(None);
        }
        self.provider_lookup(&key, lk, strategy, false)
    }

    /// `ConfiguredDataProvider#key_lookup` (or `key_lookup_in_default`).
    fn provider_lookup(
        &mut self,
        pkey: &ProviderKey,
        lk: &LookupKey,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Found {
        self.check(&lk.key, |run| {
            let Some(config) = run.with_provider(pkey, |p| p.map(|p| p.config.clone()))? else { return Ok(None) };
            let kind = || NodeKind::Provider { name: provider_name(pkey, &config), config_path: config.path.clone() };
            run.with(kind, |run| {
                let levels = run.levels(pkey, default_hierarchy)?;
                if levels.is_empty() {
                    run.not_found(&lk.key);
                    return Ok(None);
                }
                let index = run.key_index(pkey, default_hierarchy, &levels);
                let visit = index.as_deref().map(|i| Visit {
                    holding: i
                        .holding
                        .raw_entry_v1()
                        .from_hash(lk.root_hash, |k| *k == lk.root_value)
                        .map_or(&[], |(_, ids)| ids.as_slice()),
                    unreadable: &i.unreadable,
                });
                match visit {
                    Some(v) if strategy.is_first_found() && index.as_ref().is_some_and(|i| i.located) => {
                        run.first_visited(&levels, lk, v)
                    }
                    _ => run.merge_lookup(strategy, &levels, |run, level| run.level_lookup(level, lk, strategy, visit)),
                }
            })
        })
    }

    /// A session's index of a hierarchy's keys, made the first time it is searched.
    fn key_index(
        &mut self,
        pkey: &ProviderKey,
        default_hierarchy: bool,
        levels: &[LevelProvider],
    ) -> Option<Rc<KeyIndex>> {
        if self.ex.is_some() || !self.indexing {
            return None;
        }
        let kept = self.providers.get(pkey).and_then(Option::as_ref);
        if let Some(index) =
            kept.and_then(|p| if default_hierarchy { p.default_index.as_ref() } else { p.index.as_ref() })
        {
            return Some(index.clone());
        }
        let located = levels.iter().all(|l| l.locations.is_some());
        let mut index = KeyIndex { holding: IndexMap::default(), unreadable: Vec::new(), located };
        for level in levels {
            for l in level.locations.iter().flatten().filter(|l| l.exists) {
                match self.data_hash(level, Some(l)) {
                    Ok(file) => file.hash.keys().enumerate().for_each(|(at, k)| {
                        index.holding.entry(k.clone()).or_default().push((l.id, at as u32));
                    }),
                    Err(_) => index.unreadable.push(l.id),
                }
            }
        }
        let index = Rc::new(index);
        let p = self.providers.get_mut(pkey)?;
        *(if default_hierarchy { &mut p.default_index } else { &mut p.index }) = Some(index.clone());
        Some(index)
    }

    /// A first-found search of a hierarchy whose levels all have locations,
    /// reading only the locations `visit` names, in order: what searching
    /// level by level would find, without walking the levels that lack the key.
    fn first_visited(&mut self, levels: &[LevelProvider], lk: &LookupKey, visit: Visit) -> Found {
        let (mut holding, mut unreadable) = (visit.holding.iter().peekable(), visit.unreadable.iter().peekable());
        loop {
            let (id, at) = match (holding.peek(), unreadable.peek()) {
                (Some(&&(h, _)), Some(&&u)) if u < h => (u, None),
                (Some(&&(h, at)), _) => {
                    holding.next();
                    (h, Some(at as usize))
                }
                (None, Some(&&u)) => (u, None),
                (None, None) => return Ok(None),
            };
            if at.is_none() {
                unreadable.next();
            }
            // Ids run on from level to level: the location's level is the last to start at or before it.
            let Some(level) = levels.partition_point(|l| l.first <= id).checked_sub(1).map(|i| &levels[i]) else {
                continue;
            };
            let Some(location) = level.locations.as_ref().and_then(|ls| ls.get((id - level.first) as usize)) else {
                continue;
            };
            if let Some(hit) = self.data_value(level, Some(location), lk, at)? {
                return Ok(Some(hit));
            }
        }
    }

    /// `DataHashFunctionProvider#unchecked_key_lookup`; with `visit`, only
    /// the locations it names are read (the others would give nothing).
    fn level_lookup(
        &mut self,
        level: &LevelProvider,
        lk: &LookupKey,
        strategy: &Strategy,
        visit: Option<Visit>,
    ) -> Found {
        if let (Some(v), Some(locations)) = (visit, &level.locations) {
            if !v.any_in(level.first, locations.len()) {
                return Ok(None);
            }
        }
        let kind = || NodeKind::Provider { name: format!("Hierarchy entry \"{}\"", level.name), config_path: None };
        self.with(kind, |run| match &level.locations {
            None => run.merge_lookup(strategy, &[()], |run, _| run.data_value(level, None, lk, None)),
            Some(locations) => run.merge_lookup(strategy, locations, |run, l| {
                if visit.is_some_and(|v| !v.includes(l.id)) {
                    return Ok(None);
                }
                let kind = || NodeKind::Location { path: l.path.clone(), original: l.original.clone(), uri: l.uri };
                run.with(kind, |run| {
                    if let Some(ex) = run.ex.as_mut() {
                        let id = ex.current();
                        ex.node_mut(id).tokens = l.tokens.clone();
                    }
                    if l.exists {
                        run.data_value(level, Some(l), lk, None)
                    } else {
                        if let Some(ex) = run.ex.as_mut() {
                            ex.set_event(Event::LocationNotFound);
                        }
                        Ok(None)
                    }
                })
            }),
        })
    }

    /// The key's value in a level's data, if it is there; `at`: where it is
    /// in the file, known from a [`KeyIndex`].
    fn data_value(
        &mut self,
        level: &LevelProvider,
        location: Option<&Location>,
        lk: &LookupKey,
        at: Option<usize>,
    ) -> Found {
        let root = lk.root();
        let file = self.data_hash(level, location)?;
        let in_namespace = level.module.as_deref().is_none_or(|m| root == LOOKUP_OPTIONS || in_module(root, m));
        let index = at.or_else(|| file.hash.raw_entry_v1().index_from_hash(lk.root_hash, |k| *k == lk.root_value));
        let Some((index, (_, value))) = index.and_then(|i| Some((i, file.hash.get_index(i)?))).filter(|_| in_namespace)
        else {
            self.not_found(root);
            return Ok(None);
        };
        let function = level.function.as_ref().map(|f| f.1.as_str()).unwrap_or("");
        let entry = file.entries.get(index).copied().unwrap_or_else(|| data::Entry::of(value));
        if !entry.lookup_value {
            return Err(data::not_a_lookup_value(root, function, location.map(|l| l.path.as_str()), value));
        }
        let value = if entry.interpolated { self.interpolate(value.clone(), true, None)? } else { value.clone() };
        let id = self.found(root, &value);
        if let (Some(id), Some(l), Some(ex)) = (id, location, self.ex.as_mut()) {
            let spans = file.spans.get(index).cloned().unwrap_or_default();
            let mut at = Vec::new();
            spans.positions(&mut at);
            let surprises = file.surprises.iter().filter(|s| at.contains(&s.at)).cloned().collect();
            ex.node_mut(id).origin = Some(crate::explain::Origin { file: l.path.clone(), spans, surprises });
        }
        Ok(Some((value, id)))
    }

    fn data_hash(&mut self, level: &LevelProvider, location: Option<&Location>) -> Result<Rc<DataFile>, Error> {
        // Read before: the checks below passed for this level and location then.
        if let Some(read) = location.and_then(|l| l.data.get()) {
            return read.clone();
        }
        let Some((kind, function)) = &level.function else {
            return Err(Error::puppet(format!(
                "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '{}'",
                level.name
            )));
        };
        if *kind != FunctionKind::DataHash || !data::is_known_data_hash(function) {
            return Err(Error::issue(
                format!("Unable to find '{}' function named '{function}'", kind.key()),
                level.config_path.as_deref(),
                None,
            ));
        }
        // yaml_data and json_data declare `Struct[{path=>String[1]}]`: any
        // other option, or no path, fails their argument check.
        let has_path = |l: &&Location| !l.uri && level.options.as_ref().is_none_or(|o| o.is_empty());
        let Some(location) = location.filter(has_path) else {
            return Err(Error::runtime(format!(
                "'{function}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
            )));
        };
        location.data.get_or_init(|| self.hiera.data_file(function, &location.path)).clone()
    }

    // ---- providers and their configuration ----

    /// `f` of a layer's provider, set up the first time it is asked for.
    /// (Giving `f` the provider, rather than returning it, looks it up once.)
    fn with_provider<T>(&mut self, key: &ProviderKey, f: impl FnOnce(Option<&Provider>) -> T) -> Result<T, Error> {
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
    fn has_provider(&mut self, key: &ProviderKey) -> Result<bool, Error> {
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
                    Rc::new(HieraConfig::default_for(CONFDIR))
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

    fn environment_dir(&self) -> String {
        format!("{ENVIRONMENTS}/{}", self.hiera.scope.environment())
    }

    /// The directory of a module on the environment's modulepath.
    fn module_dir(&self, name: &str) -> Option<String> {
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return None;
        }
        let env_modules = format!("{}/modules", self.environment_dir());
        [env_modules.as_str(), "/etc/puppetlabs/code/modules", "/opt/puppetlabs/puppet/modules"]
            .iter()
            .map(|base| format!("{base}/{name}"))
            .find(|dir| self.hiera.files.is_dir(dir))
    }

    /// `configured_data_providers`: the levels with their locations resolved
    /// for this node. Resolving them is not explained (Puppet resolves them
    /// with an invocation of its own).
    fn levels(&mut self, pkey: &ProviderKey, default_hierarchy: bool) -> Result<Rc<Vec<LevelProvider>>, Error> {
        let Some(provider) = self.providers.get(pkey).and_then(Option::as_ref) else { return Ok(Rc::new(Vec::new())) };
        let cached = if default_hierarchy { &provider.default_levels } else { &provider.levels };
        if let Some(levels) = cached {
            return Ok(levels.clone());
        }
        let kept = self.hiera.resolved.borrow().0.get(&(pkey.clone(), default_hierarchy)).cloned();
        let levels = match kept {
            Some(levels) => levels,
            None => {
                let levels =
                    Rc::new(self.create_levels_unexplained(pkey, provider.config.clone(), default_hierarchy)?);
                self.hiera.resolved.borrow_mut().0.insert((pkey.clone(), default_hierarchy), levels.clone());
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
            let datadir = crate::fs::join(&config.root, level.datadir.as_deref().unwrap_or("data"));
            let datadir = self.interpolate(Value::String(datadir), false, cfg)?.to_ruby_s();
            let mut locations = self.resolve_locations(level, &datadir, is_default, cfg)?;
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
                    let (path, tokens) =
                        self.recording(|run| run.interpolate(Value::String(declared.clone()), false, cfg));
                    let mut path = path?.to_ruby_s();
                    if let Some(ext) = &level.extension {
                        if !path.ends_with(ext.as_str()) {
                            path.push_str(ext);
                        }
                    }
                    let path = crate::fs::join(datadir, &path);
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
                    let (pattern, tokens) =
                        self.recording(|run| run.interpolate(Value::String(declared.clone()), false, cfg));
                    let pattern = crate::fs::join(datadir, &pattern?.to_ruby_s());
                    for path in self.hiera.files.glob(&pattern).map_err(Error::lookup)? {
                        out.push(Location::new(pattern.clone(), path, true, false, tokens.clone()));
                    }
                }
                out
            }
            Locations::Uris(uris) => {
                let mut out = Vec::new();
                for declared in uris {
                    let (uri, tokens) =
                        self.recording(|run| run.interpolate(Value::String(declared.clone()), false, cfg));
                    out.push(Location::new(declared.clone(), uri?.to_ruby_s(), true, true, tokens));
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
                    let (path, tokens) =
                        self.recording(|run| run.interpolate(Value::String(template.clone()), false, cfg));
                    self.locals.pop();
                    let path = crate::fs::join(datadir, &path?.to_ruby_s());
                    let exists = self.hiera.files.exists(&path);
                    out.push(Location::new(template.clone(), path, exists, false, tokens));
                }
                out
            }
        }))
    }

    // ---- lookup_options ----

    /// The `lookup_options` for a key, and the literal key or pattern that matched.
    /// The `lookup_options` that apply in the key's module (or the environment's).
    fn compiled_options(&mut self, lk: &LookupKey) -> Result<Option<Rc<Compiled>>, Error> {
        if let Some(compiled) = self.options.get(&lk.module) {
            return Ok(compiled.clone());
        }
        let compiled = self.retrieve_lookup_options(lk.module.as_deref())?;
        self.options.insert(lk.module.clone(), compiled.clone());
        Ok(compiled)
    }

    fn retrieve_lookup_options(&mut self, module: Option<&str>) -> Result<Option<Rc<Compiled>>, Error> {
        let saved = std::mem::replace(&mut self.top_key, Rc::from(LOOKUP_OPTIONS));
        let key = LookupKey::parse(LOOKUP_OPTIONS)?;
        let r = self.with(
            || NodeKind::Search { key: LOOKUP_OPTIONS.into(), meta: true },
            |run| {
                let hash = Strategy::of(Kind::Hash);
                let env_opts = run.env_lookup_options(&key, &hash)?;
                // The environment's options compile once; most modules add none.
                let env_compiled = match &run.env_compiled {
                    Some(c) => c.clone(),
                    None => {
                        let c = run.hiera.compile_options(env_opts.as_deref())?;
                        run.env_compiled = Some(c.clone());
                        c
                    }
                };
                let Some(m) = module else { return Ok(env_compiled) };
                run.options.entry(None).or_insert_with(|| env_compiled.clone());
                let Some((found, _)) = run.lookup_in_module(&key, &hash)? else { return Ok(env_compiled) };
                let module_opts = lookup_options::validate(found, Some(m))?;
                let Some(env_opts) = env_opts else { return run.hiera.compile_options(Some(&module_opts)) };
                let sources = ["Global and Environment".to_string(), format!("Module {m}")];
                let merged = run.merge_lookup(&hash, &sources, |run, name| {
                    let v = Value::Hash(if name == &sources[0] { (*env_opts).clone() } else { module_opts.clone() });
                    run.with(
                        || NodeKind::Scope(name.clone()),
                        |run| {
                            let id = run.found(LOOKUP_OPTIONS, &v);
                            Ok(Some((v, id)))
                        },
                    )
                })?;
                run.hiera.compile_options(merged.and_then(|(v, _)| v.as_hash().cloned()).as_ref())
            },
        );
        self.top_key = saved;
        r
    }

    fn env_lookup_options(&mut self, key: &LookupKey, hash: &Strategy) -> Result<Option<Rc<Hash>>, Error> {
        if let Some(o) = &self.env_options {
            return Ok(o.clone());
        }
        if self.global_options.is_none() {
            let g = match self.lookup_global(key, hash)? {
                Some((v, _)) => Some(lookup_options::validate(v, None)?),
                None => None,
            };
            self.global_options = Some(g);
        }
        let global = self.global_options.clone().flatten();
        let env = match self.lookup_in_environment(key, hash)? {
            Some((v, _)) => Some(lookup_options::validate(v, None)?),
            None => None,
        };
        let merged = match (global, env) {
            (None, e) => e,
            (g, None) => g,
            (Some(g), Some(e)) => {
                let mut g = Value::Hash(g);
                hash.merge(&mut g, Value::Hash(e))?.as_hash().cloned()
            }
        };
        let merged = merged.map(Rc::new);
        self.env_options = Some(merged.clone());
        Ok(merged)
    }

    /// A module's `default_hierarchy`, searched when nothing else has the key.
    fn lookup_default_in_module(&mut self, lk: &LookupKey) -> Found {
        let Some(module) = self.module_name.clone() else { return Ok(None) };
        let pkey = ProviderKey::Module(module.clone());
        if !self.with_provider(&pkey, |p| p.is_some_and(|p| p.config.default_hierarchy.is_some()))? {
            return Ok(None);
        }
        self.with(
            || NodeKind::Scope(format!("Searching default_hierarchy of module \"{module}\"")),
            |run| {
                if !run.module_default_options.contains_key(&module) {
                    let lo = LookupKey::parse(LOOKUP_OPTIONS)?;
                    let opts = run.with(
                        || NodeKind::Scope(format!("Searching for \"{LOOKUP_OPTIONS}\"")),
                        |run| match run.provider_lookup(&pkey, &lo, &Strategy::of(Kind::Hash), true)? {
                            Some((v, _)) => {
                                run.hiera.compile_options(Some(&lookup_options::validate(v, Some(&module))?))
                            }
                            None => Ok(None),
                        },
                    )?;
                    run.module_default_options.insert(module.clone(), opts);
                }
                let merge = run
                    .module_default_options
                    .get(&module)
                    .and_then(Option::as_ref)
                    .and_then(|c| c.for_key(lk))
                    .and_then(|(v, _)| v.get("merge").cloned());
                let strategy = Strategy::from_value(merge.as_ref())?;
                run.with(
                    || NodeKind::Scope(format!("Searching for \"{}\"", lk.key)),
                    |run| run.provider_lookup(&pkey, lk, &strategy, true),
                )
            },
        )
    }

    // ---- interpolation ----

    /// Interpolates every string in a value (hash keys too). `cfg` is the
    /// hiera.yaml being resolved, which Puppet names in interpolation errors.
    fn interpolate(&mut self, mut value: Value, allow_methods: bool, cfg: Option<&str>) -> Result<Value, Error> {
        self.interpolate_in_place(&mut value, allow_methods, cfg)?;
        Ok(value)
    }

    /// Interpolates every string in `value` (hash keys too), in order; only
    /// a hash whose keys have tokens is built again.
    fn interpolate_in_place(&mut self, value: &mut Value, allow_methods: bool, cfg: Option<&str>) -> Result<(), Error> {
        match value {
            Value::String(s) if s.contains("%{") => {
                let s = std::mem::take(s);
                *value = self.interpolate_string(s, allow_methods, cfg)?;
            }
            Value::Array(a) => {
                for v in a {
                    self.interpolate_in_place(v, allow_methods, cfg)?;
                }
            }
            Value::Hash(h) if h.keys().any(has_tokens) => {
                let mut out = Hash::with_capacity(h.len());
                for (k, v) in std::mem::take(h) {
                    let k = self.interpolate(k, allow_methods, cfg)?;
                    let v = self.interpolate(v, allow_methods, cfg)?;
                    out.insert(k, v);
                }
                *h = out;
            }
            Value::Hash(h) => {
                for v in h.values_mut() {
                    self.interpolate_in_place(v, allow_methods, cfg)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn interpolate_string(&mut self, subject: String, allow_methods: bool, cfg: Option<&str>) -> Result<Value, Error> {
        let fail = |m: String| Error::issue(m, cfg, None);
        self.with(
            || NodeKind::Interpolate(subject.clone()),
            |run| {
                let mut out = String::new();
                let mut tokens = Vec::new();
                for piece in pieces(&subject) {
                    let (whole, expr) = match piece {
                        Piece::Text(t) => {
                            out.push_str(t);
                            continue;
                        }
                        Piece::Token { whole, expr } => (whole, expr),
                    };
                    if is_empty_expression(expr) {
                        tokens.push(Token {
                            text: whole.into(),
                            expression: expr.into(),
                            method: "scope".into(),
                            result: String::new(),
                            undefined: false,
                        });
                        continue;
                    }
                    let (method, data) = match method_call(expr) {
                        Some(_) if !allow_methods => {
                            return Err(fail("Interpolation using method syntax is not allowed in this context".into()))
                        }
                        Some(call) => call,
                        None => ("scope", expr),
                    };
                    if method == "alias" && subject != whole {
                        return Err(fail(
                            "'alias' interpolation is only permitted if the expression is equal to the entire string"
                                .into(),
                        ));
                    }
                    let value = match method {
                        "lookup" | "hiera" | "alias" => run.global_lookup(data)?,
                        "scope" => run.scope_lookup(data, &subject)?,
                        "literal" => Value::from(data),
                        other => return Err(fail(format!("Unknown interpolation method '{other}'"))),
                    };
                    // An unknown variable, or a missing part of one, is nil: an empty string.
                    let undefined = method == "scope" && matches!(value, Value::Undef);
                    if method == "alias" {
                        let token = Token {
                            text: whole.into(),
                            expression: expr.into(),
                            method: method.into(),
                            result: value.to_ruby_s(),
                            undefined,
                        };
                        run.record_tokens(vec![token]);
                        return Ok(value);
                    }
                    let guard = Rc::from(if method == "scope" { format!("scope:{data}") } else { data.to_string() });
                    let value = run.check(&guard, |run| run.interpolate(value, allow_methods, cfg))?;
                    let result = value.to_ruby_s();
                    out.push_str(&result);
                    tokens.push(Token {
                        text: whole.into(),
                        expression: expr.into(),
                        method: method.into(),
                        result,
                        undefined,
                    });
                }
                run.record_tokens(tokens);
                Ok(Value::String(out))
            },
        )
    }

    /// Runs `f`, returning what `%{...}` tokens its interpolations met.
    fn recording<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> (T, Vec<Token>) {
        let saved = self.recorder.replace(Vec::new());
        let r = f(self);
        let tokens = std::mem::replace(&mut self.recorder, saved).unwrap_or_default();
        (r, tokens)
    }

    /// Keeps an interpolation's tokens on its trace node, and for a recorder.
    fn record_tokens(&mut self, tokens: Vec<Token>) {
        if let Some(r) = self.recorder.as_mut() {
            r.extend(tokens.iter().cloned());
        }
        if let Some(ex) = self.ex.as_mut() {
            let id = ex.current();
            ex.node_mut(id).tokens = tokens;
        }
    }

    /// `%{lookup('key')}`: a nested lookup whose not-found is the empty string.
    fn global_lookup(&mut self, key: &str) -> Result<Value, Error> {
        let saved = (self.top_key.clone(), self.module_name.clone());
        self.depth += 1;
        let r = self.lookup_names(&[key.to_string()], None, Some(Value::from("")), None);
        self.depth -= 1;
        (self.top_key, self.module_name) = saved;
        r
    }

    /// A scope variable, with dotted keys digging into it; undefined is nil.
    fn scope_lookup(&mut self, key: &str, subject: &str) -> Result<Value, Error> {
        let segments = split_key(key).ok_or_else(|| Error::lookup(format!("Syntax error in string: {subject}")))?;
        let root = segments[0].to_ruby_s();
        let value = self.with(
            || NodeKind::Scope("Global Scope".into()),
            |run| {
                let v = run.variable(&root);
                match v {
                    Some(v) => {
                        run.found(&root, &v);
                        Ok(v)
                    }
                    None if run.hiera.strict_error => Err(Error::runtime(format!("Undefined variable '{root}'; "))),
                    None => Ok(Value::Undef),
                }
            },
        )?;
        if matches!(value, Value::Undef) || segments.len() == 1 {
            return Ok(value);
        }
        Ok(self.sub_lookup(key, &segments[1..], &value)?.unwrap_or(Value::Undef))
    }

    fn variable(&self, name: &str) -> Option<Value> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        self.hiera.scope.get(name)
    }

    /// Digs into a value with the segments of a dotted key.
    fn sub_lookup(&mut self, key: &str, segments: &[Value], value: &Value) -> Result<Option<Value>, Error> {
        self.with(|| NodeKind::SubLookup(segments.to_vec()), |run| {
            let mut value = value;
            for segment in segments {
                let step = run.with(|| NodeKind::Segment(segment.clone()), |run| {
                    let next = match (value, segment) {
                        (Value::Undef, _) => None,
                        (Value::Array(a), Value::Integer(i)) => usize::try_from(*i).ok().and_then(|i| a.get(i)),
                        (Value::Hash(h), s) => h.get(s),
                        (v, s) => {
                            return Err(Error::lookup(format!(
                                "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{}' from key '{key}'",
                                crate::merge::ruby_class(v),
                                s.to_ruby_s()
                            )))
                        }
                    };
                    if run.ex.is_some() {
                        match next {
                            Some(v) => run.found(&segment.to_ruby_s(), v),
                            None => {
                                run.not_found(&segment.to_ruby_s());
                                None
                            }
                        };
                    }
                    Ok(next)
                })?;
                match step {
                    Some(v) => value = v,
                    None => return Ok(None),
                }
            }
            Ok(Some(value.clone()))
        })
    }
}

/// True for a key of module `m` (`m::...`).
fn in_module(key: &str, m: &str) -> bool {
    key.strip_prefix(m).is_some_and(|rest| rest.starts_with("::"))
}

fn provider_name(key: &ProviderKey, config: &HieraConfig) -> String {
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

impl Run<'_> {
    /// Every key in the data this node sees, in order of first appearance:
    /// global, environment, then each module's levels. Levels that cannot be
    /// read are skipped.
    pub(crate) fn all_keys(&mut self) -> Vec<String> {
        let mut providers = vec![ProviderKey::Global, ProviderKey::Environment];
        let env_modules = format!("{}/modules", self.environment_dir());
        for base in [env_modules.as_str(), "/etc/puppetlabs/code/modules", "/opt/puppetlabs/puppet/modules"] {
            for (name, is_dir) in self.hiera.files.list(base) {
                let key = ProviderKey::Module(Rc::from(name));
                if is_dir && !providers.contains(&key) {
                    providers.push(key);
                }
            }
        }
        let mut keys = indexmap::IndexSet::new();
        for pkey in providers {
            if !matches!(self.has_provider(&pkey), Ok(true)) {
                continue;
            }
            let Ok(levels) = self.levels(&pkey, false) else { continue };
            for level in levels.iter() {
                for location in level.locations.iter().flatten().filter(|l| l.exists) {
                    let Ok(file) = self.data_hash(level, Some(location)) else { continue };
                    for k in file.hash.keys() {
                        let k = k.to_ruby_s();
                        let in_namespace = level.module.as_deref().is_none_or(|m| in_module(&k, m));
                        if k != LOOKUP_OPTIONS && in_namespace {
                            keys.insert(k);
                        }
                    }
                }
            }
        }
        keys.into_iter().collect()
    }

    /// One plain `lookup(key)` in this run, reusing what earlier lookups loaded.
    pub(crate) fn lookup_one(&mut self, key: &str) -> Result<Option<Value>, Error> {
        Ok(self.adapter_lookup(key, None)?.map(|(v, _)| v))
    }
}
