//! A text with its lines found, to tell what is at a position: the loader
//! asks it where collections start and what stands around a tab or an error.

use super::Position;
use std::cell::Cell;

/// A text and where its lines start, to find what is at a position.
pub(super) struct Text<'a> {
    pub(super) text: &'a str,
    starts: Vec<usize>,
    /// The last position found (line, column, byte): the loader asks in the
    /// text's order, so on a long line each search goes on from the last
    /// instead of from the line's start.
    cursor: Cell<(u32, u32, usize)>,
}

impl<'a> Text<'a> {
    /// `text`, with its lines found.
    pub(super) fn new(text: &'a str) -> Text<'a> {
        let breaks = text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1);
        Text { text, starts: std::iter::once(0).chain(breaks).collect(), cursor: Cell::new((1, 1, 0)) }
    }

    /// Where the 1-based line `n` starts in the text.
    pub(super) fn start(&self, n: u32) -> Option<usize> {
        self.starts.get((n as usize).checked_sub(1)?).copied()
    }

    /// The 1-based line `n`, without its line break; empty past the end.
    pub(super) fn line(&self, n: u32) -> &'a str {
        let Some(start) = self.start(n) else { return "" };
        let end = self.start(n + 1).map_or(self.text.len(), |next| next - 1);
        let line = &self.text[start..end];
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// Where `at` is in the text, in bytes.
    pub(super) fn offset(&self, at: Position) -> Option<usize> {
        at.column.checked_sub(1)?;
        let (line, column, byte) = self.cursor.get();
        let (mut column, mut byte) =
            if line == at.line && column <= at.column { (column, byte) } else { (1, self.start(at.line)?) };
        let end = self.start(at.line)? + self.line(at.line).len();
        let mut chars = self.text[byte..end].chars();
        while column < at.column {
            byte += chars.next()?.len_utf8();
            column += 1;
        }
        (byte < end).then_some(())?;
        self.cursor.set((at.line, at.column, byte));
        Some(byte)
    }

    /// The character at `at`.
    pub(super) fn char_at(&self, at: Position) -> Option<char> {
        self.text[self.offset(at)?..].chars().next()
    }

    /// Where the quoted scalar that opens at `at` closes, in bytes, if it does.
    pub(super) fn quote_end(&self, at: Position) -> Option<usize> {
        quote_close(self.text, self.offset(at)?)
    }

    /// The line of the bracket that closes a flow collection the parser
    /// ended at `end`: yaml-rust2 ends a flow mapping at its last comma.
    pub(super) fn closing_line(&self, end: Position) -> u32 {
        let Some(from) = self.offset(end) else { return end.line };
        let (mut line, mut comment) = (end.line, false);
        for c in self.text[from..].chars() {
            match c {
                '\n' => (line, comment) = (line + 1, false),
                _ if comment => {}
                '#' => comment = true,
                ']' | '}' => return line,
                ' ' | '\t' | '\r' | ',' => {}
                _ => break,
            }
        }
        end.line
    }

    /// What libyaml reads for a block scalar without content whose header
    /// is at `at`, when nothing but blank lines follows it: yaml-rust2 counts
    /// the header's own line break there. None if something follows.
    pub(super) fn empty_block_scalar(&self, at: Position) -> Option<String> {
        let header = self.offset(at).filter(|&h| self.text[h..].starts_with(['|', '>']))?;
        let line_end = header + self.text[header..].find('\n')?;
        let rest = &self.text[line_end + 1..];
        if !rest.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) {
            return None;
        }
        let keep = self.text[header..line_end].split(['#', ' ', '\t']).next()?.contains('+');
        Some(if keep { "\n".repeat(rest.matches('\n').count()) } else { String::new() })
    }

    /// Whether the quoted scalar that opens at `at` closes.
    pub(super) fn closes_quote(&self, at: Position) -> bool {
        !matches!(self.char_at(at), Some('\'' | '"')) || self.quote_end(at).is_some()
    }

    /// Whether `inner` is inside the quoted scalar that opens at `at`.
    pub(super) fn inside_quotes(&self, at: Position, inner: Position) -> bool {
        match (self.quote_end(at), self.offset(inner)) {
            (Some(end), Some(inner)) => inner < end,
            (None, _) => true,
            _ => false,
        }
    }

    /// Whether a comment starts between `from` and `to`.
    pub(super) fn comment_between(&self, from: Position, to: Position) -> bool {
        let (Some(from), Some(to)) = (self.offset(from), self.offset(to)) else { return false };
        if from > to {
            return false;
        }
        let span = &self.text[from..to];
        span.match_indices('#').any(|(i, _)| i == 0 || matches!(span.as_bytes()[i - 1], b' ' | b'\t' | b'\n'))
    }

    /// The `-` at or just before `at` on its line, else `at`.
    pub(super) fn dash_before(&self, at: Position) -> Position {
        if self.char_at(at) == Some('-') {
            return at;
        }
        let before: Vec<char> = self.line(at.line).chars().take(at.column.saturating_sub(1) as usize).collect();
        match before.iter().rposition(|&c| c != ' ') {
            Some(i) if before[i] == '-' => Position { column: i as u32 + 1, ..at },
            _ => at,
        }
    }

    /// How many lines the text has.
    pub(super) fn lines(&self) -> u32 {
        self.starts.len() as u32
    }

    /// Where the text's tabs are.
    pub(super) fn tabs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (1..=self.lines()).flat_map(move |n| {
            let line = self.line(n);
            line.contains('\t').then_some(line).into_iter().flat_map(move |line| {
                line.chars().enumerate().filter(|&(_, c)| c == '\t').map(move |(i, _)| (n, i as u32 + 1))
            })
        })
    }

    /// The first character of line `n` that is not a space.
    pub(super) fn first_content(&self, n: u32) -> Option<Position> {
        let line = self.line(n);
        (!line.trim().is_empty()).then(|| Position { line: n, column: indent(line) as u32 + 1 })
    }
}

/// Whether byte `i` of `bytes` is a blank or a line break, or past the end:
/// what ends a token.
pub(super) fn blank_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Where the quoted scalar whose quote is at byte `open` of `text` closes:
/// at its closing quote.
pub(super) fn quote_close(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let quote = *bytes.get(open)?;
    let mut i = open + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            // `''` is a quote inside the scalar, `\"` too.
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 1,
            b'\\' if quote == b'"' => i += 1,
            _ if b == quote => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The indentation of `line`, in spaces.
pub(super) fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Where the block scalar header (`|`, `>-`, `|2`...) that ends `line`, if
/// one does, has its `|` or `>`, as a 0-based column.
pub(super) fn block_header_at(line: &str) -> Option<usize> {
    let content = line.split(" #").next().unwrap_or(line).trim_end();
    let indicator = content.trim_end_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
    indicator.ends_with(['|', '>']).then(|| indicator.chars().count() - 1)
}
