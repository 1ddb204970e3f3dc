//! Reading a real directory tree into the engine's in-memory filesystem.

use hiera_core::fs::Files;
use hiera_core::value::Hash;
use hiera_core::Value;
use std::path::{Path, PathBuf};

/// Files larger than this read as empty: Hiera data is text, and a stray
/// archive in a control repo must not be read into memory.
const MAX_FILE: u64 = 64 << 20;

/// Lists the parts of `root` Puppet reads: `etc/puppetlabs` and
/// `opt/puppetlabs`, of the environments only `environment`'s (a server may
/// hold a deployed copy of every branch of its control repository).
pub fn read_root(root: &Path, environment: &str, files: &mut Files) -> Result<(), String> {
    if !root.is_dir() {
        return Err(format!("--root {}: not a directory", root.display()));
    }
    let environments = root.join("etc/puppetlabs/code/environments");
    let skip = |path: &Path| path.parent() == Some(environments.as_path()) && !path.ends_with(environment);
    for part in ["etc/puppetlabs", "opt/puppetlabs"] {
        let dir = root.join(part);
        if dir.is_dir() {
            walk(&dir, &format!("/{part}"), &skip, files)?;
        }
    }
    Ok(())
}

/// Lists every file below `dir` as `at/<relative path>`. Only the names are
/// read now; a file's text is read when a lookup first reads the file, so
/// that the manifests, templates and files of a control repository's
/// modules cost a directory entry each, not their size.
pub fn read_into(dir: &Path, at: &str, files: &mut Files) -> Result<(), String> {
    walk(dir, at, &|_| false, files)
}

/// [`read_into`], leaving out the directories `skip` names.
fn walk(dir: &Path, at: &str, skip: &dyn Fn(&Path) -> bool, files: &mut Files) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_string();
        if name == ".git" {
            continue;
        }
        let path = entry.path();
        let target = format!("{}/{name}", at.trim_end_matches('/'));
        // The entry's own type needs no system call; a link's target does.
        let Ok(mut kind) = entry.file_type() else { continue };
        if kind.is_symlink() {
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            kind = meta.file_type();
        }
        if kind.is_dir() {
            if !skip(&path) {
                walk(&path, &target, skip, files)?;
            }
        } else if kind.is_file() {
            files.insert_deferred(target, move || read_text(&path));
        }
    }
    Ok(())
}

/// A file's text; empty if it cannot be read or is over [`MAX_FILE`].
fn read_text(path: &Path) -> String {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else { return String::new() };
    let size = file.metadata().map_or(0, |m| m.len());
    if size > MAX_FILE {
        return String::new();
    }
    // Sized up front: one read of the whole file, and no copying as it grows.
    let mut bytes = Vec::with_capacity(size as usize + 1);
    if file.take(MAX_FILE + 1).read_to_end(&mut bytes).is_err() || bytes.len() as u64 > MAX_FILE {
        return String::new();
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Reads a facts file, YAML or JSON.
pub fn read_facts(path: &Path) -> Result<Hash, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value = if path.extension().is_some_and(|e| e == "json") {
        hiera_core::json::parse(&text).map_err(|e| format!("{}: {}", path.display(), e.message))?
    } else {
        match hiera_core::yaml::load(&text) {
            Ok(v) => v.map(|(v, _)| v).unwrap_or(Value::Hash(Hash::default())),
            Err(e) => return Err(format!("{}: {}", path.display(), e.message)),
        }
    };
    match value {
        Value::Hash(h) => Ok(h),
        _ => Err(format!("{}: facts must be a hash", path.display())),
    }
}

/// The case files a path names: itself, or every `.yaml`/`.yml` below it.
pub fn collect_cases(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_cases(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_when_a_lookup_reads_it_not_when_the_tree_is_listed() {
        let dir = std::env::temp_dir().join(format!("hiera-lookup-tree-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("data")).unwrap();
        std::fs::write(dir.join("data/common.yaml"), "a: 1\n").unwrap();
        let mut files = Files::new();
        read_into(&dir, "/env", &mut files).unwrap();
        std::fs::write(dir.join("data/common.yaml"), "a: 2\n").unwrap();
        let text = files.read("/env/data/common.yaml").map(str::to_string);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text.as_deref(), Some("a: 2\n"), "the text as it was when first read");
        assert!(files.is_dir("/env/data"));
    }

    #[test]
    fn a_root_s_other_environments_are_not_listed() {
        let dir = std::env::temp_dir().join(format!("hiera-lookup-root-{}", std::process::id()));
        for env in ["production", "feature_x"] {
            let data = dir.join(format!("etc/puppetlabs/code/environments/{env}/data"));
            std::fs::create_dir_all(&data).unwrap();
            std::fs::write(data.join("common.yaml"), "a: 1\n").unwrap();
        }
        std::fs::create_dir_all(dir.join("etc/puppetlabs/code/data")).unwrap();
        std::fs::write(dir.join("etc/puppetlabs/code/data/common.yaml"), "b: 1\n").unwrap();
        let mut files = Files::new();
        let listed = read_root(&dir, "production", &mut files);
        std::fs::remove_dir_all(&dir).unwrap();
        listed.unwrap();
        let paths: Vec<&str> = files.iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            ["/etc/puppetlabs/code/data/common.yaml", "/etc/puppetlabs/code/environments/production/data/common.yaml"]
        );
    }
}
