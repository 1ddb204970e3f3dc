//! A session's index of which files hold each key, so that a plain lookup
//! reads only the files that can answer it.

use super::{Found, LevelProvider, ProviderKey, Run};
use crate::backends::data::{self, DataFile};
use crate::config::FunctionKind;
use crate::key::LookupKey;
use crate::value::{hash_of, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// Which locations of a hierarchy hold each key, for a session's plain
/// lookups: a lookup then skips the files that cannot answer it, as it would
/// find nothing there. Locations whose file could not be read are always
/// visited, so that the error comes when the search reaches them.
///
/// Keys are known by their hash, the one a [`crate::value::Hash`] keeps them
/// under, so that the index holds no copy of them: it is made in the cold
/// pass, where every byte of new memory costs a page's first touch.
pub(super) struct KeyIndex {
    /// By key hash: where its locations start in `places`, and how many.
    by_hash: HashMap<u64, (u32, u32), BuildHasherDefault<Prehashed>>,
    /// The ids of the locations holding each key, each with the key's
    /// position in its file (the session's files do not change), grouped by
    /// key and in order within a group.
    places: Vec<(u32, u32)>,
    /// Hashes that different keys share (almost always none): their places
    /// are not the key's alone.
    shared: Vec<u64>,
    unreadable: Vec<u32>,
    /// Whether every level has locations: a first-found lookup may then go
    /// straight to the locations visited (see [`Run::first_visited`]).
    pub(super) located: bool,
}

impl KeyIndex {
    /// The locations a lookup of the key hashed `hash` visits; `None` when
    /// other keys share the hash, and the lookup must search them all.
    pub(super) fn visit(&self, hash: u64) -> Option<Visit<'_>> {
        if !self.shared.is_empty() && self.shared.contains(&hash) {
            return None;
        }
        let holding = self.by_hash.get(&hash).map_or(&[][..], |&(at, n)| &self.places[at as usize..][..n as usize]);
        Some(Visit { holding, unreadable: &self.unreadable })
    }
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed")
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
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
        self.read_ahead(levels);
        let (mut files, mut unreadable) = (Vec::new(), Vec::new());
        for level in levels {
            for l in level.locations.iter().flatten().filter(|l| l.exists) {
                match self.data_hash(level, Some(l)) {
                    Ok(file) => files.push((l.id, file)),
                    Err(_) => unreadable.push(l.id),
                }
            }
        }
        let index = Rc::new(index_of(&files, unreadable, located, hash_of));
        let p = self.providers.get_mut(pkey)?;
        *(if default_hierarchy { &mut p.default_index } else { &mut p.index }) = Some(index.clone());
        Some(index)
    }

    /// Reads ahead, at once on the cores there are, the data files of
    /// `levels` that [`Run::data_hash`] would read.
    fn read_ahead(&self, levels: &[LevelProvider]) {
        let mut wanted = Vec::new();
        for level in levels {
            let Some((FunctionKind::DataHash, function)) = &level.function else { continue };
            if !data::is_known_data_hash(function) || level.options.as_ref().is_some_and(|o| !o.is_empty()) {
                continue;
            }
            let unread = level.locations.iter().flatten().filter(|l| l.exists && !l.uri && l.data.get().is_none());
            wanted.extend(unread.map(|l| (function.as_str(), l.path.as_str())));
        }
        self.hiera.read_data_files(wanted);
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

/// The index of `files` (location id and file, ids ascending as a hierarchy
/// numbers its locations), keys hashed by `hash`.
fn index_of(
    files: &[(u32, Rc<DataFile>)],
    unreadable: Vec<u32>,
    located: bool,
    hash: impl Fn(&Value) -> u64,
) -> KeyIndex {
    // Each key's places are counted, given a run of `places` that long, and
    // filled in id order, as the files come.
    let hashes: Vec<u64> = files.iter().flat_map(|(_, f)| f.hash.keys().map(&hash)).collect();
    let most = files.iter().map(|(_, f)| f.hash.len()).max().unwrap_or(0);
    let mut by_hash: HashMap<u64, (u32, u32), _> = HashMap::with_capacity_and_hasher(most, Default::default());
    for &h in &hashes {
        by_hash.entry(h).or_insert((0, 0)).1 += 1;
    }
    let mut next = 0;
    for (start, len) in by_hash.values_mut() {
        (*start, next, *len) = (next, next + *len, 0);
    }
    let mut places = vec![(0, 0); hashes.len()];
    let mut shared = Vec::new();
    let mut hashes = hashes.into_iter();
    for (id, file) in files {
        for ((at, key), h) in file.hash.keys().enumerate().zip(hashes.by_ref()) {
            let Some((start, len)) = by_hash.get_mut(&h) else { continue };
            if *len > 0 {
                let (first, first_at) = places[*start as usize];
                let first = &files[files.partition_point(|(i, _)| *i < first)].1;
                if first.hash.get_index(first_at as usize).map(|(k, _)| k) != Some(key) && !shared.contains(&h) {
                    shared.push(h);
                }
            }
            places[(*start + *len) as usize] = (*id, at as u32);
            *len += 1;
        }
    }
    KeyIndex { by_hash, places, shared, unreadable, located }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(texts: &[(u32, &str)]) -> Vec<(u32, Rc<DataFile>)> {
        let reading = crate::backends::data::Reading { strict_error: false, spans: true };
        texts
            .iter()
            .map(|&(id, t)| (id, Rc::new(crate::backends::data::load("yaml_data", "/d.yaml", t, reading).unwrap())))
            .collect()
    }

    #[test]
    fn each_key_visits_the_files_holding_it_in_order() {
        let files = files(&[(1, "a: 1\nb: 2\n"), (4, "c: 3\na: 4\n"), (7, "a: 5\n")]);
        let index = index_of(&files, vec![5], true, hash_of);
        let visit = |k: &str| index.visit(hash_of(&Value::from(k))).unwrap();
        assert_eq!(visit("a").holding, [(1, 0), (4, 1), (7, 0)]);
        assert_eq!(visit("c").holding, [(4, 0)]);
        assert_eq!(visit("z").holding, []);
        assert_eq!(visit("z").unreadable, [5]);
        assert!(visit("b").includes(1) && !visit("b").includes(4) && visit("b").includes(5));
    }

    #[test]
    fn keys_that_share_a_hash_are_searched_for_everywhere() {
        let one = files(&[(1, "a: 1\n"), (2, "a: 2\n")]);
        assert_eq!(index_of(&one, Vec::new(), true, |_| 7).visit(7).unwrap().holding, [(1, 0), (2, 0)]);
        let two = files(&[(1, "a: 1\n"), (2, "b: 2\nc: 3\n")]);
        let index = index_of(&two, Vec::new(), true, |k| if k.as_str() == Some("c") { 8 } else { 7 });
        assert!(index.visit(7).is_none());
        assert_eq!(index.visit(8).unwrap().holding, [(2, 1)]);
    }
}
