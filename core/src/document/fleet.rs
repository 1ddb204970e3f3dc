//! Many nodes at once: each (node, key) answer, and what changed between two
//! sets of answers. `hiera-lookup diff` and the page's fleet view both say
//! what changed through [`Change`], so they say it alike.

use std::collections::BTreeSet;
use std::fmt;

use crate::backends::data::function_for;
use crate::error::{Error, ErrorKind};
use crate::interpolate::{has_tokens, method_call, pieces, Piece};
use crate::key::split_key;
use crate::value::{Hash, Value};
use crate::Hiera;
use rustc_hash::FxHashMap as HashMap;

/// The keys whose answers a change from `before` to `after` (one
/// installation's files in two versions) can change, for any node; `None`
/// when it can change any key's. Only data files may differ for a set to be
/// given: a changed hiera.yaml, `puppet.conf`, `environment.conf`, key pair
/// (`.pem`) or module metadata changes which files are read, or how; so does a changed data
/// file that either side cannot read, or whose `lookup_options` changed.
/// (Manifests, templates and other files no lookup reads are not read here
/// either.) Else the set is the keys whose values differ between the
/// versions of a changed file, and every key whose value looks one of those
/// up (`%{lookup('k')}`, `alias`, `hiera`), and so on: their answers follow
/// the keys they look up. A token that is not such a call is a scope
/// variable, the same in both trees.
pub fn touched_keys(before: &Hiera, after: &Hiera) -> Option<BTreeSet<String>> {
    let (b, a) = (before.files(), after.files());
    // What a lookup may read: data, hiera.yaml, puppet.conf, environment.conf,
    // module metadata and key pairs; not the manifests and templates beside them.
    let read_by_lookups =
        |p: &&str| function_for(p).is_some() || p.ends_with(".pem") || crate::config::environment::is_conf(p);
    let paths: BTreeSet<&str> = b.paths().chain(a.paths()).filter(read_by_lookups).collect();
    let mut touched = BTreeSet::new();
    // Who looks each key up (by its first segment), in either version.
    let mut dependents: HashMap<String, Vec<String>> = HashMap::default();
    for path in paths {
        let (old, new) = (b.read(path), a.read(path));
        let config = path.ends_with("/hiera.yaml") || path.ends_with("/metadata.json") || path == crate::PUPPET_CONF;
        let Some(function) = function_for(path).filter(|_| !config) else {
            if old != new {
                return None;
            }
            continue;
        };
        let read = |hiera: &Hiera, text: Option<&str>| text.map(|_| hiera.data_file(function, path)).transpose();
        let (Ok(old_file), Ok(new_file)) = (read(before, old), read(after, new)) else {
            if old != new {
                return None;
            }
            continue;
        };
        let files = [old_file, new_file];
        if old != new {
            let options = |f: &Option<std::rc::Rc<crate::backends::data::DataFile>>| {
                f.as_ref().and_then(|f| f.hash.get(&Value::from("lookup_options")).cloned())
            };
            if options(&files[0]) != options(&files[1]) {
                return None;
            }
            // A key whose value is the same in both versions answers alike.
            let value = |f: &Option<std::rc::Rc<crate::backends::data::DataFile>>, k: &Value| {
                f.as_ref().and_then(|f| f.hash.get(k).cloned())
            };
            let keys = files.iter().flatten().flat_map(|f| f.hash.keys());
            touched.extend(keys.filter(|k| value(&files[0], k) != value(&files[1], k)).map(Value::to_ruby_s));
        }
        for (key, value) in files.iter().flatten().flat_map(|f| f.hash.iter()).filter(|(_, v)| has_tokens(v)) {
            let mut keys = Vec::new();
            looked_up(value, &mut keys);
            for k in keys {
                dependents.entry(k).or_default().push(key.to_ruby_s());
            }
        }
    }
    touched.remove("lookup_options");
    let mut todo: Vec<String> = touched.iter().cloned().collect();
    while let Some(key) = todo.pop() {
        for d in dependents.get(&key).into_iter().flatten() {
            if touched.insert(d.clone()) {
                todo.push(d.clone());
            }
        }
    }
    Some(touched)
}

/// Adds to `keys` the first segment of each key `value` looks up through
/// an interpolation (`lookup`, `alias`, `hiera`, in a key or a value,
/// however deep), read as the lookup reads it ([`method_call`]).
fn looked_up(value: &Value, keys: &mut Vec<String>) {
    match value {
        Value::String(s) => {
            for piece in pieces(s) {
                let Piece::Token { expr, .. } = piece else { continue };
                let Some(("lookup" | "alias" | "hiera", key)) = method_call(expr) else { continue };
                keys.extend(split_key(key).and_then(|segments| Some(segments.first()?.to_ruby_s())));
            }
        }
        Value::Array(items) => items.iter().for_each(|v| looked_up(v, keys)),
        Value::Hash(h) => h.iter().for_each(|(k, v)| {
            looked_up(k, keys);
            looked_up(v, keys);
        }),
        _ => {}
    }
}

/// What a lookup gave for one node.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A value.
    Value(Value),
    /// No value, and no default.
    NotFound,
    /// The lookup failed with this message.
    Error(String),
}

impl Answer {
    /// The answer of a lookup's result.
    pub fn of(result: Result<Value, Error>) -> Answer {
        match result {
            Ok(v) => Answer::Value(v),
            Err(e) if e.kind == ErrorKind::NotFound => Answer::NotFound,
            Err(e) => Answer::Error(e.into_message()),
        }
    }

    /// As `diff --render-as json` prints it: `{"value": V}`,
    /// `{"not_found": true}` or `{"error": MESSAGE}`.
    pub fn to_value(&self) -> Value {
        let (name, value) = match self {
            Answer::Value(v) => ("value", v.clone()),
            Answer::NotFound => ("not_found", Value::Bool(true)),
            Answer::Error(m) => ("error", Value::String(m.clone())),
        };
        let mut h = Hash::default();
        h.insert(Value::from(name), value);
        Value::Hash(h)
    }

    /// Whether two answers are the same, hash order included.
    pub fn same(&self, other: &Answer) -> bool {
        match (self, other) {
            (Answer::Value(a), Answer::Value(b)) => crate::document::case::same(a, b),
            (a, b) => a == b,
        }
    }
}

/// The value as JSON (Puppet's rendering for what JSON cannot hold), "not
/// found", or "error: MESSAGE".
impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value(v) => f.write_str(&v.to_json().unwrap_or_else(|_| v.inspect())),
            Answer::NotFound => f.write_str("not found"),
            Answer::Error(m) => write!(f, "error: {m}"),
        }
    }
}

/// A (node, key) whose answer differs between two sets of answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The node.
    pub node: String,
    /// The key (as the lookup names it).
    pub key: String,
    /// The answer before.
    pub before: Answer,
    /// The answer after.
    pub after: Answer,
}

impl Change {
    /// As `diff --render-as json` lists it: `{node, key, before, after}`.
    pub fn to_value(&self) -> Value {
        let mut h = Hash::default();
        h.insert(Value::from("node"), Value::from(self.node.as_str()));
        h.insert(Value::from("key"), Value::from(self.key.as_str()));
        h.insert(Value::from("before"), self.before.to_value());
        h.insert(Value::from("after"), self.after.to_value());
        Value::Hash(h)
    }
}

/// `NODE KEY: BEFORE -> AFTER`, a line of `diff`'s text.
impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {} -> {}", self.node, self.key, self.before, self.after)
    }
}

/// Answers of keys (rows) for nodes (columns).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The nodes' names, one a column.
    pub nodes: Vec<String>,
    /// The keys, one a row.
    pub keys: Vec<String>,
    /// `answers[row][column]`.
    pub answers: Vec<Vec<Answer>>,
}

impl Table {
    /// The answer of `key` for `node`, when the table holds both.
    pub fn get(&self, node: &str, key: &str) -> Option<&Answer> {
        let column = self.nodes.iter().position(|n| n == node)?;
        let row = self.keys.iter().position(|k| k == key)?;
        self.answers.get(row)?.get(column)
    }

    /// How the answer of `row` for `column` compares: changed since
    /// `pinned` (the answer then), else differing from the first node's, or
    /// the same.
    pub fn mark<'p>(&self, row: usize, column: usize, pinned: Option<&'p Table>) -> Mark<'p> {
        let (Some(answers), Some(node)) = (self.answers.get(row), self.nodes.get(column)) else { return Mark::Same };
        let Some(answer) = answers.get(column) else { return Mark::Same };
        match pinned.and_then(|p| p.get(node, &self.keys[row])).filter(|before| !before.same(answer)) {
            Some(before) => Mark::Changed(before),
            None if !answer.same(&answers[0]) => Mark::Differs,
            None => Mark::Same,
        }
    }

    /// Whether the nodes' answers of `row` are not all the same.
    pub fn varies(&self, row: usize) -> bool {
        self.answers.get(row).is_some_and(|answers| answers.iter().any(|a| !a.same(&answers[0])))
    }

    /// Every (node, key) both tables hold whose answer differs, sorted by
    /// node, then key.
    pub fn changes(&self, after: &Table) -> Vec<Change> {
        let mut changes = Vec::new();
        for (row, key) in self.keys.iter().enumerate() {
            for (column, node) in self.nodes.iter().enumerate() {
                let (Some(before), Some(now)) = (self.answers[row].get(column), after.get(node, key)) else { continue };
                if !before.same(now) {
                    changes.push(Change {
                        node: node.clone(),
                        key: key.clone(),
                        before: before.clone(),
                        after: now.clone(),
                    });
                }
            }
        }
        sort(&mut changes);
        changes
    }
}

/// How one answer of a [`Table`] compares ([`Table::mark`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark<'p> {
    /// Changed since the pin: the answer then.
    Changed(&'p Answer),
    /// Not the first node's answer.
    Differs,
    /// The first node's answer.
    Same,
}

/// Sorts changes by node, then key, as `diff` prints them (a (node, key)
/// changes once: the order of equals cannot show).
pub fn sort(changes: &mut [Change]) {
    changes.sort_unstable_by(|x, y| (&x.node, &x.key).cmp(&(&y.node, &y.key)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(nodes: &[&str], keys: &[&str], answers: Vec<Vec<Answer>>) -> Table {
        Table {
            nodes: nodes.iter().map(|n| n.to_string()).collect(),
            keys: keys.iter().map(|k| k.to_string()).collect(),
            answers,
        }
    }

    #[test]
    fn a_cell_is_marked_changed_since_the_pin_else_against_the_first_node() {
        let table = |a: &str, b: &str| Table {
            nodes: vec!["n1".into(), "n2".into()],
            keys: vec!["k".into()],
            answers: vec![vec![Answer::Value(Value::from(a)), Answer::Value(Value::from(b))]],
        };
        let (pinned, now) = (table("1", "1"), table("1", "2"));
        assert_eq!(now.mark(0, 1, Some(&pinned)), Mark::Changed(&Answer::Value(Value::from("1"))));
        assert_eq!(now.mark(0, 1, None), Mark::Differs);
        assert_eq!(now.mark(0, 0, Some(&pinned)), Mark::Same);
        assert!(now.varies(0) && !pinned.varies(0));
    }

    #[test]
    fn changes_are_the_cells_both_hold_that_differ_by_node_then_key() {
        let v = |i: i64| Answer::Value(Value::Integer(i.into()));
        let before = table(&["b", "a"], &["k", "j"], vec![vec![v(1), v(1)], vec![v(2), Answer::NotFound]]);
        // A node and a key only one side holds are no change.
        let after = table(
            &["a", "b", "c"],
            &["j", "k", "new"],
            vec![vec![v(3), v(2), v(0)], vec![v(1), v(1), v(0)], vec![v(0), v(0), v(0)]],
        );
        let lines: Vec<String> = before.changes(&after).iter().map(ToString::to_string).collect();
        assert_eq!(lines, ["a j: not found -> 3"]);
        let error = Change { node: "n".into(), key: "k".into(), before: v(1), after: Answer::Error("boom".into()) };
        assert_eq!(error.to_string(), "n k: 1 -> error: boom");
        assert_eq!(
            error.to_value().to_json().unwrap(),
            r#"{"node":"n","key":"k","before":{"value":1},"after":{"error":"boom"}}"#
        );
    }

    #[test]
    fn hash_order_is_part_of_an_answer() {
        let ab = crate::formats::json::parse(r#"{"a":1,"b":2}"#).unwrap();
        let ba = crate::formats::json::parse(r#"{"b":2,"a":1}"#).unwrap();
        assert!(!Answer::Value(ab.clone()).same(&Answer::Value(ba)));
        assert!(Answer::Value(ab.clone()).same(&Answer::Value(ab)));
    }
}
