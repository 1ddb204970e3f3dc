//! The in-memory filesystem a lookup reads: absolute paths to file texts.
//!
//! Directories are implied by the files below them; a path ending in `/`
//! stands for an empty directory, as in the case format. A file's text may
//! be supplied when it is first read ([`Files::insert_deferred`]), so that a
//! command over a real control repository reads only the files a lookup
//! needs, not every manifest, template and file of every module.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// Absolute path → file text. Directories exist where files are below them.
#[derive(Clone, Debug, Default)]
pub struct Files {
    files: BTreeMap<String, Text>,
}

/// What supplies a file's text when it is first read: the text, or why it
/// cannot be read (the message a lookup that reads it fails with).
pub type Loader = dyn Fn() -> Result<String, String> + Send + Sync;

/// A file's text, or how to get it when it is first read.
#[derive(Clone)]
enum Text {
    Here(String),
    Deferred { text: OnceLock<Result<String, String>>, load: Arc<Loader> },
}

impl Text {
    fn get(&self) -> Result<&str, &str> {
        match self {
            Text::Here(t) => Ok(t),
            Text::Deferred { text, load } => text.get_or_init(|| load()).as_deref().map_err(String::as_str),
        }
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Text::Here(t) => t.fmt(f),
            Text::Deferred { text, .. } => match text.get() {
                Some(Ok(t)) => t.fmt(f),
                Some(Err(e)) => write!(f, "(cannot be read: {e})"),
                None => f.write_str("(not read yet)"),
            },
        }
    }
}

impl PartialEq for Files {
    /// The same paths with the same texts (deferred texts are read).
    fn eq(&self, other: &Files) -> bool {
        self.files.len() == other.files.len()
            && self.files.keys().zip(other.files.keys()).all(|(a, b)| a == b && self.text(a) == other.text(b))
    }
}

impl Files {
    /// An empty filesystem.
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds or replaces a file (or, for a path ending in `/`, a directory).
    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), Text::Here(text.into()));
    }

    /// Adds or replaces a file whose text `load` gives the first time the
    /// file is read; until then only its path is known, which is all that
    /// listing directories, globs and checking for files need.
    pub fn insert_deferred(
        &mut self,
        path: impl Into<String>,
        load: impl Fn() -> Result<String, String> + Send + Sync + 'static,
    ) {
        self.files.insert(path.into(), Text::Deferred { text: OnceLock::new(), load: Arc::new(load) });
    }

    /// Removes a file; true if it was there.
    pub fn remove(&mut self, path: &str) -> bool {
        self.files.remove(path).is_some()
    }

    /// Every file's path, in order; no text is read.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().filter(|p| !p.ends_with('/')).map(String::as_str)
    }

    /// Every file and its text, in path order (deferred texts are read; a
    /// file that cannot be read is left out).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().filter(|(p, _)| !p.ends_with('/')).filter_map(|(p, t)| Some((p.as_str(), t.get().ok()?)))
    }

    /// The text of a file; none for a file that cannot be read.
    pub fn read(&self, path: &str) -> Option<&str> {
        self.load(path)?.ok()
    }

    /// The text of a file, or why it cannot be read (its loader's message).
    pub fn load(&self, path: &str) -> Option<Result<&str, &str>> {
        if path.ends_with('/') {
            return None;
        }
        self.text(path)
    }

    fn text(&self, path: &str) -> Option<Result<&str, &str>> {
        self.files.get(&*collapsed(path)).map(Text::get)
    }

    /// True for a file.
    pub fn is_file(&self, path: &str) -> bool {
        !path.ends_with('/') && self.files.contains_key(&*collapsed(path))
    }

    /// True for a directory: something lies below it.
    pub fn is_dir(&self, path: &str) -> bool {
        if path == "/" {
            return true;
        }
        let path = collapsed(path);
        let prefix = [path.trim_end_matches('/'), "/"].concat();
        let from = (std::ops::Bound::Included(prefix.as_str()), std::ops::Bound::Unbounded);
        self.files.range::<str, _>(from).next().is_some_and(|(p, _)| p.starts_with(&prefix))
    }

    /// True for a file or a directory.
    pub fn exists(&self, path: &str) -> bool {
        self.is_file(path) || self.is_dir(path)
    }

    /// The names directly inside a directory, sorted, with whether each is a directory.
    pub fn list(&self, dir: &str) -> Vec<(String, bool)> {
        let prefix = if dir.ends_with('/') { dir.to_string() } else { [dir, "/"].concat() };
        let mut out: Vec<(String, bool)> = Vec::new();
        for (p, _) in self.files.range(prefix.clone()..) {
            let Some(rest) = p.strip_prefix(&prefix) else { break };
            let (name, is_dir) = match rest.find('/') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            if name.is_empty() {
                continue;
            }
            match out.last_mut() {
                Some((last, d)) if last == name => *d |= is_dir,
                _ => out.push((name.to_string(), is_dir)),
            }
        }
        out
    }

    /// Files matching a glob pattern, in the order Ruby's `Pathname.glob`
    /// gives them, less the directories: `*`, `?`, `[...]`, `{a,b}` and
    /// `**/`. Directories are read in sorted order; `{a,b}` alternatives keep
    /// their order, and `**` visits each entry's matches before its subdirectories.
    ///
    /// A pattern whose `{a,b}` groups multiply out to more than
    /// [`MAX_ALTERNATIVES`] patterns, or that needs more than [`MAX_TRIES`]
    /// names tried against its segments, is refused: the work grows with the
    /// product of its groups and the tree's size.
    pub fn glob(&self, pattern: &str) -> Result<Vec<String>, String> {
        let mut out = self.glob_entries(pattern)?;
        out.retain(|p| self.is_file(p));
        Ok(out)
    }

    /// The files and directories matching a glob pattern, as Ruby's
    /// `Dir.glob` gives them (see [`Files::glob`]).
    pub fn glob_entries(&self, pattern: &str) -> Result<Vec<String>, String> {
        let too_many = || {
            format!(
                "The glob '{pattern}' has too many alternatives (more than {MAX_ALTERNATIVES} patterns or {MAX_TRIES} names to try)"
            )
        };
        let mut out = Vec::new();
        let mut tries = MAX_TRIES;
        for alternative in expand(pattern, true).ok_or_else(too_many)? {
            let segments: Vec<&str> = alternative.split('/').filter(|s| !s.is_empty()).collect();
            if !alternative.starts_with('/') {
                continue;
            }
            // The directories the pattern names outright (a hierarchy's
            // datadir) are one lookup, not one a level.
            let named = segments.iter().take_while(|s| !has_magic(s) && !s.contains('{')).count();
            let named = named.min(segments.len().saturating_sub(1));
            let dir: String = segments[..named].iter().flat_map(|s| ["/", s]).collect();
            if named == 0 || self.is_dir(&dir) {
                self.glob_in(&dir, &segments[named..], &mut out, &mut tries).ok_or_else(too_many)?;
            }
        }
        Ok(out)
    }

    /// `None` when a segment has too many alternatives.
    fn glob_in(&self, dir: &str, segments: &[&str], out: &mut Vec<String>, tries: &mut usize) -> Option<()> {
        let Some((first, rest)) = segments.split_first() else { return Some(()) };
        let path_of = |name: &str| [dir, "/", name].concat();
        let listing = || self.list(if dir.is_empty() { "/" } else { dir });
        if *first == "**" {
            let Some((next, after)) = rest.split_first() else { return Some(()) };
            let alternatives = expand_braces(next)?;
            for (name, is_dir) in listing() {
                *tries = tries.checked_sub(alternatives.len().max(1))?;
                let visible = !name.starts_with('.');
                if alternatives
                    .iter()
                    .any(|a| (visible || a.starts_with('.')) && fnmatch(a.as_bytes(), name.as_bytes()))
                {
                    self.descend(&path_of(&name), is_dir, after, out, tries)?;
                }
                if is_dir && visible {
                    self.glob_in(&path_of(&name), segments, out, tries)?;
                }
            }
            return Some(());
        }
        for alternative in expand_braces(first)? {
            *tries = tries.checked_sub(1)?;
            if !has_magic(&alternative) {
                let path = path_of(&alternative);
                if self.exists(&path) {
                    self.descend(&path, self.is_dir(&path), rest, out, tries)?;
                }
                continue;
            }
            for (name, is_dir) in listing() {
                *tries = tries.checked_sub(1)?;
                if name.starts_with('.') && !alternative.starts_with('.') {
                    continue;
                }
                if fnmatch(alternative.as_bytes(), name.as_bytes()) {
                    self.descend(&path_of(&name), is_dir, rest, out, tries)?;
                }
            }
        }
        Some(())
    }

    fn descend(&self, path: &str, is_dir: bool, rest: &[&str], out: &mut Vec<String>, tries: &mut usize) -> Option<()> {
        if rest.is_empty() {
            out.push(path.to_string());
        } else if is_dir {
            self.glob_in(path, rest, out, tries)?;
        }
        Some(())
    }
}

/// The path as the file system reads it: a hierarchy path whose
/// interpolations are empty (`data/dc9//.yaml`) names `data/dc9/.yaml` to
/// Ruby's file calls, as to the operating system's.
pub(crate) fn collapsed(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.contains("//") {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The most patterns a glob's `{a,b}` groups may multiply out to.
pub const MAX_ALTERNATIVES: usize = 1_000;

/// The most names a glob may try against its segments, all alternatives
/// together: a glob over the whole of a large repository tries a few
/// thousand.
pub const MAX_TRIES: usize = 200_000;

/// Expands `{a,b}` groups (nested too) in order, as Ruby's glob does; only
/// those holding a `/` when `across_segments` (they choose between whole
/// paths, and Ruby globs each alternative in turn). `None` past
/// [`MAX_ALTERNATIVES`] patterns.
fn expand(pattern: &str, across_segments: bool) -> Option<Vec<String>> {
    let mut out = Vec::new();
    expand_into(pattern, across_segments, &mut out)?;
    Some(out)
}

fn expand_into(pattern: &str, across_segments: bool, out: &mut Vec<String>) -> Option<()> {
    let Some((open, close)) = first_group(pattern, across_segments) else {
        if out.len() == MAX_ALTERNATIVES {
            return None;
        }
        out.push(pattern.to_string());
        return Some(());
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    for alternative in split_alternatives(&pattern[open + 1..close]) {
        expand_into(&format!("{head}{alternative}{tail}"), across_segments, out)?;
    }
    Some(())
}

/// The first complete top-level `{...}` group (holding a `/`, if asked).
fn first_group(pattern: &str, with_slash: bool) -> Option<(usize, usize)> {
    let mut depth = 0;
    let mut open = 0;
    for (i, b) in pattern.bytes().enumerate() {
        match b {
            b'{' => {
                if depth == 0 {
                    open = i;
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 && (!with_slash || pattern[open..=i].contains('/')) {
                    return Some((open, i));
                }
            }
            _ => {}
        }
    }
    None
}

fn split_alternatives(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, b) in inner.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
}

fn has_magic(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Expands `{a,b}` alternatives (nested too) in order, as Ruby's glob does;
/// `None` past [`MAX_ALTERNATIVES`] patterns.
pub fn expand_braces(pattern: &str) -> Option<Vec<String>> {
    expand(pattern, false)
}

/// Matches one path segment against a pattern segment (`*`, `?`, `[...]`, `\`).
fn fnmatch(pat: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let (mut star_p, mut star_n) = (usize::MAX, 0);
    while n < name.len() {
        if p < pat.len() {
            match pat[p] {
                b'*' => {
                    star_p = p;
                    star_n = n;
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    n += 1;
                    continue;
                }
                b'[' => {
                    if let Some((matched, len)) = class_match(&pat[p..], name[n]) {
                        if matched {
                            p += len;
                            n += 1;
                            continue;
                        }
                    } else if name[n] == b'[' {
                        p += 1;
                        n += 1;
                        continue;
                    }
                }
                b'\\' if p + 1 < pat.len() && pat[p + 1] == name[n] => {
                    p += 2;
                    n += 1;
                    continue;
                }
                c if c == name[n] => {
                    p += 1;
                    n += 1;
                    continue;
                }
                _ => {}
            }
        }
        if star_p == usize::MAX {
            return false;
        }
        p = star_p + 1;
        star_n += 1;
        n = star_n;
    }
    pat[p..].iter().all(|&c| c == b'*')
}

/// Matches a `[...]` class at the start of `pat`: (matched, pattern length).
fn class_match(pat: &[u8], c: u8) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(pat.get(1), Some(b'!' | b'^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    while i < pat.len() && (pat[i] != b']' || first) {
        first = false;
        let lo = pat[i];
        if i + 2 < pat.len() && pat[i + 1] == b'-' && pat[i + 2] != b']' {
            if lo <= c && c <= pat[i + 2] {
                matched = true;
            }
            i += 3;
        } else {
            if lo == c {
                matched = true;
            }
            i += 1;
        }
    }
    (i < pat.len()).then_some((matched != negate, i + 1))
}

/// Ruby's `Pathname#+`: an absolute right side replaces the left, leading
/// `.` and `..` segments of the right side climb the left.
pub(crate) fn join(base: &str, rel: &str) -> String {
    if rel.starts_with('/') {
        return rel.to_string();
    }
    let mut base = base.trim_end_matches('/').to_string();
    let mut rest = rel;
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r;
        } else if rest == "." {
            rest = "";
        } else if let Some(r) = rest.strip_prefix("../").or(if rest == ".." { Some("") } else { None }) {
            if let Some(i) = base.rfind('/') {
                base.truncate(i);
            }
            rest = r;
        } else {
            break;
        }
    }
    if rest.is_empty() {
        return if base.is_empty() { "/".into() } else { base };
    }
    base.push('/');
    base.push_str(rest);
    base
}

/// The directory part of a path (`Pathname#parent`).
pub(crate) fn parent(path: &str) -> String {
    match path.trim_end_matches('/').rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => path[..i].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs() -> Files {
        let mut f = Files::new();
        for p in
            ["/d/b.yaml", "/d/a.yaml", "/d/sub/c.yaml", "/d/sub/deep/e.yaml", "/d/x.json", "/d/dir.yaml/inner.yaml"]
        {
            f.insert(p, "");
        }
        f
    }

    #[test]
    fn glob_sorts_within_alternatives() {
        let f = fs();
        assert_eq!(f.glob("/d/*.yaml").unwrap(), vec!["/d/a.yaml", "/d/b.yaml"]);
        assert_eq!(f.glob("/d/{b,a}.yaml").unwrap(), vec!["/d/b.yaml", "/d/a.yaml"]);
        assert_eq!(
            f.glob("/d/**/*.yaml").unwrap(),
            vec!["/d/a.yaml", "/d/b.yaml", "/d/dir.yaml/inner.yaml", "/d/sub/c.yaml", "/d/sub/deep/e.yaml"]
        );
        assert_eq!(f.glob("/d/**/{e,c}.yaml").unwrap(), vec!["/d/sub/c.yaml", "/d/sub/deep/e.yaml"]);
        assert_eq!(f.glob("/d/{sub/*,*}.yaml").unwrap(), vec!["/d/sub/c.yaml", "/d/a.yaml", "/d/b.yaml"]);
        assert_eq!(f.glob("/d/[ab].yaml").unwrap(), vec!["/d/a.yaml", "/d/b.yaml"]);
        assert_eq!(f.glob("/d/?.json").unwrap(), vec!["/d/x.json"]);
        // Directories named outright, present or not, and no magic at all.
        assert_eq!(f.glob("/d/sub/deep/*.yaml").unwrap(), vec!["/d/sub/deep/e.yaml"]);
        assert_eq!(f.glob("/d/nope/deep/*.yaml").unwrap(), Vec::<String>::new());
        assert_eq!(f.glob("/d/a.yaml/*").unwrap(), Vec::<String>::new());
        assert_eq!(f.glob("/d/sub/c.yaml").unwrap(), vec!["/d/sub/c.yaml"]);
        assert_eq!(f.glob("/d/sub").unwrap(), Vec::<String>::new());
        assert_eq!(f.glob("/*/sub/c.yaml").unwrap(), vec!["/d/sub/c.yaml"]);
    }

    #[test]
    fn a_glob_with_too_many_alternatives_ends_quickly_with_a_message() {
        let f = fs();
        // Found by fuzzing: brace groups that multiply out to millions of
        // patterns, and (second) a thousand patterns each walking the tree.
        let bombs = [
            "/d/{/,*,*,},}{*,*,,}{*/,*,,*,}{*,*/,,*,*,}{**{/,j,,,}{{/Aj,}{,,*,**,,,*,}{/,%,}{,,**,/,},%,}{,*,/,,}*}****}*}**e}\"*e{/,}{",
            "/d/*/{,*,*,}{*,*,*,*,*,*,,*,}{*,*1,}*{/,*,*,*,,*,}{*,*1,}*{/,**,*,}{*,*,}{*,*,*,}{*,*,*,*,*,*,,*,}{*,*1,}*{/,*,*,*,,*,}{*,*",
        ];
        for bomb in bombs {
            let started = std::time::Instant::now();
            let message = f.glob(bomb).unwrap_err();
            assert!(message.starts_with(&format!("The glob '{bomb}' has too many alternatives")), "{message}");
            assert!(started.elapsed().as_secs() < 2);
        }
        assert_eq!(expand_braces(&"{a,b}".repeat(9)).map(|v| v.len()), Some(512));
        assert_eq!(expand_braces(&"{a,b}".repeat(10)), None);
    }

    #[test]
    fn a_deferred_text_is_read_once_and_only_when_the_file_is_read() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let reads = Arc::new(AtomicUsize::new(0));
        let mut f = fs();
        let counter = reads.clone();
        f.insert_deferred("/d/sub/lazy.yaml", move || {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok("a: 1\n".to_string())
        });
        assert!(f.is_file("/d/sub/lazy.yaml") && f.exists("/d/sub/lazy.yaml") && f.is_dir("/d/sub"));
        assert!(f.list("/d/sub").contains(&("lazy.yaml".to_string(), false)));
        assert_eq!(f.glob("/d/sub/l*.yaml").unwrap(), vec!["/d/sub/lazy.yaml"]);
        assert_eq!(reads.load(Ordering::SeqCst), 0, "only the path was needed");
        assert_eq!(f.read("/d/sub/lazy.yaml"), Some("a: 1\n"));
        assert_eq!(f.read("/d/sub/lazy.yaml"), Some("a: 1\n"));
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        let mut g = fs();
        g.insert("/d/sub/lazy.yaml", "a: 1\n");
        assert_eq!(f, g, "equal to the same text given at once");
        // A text that cannot be read is no file's text, and says why.
        f.insert_deferred("/d/locked.yaml", || Err("Permission denied @ rb_sysopen - /d/locked.yaml".into()));
        assert!(f.is_file("/d/locked.yaml"));
        assert_eq!(f.read("/d/locked.yaml"), None);
        assert_eq!(f.load("/d/locked.yaml"), Some(Err("Permission denied @ rb_sysopen - /d/locked.yaml")));
    }

    #[test]
    fn join_follows_pathname() {
        assert_eq!(join("/etc/code", "data"), "/etc/code/data");
        assert_eq!(join("/etc/code", "/abs"), "/abs");
        assert_eq!(join("/etc/code", "../x"), "/etc/x");
        assert_eq!(join("/etc/code/", "./x"), "/etc/code/x");
    }
}
