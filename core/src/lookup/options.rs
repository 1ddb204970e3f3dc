//! Retrieving `lookup_options`: from the global and environment layers,
//! merged with the key's module's, and a module's `default_hierarchy`.

use super::{Found, ProviderKey, Run, LOOKUP_OPTIONS};
use crate::error::Error;
use crate::explain::NodeKind;
use crate::key::LookupKey;
use crate::lookup_options::{self, Compiled};
use crate::merge::{Kind, Strategy};
use crate::value::{Hash, Value};
use std::rc::Rc;

impl Run<'_> {
    /// The `lookup_options` that apply in the key's module (or the environment's).
    pub(super) fn compiled_options(&mut self, lk: &LookupKey) -> Result<Option<Rc<Compiled>>, Error> {
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
    pub(super) fn lookup_default_in_module(&mut self, lk: &LookupKey) -> Found {
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
}
