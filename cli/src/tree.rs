//! Reading a real directory tree into the engine's in-memory filesystem.

use hiera_core::fs::Files;
use hiera_core::value::Hash;
use hiera_core::Value;
use std::path::{Path, PathBuf};

/// Files larger than this are left out: Hiera data is text, and a stray
/// archive in a control repo must not be read into memory.
const MAX_FILE: u64 = 64 << 20;

/// Reads the parts of `root` Puppet reads: `etc/puppetlabs` and `opt/puppetlabs`.
pub fn read_root(root: &Path, files: &mut Files) -> Result<(), String> {
    if !root.is_dir() {
        return Err(format!("--root {}: not a directory", root.display()));
    }
    for part in ["etc/puppetlabs", "opt/puppetlabs"] {
        let dir = root.join(part);
        if dir.is_dir() {
            read_into(&dir, &format!("/{part}"), files)?;
        }
    }
    Ok(())
}

/// Reads every file below `dir` as `at/<relative path>`.
pub fn read_into(dir: &Path, at: &str, files: &mut Files) -> Result<(), String> {
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
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        if meta.is_dir() {
            read_into(&path, &target, files)?;
        } else if meta.len() <= MAX_FILE {
            if let Ok(bytes) = std::fs::read(&path) {
                files.insert(target, String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    Ok(())
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
