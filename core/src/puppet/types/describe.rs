//! Puppet's `TypeMismatchDescriber`
//! (`lib/puppet/pops/types/type_mismatch_describer.rb`): where a value does
//! not match a type, each mismatch by its path (`index 0 entry 'url'`),
//! with the expected type and what was found named as Puppet names them.

use super::model::{Ints, Type};
use crate::value::{Int, Value};

/// One step of a mismatch's path.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    /// What is described (`Found value has wrong type,`).
    Subject(String),
    /// `entry 'k'`.
    Entry(String),
    /// `key of entry 'k'`.
    KeyOfEntry(String),
    /// `index 3`.
    Index(usize),
    /// `variant 1`.
    Variant(usize),
    /// `parameter 'port'`.
    Parameter(String),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Subject(s) => f.write_str(s),
            Step::Entry(k) => write!(f, "entry '{k}'"),
            Step::KeyOfEntry(k) => write!(f, "key of entry '{k}'"),
            Step::Index(i) => write!(f, "index {i}"),
            Step::Variant(i) => write!(f, "variant {i}"),
            Step::Parameter(p) => write!(f, "parameter '{p}'"),
        }
    }
}

/// What does not match.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    MissingKey(String),
    MissingParameter(String),
    ExtraneousKey(String),
    UnresolvedReference(String),
    /// `TypeMismatch`, or `PatternMismatch` when `pattern`.
    Type {
        expected: Type,
        actual: Type,
        pattern: bool,
    },
    Size {
        expected: Ints,
        actual: Ints,
    },
}

#[derive(Clone, Debug, PartialEq)]
struct Mismatch {
    path: Vec<Step>,
    kind: Kind,
}

impl Mismatch {
    fn new(path: &[Step], kind: Kind) -> Mismatch {
        let kind = match kind {
            Kind::Type { expected, actual, pattern } => {
                Kind::Type { expected: expected.normalize(), actual: actual.normalize(), pattern }
            }
            k => k,
        };
        Mismatch { path: path.to_vec(), kind }
    }

    fn canonical_path(&self) -> Vec<&Step> {
        self.path.iter().filter(|s| !matches!(s, Step::Variant(_))).collect()
    }

    /// `Mismatch#==`: same class, same path less variants, same particulars.
    fn same(&self, o: &Mismatch) -> bool {
        self.canonical_path() == o.canonical_path() && self.kind == o.kind
    }

    fn chop_path(mut self, index: usize) -> Mismatch {
        if index < self.path.len() {
            self.path.remove(index);
        }
        self
    }

    /// `merge`: a type mismatch expects either type, a size mismatch the
    /// wider range.
    fn merge(&self, o: &Mismatch) -> Mismatch {
        let kind = match (&self.kind, &o.kind) {
            (Kind::Type { expected, actual, pattern }, Kind::Type { expected: other, .. }) => {
                let mut all = match expected {
                    Type::Variant(ts) => ts.clone(),
                    t => vec![t.clone()],
                };
                for t in match other {
                    Type::Variant(ts) => ts.clone(),
                    t => vec![t.clone()],
                } {
                    if !all.contains(&t) {
                        all.push(t);
                    }
                }
                Kind::Type { expected: Type::variant(all), actual: actual.clone(), pattern: *pattern }
            }
            (Kind::Size { expected, actual }, Kind::Size { expected: other, .. }) => {
                let from = Ints::lesser(&expected.from, &other.from);
                let to = Ints::greater(&expected.to, &other.to);
                Kind::Size { expected: Ints { from: from.or(Some(Int::ZERO)), to }, actual: actual.clone() }
            }
            (k, _) => k.clone(),
        };
        Mismatch::new(&self.path, kind)
    }

    /// `Mismatch#format`.
    fn format(&self) -> String {
        let position = if self.path.is_empty() {
            String::new()
        } else {
            format!(" {}", self.path.iter().map(Step::to_string).collect::<Vec<_>>().join(" "))
        };
        match &self.kind {
            Kind::MissingKey(k) => format!("{position} expects a value for key '{k}'"),
            Kind::MissingParameter(p) => format!("{position} expects a value for parameter '{p}'"),
            Kind::ExtraneousKey(k) => format!("{position} unrecognized key '{k}'"),
            Kind::UnresolvedReference(name) => format!("{position} references an unresolved type '{name}'"),
            Kind::Size { expected, actual } => format!("{position} {}", size_mismatch(expected, actual)),
            Kind::Type { expected, actual, pattern: true } => {
                let (e, prefix) = match expected {
                    Type::Optional(Some(t)) => (&**t, "an undef value or "),
                    t => (t, ""),
                };
                let got = match actual {
                    Type::String(super::model::Text::Value(v)) => format!("'{v}'"),
                    a => short_name(a),
                };
                format!("{position} expects {prefix}a match for {}, got {got}", e.alias_expanded())
            }
            Kind::Type { expected, actual, pattern: false } => type_message(&position, expected, actual),
        }
    }
}

/// `TypeMismatch#message`.
fn type_message(position: &str, expected: &Type, actual: &Type) -> String {
    let (e, optional) = match expected {
        Type::Optional(Some(t)) => (&**t, true),
        t => (t, false),
    };
    let (mut names, a) = match e {
        Type::Variant(ts) => {
            if report_detailed(ts, actual) {
                (ts.iter().map(Type::alias_expanded).collect::<Vec<_>>(), detailed_actual(ts, actual))
            } else {
                let mut names: Vec<String> = Vec::new();
                for n in ts.iter().map(short_name) {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                (names, short_name(actual))
            }
        }
        e => {
            let one = std::slice::from_ref(e);
            if report_detailed(one, actual) {
                (vec![e.alias_expanded()], detailed_actual(one, actual))
            } else {
                (vec![short_name(e)], short_name(actual))
            }
        }
    };
    if optional {
        names.insert(0, "Undef".into());
    }
    match names.as_slice() {
        [one] => format!("{position} expects {} value, got {a}", a_an(one)),
        [first, second] => format!("{position} expects a value of type {first} or {second}, got {a}"),
        [rest @ .., last] => format!("{position} expects a value of type {}, or {last}, got {a}", rest.join(", ")),
        [] => format!("{position} expects a value, got {a}"),
    }
}

/// `a_an`: Puppet's article, by the first letter (a quote skipped).
fn a_an(text: &str) -> String {
    let letter = text.trim_start_matches(['"', '\'']).chars().next().map(|c| c.to_ascii_lowercase());
    let article = if letter.is_some_and(|c| "aeiouy".contains(c)) { "an" } else { "a" };
    format!("{article} {text}")
}

fn short_name(t: &Type) -> String {
    match t {
        Type::NotUndef(Some(inner)) | Type::Optional(Some(inner)) | Type::Sensitive(inner) if **inner != Type::Any => {
            format!("{}[{}]", t.name(), inner.name())
        }
        t => t.name().to_string(),
    }
}

fn always_fully_detailed(e: &[Type], a: &Type) -> bool {
    e.iter().any(|e| {
        e.same_class(a)
            || matches!(e, Type::Alias(_))
            || matches!(a, Type::Alias(_))
            || matches!((e, a), (Type::Struct(_), Type::Hash(..)) | (Type::Tuple(..), Type::Array(..)))
    })
}

fn report_detailed(e: &[Type], a: &Type) -> bool {
    always_fully_detailed(e, a) || e.iter().any(|e| e.default_of().assignable(a))
}

fn detailed_actual(e: &[Type], a: &Type) -> String {
    let resolved: Vec<Type> = e
        .iter()
        .map(|t| match t {
            Type::Alias(alias) => alias.resolved.clone(),
            t => t.clone(),
        })
        .collect();
    if always_fully_detailed(&resolved, a) || resolved.iter().any(|t| t.assignable(&a.generalize())) {
        a.alias_expanded()
    } else {
        a.simple_name().to_string()
    }
}

/// `SizeMismatch#message` without its path: `expects size to be 3, got 2`.
pub(crate) fn size_mismatch(expected: &Ints, actual: &Ints) -> String {
    format!("expects size to be {}, got {}", range_text(expected), range_text(actual))
}

/// `SizeMismatch#range_to_s`.
fn range_text(r: &Ints) -> String {
    let (min, max) = (r.from.clone().unwrap_or(Int::ZERO), r.to.as_ref());
    match max {
        Some(max) if min == *max => min.to_string(),
        None if min == Int::ZERO => "unlimited".into(),
        Some(max) if min == Int::ZERO => format!("at most {max}"),
        None => format!("at least {min}"),
        Some(max) => format!("between {min} and {max}"),
    }
}

/// `describe_mismatch`: why `actual` (the type inferred from a value) is not
/// `expected`, said of `subject`; one line, or one a mismatch joined as
/// Puppet joins them; empty when Puppet finds nothing to say.
pub fn describe_mismatch(subject: &str, expected: &Type, actual: &Type) -> String {
    let errors = describe(expected, actual, &[Step::Subject(subject.to_string())]);
    match errors.as_slice() {
        [] => String::new(),
        [one] => one.format().trim().to_string(),
        all => all.iter().map(Mismatch::format).collect::<Vec<_>>().join("\n "),
    }
}

/// What `validate_parameters` finds wrong with a class's parameters.
#[derive(Debug, Default)]
pub struct Parameters {
    /// Each mismatch as Puppet formats it (with its leading space), in order.
    pub lines: Vec<String>,
    /// The parameter each line is about, with its line.
    pub per_parameter: Vec<(String, String)>,
}

/// `describe_struct_signature` over a class's parameters: each parameter's
/// name, type, value (`None` when it has none) and whether it has a default
/// (which makes a missing value fine).
pub fn describe_parameters(params: &[(String, Type, Option<Value>, bool)]) -> Parameters {
    let mut out = Parameters::default();
    for (name, t, value, has_default) in params {
        let found = match value {
            Some(v) if t.instance(v) => continue,
            Some(v) => describe(t, &Type::infer_set(v), &[Step::Parameter(name.clone())]),
            None if *has_default => continue,
            None => vec![Mismatch::new(&[], Kind::MissingParameter(name.clone()))],
        };
        for m in found {
            let line = m.format();
            out.per_parameter.push((name.clone(), line.clone()));
            out.lines.push(line);
        }
    }
    out
}

fn with(path: &[Step], step: Step) -> Vec<Step> {
    let mut p = path.to_vec();
    p.push(step);
    p
}

fn describe(expected: &Type, actual: &Type, path: &[Step]) -> Vec<Mismatch> {
    let unresolved = |t: &Type| if let Type::Reference(name) = t { Some(name.clone()) } else { None };
    if let Some(name) = expected.find(&unresolved) {
        return vec![Mismatch::new(path, Kind::UnresolvedReference(name))];
    }
    internal(&expected.normalize(), expected, actual, path)
}

fn mismatch(path: &[Step], expected: &Type, actual: &Type) -> Mismatch {
    Mismatch::new(path, Kind::Type { expected: expected.clone(), actual: actual.clone(), pattern: false })
}

fn internal(expected: &Type, original: &Type, actual: &Type, path: &[Step]) -> Vec<Mismatch> {
    match expected {
        Type::Variant(ts) => variant(ts, original, actual, path),
        Type::Struct(members) => match actual {
            Type::Struct(found) => {
                let mut out = Vec::new();
                let mut rest: Vec<&super::model::Member> = found.iter().collect();
                for m in members {
                    match rest.iter().position(|f| f.name == m.name) {
                        None => {
                            if !m.key_type().assignable(&Type::Undef) {
                                out.push(Mismatch::new(path, Kind::MissingKey(m.name.clone())));
                            }
                        }
                        Some(i) => {
                            let f = rest.remove(i);
                            if !m.key_type().assignable(&f.key_type()) {
                                out.extend(describe(
                                    &m.key_type(),
                                    &f.key_type(),
                                    &with(path, Step::KeyOfEntry(m.name.clone())),
                                ));
                            }
                            if !m.value.assignable(&f.value) {
                                out.extend(describe(&m.value, &f.value, &with(path, Step::Entry(m.name.clone()))));
                            }
                        }
                    }
                }
                out.extend(rest.iter().map(|f| Mismatch::new(path, Kind::ExtraneousKey(f.name.clone()))));
                out
            }
            Type::Hash(k, v, size) => {
                let required = members.iter().filter(|m| !m.key_type().assignable(&Type::Undef)).count();
                let expected_size = Ints::new(required as i128, members.len() as i128);
                let actual_size = Type::size_or_default(size);
                if expected_size.covers(&actual_size) {
                    vec![mismatch(path, original, &Type::Hash(k.clone(), v.clone(), None))]
                } else {
                    vec![Mismatch::new(path, Kind::Size { expected: expected_size, actual: actual_size })]
                }
            }
            _ => vec![mismatch(path, original, actual)],
        },
        Type::Hash(key, value, size) => match actual {
            Type::Struct(found) => {
                let required = found.iter().filter(|f| !f.key_type().assignable(&Type::Undef)).count();
                let actual_size = Ints::new(required as i128, found.len() as i128);
                let expected_size = Type::size_or_default(size);
                if !expected_size.covers(&actual_size) {
                    return vec![Mismatch::new(path, Kind::Size { expected: expected_size, actual: actual_size })];
                }
                let mut out = Vec::new();
                for f in found {
                    if !key.assignable(&f.key_type()) {
                        out.extend(describe(key, &f.key_type(), &with(path, Step::KeyOfEntry(f.name.clone()))));
                    }
                    if !value.assignable(&f.value) {
                        out.extend(describe(value, &f.value, &with(path, Step::Entry(f.name.clone()))));
                    }
                }
                out
            }
            Type::Hash(k, v, found_size) => {
                sized(path, size, found_size, || mismatch(path, original, &Type::Hash(k.clone(), v.clone(), None)))
            }
            _ => vec![mismatch(path, original, actual)],
        },
        Type::Tuple(types, size) => tuple(types, size, expected, original, actual, path),
        Type::Array(element, size) => match actual {
            Type::Tuple(found, found_size) => {
                let expected_size = Type::size_or_default(size);
                let actual_size = found_size.clone().unwrap_or(Ints::exactly(found.len()));
                if !expected_size.covers(&actual_size) {
                    return vec![Mismatch::new(path, Kind::Size { expected: expected_size, actual: actual_size })];
                }
                let mut out = Vec::new();
                for (i, t) in found.iter().enumerate() {
                    if !element.assignable(t) {
                        out.extend(describe(element, t, &with(path, Step::Index(i))));
                    }
                }
                out
            }
            Type::Array(e, found_size) => {
                sized(path, size, found_size, || mismatch(path, original, &Type::Array(e.clone(), None)))
            }
            _ => vec![mismatch(path, original, actual)],
        },
        Type::Optional(t) => match (t, actual) {
            (_, Type::Undef) | (None, _) => Vec::new(),
            (Some(t), _) => {
                let original = if matches!(original, Type::Alias(_)) { original } else { expected };
                internal(t, original, actual, path)
            }
        },
        Type::Pattern(_) | Type::Enum(..) => {
            vec![Mismatch::new(path, Kind::Type { expected: original.clone(), actual: actual.clone(), pattern: true })]
        }
        Type::Alias(a) => internal(&a.resolved.normalize(), expected, actual, path),
        e if e.assignable(actual) => Vec::new(),
        _ => vec![mismatch(path, original, actual)],
    }
}

/// A collection of the right size is a type mismatch; of the wrong size, a
/// size mismatch.
fn sized(
    path: &[Step],
    size: &Option<Ints>,
    found: &Option<Ints>,
    wrong_type: impl FnOnce() -> Mismatch,
) -> Vec<Mismatch> {
    let actual_size = Type::size_or_default(found);
    match size {
        Some(expected) if !expected.covers(&actual_size) => {
            vec![Mismatch::new(path, Kind::Size { expected: expected.clone(), actual: actual_size })]
        }
        _ => vec![wrong_type()],
    }
}

fn tuple(
    types: &[Type],
    size: &Option<Ints>,
    expected: &Type,
    original: &Type,
    actual: &Type,
    path: &[Step],
) -> Vec<Mismatch> {
    if expected == actual || (types.is_empty() && matches!(actual, Type::Array(..))) {
        return Vec::new();
    }
    let expected_size = Type::tuple_size(types, size);
    match actual {
        Type::Tuple(found, found_size) => {
            let actual_size = Type::tuple_size(found, found_size);
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::new(path, Kind::Size { expected: expected_size, actual: actual_size })];
            }
            if types.is_empty() {
                return Vec::new();
            }
            let mut out = Vec::new();
            for (i, t) in found.iter().enumerate() {
                let at = i.min(types.len() - 1);
                out.extend(describe(&types[at], t, &with(path, Step::Index(at))));
            }
            out
        }
        Type::Array(element, found_size) => {
            let actual_size = Type::size_or_default(found_size);
            if !expected_size.covers(&actual_size) {
                return vec![Mismatch::new(path, Kind::Size { expected: expected_size, actual: actual_size })];
            }
            let mut out = Vec::new();
            for (i, t) in types.iter().enumerate() {
                out.extend(describe(t, element, &with(path, Step::Index(i))));
            }
            out
        }
        _ => vec![mismatch(path, original, actual)],
    }
}

fn variant(types: &[Type], original: &Type, actual: &Type, path: &[Step]) -> Vec<Mismatch> {
    let mut all: Vec<Type> = types.to_vec();
    if matches!(original, Type::Optional(_)) {
        all.insert(0, Type::Undef);
    }
    let mut described = Vec::new();
    for (i, t) in all.iter().enumerate() {
        let d = describe(t, actual, &with(path, Step::Variant(i)));
        if d.is_empty() {
            return Vec::new();
        }
        described.push(d);
    }
    let merged = merge_descriptions(path.len(), &described);
    if matches!(original, Type::Alias(_)) && merged.len() == 1 {
        vec![mismatch(path, original, actual)]
    } else {
        merged
    }
}

/// `merge_descriptions`: where every variant failed alike (all by size, or
/// all by type at one path), one mismatch says so.
fn merge_descriptions(varying: usize, described: &[Vec<Mismatch>]) -> Vec<Mismatch> {
    let mut flat: Vec<Mismatch> = described.iter().flatten().cloned().collect();
    for is_kind in [|k: &Kind| matches!(k, Kind::Size { .. }), |k: &Kind| matches!(k, Kind::Type { .. })] {
        let of_kind: Vec<&Mismatch> = flat.iter().filter(|m| is_kind(&m.kind)).collect();
        if of_kind.len() == described.len() {
            let mut merged = Some(of_kind[0].clone());
            for m in &of_kind[1..] {
                merged = match merged {
                    Some(prev) if prev.canonical_path() == m.canonical_path() => Some(prev.merge(m)),
                    _ => None,
                };
            }
            if let Some(m) = merged {
                flat = vec![m];
                break;
            }
        }
    }
    let mut distinct: Vec<Mismatch> = Vec::new();
    for m in flat {
        if !distinct.iter().any(|d| d.same(&m)) {
            distinct.push(m);
        }
    }
    if distinct.len() == 1 {
        vec![distinct.remove(0).chop_path(varying)]
    } else {
        distinct
    }
}
