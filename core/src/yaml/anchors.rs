//! Anchor and alias names as libyaml reads them: letters, digits, `-` and
//! `_`. yaml-rust2 takes any character up to a blank or a flow indicator, so
//! `&db.defaults` is a name to it and an error to libyaml, and
//! `&profile::base` is the name `profile` followed by `::base` to libyaml.

use super::errors;
use super::mend::Shift;
use super::{position, YamlError};
use yaml_rust2::scanner::{Scanner, Token, TokenType};

/// A text's anchor and alias names, ended where libyaml ends them.
pub(super) struct Names {
    /// The text with a space after each name that libyaml ends early, if
    /// one does.
    pub(super) text: Option<String>,
    /// Where the spaces went, to place positions back.
    pub(super) shifts: Vec<Shift>,
    /// libyaml's error at the first name it refuses: one followed by a
    /// character that may not follow a name.
    pub(super) refused: Option<YamlError>,
}

/// Reads the names of `text`'s anchors and aliases as libyaml does, up to
/// the first error yaml-rust2's scanner meets.
pub(super) fn as_libyaml(text: &str) -> Names {
    let mut names = Names { text: None, shifts: Vec::new(), refused: None };
    if !text.contains(['&', '*']) {
        return names;
    }
    let mut cuts = Vec::new();
    // Where the last token was, in characters and bytes: the scanner counts
    // characters, and a lone `\r` ends a line for it but not for `Text`.
    let (mut chars, mut bytes) = (0, 0);
    // The spaces put on the current line so far, which move what follows.
    let (mut line, mut spaced) = (0, 0);
    for Token(mark, token) in Scanner::new(text.chars()) {
        let (name, what) = match token {
            TokenType::Anchor(name) => (name, "anchor"),
            TokenType::Alias(name) => (name, "alias"),
            _ => continue,
        };
        let ahead = mark.index().checked_sub(chars).and_then(|n| text[bytes..].char_indices().nth(n));
        let Some((offset, _)) = ahead else { break };
        let start = bytes + offset;
        (chars, bytes) = (mark.index(), start);
        let length = name.find(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_').unwrap_or(name.len());
        let at = position(&mark);
        // What libyaml lets follow a name; yaml-rust2 ends one at a blank or
        // a flow indicator, and libyaml takes neither `[` nor `{` after it.
        let follows = if length == name.len() {
            text[start + 1 + length..].chars().next()
        } else {
            name[length..].chars().next()
        };
        if length == 0
            || matches!(follows, Some('[' | '{'))
            || (length < name.len() && !matches!(follows, Some(':' | '?' | '%' | '@' | '`')))
        {
            let problem = format!("did not find expected alphabetic or numeric character while scanning an {what}");
            names.refused = Some(errors::error(&problem, at));
            break;
        }
        if length == name.len() {
            continue;
        }
        if at.line != line {
            (line, spaced) = (at.line, 0);
        }
        // After the `&` or `*` and the name, both ASCII; the column counts
        // the spaces put earlier on the line, as [`super::mend::shifted_back`]
        // undoes the last first.
        cuts.push(start + 1 + length);
        names.shifts.push(Shift { line: at.line, indent: at.column + 1 + length as u32 + spaced, longer: 1 });
        spaced += 1;
    }
    if !cuts.is_empty() {
        let mut spaced = String::with_capacity(text.len() + cuts.len());
        let mut from = 0;
        for cut in cuts {
            spaced.push_str(&text[from..cut]);
            spaced.push(' ');
            from = cut;
        }
        spaced.push_str(&text[from..]);
        names.text = Some(spaced);
    }
    names
}
