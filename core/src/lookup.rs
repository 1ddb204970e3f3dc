//! The lookup itself: layers, providers, hierarchy levels, interpolation and
//! merging, step for step as Puppet's `LookupAdapter` and `Invocation` do it,
//! recording the explanation as it goes. This module searches the layers and
//! finds values in the levels' data; its private children expand the
//! hierarchy (`hierarchy`), index which files hold a key (`key_index`),
//! retrieve `lookup_options` (`options`) and interpolate (`interpolation`).

use crate::backends::data::{self, DataFile};
use crate::backends::eyaml;
use crate::config::Layer;
use crate::error::{Error, ErrorKind};
use crate::explain::{Event, Explanation, NodeId, NodeKind, Token};
use crate::key::LookupKey;
use crate::lookup_options::{self, Compiled};
use crate::merge::{Kind, Strategy};
use crate::value::{Hash, Value};
use crate::Hiera;
use rustc_hash::FxHashMap as HashMap;
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

/// A data file a hierarchy level names for the node (see
/// [`Hiera::data_locations`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DataLocation {
    /// The module whose layer names it; `None` in the global and
    /// environment layers.
    pub module: Option<String>,
    /// The hiera.yaml of its level (`None`: Puppet's built-in default).
    pub config: Option<String>,
    /// The level's name.
    pub level: String,
    /// Whether the level is of a module's `default_hierarchy`.
    pub default_hierarchy: bool,
    /// The path as the level writes it, before interpolation.
    pub original: String,
    /// The path for this node (absolute).
    pub path: String,
    /// Whether a file is there.
    pub exists: bool,
    /// The level's datadir for this node (absolute).
    pub datadir: String,
    /// What each `%{...}` of the path became.
    pub tokens: Vec<Token>,
}

/// A value found, with the trace node that holds the same value (Puppet's
/// deep merge mutates it, and the trace shows the mutation).
type Hit = (Value, Option<NodeId>);
type Found = Result<Option<Hit>, Error>;

mod budget;
mod hierarchy;
mod interpolation;
mod key_index;
mod options;

pub(crate) use hierarchy::Resolved;
use hierarchy::{provider_name, LevelProvider, Location, ProviderKey, Providers};
use key_index::{KeyIndex, Visit};

const LOOKUP_OPTIONS: &str = "lookup_options";
const ENVIRONMENTS: &str = "/etc/puppetlabs/code/environments";
const CODEDIR: &str = "/etc/puppetlabs/code";
const CONFDIR: &str = "/etc/puppetlabs/puppet";

/// One `puppet lookup` run: the adapter's caches and the invocation's state.
pub(crate) struct Run<'h> {
    hiera: &'h Hiera,
    ex: Option<Explanation>,
    names: Vec<Rc<str>>,
    top_key: Rc<str>,
    module_name: Option<Rc<str>>,
    /// Keys asked for before: a session asks for the same keys again.
    keys: hashbrown::HashTable<Rc<KnownKey>>,
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
    /// What a scope variable's `%{...}` came to, by expression, and whether
    /// it was undefined: the node's variables do not change during a run.
    /// Kept where nothing explains the interpolation and no local variable
    /// is set.
    scope_tokens: rustc_hash::FxHashMap<Box<str>, (Box<str>, bool)>,
    /// The modulepath's directories that exist (see `module_bases`).
    module_bases: OnceCell<Result<Vec<String>, Error>>,
    /// Collects the `%{...}` tokens interpolation meets (see `recording`).
    recorder: Option<Vec<Token>>,
    /// How deep in nested `%{lookup()}`s the run is.
    depth: usize,
    /// The key asked for at depth 0, and what looking it up has cost so far.
    asked: Rc<str>,
    spent: budget::Spent,
    /// While explaining: what each merge around the one running holds so
    /// far (see `merged_so_far`).
    enclosing: Vec<Option<Value>>,
    /// Whether a lookup went past a bound.
    over_budget: bool,
    /// Nested lookups done before, and the names guarded while the one
    /// being remembered ran (see `budget`).
    memo: HashMap<Box<str>, budget::Memo>,
    guarded: Vec<Rc<str>>,
    /// The `lookup_options` that applied to the requested key.
    applied: Option<AppliedOptions>,
    /// Whether to note `applied`: a session's plain lookups do not report it.
    keep_applied: bool,
    /// Whether to index each hierarchy searched (see [`KeyIndex`]).
    indexing: bool,
    /// Puppet 8's `avoid_hiera_interpolation_errors`: while it resolves a
    /// level's locations, an undefined variable is empty even with
    /// `strict = error`.
    lenient_variables: bool,
    /// In a tracing session: what each `%{...}` of the locations searched
    /// for data became, as an explanation's locations would show it.
    path_tokens: Option<Vec<Token>>,
}

/// A key a run was asked for before.
struct KnownKey {
    lk: LookupKey,
    /// The key's hash in a run's set of keys: growing the set then reads
    /// it here, where hashing the key again read the key's text from
    /// wherever it lay (a fifth of the last-level cache misses of a cold
    /// pass on the large bench repo).
    hash: u64,
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
            keys: Default::default(),
            module_names: Default::default(),
            options: HashMap::default(),
            module_default_options: HashMap::default(),
            global_options: None,
            env_options: None,
            env_compiled: None,
            providers: Providers::default(),
            locals: Vec::new(),
            scope_tokens: Default::default(),
            module_bases: OnceCell::new(),
            recorder: None,
            depth: 0,
            asked: Rc::from(""),
            spent: Default::default(),
            over_budget: false,
            enclosing: Vec::new(),
            memo: HashMap::default(),
            guarded: Vec::new(),
            applied: None,
            keep_applied: true,
            indexing: false,
            lenient_variables: false,
            path_tokens: None,
        }
    }

    /// A run for many plain lookups (see [`Hiera::session`]): nothing is
    /// explained, which `lookup_options` applied is not noted, and each
    /// hierarchy's keys are indexed the first time it is searched.
    pub(crate) fn plain(hiera: &'h Hiera) -> Run<'h> {
        Run { keep_applied: false, indexing: true, ..Run::new(hiera, false) }
    }

    /// A run for many lookups that notes the path tokens of the locations
    /// it searches for data (see [`Hiera::tracing_session`]): it searches
    /// every location, as an explained run does, without the explanation.
    pub(crate) fn tracing(hiera: &'h Hiera) -> Run<'h> {
        Run { keep_applied: false, path_tokens: Some(Vec::new()), ..Run::new(hiera, false) }
    }

    /// The path tokens noted since the last call.
    pub(crate) fn take_path_tokens(&mut self) -> Vec<Token> {
        self.path_tokens.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// `puppet lookup`'s `main`: the lookup, with a lookup error added to the
    /// explanation as Puppet prints it.
    pub(crate) fn answer(mut self, request: &Request) -> Answer {
        let result = self.answer_one(request);
        if let (Err(e), Some(ex)) = (&result, &mut self.ex) {
            // The trace of a lookup stopped at a bound is as large as the
            // bound: the message alone says what happened.
            if self.over_budget {
                *ex = Explanation::default();
            }
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
        self.module_bases().map_err(Error::clone)?;
        if let Some(t) = value_type {
            crate::puppet::types::check_lookup_type(t)?;
        }
        for name in names {
            if let Some((value, _)) = self.adapter_lookup(name, merge)? {
                if let Some(t) = value_type {
                    crate::puppet::types::assert("Found value", t, &value)?;
                }
                return Ok(value);
            }
        }
        if let Some(d) = default {
            if let Some(t) = value_type {
                crate::puppet::types::assert("Default value", t, &d)?;
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
        self.start_budget(&known.lk.key);
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
        let hash = crate::value::hash_of(key);
        if let Some(known) = self.keys.find(hash, |known| known.hash == hash && *known.lk.key == *key) {
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
        let known = Rc::new(KnownKey { lk, hash, options: OnceCell::new() });
        self.keys.insert_unique(hash, known.clone(), |known| known.hash);
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
                // In Puppet's order: the type is parsed and stored into the
                // option before `new` runs, whether or not it succeeds.
                let target = crate::puppet::convert::Target::parse(&lk.key, &convert_to)?;
                if let (Value::Array(a), Some(ex)) = (&convert_to, self.ex.as_mut()) {
                    if let Some(inspect) = target.type_object() {
                        ex.type_object(a.clone(), inspect);
                    }
                }
                let applied = target.apply(&lk.key, value)?;
                if let Some(ex) = self.ex.as_mut() {
                    ex.text(format!("Applying convert_to lookup_option with arguments {}", applied.args));
                }
                Ok(Some((applied.value?, None)))
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
            Some((v, id)) if lk.segments().is_empty() => Ok(Some((v, id))),
            Some((v, _)) => self.dig(lk, v),
            None => Ok(None),
        }
    }

    fn dig(&mut self, lk: &LookupKey, value: Value) -> Found {
        if lk.segments().is_empty() {
            return Ok(Some((value, None)));
        }
        Ok(self.sub_lookup(&lk.key, lk.segments(), &value)?.map(|v| (v, None)))
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
                        if branch.is_some() {
                            run.enclosing.push(memo.as_ref().map(|(m, _)| m.clone()));
                        }
                        let found = f(run, v);
                        if branch.is_some() {
                            run.enclosing.pop();
                        }
                        let Some((value, id)) = found? else { continue };
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
                        if let (Some(b), Some((m, _))) = (branch, memo.as_ref()) {
                            let so_far = run.merged_so_far(strategy, m.clone());
                            if let Some(ex) = run.ex.as_mut().filter(|ex| b < ex.len()) {
                                ex.node_mut(b).merged = Some(so_far);
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

    /// What the whole lookup has merged once `merged` (this merge's value
    /// so far) is merged into what the merges around it hold: a level with
    /// several files merges them first, then into the levels before it.
    fn merged_so_far(&self, strategy: &Strategy, merged: Value) -> Value {
        self.enclosing
            .iter()
            .rev()
            .flatten()
            .fold(merged, |lower, higher| strategy.merge(&mut higher.clone(), lower.clone()).unwrap_or(lower))
    }

    /// Puppet's recursion guard around a provider's lookup; Puppet errors
    /// raised inside become lookup errors.
    fn check<T>(&mut self, name: &Rc<str>, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        if self.names.contains(name) {
            return Err(Error::lookup(format!("Recursive lookup detected in [{}]", self.names.join(", "))));
        }
        self.names.push(name.clone());
        self.note_guard(name);
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
                let visit = index.as_deref().and_then(|i| i.visit(lk.root_hash));
                match visit {
                    Some(v) if strategy.is_first_found() && index.as_ref().is_some_and(|i| i.located) => {
                        run.first_visited(&levels, lk, v)
                    }
                    _ => run.merge_lookup(strategy, &levels, |run, level| run.level_lookup(level, lk, strategy, visit)),
                }
            })
        })
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
                // An explanation's locations under a nested lookup or the
                // search for `lookup_options` are not the lookup's own.
                if let Some(noted) =
                    run.path_tokens.as_mut().filter(|_| run.depth == 0 && &*run.top_key != LOOKUP_OPTIONS)
                {
                    noted.extend(l.tokens.iter().cloned());
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
        let index = at.or_else(|| file.hash.index_from_hash(lk.root_hash, |k| lk.is_root(k)));
        let Some((index, (_, value))) = index.and_then(|i| Some((i, file.hash.get_index(i)?))).filter(|_| in_namespace)
        else {
            self.not_found(root);
            return Ok(None);
        };
        let function = level.function.as_ref().map(|f| f.1.as_str()).unwrap_or("");
        let entry = file.entry(index).unwrap_or_else(|| data::Entry::of(value));
        if !entry.lookup_value {
            return Err(data::not_a_lookup_value(root, function, location.map(|l| l.path.as_str()), value));
        }
        let decrypted = level.is_eyaml() && eyaml::holds_block(value);
        let raw = value;
        let value = if level.is_eyaml() {
            self.eyaml_value(value, level, location, root)
        } else if entry.interpolated {
            self.interpolate(value.clone(), true, None)
        } else {
            Ok(value.clone())
        };
        let (id, value) = match value {
            Ok(value) => (self.found(root, &value), Ok(value)),
            Err(e) => (self.ex.as_mut().map(|ex| ex.set_event(Event::Failed(e.message.clone()))), Err(e)),
        };
        if let (Some(id), true, Some(ex)) = (id, decrypted, self.ex.as_mut()) {
            ex.node_mut(id).decrypted = true;
        }
        if let (Some(id), Some(l), Some(ex)) = (id, location, self.ex.as_mut()) {
            let at = file.value_spans(index);
            let surprises = file.surprises.iter().filter(|s| at.contains(&s.at)).cloned().collect();
            let spans = crate::formats::yaml::Spans::new(at.to_vec());
            let raw = value.as_ref().ok().filter(|v| *v != raw).map(|_| raw.clone());
            ex.node_mut(id).origin = Some(crate::explain::Origin { file: l.path.clone(), spans, surprises, raw });
        }
        Ok(Some((value?, id)))
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
        let eyaml = level.is_eyaml();
        if !data::is_provided(kind, function) {
            return Err(Error::issue(
                format!("Unable to find '{}' function named '{function}'", kind.key()),
                level.config_path.as_deref(),
                None,
            ));
        }
        // yaml_data and json_data declare `Struct[{path=>String[1]}]`: any
        // other option, or no path, fails their argument check.
        // eyaml_lookup_key takes any options, and checks for a path itself.
        let has_path = |l: &&Location| !l.uri && (eyaml || level.options.as_ref().is_none_or(|o| o.is_empty()));
        let Some(location) = location.filter(has_path) else {
            return Err(Error::runtime(if eyaml {
                format!("'{function}': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function")
            } else {
                format!("'{function}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function")
            }));
        };
        location.data.get_or_init(|| self.hiera.data_file(function, &location.path)).clone()
    }
}

impl Run<'_> {
    /// What `eyaml_lookup_key` returns for a value found in its file: each
    /// string decrypted where it holds a block, then interpolated, and each
    /// hash key interpolated, in order (`decrypt_value`).
    fn eyaml_value(
        &mut self,
        value: &Value,
        level: &LevelProvider,
        location: Option<&Location>,
        key: &str,
    ) -> Result<Value, Error> {
        Ok(match value {
            Value::String(s) => {
                let text = if eyaml::is_encrypted(s) {
                    let hiera = self.hiera;
                    let keys = eyaml::Keys {
                        options: level.options.as_ref(),
                        files: &hiera.files,
                        pkcs7: hiera.pkcs7.as_deref(),
                        decrypted: Some(&hiera.decrypted),
                    };
                    eyaml::decrypt(s, &keys).map_err(|f| match f {
                        eyaml::Failure::Standard(m) => {
                            let path = location.map_or("", |l| l.path.as_str());
                            Error::lookup(format!("hiera-eyaml backend error decrypting {s} when looking up {key} in {path}. Error was {m}"))
                        }
                        eyaml::Failure::Load(m) => Error::runtime(m),
                    })?
                } else {
                    s.clone()
                };
                self.interpolate(Value::String(text), true, None)?
            }
            Value::Hash(h) => {
                let mut out = crate::value::Hash::with_capacity(h.len());
                for (k, v) in h.iter() {
                    let k = self.interpolate(k.clone(), true, None)?;
                    let v = self.eyaml_value(v, level, location, key)?;
                    out.insert(k, v);
                }
                Value::Hash(out)
            }
            Value::Array(a) => Value::Array(
                a.iter().map(|v| self.eyaml_value(v, level, location, key)).collect::<Result<Vec<_>, _>>()?.into(),
            ),
            other => other.clone(),
        })
    }
}

/// True for a key of module `m` (`m::...`).
fn in_module(key: &str, m: &str) -> bool {
    key.strip_prefix(m).is_some_and(|rest| rest.starts_with("::"))
}

impl Run<'_> {
    /// Every key in the data this node sees, in order of first appearance:
    /// global, environment, then each module's levels. Levels that cannot be
    /// read are skipped.
    pub(crate) fn all_keys(&mut self) -> Vec<String> {
        let mut keys = indexmap::IndexSet::new();
        for pkey in self.provider_keys() {
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

    /// Every data file the node's hierarchies name, layer by layer (global,
    /// environment, then each module), level by level, as Puppet resolves
    /// them; a layer whose configuration or paths cannot be resolved is
    /// left out (its lookups fail, and say why).
    pub(crate) fn data_locations(&mut self) -> Vec<DataLocation> {
        let mut out = Vec::new();
        for pkey in self.provider_keys() {
            if !matches!(self.has_provider(&pkey), Ok(true)) {
                continue;
            }
            for default_hierarchy in [false, true] {
                let Ok(levels) = self.levels(&pkey, default_hierarchy) else { continue };
                for level in levels.iter() {
                    for location in level.locations.iter().flatten().filter(|l| !l.uri) {
                        out.push(DataLocation {
                            module: level.module.clone(),
                            config: level.config_path.clone(),
                            level: level.name.clone(),
                            default_hierarchy,
                            original: location.original.clone(),
                            path: location.path.clone(),
                            exists: location.exists,
                            datadir: level.datadir.clone(),
                            tokens: location.tokens.clone(),
                        });
                    }
                }
            }
        }
        out
    }

    /// The layers there may be: global, environment, and every module of
    /// the modulepath.
    fn provider_keys(&self) -> Vec<ProviderKey> {
        let mut providers = vec![ProviderKey::Global, ProviderKey::Environment];
        for base in self.module_bases().unwrap_or_default() {
            for (name, is_dir) in self.hiera.files.list(base) {
                let key = ProviderKey::Module(Rc::from(name));
                if is_dir && !providers.contains(&key) {
                    providers.push(key);
                }
            }
        }
        providers
    }

    /// A request's lookup: its keys in turn, then its default, checked
    /// against its type (the run explains it if it explains).
    pub(crate) fn answer_one(&mut self, request: &Request) -> Result<Value, Error> {
        self.lookup_names(&request.keys, request.merge.as_ref(), request.default.clone(), request.value_type.as_deref())
    }

    /// One plain `lookup(key)` in this run, reusing what earlier lookups loaded.
    pub(crate) fn lookup_one(&mut self, key: &str) -> Result<Option<Value>, Error> {
        self.module_bases().map_err(Error::clone)?;
        Ok(self.adapter_lookup(key, None)?.map(|(v, _)| v))
    }
}
