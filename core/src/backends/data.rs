//! Finding values: the data backends (`yaml_data`, `json_data`) that turn a
//! data file into a hash, and the checks Puppet makes on what they return.

use crate::error::Error;
use crate::formats::yaml::{self, Notes as _, Position, Spans};
use crate::interpolate::has_tokens;
use crate::puppet::types::type_name;
use crate::value::symkeys_to_string;
use crate::value::{Hash, Value};
use std::cell::{Cell, OnceCell};

/// A data file read by its backend.
///
/// What is learnt from `hash` and `spans` is learnt when first asked: a
/// cold lookup reads many files and asks about few of their entries.
#[derive(Clone, Debug, Default)]
pub struct DataFile {
    /// The file's hash.
    pub hash: Hash,
    /// Where each part of `hash` came from; none for JSON.
    pub spans: Spans,
    /// Where each top-level value's positions start in `spans`, by key
    /// position in `hash`.
    starts: OnceCell<Vec<u32>>,
    /// Scalars a reader may misread (YAML only).
    pub surprises: Vec<yaml::Surprise>,
    keys_digest: OnceCell<u64>,
    /// What each top-level value is, by key position, learnt once instead
    /// of walking the value on every lookup that finds it.
    entries: Vec<Cell<Option<Entry>>>,
}

/// Files are equal when what was read is; what is learnt from it is
/// compared too, so that an edited file that learnt wrong is told apart.
impl PartialEq for DataFile {
    fn eq(&self, other: &DataFile) -> bool {
        self.hash == other.hash
            && self.spans == other.spans
            && self.surprises == other.surprises
            && self.starts() == other.starts()
            && (0..self.hash.len()).all(|i| self.entry(i) == other.entry(i))
    }
}

/// What a lookup needs to know of a top-level value before using it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Entry {
    /// Some string in it (hash keys too) has a `%{` token to interpolate.
    pub interpolated: bool,
    /// It is a Puppet `LookupValue` (`RichData`): scalars, undef, arrays,
    /// and hashes keyed by strings or numbers, all the way down. Finding one
    /// that is not is an error.
    pub lookup_value: bool,
}

impl Entry {
    /// What a value with no strings, symbols or hashes is: what noting
    /// a value's parts starts from.
    pub const START: Entry = Entry { interpolated: false, lookup_value: true };

    /// Walks `value` once, for both answers: reading a large file calls
    /// this for every entry.
    pub fn of(value: &Value) -> Entry {
        let mut entry = Entry::START;
        entry.walk(value);
        entry
    }

    fn walk(&mut self, value: &Value) {
        match value {
            Value::Array(a) => a.iter().for_each(|v| self.walk(v)),
            Value::Hash(h) => {
                for (k, v) in h {
                    self.note_key(k);
                    self.walk(v);
                }
            }
            scalar => self.note_scalar(scalar),
        }
    }
}

/// The data files' reader notes each top-level value's [`Entry`] as it reads it.
impl yaml::Notes for Entry {
    const START: Entry = Entry::START;

    fn note_scalar(&mut self, scalar: &Value) {
        match scalar {
            Value::String(s) => self.interpolated |= crate::interpolate::has_token(s),
            Value::Symbol(_) => self.lookup_value = false,
            _ => {}
        }
    }

    fn note_key(&mut self, key: &Value) {
        match key {
            Value::String(s) => self.interpolated |= crate::interpolate::has_token(s),
            Value::Integer(_) | Value::Float(_) => {}
            key => {
                self.lookup_value = false;
                self.interpolated |= has_tokens(key);
            }
        }
    }
}

impl DataFile {
    /// A file read as `hash`; `entries` are what reading it learnt of its
    /// top-level values, if it learnt them all, in order.
    fn new(hash: Hash, spans: Spans, surprises: Vec<yaml::Surprise>, entries: Vec<Entry>) -> DataFile {
        let entries = if entries.len() == hash.len() {
            entries.into_iter().map(|e| Cell::new(Some(e))).collect()
        } else {
            vec![Cell::new(None); hash.len()]
        };
        DataFile { hash, spans, starts: OnceCell::new(), surprises, keys_digest: OnceCell::new(), entries }
    }

    /// What the top-level value at key position `i` is.
    pub fn entry(&self, i: usize) -> Option<Entry> {
        let cell = self.entries.get(i)?;
        if cell.get().is_none() {
            cell.set(Some(Entry::of(self.hash.get_index(i)?.1)));
        }
        cell.get()
    }

    /// A digest of the keys in order (see [`keys_digest`]), to tell cheaply
    /// whether an edit changed them.
    pub fn keys_digest(&self) -> u64 {
        *self.keys_digest.get_or_init(|| keys_digest(&self.hash))
    }

    /// Where the top-level value at key position `i` and its parts came
    /// from (see [`Spans`]); none for JSON.
    pub fn value_spans(&self, i: usize) -> &[Position] {
        self.value_range(i).and_then(|r| self.spans.0.get(r)).unwrap_or_default()
    }

    fn value_range(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let starts = self.starts();
        let start = *starts.get(i)? as usize;
        Some(start..starts.get(i + 1).map_or(self.spans.0.len(), |&end| end as usize))
    }

    /// Where each top-level value's positions start in `spans`; none
    /// without spans.
    fn starts(&self) -> &[u32] {
        self.starts.get_or_init(|| {
            if self.spans.0.is_empty() {
                return Vec::new();
            }
            // The mapping's own position comes first.
            let mut start = 1;
            self.hash
                .values()
                .map(|value| {
                    let at = start as u32;
                    start += yaml::nodes(value);
                    at
                })
                .collect()
        })
    }
}

/// A digest of a hash's keys in order; an empty hash's is 0.
pub fn keys_digest(hash: &Hash) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let mut hasher = rustc_hash::FxHasher::default();
    hash.keys().for_each(|k| k.hash(&mut hasher));
    hasher.finish()
}

/// The data_hash functions this engine provides.
pub fn is_known_data_hash(function: &str) -> bool {
    matches!(function, "yaml_data" | "json_data" | "hocon_data")
}

/// Whether the engine provides `function` for a level that names it as
/// its `kind` (Puppet would find it; any other is "Unable to find").
pub fn is_provided(kind: &crate::config::FunctionKind, function: &str) -> bool {
    match kind {
        crate::config::FunctionKind::DataHash => is_known_data_hash(function),
        crate::config::FunctionKind::LookupKey => function == "eyaml_lookup_key",
        _ => false,
    }
}

/// How data files are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Puppet's `strict = error`: a YAML file that holds neither a hash nor
    /// nothing is an error.
    pub strict_error: bool,
    /// Whether to note where each value of a YAML file is
    /// ([`DataFile::spans`]); none are noted for JSON.
    pub spans: bool,
}

/// Reads a YAML or JSON data file with a data_hash function, as Puppet's
/// function would (HOCON: [`hocon_file`]).
pub fn load(function: &str, path: &str, text: &str, reading: Reading) -> Result<DataFile, Error> {
    match function {
        "json_data" => load_json(path, text),
        _ => load_yaml(path, text, reading),
    }
}

fn load_yaml(path: &str, text: &str, Reading { strict_error, spans }: Reading) -> Result<DataFile, Error> {
    match yaml::load_document(text, spans) {
        Err(e) => {
            let at = e.at;
            let message = if e.names_file {
                format!("Unable to parse ({path}): {}", e.message)
            } else {
                format!("Unable to parse {}", e.message)
            };
            Err(Error::lookup(message).at(path, at.map(|a| a.line as usize), at.map(|a| a.column as usize)))
        }
        Ok(yaml::Document { value: Some((Value::Hash(h), spans)), surprises, symbols, entries }) => {
            // Symbol keys made strings are no longer what reading saw.
            let (hash, entries) = if symbols { (symkeys_to_string(h), Vec::new()) } else { (h, entries) };
            Ok(DataFile::new(hash, spans, surprises, entries))
        }
        Ok(yaml::Document { value: other, .. }) => {
            // Psych's nil (no document, `---` alone, `~`) becomes `false`,
            // which even strict mode lets through.
            let is_false = matches!(other, None | Some((Value::Bool(false) | Value::Undef, _)));
            if strict_error && !is_false {
                return Err(
                    Error::lookup(format!("{path}: file does not contain a valid yaml hash")).at(path, None, None)
                );
            }
            Ok(DataFile::default())
        }
    }
}

/// A HOCON data file as `hocon_data` returns it, from what a
/// [`crate::formats::hocon::Reader`] read (`None`: there was no reader).
pub fn hocon_file(path: &str, read: Option<Result<Hash, crate::formats::hocon::Error>>) -> Result<DataFile, Error> {
    match read {
        Some(Ok(hash)) => Ok(DataFile::new(hash, Spans::default(), Vec::new(), Vec::new())),
        Some(Err(e)) if e.ruby => Err(Error::runtime(e.message).at(path, None, None)),
        Some(Err(e)) => {
            let line = (e.line > 0).then_some(e.line);
            Err(Error::lookup(format!("Unable to parse ({path}): {e}")).at(path, line, None))
        }
        None => Err(Error::lookup(format!("{path}: {}", crate::formats::hocon::NOT_LOADED)).at(path, None, None)),
    }
}

fn load_json(path: &str, text: &str) -> Result<DataFile, Error> {
    let value = crate::formats::json::parse(text).map_err(|e| {
        let (line, column) = line_column(text, e.offset);
        Error::lookup(format!("Unable to parse ({path}): {}", e.message)).at(path, Some(line), Some(column))
    })?;
    match value {
        Value::Hash(hash) => {
            Ok(DataFile::new(hash, Spans::default(), Vec::new(), Vec::new()))
        }
        other => Err(Error::lookup(format!(
            "Value returned from data_hash function 'json_data', when using location '{path}', has wrong type, expects a Hash value, got {}",
            type_name(&other)
        ))),
    }
}

/// Applies an edit of a YAML data file's text to what was read from it, by
/// reading again only the top-level entry the edit lies in; false (and
/// `file` unspecified) when that might not give exactly what reading the
/// whole text gives: the edit crosses entries or adds one, the entry changes
/// its key, holds an anchor or fails to parse, or the file has documents,
/// directives, duplicate keys or carriage returns. A keystroke in a large
/// common.yaml then costs the size of one entry, not of the file.
pub fn splice_yaml(old_text: &str, new_text: &str, file: &mut DataFile) -> bool {
    let (Some(old_tops), Some(new_tops)) = (top_entries(old_text), top_entries(new_text)) else { return false };
    if old_tops.len() != file.hash.len() || new_tops.len() != old_tops.len() || file.starts().len() != file.hash.len() {
        return false;
    }
    let (old_bytes, new_bytes) = (old_text.as_bytes(), new_text.as_bytes());
    let prefix = old_bytes.iter().zip(new_bytes).take_while(|(a, b)| a == b).count();
    let room = old_bytes.len().min(new_bytes.len()) - prefix;
    let suffix = old_bytes.iter().rev().zip(new_bytes.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let Some(i) = old_tops.iter().rposition(|&t| t <= prefix) else { return false };
    let delta = new_bytes.len() as isize - old_bytes.len() as isize;
    let end = |tops: &[usize], len: usize| tops.get(i + 1).copied().unwrap_or(len);
    let (old_end, new_end) = (end(&old_tops, old_bytes.len()), end(&new_tops, new_bytes.len()));
    let same_elsewhere =
        old_tops
            .iter()
            .zip(&new_tops)
            .enumerate()
            .all(|(j, (&o, &n))| if j <= i { o == n } else { n as isize == o as isize + delta });
    if !same_elsewhere || old_bytes.len() - suffix > old_end {
        return false;
    }
    let (old_block, new_block) = (&old_text[old_tops[i]..old_end], &new_text[new_tops[i]..new_end]);
    // An anchor may be used by other entries, which would change with it.
    if old_block.contains('&') || new_block.contains('&') || pair_in_flow_sequence(new_block) {
        return false;
    }
    // The next entry's first line goes along: an empty value is placed at
    // the token after it.
    let next_line = new_tops.get(i + 1).map(|&t| new_text[t..].find('\n').map_or(new_text.len(), |n| t + n + 1));
    let read = &new_text[new_tops[i]..next_line.unwrap_or(new_end)];
    let Ok((Some((Value::Hash(entries), spans)), surprises)) = yaml::load_noting_surprises(read) else { return false };
    if entries.len() != 1 + next_line.is_some() as usize {
        return false;
    }
    let mut entry = symkeys_to_string(entries).into_iter();
    let Some((key, value)) = entry.next() else { return false };
    // The entry's value's positions follow the mapping's own.
    let Some(read_positions) = spans.0.get(1..1 + yaml::nodes(&value)) else { return false };
    let Some(range) = file.value_range(i) else { return false };
    if file.hash.get_index(i).map(|(k, _)| k) != Some(&key) {
        return false;
    }
    let first_line = newlines(&old_text[..old_tops[i]]) as u32;
    let old_lines = old_block.lines().count() as u32;
    // Entries after this one start on a line of their own: it ends with a newline.
    let shift = newlines(new_block) as i64 - newlines(old_block) as i64;
    let moved = |line: u32| (line as i64 + shift) as u32;
    let placed = read_positions.iter().map(|&p| Position { line: p.line + first_line, ..p });
    let end = range.start + read_positions.len();
    let grown = read_positions.len() as i64 - range.len() as i64;
    file.spans.0.splice(range, placed);
    for later in &mut file.spans.0[end..] {
        later.line = moved(later.line);
    }
    if let Some(starts) = file.starts.get_mut() {
        for start in &mut starts[i + 1..] {
            *start = (*start as i64 + grown) as u32;
        }
    }
    if let Some(entry) = file.entries.get_mut(i) {
        *entry.get_mut() = None;
    }
    if let Some((_, v)) = file.hash.get_index_mut(i) {
        *v = value;
    }
    let old_surprises = std::mem::take(&mut file.surprises);
    let (before, rest): (Vec<_>, Vec<_>) = old_surprises.into_iter().partition(|s| s.at.line <= first_line);
    file.surprises = before;
    let new_lines = new_block.lines().count() as u32;
    file.surprises.extend(surprises.into_iter().filter(|s| s.at.line <= new_lines).map(|mut s| {
        s.at.line += first_line;
        s
    }));
    file.surprises.extend(rest.into_iter().filter(|s| s.at.line > first_line + old_lines).map(|mut s| {
        s.at.line = moved(s.at.line);
        s
    }));
    true
}

/// Where each top-level entry of a block mapping starts (byte offsets of
/// lines beginning at column 0); `None` for texts the splice leaves alone.
fn top_entries(text: &str) -> Option<Vec<usize>> {
    let bytes = text.as_bytes();
    if bytes.contains(&b'\r') || text.starts_with('\u{feff}') {
        return None;
    }
    let mut tops = Vec::new();
    let mut at = 0;
    // Bytes, not chars: this runs on every keystroke over the whole file.
    while at < bytes.len() {
        let line = &bytes[at..];
        let line = &line[..line.iter().position(|&b| b == b'\n').map_or(line.len(), |n| n + 1)];
        // The document may start with a marker; a second one is another document.
        let start_marker = at == 0 && line.trim_ascii_end() == b"---";
        if !start_marker && (line.starts_with(b"---") || line.starts_with(b"...")) {
            return None;
        }
        match line[0] {
            b' ' | b'#' | b'\n' => {}
            _ if start_marker => {}
            // A sequence may sit at its key's indentation.
            b'-' if matches!(line.get(1), None | Some(b' ' | b'\n')) => {}
            b'%' | b'\t' | b'?' | b'[' | b'{' | b'&' | b'*' | b'!' | b'|' | b'>' => return None,
            _ => tops.push(at),
        }
        at += line.len();
    }
    Some(tops)
}

fn newlines(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count()
}

/// Whether a `:` may sit inside a flow sequence (`[a: 1]`): the scanner
/// places such a pair differently when the entry is read alone.
fn pair_in_flow_sequence(block: &str) -> bool {
    let mut depth = 0usize;
    block.chars().any(|c| {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        c == ':' && depth > 0
    })
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The error Puppet's type check gives for a found value that is not a
/// `LookupValue` (see [`Entry::lookup_value`]).
pub fn not_a_lookup_value(key: &str, function: &str, location: Option<&str>, value: &Value) -> Error {
    let mut msg = format!("Value for key '{key}', in hash returned from data_hash function '{function}'");
    if let Some(l) = location {
        msg.push_str(&format!(", when using location '{l}',"));
    }
    let got = crate::puppet::types::Type::infer(value);
    Error::puppet(format!("{msg} has wrong type, expects Puppet::LookupValue, got {got}"))
}

/// The backend a data file's name suggests.
pub(crate) fn function_for(path: &str) -> Option<&'static str> {
    if path.ends_with(".json") {
        Some("json_data")
    } else if path.ends_with(".conf") && !crate::config::environment::is_conf(path) {
        Some("hocon_data")
    } else if path.ends_with(".eyaml") {
        Some("eyaml_lookup_key")
    } else if path.ends_with(".yaml") || path.ends_with(".yml") {
        Some("yaml_data")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_says_what_its_value_holds() {
        // (value, has a `%{` token, is a LookupValue)
        let values = [
            ("plain", false, true),
            ("'%{facts.os}'", true, true),
            ("[a, [b, '%{x}']]", true, true),
            ("{a: {b: 1}, 2: c, 1.5: '%{y}'}", true, true),
            ("{'%{k}': v}", true, true),
            ("a: 1\n:sym: 1\n", false, false),
            ("- a: :sym\n", false, false),
            ("{[k, '%{z}']: v}", true, false),
            ("{~: 1}", false, false),
            ("{true: '100%'}", false, false),
        ];
        for (text, interpolated, lookup_value) in values {
            let (v, _) = crate::formats::yaml::load(text).unwrap().unwrap();
            assert_eq!(Entry::of(&v), Entry { interpolated, lookup_value }, "{text}");
        }
    }
}
