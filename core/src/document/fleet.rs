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

    /// The answers of `row`, each once, with the nodes that get it: the
    /// most common first, then in the order of the nodes.
    pub fn groups(&self, row: usize) -> Vec<(&Answer, Vec<&str>)> {
        let mut groups: Vec<(&Answer, Vec<&str>)> = Vec::new();
        let Some(answers) = self.answers.get(row) else { return groups };
        for (answer, node) in answers.iter().zip(&self.nodes) {
            match groups.iter_mut().find(|(a, _)| a.same(answer)) {
                Some((_, nodes)) => nodes.push(node),
                None => groups.push((answer, vec![node])),
            }
        }
        groups.sort_by_key(|(_, nodes)| std::cmp::Reverse(nodes.len()));
        groups
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

/// How long a pull request's comment may be: GitHub's limit, in characters.
pub const COMMENT_LIMIT: usize = 65_536;

/// The nodes that see the same change of a key: before, after, their names.
type Group<'c> = (&'c Answer, &'c Answer, Vec<&'c str>);

/// How many node names a group of changes lists before saying how many more.
const NAMES_SHOWN: usize = 200;

/// Changes as a pull request comment in Markdown: a summary line, then each
/// changed key once, with the nodes that see the same change grouped (their
/// before and after shown once, the nodes collapsed), keys that now fail
/// first and marked. Cut to `limit` characters with a line saying what was
/// left out and where the whole list is (`full`: a link to the JSON, else
/// the command that prints it). `nodes` is how many nodes were compared.
pub fn markdown(changes: &[Change], nodes: usize, limit: usize, full: Option<&str>) -> String {
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    // Key, then the groups of nodes that see the same change.
    let mut keys: Vec<(&str, Vec<Group>)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::default();
    for c in changes {
        let i = *index.entry(&c.key).or_insert_with(|| {
            keys.push((&c.key, Vec::new()));
            keys.len() - 1
        });
        let groups = &mut keys[i].1;
        match groups.iter_mut().find(|(b, a, _)| b.same(&c.before) && a.same(&c.after)) {
            Some(group) => group.2.push(&c.node),
            None => groups.push((&c.before, &c.after, vec![&c.node])),
        }
    }
    let fails = |groups: &[Group]| -> usize {
        groups
            .iter()
            .filter(|(b, a, _)| matches!(a, Answer::Error(_)) && !matches!(b, Answer::Error(_)))
            .map(|g| g.2.len())
            .sum()
    };
    let count = |groups: &[Group]| groups.iter().map(|g| g.2.len()).sum::<usize>();
    for (_, groups) in &mut keys {
        groups.sort_by_key(|g| std::cmp::Reverse(g.2.len()));
    }
    keys.sort_by_cached_key(|(key, groups)| (std::cmp::Reverse((fails(groups), count(groups))), *key));
    let changed_nodes = changes.iter().map(|c| c.node.as_str()).collect::<BTreeSet<_>>().len();
    let failing: usize = keys.iter().map(|(_, g)| fails(g)).sum();
    let verb = |n: usize, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
    let mut out = if changes.is_empty() {
        format!("### Hiera: no answer changes on any of the {} compared\n", plural(nodes, "node"))
    } else {
        let now_failing = match failing {
            0 => String::new(),
            n => format!(", {} now {}", plural(n, "answer"), verb(n, "fails", "fail")),
        };
        format!(
            "### Hiera: {} {} on {changed_nodes} of {}{now_failing}\n",
            plural(keys.len(), "key"),
            verb(keys.len(), "changes", "change"),
            plural(nodes, "node")
        )
    };
    // The line that says what is left out, at its longest.
    let reserve = 400 + full.map_or(0, str::len);
    let (mut shown, mut length) = (0, out.chars().count());
    for (key, groups) in &keys {
        let section = key_section(key, groups, fails(groups));
        let more = section.chars().count();
        if length + more + reserve > limit {
            break;
        }
        out.push_str(&section);
        (shown, length) = (shown + 1, length + more);
    }
    if shown < keys.len() {
        let left: usize = keys[shown..].iter().map(|(_, g)| count(g)).sum();
        let whole = match full {
            Some(link) => format!("[the whole list as JSON]({link})"),
            None => "`hiera-lookup diff ... --render-as json`".to_string(),
        };
        out.push_str(&format!(
            "\n**{} of {} not shown** ({} changes): a comment holds {limit} characters; {whole} has every change.\n",
            keys.len() - shown,
            plural(keys.len(), "key"),
            left
        ));
    }
    out
}

/// One key's section of [`markdown`].
fn key_section(key: &str, groups: &[Group], failing: usize) -> String {
    let nodes: usize = groups.iter().map(|g| g.2.len()).sum();
    let mark = if failing > 0 { format!(" ⚠️ now fails on {failing}") } else { String::new() };
    let mut out = format!("\n#### {} ({} node{}){mark}\n", code(key), nodes, if nodes == 1 { "" } else { "s" });
    for (before, after, names) in groups {
        let (b, a) = (inline(before), inline(after));
        let who = if names.len() == 1 { "1 node".to_string() } else { format!("{} nodes", names.len()) };
        match (b, a) {
            (Some(b), Some(a)) => out.push_str(&format!("\n{who}: {b} → {a}\n")),
            _ => {
                out.push_str(&format!("\n{who}:\n\n"));
                let text = line_diff(&block(before), &block(after)).join("\n");
                let fence = "`".repeat(longest_run(&text, '`').max(2) + 1);
                out.push_str(&format!("{fence}diff\n{text}\n{fence}\n"));
            }
        }
        let listed: Vec<String> = names.iter().take(NAMES_SHOWN).map(|n| escape(n)).collect();
        let more = names.len().saturating_sub(NAMES_SHOWN);
        let mut list = listed.join(", ");
        if more > 0 {
            list.push_str(&format!(", and {more} more"));
        }
        if names.len() <= 3 {
            out.push_str(&format!("\n{list}\n"));
        } else {
            out.push_str(&format!("\n<details><summary>the {} nodes</summary>\n\n{list}\n\n</details>\n", names.len()));
        }
    }
    out
}

/// An answer in a line of Markdown, when it is short enough for one.
fn inline(answer: &Answer) -> Option<String> {
    match answer {
        Answer::NotFound => Some("*not found*".into()),
        Answer::Error(m) if m.len() <= 160 && !m.contains('\n') => Some(format!("**error** {}", code(m))),
        Answer::Value(v) => {
            let json = v.to_json().unwrap_or_else(|_| v.inspect());
            (json.len() <= 60).then(|| code(&json))
        }
        Answer::Error(_) => None,
    }
}

/// An answer as the lines of a `diff` block.
fn block(answer: &Answer) -> Vec<String> {
    let text = match answer {
        Answer::NotFound => "# not found".to_string(),
        Answer::Error(m) => format!("# error: {m}"),
        Answer::Value(v) => {
            let yaml = crate::yaml::to_yaml(v);
            // Without the document marker, which says nothing here.
            yaml.strip_prefix("---\n").or_else(|| yaml.strip_prefix("--- ")).unwrap_or(&yaml).to_string()
        }
    };
    text.trim_end().lines().map(str::to_string).collect()
}

/// The lines of a `diff` block: those both hold as they are, the others
/// marked `-` and `+` (a longest common subsequence; past a few hundred
/// lines a side, all of one then all of the other).
fn line_diff(before: &[String], after: &[String]) -> Vec<String> {
    let mark = |sign: char, lines: &[String]| lines.iter().map(|l| format!("{sign} {l}")).collect::<Vec<_>>();
    if before.len() * after.len() > 250_000 {
        return [mark('-', before), mark('+', after)].concat();
    }
    // common[i][j]: the longest common subsequence of before[i..] and after[j..].
    let mut common = vec![vec![0u32; after.len() + 1]; before.len() + 1];
    for i in (0..before.len()).rev() {
        for j in (0..after.len()).rev() {
            common[i][j] =
                if before[i] == after[j] { common[i + 1][j + 1] + 1 } else { common[i + 1][j].max(common[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < before.len() || j < after.len() {
        if i < before.len() && j < after.len() && before[i] == after[j] {
            out.push(format!("  {}", before[i]));
            (i, j) = (i + 1, j + 1);
        } else if j == after.len() || (i < before.len() && common[i + 1][j] >= common[i][j + 1]) {
            out.push(format!("- {}", before[i]));
            i += 1;
        } else {
            out.push(format!("+ {}", after[j]));
            j += 1;
        }
    }
    out
}

/// Text as a Markdown code span, however many backticks it holds.
fn code(text: &str) -> String {
    let ticks = "`".repeat(longest_run(text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

fn longest_run(text: &str, c: char) -> usize {
    text.split(|x| x != c).map(str::len).max().unwrap_or(0)
}

/// A node name as Markdown text (names are what facts or files call them).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
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
    fn a_row_s_answers_are_grouped_with_the_nodes_that_get_each() {
        let v = |i: i64| Answer::Value(Value::Integer(i.into()));
        let t = table(&["a", "b", "c", "d"], &["k"], vec![vec![v(1), v(2), v(2), Answer::NotFound]]);
        let groups: Vec<(String, Vec<&str>)> = t.groups(0).into_iter().map(|(a, n)| (a.to_string(), n)).collect();
        assert_eq!(groups, [("2".into(), vec!["b", "c"]), ("1".into(), vec!["a"]), ("not found".into(), vec!["d"])]);
        assert!(t.groups(1).is_empty());
    }

    #[test]
    fn hash_order_is_part_of_an_answer() {
        let ab = crate::formats::json::parse(r#"{"a":1,"b":2}"#).unwrap();
        let ba = crate::formats::json::parse(r#"{"b":2,"a":1}"#).unwrap();
        assert!(!Answer::Value(ab.clone()).same(&Answer::Value(ba)));
        assert!(Answer::Value(ab.clone()).same(&Answer::Value(ab)));
    }

    fn change(node: &str, key: &str, before: Answer, after: Answer) -> Change {
        Change { node: node.into(), key: key.into(), before, after }
    }

    #[test]
    fn markdown_says_each_key_once_with_the_nodes_that_see_each_change() {
        let json = |t: &str| Answer::Value(crate::formats::json::parse(t).unwrap());
        let mut changes = Vec::new();
        for i in 0..5 {
            changes.push(change(&format!("web{i}"), "ntp::servers", json(r#"["a"]"#), json(r#"["b"]"#)));
        }
        changes.push(change("db_1", "ntp::servers", Answer::NotFound, json(r#"["b"]"#)));
        changes.push(change("web0", "port", json("8080"), Answer::Error("Lookup of key 'port' failed".into())));
        let md = markdown(&changes, 10, COMMENT_LIMIT, None);
        assert_eq!(
            md,
            "### Hiera: 2 keys change on 6 of 10 nodes, 1 answer now fails\n\
             \n#### `port` (1 node) ⚠️ now fails on 1\n\
             \n1 node: `8080` → **error** `Lookup of key 'port' failed`\n\
             \nweb0\n\
             \n#### `ntp::servers` (6 nodes)\n\
             \n5 nodes: `[\"a\"]` → `[\"b\"]`\n\
             \n<details><summary>the 5 nodes</summary>\n\nweb0, web1, web2, web3, web4\n\n</details>\n\
             \n1 node: *not found* → `[\"b\"]`\n\
             \ndb\\_1\n"
        );
        let long = json(&format!(r#"{{"motd": "{}"}}"#, "x".repeat(80)));
        let md = markdown(&[change("n", "motd", Answer::NotFound, long)], 1, COMMENT_LIMIT, None);
        assert!(md.contains("```diff\n- # not found\n+ motd: xxxx"), "{md}");
        let tuning = |t: &str| json(t);
        let changed = change(
            "db",
            "tuning",
            tuning(r#"{"a": "1", "b": "2", "c": "3", "long": "a value too long for one line of Markdown"}"#),
            tuning(r#"{"a": "1", "b": "20", "c": "3", "long": "a value too long for one line of Markdown", "d": "4"}"#),
        );
        let md = markdown(&[changed], 1, COMMENT_LIMIT, None);
        assert!(md.contains("```diff\n  a: '1'\n- b: '2'\n+ b: '20'\n  c: '3'\n  long: a value too long for one line of Markdown\n+ d: '4'\n```"), "{md}");
    }

    #[test]
    fn markdown_fits_a_comment_and_says_what_it_left_out() {
        let value = |i: usize| Answer::Value(Value::from(format!("{i}-{}", "v".repeat(500)).as_str()));
        let changes: Vec<Change> = (0..400)
            .flat_map(|k| {
                (0..100).map(move |n| change(&format!("node{n}"), &format!("key{k:03}"), value(k), value(k + n)))
            })
            .collect();
        let md = markdown(&changes, 100, COMMENT_LIMIT, Some("https://ci.example.com/diff.json"));
        assert!(md.chars().count() <= COMMENT_LIMIT, "{}", md.chars().count());
        assert!(md.starts_with("### Hiera: 400 keys change on 100 of 100 nodes\n"), "{}", &md[..100]);
        assert!(
            md.contains("not shown**") && md.contains("[the whole list as JSON](https://ci.example.com/diff.json)")
        );
    }
}
