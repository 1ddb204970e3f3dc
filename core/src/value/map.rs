//! The map inside a [`Hash`](super::Hash): Ruby's ordered hash, keys
//! compared as Ruby's `eql?`, in the order they were first inserted.
//!
//! Most hashes in data hold a handful of entries. Such a map is a plain list
//! searched by comparing keys, which costs less than hashing the key looked
//! for, and half the memory of a list with a hash table beside it: a cold
//! lookup's time goes largely into first touches of memory. A map of more
//! than [`INDEXED`] entries also keeps a table of their positions by key
//! hash, each with the hash, so that growing it reads no key again.

use super::Value;
use std::hash::{BuildHasher, Hash as StdHash};

/// The most entries a map searches by comparing keys one by one.
const INDEXED: usize = 8;

/// The hash a map files a key under: FxHash of the key, as
/// `rustc_hash::FxBuildHasher.hash_one(key)` gives it. A key looked up by
/// its hash (see [`Map::index_from_hash`]) must be hashed this way.
pub fn hash_of<Q: StdHash + ?Sized>(key: &Q) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(key)
}

/// A key to look a [`Map`] up by: a [`Value`], or something that stands for
/// one without being made into one (see [`super::Str`]). It must hash as
/// the value it equals.
pub trait Key: StdHash {
    /// Whether `key` is the value this stands for.
    fn is(&self, key: &Value) -> bool;
}

impl Key for Value {
    fn is(&self, key: &Value) -> bool {
        self == key
    }
}

/// An ordered map from values to values (see the module's documentation).
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Value, Value)>,
    /// Positions in `entries` by key hash, for more than [`INDEXED`]
    /// entries.
    index: Option<Box<Index>>,
}

/// Each slot: a position and the 32 bits of its key's hash that [`short`]
/// keeps.
type Index = hashbrown::HashTable<(u32, u32)>;

/// Files position `at` under a key's `short` hash.
fn file(index: &mut Index, at: usize, short: u32) {
    index.insert_unique(widen(short), (at as u32, short), |&(_, h)| widen(h));
}

/// The index of `entries`; `None` if a key comes twice.
fn index_of(entries: &[(Value, Value)]) -> Option<Box<Index>> {
    let mut index = Index::with_capacity(entries.len());
    for (at, (k, _)) in entries.iter().enumerate() {
        let h = short(hash_of(k));
        if index.find(widen(h), |&(seen, sh)| sh == h && entries[seen as usize].0 == *k).is_some() {
            return None;
        }
        file(&mut index, at, h);
    }
    Some(Box::new(index))
}

/// The 32 bits of a key's hash an index keeps.
fn short(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// An index slot's hash as its table wants it: the kept bits in both halves,
/// so that the table's bucket (low bits) and tag (top bits) both vary.
fn widen(short: u32) -> u64 {
    (short as u64) << 32 | short as u64
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        let index = (n > INDEXED).then(|| Box::new(Index::with_capacity(n)));
        Map { entries: Vec::with_capacity(n), index }
    }

    /// The map of `entries`, in their order, taking their list as it is;
    /// `None` if a key comes twice.
    pub fn from_unique(entries: Vec<(Value, Value)>) -> Option<Map> {
        if entries.len() <= INDEXED {
            let repeated = entries.iter().enumerate().any(|(i, (k, _))| entries[..i].iter().any(|(seen, _)| seen == k));
            return (!repeated).then_some(Map { entries, index: None });
        }
        let index = index_of(&entries)?;
        Some(Map { entries, index: Some(index) })
    }

    /// How many entries the map holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The position of the entry whose key is `key`.
    pub fn get_index_of<Q: Key + ?Sized>(&self, key: &Q) -> Option<usize> {
        match &self.index {
            None => self.entries.iter().position(|(k, _)| key.is(k)),
            Some(_) => self.index_from_hash(hash_of(key), |k| key.is(k)),
        }
    }

    /// The position of the entry whose key hashes to `hash` (as
    /// [`hash_of`] hashes it) and satisfies `is`: a key looked up in many
    /// maps is hashed once.
    pub fn index_from_hash(&self, hash: u64, is: impl Fn(&Value) -> bool) -> Option<usize> {
        match &self.index {
            None => self.entries.iter().position(|(k, _)| is(k)),
            Some(index) => {
                let short = short(hash);
                let found = index.find(widen(short), |&(at, h)| h == short && is(&self.entries[at as usize].0));
                found.map(|&(at, _)| at as usize)
            }
        }
    }

    /// The value of `key`.
    pub fn get<Q: Key + ?Sized>(&self, key: &Q) -> Option<&Value> {
        self.get_index_of(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, to change.
    pub fn get_mut<Q: Key + ?Sized>(&mut self, key: &Q) -> Option<&mut Value> {
        self.get_index_of(key).map(|i| &mut self.entries[i].1)
    }

    /// Whether the map has an entry for `key`.
    pub fn contains_key<Q: Key + ?Sized>(&self, key: &Q) -> bool {
        self.get_index_of(key).is_some()
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Value, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    /// The entry at position `i`, its value to change.
    pub fn get_index_mut(&mut self, i: usize) -> Option<(&Value, &mut Value)> {
        self.entries.get_mut(i).map(|(k, v)| (&*k, v))
    }

    /// Sets `key`'s value, giving the value it replaces; a new key goes
    /// last, a known one keeps its place (as in Ruby).
    pub fn insert(&mut self, key: Value, value: Value) -> Option<Value> {
        let hash = self.index.is_some().then(|| hash_of(&key));
        let at = match hash {
            None => self.entries.iter().position(|(k, _)| *k == key),
            Some(hash) => self.index_from_hash(hash, |k| *k == key),
        };
        match at {
            Some(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.push(hash, key, value);
                None
            }
        }
    }

    /// Adds an entry whose key the map does not hold (`hash` is the key's,
    /// when the map is indexed).
    fn push(&mut self, hash: Option<u64>, key: Value, value: Value) {
        match (&mut self.index, hash) {
            (Some(index), Some(hash)) => {
                file(index, self.entries.len(), short(hash));
                self.entries.push((key, value));
            }
            _ => {
                self.entries.push((key, value));
                if self.entries.len() > INDEXED {
                    self.reindex();
                }
            }
        }
    }

    /// Builds the index of positions anew (the keys are unique).
    fn reindex(&mut self) {
        self.index = if self.entries.len() > INDEXED { index_of(&self.entries) } else { None };
    }

    /// Removes `key`'s entry, moving the entries after it up a place, and
    /// gives its value.
    pub fn shift_remove<Q: Key + ?Sized>(&mut self, key: &Q) -> Option<Value> {
        let i = self.get_index_of(key)?;
        let (_, value) = self.entries.remove(i);
        if self.index.is_some() {
            self.reindex();
        }
        Some(value)
    }

    /// Keeps only the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Value, &mut Value) -> bool) {
        let len = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.index.is_some() && self.entries.len() != len {
            self.reindex();
        }
    }

    /// The value of `key`, inserted last by `make` if the map has none.
    pub fn get_or_insert_with(&mut self, key: Value, make: impl FnOnce() -> Value) -> &mut Value {
        let i = match self.get_index_of(&key) {
            Some(i) => i,
            None => {
                let hash = self.index.is_some().then(|| hash_of(&key));
                self.push(hash, key, make());
                self.entries.len() - 1
            }
        };
        &mut self.entries[i].1
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries in order, their values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, to change.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// Maps are equal when they hold the same entries, in any order, as Ruby's
/// `==` has it.
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Extend<(Value, Value)> for Map {
    fn extend<I: IntoIterator<Item = (Value, Value)>>(&mut self, entries: I) {
        for (k, v) in entries {
            self.insert(k, v);
        }
    }
}

/// A later entry with a key met before sets that key's value, which keeps
/// its first place.
impl FromIterator<(Value, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Value, Value)>>(entries: I) -> Map {
        let entries = entries.into_iter();
        let mut map = Map::with_capacity(entries.size_hint().0);
        map.extend(entries);
        map
    }
}

impl IntoIterator for Map {
    type Item = (Value, Value);
    type IntoIter = std::vec::IntoIter<(Value, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Value, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// A [`Map`]'s entries in order.
#[derive(Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, (Value, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Value, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// A [`Map`]'s entries in order, their values to change.
pub struct IterMut<'a>(std::slice::IterMut<'a, (Value, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Value, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for IterMut<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Value {
        Value::Integer(i.into())
    }

    fn key(i: usize) -> Value {
        Value::from(format!("k{i}"))
    }

    #[test]
    fn keeps_the_order_of_first_insertion_with_and_without_an_index() {
        for n in [3, INDEXED, INDEXED + 1, 100] {
            let mut map = Map::new();
            for i in 0..n {
                assert_eq!(map.insert(key(i), int(i as i64)), None);
            }
            assert_eq!(map.insert(key(0), int(-1)), Some(int(0)));
            assert_eq!(map.len(), n);
            assert_eq!(map.get_index(0), Some((&key(0), &int(-1))));
            for i in 1..n {
                assert_eq!(map.get(&key(i)), Some(&int(i as i64)), "{n} entries, key {i}");
                assert_eq!(map.get_index_of(&key(i)), Some(i));
                assert_eq!(map.index_from_hash(hash_of(&key(i)), |k| *k == key(i)), Some(i));
            }
            assert_eq!(map.get(&key(n)), None);
            assert_eq!(map.shift_remove(&key(1)), Some(int(1)));
            assert_eq!(map.get_index_of(&key(n - 1)), Some(n - 2));
            map.retain(|k, _| *k != key(2));
            assert_eq!(map.len(), n - 2);
            assert!(map.keys().all(|k| map.get(k).is_some()), "{n} entries");
        }
    }

    #[test]
    fn a_list_of_entries_is_a_map_unless_a_key_comes_twice() {
        for n in [2, INDEXED, INDEXED + 1, 50] {
            let entries: Vec<_> = (0..n).map(|i| (key(i), int(i as i64))).collect();
            let map = Map::from_unique(entries.clone()).expect("unique keys");
            assert_eq!(map, entries.iter().cloned().collect::<Map>());
            assert!((0..n).all(|i| map.get_index_of(&key(i)) == Some(i)), "{n} entries");
            let mut repeated = entries;
            repeated.push((key(n / 2), Value::Undef));
            assert!(Map::from_unique(repeated).is_none(), "{n} entries");
        }
    }

    #[test]
    fn equal_maps_may_differ_in_order() {
        let a: Map = (0..20).map(|i| (key(i), Value::Undef)).collect();
        let b: Map = (0..20).rev().map(|i| (key(i), Value::Undef)).collect();
        assert_eq!(a, b);
        assert_ne!(a.keys().next(), b.keys().next());
        let c: Map = (0..19).map(|i| (key(i), Value::Undef)).collect();
        assert_ne!(a, c);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_takes_its_last_value() {
        let map: Map = [(key(1), int(1)), (key(2), Value::Undef), (key(1), int(3))].into_iter().collect();
        assert_eq!(map.iter().collect::<Vec<_>>(), [(&key(1), &int(3)), (&key(2), &Value::Undef)]);
    }

    #[test]
    fn integer_and_float_keys_differ_as_in_ruby() {
        let map: Map = [(int(1), Value::from("int")), (Value::Float(1.0), Value::from("float"))].into_iter().collect();
        assert_eq!(map.len(), 2);
        assert_eq!(map.get(&Value::Float(1.0)), Some(&Value::from("float")));
    }
}
