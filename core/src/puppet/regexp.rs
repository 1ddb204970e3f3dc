//! Ruby regular expressions as regex-lite reads them: lookup_options keys,
//! knockout prefixes and the traps "Why" looks for are Ruby regexps. What
//! the two syntaxes share passes through; what differs is translated here,
//! and what regex-lite cannot express is refused by its compiler.

/// Ruby's message for a pattern whose parentheses or character classes
/// do not close, if they do not.
pub fn unbalanced(pattern: &str) -> Option<&'static str> {
    let mut depth = 0i32;
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                depth -= 1;
                if depth < 0 {
                    return Some("unmatched close parenthesis");
                }
            }
            _ => {}
        }
    }
    if depth > 0 {
        Some("end pattern with unmatched parenthesis")
    } else if in_class {
        Some("premature end of char-class")
    } else {
        None
    }
}

/// Ruby's `^`/`$` match at line boundaries and `\A`/`\z`/`\Z` at the ends;
/// `\h` is a hex digit, `\0` NUL. The rest of the common syntax is shared.
pub fn to_regex_lite(pattern: &str) -> String {
    format!("(?m){}", translate(pattern))
}

/// A Ruby regexp in regex-lite's syntax, but for `^` and `$`, which match
/// only at the ends of the text as regex-lite reads them.
pub fn translate(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') => out.push_str("[^0-9a-fA-F]"),
                Some('Z') => out.push_str(r"(?:\n?\z)"),
                // Word boundaries to regex-lite, plain characters to Ruby.
                Some(c @ ('<' | '>' | '/')) => out.push(c),
                Some('0') => out.push_str(r"\x00"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push_str(r"\\"),
            }
        } else {
            out.push(c);
        }
    }
    out
}
