//! Words and places the event parser's errors as libyaml does: Puppet prints
//! Psych's message, and Psych's is libyaml's. libyaml reports where the
//! construct that failed begins (the key that lacks its colon, the
//! collection that lacks an entry), not where the parser noticed, so its
//! messages point at the line to mend.

use super::text::{blank_at, indent, quote_close, Text};
use super::{position, tabs, Position, YamlError};
use std::borrow::Cow;
use yaml_rust2::scanner::ScanError;

pub(super) const CANNOT_START: &str = "found character that cannot start any token while scanning for the next token";
const NO_KEY: &str = "did not find expected key while parsing a block mapping";
/// yaml-rust2's refusal of a tab among the blanks that indent a line.
pub(super) const TAB_INDENT: &str = "tabs disallowed within this context (block indentation)";
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
    if info == "':' must be followed by a valid YAML whitespace" {
        // Only after an explicit key's `:` (see `mend::read_as_blank`):
        // libyaml stops at the tab that follows it.
        let colon = text.text.get(..text.offset(noticed).unwrap_or(0)).unwrap_or("").trim_end_matches([' ', '\t']);
        let line = colon.rfind('\n').map_or(0, |n| n + 1);
        return (CANNOT_START, Position { column: colon[line..].chars().count() as u32 + 1, ..noticed });
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

/// Whether the key at `key` in a flow mapping is on another line than its
/// colon: libyaml wants an implicit key on one line (yaml-rust2 reads `{p`
/// then `ort: 1` as the key "p ort"). An explicit key (`? key`) and a key
/// without a colon are not.
pub(super) fn flow_key_over_lines(text: &Text, key: Position) -> bool {
    let Some(start) = text.offset(key) else { return false };
    let before = text.text[..start].trim_end_matches([' ', '\t']);
    if before.strip_suffix('?').is_some_and(|b| b.is_empty() || b.ends_with([' ', '\t', '\n', '{', ','])) {
        return false;
    }
    let bytes = text.text.as_bytes();
    let blank = |i: usize| blank_at(bytes, i);
    let quoted = matches!(bytes[start], b'"' | b'\'');
    let mut i = if quoted { quote_close(text.text, start).map_or(bytes.len(), |close| close + 1) } else { start };
    while let Some(&b) = bytes.get(i) {
        match b {
            // After a quoted key any colon is its value indicator.
            b':' if quoted || blank(i + 1) || matches!(bytes[i + 1], b',' | b'[' | b']' | b'{' | b'}') => {
                return text.text[start..i].contains('\n');
            }
            b',' | b'[' | b']' | b'{' | b'}' => return false,
            b'#' if blank(i.wrapping_sub(1)) => i += text.text[i..].find('\n').unwrap_or(bytes.len() - i),
            _ if quoted && !blank(i) => return false,
            _ => {}
        }
        i += 1;
    }
    false
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
