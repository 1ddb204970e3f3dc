//! "Why is this the value?": the trace of a lookup read as steps, one per
//! place Hiera looked, with the merged value after each; the file and line
//! every leaf of the result came from; and the traps the lookup fell into.

use crate::explain::{Event, Explanation, NodeId, NodeKind, Token};
use crate::formats::yaml::{self, Position, Surprise};
use crate::lookup::Answer;
use crate::value::{Str, Value};
use crate::{Hiera, Request};

/// What happened at one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    /// The key was there.
    Found,
    /// The data file does not exist.
    NotFound,
    /// The file exists but does not have the key.
    NoSuchKey,
    /// The key is there, but its value could not be used: an interpolation
    /// or a decryption failed ([`Step::error`] says why).
    Failed,
}

impl StepOutcome {
    /// The page's name for it (`found`, `not-found`, `no-such-key`).
    pub fn as_str(self) -> &'static str {
        match self {
            StepOutcome::Found => "found",
            StepOutcome::NotFound => "not-found",
            StepOutcome::NoSuchKey => "no-such-key",
            StepOutcome::Failed => "failed",
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
    /// The value found there, after interpolation (before a merge took
    /// knocked-out entries out of it).
    pub value: Option<Value>,
    /// Why the value could not be used, when it could not.
    pub error: Option<String>,
    /// The merged value once this place was merged in, when merging.
    pub merged: Option<Value>,
    /// What merging this place's value changed in the merged value before
    /// it (nothing for the first value found).
    pub changes: Vec<Change>,
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
    /// The lookups made by `lookup()`/`hiera()`/`alias()` inside it.
    pub nested: Vec<Nested>,
}

/// A lookup made from inside an interpolation.
#[derive(Clone, Debug, PartialEq)]
pub struct Nested {
    /// The key looked up.
    pub key: String,
    /// Its search's steps.
    pub steps: Vec<Step>,
}

/// The steps where a lookup of `key` found a value, the most specific
/// first: where a class parameter's value comes from, as `hiera-lookup
/// check` and the review say it.
pub fn found_steps(hiera: &Hiera, key: &str) -> Vec<Step> {
    let answer = hiera.lookup(&Request { keys: vec![key.to_string()], explain: true, ..Request::default() });
    let steps = answer.explanation.as_ref().map(merge_steps).unwrap_or_default();
    steps.into_iter().filter(|s| s.outcome == StepOutcome::Found).collect()
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
    let prefix = knockout_prefix(ex);
    let mut before: Option<Value> = None;
    for step in &mut out {
        if let (Some(b), Some(found), Some(after)) = (&before, &step.value, &step.merged) {
            diff(b, found, after, prefix.as_deref(), &mut Vec::new(), &mut step.changes);
        }
        if step.merged.is_some() {
            before = step.merged.clone();
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
            let (outcome, value, error) = match &node.event {
                Some(Event::Found { value, .. }) => {
                    (StepOutcome::Found, Some(node.unmerged.as_ref().unwrap_or(value).clone()), None)
                }
                Some(Event::LocationNotFound) => (StepOutcome::NotFound, None, None),
                Some(Event::Failed(e)) => (StepOutcome::Failed, None, Some(e.clone())),
                _ => (StepOutcome::NoSuchKey, None, None),
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
                error,
                merged: merged.filter(|_| outcome == StepOutcome::Found),
                changes: Vec::new(),
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
                NodeKind::Search { key, meta: false } => {
                    let mut steps = Vec::new();
                    walk(ex, b, "", "", &mut steps);
                    Some(Nested { key: key.clone(), steps })
                }
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

/// One segment of the path to a part of a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    /// A hash key.
    Key(Value),
    /// An array index.
    Index(usize),
}

/// A path into a value as a person reads it: `bob.shell`, `[1]`,
/// `sysctl."net.ipv4.ip_forward"` (keys that are not plain words quoted);
/// empty for the value itself.
pub fn path_text(path: &[Segment]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Segment::Index(i) => out.push_str(&format!("[{i}]")),
            Segment::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                match k.as_str() {
                    Some(s) if !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || "_:-".contains(c)) => {
                        out.push_str(s)
                    }
                    _ => out.push_str(&k.to_json().unwrap_or_else(|_| k.inspect())),
                }
            }
        }
    }
    out
}

/// The part of `value` at `path`, if there is one.
pub fn value_at<'a>(value: &'a Value, path: &[Segment]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, seg| match (v, seg) {
        (Value::Hash(h), Segment::Key(k)) => h.get(k),
        (Value::Array(a), Segment::Index(i)) => a.get(*i),
        _ => None,
    })
}

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
/// merges move them). A part that an `alias()` or a whole-string `lookup()`
/// brought points at the key it came from.
pub fn leaf_sources(steps: &[Step], result: &Value) -> Vec<LeafSource> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    leaves(result, &mut path, &mut |path, leaf| {
        if let Some((file, at)) = source(steps, path, leaf) {
            out.push(LeafSource { path: path.to_vec(), file, at });
        }
    });
    out
}

/// The file and position of the first step's part at `path` equal to `leaf`.
fn source(steps: &[Step], path: &[Segment], leaf: &Value) -> Option<(String, Position)> {
    steps.iter().find_map(|s| {
        let (value, origin) = (s.value.as_ref()?, s.origin.as_ref()?);
        let found = Found { raw: origin.raw.as_ref().unwrap_or(value), value, positions: origin.spans.positions() };
        let (file, at) = locate(found, path, leaf, &s.interpolations)?;
        Some((file.unwrap_or_else(|| origin.file.clone()), at))
    })
}

fn leaves(v: &Value, path: &mut Vec<Segment>, f: &mut dyn FnMut(&[Segment], &Value)) {
    match v {
        Value::Hash(h) if !h.is_empty() => {
            for (k, c) in h {
                path.push(Segment::Key(k.clone()));
                leaves(c, path, f);
                path.pop();
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, c) in a.iter().enumerate() {
                path.push(Segment::Index(i));
                leaves(c, path, f);
                path.pop();
            }
        }
        leaf => f(path, leaf),
    }
}

/// A part of a found value: as the file writes it, as found, and its
/// positions (see [`yaml::Spans`], which follow the written layout).
#[derive(Clone, Copy)]
struct Found<'a> {
    raw: &'a Value,
    value: &'a Value,
    positions: &'a [Position],
}

impl<'a> Found<'a> {
    fn at(self) -> Position {
        yaml::at(self.positions)
    }

    fn parts(self) -> impl Iterator<Item = Found<'a>> {
        let (raw, value) = (self.raw, self.value);
        let raws: Vec<&Value> = match raw {
            Value::Hash(h) => h.values().collect(),
            Value::Array(a) => a.iter().collect(),
            _ => Vec::new(),
        };
        let values: Vec<&Value> = match value {
            Value::Hash(h) => h.values().collect(),
            Value::Array(a) => a.iter().collect(),
            _ => Vec::new(),
        };
        let positions: Vec<&[Position]> = yaml::parts(self.positions, raw).collect();
        values.into_iter().zip(raws).zip(positions).map(|((value, raw), positions)| Found { raw, value, positions })
    }
}

/// Follows `path` through a found value to a leaf equal to `leaf`, and
/// gives its position; and its file when that is not the step's own (an
/// interpolation brought it from where a nested lookup found it).
fn locate(
    found: Found,
    path: &[Segment],
    leaf: &Value,
    interpolations: &[Interpolation],
) -> Option<(Option<String>, Position)> {
    let here = Some((None, found.at()));
    // A string the file writes that an interpolation made into this part.
    if matches!(found.raw, Value::String(_)) && found.raw != found.value {
        let nested = whole_lookup(found.raw, interpolations).and_then(|steps| source(steps, path, leaf));
        return match nested {
            Some((file, at)) => Some((Some(file), at)),
            None => here.filter(|_| value_at(found.value, path) == Some(leaf)),
        };
    }
    let Some((seg, rest)) = path.split_first() else {
        return here.filter(|_| found.value == leaf);
    };
    match (found.value, seg) {
        // A unique merge wraps a scalar in an array.
        (v, _) if rest.is_empty() && v == leaf && !matches!(v, Value::Hash(_) | Value::Array(_)) => here,
        (Value::Hash(h), Segment::Key(k)) => {
            let i = h.get_index_of(k)?;
            locate(found.parts().nth(i)?, rest, leaf, interpolations)
        }
        // Array elements are found by value: merges move them, and a unique
        // merge flattens nested arrays.
        (Value::Array(_), _) => found.parts().find_map(|part| {
            locate(part, rest, leaf, interpolations).or_else(|| {
                matches!(part.value, Value::Array(_)).then(|| locate(part, path, leaf, interpolations)).flatten()
            })
        }),
        _ => None,
    }
}

/// The steps of the lookup that an interpolated string is nothing but
/// (`%{alias('k')}`, `%{lookup('k')}`), which gave it its whole value.
fn whole_lookup<'a>(raw: &Value, interpolations: &'a [Interpolation]) -> Option<&'a [Step]> {
    let text = raw.as_str()?;
    let i = interpolations.iter().find(|i| i.subject == text && i.tokens.len() == 1 && i.tokens[0].text == text)?;
    Some(&i.nested.first()?.steps)
}

/// What the value found at a step did to the lookup's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// It is the answer: the only value found.
    Wins,
    /// It was merged into the answer (the first of a merge, or a later one
    /// that added to or took from what was merged before it).
    Merged,
    /// It was merged, but higher levels had set every part of it already.
    Overridden,
}

impl Part {
    /// The page's name for it (`wins`, `merged`, `overridden`).
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Wins => "wins",
            Part::Merged => "merged",
            Part::Overridden => "overridden",
        }
    }
}

/// Each step's [`Part`] in the answer; `None` where nothing was found.
pub fn parts(steps: &[Step]) -> Vec<Option<Part>> {
    let found = steps.iter().filter(|s| s.outcome == StepOutcome::Found).count();
    let mut first = true;
    steps
        .iter()
        .map(|s| {
            if s.outcome != StepOutcome::Found {
                return None;
            }
            let part = if found == 1 {
                Part::Wins
            } else if first || s.changes.iter().any(|c| !matches!(c, Change::Kept(..))) {
                Part::Merged
            } else {
                Part::Overridden
            };
            first = false;
            Some(part)
        })
        .collect()
}

/// What one step did to the merged value.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// This level brought a new key or element.
    Added(Vec<Segment>, Value),
    /// This level's value was not used: a higher level's wins (or, in an
    /// array, the element is there already).
    Kept(Vec<Segment>, Value),
    /// A knockout removed this part (of this level's value, or of the merged
    /// value before it).
    Removed(Vec<Segment>, Value),
    /// A knockout mark of a higher level, used up by this merge.
    Spent(Vec<Segment>, Value),
}

/// What merging a step's value (`found`) into the value before it changed,
/// `after` being the merged value. Merges run from the most specific level
/// down, so a later step adds what is new and loses where a higher level
/// already set a value.
fn diff(
    before: &Value,
    found: &Value,
    after: &Value,
    knockout: Option<&str>,
    path: &mut Vec<Segment>,
    out: &mut Vec<Change>,
) {
    let is_mark = |v: &Value| knockout.is_some_and(|p| v.as_str().is_some_and(|s| s.starts_with(p)));
    let at = |path: &[Segment], seg: Segment| [path, &[seg]].concat();
    if before == after && !matches!((found, after), (Value::Array(_), Value::Array(_))) {
        // Nothing changed: a higher level's value won (arrays say so element by element).
        if found != after {
            out.push(Change::Kept(path.clone(), found.clone()));
        }
        return;
    }
    match (before, found, after) {
        (Value::Hash(b), Value::Hash(f), Value::Hash(a)) => {
            for (k, fv) in f {
                path.push(Segment::Key(k.clone()));
                match (b.get(k), a.get(k)) {
                    (None, Some(av)) => out.push(Change::Added(path.clone(), av.clone())),
                    (Some(bv), Some(av)) if is_mark(bv) && av != fv => {
                        out.push(Change::Removed(path.clone(), fv.clone()))
                    }
                    (Some(bv), Some(av)) => diff(bv, fv, av, knockout, path, out),
                    (_, None) => out.push(Change::Removed(path.clone(), fv.clone())),
                }
                path.pop();
            }
            for (k, bv) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                let change = if is_mark(&Value::String(k.to_ruby_s())) { Change::Spent } else { Change::Removed };
                out.push(change(at(path, Segment::Key(k.clone())), bv.clone()));
            }
        }
        // merge_hash_arrays: arrays of hashes merged element by element.
        (Value::Array(b), Value::Array(f), Value::Array(a))
            if !b.is_empty()
                && a.len() == b.len().max(f.len())
                && b.iter().chain(f.iter()).all(|v| matches!(v, Value::Hash(_)))
                && b.iter().any(|v| !a.contains(v)) =>
        {
            for (i, av) in a.iter().enumerate() {
                path.push(Segment::Index(i));
                match (b.get(i), f.get(i)) {
                    (Some(bv), Some(fv)) => diff(bv, fv, av, knockout, path, out),
                    (None, _) => out.push(Change::Added(path.clone(), av.clone())),
                    (Some(_), None) => {}
                }
                path.pop();
            }
        }
        (Value::Array(b), _, Value::Array(a)) => {
            // A unique merge flattens what it found: a nested array that
            // is not an element of the result was merged element by element.
            fn items<'v>(v: &'v Value, result: &[Value], out: &mut Vec<&'v Value>) {
                match v {
                    Value::Array(nested) if !result.contains(v) => nested.iter().for_each(|i| items(i, result, out)),
                    v => out.push(v),
                }
            }
            let mut found_items = Vec::new();
            match found {
                Value::Array(f) => f.iter().for_each(|i| items(i, a, &mut found_items)),
                f => found_items.push(f),
            }
            for (i, item) in a.iter().enumerate().filter(|(_, i)| !b.contains(i)) {
                out.push(Change::Added(at(path, Segment::Index(i)), item.clone()));
            }
            for (i, item) in found_items.iter().enumerate() {
                if a.contains(item) && b.contains(item) {
                    out.push(Change::Kept(at(path, Segment::Index(i)), (*item).clone()));
                } else if !a.contains(item) {
                    out.push(Change::Removed(at(path, Segment::Index(i)), (*item).clone()));
                }
            }
            for (i, item) in b.iter().enumerate().filter(|(_, i)| !a.contains(i)) {
                let change = if is_mark(item) { Change::Spent } else { Change::Removed };
                out.push(change(at(path, Segment::Index(i)), item.clone()));
            }
        }
        (_, _, a) => out.push(Change::Added(path.clone(), a.clone())),
    }
}

/// A trap a lookup fell into.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What kind (`undefined-variable`, `empty-path-segment`, `knockout`,
    /// `yaml-reading`, `lookup-options-pattern`, `dotted-key`).
    pub kind: &'static str,
    /// What happened, in words.
    pub message: String,
}

impl Warning {
    /// The page of Puppet's documentation that explains this kind of trap.
    pub fn doc(&self) -> &'static str {
        match self.kind {
            "undefined-variable" | "empty-path-segment" => {
                "https://help.puppet.com/core/8/Content/PuppetCore/hiera_interpolation.htm"
            }
            "knockout" => "https://help.puppet.com/osp/8/content/puppetcore/merge_behaviors.htm",
            "lookup-options-pattern" => {
                "https://help.puppet.com/osp/8/Content/PuppetCore/setting_lookup_options_to_refine_the_result_of_a_lookup.htm"
            }
            "dotted-key" => "https://help.puppet.com/core/8/content/puppetcore/puppet_lookup.htm",
            // YAML 1.1's types, which Psych reads plain scalars as.
            _ => "https://yaml.org/type/",
        }
    }
}

/// The traps in an answer, whose [`merge_steps`] are `steps`: undefined
/// variables, paths with a missing fact, knockouts that did not reach every
/// level, surprising YAML scalars, a dotted key that meant a key with dots,
/// and `lookup_options` patterns that nearly matched the key.
pub fn warnings(answer: &Answer, key: &str, steps: &[Step]) -> Vec<Warning> {
    let mut out = Vec::new();
    let Some(ex) = &answer.explanation else { return out };
    let patterns = option_patterns(ex);
    let mut seen = Vec::new();
    let mut push = |kind, message: String| {
        if !seen.contains(&message) {
            seen.push(message.clone());
            out.push(Warning { kind, message });
        }
    };
    for step in steps {
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
    if let Some(message) = missing_segment(ex, steps) {
        push("dotted-key", message);
    }
    if let (Some(prefix), Ok(result)) = (knockout_prefix(ex), &answer.result) {
        knockouts(steps, &prefix, result, &mut push);
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

/// A dotted key whose root was found but whose value has nothing where a
/// segment leads: what happened, and the quoted key meant when the value
/// has a key with dots in it (`vhosts."www.example.com"`).
fn missing_segment(ex: &Explanation, steps: &[Step]) -> Option<String> {
    let search = ex
        .node(Explanation::ROOT)
        .branches
        .iter()
        .copied()
        .find(|&id| matches!(ex.node(id).kind, NodeKind::Search { meta: false, .. }))?;
    let NodeKind::Search { key, .. } = &ex.node(search).kind else { return None };
    let (sub, segments) = ex.node(search).branches.iter().find_map(|&id| match &ex.node(id).kind {
        NodeKind::SubLookup(segments) => Some((ex.node(id), segments)),
        _ => None,
    })?;
    let root_value =
        steps.iter().rev().find_map(|s| s.merged.as_ref()).or_else(|| steps.iter().find_map(|s| s.value.as_ref()))?;
    let mut dug = root_value;
    for (i, &id) in sub.branches.iter().enumerate() {
        match &ex.node(id).event {
            Some(Event::Found { value, .. }) => dug = value,
            Some(Event::NotFound(missing)) => {
                let root = crate::key::split_key(key)?.first()?.to_ruby_s();
                let text = |s: &[Value]| s.iter().map(Value::to_ruby_s).collect::<Vec<_>>();
                let mut message = format!(
                    "Hiera found {root}, but its value has no \"{missing}\" where the key's dots lead: each dot goes one level down."
                );
                let Value::Hash(h) = dug else { return Some(message) };
                let dotted =
                    (i + 2..=segments.len()).find(|&j| h.contains_key(&Value::String(text(&segments[i..j]).join("."))));
                if let Some(j) = dotted {
                    let quoted = |s: &[Value]| text(s).into_iter().map(|s| format!(".{s}")).collect::<String>();
                    message.push_str(&format!(
                        " A key with dots in it is quoted: {root}{}.\"{}\"{}.",
                        quoted(&segments[..i]),
                        text(&segments[i..j]).join("."),
                        quoted(&segments[j..])
                    ));
                }
                return Some(message);
            }
            _ => return None,
        }
    }
    None
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
        leaves(step.value.as_ref().unwrap_or(&Value::Undef), &mut Vec::new(), &mut |_, l| {
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
    let insensitive = regex_lite::Regex::new(&format!("(?i){}", crate::puppet::regexp::to_regex_lite(pattern)))
        .is_ok_and(|r| r.is_match(key));
    insensitive || (literal.len() >= 4 && literal.contains("::") && key.starts_with(&literal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::case::Document;
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
        hiera.set_file(&format!("{}/hiera.yaml", crate::document::case::environment_dir(&doc.environment)), &broken);
        let request = doc.lookups[0].request(true).unwrap();
        let answer = hiera.lookup(&request);
        let ex = answer.explanation.as_ref().unwrap();
        assert!(answer.result.is_err() && merge_steps(ex).is_empty());
        let read = options_steps(ex);
        assert!(read.iter().any(|s| s.path.ends_with("/data/common.yaml")), "{read:?}");
    }

    fn warned(a: &Answer, key: &str) -> Vec<Warning> {
        warnings(a, key, &merge_steps(a.explanation.as_ref().unwrap()))
    }

    fn answer(name: &str, index: usize) -> (Answer, Vec<Step>) {
        let (hiera, doc) = example(name);
        let answer = hiera.lookup(&doc.lookups[index].request(true).unwrap());
        let steps = merge_steps(answer.explanation.as_ref().unwrap());
        (answer, steps)
    }

    fn key(k: &str) -> Segment {
        Segment::Key(Value::from(k))
    }

    #[test]
    fn a_level_of_several_files_merges_into_the_levels_before_it() {
        let level_b = ["paths: [b1.yaml, b2.yaml]", "glob: 'b*.yaml'", "mapped_paths: [names, n, '%{n}.yaml']"];
        for level in level_b {
            for (merge, a, b2, c, merged) in [
                ("unique", "[1]", "[2]", "[3]", ["[1]", "[1, 2]", "[1, 2, 3]"]),
                (
                    "hash",
                    "{a: 1}",
                    "{b: 2}",
                    "{c: 3}",
                    ["{\"a\"=>1}", "{\"b\"=>2, \"a\"=>1}", "{\"c\"=>3, \"b\"=>2, \"a\"=>1}"],
                ),
                (
                    "deep",
                    "{x: [1]}",
                    "{x: [2]}",
                    "{y: 3}",
                    ["{\"x\"=>[1]}", "{\"x\"=>[2, 1]}", "{\"y\"=>3, \"x\"=>[2, 1]}"],
                ),
            ] {
                let doc = format!(
                    "facts:\n  names: [b1, b2]\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - {{name: A, path: a.yaml}}\n      - {{name: B, {level}}}\n      - {{name: C, path: common.yaml}}\n  data/a.yaml: 'k: {a}'\n  data/b1.yaml: 'other: 1'\n  data/b2.yaml: 'k: {b2}'\n  data/common.yaml: 'k: {c}'\nlookups:\n  - key: k\n    merge: {merge}\n"
                );
                let doc = Document::from_yaml(&doc).unwrap();
                let answer = doc.hiera().lookup(&doc.lookups[0].request(true).unwrap());
                let steps: Vec<Step> = merge_steps(answer.explanation.as_ref().unwrap())
                    .into_iter()
                    .filter(|s| s.outcome == StepOutcome::Found)
                    .collect();
                let shown: Vec<String> = steps.iter().map(|s| s.merged.as_ref().unwrap().inspect()).collect();
                assert_eq!(shown, merged, "{merge} over {level}");
                assert_eq!(steps[2].merged.as_ref(), answer.result.as_ref().ok());
                let removed = steps.iter().flat_map(|s| &s.changes).find(|c| matches!(c, Change::Removed(..)));
                assert_eq!(removed, None, "{merge} over {level}: nothing was knocked out");
            }
        }
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
        let bob_shell = sources.iter().find(|l| l.path == [key("bob"), key("shell")]).unwrap();
        assert!(bob_shell.file.ends_with("data/common.yaml"), "{bob_shell:?}");
        let bob_uid = sources.iter().find(|l| l.path == [key("bob"), key("uid")]).unwrap();
        assert!(bob_uid.file.ends_with("data/groups/ops.yaml"), "{bob_uid:?}");
    }

    #[test]
    fn changes_show_what_each_level_added_kept_and_removed() {
        let (_, steps) = answer("05-hash-vs-deep-site-users.yaml", 1);
        let c = &steps[1].changes;
        assert!(c.contains(&Change::Added(vec![key("bob"), key("shell")], Value::from("/bin/bash"))));
        assert!(c.contains(&Change::Kept(vec![key("bob"), key("uid")], Value::Integer(Int::new(501)))));
        assert!(
            c.contains(&Change::Added(vec![key("ash")], steps[1].merged.as_ref().unwrap().get("ash").unwrap().clone()))
        );
        assert!(steps[0].changes.is_empty());
    }

    #[test]
    fn each_found_value_wins_is_merged_or_is_overridden() {
        // The welcome example's port: one place has it, and it is the answer.
        let (_, steps) = answer("00-welcome.yaml", 0);
        assert_eq!(parts(&steps).into_iter().flatten().collect::<Vec<_>>(), [Part::Wins]);
        // Deep-merged users: both levels bring something.
        let (_, steps) = answer("05-hash-vs-deep-site-users.yaml", 1);
        assert_eq!(parts(&steps), [Some(Part::Merged), Some(Part::Merged)]);
        // A level whose every part a higher level set already was overridden.
        let mut same = steps.clone();
        same[1].changes.retain(|c| matches!(c, Change::Kept(..)));
        assert_eq!(parts(&same), [Some(Part::Merged), Some(Part::Overridden)]);
    }

    #[test]
    fn knockout_steps_agree_with_themselves() {
        // The first place shows what its file holds, and the merged value so far is that.
        let (_, steps) = answer("07-knockout-three-levels.yaml", 1);
        let written = Value::Array(vec![Value::from("--telnet"), Value::from("htop")].into());
        assert_eq!((steps[0].value.as_ref(), steps[0].merged.as_ref()), (Some(&written), Some(&written)));
        assert_eq!(
            steps[1].changes,
            [
                Change::Added(vec![Segment::Index(0)], Value::from("nginx")),
                Change::Spent(vec![Segment::Index(0)], Value::from("--telnet")),
            ]
        );
        let (_, steps) = answer("07-knockout-three-levels.yaml", 0);
        assert!(steps[1].changes.contains(&Change::Removed(vec![Segment::Index(1)], Value::from("telnet"))));
        // A hash entry a knockout blanked is a removal, named by its path.
        let (_, steps) = answer("06-knockout-prefix.yaml", 3);
        let ip_forward = vec![key("net.ipv4.ip_forward")];
        assert_eq!(steps[1].changes[0], Change::Removed(ip_forward.clone(), Value::Integer(Int::new(1))));
        assert_eq!(path_text(&ip_forward), "\"net.ipv4.ip_forward\"");
        assert_eq!(
            path_text(&[key("sysctl"), key("net.ipv4.ip_forward"), Segment::Index(1)]),
            "sysctl.\"net.ipv4.ip_forward\"[1]"
        );
    }

    #[test]
    fn a_value_whose_interpolation_fails_is_a_failed_step_at_its_line() {
        let doc = Document::from_yaml("files:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    b: [1]\n    a: \"x %{alias('b')}\"\n    r: \"%{alias('r')}\"\n").unwrap();
        let hiera = doc.hiera();
        for (k, error) in [("a", "'alias' interpolation is only permitted"), ("r", "Recursive lookup detected in [r]")]
        {
            let a = hiera.lookup(&crate::Request { keys: vec![k.into()], explain: true, ..Default::default() });
            let steps = merge_steps(a.explanation.as_ref().unwrap());
            assert_eq!(steps[0].outcome, StepOutcome::Failed, "{k}");
            assert!(steps[0].error.as_deref().unwrap().contains(error), "{:?}", steps[0].error);
            assert_eq!(steps[0].origin.as_ref().unwrap().spans.at().line, if k == "a" { 2 } else { 3 });
        }
    }

    #[test]
    fn parts_an_alias_brought_point_at_the_key_they_came_from() {
        let doc = Document::from_yaml("files:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    c:\n      x: \"%{alias('d')}\"\n      y: 2\n    d: {k: v, l: [1, \"%{lookup('e')}\"]}\n    e: eee\n").unwrap();
        let hiera = doc.hiera();
        let a = hiera.lookup(&crate::Request { keys: vec!["c".into()], explain: true, ..Default::default() });
        let steps = merge_steps(a.explanation.as_ref().unwrap());
        let lines: Vec<(String, u32)> =
            leaf_sources(&steps, &a.result.unwrap()).into_iter().map(|l| (path_text(&l.path), l.at.line)).collect();
        assert_eq!(lines, [("x.k".into(), 4), ("x.l[0]".into(), 4), ("x.l[1]".into(), 5), ("y".into(), 3)]);
    }

    #[test]
    fn a_knockout_that_does_not_reach_every_level_is_a_warning() {
        let (a, _) = answer("07-knockout-three-levels.yaml", 1);
        assert!(warned(&a, "").iter().any(|w| w.kind == "knockout"));
        let (a, _) = answer("07-knockout-three-levels.yaml", 0);
        assert!(!warned(&a, "").iter().any(|w| w.kind == "knockout"));
    }

    #[test]
    fn a_dotted_key_that_meant_a_key_with_dots_says_how_to_quote_it() {
        let (a, _) = answer("00-welcome.yaml", 5);
        let w = warned(&a, "");
        let w = w.iter().find(|w| w.kind == "dotted-key").expect("a dotted-key warning");
        assert!(w.message.contains(r#"quoted: profile::web::vhosts."www.example.com"."#), "{}", w.message);
        let (a, _) = answer("00-welcome.yaml", 6);
        assert!(!warned(&a, "").iter().any(|w| w.kind == "dotted-key"));
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
        let kinds = |a: &Answer| warned(a, "").into_iter().map(|w| w.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&ask("app::motd")), ["empty-path-segment", "undefined-variable"]);
        assert!(kinds(&ask("app::mode")).contains(&"yaml-reading"));
        assert!(kinds(&ask("app::opts")).contains(&"yaml-reading"));
        let w = warned(&ask("app::motd"), "app::motd");
        assert!(w.iter().any(|w| w.kind == "lookup-options-pattern"));
    }
}
