//! A fast path for the block-style YAML most data files are written in:
//! block mappings and sequences of plain, single-line quoted and literal
//! (`|`) scalars, with comments. The event parser spends most of a cold
//! lookup reading such files; this reads them several times faster and gives
//! exactly what it gives (value, spans, surprises). Anything outside that
//! subset (flow collections, anchors, tags, merge keys, folded or multi-line
//! scalars, escapes, tabs, documents, and every error) makes it give up, and
//! the event parser reads the text instead: so it never needs an error
//! message of its own. Tests and the `yaml` fuzz target compare the two.
//! On the way it notes what its user asks of each top-level value (see
//! [`Notes`]), which would otherwise take a walk over the value later.
//!
//! A long text is cut into pieces at top-level keys, read at once on the
//! cores there are, and joined: the pieces' readings must also be exactly
//! the whole's (same tests, same fuzz target).

use super::{decimal, is_word, surprising, tokenize, Document, Notes, Position, Spans, Surprise, MAX_DEPTH, MAX_NODES};
use crate::threads;
use crate::value::{Map, Value};

/// The text needs the event parser.
struct GiveUp;

type Read<T> = Result<T, GiveUp>;

/// The least a piece is worth: starting a thread costs about what reading
/// this much does.
const MIN_PIECE: usize = 64 * 1024;

/// How many pieces to read `text` in: a long text is read at once on as
/// many cores as there are, in pieces of at least [`MIN_PIECE`] bytes.
pub(super) fn pieces_for(text: &str) -> usize {
    threads::available().min(text.len() / MIN_PIECE)
}

/// Reads `text` if it is in the subset, `None` otherwise, cutting it into
/// about `pieces` pieces that are read at once; noting [`Spans`] if `spans`.
pub(super) fn load<N: Notes>(text: &str, pieces: usize, spans: bool) -> Option<Document<N>> {
    load_from(text, &piece_starts(text, pieces), spans)
}

/// Where to cut `text` into about `pieces` pieces of equal length. A cut
/// goes before a line whose first byte is a letter, a digit, `_` or a quote:
/// in the subset, such a line can only start a top-level key. The first
/// piece keeps the first such line, the document's first key.
fn piece_starts(text: &str, pieces: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let key_at =
        |p: usize| bytes.get(p).is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'\'' | b'"'));
    let cut_after = |from: usize| {
        let mut p = from;
        while let Some(n) = bytes[p..].iter().position(|&b| b == b'\n') {
            p += n + 1;
            if key_at(p) {
                return Some(p);
            }
        }
        None
    };
    let mut starts = vec![0];
    if pieces < 2 {
        return starts;
    }
    // The first piece holds the first key.
    let Some(mut last) = (if key_at(0) { Some(0) } else { cut_after(0) }) else {
        return starts;
    };
    for k in 1..pieces {
        match cut_after((bytes.len() * k / pieces).max(last)) {
            Some(p) => {
                starts.push(p);
                last = p;
            }
            None => break,
        }
    }
    starts
}

/// The top-level entries of one piece of a text, to be joined with the
/// other pieces' in order.
struct Piece<N> {
    pairs: Vec<(Value, Value)>,
    /// The [`Spans`] of the entry values; the first piece's start with the
    /// top-level mapping's position.
    positions: Vec<Position>,
    surprises: Vec<Surprise>,
    nodes: usize,
    symbols: bool,
    /// What was noted of each of `pairs`' values.
    entries: Vec<N>,
}

/// Reads `text` in pieces that start at `starts` (the first at 0).
fn load_from<N: Notes>(text: &str, starts: &[usize], spans: bool) -> Option<Document<N>> {
    let mut jobs = Vec::with_capacity(starts.len());
    let mut line = 1;
    for (i, &start) in starts.iter().enumerate() {
        if i > 0 {
            line += text.as_bytes()[starts[i - 1]..start].iter().filter(|&&b| b == b'\n').count() as u32;
        }
        jobs.push((start, starts.get(i + 1).copied().unwrap_or(text.len()), line));
    }
    let pieces: Vec<Piece<N>> =
        threads::map(jobs, |(start, end, line)| read_piece(&text[start..end], start == 0, line, spans).ok())
            .into_iter()
            .collect::<Option<_>>()?;
    // The event parser's limit is on the whole document.
    if pieces.iter().map(|p| p.nodes).sum::<usize>() > MAX_NODES {
        return None;
    }
    let mut pieces = pieces.into_iter();
    let first = pieces.next()?;
    let (mut pairs, mut positions, mut surprises, mut symbols, mut entries) =
        (first.pairs, first.positions, first.surprises, first.symbols, first.entries);
    for piece in pieces {
        pairs.extend(piece.pairs);
        positions.extend(piece.positions);
        surprises.extend(piece.surprises);
        symbols |= piece.symbols;
        entries.extend(piece.entries);
    }
    let value = mapping_of(pairs).ok()?;
    Some(Document { value: Some((value, Spans::new(positions))), surprises, symbols, entries })
}

/// Reads one piece of a text, `first` or starting with a top-level key at
/// line `line`.
fn read_piece<N: Notes>(text: &str, first: bool, line: u32, spans: bool) -> Read<Piece<N>> {
    if !suitable(text) {
        return Err(GiveUp);
    }
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        line,
        line_start: 0,
        next: None,
        nodes: 0,
        depth: 0,
        surprises: Vec::new(),
        spans,
        positions: Vec::new(),
        top: Vec::new(),
        pairs: Vec::new(),
        items: Vec::new(),
        symbols: false,
        entry: N::START,
        top_entries: Vec::new(),
    };
    if first {
        r.note(Position::default());
        let at = r.document()?;
        r.fill(0, at);
    } else {
        r.rest()?;
    }
    Ok(Piece {
        pairs: r.top,
        positions: r.positions,
        surprises: r.surprises,
        nodes: r.nodes,
        symbols: r.symbols,
        entries: r.top_entries,
    })
}

/// A mapping of `pairs` in order, kept in their list. A repeated key is
/// left to the event parser: it keeps its first place and takes its last
/// value, as in Ruby, which would take the positions of the value it
/// replaces out of the middle of the spans.
fn mapping_of(pairs: Vec<(Value, Value)>) -> Read<Value> {
    Map::from_unique(pairs).map(|map| Value::Hash(map.into())).ok_or(GiveUp)
}

/// Characters the subset leaves to the event parser: tabs and carriage
/// returns (their rules are subtle), what YAML does not allow unescaped, and
/// what YAML 1.1 reads as a line break (NEL, LS, PS).
fn suitable(text: &str) -> bool {
    const CHUNK: usize = 32;
    let bytes = text.as_bytes();
    // In chunks without early exits, which compile to vector instructions.
    bytes.chunks(CHUNK).enumerate().all(|(n, chunk)| {
        let (mut control, mut lead) = (false, false);
        for &b in chunk {
            control |= (b < 0x20 && b != b'\n') | (b == 0x7f);
            // The first bytes of C1 controls and NEL (0xC2), LS and PS
            // (0xE2), a byte order mark, U+FFFE and U+FFFF (0xEF).
            lead |= matches!(b, 0xc2 | 0xe2 | 0xef);
        }
        let special_at = |i: usize| {
            matches!(
                bytes[i..],
                [0xc2, 0x80..=0x9f, ..]
                    | [0xe2, 0x80, 0xa8 | 0xa9, ..]
                    | [0xef, 0xbb, 0xbf, ..]
                    | [0xef, 0xbf, 0xbe | 0xbf, ..]
            )
        };
        !(control || lead && (n * CHUNK..n * CHUNK + chunk.len()).any(special_at))
    })
}

struct Reader<'a, N> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// 1-based line of `pos`.
    line: u32,
    line_start: usize,
    /// The indentation of the content line `pos` is on, `None` at the end.
    next: Option<usize>,
    nodes: usize,
    depth: usize,
    surprises: Vec<Surprise>,
    /// Whether to note [`Spans`]: a reader that never shows where a value
    /// is reads faster without.
    spans: bool,
    /// The [`Spans`] of what is read, each value's position taken when it
    /// starts (a collection's filled in at its end).
    positions: Vec<Position>,
    /// The entries of the top-level mapping.
    top: Vec<(Value, Value)>,
    /// The entries of the open mappings below it, then of the open
    /// sequences: a collection is built at its end, at its exact size.
    pairs: Vec<(Value, Value)>,
    items: Vec<Value>,
    /// A symbol was read.
    symbols: bool,
    /// What was noted of the top-level value being read so far.
    entry: N,
    /// What was noted of each top-level value.
    top_entries: Vec<N>,
}

impl<'a, N: Notes> Reader<'a, N> {
    /// The document's top-level mapping, whose entries it leaves in `top`;
    /// where the mapping starts.
    fn document(&mut self) -> Read<Position> {
        // An optional `---` line, after comments if any.
        if self.next_content() == Some(0) && self.bytes[self.pos..].starts_with(b"---") && self.blank_at(self.pos + 3) {
            self.pos += 3;
            self.end_line()?;
            self.skip_blank()?;
        }
        self.enter()?;
        self.top_level()
    }

    /// Top-level entries from a line that starts one: a piece of a text
    /// after the first.
    fn rest(&mut self) -> Read<Position> {
        // Inside the top-level mapping, as the first piece's reader is.
        self.depth = 1;
        self.next_content();
        self.top_level()
    }

    /// The top-level entries from here to the end, left in `top`.
    fn top_level(&mut self) -> Read<Position> {
        if self.next != Some(0) || self.is_seq_entry() || self.marker() {
            return Err(GiveUp);
        }
        let at = self.entries(0, true)?;
        match self.next {
            None => Ok(at),
            Some(_) => Err(GiveUp),
        }
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    /// Where the value at `pos` is, for the spans.
    fn at(&self) -> Position {
        self.place(self.pos)
    }

    /// Where the value at `pos` (on the current line) is, for the spans.
    fn place(&self, pos: usize) -> Position {
        match self.spans {
            true => self.position(pos),
            false => Position::default(),
        }
    }

    /// Notes the next value's position in the spans.
    fn note(&mut self, at: Position) {
        if self.spans {
            self.positions.push(at);
        }
    }

    /// Fills in the position noted at `slot`.
    fn fill(&mut self, slot: usize, at: Position) {
        if let Some(noted) = self.positions.get_mut(slot) {
            *noted = at;
        }
    }

    /// The position of `pos`, on the current line.
    fn position(&self, pos: usize) -> Position {
        // Columns count characters.
        let before = &self.text[self.line_start..pos];
        let column = if before.is_ascii() { before.len() } else { before.chars().count() };
        Position { line: self.line, column: column as u32 + 1 }
    }

    /// Whether the byte at `at` ends a token: space, line break or the end.
    fn blank_at(&self, at: usize) -> bool {
        matches!(self.byte(at), None | Some(b' ' | b'\n'))
    }

    fn is_seq_entry(&self) -> bool {
        self.byte(self.pos) == Some(b'-') && self.blank_at(self.pos + 1)
    }

    /// A `---` or `...` at `pos`, which starts a line.
    fn marker(&self) -> bool {
        let rest = &self.bytes[self.pos..];
        (rest.starts_with(b"---") || rest.starts_with(b"...")) && self.blank_at(self.pos + 3)
    }

    fn new_line(&mut self, after_break: usize) {
        self.pos = after_break;
        self.line += 1;
        self.line_start = after_break;
    }

    /// Moves past the line break at or after `p`, or to the end of the text.
    fn past_line(&mut self, p: usize) {
        match self.bytes[p..].iter().position(|&b| b == b'\n') {
            Some(n) => self.new_line(p + n + 1),
            None => self.pos = self.bytes.len(),
        }
    }

    /// The first byte at or after `p` that is not a space.
    fn after_spaces(&self, mut p: usize) -> usize {
        while self.byte(p) == Some(b' ') {
            p += 1;
        }
        p
    }

    /// From a line start, skips blank and comment lines; stops at the first
    /// character of the next content line and returns its indentation.
    fn next_content(&mut self) -> Option<usize> {
        loop {
            let start = self.pos;
            let p = self.after_spaces(start);
            match self.byte(p) {
                None => {
                    self.pos = p;
                    self.next = None;
                    return None;
                }
                Some(b'\n' | b'#') => self.past_line(p),
                Some(_) => {
                    self.pos = p;
                    self.next = Some(p - start);
                    return self.next;
                }
            }
        }
    }

    /// [`Reader::next_content`], giving up at a document marker.
    fn skip_blank(&mut self) -> Read<()> {
        if self.next_content() == Some(0) && self.marker() {
            return Err(GiveUp);
        }
        Ok(())
    }

    /// The rest of a line after a token: spaces and a comment.
    fn end_line(&mut self) -> Read<()> {
        let start = self.pos;
        let p = self.after_spaces(start);
        match self.byte(p) {
            None | Some(b'\n') => self.past_line(p),
            Some(b'#') if p > start => self.past_line(p),
            Some(_) => return Err(GiveUp),
        }
        Ok(())
    }

    fn count(&mut self) -> Read<()> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(GiveUp);
        }
        Ok(())
    }

    fn enter(&mut self) -> Read<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(GiveUp);
        }
        self.count()
    }

    /// A block mapping whose first key is at `pos`, in column `indent`.
    fn mapping(&mut self, indent: usize) -> Read<Value> {
        self.enter()?;
        let slot = self.positions.len();
        self.note(Position::default());
        let base = self.pairs.len();
        let at = self.entries(indent, false)?;
        self.fill(slot, at);
        self.depth -= 1;
        mapping_of(self.pairs.drain(base..).collect())
    }

    /// The entries of a block mapping whose first key is at `pos`, in
    /// column `indent`, pushed to `pairs` (to `top` for the `top` level);
    /// where the mapping starts.
    fn entries(&mut self, indent: usize, top: bool) -> Read<Position> {
        let mut first = None;
        loop {
            // libyaml places a block mapping at its first key.
            let at = *first.get_or_insert_with(|| self.at());
            let key = self.key()?;
            if top {
                self.entry = N::START;
            } else {
                self.entry.note_key(&key);
            }
            let value = self.value(indent)?;
            if top {
                self.top_entries.push(self.entry);
                self.top.push((key, value));
            } else {
                self.pairs.push((key, value));
            }
            match self.next {
                Some(n) if n == indent && !self.is_seq_entry() => {}
                Some(n) if n > indent => return Err(GiveUp),
                _ => return Ok(at),
            }
        }
    }

    /// A block sequence whose first `-` is at `pos`, in column `indent`.
    fn sequence(&mut self, indent: usize, indentless: bool) -> Read<Value> {
        self.enter()?;
        // libyaml places a sequence at its first `-`.
        let at = self.at();
        self.note(at);
        let base = self.items.len();
        loop {
            self.pos += 1;
            let dash_end = self.pos;
            self.skip_spaces();
            let item = match self.byte(self.pos) {
                None | Some(b'\n' | b'#') if indentless => return Err(GiveUp),
                None | Some(b'\n' | b'#') => {
                    self.pos = dash_end;
                    self.below(indent, false)?
                }
                _ if self.is_seq_entry() => return Err(GiveUp),
                _ if self.is_key() => {
                    let column = self.pos - self.line_start;
                    self.mapping(column)?
                }
                _ => self.inline(indent)?,
            };
            self.items.push(item);
            match self.next {
                Some(n) if n == indent && self.is_seq_entry() => {}
                Some(n) if n > indent => return Err(GiveUp),
                _ => break,
            }
        }
        self.depth -= 1;
        let items: Vec<Value> = self.items.drain(base..).collect();
        Ok(Value::Array(items.into()))
    }

    fn skip_spaces(&mut self) {
        self.pos = self.after_spaces(self.pos);
    }

    /// The value after a key's `:`.
    fn value(&mut self, indent: usize) -> Read<Value> {
        let colon_end = self.pos;
        self.skip_spaces();
        match self.byte(self.pos) {
            // A sequence may sit at its key's indentation. The comment keeps
            // the space before it.
            None | Some(b'\n' | b'#') => {
                self.pos = colon_end;
                self.below(indent, true)
            }
            _ => self.inline(indent),
        }
    }

    /// A collection starting on a later line, indented more than `indent`
    /// (or a sequence as much, if `indentless`).
    fn below(&mut self, indent: usize, indentless: bool) -> Read<Value> {
        self.end_line()?;
        self.skip_blank()?;
        match self.next {
            Some(n) if n > indent && self.is_seq_entry() => self.sequence(n, false),
            Some(n) if n > indent => self.mapping(n),
            Some(n) if n == indent && indentless && self.is_seq_entry() => self.sequence(n, true),
            // An empty value: the event parser places it.
            _ => Err(GiveUp),
        }
    }

    /// A scalar starting on the current line (a literal one goes on below
    /// it), in a collection indented `indent`.
    fn inline(&mut self, indent: usize) -> Read<Value> {
        let (start, at) = (self.pos, self.at());
        self.count()?;
        let value = match self.byte(self.pos) {
            Some(b'\'' | b'"') => Value::String(self.quoted()?),
            Some(b'|') => {
                let text = self.literal(indent)?;
                self.note(at);
                self.skip_blank()?;
                let value = Value::String(text);
                self.entry.note_scalar(&value);
                return Ok(value);
            }
            _ => {
                let text = self.plain()?;
                if self.byte(self.pos) == Some(b':') {
                    return Err(GiveUp);
                }
                self.resolve(text, start)?
            }
        };
        self.entry.note_scalar(&value);
        self.note(at);
        self.end_line()?;
        self.skip_blank()?;
        Ok(value)
    }

    /// A mapping key, and the `:` after it.
    fn key(&mut self) -> Read<Value> {
        let start = self.pos;
        self.count()?;
        let key = match self.byte(self.pos) {
            Some(b'\'' | b'"') => {
                let key = self.quoted()?;
                self.skip_spaces();
                Value::String(key)
            }
            _ => {
                let text = self.plain()?;
                self.resolve(text, start)?
            }
        };
        // Psych's merge key, plain or quoted (only a `!!str` tag makes it a string).
        if key.as_str() == Some("<<") {
            return Err(GiveUp);
        }
        // The event parser's limit on a key's length (1,024 characters) is
        // its own to report; counting bytes gives up sooner, never later.
        if self.byte(self.pos) != Some(b':') || !self.blank_at(self.pos + 1) || self.pos - start > 1024 {
            return Err(GiveUp);
        }
        self.pos += 1;
        Ok(key)
    }

    /// Whether a key starts at `pos`: a scalar on this line followed by `: `.
    fn is_key(&self) -> bool {
        let line = &self.bytes[self.pos..];
        let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
        let colon = |rest: &[u8]| rest.first() == Some(&b':') && matches!(rest.get(1), None | Some(b' '));
        match line.first() {
            // A quote that is doubled gives one (`'it''s'`), a wrong guess
            // only costs giving up later.
            Some(&q @ (b'\'' | b'"')) => {
                let mut i = 1;
                while i < line.len() {
                    if line[i] == q && line.get(i + 1) != Some(&q) {
                        return colon(line[i + 1..].trim_ascii_start());
                    }
                    i += 1 + (line[i] == q) as usize;
                }
                false
            }
            _ => (0..line.len())
                .take_while(|&i| !(line[i] == b' ' && line.get(i + 1) == Some(&b'#')))
                .any(|i| colon(&line[i..])),
        }
    }

    /// A quoted scalar on one line, without escapes.
    fn quoted(&mut self) -> Read<String> {
        let quote = self.bytes[self.pos];
        let mut out = String::new();
        let mut from = self.pos + 1;
        let mut p = from;
        loop {
            match self.byte(p) {
                None | Some(b'\n') => return Err(GiveUp),
                Some(b'\\') if quote == b'"' => return Err(GiveUp),
                Some(b) if b == quote => {
                    out.push_str(&self.text[from..p]);
                    if quote == b'\'' && self.byte(p + 1) == Some(b'\'') {
                        from = p + 1;
                        p += 2;
                        continue;
                    }
                    self.pos = p + 1;
                    return Ok(out);
                }
                Some(_) => p += 1,
            }
        }
    }

    /// A plain scalar on one line; stops before `: `, ` #` or the line's
    /// end, and leaves `pos` at that `:`, or else just after the scalar's
    /// last character (trailing spaces are not part of it).
    fn plain(&mut self) -> Read<&'a str> {
        let start = self.pos;
        match self.byte(start) {
            Some(b'-' | b'?' | b':') if self.blank_at(start + 1) => return Err(GiveUp),
            Some(
                b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\'' | b'"' | b'%' | b'@'
                | b'`',
            )
            | None => return Err(GiveUp),
            _ => {}
        }
        let rest = &self.bytes[start..];
        let (mut i, mut end) = (0, 0);
        loop {
            while i < rest.len() && !matches!(rest[i], b'\n' | b':' | b' ') {
                i += 1;
            }
            if i > 0 && rest[i - 1] != b' ' {
                end = i;
            }
            match rest.get(i) {
                None | Some(b'\n') => break,
                Some(b':') if matches!(rest.get(i + 1), None | Some(b' ' | b'\n')) => break,
                Some(b' ') if rest.get(i + 1) == Some(&b'#') => break,
                Some(b':') => {
                    i += 1;
                    end = i;
                }
                Some(_) => i += 1,
            }
        }
        // A value continued on the next line is left to the event parser by
        // the callers' indentation checks.
        self.pos = start + if rest.get(i) == Some(&b':') { i } else { end };
        let text: &'a str = self.text;
        Ok(&text[start..start + end])
    }

    /// Psych's reading of a plain scalar that starts at `start` on the
    /// current line, noting a surprising one.
    fn resolve(&mut self, text: &str, start: usize) -> Read<Value> {
        // A plain decimal or word is what it looks like.
        if let Some(i) = decimal(text) {
            return Ok(i);
        }
        if is_word(text) {
            return Ok(Value::String(text.to_string()));
        }
        // An error is the event parser's to place and report.
        let value = tokenize(text.to_string(), Position::default()).map_err(|_| GiveUp)?;
        self.symbols |= matches!(value, Value::Symbol(_));
        // Any other word, one starting with a letter, is read as what it says.
        let word = matches!(value, Value::String(_)) && text.starts_with(|c: char| c.is_alphabetic());
        if let Some(reading) = (!word).then(|| surprising(text, &value)).flatten() {
            let at = self.position(start);
            self.surprises.push(Surprise { at, text: text.to_string(), reading });
        }
        Ok(value)
    }

    /// A literal block scalar (`|`, `|-`, `|+`) whose content is indented
    /// more than `indent`; leaves `pos` at the start of the line after it.
    fn literal(&mut self, indent: usize) -> Read<String> {
        self.pos += 1;
        let chomp = match self.byte(self.pos) {
            Some(c @ (b'-' | b'+')) => {
                self.pos += 1;
                c
            }
            _ => b' ',
        };
        if self.byte(self.pos).is_some_and(|b| b.is_ascii_digit()) {
            return Err(GiveUp);
        }
        self.end_line()?;
        // The first line sets the content's indentation; an empty one, or
        // none, is left to the event parser.
        let first = self.after_spaces(self.pos);
        let n = first - self.pos;
        if n <= indent || self.blank_at(first) {
            return Err(GiveUp);
        }
        let mut text = String::new();
        // Line breaks after the last content line, the last line's own included.
        let mut breaks = 0;
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let p = self.after_spaces(start);
            let spaces = p - start;
            if self.byte(p) == Some(b'\n') {
                if spaces > n {
                    return Err(GiveUp);
                }
                breaks += 1;
                self.new_line(p + 1);
                continue;
            }
            if spaces < n {
                break;
            }
            let Some(len) = self.bytes[start..].iter().position(|&b| b == b'\n') else {
                return Err(GiveUp);
            };
            text.extend(std::iter::repeat_n('\n', breaks));
            text.push_str(&self.text[start + n..start + len]);
            breaks = 1;
            self.new_line(start + len + 1);
        }
        match chomp {
            b'-' => {}
            b'+' => text.extend(std::iter::repeat_n('\n', breaks)),
            _ => text.push('\n'),
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::data::Entry;
    use std::path::Path;

    /// The fast path's reading, if it read `text`, after checking that it is
    /// the event parser's.
    fn agrees(text: &str) -> bool {
        let Some(Document { value: Some((value, spans)), surprises, symbols, entries }) = load::<Entry>(text, 1, true)
        else {
            return false;
        };
        assert!(symbols || !super::super::hooks::holds_symbol(&value), "a symbol unnoted in {text:?}");
        let walked: Vec<Entry> = value.as_hash().map_or(Vec::new(), |h| h.values().map(Entry::of).collect());
        assert_eq!(entries, walked, "what reading learnt of the entries of {text:?}");
        let reference = super::super::load_with_event_parser(text);
        // Debug text, so that NaN equals NaN.
        let (fast, reference) = (
            format!("{:?}", Ok::<_, super::super::YamlError>((Some((value, spans)), surprises))),
            format!("{reference:?}"),
        );
        let mut from = fast.bytes().zip(reference.bytes()).take_while(|(a, b)| a == b).count().saturating_sub(200);
        while !fast.is_char_boundary(from) {
            from -= 1;
        }
        assert!(fast == reference, "the fast path disagrees on {text:?}:\n{}\n{}", &fast[from..], &reference[from..]);
        true
    }

    #[test]
    fn notes_whether_a_text_has_symbols() {
        for (text, symbols) in [("a: b\n", false), ("':a': 1\nb: ':c'\n", false), ("a: :b\n", true), (":a: 1\n", true)]
        {
            let Some(document) = load::<Entry>(text, 1, true) else { panic!("gave up on {text:?}") };
            assert_eq!(document.symbols, symbols, "{text:?}");
        }
    }

    fn texts_under(dir: &str, out: &mut Vec<String>) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if let Ok(doc) = crate::document::case::Document::from_yaml(&text) {
                out.extend(doc.files.into_iter().map(|(_, t)| t.to_string()));
            }
            out.push(text);
        }
    }

    /// Every case, gallery example and past fuzz crash, and the data files in
    /// them (the fuzz seeds are made of the same files).
    fn corpus() -> Vec<String> {
        let mut texts = Vec::new();
        for dir in
            ["../tests/conformance/cases", "../tests/conformance/own", "../www/examples", "../fuzz/regressions/yaml"]
        {
            texts_under(dir, &mut texts);
        }
        texts
    }

    #[test]
    fn agrees_with_the_event_parser_on_every_case_gallery_example_and_seed() {
        let texts = corpus();
        let read = texts.iter().filter(|t| agrees(t)).count();
        // Most of them are in the subset: the fast path is not giving up on everything.
        assert!(read * 2 > texts.len(), "read {read} of {}", texts.len());
    }

    #[test]
    fn reads_the_same_without_spans() {
        for text in corpus() {
            let with = load::<Entry>(&text, 1, true).map(|mut d| {
                if let Some((_, spans)) = &mut d.value {
                    *spans = Spans::default();
                }
                d
            });
            assert_eq!(format!("{:?}", load::<Entry>(&text, 1, false)), format!("{with:?}"), "{text:?}");
        }
    }

    #[test]
    fn reads_a_text_cut_into_pieces_as_it_reads_it_whole() {
        let mut cut = 0;
        for text in corpus() {
            let whole = format!("{:?}", load::<Entry>(&text, 1, true));
            // As many pieces as bytes: a cut at every line that allows one.
            let every = piece_starts(&text, text.len());
            let mut ways: Vec<Vec<usize>> = every[1..].iter().map(|&c| vec![0, c]).collect();
            ways.push(every.clone());
            for starts in ways.into_iter().filter(|s| s.len() > 1) {
                assert_eq!(
                    format!("{:?}", load_from::<Entry>(&text, &starts, true)),
                    whole,
                    "cut at {starts:?}: {text:?}"
                );
                cut += 1;
            }
        }
        assert!(cut > 1000, "only {cut} ways of cutting");
    }

    #[test]
    fn reads_the_subset_as_the_event_parser_does() {
        for text in [
            "a: 1\n",
            "a: 1",
            "---\na: 1\n",
            "# c\n--- # c\na: 1\n",
            "a: yes\nb: 0755\nc: 1e3\nd: ~\ne: 1,000\nf: :sym\ng: 2001-01-01x\nh: -1\ni: .5\n",
            "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
            "a:\n- 1\n- 2\nb:\n  - x\n  - y: 1\n    z: 2\n  -\n    w: 3\n",
            "a:\n- k: 1\n  l:\n  - m\n- n\n",
            "a:   'it''s' # c\nb: \"q\"   \n'k': 1\n\"k2\"  : 2\n'x: y': 'a: b'\n",
            "a  : 1\nb: x:y\nc: http://x # c\nd: x#y\n",
            "a: |\n  one\n\n  two\n\nb: |-\n  x\n   y\nc: |+\n  k\n\n\nd: 1\n",
            "a: | # c\n  #x\n   y\n",
            "a: |+\n  k\n\n",
            "a:\n  - |\n    text\n  - b\nc:\n- d: |\n    e\n  f: 1\n",
            "yes: 1\n\u{e9}: 0755\nb:\n  \u{e9}\u{e9}: 1,000\nc:\n  - on\n",
            "true: 1\n1: 2\n~: 3\n",
            "\u{e9}\u{e9}: \u{e9}\n  # c\nb:\n  \u{e9}: 1\n",
            "a: 1\n\n   \n# end\n   ",
            "a:\n  # c\n\n  b: 1 # c\n    # c\n",
            "a: # c\n  b: 1\nc:\n  - # c\n    d: 1\n  -   # c\n    - e\n",
        ] {
            assert!(agrees(text), "the fast path gave up on {text:?}");
        }
    }

    #[test]
    fn leaves_the_rest_to_the_event_parser() {
        for text in [
            "",
            "# only\n",
            "- a\n",
            "a: [1]\n",
            "a: {b: 1}\n",
            "a: - b\n",
            "a:\n",
            "a:\nb: 1\n",
            "a: b\n  c\n",
            "a: b: c\n",
            "a:\n  b: 1\n c: 2\n",
            "<<: {a: 1}\n",
            "a: 1\na: 2\nb: 3\n",
            "a:\n  b: 1\n  c: 2\n  b:\n    d: 3\n",
            "0.0: a\n-0.0: b\n",
            "'<<':\n  a: 1\nb: 2\n",
            "\"<<\":\n  a: 1\n",
            "a: 1\n---\nb: 2\n",
            "a: 1\n...\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "a: \"\\n\"\n",
            "a: 'x\n  y'\n",
            "a: |2\n  x\n",
            "a: >\n  x\n",
            "a: |\n\n  x\n",
            "a: |\n  x",
            "a:\tb\n",
            "a: 1\r\n",
            "\u{feff}a: 1\n",
            "a: \u{85}\n",
            "a: \u{9f}\n",
            "a: x\u{2028}y\n",
            "a: x\u{feff}\n",
            "a: \u{ffff}\n",
            "a: \u{1}\n",
            "a: 2001-01-01\n",
            "- - a\n",
            "a:\n- b\n- - c\n",
            "? a\n: b\n",
            "%YAML 1.1\n---\na: 1\n",
            "  a:\n - b\n",
            "a: |  \n",
            "... : a\n",
            "a: 'x'y\n",
            "a: 1 #c\nb",
        ] {
            assert!(load::<Entry>(text, 1, true).is_none(), "the fast path read {text:?}");
        }
        // A repeated key among more entries than a map compares one by one.
        let many = |indent: &str, last: &str| {
            let keys: String = (0..10).map(|i| format!("{indent}k{i}: {i}\n")).collect();
            format!("{keys}{indent}{last}: x\n")
        };
        for text in [many("", "k3"), format!("a:\n{}", many("  ", "k9")), many("", "0.0").replace("k0", "-0.0")] {
            assert!(load::<Entry>(&text, 1, true).is_none(), "the fast path read {text:?}");
            assert!(
                load::<Entry>(&text.replace(": x", "_other: x"), 1, true).is_some(),
                "the fast path gave up on {text:?}"
            );
        }
    }
}
