//! A matcher for the `lookup_options` patterns people write
//! (`^profile::\w+::\w+_settings$`): a sequence of single characters and
//! classes, each matched once, optionally (`?`) or repeatedly (`+`, `*`),
//! after `^` and before an optional `$`. It runs
//! the pattern as a bit-parallel automaton (shift-and), one step per
//! character, where regex-lite's PikeVM spends twenty times longer on
//! a key. It reads patterns as [`super::translate`] gives them to regex-lite,
//! for keys without line breaks, and agrees with regex-lite on them; other
//! patterns are left to regex-lite.

/// A pattern this matcher can run.
#[derive(Debug)]
pub(super) struct Simple {
    /// The atoms' classes: bit `i` of `ascii[c]` is set when atom `i` matches `c`.
    ascii: [u64; 128],
    classes: Vec<Class>,
    /// Atoms that may be skipped (`?`, `*`).
    optional: u64,
    /// Atoms that may repeat (`+`, `*`).
    repeat: u64,
    /// Whether the pattern ends with `$`.
    anchored_end: bool,
}

#[derive(Clone, Copy, Debug)]
enum Class {
    Char(char),
    /// `.`: anything but a line break.
    Any,
    /// `\w`, `\d`, `\s` (ASCII, as regex-lite reads them), negated when the flag is set.
    Word(bool),
    Digit(bool),
    Space(bool),
}

impl Class {
    fn matches(self, c: char) -> bool {
        match self {
            Class::Char(x) => x == c,
            Class::Any => c != '\n',
            Class::Word(negated) => (c.is_ascii_alphanumeric() || c == '_') != negated,
            Class::Digit(negated) => c.is_ascii_digit() != negated,
            Class::Space(negated) => matches!(c, '\t' | '\n' | '\x0b' | '\x0c' | '\r' | ' ') != negated,
        }
    }
}

impl Simple {
    /// The pattern as atoms, if it has that shape (and at most 63 of them).
    pub(super) fn new(pattern: &str) -> Option<Simple> {
        let mut chars = pattern.strip_prefix('^')?.chars().peekable();
        let mut classes = Vec::new();
        let (mut optional, mut repeat) = (0u64, 0u64);
        let mut anchored_end = false;
        while let Some(c) = chars.next() {
            let class = match c {
                '$' if chars.peek().is_none() => {
                    anchored_end = true;
                    break;
                }
                '.' => Class::Any,
                '\\' => match chars.next()? {
                    'w' => Class::Word(false),
                    'W' => Class::Word(true),
                    'd' => Class::Digit(false),
                    'D' => Class::Digit(true),
                    's' => Class::Space(false),
                    'S' => Class::Space(true),
                    e if e.is_ascii_punctuation() => Class::Char(e),
                    _ => return None,
                },
                '^' | '$' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' => return None,
                c => Class::Char(c),
            };
            // Bit 63 is the state after the last atom.
            if classes.len() == 63 {
                return None;
            }
            let bit = 1u64 << classes.len();
            match chars.peek() {
                Some('?') => optional |= bit,
                Some('*') => {
                    optional |= bit;
                    repeat |= bit;
                }
                Some('+') => repeat |= bit,
                _ => {}
            }
            if matches!(chars.peek(), Some('?' | '*' | '+')) {
                chars.next();
                // Lazy or possessive forms, or an error: regex-lite decides.
                if matches!(chars.peek(), Some('?' | '*' | '+')) {
                    return None;
                }
            }
            classes.push(class);
        }
        // Class by class: most are one character, which sets one entry.
        let mut ascii = [0u64; 128];
        for (i, class) in classes.iter().enumerate() {
            match *class {
                Class::Char(c) if c.is_ascii() => ascii[c as usize] |= 1 << i,
                Class::Char(_) => {}
                class => {
                    for (c, bits) in ascii.iter_mut().enumerate() {
                        if class.matches(c as u8 as char) {
                            *bits |= 1 << i;
                        }
                    }
                }
            }
        }
        Some(Simple { ascii, classes, optional, repeat, anchored_end })
    }

    /// Whether `key` (without line breaks) matches.
    pub(super) fn is_match(&self, key: &str) -> bool {
        let end = 1u64 << self.classes.len();
        // Bit `i`: the first `i` atoms matched so far.
        let mut state = self.skip(1);
        for c in key.chars() {
            if !self.anchored_end && state & end != 0 {
                return true;
            }
            let m = if c.is_ascii() { self.ascii[c as usize] } else { mask(&self.classes, c) };
            state = self.skip(((state & m) << 1) | (state & ((m & self.repeat) << 1)));
            if state == 0 {
                return false;
            }
        }
        state & end != 0
    }

    /// `state` with every optional atom after a reached position skipped.
    fn skip(&self, mut state: u64) -> u64 {
        loop {
            let next = state | ((state & self.optional) << 1);
            if next == state {
                return state;
            }
            state = next;
        }
    }
}

fn mask(classes: &[Class], c: char) -> u64 {
    classes.iter().enumerate().filter(|(_, class)| class.matches(c)).fold(0, |m, (i, _)| m | 1 << i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Patterns and keys built from small alphabets, in every combination
    /// a seeded generator reaches: the matcher must agree with regex-lite.
    #[test]
    fn agrees_with_regex_lite() {
        let atoms = ["a", "b", ":", "_", ".", r"\w", r"\W", r"\d", r"\s", r"\S", r"\.", r"\<", r"\>", "é"];
        let quantifiers = ["", "", "?", "*", "+"];
        let key_chars = ['a', 'b', ':', '_', '1', ' ', '.', 'é', '-', '<', '>'];
        let mut generated = super::super::tests::Generated::new(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for _ in 0..3000 {
            let pattern = generated.pattern(&atoms, &quantifiers, 6);
            let simple = Simple::new(&pattern).expect(&pattern);
            let regex = regex_lite::Regex::new(&crate::puppet::regexp::translate(&pattern)).unwrap();
            for _ in 0..20 {
                let key = generated.key(&key_chars, 9);
                assert_eq!(simple.is_match(&key), regex.is_match(&key), "{pattern} on {key:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 60_000);
    }

    #[test]
    fn leaves_other_shapes_to_regex_lite() {
        for pattern in ["^a|b", "^(ab)+", "^[ab]", "^a{2}", "^a+?", r"^\h", r"^a\z", "^a$b", "a"] {
            assert!(Simple::new(pattern).is_none(), "{pattern}");
        }
        let long = format!("^{}", "a".repeat(64));
        assert!(Simple::new(&long).is_none());
        assert!(Simple::new(&long[..64]).is_some());
    }
}
