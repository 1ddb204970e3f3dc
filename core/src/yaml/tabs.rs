//! libyaml's rules for tabs, which yaml-rust2 does not keep, so that a text
//! Psych refuses is refused here too. In block context a tab may not stand
//! where a token could start: at a line's start (after any spaces), or after
//! a `-` or `?` indicator. After a plain scalar, whose reading goes on over
//! the next lines' indentation, such a tab ends it with an error of its own
//! when it stands left of the scalar's collection's contents.

use super::errors::{error, CANNOT_START};
use super::text::{block_header_at, indent, Text};
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
    let mut block: Option<BlockScalar> = None;
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
            Kind::Block { indent } => {
                let scalar = match &mut block {
                    Some(b) if b.mark == prev.at => b,
                    _ => block.insert(BlockScalar::new(text, prev.at, indent)),
                };
                match scalar.at_tab(text, tab) {
                    Some(true) => return Some(error(BLOCK_TAB, scalar.header.unwrap_or(prev.at))),
                    Some(false) => continue,
                    None => return Some(refused()),
                }
            }
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

/// Reading the lines after a block scalar's header, as far as its tabs ask;
/// kept from one tab to the next, so that a block of tab-indented text is
/// read once.
struct BlockScalar {
    /// The scalar's mark.
    mark: Position,
    /// The scalar's `|` or `>`; `None` when the scalar is not followed here
    /// (no header found, or one that gives the indentation).
    header: Option<Position>,
    /// Where the collection's entries start (libyaml's `indent`).
    indent: i64,
    /// The indentation of the scalar's text, once a line shows it.
    content: Option<usize>,
    /// The last line read.
    read_to: u32,
    /// A line before ended the scalar.
    ended: bool,
}

impl BlockScalar {
    fn new(text: &Text, mark: Position, indent: i64) -> BlockScalar {
        let header = block_header(text, mark).filter(|h| {
            let rest: String = text.line(h.line).chars().skip(h.column as usize).collect();
            !rest.split('#').next().is_some_and(|r| r.contains(|c: char| c.is_ascii_digit()))
        });
        let read_to = header.map_or(0, |h| h.line);
        BlockScalar { mark, header, indent, content: None, read_to, ended: false }
    }

    /// Whether `tab`, at the start of a line after the scalar's header,
    /// stands in the scalar's indentation, where libyaml wants spaces;
    /// `Some(false)` when it is the scalar's text (or the scalar is not
    /// followed), `None` when the scalar ended before.
    fn at_tab(&mut self, text: &Text, tab: Position) -> Option<bool> {
        if self.header.is_none() {
            return Some(false);
        }
        while !self.ended && self.read_to + 1 < tab.line {
            self.read_to += 1;
            let line = text.line(self.read_to);
            if line.trim().is_empty() {
                continue;
            }
            let spaces = indent(line);
            match self.content {
                None if spaces as i64 > self.indent => self.content = Some(spaces),
                Some(c) if spaces >= c => {}
                _ => self.ended = true,
            }
        }
        (!self.ended).then(|| self.content.is_none_or(|c| (tab.column as usize - 1) < c))
    }
}

/// The `|` or `>` of the block scalar that yaml-rust2 places at `at`: there,
/// or, when it places the scalar at its text, at the end of the line before.
fn block_header(text: &Text, at: Position) -> Option<Position> {
    if matches!(text.char_at(at), Some('|' | '>')) {
        return Some(at);
    }
    let n = (1..at.line).rev().find(|&n| !text.line(n).trim().is_empty())?;
    block_header_at(text.line(n)).map(|column| Position { line: n, column: column as u32 + 1 })
}
