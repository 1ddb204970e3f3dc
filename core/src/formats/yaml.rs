//! Loads YAML the way Ruby's Psych `safe_load` does, as Puppet calls it.
//!
//! libyaml, the parser Psych is built on, gives structure, styles, tags,
//! positions and syntax errors (`libyaml`); this module applies Psych's YAML 1.1 scalar resolution on top (`yes` is
//! true, `0755` is 493, `1,000` is 1000, `1e3` is a string), its merge keys,
//! and its safe-load refusals (dates and times), and keeps the line and
//! column of every value.

use crate::value::{Hash, Int, Value};
use indexmap::IndexMap;
use libyaml::{Event, Style};
use rustc_hash::FxHashMap as HashMap;

// The fast path for block-style text. The page leaves it out (its first
// download has a size budget, and the event parser reads everything).
#[cfg(feature = "fast-yaml")]
mod block;
mod libyaml;

/// The position of a value in its file (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// Where each part of a loaded value came from: the value's position, then
/// those of its parts (a hash's entry values, an array's elements) in order,
/// each followed by its own parts'. The value gives the shape: see [`parts`].
/// One flat list, as a tree of lists would cost an allocation and three
/// words for every collection and scalar of every file read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spans(pub(crate) Vec<Position>);

impl Spans {
    /// Spans from their positions, in the order described above.
    pub fn new(positions: Vec<Position>) -> Spans {
        Spans(positions)
    }

    /// Where the value starts; the default position when it is not known
    /// (for JSON data).
    pub fn at(&self) -> Position {
        at(&self.0)
    }

    /// Every position, the value's first.
    pub fn positions(&self) -> &[Position] {
        &self.0
    }
}

/// The first of a value's `positions`: where it starts; the default position
/// when there are none.
pub fn at(positions: &[Position]) -> Position {
    positions.first().copied().unwrap_or_default()
}

/// The positions of each part of `value` (its entry values or elements), in
/// order, out of the value's own `positions`; none for a part whose are not
/// known.
pub fn parts<'a>(positions: &'a [Position], value: &'a Value) -> impl Iterator<Item = &'a [Position]> {
    let mut start = 1;
    parts_of(value).map(move |part| {
        let n = nodes(part);
        let positions = positions.get(start..start + n).unwrap_or_default();
        start += n;
        positions
    })
}

/// A hash's entry values or an array's elements.
fn parts_of(value: &Value) -> impl Iterator<Item = &Value> {
    let (values, elements) = match value {
        Value::Hash(h) => (Some(h.values()), None),
        Value::Array(a) => (None, Some(a.iter())),
        _ => (None, None),
    };
    values.into_iter().flatten().chain(elements.into_iter().flatten())
}

/// How many positions describe `value`: its own and its parts'.
pub fn nodes(value: &Value) -> usize {
    match value {
        Value::Hash(h) => 1 + h.values().map(nodes).sum::<usize>(),
        Value::Array(a) => 1 + a.iter().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

/// The event parser's positions, shaped like the value as it is built.
#[derive(Clone, Debug, Default)]
struct Tree {
    at: Position,
    children: Vec<Tree>,
}

impl Tree {
    /// The [`Spans`] of `value`, which this tree describes; a part the tree
    /// lacks takes its parent's position.
    fn flatten(&self, value: &Value, out: &mut Vec<Position>) {
        out.push(self.at);
        for (i, part) in parts_of(value).enumerate() {
            match self.children.get(i) {
                Some(child) => child.flatten(part, out),
                None => Tree { at: self.at, children: Vec::new() }.flatten(part, out),
            }
        }
    }
}

/// Why a YAML text could not be loaded.
#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    /// Psych's message, without the file name.
    pub message: String,
    /// Where the problem is, when the parser knows.
    pub at: Option<Position>,
    /// False where Psych's message does not name the file (an unknown
    /// alias), which Puppet then prints without it.
    pub names_file: bool,
}

/// Psych's message (without the file name), as Puppet prints it.
impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for YamlError {}

/// The most nodes one document may expand to through aliases; a "billion
/// laughs" document ends here instead of exhausting memory.
pub const MAX_NODES: usize = 1_000_000;

/// A plain scalar that YAML 1.1 reads differently than a reader might
/// expect (`yes` is true, `0755` is 493, `1e3` is a string).
#[derive(Clone, Debug, PartialEq)]
pub struct Surprise {
    /// Where the scalar is.
    pub at: Position,
    /// The scalar as written.
    pub text: String,
    /// How it is read, in words.
    pub reading: String,
}

/// Loads the first document of `text`. An empty document is `None` (Psych's `nil`).
pub fn load(text: &str) -> Result<Option<(Value, Spans)>, YamlError> {
    Ok(load_noting_surprises(text)?.0)
}

/// Like [`load`], also noting every [`Surprise`].
#[allow(clippy::type_complexity)]
pub fn load_noting_surprises(text: &str) -> Result<(Option<(Value, Spans)>, Vec<Surprise>), YamlError> {
    read_document::<()>(text, pieces_for(text), true).map(|d| (d.value, d.surprises))
}

/// What the tests and the `yaml` fuzz target check the reader with
/// (re-exported in `hiera_core::internals`): not API.
pub(crate) mod hooks {
    use super::*;

    /// [`load_noting_surprises`], reading block-style text in about `pieces`
    /// pieces however short it is: for the tests and the `yaml` fuzz target,
    /// which check that cutting a text changes nothing.
    #[allow(clippy::type_complexity)]
    pub fn load_in_pieces(text: &str, pieces: usize) -> Result<(Option<(Value, Spans)>, Vec<Surprise>), YamlError> {
        document_in_pieces::<()>(text, pieces).map(|d| (d.value, d.surprises))
    }

    /// Whether a symbol is anywhere in `value`: what [`Document::symbols`]
    /// must not miss, for the tests and the `yaml` fuzz target.
    pub fn holds_symbol(value: &Value) -> bool {
        match value {
            Value::Symbol(_) => true,
            Value::Array(a) => a.iter().any(holds_symbol),
            Value::Hash(h) => h.iter().any(|(k, v)| holds_symbol(k) || holds_symbol(v)),
            _ => false,
        }
    }

    /// [`load_document`] with spans, cut into about `pieces` pieces (see
    /// [`load_in_pieces`]).
    pub fn document_in_pieces<N: Notes>(text: &str, pieces: usize) -> Result<Document<N>, YamlError> {
        read_document(text, pieces, true)
    }
}

/// What a reader notes of each top-level value as it reads it, for a user
/// that would otherwise walk the value again ([`Document::entries`]): the
/// data files' reader notes what a lookup needs to know of a value.
pub trait Notes: Copy + Send {
    /// What is noted of a value before any of its parts.
    const START: Self;
    /// Takes in a scalar of the value (a collection's parts come one by one).
    fn note_scalar(&mut self, scalar: &Value);
    /// Takes in a key of a hash in the value.
    fn note_key(&mut self, key: &Value);
}

/// Notes nothing.
impl Notes for () {
    const START: () = ();
    fn note_scalar(&mut self, _: &Value) {}
    fn note_key(&mut self, _: &Value) {}
}

/// A text read for a data file: what [`load_noting_surprises`] gives, and
/// whether it may hold a symbol.
#[derive(Debug)]
pub struct Document<N> {
    /// The value and where its parts are; `None` for an empty document.
    pub value: Option<(Value, Spans)>,
    /// Scalars a reader may misread.
    pub surprises: Vec<Surprise>,
    /// Whether the value may hold a symbol (`:name`), a key of which Puppet
    /// makes a string: false only where reading saw that it holds none.
    pub symbols: bool,
    /// What was noted of each top-level value, in order, while the text
    /// was read and in cache: walking the values again later took 9 % of a
    /// cold lookup on the medium bench repo. Empty where the reading did not
    /// note it.
    pub entries: Vec<N>,
}

/// Reads a data file's text (see [`Document`]), noting [`Spans`] if
/// `spans`: a reader that never shows where a value is reads faster
/// without them.
pub fn load_document<N: Notes>(text: &str, spans: bool) -> Result<Document<N>, YamlError> {
    read_document(text, pieces_for(text), spans)
}

/// How many pieces to read `text` in (see the fast path's `pieces_for`).
fn pieces_for(text: &str) -> usize {
    #[cfg(feature = "fast-yaml")]
    return block::pieces_for(text);
    #[cfg(not(feature = "fast-yaml"))]
    {
        let _ = text;
        1
    }
}

fn read_document<N: Notes>(text: &str, pieces: usize, spans: bool) -> Result<Document<N>, YamlError> {
    #[cfg(feature = "fast-yaml")]
    if let Some(document) = block::load(text, pieces, spans) {
        return Ok(document);
    }
    #[cfg(not(feature = "fast-yaml"))]
    let _ = pieces;
    let (value, surprises) = load_with_event_parser(text)?;
    // The event parser always notes them.
    let value = value.map(|(v, noted)| (v, if spans { noted } else { Spans::default() }));
    Ok(Document { value, surprises, symbols: true, entries: Vec::new() })
}

/// [`load_noting_surprises`] without its fast path for block-style text:
/// the event parser reads any text. The two must agree, which tests and the
/// `yaml` fuzz target check.
#[allow(clippy::type_complexity)]
pub fn load_with_event_parser(text: &str) -> Result<(Option<(Value, Spans)>, Vec<Surprise>), YamlError> {
    let mut loader = Loader {
        parser: libyaml::Parser::new(text),
        anchors: HashMap::default(),
        nodes: 0,
        depth: 0,
        surprises: Vec::new(),
        deferred: None,
    };
    let read = loader.document()?;
    match loader.deferred {
        Some(e) => Err(e),
        None => Ok(read),
    }
}

/// How deeply collections may nest before loading stops with an error.
pub const MAX_DEPTH: usize = 100;

/// A document's root with its spans, if it has one, and the surprises met.
type Reading = (Option<(Value, Spans)>, Vec<Surprise>);

/// Builds Psych's value out of libyaml's events. Psych parses the whole first
/// document before it makes Ruby values of it, so a syntax error anywhere in
/// it wins over a value Psych would refuse (an unknown alias, a `!ruby/...`
/// tag), which is kept in `deferred` until the document has been read.
struct Loader<'a> {
    parser: libyaml::Parser<'a>,
    anchors: HashMap<String, (Value, Tree)>,
    nodes: usize,
    depth: usize,
    surprises: Vec<Surprise>,
    /// The first value Psych would refuse, in the order Psych makes them.
    deferred: Option<YamlError>,
}

impl Loader<'_> {
    /// The first document's root, with its spans, and the surprises met.
    fn document(&mut self) -> Result<Reading, YamlError> {
        loop {
            let (event, at) = self.next()?;
            match event {
                Event::StreamStart | Event::DocumentStart => continue,
                Event::StreamEnd | Event::DocumentEnd => return Ok((None, std::mem::take(&mut self.surprises))),
                event => {
                    let (value, tree) = self.node(event, at)?;
                    // Psych returns the first document at its end, which libyaml
                    // sees only when it reads the token after the root node: a
                    // failure there ("key\nkey: value") is the document's.
                    self.next()?;
                    let mut positions = Vec::new();
                    tree.flatten(&value, &mut positions);
                    return Ok((Some((value, Spans(positions))), std::mem::take(&mut self.surprises)));
                }
            }
        }
    }

    fn next(&mut self) -> Result<(Event, Position), YamlError> {
        match self.parser.next() {
            Ok((event, mark)) => Ok((event, position(mark))),
            // Psych's message: the problem, the context, and the context's place.
            Err(e) => {
                let at = position(e.context_mark);
                let problem = match e.context {
                    Some(context) => format!("{} {context}", e.problem),
                    None => e.problem,
                };
                Err(YamlError {
                    message: format!("{problem} at line {} column {}", at.line, at.column),
                    at: Some(at),
                    names_file: true,
                })
            }
        }
    }

    /// Keeps the first error Psych would raise once the document is read.
    fn defer(&mut self, e: YamlError) -> (Value, Tree) {
        let at = e.at.unwrap_or_default();
        self.deferred.get_or_insert(e);
        (Value::Undef, Tree { at, children: Vec::new() })
    }

    fn count(&mut self, n: usize, at: Position) -> Result<(), YamlError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            return Err(YamlError {
                message: format!("document expands to more than {MAX_NODES} nodes (alias bomb?)"),
                at: Some(at),
                names_file: true,
            });
        }
        Ok(())
    }

    fn node(&mut self, event: Event, at: Position) -> Result<(Value, Tree), YamlError> {
        self.count(1, at)?;
        let (value, tree, anchor) = match event {
            Event::Scalar { value: text, style, anchor, tag } => {
                let plain = style == Style::Plain && tag.is_none();
                let value = match scalar(text.clone(), style, tag.as_deref(), at) {
                    Ok(value) => value,
                    Err(e) => self.defer(e).0,
                };
                if let Some(reading) = plain.then(|| surprising(&text, &value)).flatten() {
                    self.surprises.push(Surprise { at, text, reading });
                }
                (value, Tree { at, children: Vec::new() }, anchor)
            }
            Event::Alias(name) => {
                let Some((value, tree)) = self.anchors.get(&name).cloned() else {
                    // Psych's own error: it names neither the file nor a place.
                    let message = format!("Unknown alias: {name}");
                    return Ok(self.defer(YamlError { message, at: Some(at), names_file: false }));
                };
                self.count(size_of(&value), at)?;
                return Ok((value, tree));
            }
            Event::SequenceStart { anchor, tag } => {
                self.enter(at)?;
                let mut items = Vec::new();
                let mut children = Vec::new();
                loop {
                    let (event, at) = self.next()?;
                    if let Event::SequenceEnd = event {
                        break;
                    }
                    let (v, s) = self.node(event, at)?;
                    items.push(v);
                    children.push(s);
                }
                self.depth -= 1;
                if matches!(tag.as_deref(), Some("tag:yaml.org,2002:omap" | "!omap")) {
                    let (hash, children) = omap(items, children);
                    (Value::Hash(hash), Tree { at, children }, anchor)
                } else {
                    (Value::Array(items.into()), Tree { at, children }, anchor)
                }
            }
            Event::MappingStart { anchor, tag } => {
                self.enter(at)?;
                let (hash, children) = self.mapping()?;
                self.depth -= 1;
                if matches!(tag.as_deref(), Some("tag:yaml.org,2002:set" | "!set")) {
                    // Psych makes a Psych::Set, which safe_load refuses.
                    return Ok(self.defer(disallowed("Psych::Set", at)));
                }
                (Value::Hash(hash), Tree { at, children }, anchor)
            }
            _ => return Err(YamlError { message: "unexpected event".into(), at: Some(at), names_file: true }),
        };
        if let Some(anchor) = anchor {
            self.anchors.insert(anchor, (value.clone(), tree.clone()));
        }
        Ok((value, tree))
    }

    fn enter(&mut self, at: Position) -> Result<(), YamlError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(YamlError {
                message: format!("collections nested deeper than {MAX_DEPTH} levels"),
                at: Some(at),
                names_file: true,
            });
        }
        Ok(())
    }

    /// A mapping's entries, with Psych's `<<` merge keys applied in place.
    fn mapping(&mut self) -> Result<(Hash, Vec<Tree>), YamlError> {
        let mut entries: IndexMap<Value, (Value, Tree)> = IndexMap::new();
        loop {
            let (event, at) = self.next()?;
            if let Event::MappingEnd = event {
                break;
            }
            let is_merge_key =
                matches!(&event, Event::Scalar { value, tag, .. } if value == "<<" && !is_str_tag(tag.as_deref()));
            let (key, _) = self.node(event, at)?;
            let (event, vat) = self.next()?;
            let value_is_seq = matches!(event, Event::SequenceStart { .. });
            let value_is_map = matches!(event, Event::MappingStart { .. } | Event::Alias(_));
            let (value, tree) = self.node(event, vat)?;
            if is_merge_key && (value_is_map || value_is_seq) {
                if let Some(sources) = merge_sources(&value, &tree, value_is_seq) {
                    for (k, v) in sources {
                        entries.insert(k, v);
                    }
                    continue;
                }
            }
            entries.insert(key, (value, tree));
        }
        let mut hash = Hash::with_capacity(entries.len());
        let mut children = Vec::with_capacity(entries.len());
        for (k, (v, s)) in entries {
            hash.insert(k, v);
            children.push(s);
        }
        Ok((hash, children))
    }
}

/// The entries a `<<` merge key brings in: a hash, or a sequence of hashes
/// where earlier ones win. `None` when Ruby's `merge!` would raise TypeError,
/// in which case Psych keeps `<<` as an ordinary key.
fn merge_sources(value: &Value, tree: &Tree, is_seq: bool) -> Option<Vec<(Value, (Value, Tree))>> {
    let pairs = |h: &Hash, s: &Tree| -> Vec<(Value, (Value, Tree))> {
        h.iter()
            .enumerate()
            .map(|(i, (k, v))| (k.clone(), (v.clone(), s.children.get(i).cloned().unwrap_or_default())))
            .collect()
    };
    if !is_seq {
        return value.as_hash().map(|h| pairs(h, tree));
    }
    let items = value.as_array()?;
    let mut merged: IndexMap<Value, (Value, Tree)> = IndexMap::new();
    for (i, item) in items.iter().enumerate().rev() {
        let s = tree.children.get(i).cloned().unwrap_or_default();
        for (k, v) in pairs(item.as_hash()?, &s) {
            merged.insert(k, v);
        }
    }
    Some(merged.into_iter().collect())
}

/// Psych's `!!omap`: a Hash (Psych::Omap) of each item's first key and
/// last value, in order.
fn omap(items: Vec<Value>, trees: Vec<Tree>) -> (Hash, Vec<Tree>) {
    let mut hash = Hash::with_capacity(items.len());
    let mut children = Vec::with_capacity(items.len());
    for (item, tree) in items.into_iter().zip(trees) {
        let Value::Hash(pairs) = item else { continue };
        let (Some(key), Some((_, value))) = (pairs.keys().next(), pairs.iter().next_back()) else { continue };
        hash.insert(key.clone(), value.clone());
        children.push(tree.children.last().cloned().unwrap_or(tree));
    }
    (hash, children)
}

fn size_of(value: &Value) -> usize {
    match value {
        Value::Array(a) => 1 + a.iter().map(size_of).sum::<usize>(),
        Value::Hash(h) => 1 + h.iter().map(|(k, v)| size_of(k) + size_of(v)).sum::<usize>(),
        _ => 1,
    }
}

/// A libyaml place as the page shows it: 1-based line and column.
fn position(mark: libyaml::Mark) -> Position {
    Position { line: mark.line as u32 + 1, column: mark.column as u32 + 1 }
}

fn is_str_tag(tag: Option<&str>) -> bool {
    matches!(tag, Some("tag:yaml.org,2002:str"))
}

/// Psych's value of a scalar: strings when quoted or tagged `!!str`, floats
/// when tagged `!!float`, symbols for `!ruby/sym`, Psych's resolution of a
/// plain scalar otherwise; other `!ruby/` classes are refused.
fn scalar(text: String, style: Style, tag: Option<&str>, at: Position) -> Result<Value, YamlError> {
    let quoted = style != Style::Plain;
    let Some(tag) = tag else {
        return if quoted { Ok(Value::String(text)) } else { tokenize(text, at) };
    };
    match tag {
        "tag:yaml.org,2002:str" | "!str" => Ok(Value::String(text)),
        "tag:yaml.org,2002:float" | "!float" => match tokenize(text.clone(), at)? {
            Value::Integer(i) => Ok(Value::Float(i.to_f64())),
            f @ Value::Float(_) => Ok(f),
            _ => Err(YamlError {
                message: format!("invalid value for Float(): {}", crate::value::inspect_str(&text)),
                at: Some(at),
                names_file: true,
            }),
        },
        "tag:yaml.org,2002:binary" | "!binary" => Ok(Value::Binary(unpack_base64(&text).into())),
        t if t.starts_with("!ruby/sym") => Ok(Value::Symbol(text.into())),
        t if t.starts_with("!ruby/") => Err(disallowed(t.trim_start_matches("!ruby/object:"), at)),
        _ if quoted => Ok(Value::String(text)),
        _ => tokenize(text, at),
    }
}

/// Ruby's `unpack('m')`, as Psych decodes `!!binary`: characters outside
/// base64's alphabet are passed over, decoding stops at `=`, and a last group
/// of two or three characters gives one or two bytes.
fn unpack_base64(text: &str) -> Vec<u8> {
    use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode, GeneralPurposeConfig};
    use base64::Engine as _;
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let mut digits: String = text
        .chars()
        .take_while(|&c| c != '=')
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/'))
        .collect();
    // A lone character left over makes no byte.
    if digits.len() % 4 == 1 {
        digits.pop();
    }
    LENIENT.decode(digits).unwrap_or_default()
}

/// Why a plain scalar's YAML 1.1 reading may surprise, if it may.
fn surprising(text: &str, value: &Value) -> Option<String> {
    let octal = || {
        let digits = text.trim_start_matches(['-', '+']).as_bytes();
        digits.len() > 1 && digits[0] == b'0' && digits[1].is_ascii_digit()
    };
    match value {
        Value::Bool(b) if !matches!(text.to_ascii_lowercase().as_str(), "true" | "false") => {
            Some(format!("`{text}` is read as the boolean {b} (YAML 1.1); quote it for the string"))
        }
        Value::Integer(i) if text.contains(':') => {
            Some(format!("`{text}` is read as the number {i} (base 60); quote it for the string"))
        }
        Value::Integer(i) if octal() => {
            Some(format!("`{text}` is read as the octal number {i}; quote it for the string"))
        }
        Value::Integer(i) if text.contains([',', '_']) => Some(format!("`{text}` is read as the number {i}")),
        Value::Float(f) if text.contains(':') => {
            Some(format!("`{text}` is read as the number {} (base 60)", crate::value::ruby_float(*f)))
        }
        Value::String(_) if looks_like_exponent_number(text) => Some(format!(
            "`{text}` is a string, not a number: YAML 1.1 needs a dot (`{}`)",
            text.replacen(['e', 'E'], ".0e", 1)
        )),
        _ => None,
    }
}

/// `1e3`, `-2E+5`: numbers to a reader, strings to Psych.
fn looks_like_exponent_number(text: &str) -> bool {
    let t = text.trim_start_matches(['-', '+']);
    if !t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let Some((mantissa, exp)) = t.split_once(['e', 'E']) else { return false };
    let exp = exp.trim_start_matches(['-', '+']);
    !mantissa.is_empty()
        && mantissa.bytes().all(|b| b.is_ascii_digit())
        && !exp.is_empty()
        && exp.bytes().all(|b| b.is_ascii_digit())
}

fn disallowed(class: &str, at: Position) -> YamlError {
    YamlError { message: format!("Tried to load unspecified class: {class}"), at: Some(at), names_file: true }
}

/// Psych's `ScalarScanner#tokenize` for plain scalars (Psych 4, Ruby 3.1).
fn tokenize(s: String, at: Position) -> Result<Value, YamlError> {
    if s.is_empty() {
        return Ok(Value::Undef);
    }
    if is_word(&s) {
        return Ok(Value::String(s));
    }
    if let Some(i) = decimal(&s) {
        return Ok(i);
    }
    if looks_like_word(&s) || s.contains('\n') {
        if s.chars().count() > 5 {
            return Ok(Value::String(s));
        }
        let lower = s.to_ascii_lowercase();
        return Ok(match lower.as_str() {
            _ if !matches!(lower.as_bytes()[0], b'y' | b't' | b'o' | b'n' | b'f' | b'~') => Value::String(s),
            "~" | "null" => Value::Undef,
            "yes" | "true" | "on" => Value::Bool(true),
            "no" | "false" | "off" => Value::Bool(false),
            _ => Value::String(s),
        });
    }
    if is_time(&s) {
        return Err(disallowed("Time", at));
    }
    if is_date(&s) {
        return Err(disallowed("Date", at));
    }
    let lower = s.to_ascii_lowercase();
    match lower.as_str() {
        ".inf" | "+.inf" => return Ok(Value::Float(f64::INFINITY)),
        "-.inf" => return Ok(Value::Float(f64::NEG_INFINITY)),
        ".nan" => return Ok(Value::Float(f64::NAN)),
        _ => {}
    }
    if s.len() >= 2 && s.starts_with(':') {
        let inner = &s[1..];
        let name = match inner.as_bytes()[0] {
            q @ (b'"' | b'\'') if inner.len() >= 2 && inner[1..].contains(q as char) => {
                let end = inner[1..].find(q as char).map(|e| e + 1).unwrap_or(inner.len());
                inner[1..end].trim_start_matches(':').to_string()
            }
            _ => inner.to_string(),
        };
        return Ok(Value::Symbol(name.into()));
    }
    if let Some(v) = sexagesimal(&s) {
        return Ok(v);
    }
    if is_float(&s) {
        if matches!(s.as_str(), "." | "+." | "-.") {
            return Ok(Value::String(s));
        }
        let cleaned: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        let cleaned = cleaned.replace(".e", "e").replace(".E", "E");
        let cleaned = cleaned.strip_suffix('.').unwrap_or(&cleaned);
        return cleaned.parse::<f64>().map(Value::Float).map_err(|_| YamlError {
            message: format!("invalid value for Float(): {}", crate::value::inspect_str(&s)),
            at: Some(at),
            names_file: true,
        });
    }
    if let Some(i) = parse_int(&s) {
        return Ok(i);
    }
    Ok(Value::String(s))
}

/// The commonest plain scalars, words, in short: one starting with a letter
/// is a string, unless it is one of the short words [`tokenize`] reads as
/// something else.
fn is_word(s: &str) -> bool {
    s.as_bytes().first().is_some_and(|&first| {
        first.is_ascii_alphabetic() && (s.len() > 5 || !matches!(first | 0x20, b'y' | b't' | b'o' | b'n' | b'f'))
    })
}

/// A plain decimal integer (`3143`, `-1`, `0`), the commonest number in data,
/// which every other reading of [`tokenize`] leaves alone.
fn decimal(s: &str) -> Option<Value> {
    let digits = match s.as_bytes() {
        [b'-' | b'+', rest @ ..] => rest,
        all => all,
    };
    // 30 digits fit an i128; longer ones take the general path.
    if digits.is_empty() || digits.len() > 30 || (digits[0] == b'0' && digits.len() > 1) {
        return None;
    }
    let n = digits.iter().try_fold(0i128, |n, &d| d.is_ascii_digit().then(|| n * 10 + i128::from(d - b'0')))?;
    Some(Value::Integer((if s.starts_with('-') { -n } else { n }).into()))
}

/// `^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|/\\~;=]+` (unanchored at the end).
fn looks_like_word(s: &str) -> bool {
    let is_word = |c: char| c.is_alphabetic() || c.is_whitespace() || "_!@#$%^&*(){}<>|/\\~;=".contains(c);
    let mut chars = s.chars();
    let first = chars.next().unwrap_or(' ');
    if is_word(first) {
        return true;
    }
    if first.is_ascii_digit() || matches!(first, '.' | ':' | '-') {
        return false;
    }
    chars.next().is_some_and(is_word)
}

fn digits(s: &str, min: usize, max: usize) -> Option<&str> {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    (n >= min && n <= max).then(|| &s[n..])
}

/// `^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`
fn is_time(s: &str) -> bool {
    let check = || -> Option<()> {
        let s = s.strip_prefix('-').unwrap_or(s);
        let s = digits(s, 4, 4)?.strip_prefix('-')?;
        let s = digits(s, 1, 2)?.strip_prefix('-')?;
        let s = digits(s, 1, 2)?;
        let s = match s.strip_prefix(['T', 't']) {
            Some(r) => r,
            None => {
                let r = s.trim_start();
                (r.len() < s.len()).then_some(r)?
            }
        };
        let s = digits(s, 1, 2)?.strip_prefix(':')?;
        let s = digits(s, 2, 2)?.strip_prefix(':')?;
        let mut s = digits(s, 2, 2)?;
        if let Some(r) = s.strip_prefix('.') {
            s = digits(r, 0, usize::MAX)?;
        }
        let s = s.trim_start();
        if s.is_empty() || s == "Z" {
            return Some(());
        }
        let s = s.strip_prefix(['+', '-'])?;
        let s = digits(s, 1, 2)?;
        let s = s.strip_prefix(':').unwrap_or(s);
        digits(s, 0, 2).filter(|r| r.is_empty()).map(|_| ())
    };
    check().is_some()
}

/// `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`, Psych's date
/// pattern. `safe_load` refuses whatever it matches, before it asks whether
/// the day is in the calendar (`2025-02-30` is refused too).
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if b.len() < 8 || !digits(0..4) || b[4] != b'-' {
        return false;
    }
    let month_len = if b.get(6) == Some(&b'-') { 1 } else { 2 };
    let month = &b[5..5 + month_len];
    let month_ok =
        digits(5..5 + month_len) && (month_len == 1 || month[0] == b'0' || matches!(month, b"10" | b"11" | b"12"));
    let day = &b[5 + month_len..];
    let day_ok = day.first() == Some(&b'-')
        && match &day[1..] {
            [d] => d.is_ascii_digit(),
            [b'0' | b'1' | b'2', d] => d.is_ascii_digit(),
            [b'3', b'0' | b'1'] => true,
            _ => false,
        };
    month_ok && day_ok
}

/// Base 60 (`1:20` is 80), integer or float.
fn sexagesimal(s: &str) -> Option<Value> {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (body, frac) = match body.split_once('.') {
        Some((b, f)) if f.bytes().all(|c| c.is_ascii_digit() || c == b'_') => (b, Some(f)),
        Some(_) => return None,
        None => (body, None),
    };
    let parts: Vec<&str> = body.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let head = parts[0];
    if head.is_empty() || !head.as_bytes()[0].is_ascii_digit() || !head.bytes().all(|c| c.is_ascii_digit() || c == b'_')
    {
        return None;
    }
    for p in &parts[1..] {
        let ok = matches!(p.len(), 1 | 2)
            && p.bytes().all(|c| c.is_ascii_digit())
            && (p.len() == 1 || p.as_bytes()[0] <= b'5');
        if !ok {
            return None;
        }
    }
    // Ruby: each part times 60 ** |index - 2|, which is only base 60 with three parts.
    let n = parts.len();
    let to_i = |p: &str| -> i128 {
        let d: String = p.chars().take_while(|c| c.is_ascii_digit() || *c == '_').filter(|c| *c != '_').collect();
        d.parse().unwrap_or(0)
    };
    let sign = if s.starts_with('-') { -1 } else { 1 };
    let weight = |e: usize| 60i128.pow((e as i64 - 2).unsigned_abs() as u32);
    match frac {
        None => {
            let mut total: i128 = 0;
            for (e, p) in parts.iter().enumerate() {
                let v = if e == 0 { sign * to_i(p) } else { to_i(p) };
                total = total.checked_add(v.checked_mul(weight(e))?)?;
            }
            let _ = n;
            Some(Value::Integer(total.into()))
        }
        Some(f) => {
            let mut total = 0.0;
            for (e, p) in parts.iter().enumerate() {
                let mut v = to_i(p) as f64;
                if e == n - 1 {
                    let frac: String = f.chars().filter(|c| *c != '_').collect();
                    v += format!("0.{frac}0").parse::<f64>().unwrap_or(0.0);
                }
                if e == 0 {
                    v *= sign as f64;
                }
                total += v * weight(e) as f64;
            }
            Some(Value::Float(total))
        }
    }
}

/// `^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$`
fn is_float(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let int_len = if s.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        s.bytes().take_while(|c| c.is_ascii_digit() || *c == b'_' || *c == b',').count()
    } else {
        0
    };
    let Some(rest) = s[int_len..].strip_prefix('.') else { return false };
    let frac = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &rest[frac..];
    if rest.is_empty() {
        return true;
    }
    let Some(exp) = rest.strip_prefix(['e', 'E']) else { return false };
    let Some(exp) = exp.strip_prefix(['-', '+']) else { return false };
    !exp.is_empty() && exp.bytes().all(|c| c.is_ascii_digit())
}

/// Psych's INTEGER pattern and Ruby's `Integer()` on it.
fn parse_int(s: &str) -> Option<Value> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let clean = |d: &str| -> String { d.chars().filter(|c| *c != '_' && *c != ',').collect() };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0b") {
        if d.is_empty() || !d.bytes().all(|c| matches!(c, b'0' | b'1' | b'_' | b',')) {
            return None;
        }
        (2, clean(d))
    } else if let Some(d) = body.strip_prefix("0x") {
        if d.is_empty() || !d.bytes().all(|c| c.is_ascii_hexdigit() || c == b'_' || c == b',') {
            return None;
        }
        (16, clean(d))
    } else if body.len() > 1 && body.starts_with('0') {
        if !body[1..].bytes().all(|c| matches!(c, b'0'..=b'7' | b'_' | b',')) {
            return None;
        }
        (8, clean(&body[1..]))
    } else {
        // 0 | [1-9](?:[0-9]|,[0-9]|_[0-9])*
        let b = body.as_bytes();
        if b.is_empty() || !b[0].is_ascii_digit() || (b[0] == b'0' && b.len() > 1) {
            return None;
        }
        let mut i = 1;
        while i < b.len() {
            match b[i] {
                c if c.is_ascii_digit() => i += 1,
                b',' | b'_' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
                _ => return None,
            }
        }
        (10, clean(body))
    };
    // Ruby's Integer() rejects what the pattern lets through but it can't read ("0b_", "0x,").
    let n = Int::from_digits(if digits.is_empty() { "0" } else { &digits }, radix)?;
    if digits.is_empty() && radix != 8 {
        return None;
    }
    Some(Value::Integer(if neg { n.neg() } else { n }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Value {
        let (v, _) = load(&format!("k: {text}\n")).unwrap().unwrap();
        v.get("k").unwrap().clone()
    }

    #[test]
    fn scalars_resolve_as_psych_resolves_them() {
        assert_eq!(one("yes"), Value::Bool(true));
        assert_eq!(one("Off"), Value::Bool(false));
        assert_eq!(one("y"), Value::from("y"));
        assert_eq!(one("ON"), Value::Bool(true));
        assert_eq!(one("NULL"), Value::Undef);
        assert_eq!(one("nope"), Value::from("nope"));
        assert_eq!(one("Falsehood"), Value::from("Falsehood"));
        assert_eq!(one("0755"), Value::Integer(Int::new(493)));
        assert_eq!(one("08"), Value::from("08"));
        assert_eq!(one("0x1F"), Value::Integer(Int::new(31)));
        assert_eq!(one("0b101"), Value::Integer(Int::new(5)));
        assert_eq!(one("1_000_000"), Value::Integer(Int::new(1_000_000)));
        assert_eq!(one("1,000"), Value::Integer(Int::new(1000)));
        assert_eq!(one("+42"), Value::Integer(Int::new(42)));
        assert_eq!(one("-0"), Value::Integer(Int::new(0)));
        assert_eq!(one("-3143"), Value::Integer(Int::new(-3143)));
        assert_eq!(one("170141183460469231731687303715884105727"), Value::Integer(Int::new(i128::MAX)));
        assert_eq!(one("1e3"), Value::from("1e3"));
        assert_eq!(one("1.5e+3"), Value::Float(1500.0));
        assert_eq!(one("3."), Value::Float(3.0));
        assert_eq!(one(".5"), Value::Float(0.5));
        assert_eq!(one("1:20"), Value::Integer(Int::new(4800)));
        assert_eq!(one("12:30:00"), Value::Integer(Int::new(45000)));
        assert_eq!(one("1.2.3"), Value::from("1.2.3"));
        assert_eq!(one("~"), Value::Undef);
        assert_eq!(one(""), Value::Undef);
        assert_eq!(one("'0755'"), Value::from("0755"));
        assert_eq!(one(":sym"), Value::Symbol("sym".into()));
        assert_eq!(one("web01"), Value::from("web01"));
    }

    #[test]
    fn dates_are_refused_and_errors_have_positions() {
        let e = load("a: 2024-01-01\n").unwrap_err();
        assert_eq!(e.message, "Tried to load unspecified class: Date");
        let e = load("a:\n\tb: 1\n").unwrap_err();
        assert_eq!(e.at, Some(Position { line: 2, column: 1 }));
    }

    #[test]
    fn an_empty_explicit_key_is_not_a_missing_one() {
        // Psych reads both as {nil => "b"}; a module's data file cannot hold
        // a nil key (Puppet fails on it), so no conformance case can.
        for text in ["?\n: b\n", "? \n: b\n", "a: 1\n?\n: b\n", "? # note\n: b\n", "?\n  # note\n: b\n"] {
            let (value, _) = load(text).unwrap().unwrap();
            assert_eq!(value.as_hash().unwrap().get(&Value::Undef), Some(&Value::from("b")), "{text:?}");
        }
        for text in ["a: 1\n: b\n", "a: 1 # c\n: b\n", "a: 1\n# c\n: b\n"] {
            let e = load(text).unwrap_err();
            assert_eq!(
                e.message, "did not find expected key while parsing a block mapping at line 1 column 1",
                "{text:?}"
            );
        }
    }

    #[test]
    fn notes_surprising_scalars() {
        let (_, s) = load_noting_surprises("a: yes\nb: 0755\nc: 1e3\nd: 'yes'\ne: true\nf: 1:20\n").unwrap();
        let texts: Vec<&str> = s.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["yes", "0755", "1e3", "1:20"]);
        assert_eq!(s[1].reading, "`0755` is read as the octal number 493; quote it for the string");
    }

    #[test]
    fn a_quoted_scalar_goes_on_over_lines_indented_no_more_than_its_key() {
        // As Psych reads them; yaml-rust2 refuses the lines' indentation.
        let text = "a:\n  b: 'x\n  y'\n  c: \"p\nq\" # note\nd: [\"u\nv\", yes]\ne: 'w\n\n z'\n";
        let ((value, spans), surprises) = match load_noting_surprises(text).unwrap() {
            (Some(root), surprises) => (root, surprises),
            (None, _) => panic!("nothing read"),
        };
        assert_eq!(value.inspect(), r#"{"a"=>{"b"=>"x y", "c"=>"p q"}, "d"=>["u v", true], "e"=>"w\nz"}"#);
        // `yes` keeps its place after the quote that closes on line 7.
        assert_eq!(
            surprises.iter().map(|s| (s.text.as_str(), s.at)).collect::<Vec<_>>(),
            [("yes", Position { line: 7, column: 5 })]
        );
        let d = parts(spans.positions(), &value).nth(1).unwrap();
        assert_eq!(
            parts(d, value.get("d").unwrap()).map(at).collect::<Vec<_>>(),
            [Position { line: 6, column: 5 }, Position { line: 7, column: 5 }]
        );
        // Its lines' leading tabs are blanks to libyaml, whatever the indentation.
        let (tabbed, _) = load("a: 'x\n\t y'\nb:\n  c: \"p\n\tq\"\n").unwrap().unwrap();
        assert_eq!(tabbed.inspect(), r#"{"a"=>"x y", "b"=>{"c"=>"p q"}}"#);
        // A document marker ends the scalar for libyaml too.
        let e = load("a: 'x\n---\ny'\n").unwrap_err();
        assert_eq!(e.message, "found unexpected document indicator while scanning a quoted scalar at line 1 column 4");
    }

    #[test]
    fn a_flow_collection_goes_on_over_lines_indented_no_more_than_its_key() {
        // As Psych reads them, tabs and all; yaml-rust2 refuses the lines'
        // indentation, and reads ahead of the collection in a sequence.
        let text = "a:\n  b: [\n  x, 'y\nz',\n\t{p: 1,\n  }] # ]\n  c: [1,\n# [\n2]\nd:\n  - [e,\n  f]\n";
        let (value, spans) = load(text).unwrap().unwrap();
        assert_eq!(value.inspect(), r#"{"a"=>{"b"=>["x", "y z", {"p"=>1}], "c"=>[1, 2]}, "d"=>[["e", "f"]]}"#);
        let a = parts(spans.positions(), &value).next().unwrap();
        let b = parts(a, value.get("a").unwrap()).next().unwrap();
        let items = value.get("a").and_then(|a| a.get("b")).unwrap();
        assert_eq!(
            parts(b, items).map(at).collect::<Vec<_>>(),
            [Position { line: 3, column: 3 }, Position { line: 3, column: 6 }, Position { line: 5, column: 2 }]
        );
        // A file written in that style, read again once for all of them;
        // and with the error libyaml finds after them.
        let many: String =
            (0..60).map(|i| format!("  k{i}: [\n  x{i},\n  ]\n  t{i}: |\n    c: [3,\n  s{i}: it's\n")).collect();
        let (value, _) = load(&format!("a:\n{many}")).unwrap().unwrap();
        assert_eq!(value.get("a").and_then(|a| a.get("k59")).unwrap().inspect(), r#"["x59"]"#);
        assert_eq!(value.get("a").and_then(|a| a.get("t59")).unwrap().inspect(), r#""c: [3,\n""#);
        let e = load(&format!("a:\n{many}  d: x: y\n")).unwrap_err();
        assert_eq!(e.message, "mapping values are not allowed in this context at line 362 column 7");
        // Found ahead in a block scalar whose header the look ahead misses,
        // a collection's lines are not in one as read: only the first
        // collection is mended.
        let (value, spans) = load("a:\n  b: [1,\n  2]\n  t: |\t# c\n    k: [x,\n    y]\n").unwrap().unwrap();
        assert_eq!(value.inspect(), r#"{"a"=>{"b"=>[1, 2], "t"=>"k: [x,\ny]\n"}}"#);
        let a = parts(spans.positions(), &value).next().unwrap();
        assert_eq!(parts(a, value.get("a").unwrap()).map(at).collect::<Vec<_>>()[1], Position { line: 4, column: 6 });
        // What libyaml refuses in a flow collection stays refused.
        for (text, error) in [
            (
                "a:\n  b: [1,\n...\n2]\n",
                "did not find expected node content while parsing a flow node at line 3 column 1",
            ),
            (
                "a:\n  b: [1,\n2\nc: 3\n",
                "did not find expected ',' or ']' while parsing a flow sequence at line 2 column 6",
            ),
            (
                "a:\n  b: [1, 2\n c: 3]\n",
                "did not find expected ',' or ']' while parsing a flow sequence at line 2 column 6",
            ),
            ("a:\n  [1,\n2]: x\n", "mapping values are not allowed in this context at line 3 column 3"),
        ] {
            assert_eq!(load(text).unwrap_err().message, error, "{text:?}");
        }
    }

    #[test]
    fn anchor_and_alias_names_end_where_libyaml_ends_them() {
        // libyaml's names are letters, digits, `-` and `_`: `&a::x k` is the
        // anchor `a` on the key `::x k`, which Psych reads as a symbol.
        let (value, spans) = load("&a::x k: &b::y v\nc: [*a, *b]\n").unwrap().unwrap();
        let (plain, _) = load("::x k: ::y v\nc:\n- ::x k\n- ::y v\n").unwrap().unwrap();
        assert_eq!(value, plain);
        let columns: Vec<u32> = spans.positions().iter().filter(|p| p.line == 1).map(|p| p.column).collect();
        // The mapping at its first key, its first value, and where the
        // aliases' key and value were read: each at its anchor.
        assert_eq!(columns, [1, 10, 1, 10]);
        // A lone `\r` ends a line for the scanner, and a byte order mark is
        // read as a space.
        let (value, _) = load("a: 1\rb: &xy::z v\nc\u{e9}: hello\n").unwrap().unwrap();
        assert_eq!(value.get("c\u{e9}"), Some(&Value::from("hello")));
        assert_eq!(load("\u{feff}&a::x k: v\n").unwrap().unwrap().0, load("::x k: v\n").unwrap().unwrap().0);
        // A name followed by what may not follow one is libyaml's error, unless
        // reading fails before it.
        for (text, error) in [
            (
                "a: &my.anchor value\n",
                "did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4",
            ),
            (
                "a: 1\nb: *é\n",
                "did not find expected alphabetic or numeric character while scanning an alias at line 2 column 4",
            ),
            (
                "a: &x@ v\n",
                "found character that cannot start any token while scanning for the next token at line 1 column 6",
            ),
            (
                "x: [1,\n2\ny: &a.b 3\n",
                "did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4",
            ),
            ("*version: 5\n", "Unknown alias: version"),
            (
                "a: &x[1]\n",
                "did not find expected alphabetic or numeric character while scanning an anchor at line 1 column 4",
            ),
            // Psych's own error comes after all of libyaml's.
            (
                "a: *no\nb: &x.y 1\n",
                "did not find expected alphabetic or numeric character while scanning an anchor at line 2 column 4",
            ),
        ] {
            assert_eq!(load(text).unwrap_err().message, error, "{text:?}");
        }
    }

    #[test]
    fn a_block_scalar_without_content_at_the_end_is_what_libyaml_reads() {
        // yaml-rust2 counts the header's line break when nothing follows.
        for (text, read) in [
            ("a: |\n", r#"{"a"=>""}"#),
            ("a: >\n\n\n", r#"{"a"=>""}"#),
            ("a: |+\n", r#"{"a"=>""}"#),
            ("a: |+ # c\n\n  \n", r#"{"a"=>"\n\n"}"#),
            ("- |-\n", r#"[""]"#),
            ("a: |+2\n\nb: 1\n", r#"{"a"=>"\n", "b"=>1}"#),
        ] {
            assert_eq!(load(text).unwrap().unwrap().0.inspect(), read, "{text:?}");
        }
    }

    #[test]
    fn a_tab_after_an_explicit_keys_colon_is_refused_as_libyaml_refuses_it() {
        // No simple key ends there, so libyaml takes the tab for no blank.
        let cannot_start = "found character that cannot start any token while scanning for the next token";
        for (text, error) in [
            ("? a\n:\tb\n", format!("{cannot_start} at line 2 column 2")),
            ("k:\n  ? a\n  :\tb\nc:\td\n", format!("{cannot_start} at line 3 column 4")),
            ("? a\n  :\tb\n", "did not find expected key while parsing a block mapping at line 1 column 1".into()),
        ] {
            assert_eq!(load(text).unwrap_err().message, error, "{text:?}");
        }
        assert_eq!(load("a:\tb\n? c\n: d\n").unwrap().unwrap().0.inspect(), r#"{"a"=>"b", "c"=>"d"}"#);
    }

    #[test]
    fn a_flow_mappings_key_is_on_its_colons_line_as_libyaml_wants() {
        let refused = "did not find expected ',' or '}' while parsing a flow mapping at line 1 column 4";
        for text in ["a: {p\n   ort: 8080}\n", "a: {\"p\": 1,\n \"q\n r\": 2}\n", "a: {p # c\n  : 1}\n"] {
            assert_eq!(load(text).unwrap_err().message, refused, "{text:?}");
        }
        let read = |text: &str| load(text).unwrap().unwrap().0.inspect();
        assert_eq!(
            read("a: {? p\n   ort : 1, q: 2,\n r, \"s\":t}\n"),
            r#"{"a"=>{"p ort"=>1, "q"=>2, "r"=>nil, "s"=>"t"}}"#
        );
    }

    #[test]
    fn a_flow_collection_holds_no_block_scalar() {
        let cannot_start = "found character that cannot start any token while scanning for the next token";
        for (text, column) in [("a: [|auditd]\n", 5), ("a: {k: >x}\n", 8), ("a: [&n |x]\n", 8)] {
            assert_eq!(load(text).unwrap_err().message, format!("{cannot_start} at line 1 column {column}"));
        }
        assert_eq!(load("a: [x|y, a>b]\n").unwrap().unwrap().0.inspect(), r#"{"a"=>["x|y", "a>b"]}"#);
    }

    #[test]
    fn an_alias_to_no_anchor_yields_to_an_error_further_on() {
        // Psych resolves aliases once the document is read.
        for (text, error) in [
            ("a: *x\nb: [\n", "did not find expected node content while parsing a flow node at line 3 column 1"),
            ("a: *x,\n", "did not find expected key while parsing a block mapping at line 1 column 1"),
            ("a: *x\nb: *y\n", "Unknown alias: x"),
            ("a: *x\n---\nb: [\n", "Unknown alias: x"),
        ] {
            assert_eq!(load(text).unwrap_err().message, error, "{text:?}");
        }
        let many: String = (0..40).map(|i| format!("k{i}: *a{i}\n")).collect();
        assert_eq!(load(&many).unwrap_err().message, "Unknown alias: a0");
    }

    #[test]
    fn merge_keys_and_spans() {
        let (v, spans) = load("base: &b\n  x: 1\n  y: 2\nitem:\n  <<: *b\n  y: 3\n").unwrap().unwrap();
        assert_eq!(v.get("item").unwrap().inspect(), r#"{"x"=>1, "y"=>3}"#);
        assert_eq!(at(parts(spans.positions(), &v).nth(1).unwrap()).line, 5);
    }

    #[test]
    fn spans_list_each_value_then_its_parts() {
        let text = "a:\n  b: 1\n  c:\n    - 2\n    - [3]\nd: x\n";
        for (value, spans) in [load(text).unwrap().unwrap(), load_with_event_parser(text).unwrap().0.unwrap()] {
            let lines: Vec<u32> = spans.positions().iter().map(|p| p.line).collect();
            assert_eq!(lines, [1, 2, 2, 4, 4, 5, 5, 6]);
            assert_eq!(nodes(&value), lines.len());
            let a = parts(spans.positions(), &value).next().unwrap();
            let (value_a, value_c) = (value.get("a").unwrap(), value.get("a").unwrap().get("c").unwrap());
            let c = parts(a, value_a).nth(1).unwrap();
            let inner = parts(c, value_c).nth(1).unwrap();
            assert_eq!((inner.len(), at(inner)), (2, Position { line: 5, column: 7 }));
            assert_eq!(parts(spans.positions(), &value).nth(1).unwrap(), [Position { line: 6, column: 4 }]);
            assert_eq!(parts(&[], &value).nth(1), Some(&[][..]));
        }
    }
}

/// Writes a value as a YAML document in block style, quoting strings that
/// a YAML 1.1 reader (Psych) would read as something else.
pub fn to_yaml(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Hash(h) if !h.is_empty() => {
            out.push_str("---\n");
            emit_hash(&mut out, h, 0);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push_str("---\n");
            emit_array(&mut out, a, 0);
        }
        v => {
            out.push_str("--- ");
            out.push_str(&scalar_text(v, 0));
            out.push('\n');
        }
    }
    out
}

fn emit_hash(out: &mut String, h: &Hash, indent: usize) {
    for (k, v) in h {
        out.push_str(&" ".repeat(indent));
        out.push_str(&scalar_text(k, indent));
        out.push(':');
        emit_child(out, v, indent);
    }
}

fn emit_array(out: &mut String, a: &[Value], indent: usize) {
    for v in a {
        out.push_str(&" ".repeat(indent));
        out.push('-');
        match v {
            // The first entry or element shares the dash's line (`- - 1`).
            Value::Hash(h) if !h.is_empty() => {
                let mut inner = String::new();
                emit_hash(&mut inner, h, indent + 2);
                out.push(' ');
                out.push_str(&inner[indent + 2..]);
            }
            Value::Array(a) if !a.is_empty() => {
                let mut inner = String::new();
                emit_array(&mut inner, a, indent + 2);
                out.push(' ');
                out.push_str(&inner[indent + 2..]);
            }
            v => emit_child(out, v, indent),
        }
    }
}

fn emit_child(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Hash(h) if !h.is_empty() => {
            out.push('\n');
            emit_hash(out, h, indent + 2);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            emit_array(out, a, indent);
        }
        v => {
            out.push(' ');
            out.push_str(&scalar_text(v, indent));
            out.push('\n');
        }
    }
}

fn scalar_text(v: &Value, indent: usize) -> String {
    match v {
        Value::Undef => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Integer(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => ".nan".into(),
        Value::Float(f) if f.is_infinite() => {
            if *f > 0.0 {
                ".inf".into()
            } else {
                "-.inf".into()
            }
        }
        Value::Float(f) => crate::value::ruby_float(*f),
        Value::String(s) => string_text(s, indent),
        Value::Symbol(s) => format!(":{s}"),
        Value::Array(_) => "[]".into(),
        Value::Hash(_) => "{}".into(),
        Value::Sensitive(_) => "Sensitive [value redacted]".into(),
        Value::Binary(b) if b.is_ascii() => string_text(&String::from_utf8_lossy(b), indent),
        // Psych writes a binary string that is not ASCII as `!binary`: its
        // base64 on one line (Ruby's `pack('m0')`), a literal block.
        Value::Binary(b) => {
            use base64::Engine;
            let encoded = base64::engine::general_purpose::STANDARD.encode(b);
            format!("!binary |-\n{}{encoded}", " ".repeat(indent + 2))
        }
    }
}

fn string_text(s: &str, indent: usize) -> String {
    let awkward = |c: char| c.is_control() && c != '\n' && c != '\t';
    if s.contains('\n') && !s.contains(awkward) && !s.contains('\r') {
        let body = s.trim_end_matches('\n');
        let trailing = s.len() - body.len();
        let chomp = match trailing {
            0 => "-",
            1 => "",
            _ => "+",
        };
        let pad = " ".repeat(indent + 2);
        let mut lines: Vec<String> =
            body.split('\n').map(|l| if l.is_empty() { String::new() } else { format!("{pad}{l}") }).collect();
        if trailing > 1 {
            lines.extend(std::iter::repeat_n(String::new(), trailing - 1));
        }
        // An indentation indicator when the first line starts with a space.
        let indicator = if body.starts_with([' ', '\t']) { "2" } else { "" };
        return format!("|{indicator}{chomp}\n{}", lines.join("\n"));
    }
    let plain_ok = !s.is_empty()
        && s.trim() == s
        && matches!(tokenize(s.to_string(), Position::default()), Ok(Value::String(ref t)) if t == s)
        && !s.starts_with([
            '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '<', '=',
        ])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.contains(|c: char| c.is_control());
    if plain_ok {
        s.to_string()
    } else if s.contains(|c: char| c.is_control()) {
        double_quoted(s)
    } else {
        format!("'{}'", s.replace('\'', "''"))
    }
}

/// A YAML double-quoted scalar, escaping what YAML needs escaped.
fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod emit_tests {
    use super::*;

    #[test]
    fn round_trips_through_the_loader() {
        let text = "a: yes\nb: '0755'\nc: [1, 2.5, ~, 'x: y']\nd: {e: \"multi\\nline\\n\", f: []}\ng: ''\nh: \"  lead\\n\\ttab\\n\\n\"\ni: \"bell\\a\"\n";
        let (v, _) = load(text).unwrap().unwrap();
        let emitted = to_yaml(&v);
        let (back, _) = load(&emitted).unwrap().unwrap();
        assert_eq!(back, v, "{emitted}");
        assert!(emitted.contains("b: '0755'"));
    }

    #[test]
    fn writes_binary_strings_as_psych_does() {
        let (v, _) = load("a: !!binary /w==\nb: [!!binary aGVsbG8=]\n").unwrap().unwrap();
        assert_eq!(to_yaml(&v), "---\na: !binary |-\n  /w==\nb:\n- hello\n");
        let long = Value::Binary(vec![0xff; 100].into());
        let written = to_yaml(&long);
        assert_eq!(written.lines().nth(1).map(str::len), Some(2 + 136), "{written}");
        assert_eq!(written.lines().count(), 2, "{written}");
    }

    #[test]
    fn writes_a_list_in_a_list_as_psych_does() {
        let text = "a:\n- 1\n- - 2\n  - - 3\n    - {k: v}\n- - x: 1\n    y: 2\n";
        let (v, _) = load(text).unwrap().unwrap();
        let emitted = to_yaml(&v);
        assert_eq!(emitted, "---\na:\n- 1\n- - 2\n  - - 3\n    - k: v\n- - x: 1\n    y: 2\n");
        assert_eq!(load(&emitted).unwrap().unwrap().0, v);
    }
}
