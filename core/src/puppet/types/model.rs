//! Puppet's type system as far as data reaches it: the types (`PAnyType`
//! and its subclasses in `lib/puppet/pops/types/types.rb`), how
//! `TypeFormatter` prints them, their `normalize` and `generalize`. What a
//! value is an instance of and what a type is assignable to are in
//! `calculator.rs`; how a mismatch is worded, in `describe.rs`.
//!
//! Hand-written because the messages and answers must be Ruby's to the
//! character: no crate models Puppet's types.

use std::fmt;
use std::rc::Rc;

use crate::value::Int;

/// An integer range, both ends included; `None` is an infinite end. Puppet
/// keeps sizes (of strings and collections) and Integer's bounds as these;
/// an inferred `Integer[v, v]` may be of any size, as Ruby's integers are.
#[derive(Clone, Debug, PartialEq)]
pub struct Ints {
    /// The least, or `None` for -Infinity.
    pub from: Option<Int>,
    /// The greatest, or `None` for Infinity.
    pub to: Option<Int>,
}

impl Ints {
    /// Every integer.
    pub const ANY: Ints = Ints { from: None, to: None };
    /// `PCollectionType::DEFAULT_SIZE`: 0 and up.
    pub const SIZE: Ints = Ints { from: Some(Int::ZERO), to: None };

    /// From `from` to `to`.
    pub fn new(from: i128, to: i128) -> Ints {
        Ints { from: Some(Int::new(from)), to: Some(Int::new(to)) }
    }

    /// Exactly `n`.
    pub fn exactly(n: usize) -> Ints {
        Ints::new(n as i128, n as i128)
    }

    /// Exactly the integer `n`.
    pub fn only(n: &Int) -> Ints {
        Ints { from: Some(n.clone()), to: Some(n.clone()) }
    }

    pub(crate) fn low(&self) -> f64 {
        self.from.as_ref().map_or(f64::NEG_INFINITY, Int::to_f64)
    }

    pub(crate) fn high(&self) -> f64 {
        self.to.as_ref().map_or(f64::INFINITY, Int::to_f64)
    }

    /// The greatest as a count, if there is one.
    pub(crate) fn max_count(&self) -> Option<usize> {
        self.to.as_ref().map(|t| if t.is_negative() { 0 } else { t.to_usize().unwrap_or(usize::MAX) })
    }

    /// `PIntegerType#to_size`: no size is below 0.
    pub fn into_size(self) -> Ints {
        if self.from.as_ref().is_some_and(|f| !f.is_negative()) {
            self
        } else {
            Ints { from: Some(Int::ZERO), to: self.to.map(|t| t.max(Int::ZERO)) }
        }
    }

    /// Whether `n` lies in the range.
    pub fn contains(&self, n: &Int) -> bool {
        self.from.as_ref().is_none_or(|f| f <= n) && self.to.as_ref().is_none_or(|t| n <= t)
    }

    /// Whether the count `n` lies in the range.
    pub fn contains_count(&self, n: usize) -> bool {
        self.contains(&Int::from(n as u64))
    }

    /// `PNumericType#_assignable?`: whether `o` lies within (Ruby compares
    /// its integers exactly).
    pub fn covers(&self, o: &Ints) -> bool {
        let from = match (&self.from, &o.from) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a <= b,
        };
        let to = match (&self.to, &o.to) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a >= b,
        };
        from && to
    }

    pub(crate) fn unbounded(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }

    /// Whether `a` ends before `b` starts.
    fn before(a: &Ints, b: &Ints) -> bool {
        matches!((&a.to, &b.from), (Some(t), Some(f)) if t < f)
    }

    /// `PIntegerType#merge`: the union when the two touch or overlap.
    fn merge(&self, o: &Ints) -> Option<Ints> {
        let overlap = !(Ints::before(self, o) || Ints::before(o, self));
        let adjacent = matches!((&self.to, &o.from), (Some(t), Some(f)) if t.succ() == *f)
            || matches!((&o.to, &self.from), (Some(t), Some(f)) if t.succ() == *f);
        (overlap || adjacent)
            .then(|| Ints { from: Ints::lesser(&self.from, &o.from), to: Ints::greater(&self.to, &o.to) })
    }

    /// The lower of two starts (`None` is -Infinity).
    pub(crate) fn lesser(a: &Option<Int>, b: &Option<Int>) -> Option<Int> {
        a.as_ref().zip(b.as_ref()).map(|(x, y)| x.min(y).clone())
    }

    /// The higher of two ends (`None` is Infinity).
    pub(crate) fn greater(a: &Option<Int>, b: &Option<Int>) -> Option<Int> {
        a.as_ref().zip(b.as_ref()).map(|(x, y)| x.max(y).clone())
    }

    /// `range_array_part`: nothing when unbounded, else the bounds as the
    /// formatter writes them (`default` for an open start, no end for an open end).
    fn parts(&self) -> Vec<String> {
        if self.unbounded() {
            return Vec::new();
        }
        let mut parts = vec![self.from.as_ref().map_or("default".to_string(), |f| f.to_string())];
        parts.extend(self.to.as_ref().map(|t| t.to_string()));
        parts
    }
}

/// A float range, both ends included (infinite ends as infinities).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floats {
    /// The least.
    pub from: f64,
    /// The greatest.
    pub to: f64,
}

impl Floats {
    /// Every number.
    pub const ANY: Floats = Floats { from: f64::NEG_INFINITY, to: f64::INFINITY };

    fn parts(&self) -> Vec<String> {
        if self.from == f64::NEG_INFINITY && self.to == f64::INFINITY {
            return Vec::new();
        }
        let mut parts =
            vec![if self.from == f64::NEG_INFINITY { "default".into() } else { crate::value::ruby_float(self.from) }];
        if self.to != f64::INFINITY {
            parts.push(crate::value::ruby_float(self.to));
        }
        parts
    }
}

/// What a `String` type says of its strings.
#[derive(Clone, Debug, PartialEq)]
pub enum Text {
    /// Any string.
    Any,
    /// A length in this range.
    Size(Ints),
    /// Exactly this string (an inferred type; printed as `String`).
    Value(String),
}

/// One entry of a `Struct`: its key (`'name'`, or `Optional['name']`) and
/// the type of its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The key's name.
    pub name: String,
    /// Whether the key may be left out (`Optional['name']`, or a value
    /// type that takes undef).
    pub optional_key: bool,
    /// The type of its value.
    pub value: Type,
}

impl Member {
    /// `PStructElement#key_type`: `Optional[String['name']]` or `String['name']`.
    pub fn key_type(&self) -> Type {
        let key = Type::String(Text::Value(self.name.clone()));
        if self.optional_key {
            Type::Optional(Some(Box::new(key)))
        } else {
            key
        }
    }
}

/// A type alias: Puppet's own (`Data`, `RichData`) or a module's
/// (`Stdlib::Port`).
#[derive(Debug, PartialEq)]
pub struct Alias {
    /// Its name.
    pub name: String,
    /// What it stands for.
    pub resolved: Type,
}

/// A Puppet type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `Any`.
    Any,
    /// `Unit`: what the elements of an empty collection are.
    Unit,
    /// `Undef`.
    Undef,
    /// `Default`.
    Default,
    /// `NotUndef[T]`.
    NotUndef(Option<Box<Type>>),
    /// `Boolean`, or `Boolean[true]`.
    Boolean(Option<bool>),
    /// `Integer[from, to]`.
    Integer(Ints),
    /// `Float[from, to]`.
    Float(Floats),
    /// `Numeric`.
    Numeric(Floats),
    /// `String`, `String[min, max]`, or one string.
    String(Text),
    /// `Enum['a', 'b']` (values sorted and distinct), and whether it
    /// ignores case.
    Enum(Vec<String>, bool),
    /// `Pattern[/a/, /b/]`: the regexps' sources.
    Pattern(Vec<String>),
    /// `Regexp`, or `Regexp[/a/]`.
    Regexp(Option<String>),
    /// `Scalar`.
    Scalar,
    /// `ScalarData`.
    ScalarData,
    /// `Collection[size]`.
    Collection(Option<Ints>),
    /// `Array[T, size]`.
    Array(Box<Type>, Option<Ints>),
    /// `Hash[K, V, size]`.
    Hash(Box<Type>, Box<Type>, Option<Ints>),
    /// `Tuple[T..., size]`.
    Tuple(Vec<Type>, Option<Ints>),
    /// `Struct[{...}]`.
    Struct(Vec<Member>),
    /// `Optional[T]`.
    Optional(Option<Box<Type>>),
    /// `Variant[T, ...]`.
    Variant(Vec<Type>),
    /// `Sensitive[T]`.
    Sensitive(Box<Type>),
    /// `Runtime[runtime, name]` (a Ruby symbol is `Runtime[ruby, 'Symbol']`).
    Runtime(Option<String>, Option<String>),
    /// A type alias.
    Alias(Rc<Alias>),
    /// A name no type has: `TypeReference['Name']`.
    Reference(String),
    /// A type Puppet has whose instances are never data (`Timestamp`,
    /// `SemVer`...), by its name.
    Opaque(&'static str),
}

/// The types Puppet knows that no data is an instance of.
pub(crate) const OPAQUE: &[&str] = &[
    "Binary",
    "Callable",
    "Deferred",
    "Error",
    "Iterator",
    "Object",
    "SemVer",
    "SemVerRange",
    "Timespan",
    "Timestamp",
    "URI",
];

impl Type {
    /// `Integer`.
    pub const INTEGER: Type = Type::Integer(Ints::ANY);

    /// `Data = Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]`,
    /// cut off below `depth` levels of collections (where it is `Any`), so
    /// that the recursive alias is a finite value.
    pub fn data() -> Type {
        thread_local! { static DATA: Type = Type::Alias(Rc::new(Alias { name: "Data".into(), resolved: data_variant(8) })) }
        DATA.with(Type::clone)
    }

    /// `RichData`, as far as data reaches: Data's scalars, `Scalar`,
    /// `Sensitive` and non-string keys too.
    pub fn rich_data() -> Type {
        thread_local! { static RICH: Type = Type::Alias(Rc::new(Alias { name: "RichData".into(), resolved: rich_variant(8) })) }
        RICH.with(Type::clone)
    }

    /// `simple_name`: the class's name without `P` and `Type`.
    pub fn simple_name(&self) -> &str {
        match self {
            Type::Any => "Any",
            Type::Unit => "Unit",
            Type::Undef => "Undef",
            Type::Default => "Default",
            Type::NotUndef(_) => "NotUndef",
            Type::Boolean(_) => "Boolean",
            Type::Integer(_) => "Integer",
            Type::Float(_) => "Float",
            Type::Numeric(_) => "Numeric",
            Type::String(_) => "String",
            Type::Enum(..) => "Enum",
            Type::Pattern(_) => "Pattern",
            Type::Regexp(_) => "Regexp",
            Type::Scalar => "Scalar",
            Type::ScalarData => "ScalarData",
            Type::Collection(_) => "Collection",
            Type::Array(..) => "Array",
            Type::Hash(..) => "Hash",
            Type::Tuple(..) => "Tuple",
            Type::Struct(_) => "Struct",
            Type::Optional(_) => "Optional",
            Type::Variant(_) => "Variant",
            Type::Sensitive(_) => "Sensitive",
            Type::Runtime(..) => "Runtime",
            Type::Alias(_) => "TypeAlias",
            Type::Reference(_) => "TypeReference",
            Type::Opaque(name) => name,
        }
    }

    /// `name`: an alias's own name, else the simple name.
    pub fn name(&self) -> &str {
        match self {
            Type::Alias(a) => &a.name,
            t => t.simple_name(),
        }
    }

    /// `TypeFormatter#alias_expanded_string`: a module's alias as
    /// `Name = Type`; the built-in aliases print their name either way.
    pub fn alias_expanded(&self) -> String {
        format!("{self:#}")
    }

    /// `normalize`: variants flattened and merged, optionals and
    /// not-undefs folded, as Puppet compares types in messages.
    pub fn normalize(&self) -> Type {
        match self {
            Type::NotUndef(Some(t)) => {
                let n = t.normalize();
                match n {
                    Type::Optional(inner) => Type::NotUndef(inner).normalize(),
                    n if !n.assignable(&Type::Undef) => n,
                    n => Type::NotUndef(Some(Box::new(n))),
                }
            }
            Type::Optional(Some(t)) => {
                let n = t.normalize();
                match n {
                    Type::NotUndef(inner) => Type::Optional(inner).normalize(),
                    n if n.assignable(&Type::Undef) => n,
                    n => Type::Optional(Some(Box::new(n))),
                }
            }
            Type::Sensitive(t) => Type::Sensitive(Box::new(t.normalize())),
            Type::Array(e, _) if **e == Type::Any => Type::Array(e.clone(), None),
            Type::Array(e, size) => Type::Array(Box::new(e.normalize()), size.clone()),
            Type::Hash(k, v, size) if is_empty_hash(k, v, size) => self.clone(),
            Type::Hash(k, v, size) => Type::Hash(Box::new(k.normalize()), Box::new(v.normalize()), size.clone()),
            Type::Tuple(ts, size) => Type::Tuple(ts.iter().map(Type::normalize).collect(), size.clone()),
            Type::Struct(ms) => {
                Type::Struct(ms.iter().map(|m| Member { value: m.value.normalize(), ..m.clone() }).collect())
            }
            Type::Collection(_) => Type::Collection(None),
            Type::Variant(ts) if !ts.is_empty() => normalize_variant(ts),
            t => t.clone(),
        }
    }

    /// `generalize`: the type without values and sizes.
    pub fn generalize(&self) -> Type {
        match self {
            Type::Boolean(_) => Type::Boolean(None),
            Type::Integer(_) => Type::INTEGER,
            Type::Float(_) => Type::Float(Floats::ANY),
            Type::String(_) => Type::String(Text::Any),
            Type::Enum(values, _) => match lengths(values) {
                Some(range) => Type::String(Text::Size(range)),
                None => Type::String(Text::Any),
            },
            Type::Collection(_) => Type::Collection(None),
            Type::Array(e, _) => Type::Array(Box::new(if **e == Type::Any { Type::Any } else { e.generalize() }), None),
            Type::Hash(k, v, size) if is_empty_hash(k, v, size) => self.clone(),
            Type::Hash(k, v, _) => Type::Hash(Box::new(k.generalize()), Box::new(v.generalize()), None),
            Type::Tuple(ts, size) => Type::Tuple(ts.iter().map(Type::generalize).collect(), size.clone()),
            Type::Struct(ms) => {
                Type::Struct(ms.iter().map(|m| Member { value: m.value.generalize(), ..m.clone() }).collect())
            }
            Type::Optional(Some(t)) => Type::Optional(Some(Box::new(t.generalize()))),
            Type::NotUndef(Some(t)) => Type::NotUndef(Some(Box::new(t.generalize()))),
            Type::Sensitive(t) => Type::Sensitive(Box::new(t.generalize())),
            Type::Variant(ts) if !ts.is_empty() => Type::variant(ts.iter().map(Type::generalize).collect()),
            t => t.clone(),
        }
    }

    /// `PVariantType.maybe_create`: the one type, or a variant of the
    /// distinct ones, nested variants flattened.
    pub fn variant(types: Vec<Type>) -> Type {
        let mut flat: Vec<Type> = Vec::new();
        for t in types {
            let parts = match t {
                Type::Variant(ts) => ts,
                t => vec![t],
            };
            for t in parts {
                if !flat.contains(&t) {
                    flat.push(t);
                }
            }
        }
        if flat.len() == 1 {
            flat.remove(0)
        } else {
            Type::Variant(flat)
        }
    }

    /// The first answer `f` gives for this type or a type inside it
    /// (what `TypeAcceptor` visits), depth first.
    pub fn find<T>(&self, f: &impl Fn(&Type) -> Option<T>) -> Option<T> {
        if let Some(found) = f(self) {
            return Some(found);
        }
        match self {
            Type::NotUndef(Some(t)) | Type::Optional(Some(t)) | Type::Sensitive(t) | Type::Array(t, _) => t.find(f),
            Type::Hash(k, v, _) => k.find(f).or_else(|| v.find(f)),
            Type::Tuple(ts, _) | Type::Variant(ts) => ts.iter().find_map(|t| t.find(f)),
            Type::Struct(ms) => ms.iter().find_map(|m| m.value.find(f)),
            _ => None,
        }
    }

    /// The size of a collection type, as `size_type || DEFAULT_SIZE`.
    pub(crate) fn size_or_default(size: &Option<Ints>) -> Ints {
        size.clone().unwrap_or(Ints::SIZE)
    }

    /// `PTupleType#size_range`.
    pub(crate) fn tuple_size(types: &[Type], size: &Option<Ints>) -> Ints {
        match size {
            Some(s) => s.clone(),
            None if types.is_empty() => Ints::SIZE,
            None => Ints::exactly(types.len()),
        }
    }
}

pub(crate) fn is_empty_hash(k: &Type, v: &Type, size: &Option<Ints>) -> bool {
    *k == Type::Unit && *v == Type::Unit && *size == Some(Ints::new(0, 0))
}

fn lengths(values: &[String]) -> Option<Ints> {
    let counts = values.iter().map(|v| v.chars().count() as i128);
    Some(Ints::new(counts.clone().min()?, counts.max()?))
}

fn data_variant(depth: usize) -> Type {
    let data = if depth == 0 { Type::Any } else { data_variant(depth - 1) };
    Type::Variant(vec![
        Type::ScalarData,
        Type::Undef,
        Type::Hash(Box::new(Type::String(Text::Any)), Box::new(data.clone()), None),
        Type::Array(Box::new(data), None),
    ])
}

fn rich_variant(depth: usize) -> Type {
    let rich = if depth == 0 { Type::Any } else { rich_variant(depth - 1) };
    Type::Variant(vec![
        Type::Scalar,
        Type::Sensitive(Box::new(Type::Any)),
        Type::Undef,
        Type::Default,
        Type::Hash(
            Box::new(Type::Variant(vec![Type::String(Text::Any), Type::Numeric(Floats::ANY)])),
            Box::new(rich.clone()),
            None,
        ),
        Type::Array(Box::new(rich), None),
    ])
}

/// `PVariantType#normalize`.
fn normalize_variant(types: &[Type]) -> Type {
    let types: Vec<Type> = types.iter().map(Type::normalize).collect();
    if types.len() == 1 {
        return types.into_iter().next().unwrap_or(Type::Any);
    }
    if types.iter().any(|t| matches!(t, Type::Undef | Type::Optional(_))) {
        let rest: Vec<Type> = types
            .into_iter()
            .filter(|t| *t != Type::Undef)
            .map(|t| match t {
                Type::Optional(Some(inner)) => *inner,
                Type::Optional(None) => Type::Any,
                t => t,
            })
            .collect();
        return Type::Optional(Some(Box::new(Type::variant(rest)))).normalize();
    }
    let mut types = match Type::variant(types) {
        Type::Variant(ts) => ts,
        t => return t,
    };
    let before = types.len();
    // swap_not_undefs
    if types.iter().filter(|t| matches!(t, Type::NotUndef(_))).count() > 1 {
        let (not_undefs, mut others): (Vec<Type>, Vec<Type>) =
            types.into_iter().partition(|t| matches!(t, Type::NotUndef(_)));
        let inner = not_undefs.into_iter().map(|t| match t {
            Type::NotUndef(Some(inner)) => *inner,
            _ => Type::Any,
        });
        others.push(Type::NotUndef(Some(Box::new(Type::variant(inner.collect()).normalize()))));
        types = others;
    }
    types = merge_enums(types);
    if types.iter().filter(|t| matches!(t, Type::Pattern(_))).count() > 1 {
        let (patterns, mut others): (Vec<Type>, Vec<Type>) =
            types.into_iter().partition(|t| matches!(t, Type::Pattern(_)));
        let mut sources: Vec<String> = Vec::new();
        for p in patterns {
            if let Type::Pattern(ps) = p {
                for s in ps {
                    if !sources.contains(&s) {
                        sources.push(s);
                    }
                }
            }
        }
        others.push(Type::Pattern(sources));
        types = others;
    }
    types = merge_ranges(types);
    if types.len() == 1 {
        types.remove(0)
    } else if types.len() != before {
        Type::variant(types)
    } else {
        Type::Variant(types)
    }
}

/// `merge_enums`: strings of one value and case-sensitive enums become one enum.
fn merge_enums(types: Vec<Type>) -> Vec<Type> {
    let mergeable =
        |t: &Type| matches!(t, Type::Enum(v, false) if !v.is_empty()) || matches!(t, Type::String(Text::Value(_)));
    if types.iter().filter(|t| mergeable(t)).count() < 2 {
        return types;
    }
    let (enums, mut others): (Vec<Type>, Vec<Type>) = types.into_iter().partition(mergeable);
    {
        let mut values: Vec<String> = Vec::new();
        for t in enums {
            match t {
                Type::String(Text::Value(v)) => values.push(v),
                Type::Enum(vs, _) => values.extend(vs),
                _ => {}
            }
        }
        values.sort();
        values.dedup();
        others.push(Type::Enum(values, false));
    }
    others
}

/// `merge_numbers` for Integer and Float: where there are several ranges of
/// one, those that touch become one, put before the other types.
fn merge_ranges(types: Vec<Type>) -> Vec<Type> {
    let integers = merge_numbers(
        types,
        |t| if let Type::Integer(r) = t { Some(r.clone()) } else { None },
        |a, b| a.merge(b),
        Type::Integer,
    );
    merge_numbers(
        integers,
        |t| if let Type::Float(r) = t { Some(*r) } else { None },
        |a, b| (a.from <= b.to && b.from <= a.to).then(|| Floats { from: a.from.min(b.from), to: a.to.max(b.to) }),
        Type::Float,
    )
}

/// `merge_numbers` and `merge_ranges` for one class of range.
fn merge_numbers<R>(
    types: Vec<Type>,
    range: impl Fn(&Type) -> Option<R>,
    merge: impl Fn(&R, &R) -> Option<R>,
    make: impl Fn(R) -> Type,
) -> Vec<Type> {
    let mut ranges: Vec<R> = types.iter().filter_map(&range).collect();
    if ranges.len() < 2 {
        return types;
    }
    let mut merged = Vec::new();
    while let Some(x) = ranges.pop() {
        let mut memo = x;
        let mut unmerged = Vec::new();
        for y in ranges.drain(..) {
            match merge(&memo, &y) {
                Some(m) => memo = m,
                None => unmerged.push(y),
            }
        }
        merged.push(make(memo));
        ranges = unmerged;
    }
    merged.extend(types.into_iter().filter(|t| range(t).is_none()));
    merged
}

/// `TypeFormatter#string`.
impl fmt::Display for Type {
    /// `{:#}` expands type aliases, as `TypeFormatter#alias_expanded_string` does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expanded = f.alternate();
        let show = |t: &Type| if expanded { format!("{t:#}") } else { t.to_string() };
        let list = |ts: &[Type]| ts.iter().map(show).collect::<Vec<_>>();
        let bracketed = |f: &mut fmt::Formatter<'_>, name: &str, parts: Vec<String>| {
            if parts.is_empty() {
                f.write_str(name)
            } else {
                write!(f, "{name}[{}]", parts.join(", "))
            }
        };
        match self {
            Type::Boolean(Some(b)) => write!(f, "Boolean[{b}]"),
            Type::Integer(r) => bracketed(f, "Integer", r.parts()),
            Type::Float(r) => bracketed(f, "Float", r.parts()),
            Type::String(Text::Size(r)) => bracketed(f, "String", r.parts()),
            Type::Enum(values, insensitive) => {
                let mut parts: Vec<String> = values.iter().map(|v| puppet_quote(v)).collect();
                if *insensitive {
                    parts.push("true".into());
                }
                bracketed(f, "Enum", parts)
            }
            Type::Pattern(ps) => bracketed(f, "Pattern", ps.iter().map(|p| format!("/{p}/")).collect()),
            Type::Regexp(Some(p)) => write!(f, "Regexp[/{p}/]"),
            Type::Collection(size) => bracketed(f, "Collection", size.as_ref().map(Ints::parts).unwrap_or_default()),
            Type::Array(_, Some(s)) if *s == Ints::new(0, 0) => f.write_str("Array[0, 0]"),
            Type::Array(e, size) => {
                if **e == Type::Any && size.is_none() {
                    return f.write_str("Array");
                }
                let mut parts = vec![show(e)];
                parts.extend(size.as_ref().map(Ints::parts).unwrap_or_default());
                bracketed(f, "Array", parts)
            }
            Type::Hash(_, _, Some(s)) if *s == Ints::new(0, 0) => f.write_str("Hash[0, 0]"),
            Type::Hash(k, v, size) => {
                if **k == Type::Any && **v == Type::Any && size.is_none() {
                    return f.write_str("Hash");
                }
                let mut parts = vec![show(k), show(v)];
                parts.extend(size.as_ref().map(Ints::parts).unwrap_or_default());
                bracketed(f, "Hash", parts)
            }
            Type::Tuple(ts, size) => {
                let mut parts = list(ts);
                parts.extend(size.as_ref().map(Ints::parts).unwrap_or_default());
                bracketed(f, "Tuple", if ts.is_empty() { Vec::new() } else { parts })
            }
            Type::Struct(ms) if ms.is_empty() => f.write_str("Struct"),
            Type::Struct(ms) => {
                let entries: Vec<String> = ms
                    .iter()
                    .map(|m| {
                        let value_optional = m.value.assignable(&Type::Undef);
                        let key = match (m.optional_key, value_optional) {
                            (true, true) | (false, false) => puppet_quote(&m.name),
                            (true, false) => format!("Optional[{}]", puppet_quote(&m.name)),
                            (false, true) => format!("NotUndef[{}]", puppet_quote(&m.name)),
                        };
                        format!("{key} => {}", show(&m.value))
                    })
                    .collect();
                write!(f, "Struct[{{{}}}]", entries.join(", "))
            }
            Type::NotUndef(Some(t)) if **t == Type::Any => f.write_str("NotUndef"),
            Type::NotUndef(Some(t)) | Type::Optional(Some(t)) => {
                let inner = match &**t {
                    Type::String(Text::Value(v)) => puppet_quote(v),
                    t => show(t),
                };
                write!(f, "{}[{inner}]", self.simple_name())
            }
            Type::Variant(ts) => bracketed(f, "Variant", list(ts)),
            Type::Sensitive(t) if **t == Type::Any => f.write_str("Sensitive"),
            Type::Sensitive(t) => write!(f, "Sensitive[{}]", show(t)),
            Type::Runtime(runtime, name) => {
                let parts: Vec<String> =
                    [runtime.clone(), name.as_deref().map(puppet_quote)].into_iter().flatten().collect();
                bracketed(f, "Runtime", parts)
            }
            Type::Alias(a) if expanded && !matches!(a.name.as_str(), "Data" | "RichData") => {
                write!(f, "{} = {:#}", a.name, a.resolved)
            }
            Type::Reference(name) => write!(f, "TypeReference[{}]", puppet_quote(name)),
            t => f.write_str(t.name()),
        }
    }
}

/// Puppet's `puppet_quote`: single quotes unless the string holds a control
/// character, with `'` escaped and a backslash kept with what follows it.
pub(crate) fn puppet_quote(s: &str) -> String {
    if s.chars().any(|c| (c as u32) < 0x20) {
        return puppet_double_quote(s);
    }
    let mut out = String::from("'");
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// Puppet's `puppet_double_quote`: double quotes, with what would end or
/// interpolate the string escaped, and control characters as `\u{..}`.
pub(crate) fn puppet_double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_as_puppet_does() {
        for (s, quoted) in [
            ("it's", r"'it\'s'"),
            (r"back\slash", r"'back\slash'"),
            ("end\\", r"'end\'"),
            ("tab\there", r#""tab\there""#),
        ] {
            assert_eq!(super::puppet_quote(s), quoted);
        }
    }
}
