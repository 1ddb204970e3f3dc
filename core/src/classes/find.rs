//! Where Puppet finds a class and a type alias: the type loader's files for
//! a name (`a::b::c` in module `a`'s `manifests/b/c.pp`, then
//! `manifests/b.pp`, then `manifests/init.pp`) in the first module of the
//! modulepath with that name; an alias `A::B` in module `a`'s `types/b.pp`.

use crate::manifests::{Class, Manifest, SyntaxError};
use crate::puppet::types::{parse_type_in, Type};
use crate::Hiera;
use std::rc::Rc;

/// A class and the manifest that defines it.
#[derive(Clone, Debug, PartialEq)]
pub struct Defined {
    /// Its header.
    pub header: Class,
    /// The manifest's path.
    pub file: String,
}

/// How deep aliases may refer to aliases (a recursive alias is cut off there).
const ALIAS_DEPTH: usize = 12;

/// The environment's modules, its modulepath read once (from
/// `environment.conf`) for all that one binding looks up.
pub struct Modules<'h> {
    hiera: &'h Hiera,
    path: Vec<String>,
}

impl<'h> Modules<'h> {
    /// The modules of `hiera`'s environment.
    pub fn new(hiera: &'h Hiera) -> Modules<'h> {
        let path = crate::modulepath(hiera.files(), &hiera.node().environment).unwrap_or_default();
        Modules { hiera, path }
    }

    /// The directory of module `name`: the first in the modulepath that has it.
    fn dir(&self, name: &str) -> Option<String> {
        let files = self.hiera.files();
        self.path.iter().map(|dir| format!("{}/{name}", dir.trim_end_matches('/'))).find(|d| files.is_dir(d))
    }

    /// The class `name`, if a file Puppet would read for it defines it; the
    /// first manifest that does not parse is the error. With each file the
    /// module's `init.pp` is read first (`Module#match_manifests`: "always
    /// ensure init.pp in case class is defined there").
    pub fn class(&self, name: &str) -> Result<Option<Defined>, String> {
        for (module, file) in candidate_files(name) {
            let Some(dir) = self.dir(&module) else { continue };
            for path in [format!("{dir}/manifests/init.pp"), format!("{dir}/{file}")] {
                let Some(parsed) = manifest(self.hiera, &path) else { continue };
                if let Some(header) = parsed?.classes.iter().find(|c| c.name == name) {
                    return Ok(Some(Defined { header: header.clone(), file: path }));
                }
            }
        }
        Ok(None)
    }

    /// The type alias `name` (`Stdlib::Port`) resolved, aliases in it too;
    /// `None` where no module defines it.
    pub fn alias(&self, name: &str, depth: usize) -> Option<Type> {
        if depth > ALIAS_DEPTH {
            return Some(Type::Any);
        }
        let lower = name.to_ascii_lowercase();
        let segments: Vec<&str> = lower.split("::").collect();
        let (module, rest) = segments.split_first()?;
        if rest.is_empty() {
            return None;
        }
        let path = format!("{}/types/{}.pp", self.dir(module)?, rest.join("/"));
        let parsed = manifest(self.hiera, &path)?.ok()?;
        let defined = parsed.aliases.iter().find(|a| a.name.eq_ignore_ascii_case(name))?;
        parse_type_in(&defined.type_text, &|inner| self.alias(inner, depth + 1)).ok()
    }
}

/// A manifest as parsed, cached until its file changes; `None` when there
/// is no such file.
fn manifest(hiera: &Hiera, path: &str) -> Option<Result<Rc<Manifest>, String>> {
    if let Some(cached) = hiera.manifests.borrow().get(path) {
        return Some(cached.clone());
    }
    let parsed = match hiera.files().load(path)? {
        Err(message) => Err(message.to_string()),
        Ok(text) => crate::manifests::parse(text).map(Rc::new).map_err(|e| located(&e, path)),
    };
    hiera.manifests.borrow_mut().insert(path.to_string(), parsed.clone());
    Some(parsed)
}

/// `Syntax error at ',' (file: PATH, line: 2, column: 8)`.
fn located(e: &SyntaxError, path: &str) -> String {
    match e.at {
        Some((line, column)) => format!("{} (file: {path}, line: {line}, column: {column})", e.message),
        None => format!("{} (file: {path})", e.message),
    }
}

/// The files Puppet's type loader reads, in order, for a class `name`.
fn candidate_files(name: &str) -> Vec<(String, String)> {
    let segments: Vec<&str> = name.split("::").collect();
    let module = segments[0].to_string();
    (1..=segments.len())
        .rev()
        .map(|n| {
            let file = if n == 1 {
                "manifests/init.pp".to_string()
            } else {
                format!("manifests/{}.pp", segments[1..n].join("/"))
            };
            (module.clone(), file)
        })
        .collect()
}

/// Every class defined where Puppet's loader finds it.
pub fn all_classes(hiera: &Hiera) -> Vec<Defined> {
    let Ok(modulepath) = crate::modulepath(hiera.files(), &hiera.node().environment) else { return Vec::new() };
    let mut seen_modules: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for dir in modulepath {
        let dir = dir.trim_end_matches('/').to_string();
        for (module, is_dir) in hiera.files().list(&dir) {
            if !is_dir || seen_modules.contains(&module) {
                continue;
            }
            seen_modules.push(module.clone());
            let manifests = format!("{dir}/{module}/manifests/");
            let mut files: Vec<&str> =
                hiera.files().paths().filter(|p| p.starts_with(&manifests) && p.ends_with(".pp")).collect();
            files.sort();
            for path in files {
                let Some(Ok(parsed)) = manifest(hiera, path) else { continue };
                for header in &parsed.classes {
                    let findable = candidate_files(&header.name).iter().any(|(m, f)| {
                        *m == module && (format!("{dir}/{module}/{f}") == path || path.ends_with("/manifests/init.pp"))
                    });
                    if findable {
                        out.push(Defined { header: header.clone(), file: path.to_string() });
                    }
                }
            }
        }
    }
    out
}
