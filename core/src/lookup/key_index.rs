//! A session's index of which files hold each key, so that a plain lookup
//! reads only the files that can answer it.

use super::{Found, LevelProvider, ProviderKey, Run};
use crate::key::LookupKey;
use crate::value::Value;
use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use std::rc::Rc;

/// Which locations of a hierarchy hold each key, for a session's plain
/// lookups: a lookup then skips the files that cannot answer it, as it would
/// find nothing there. Locations whose file could not be read are always
/// visited, so that the error comes when the search reaches them.
pub(super) struct KeyIndex {
    /// By key: the ids of the locations holding it, each with the key's
    /// position in its file (the session's files do not change).
    pub(super) holding: IndexMap<Value, Vec<(u32, u32)>, FxBuildHasher>,
    pub(super) unreadable: Vec<u32>,
    /// Whether every level has locations: a first-found lookup may then go
    /// straight to the locations visited (see [`Run::first_visited`]).
    pub(super) located: bool,
}

/// The locations a lookup visits (see [`KeyIndex`]), ids in order.
#[derive(Clone, Copy)]
pub(super) struct Visit<'a> {
    pub(super) holding: &'a [(u32, u32)],
    pub(super) unreadable: &'a [u32],
}

impl Visit<'_> {
    pub(super) fn includes(&self, id: u32) -> bool {
        self.holding.binary_search_by_key(&id, |h| h.0).is_ok() || self.unreadable.binary_search(&id).is_ok()
    }

    /// Whether any id in `first..first + len` is visited.
    pub(super) fn any_in(&self, first: u32, len: usize) -> bool {
        let end = first + len as u32;
        let held = self.holding.get(self.holding.partition_point(|h| h.0 < first)).is_some_and(|h| h.0 < end);
        let unreadable = &self.unreadable;
        held || unreadable.get(unreadable.partition_point(|&i| i < first)).is_some_and(|&i| i < end)
    }
}

impl Run<'_> {
    /// A session's index of a hierarchy's keys, made the first time it is searched.
    pub(super) fn key_index(
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
    pub(super) fn first_visited(&mut self, levels: &[LevelProvider], lk: &LookupKey, visit: Visit) -> Found {
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
}
