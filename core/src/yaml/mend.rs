//! What yaml-rust2 refuses and libyaml reads, and the text to read again:
//! blanks it refuses (a tab after a colon, a comment right after a token, a
//! tab among a quoted scalar's leading blanks), and quoted scalars and flow
//! collections over lines indented less than it wants. The loader reads the
//! mended text and places what it read back where the text had it.

use super::errors::{Open, TAB_INDENT};
use super::text::{blank_at, block_header_at, indent, quote_close, Text};
use super::{position, Position};
use std::ops::Range;
use yaml_rust2::scanner::ScanError;

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
            (colon.ends_with(':') && !is_explicit_value(colon) && text.text[tab..].starts_with('\t'))
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

/// An alias to no anchor that `e` stopped at, and the text with an empty
/// string in its place, as long: Psych resolves aliases once the whole document is
/// read, so an error further on is the one it reports, and reading again
/// finds it.
pub(super) fn unknown_alias(e: &ScanError, text: &Text) -> Option<String> {
    if e.info() != "while parsing node, found unknown anchor" {
        return None;
    }
    let start = text.offset(position(e.marker())).filter(|&s| text.text[s..].starts_with('*'))?;
    let name =
        text.text[start + 1..].split(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}')).next()?;
    // A quoted scalar ends where the alias did; a plain `~` would take in
    // what follows on its line.
    let spaces = " ".repeat(name.chars().count().saturating_sub(1));
    Some([&text.text[..start], "\"\"", &spaces, &text.text[start + 1 + name.len()..]].concat())
}

/// Whether the colon `before` ends with is the first thing on its line, under
/// the `?` of the line before: an explicit key's value, after which libyaml
/// takes no tab for a blank (no simple key went before it).
fn is_explicit_value(before: &str) -> bool {
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    let column = before.len() - start - 1;
    before[start..].trim_start_matches(' ') == ":"
        && before[..start]
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.get(column..).is_some_and(|k| k.starts_with('?')))
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
    let blank = |i: usize| blank_at(bytes, i);
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
            b'\'' | b'"' => i = quote_close(text, i)?,
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
                let Some((open, column)) = flow_start(line) else {
                    at = next;
                    continue;
                };
                // One that does not close ends the looking: each would scan
                // to the end of the text.
                let Some(close) = flow_end(&text[at + open..]).map(|n| at + open + n) else { break };
                let flow = ShortLines { range: at + open..close, indent: column, flow: true };
                if text[flow.range.clone()].contains('\n') {
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
            match quote_close(rest, 0) {
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
/// change first. `shifts` are sorted by line, each line's in the order they
/// were made (see [`by_line`]).
pub(super) fn shifted_back(at: Position, shifts: &[Shift]) -> Position {
    let from = shifts.partition_point(|s| s.line < at.line);
    let to = from + shifts[from..].partition_point(|s| s.line == at.line);
    let column = shifts[from..to].iter().rev().fold(at.column, |column, s| {
        if column > s.indent {
            (i64::from(column) - s.longer).max(1) as u32
        } else {
            column
        }
    });
    Position { column, ..at }
}

/// `shifts` sorted for [`shifted_back`], which then finds a line's at once.
pub(super) fn by_line(shifts: &[Shift]) -> Vec<Shift> {
    let mut sorted = shifts.to_vec();
    sorted.sort_by_key(|s| s.line);
    sorted
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
    // A colon first on its line may be an explicit key's value (see
    // `is_explicit_value`): `read_as_blank` judges it.
    let kept = |line: &str| line.contains(['\'', '"']) || line.trim_start_matches(' ').starts_with(":\t");
    text.split_inclusive('\n')
        .map(|line| if kept(line) { line.to_string() } else { line.replace(":\t", ": ") })
        .collect()
}
