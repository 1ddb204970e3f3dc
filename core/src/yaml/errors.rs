//! Words and places the event parser's errors as libyaml does: Puppet prints
//! Psych's message, and Psych's is libyaml's. libyaml reports where the
//! construct that failed begins (the key that lacks its colon, the
//! collection that lacks an entry), not where the parser noticed, so its
//! messages point at the line to mend.

use super::text::{block_header_at, indent, Text};
use super::{position, tabs, Position, YamlError};
use std::borrow::Cow;
use std::ops::Range;
use yaml_rust2::scanner::ScanError;

pub(super) const CANNOT_START: &str = "found character that cannot start any token while scanning for the next token";
const NO_KEY: &str = "did not find expected key while parsing a block mapping";
/// yaml-rust2's refusal of a tab among the blanks that indent a line.
const TAB_INDENT: &str = "tabs disallowed within this context (block indentation)";
const NO_ENTRY: &str = "did not find expected '-' indicator while parsing a block collection";

/// A collection being read.
pub(super) struct Open {
    /// Where it starts: a flow collection at its bracket, a block mapping at
    /// its first key.
    pub(super) at: Position,
    /// In flow style, or inside a collection that is.
    pub(super) flow: bool,
    /// Opened by a bracket (a flow collection of one pair has none).
    pub(super) bracket: bool,
}

/// `e`, met while reading `text` with collections `open`, as Psych reports it.
pub(super) fn psych_error(e: &ScanError, text: &Text, open: &[Open]) -> YamlError {
    let noticed = position(e.marker());
    let info = e.info();
    if info == "while parsing node, found unknown anchor" {
        // Psych's own error, not libyaml's: it names the alias and neither
        // the file nor a position.
        let name: String = text
            .line(noticed.line)
            .chars()
            .skip(noticed.column as usize)
            .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}'))
            .collect();
        return YamlError { message: format!("Unknown alias: {name}"), at: Some(noticed), names_file: false };
    }
    let (problem, at) = reworded(info, noticed, text, open);
    error(&problem, at)
}

/// What yaml-rust2 refuses and libyaml reads as blank.
pub(super) struct Blank {
    /// Where it is, in bytes.
    pub(super) range: Range<usize>,
    /// A tab after a colon (else a comment right after a token, or a
    /// quoted scalar's line indented by a tab).
    pub(super) tab_after_colon: bool,
}

/// What yaml-rust2 refuses, with `e`, that libyaml reads as blank: a tab
/// after a colon, a comment right after a token (`"value"# note`), or the
/// blanks a quoted scalar's line starts with, where there is a tab.
pub(super) fn read_as_blank(e: &ScanError, text: &Text) -> Option<Blank> {
    let noticed = text.offset(position(e.marker()));
    match e.info() {
        // Raised only on a quoted scalar's line, whose leading blanks
        // libyaml skips, tabs and all.
        "tab cannot be used as indentation" => {
            let tab = noticed?;
            let start = text.text[..tab].rfind('\n').map_or(0, |n| n + 1);
            let rest = &text.text[tab..];
            Some(Blank {
                range: start..tab + rest.len() - rest.trim_start_matches([' ', '\t']).len(),
                tab_after_colon: false,
            })
        }
        "':' must be followed by a valid YAML whitespace" => {
            // yaml-rust2 stops after the blanks that follow the colon.
            let colon = text.text[..noticed?].trim_end_matches([' ', '\t']);
            let tab = colon.len();
            (colon.ends_with(':') && text.text[tab..].starts_with('\t'))
                .then_some(Blank { range: tab..tab + 1, tab_after_colon: true })
        }
        "comments must be separated from other tokens by whitespace" => {
            let hash = noticed.filter(|&at| text.text[at..].starts_with('#'))?;
            let end = text.text[hash..].find(['\n', '\r']).map_or(text.text.len(), |n| hash + n);
            Some(Blank { range: hash..end, tab_after_colon: false })
        }
        _ => None,
    }
}

/// Lines that yaml-rust2 refuses for their indentation and libyaml reads:
/// the lines after the first of a quoted scalar, or of a flow collection,
/// indented no more than the block collection around it. They are read
/// again indented by `indent` columns (see [`reindented`]).
#[derive(Clone)]
pub(super) struct ShortLines {
    /// The scalar or collection, in bytes.
    range: Range<usize>,
    indent: usize,
    /// A flow collection's: only its lines indented less than `indent` are
    /// reindented, and none that libyaml reads as a document marker or a
    /// directive. (A quoted scalar's lines are all reindented.)
    pub(super) flow: bool,
}

/// A quoted scalar over lines indented no more than its collection, that
/// `e` stopped at: its lines are reindented by the quote's column and a
/// space. None if a line it goes on over starts with a document marker,
/// which ends it for libyaml too.
pub(super) fn quoted_over_short_lines(e: &ScanError, text: &Text) -> Option<ShortLines> {
    if e.info() != "invalid indentation in quoted scalar" {
        return None;
    }
    let at = position(e.marker());
    let (open, end) = (text.offset(at)?, text.quote_end(at)?);
    let mut lines = text.text[open..end].split('\n').skip(1);
    (!lines.any(is_marker)).then_some(ShortLines { range: open..end, indent: at.column as usize, flow: false })
}

/// A flow collection over lines indented no more than the block collection
/// around it, that `e` stopped at inside it: libyaml reads a flow
/// collection's lines whatever their indentation, and whatever blanks it is
/// made of, yaml-rust2 wants them indented past the block collection's, by
/// spaces. `open` are the collections being read.
pub(super) fn flow_over_short_lines(e: &ScanError, text: &Text, open: &[Open]) -> Option<ShortLines> {
    let refusals = ["invalid indentation", "invalid indentation in flow construct", TAB_INDENT];
    if !refusals.contains(&e.info()) {
        return None;
    }
    let noticed = text.offset(position(e.marker()))?;
    let outermost = open.iter().position(|o| o.flow).unwrap_or(open.len());
    let block = outermost.checked_sub(1).map(|i| &open[i]);
    // Its entries start at its column (1-based), yaml-rust2's `indent` plus one.
    let indent = block.map_or(0, |b| b.at.column as usize);
    let start = match open.get(outermost) {
        Some(flow) => text.offset(flow.at)?,
        None => flow_read_ahead(text, block.map_or(Some(0), |b| text.offset(b.at))?, noticed)?,
    };
    let end = start + flow_end(&text.text[start..])?;
    (end > noticed).then_some(ShortLines { range: start..end, indent, flow: true })
}

/// Where the flow collection around byte `noticed` opens, when the parser
/// read ahead of it for a key: it starts on the last line before
/// `noticed`'s that holds more than a comment, and after byte `from`. It is
/// the first collection there that does not close before `noticed`.
fn flow_read_ahead(text: &Text, from: usize, noticed: usize) -> Option<usize> {
    let text = text.text;
    let mut end = text[..noticed].rfind('\n')?;
    let line = loop {
        let start = text[..end].rfind('\n').map_or(0, |n| n + 1);
        let content = text[start..end].trim_start();
        if !content.is_empty() && !content.starts_with('#') {
            break start;
        }
        end = start.checked_sub(1)?;
    };
    let mut at = from.max(line);
    while let Some(i) = text.get(at..noticed)?.find(['[', '{']) {
        let start = at + i;
        // Each collection is scanned once: one closed before `noticed`
        // holds none that goes on past it.
        let end = start + flow_end(&text[start..])?;
        if end > noticed {
            return Some(start);
        }
        at = end;
    }
    None
}

/// Where the flow collection `text` opens with its bracket ends, after its
/// closing bracket, found as libyaml's tokens go: brackets inside quoted
/// scalars, comments, plain scalars' text and anchors, aliases and tags do
/// not count. None if it does not close.
fn flow_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let blank = |i: usize| bytes.get(i).is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    let flow_indicator = |b: u8| matches!(b, b',' | b'[' | b']' | b'{' | b'}');
    let (mut depth, mut plain, mut i) = (0usize, false, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let comment = b == b'#' && (!plain || i == 0 || blank(i - 1));
        let ends_plain = flow_indicator(b) || comment || (b == b':' && blank(i + 1));
        if plain && !ends_plain {
            i += 1;
            continue;
        }
        plain = false;
        match b {
            _ if comment => i += text[i..].find('\n').unwrap_or(text.len() - i),
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'\'' | b'"' => i = quoted_end(text, i)?,
            b'&' | b'*' | b'!' => {
                while i + 1 < bytes.len() && !blank(i + 1) && !flow_indicator(bytes[i + 1]) {
                    i += 1;
                }
            }
            // In a flow collection a colon is an indicator even before a
            // word, and `?` and `-` before a blank.
            b',' | b' ' | b'\t' | b'\r' | b'\n' | b':' => {}
            b'?' | b'-' if blank(i + 1) => {}
            _ => plain = true,
        }
        i += 1;
    }
    None
}

/// Where the quoted scalar whose quote is at byte `open` of `text` closes,
/// at its closing quote.
fn quoted_end(text: &str, open: usize) -> Option<usize> {
    let quote = text.as_bytes()[open];
    let mut i = open + 1;
    while let Some(&b) = text.as_bytes().get(i) {
        match b {
            // `''` is a quote inside the scalar, `\"` too.
            b'\'' if quote == b'\'' && text.as_bytes().get(i + 1) == Some(&b'\'') => i += 1,
            b'\\' if quote == b'"' => i += 1,
            _ if b == quote => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether libyaml reads `line` as starting with a document marker.
fn is_marker(line: &str) -> bool {
    (line.starts_with("---") || line.starts_with("..."))
        && matches!(line.as_bytes().get(3), None | Some(b' ' | b'\t' | b'\n' | b'\r'))
}

/// `text` with the lines of each of `shorts` (in the text's order) after
/// its first indented by its `indent` instead of by their own blanks, which
/// a flow collection or a quoted scalar drops either way; and, for each
/// such line, its number, its new indentation and how many characters
/// longer it got, for [`shifted_back`].
pub(super) fn reindented(text: &str, shorts: &[ShortLines]) -> (String, Vec<Shift>) {
    let (mut out, mut shifts, mut from) = (String::with_capacity(text.len() + 64), Vec::new(), 0);
    let mut line = 1;
    let mut counted = 0;
    for short in shorts {
        let (open, end, indent) = (short.range.start, short.range.end, short.indent);
        line += text[counted..open].matches('\n').count() as u32;
        counted = end;
        for (n, _) in text[open..end].match_indices('\n') {
            line += 1;
            let start = open + n + 1;
            let rest = text[start..].trim_start_matches([' ', '\t']);
            let blanks = text[start..].len() - rest.len();
            let deep = blanks >= indent && !text[start..start + blanks].contains('\t');
            let kept = short.flow
                && (deep || rest.starts_with(['\n', '\r', '%']) || rest.is_empty() || is_marker(&text[start..]));
            if kept {
                continue;
            }
            out.push_str(&text[from..start]);
            out.extend(std::iter::repeat_n(' ', indent));
            from = start + blanks;
            shifts.push(Shift { line, indent: indent as u32, longer: indent as i64 - blanks as i64 });
        }
    }
    out.push_str(&text[from..]);
    (out, shifts)
}

/// The flow collections after `first` that go on over lines and open
/// where a block mapping's key or a block sequence's `-` puts them, with
/// the indentation their lines need there: found ahead, so that one
/// reading mends the lines of a file written in that style. Lines in block
/// scalars are passed over, and none after a quoted scalar over lines.
pub(super) fn later_flows(text: &str, first: &ShortLines) -> Vec<ShortLines> {
    let from = first.range.end;
    let mut flows = Vec::new();
    let mut at = text[from..].find('\n').map_or(text.len(), |n| from + n + 1);
    let mut block_scalar: Option<usize> = None;
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let line = &text[at..end];
        let mut next = end + 1;
        match block_scalar {
            Some(header) if line.trim().is_empty() || indent(line) > header => {}
            _ if opens_quote(line) => break,
            _ => {
                block_scalar = block_header_at(line).map(|_| indent(line));
                let flow = flow_start(line).and_then(|(open, column)| {
                    let close = at + open + flow_end(&text[at + open..])?;
                    Some(ShortLines { range: at + open..close, indent: column, flow: true })
                });
                if let Some(flow) = flow.filter(|f| text[f.range.clone()].contains('\n')) {
                    next = text[flow.range.end..].find('\n').map_or(text.len(), |n| flow.range.end + n + 1);
                    flows.push(flow);
                }
            }
        }
        at = next;
    }
    flows
}

/// Whether a quoted scalar that goes on past `line` opens on it, as a key,
/// a value or an entry; or a quote stands where one may.
fn opens_quote(line: &str) -> bool {
    let mut rest = line.trim_start_matches(' ');
    while let Some(entry) = rest.strip_prefix("- ") {
        rest = entry.trim_start_matches(' ');
    }
    loop {
        if rest.starts_with(['"', '\'']) {
            match quoted_end(rest, 0) {
                Some(close) => rest = &rest[close + 1..],
                None => return true,
            }
        }
        match rest.find(": ") {
            Some(colon) => rest = rest[colon + 2..].trim_start_matches(' '),
            None => return false,
        }
        if !rest.starts_with(['"', '\'']) {
            return false;
        }
    }
}

/// Where a flow collection opens on `line` as a block mapping's value or a
/// block sequence's entry, in bytes, and the column (1-based) of that key
/// or `-`: the block collection's entries start there.
fn flow_start(line: &str) -> Option<(usize, usize)> {
    let mut at = indent(line);
    let mut dash = None;
    while line[at..].starts_with("- ") {
        dash = Some(at);
        at += 1 + indent(&line[at + 1..]);
    }
    let rest = &line[at..];
    if rest.starts_with(['[', '{']) {
        // Without a `-`, the collection is the value of a key on a line
        // before, whose column is not known here.
        return dash.map(|dash| (at, dash + 1));
    }
    let key = rest.find(": ")?;
    if rest[..key].contains(['"', '\'', '#', '[', '{', '&', '*', '!']) {
        return None;
    }
    let value = at + key + 2 + indent(&rest[key + 2..]);
    line[value..].starts_with(['[', '{']).then_some((value, at + 1))
}

/// A line [`reindented`], or made longer by a space (see
/// [`super::anchors`]): past column `indent`, what it holds moved `longer`
/// columns to the right.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shift {
    pub(super) line: u32,
    pub(super) indent: u32,
    pub(super) longer: i64,
}

/// `at` in the text before the lines `shifts` name were changed, the last
/// change first.
pub(super) fn shifted_back(at: Position, shifts: &[Shift]) -> Position {
    let column = shifts.iter().rev().filter(|s| s.line == at.line).fold(at.column, |column, s| {
        if column > s.indent {
            (i64::from(column) - s.longer).max(1) as u32
        } else {
            column
        }
    });
    Position { column, ..at }
}

/// `text` with a space for the tab after every colon that is followed by
/// one, on a line without quotes, unless a block scalar (`|`, `>`) or a
/// quoted scalar over several lines may hold such a colon as text. Elsewhere
/// a colon followed by a blank ends a plain scalar, so such a tab is never
/// part of a value. The text keeps its length.
pub(super) fn spaced_colons(text: &str) -> String {
    let block_scalar = |l: &str| block_header_at(l).is_some();
    let open_quote = |l: &str| l.matches('"').count() % 2 == 1 || l.matches('\'').count() % 2 == 1;
    if text.lines().any(|l| block_scalar(l) || open_quote(l)) {
        return text.to_string();
    }
    text.split_inclusive('\n')
        .map(|line| if line.contains(['\'', '"']) { line.to_string() } else { line.replace(":\t", ": ") })
        .collect()
}

/// libyaml's error for a directive other than `%YAML` and `%TAG`, which
/// yaml-rust2 skips.
pub(super) fn unknown_directive(text: &Text) -> Option<YamlError> {
    for n in 1..=text.lines() {
        let line = text.line(n);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let name = line.strip_prefix('%')?.split([' ', '\t']).next();
        if !matches!(name, Some("YAML" | "TAG")) {
            return Some(error(
                "found unknown directive name while scanning a directive",
                Position { line: n, column: 1 },
            ));
        }
    }
    None
}

/// Whether the empty key yaml-rust2 read at `at` is a `: value` without a
/// key (which yaml-rust2 reads as a null key and libyaml refuses) rather
/// than an empty explicit key (`?` alone), which both place at the colon.
pub(super) fn is_keyless_value(text: &Text, at: Position) -> bool {
    let Some(colon) = text.offset(at).filter(|_| text.char_at(at) == Some(':')) else { return false };
    // What stands before the colon, comments aside (`? # note`).
    let mut preceding = text.text[..colon].trim_end();
    loop {
        let line_start = preceding.rfind('\n').map_or(0, |i| i + 1);
        let line = &preceding[line_start..];
        let comment =
            if line.trim_start().starts_with('#') { Some(line_start) } else { line.find(" #").map(|i| line_start + i) };
        match comment {
            Some(at) => preceding = preceding[..at].trim_end(),
            None => break,
        }
    }
    match preceding.strip_suffix('?') {
        Some(rest) => !(rest.is_empty() || rest.ends_with(char::is_whitespace)),
        None => true,
    }
}

/// The error for a `: value` without its key, at `at` in `mapping`.
pub(super) fn keyless_value(text: &Text, mapping: &Open, at: Position) -> YamlError {
    if mapping.flow {
        error("did not find expected node content while parsing a flow node", at)
    } else {
        error(NO_KEY, mapping_start(text, mapping.at))
    }
}

/// Psych's message for `problem` at `at`.
pub(super) fn error(problem: &str, at: Position) -> YamlError {
    YamlError { message: format!("{problem} at line {} column {}", at.line, at.column), at: Some(at), names_file: true }
}

/// Psych's wording of `info` and the position it reports.
fn reworded<'a>(info: &'a str, noticed: Position, text: &Text, open: &[Open]) -> (Cow<'a, str>, Position) {
    let (problem, at) = placed(info, noticed, text, open);
    // yaml-rust2 puts the context first ("while scanning a quoted scalar,
    // found unexpected end of stream"), libyaml last.
    let problem = match problem.strip_prefix("while ").and_then(|rest| rest.split_once(", ")) {
        Some((context, problem)) => {
            let context = match context {
                "scanning an anchor or alias" if text.char_at(at) == Some('*') => "scanning an alias",
                "scanning an anchor or alias" => "scanning an anchor",
                context => context,
            };
            Cow::Owned(format!("{problem} while {context}"))
        }
        None => Cow::Borrowed(problem),
    };
    (problem, at)
}

/// libyaml's wording of the errors it words or places differently, and the
/// position it reports.
fn placed<'a>(info: &'a str, mut noticed: Position, text: &Text, open: &[Open]) -> (&'a str, Position) {
    if info.starts_with("tabs disallowed") {
        // libyaml stops at the tab itself; yaml-rust2 just after it.
        noticed.column = noticed.column.saturating_sub(1).max(1);
    }
    if info == "found character that cannot start any token"
        || info.starts_with("unexpected character: ")
        || info == TAB_INDENT
    {
        return (CANNOT_START, noticed);
    }
    let innermost = open.last().map(|o| (o.at, text.char_at(o.at)));
    let block = |start: Position, sequence: bool| {
        if sequence {
            (NO_ENTRY, start)
        } else {
            (NO_KEY, mapping_start(text, start))
        }
    };
    let in_block = |(at, c): (Position, Option<char>)| block(at, c == Some('-'));
    match (info, innermost) {
        ("while parsing a node, did not find expected node content", Some((_, Some('[' | '{')))) => {
            ("did not find expected node content while parsing a flow node", noticed)
        }
        ("while parsing a node, did not find expected node content", _) => {
            ("did not find expected node content while parsing a block node", noticed)
        }
        // Inside a flow collection libyaml blames the collection.
        (_, Some((at, Some('[')))) => ("did not find expected ',' or ']' while parsing a flow sequence", at),
        (_, Some((at, Some('{')))) => ("did not find expected ',' or '}' while parsing a flow mapping", at),
        ("simple key expect ':'" | "simple key expected", _) => (
            "could not find expected ':' while scanning a simple key",
            key_start(text, noticed.line).unwrap_or(noticed),
        ),
        ("while parsing a block mapping, did not find expected key", Some((at, _))) => block(at, false),
        ("while parsing a block collection, did not find expected '-' indicator", Some((at, _))) => block(at, true),
        // `'x'y`: to libyaml, a second scalar where a collection wants its
        // next key or entry: a new mapping's, where the first is a key.
        ("invalid trailing content after double-quoted scalar", _) => {
            let key = text.first_content(noticed.line).filter(|&at| matches!(text.char_at(at), Some('\'' | '"')));
            match (key, innermost) {
                (Some(key), _) => (NO_KEY, key),
                (None, Some(open)) => in_block(open),
                (None, None) => (NO_KEY, noticed),
            }
        }
        // `|2` and a line indented less: libyaml ends the scalar there and
        // finds the line where the collection wants its next key or entry.
        ("wrongly indented line in block scalar", Some(open)) => in_block(open),
        // libyaml reads a quoted scalar over lines indented less than its
        // mapping (yaml-rust2 does not), to its closing quote or the end.
        ("invalid indentation in quoted scalar", _) if !text.closes_quote(noticed) => {
            ("found unexpected end of stream while scanning a quoted scalar", noticed)
        }
        ("while parsing a quoted scalar, did not find expected hexadecimal number", _) => {
            // libyaml's spelling.
            ("did not find expected hexdecimal number while parsing a quoted scalar", noticed)
        }
        ("while scanning a plain scalar, found a tab", _) => (tabs::BREAKS_PLAIN, noticed),
        ("a block scalar content cannot start with a tab", _) => (tabs::BLOCK_TAB, noticed),
        ("while scanning a verbatim tag, did not find the expected '>'", _) => {
            ("did not find the expected '>' while scanning a tag", noticed)
        }
        _ => (info, noticed),
    }
}

/// Where libyaml places a block mapping whose first key is at `first_key`:
/// there, or at the `?` before it.
pub(super) fn mapping_start(text: &Text, first_key: Position) -> Position {
    explicit_key_indicator(text, first_key).unwrap_or(first_key)
}

/// Whether the key at `key` follows a `?` on its line.
pub(super) fn is_explicit_key(text: &Text, key: Position) -> bool {
    explicit_key_indicator(text, key).is_some()
}

/// The `?` before the key at `key` on its line, if there is one.
fn explicit_key_indicator(text: &Text, key: Position) -> Option<Position> {
    let before = &text.text[text.start(key.line)?..text.offset(key)?];
    match before.trim_end().strip_suffix('?') {
        Some(rest) if rest.is_empty() || rest.ends_with(' ') => {
            Some(Position { column: rest.chars().count() as u32 + 1, ..key })
        }
        _ => None,
    }
}

/// Where the key that lacks its colon begins. yaml-rust2 notices on the
/// first line after the key, or at the end of the text. A key is the first
/// token of its line, and a plain or quoted key may go on over lines
/// indented more deeply: so the key is the least indented (the last, of
/// equals) of the bare lines (no `: `, no `- `, no comment) that end just
/// before line `noticed`.
fn key_start(text: &Text, noticed: u32) -> Option<Position> {
    let mut lines = (1..noticed).rev().map(|n| (n, text.line(n))).filter(|(_, l)| !l.trim().is_empty());
    let (mut key, last) = lines.find(|(_, l)| !l.trim_start().starts_with('#'))?;
    let mut least = indent(last);
    for (n, l) in lines {
        if !is_bare(l) {
            break;
        }
        if indent(l) < least {
            (key, least) = (n, indent(l));
        }
    }
    Some(Position { line: key, column: least as u32 + 1 })
}

/// A line that may be all or part of a key without its colon.
fn is_bare(line: &str) -> bool {
    let content = line.trim();
    !(content.starts_with('#')
        || content == "-"
        || content.starts_with("- ")
        || content.starts_with("? ")
        || content.starts_with(": ")
        || content.ends_with(':')
        || content.contains(": ")
        || content.contains(" #"))
}
