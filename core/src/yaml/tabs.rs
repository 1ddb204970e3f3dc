//! libyaml's rules for tabs, which yaml-rust2 does not keep, so that a text
//! Psych refuses is refused here too. In block context a tab may not stand
//! where a token could start: at a line's start (after any spaces), or after
//! a `-` or `?` indicator. After a plain scalar, whose reading goes on over
//! the next lines' indentation, such a tab ends it with an error of its own
//! when it stands left of the scalar's collection's contents.

use super::errors::{error, Text, CANNOT_START};
use super::{Position, YamlError};

/// What the loader read, where: enough to tell what precedes a tab.
pub(super) struct Mark {
    pub(super) at: Position,
    pub(super) kind: Kind,
}

/// What a [`Mark`] marks.
pub(super) enum Kind {
    /// A plain scalar that is not a key, in a block collection whose
    /// entries start at column `indent` (0-based; -1 at the top level).
    Plain {
        indent: i64,
    },
    /// A quoted scalar.
    Quoted,
    /// A literal or folded block scalar, in a block collection whose entries
    /// start at column `indent` (as for `Plain`).
    Block {
        indent: i64,
    },
    /// A flow collection's opening or closing bracket.
    FlowOpen,
    FlowClose,
    /// A key or an alias: what follows it on later lines is not its text.
    Other,
}

/// Psych's error for the first tab libyaml refuses before position `until`
/// (where reading stopped, if it did).
pub(super) fn misplaced(text: &Text, marks: &[Mark], until: Option<Position>) -> Option<YamlError> {
    let mut flow_depth = 0i64;
    let mut next_mark = 0;
    for (line, column) in text.tabs() {
        let tab = Position { line, column };
        if until.is_some_and(|u| (u.line, u.column) <= (line, column)) {
            return None;
        }
        // A block scalar's text may start with the tab itself.
        while let Some(mark) = marks.get(next_mark).filter(|m| (m.at.line, m.at.column) <= (line, column)) {
            match mark.kind {
                Kind::FlowOpen => flow_depth += 1,
                Kind::FlowClose => flow_depth -= 1,
                _ => {}
            }
            next_mark += 1;
        }
        if flow_depth > 0 {
            continue;
        }
        // Only blanks and indicators can stand before a tab that matters:
        // stop looking at the first other character.
        let line_text = text.line(line);
        let content = line_text.find(|c: char| !matches!(c, ' ' | '\t' | '-' | '?')).unwrap_or(line_text.len());
        let before: String = line_text[..content].chars().take(column as usize - 1).collect();
        if before.chars().count() < column as usize - 1 {
            continue;
        }
        let (could_start, line_start) = token_could_start(&before);
        if !could_start {
            continue;
        }
        let refused = || error(CANNOT_START, tab);
        let Some(prev) = next_mark.checked_sub(1).and_then(|i| marks.get(i)) else { return Some(refused()) };
        match prev.kind {
            Kind::Quoted if text.inside_quotes(prev.at, tab) => continue,
            Kind::Block { indent } => match in_block_scalar(text, prev.at, indent, tab) {
                Some(true) => return Some(error(BLOCK_TAB, block_header(text, prev.at).unwrap_or(prev.at))),
                Some(false) => continue,
                None => return Some(refused()),
            },
            Kind::Plain { indent } if line_start && prev.at.line < line && !text.comment_between(prev.at, tab) => {
                if i64::from(column) - 1 <= indent {
                    return Some(error(BREAKS_PLAIN, prev.at));
                }
            }
            _ => return Some(refused()),
        }
    }
    None
}

pub(super) const BREAKS_PLAIN: &str = "found a tab character that violates indentation while scanning a plain scalar";
pub(super) const BLOCK_TAB: &str =
    "found a tab character where an indentation space is expected while scanning a block scalar";

/// Whether a token could start at the tab that follows `before` on its line:
/// `before` holds only blanks, or `-` and `?` indicators and the spaces after
/// them; and whether it holds only blanks.
fn token_could_start(before: &str) -> (bool, bool) {
    let line_start = before.chars().all(|c| c == ' ' || c == '\t');
    let words = || before.split(' ').filter(|w| !w.is_empty());
    let indicators = !line_start && words().all(|w| matches!(w, "-" | "?"));
    (line_start || indicators, line_start)
}

/// Whether `tab`, at the start of a line after the block scalar that starts
/// at `start` in a collection indented `indent`, stands in the scalar's
/// indentation, where libyaml wants spaces; `Some(false)` when it is the
/// scalar's text (or the scalar gives its indentation, which this does not
/// follow), `None` when the scalar ended before.
fn in_block_scalar(text: &Text, start: Position, indent: i64, tab: Position) -> Option<bool> {
    let Some(start) = block_header(text, start) else { return Some(false) };
    let header: String = text.line(start.line).chars().skip(start.column as usize).collect();
    if header.split('#').next().is_some_and(|h| h.contains(|c: char| c.is_ascii_digit())) {
        return Some(false);
    }
    let mut content = None;
    for n in start.line + 1..tab.line {
        let line = text.line(n);
        if line.trim().is_empty() {
            continue;
        }
        let spaces = line.len() - line.trim_start_matches(' ').len();
        match content {
            None if spaces as i64 > indent => content = Some(spaces),
            Some(c) if spaces >= c => {}
            _ => return None,
        }
    }
    Some(content.is_none_or(|c| (tab.column as usize - 1) < c))
}

/// The `|` or `>` of the block scalar that yaml-rust2 places at `at`: there,
/// or, when it places the scalar at its text, at the end of the line before.
fn block_header(text: &Text, at: Position) -> Option<Position> {
    if matches!(text.char_at(at), Some('|' | '>')) {
        return Some(at);
    }
    let n = (1..at.line).rev().find(|&n| !text.line(n).trim().is_empty())?;
    let line = text.line(n);
    let header = line.split(" #").next().unwrap_or(line).trim_end();
    let indicator = header.trim_end_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
    let column = indicator.chars().count();
    indicator.ends_with(['|', '>']).then_some(Position { line: n, column: column as u32 })
}
