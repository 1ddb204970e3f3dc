//! "Why is this the value?": the trace of a lookup read as steps, one per
//! place Hiera looked, with the merged value after each; the file and line
//! every leaf of the result came from; and the traps the lookup fell into.

use crate::explain::{Event, Explanation, NodeId, NodeKind, Token};
use crate::lookup::Answer;
use crate::value::{Str, Value};
use crate::yaml::{self, Position, Surprise};

/// What happened at one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    /// The key was there.
    Found,
    /// The data file does not exist.
    NotFound,
    /// The file exists but does not have the key.
    NoSuchKey,
}

impl StepOutcome {
    /// The page's name for it (`found`, `not-found`, `no-such-key`).
    pub fn as_str(self) -> &'static str {
        match self {
            StepOutcome::Found => "found",
            StepOutcome::NotFound => "not-found",
            StepOutcome::NoSuchKey => "no-such-key",
        }
    }
}

/// One place a lookup looked.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The layer (`Environment Data Provider (...)`).
    pub layer: String,
    /// The hierarchy level.
    pub level: String,
    /// The path as written in hiera.yaml.
    pub template: String,
    /// The path after interpolation (absolute).
    pub path: String,
    /// What each `%{...}` of the path became.
    pub tokens: Vec<Token>,
    /// What happened there.
    pub outcome: StepOutcome,
    /// The value found there (after interpolation), as the merge left it.
    pub value: Option<Value>,
    /// The value as found, when the merge changed it afterwards (Puppet's
    /// deep merge removes knockout entries from the value it merges in).
    pub written: Option<Value>,
    /// The merged value once this place was merged in, when merging.
    pub merged: Option<Value>,
    /// Where the value is in its file, and what YAML may have surprised.
    pub origin: Option<crate::explain::Origin>,
    /// Interpolations in the value: what each `%{...}` became.
    pub interpolations: Vec<Interpolation>,
    /// Whether the value held eyaml blocks, decrypted to what it shows.
    pub decrypted: bool,
}

/// An interpolated string of a found value.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpolation {
    /// The string as written.
    pub subject: String,
    /// Its tokens.
    pub tokens: Vec<Token>,
    /// The keys looked up by `lookup()`/`hiera()`/`alias()` inside it.
    pub nested: Vec<String>,
}

/// The steps of a lookup's search for data (not of `lookup_options`, nor of
/// nested lookups), in the order Hiera took them.
pub fn merge_steps(ex: &Explanation) -> Vec<Step> {
    let mut out = Vec::new();
    for &top in &ex.node(Explanation::ROOT).branches {
        if matches!(ex.node(top).kind, NodeKind::Search { meta: false, .. }) {
            walk(ex, top, "", "", &mut out);
        }
    }
    out
}

/// The steps of the search for `lookup_options` that a lookup made before
/// its search for data: what there is to show of a lookup that failed
/// there (a level whose backend cannot be used), before any data was searched.
pub fn options_steps(ex: &Explanation) -> Vec<Step> {
    let mut out = Vec::new();
    for &top in &ex.node(Explanation::ROOT).branches {
        if matches!(ex.node(top).kind, NodeKind::Search { meta: true, .. }) {
            for &b in &ex.node(top).branches {
                walk(ex, b, "", "", &mut out);
            }
        }
    }
    out
}

fn walk(ex: &Explanation, id: NodeId, layer: &str, level: &str, out: &mut Vec<Step>) {
    let node = ex.node(id);
    let (mut layer, mut level) = (layer.to_string(), level.to_string());
    match &node.kind {
        NodeKind::Interpolate(_) | NodeKind::Search { meta: true, .. } => return,
        NodeKind::Provider { name, .. } if name.starts_with("Hierarchy entry") => {
            level = name.trim_start_matches("Hierarchy entry ").trim_matches('"').to_string();
        }
        NodeKind::Provider { name, .. } => layer = name.clone(),
        NodeKind::Location { path, original, .. } => {
            let (outcome, value) = match &node.event {
                Some(Event::Found { value, .. }) => (StepOutcome::Found, Some(value.clone())),
                Some(Event::LocationNotFound) => (StepOutcome::NotFound, None),
                _ => (StepOutcome::NoSuchKey, None),
            };
            let merged = node.merged.clone().or_else(|| merged_after(ex, id)).or_else(|| value.clone());
            let mut interpolations = Vec::new();
            for &b in &node.branches {
                collect_interpolations(ex, b, &mut interpolations);
            }
            out.push(Step {
                layer,
                level,
                template: original.clone(),
                path: path.clone(),
                tokens: node.tokens.clone(),
                outcome,
                value,
                written: node.unmerged.clone(),
                merged: merged.filter(|_| outcome == StepOutcome::Found),
                origin: node.origin.clone(),
                interpolations,
                decrypted: node.decrypted,
            });
            return;
        }
        _ => {}
    }
    for &b in &node.branches {
        walk(ex, b, &layer, &level, out);
    }
}

/// The merged value recorded on the nearest ancestor that was merged in.
fn merged_after(ex: &Explanation, mut id: NodeId) -> Option<Value> {
    while let Some(p) = ex.node(id).parent() {
        if let Some(m) = &ex.node(id).merged {
            return Some(m.clone());
        }
        if matches!(ex.node(p).kind, NodeKind::Merge { .. }) {
            return None;
        }
        id = p;
    }
    None
}

fn collect_interpolations(ex: &Explanation, id: NodeId, out: &mut Vec<Interpolation>) {
    let node = ex.node(id);
    if let NodeKind::Interpolate(subject) = &node.kind {
        let nested = node
            .branches
            .iter()
            .filter_map(|&b| match &ex.node(b).kind {
                NodeKind::Search { key, meta: false } => Some(key.clone()),
                _ => None,
            })
            .collect();
        out.push(Interpolation { subject: subject.clone(), tokens: node.tokens.clone(), nested });
    }
    for &b in &node.branches {
        if !matches!(ex.node(b).kind, NodeKind::Search { .. }) {
            collect_interpolations(ex, b, out);
        }
    }
}

/// One segment of the path to a leaf: a hash key or an array index.
pub type Segment = Value;

/// Where one leaf of a result came from.
#[derive(Clone, Debug, PartialEq)]
pub struct LeafSource {
    /// The path to the leaf in the result (empty for a scalar result).
    pub path: Vec<Segment>,
    /// The data file (absolute).
    pub file: String,
    /// Its position in the file.
    pub at: Position,
}

/// For every leaf of `result`, the highest-priority place that holds an
/// equal leaf at the same place (array elements are matched by value, since
/// merges move them).
pub fn leaf_sources(steps: &[Step], result: &Value) -> Vec<LeafSource> {
    let found: Vec<(&Value, &crate::explain::Origin)> =
        steps.iter().filter_map(|s| Some((s.value.as_ref()?, s.origin.as_ref()?))).collect();
    let mut out = Vec::new();
    let mut path = Vec::new();
    leaves(result, &mut path, &mut |path, leaf| {
        for (value, origin) in &found {
            if let Some(at) = locate(value, origin.spans.positions(), path, leaf) {
                out.push(LeafSource { path: path.to_vec(), file: origin.file.clone(), at });
                return;
            }
        }
    });
    out
}

fn leaves(v: &Value, path: &mut Vec<Segment>, f: &mut dyn FnMut(&[Segment], &Value)) {
    match v {
        Value::Hash(h) if !h.is_empty() => {
            for (k, c) in h {
                path.push(k.clone());
                leaves(c, path, f);
                path.pop();
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, c) in a.iter().enumerate() {
                path.push(Value::Integer((i as i128).into()));
                leaves(c, path, f);
                path.pop();
            }
        }
        leaf => f(path, leaf),
    }
}

/// Follows `path` through a found value, placed at `positions` (see
/// [`yaml::Spans`]), to a leaf equal to `leaf` (array elements are those the
/// result has there).
fn locate(value: &Value, positions: &[Position], path: &[Segment], leaf: &Value) -> Option<Position> {
    let at = yaml::at(positions);
    let Some((seg, rest)) = path.split_first() else {
        return (value == leaf).then_some(at);
    };
    match value {
        // A unique merge wraps a scalar in an array.
        v if rest.is_empty() && v == leaf && !matches!(v, Value::Hash(_) | Value::Array(_)) => Some(at),
        Value::Hash(h) => {
            let i = h.get_index_of(seg)?;
            locate(h.get_index(i)?.1, yaml::parts(positions, value).nth(i).unwrap_or_default(), rest, leaf)
        }
        // Array elements are found by value: merges move them, and a unique
        // merge flattens nested arrays.
        Value::Array(a) => a.iter().zip(yaml::parts(positions, value)).find_map(|(e, part)| {
            locate(e, part, rest, leaf)
                .or_else(|| matches!(e, Value::Array(_)).then(|| locate(e, part, path, leaf)).flatten())
        }),
        _ => None,
    }
}

/// What one step did to the merged value.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// This level brought a new key or element.
    Added(Vec<Segment>, Value),
    /// This level's value was not used: a higher level's wins.
    Kept(Vec<Segment>, Value),
    /// An element that was in the merged value is gone (knocked out).
    Removed(Vec<Segment>, Value),
}

/// What merging a step's value into the value before it changed. Merges run
/// from the most specific level down, so a later step adds what is new and
/// loses where a higher level already set a value.
pub fn changes(before: Option<&Value>, found: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    match before {
        None => out.push(Change::Added(Vec::new(), after.clone())),
        Some(before) => diff(before, found, after, &mut Vec::new(), &mut out),
    }
    out
}

fn diff(before: &Value, found: &Value, after: &Value, path: &mut Vec<Segment>, out: &mut Vec<Change>) {
    match (before, found, after) {
        (Value::Hash(b), Value::Hash(f), Value::Hash(a)) => {
            for (k, fv) in f {
                path.push(k.clone());
                match (b.get(k), a.get(k)) {
                    (None, Some(av)) => out.push(Change::Added(path.clone(), av.clone())),
                    (Some(bv), Some(av)) => diff(bv, fv, av, path, out),
                    _ => {}
                }
                path.pop();
            }
            for (k, bv) in b {
                if !a.contains_key(k) {
                    path.push(k.clone());
                    out.push(Change::Removed(path.clone(), bv.clone()));
                    path.pop();
                }
            }
        }
        (Value::Array(b), _, Value::Array(a)) => {
            let found_items: Vec<&Value> = match found {
                Value::Array(f) => f.iter().collect(),
                f => vec![f],
            };
            for item in a.iter().filter(|i| !b.contains(i)) {
                out.push(Change::Added(path.clone(), item.clone()));
            }
            for item in found_items.into_iter().filter(|i| b.contains(i) && a.contains(i)) {
                out.push(Change::Kept(path.clone(), item.clone()));
            }
            for item in b.iter().filter(|i| !a.contains(i)) {
                out.push(Change::Removed(path.clone(), item.clone()));
            }
            // This level's own elements that a knockout above kept out.
            if let Value::Array(f) = found {
                for item in f.iter().filter(|i| !a.contains(i) && !b.contains(i)) {
                    out.push(Change::Removed(path.clone(), item.clone()));
                }
            }
        }
        (b, f, a) if b == a && f != a => out.push(Change::Kept(path.clone(), f.clone())),
        (b, _, a) if b != a => out.push(Change::Added(path.clone(), a.clone())),
        _ => {}
    }
}

/// A trap a lookup fell into.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What kind (`undefined-variable`, `empty-path-segment`, `knockout`,
    /// `yaml-reading`, `lookup-options-pattern`).
    pub kind: &'static str,
    /// What happened, in words.
    pub message: String,
}

/// The traps in an answer: undefined variables, paths with a missing fact,
/// knockouts that did not reach every level, surprising YAML scalars, and
/// `lookup_options` patterns that nearly matched the key.
pub fn warnings(answer: &Answer, key: &str) -> Vec<Warning> {
    let mut out = Vec::new();
    let Some(ex) = &answer.explanation else { return out };
    let patterns = option_patterns(ex);
    let steps = merge_steps(ex);
    let mut seen = Vec::new();
    let mut push = |kind, message: String| {
        if !seen.contains(&message) {
            seen.push(message.clone());
            out.push(Warning { kind, message });
        }
    };
    for step in &steps {
        for t in step.tokens.iter().filter(|t| t.undefined) {
            push(
                "empty-path-segment",
                format!(
                    "The path of \"{}\" became {}: {} is not defined, so it became an empty string.",
                    step.level, step.path, t.text
                ),
            );
        }
        let undefined = step.tokens.iter().any(|t| t.undefined);
        if !undefined
            && step.tokens.iter().any(|t| t.result.is_empty())
            && (step.path.contains("//") || step.path.contains("/."))
        {
            push(
                "empty-path-segment",
                format!(
                    "The path of \"{}\" became {}, with an empty segment: a fact is missing?",
                    step.level, step.path
                ),
            );
        }
        for i in &step.interpolations {
            for t in i.tokens.iter().filter(|t| t.undefined) {
                push(
                    "undefined-variable",
                    format!("{} in \"{}\" is not defined (a typo?): it became an empty string.", t.text, i.subject),
                );
            }
        }
        if let Some(origin) = &step.origin {
            for Surprise { at, reading, .. } in &origin.surprises {
                push("yaml-reading", format!("{} ({}, line {}).", reading, origin.file, at.line));
            }
        }
    }
    if let (Some(prefix), Ok(result)) = (knockout_prefix(ex), &answer.result) {
        knockouts(&steps, &prefix, result, &mut push);
    }
    if answer.options.is_none() {
        for p in &patterns {
            if near_miss(p, key) {
                push(
                    "lookup-options-pattern",
                    format!("The lookup_options pattern {p} looks meant for {key} but does not match it."),
                );
            }
        }
    }
    out
}

/// The regexp keys of the `lookup_options` the trace found.
fn option_patterns(ex: &Explanation) -> Vec<String> {
    let mut out = Vec::new();
    for n in ex.nodes() {
        if let Some(Event::Found { key, value: Value::Hash(h) }) = &n.event {
            if key == "lookup_options" {
                for k in h.keys().filter_map(Value::as_str).filter(|k| k.starts_with('^')) {
                    if !out.iter().any(|p: &String| p == k) {
                        out.push(k.to_string());
                    }
                }
            }
        }
    }
    out
}

fn knockout_prefix(ex: &Explanation) -> Option<String> {
    ex.nodes().iter().find_map(|n| match &n.kind {
        NodeKind::Merge { options: Some(Value::Hash(o)), .. } => {
            o.get(&Str("knockout_prefix")).and_then(|p| p.as_str().map(str::to_string))
        }
        _ => None,
    })
}

/// A knocked-out element that is in the result all the same: the knockout
/// only removed it from the next level down.
fn knockouts(steps: &[Step], prefix: &str, result: &Value, push: &mut dyn FnMut(&'static str, String)) {
    let mut in_result = Vec::new();
    leaves(result, &mut Vec::new(), &mut |_, leaf| in_result.push(leaf.clone()));
    for step in steps.iter().filter(|s| s.outcome == StepOutcome::Found) {
        let mut marks = Vec::new();
        leaves(step.written.as_ref().or(step.value.as_ref()).unwrap_or(&Value::Undef), &mut Vec::new(), &mut |_, l| {
            if let Some(item) = l.as_str().and_then(|s| s.strip_prefix(prefix)).filter(|i| !i.is_empty()) {
                marks.push(item.to_string());
            }
        });
        for item in marks {
            if in_result.contains(&Value::String(item.clone())) {
                push(
                    "knockout",
                    format!("{prefix}{item} in {} removed {item} only from the next level down that has the key; a level below that brings it back.", step.path),
                );
            }
        }
    }
}

/// A pattern that starts like the key (its literal prefix is the key's
/// start) or matches it but for case.
fn near_miss(pattern: &str, key: &str) -> bool {
    let body = pattern.trim_start_matches('^');
    let literal: String = body.chars().take_while(|c| c.is_alphanumeric() || *c == ':' || *c == '_').collect();
    let insensitive = regex_lite::Regex::new(&format!("(?i){}", crate::lookup_options::ruby_regex_to_rust(pattern)))
        .is_ok_and(|r| r.is_match(key));
    insensitive || (literal.len() >= 4 && literal.contains("::") && key.starts_with(&literal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Document;
    use crate::value::Int;
    use crate::Hiera;

    fn example(name: &str) -> (Hiera, Document) {
        let path = format!("{}/../www/examples/{name}", env!("CARGO_MANIFEST_DIR"));
        let doc = Document::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap();
        (doc.hiera(), doc)
    }

    #[test]
    fn a_lookup_that_fails_in_lookup_options_shows_the_places_read_for_them() {
        let (mut hiera, doc) = example("00-welcome.yaml");
        let config = doc.files.iter().find(|(p, _)| p == "hiera.yaml").unwrap().1.clone();
        let broken = format!("{}  - name: Vault\n    data_hash: vault_hiera_hash\n    path: common.yaml\n", config);
        hiera.set_file(&format!("{}/hiera.yaml", crate::case::environment_dir(&doc.environment)), &broken);
        let request = doc.lookups[0].request(true).unwrap();
        let answer = hiera.lookup(&request);
        let ex = answer.explanation.as_ref().unwrap();
        assert!(answer.result.is_err() && merge_steps(ex).is_empty());
        let read = options_steps(ex);
        assert!(read.iter().any(|s| s.path.ends_with("/data/common.yaml")), "{read:?}");
    }

    fn answer(name: &str, index: usize) -> (Answer, Vec<Step>) {
        let (hiera, doc) = example(name);
        let answer = hiera.lookup(&doc.lookups[index].request(true).unwrap());
        let steps = merge_steps(answer.explanation.as_ref().unwrap());
        (answer, steps)
    }

    #[test]
    fn site_users_deep_merge_steps_and_leaf_sources() {
        let (a, steps) = answer("05-hash-vs-deep-site-users.yaml", 1);
        let outcomes: Vec<&str> = steps.iter().map(|s| s.outcome.as_str()).collect();
        assert_eq!(outcomes, ["found", "found"]);
        assert_eq!(steps[0].tokens[0].text, "%{facts.group}");
        assert_eq!(steps[0].tokens[0].result, "ops");
        let result = a.result.unwrap();
        assert_eq!(steps.last().unwrap().merged.as_ref(), Some(&result));
        let sources = leaf_sources(&steps, &result);
        let bob_shell = sources.iter().find(|l| l.path == [Value::from("bob"), Value::from("shell")]).unwrap();
        assert!(bob_shell.file.ends_with("data/common.yaml"), "{bob_shell:?}");
        let bob_uid = sources.iter().find(|l| l.path == [Value::from("bob"), Value::from("uid")]).unwrap();
        assert!(bob_uid.file.ends_with("data/groups/ops.yaml"), "{bob_uid:?}");
    }

    #[test]
    fn changes_show_what_each_level_added_kept_and_removed() {
        let (_, steps) = answer("05-hash-vs-deep-site-users.yaml", 1);
        let c = changes(steps[0].merged.as_ref(), steps[1].value.as_ref().unwrap(), steps[1].merged.as_ref().unwrap());
        assert!(c.contains(&Change::Added(vec![Value::from("bob"), Value::from("shell")], Value::from("/bin/bash"))));
        assert!(c.contains(&Change::Kept(vec![Value::from("bob"), Value::from("uid")], Value::Integer(Int::new(501)))));
        assert!(c.contains(&Change::Added(
            vec![Value::from("ash")],
            steps[1].merged.as_ref().unwrap().get("ash").unwrap().clone()
        )));
        let (_, steps) = answer("07-knockout-three-levels.yaml", 1);
        let c = changes(steps[0].merged.as_ref(), steps[1].value.as_ref().unwrap(), steps[1].merged.as_ref().unwrap());
        assert!(c.contains(&Change::Removed(vec![], Value::from("--telnet"))), "{c:?}");
    }

    #[test]
    fn a_knockout_that_does_not_reach_every_level_is_a_warning() {
        let (a, _) = answer("07-knockout-three-levels.yaml", 1);
        assert!(warnings(&a, "").iter().any(|w| w.kind == "knockout"));
        let (a, _) = answer("07-knockout-three-levels.yaml", 0);
        assert!(!warnings(&a, "").iter().any(|w| w.kind == "knockout"));
    }

    #[test]
    fn unique_merge_leaves_come_from_wrapped_scalars_too() {
        let (a, steps) = answer("02-unique-merge.yaml", 0);
        let sources = leaf_sources(&steps, &a.result.unwrap());
        assert!(sources[0].file.ends_with("data/location/pdx.yaml"));
        assert_eq!(sources.len(), 3);
    }

    #[test]
    fn interpolations_name_their_nested_lookups() {
        let (_, steps) = answer("26-interpolate-lookup.yaml", 1);
        let found = steps.iter().find(|s| s.outcome == StepOutcome::Found).unwrap();
        assert_eq!(found.interpolations.len(), 1);
        assert!(!found.interpolations[0].nested.is_empty());
        assert_eq!(found.interpolations[0].tokens[0].method, "lookup");
    }

    #[test]
    fn traps_undefined_variables_missing_facts_and_yaml_readings() {
        let doc = Document::from_yaml(
            "files:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Nodes\n        path: \"nodes/%{facts.missing}.yaml\"\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    lookup_options:\n      '^app::.*_hosts$': {merge: unique}\n    app::motd: \"Hello %{facts.rol}\"\n    app::mode: 0755\n    app::opts: {enabled: yes}\n",
        )
        .unwrap();
        let hiera = doc.hiera();
        let ask =
            |key: &str| hiera.lookup(&crate::Request { keys: vec![key.into()], explain: true, ..Default::default() });
        let kinds = |a: &Answer| warnings(a, "").into_iter().map(|w| w.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&ask("app::motd")), ["empty-path-segment", "undefined-variable"]);
        assert!(kinds(&ask("app::mode")).contains(&"yaml-reading"));
        assert!(kinds(&ask("app::opts")).contains(&"yaml-reading"));
        let w = warnings(&ask("app::motd"), "app::motd");
        assert!(w.iter().any(|w| w.kind == "lookup-options-pattern"));
    }
}
