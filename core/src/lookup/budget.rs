//! Bounds on the work one lookup may do, and the nested lookups a run
//! remembers.
//!
//! Data whose keys interpolate each other more than once grows
//! exponentially: `k0: "%{lookup('k1')}%{lookup('k1')}"`, `k1: ...` thirty
//! deep is a string of 2^30 characters, and Puppet would run until memory
//! ran out. A lookup asked for (at depth 0) may make so many nested lookups,
//! build so many characters by interpolation (an alias's value counts by its
//! size) and nest so deep; past a bound it fails with a message that names
//! the key asked for and the bound.
//!
//! A nested lookup's value is remembered for the rest of the run where no
//! explanation is recorded, so a key interpolated many times is looked up
//! once. What it cost is charged again at each use, so that a lookup fails
//! at the same bound, with the same message, whether it is explained or not.

use super::Run;
use crate::error::Error;
use crate::value::Value;
use std::rc::Rc;

/// Nested `%{lookup()}`, `%{alias()}` and `%{hiera()}` calls one lookup may make.
pub(crate) const MAX_NESTED_LOOKUPS: usize = 10_000;
/// Characters one lookup's interpolations may build.
pub(crate) const MAX_BUILT: usize = 1 << 24;
/// How deep nested lookups may go (each level is a few dozen stack frames,
/// and a page's WebAssembly has a small stack).
pub(crate) const MAX_DEPTH: usize = 100;

/// What a lookup has cost so far.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Spent {
    lookups: usize,
    built: usize,
}

/// A nested lookup's value, what computing it cost, and the names its
/// computation guarded against recursion: it holds only while none of
/// them is being looked up (else Puppet would detect a recursion).
pub(super) struct Memo {
    value: Value,
    cost: Spent,
    guarded: Box<[Rc<str>]>,
}

impl Run<'_> {
    /// Starts counting for a lookup asked for at depth 0.
    pub(super) fn start_budget(&mut self, key: &Rc<str>) {
        if self.depth == 0 {
            self.spent = Spent::default();
            self.asked = key.clone();
            self.over_budget = false;
        }
    }

    /// `%{lookup('key')}` (and `alias`, `hiera`): a nested lookup whose
    /// not-found is the empty string, remembered where that is sound.
    pub(super) fn nested_lookup(&mut self, key: &str) -> Result<Value, Error> {
        self.spend(Spent { lookups: 1, built: 0 })?;
        if self.depth >= MAX_DEPTH {
            return Err(self.stopped(format!("its nested lookups went more than {MAX_DEPTH} deep")));
        }
        let remembering =
            self.ex.is_none() && self.recorder.is_none() && self.locals.is_empty() && !self.lenient_variables;
        if remembering {
            if let Some(memo) = self.memo.get(key).filter(|m| m.guarded.iter().all(|g| !self.names.contains(g))) {
                let (value, cost) = (memo.value.clone(), memo.cost);
                // Only a nested lookup being remembered needs them (see `note_guard`).
                if self.depth > 0 {
                    self.guarded.extend(memo.guarded.iter().cloned());
                }
                self.spend(cost)?;
                return Ok(value);
            }
        }
        let (spent, first_guard) = (self.spent, self.guarded.len());
        let saved = (self.top_key.clone(), self.module_name.clone());
        self.depth += 1;
        let r = self.lookup_names(&[key.to_string()], None, Some(Value::from("")), None);
        self.depth -= 1;
        (self.top_key, self.module_name) = saved;
        if let (true, Ok(value)) = (remembering, &r) {
            let mut guarded = self.guarded[first_guard..].to_vec();
            guarded.sort_unstable();
            guarded.dedup();
            let cost = Spent { lookups: self.spent.lookups - spent.lookups, built: self.spent.built - spent.built };
            self.memo.insert(key.into(), Memo { value: value.clone(), cost, guarded: guarded.into() });
        }
        if self.depth == 0 {
            self.guarded.clear();
        }
        r
    }

    /// Notes a name guarded against recursion, for the nested lookup being
    /// remembered.
    pub(super) fn note_guard(&mut self, name: &Rc<str>) {
        if self.depth > 0 {
            self.guarded.push(name.clone());
        }
    }

    /// Charges `characters` built by interpolation.
    pub(super) fn spend_built(&mut self, characters: usize) -> Result<(), Error> {
        self.spend(Spent { lookups: 0, built: characters })
    }

    /// Charges an alias's value by its size, counted no further than the bound.
    pub(super) fn spend_value(&mut self, value: &Value) -> Result<(), Error> {
        let room = MAX_BUILT.saturating_sub(self.spent.built);
        self.spend_built(size(value, room.saturating_add(1)))
    }

    fn spend(&mut self, cost: Spent) -> Result<(), Error> {
        self.spent.lookups = self.spent.lookups.saturating_add(cost.lookups);
        self.spent.built = self.spent.built.saturating_add(cost.built);
        if self.spent.lookups > MAX_NESTED_LOOKUPS {
            return Err(self.stopped(format!(
                "it made more than {MAX_NESTED_LOOKUPS} nested lookups (%{{lookup()}}, %{{alias()}}, %{{hiera()}})"
            )));
        }
        if self.spent.built > MAX_BUILT {
            return Err(self.stopped(format!("its interpolations built more than {MAX_BUILT} characters")));
        }
        Ok(())
    }

    fn stopped(&mut self, why: String) -> Error {
        self.over_budget = true;
        // An issue code keeps the message from being wrapped at every level it passes.
        Error::issue(
            format!(
                "Lookup of '{}' stopped: {why}, the most one lookup may do (keys that interpolate each other more than once grow exponentially)",
                self.asked
            ),
            None,
            None,
        )
    }
}

/// A value's size in characters of strings and one for each value, counted
/// no further than `cap` (a value built by aliases shares its parts, and
/// may be far larger than the memory it takes).
fn size(value: &Value, cap: usize) -> usize {
    let mut total = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::String(s) => total += s.len(),
            Value::Array(a) => stack.extend(a.iter()),
            Value::Hash(h) => stack.extend(h.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
        if total >= cap {
            return cap;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::size;
    use crate::value::Value;

    #[test]
    fn a_shared_value_is_counted_no_further_than_the_cap() {
        let mut v = Value::from("x");
        for _ in 0..64 {
            v = Value::Array(vec![v.clone(), v].into());
        }
        assert_eq!(size(&v, 1000), 1000);
        assert_eq!(size(&Value::from("abc"), 1000), 4);
    }
}
