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

/// Lists, under `root`, the directories outside Puppet's own that the
/// listed hiera.yaml files name by absolute path (a level's
/// `/srv/hiera/%{facts.whereami}.yaml`, an absolute `datadir`), and those
/// of `environment`'s modulepath (`/srv/modules`), so that they are read as
/// Puppet reads them. Each is walked from its fixed part (up to the first
/// `%{` or glob character); one that is `/` itself is not.
pub fn read_outside_paths(root: &Path, environment: &str, files: &mut Files) -> Result<(), String> {
    let configs: Vec<String> = files.paths().filter(|p| p.ends_with("/hiera.yaml")).map(str::to_string).collect();
    let mut dirs: Vec<String> = Vec::new();
    for config in configs {
        let Some(Ok(Some((Value::Hash(h), _)))) = files.read(&config).map(hiera_core::yaml::load) else { continue };
        let get = |h: &Hash, k: &str| h.get(&Value::from(k)).cloned();
        let datadir_of = |h: &Hash| get(h, "datadir").map(|d| d.to_ruby_s());
        let default_datadir = get(&h, "defaults").and_then(|d| d.as_hash().and_then(datadir_of));
        let levels = ["hierarchy", "default_hierarchy"].into_iter().filter_map(|k| get(&h, k));
        for level in levels.flat_map(|l| l.as_array().map(|a| a.to_vec()).unwrap_or_default()) {
            let Some(level) = level.as_hash() else { continue };
            let datadir = datadir_of(level).or_else(|| default_datadir.clone()).unwrap_or_default();
            let mut paths: Vec<String> = Vec::new();
            for k in ["path", "glob"] {
                paths.extend(get(level, k).map(|v| v.to_ruby_s()));
            }
            for k in ["paths", "globs"] {
                paths.extend(
                    get(level, k)
                        .and_then(|v| v.as_array().map(|a| a.iter().map(Value::to_ruby_s).collect::<Vec<_>>()))
                        .unwrap_or_default(),
                );
            }
            paths.extend(get(level, "mapped_paths").and_then(|m| m.as_array()?.get(2).map(Value::to_ruby_s)));
            if datadir.starts_with('/') {
                paths.push(format!("{datadir}/"));
            }
            for path in paths {
                let path = if path.starts_with('/') {
                    path
                } else if datadir.starts_with('/') {
                    format!("{datadir}/{path}")
                } else {
                    continue;
                };
                outside(&mut dirs, &path);
            }
        }
    }
    // A modulepath entry is a directory of modules: all of it is read.
    for entry in hiera_core::modulepath(files, environment).unwrap_or_default() {
        outside(&mut dirs, &format!("{entry}/"));
    }
    for dir in dirs {
        let on_disk = root.join(dir.trim_start_matches('/'));
        if on_disk.is_dir() {
            walk(&on_disk, &dir, &|_| false, files)?;
        }
    }
    Ok(())
}

/// Notes the directory that holds `path` up to its first `%{` or glob
/// character, unless it is Puppet's own, `/`, or inside one noted before.
fn outside(dirs: &mut Vec<String>, path: &str) {
    let fixed = &path[..path.find(['%', '*', '?', '[', '{']).unwrap_or(path.len())];
    let dir = fixed.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let puppet_s = dir.starts_with("/etc/puppetlabs") || dir.starts_with("/opt/puppetlabs");
    if !dir.is_empty() && !puppet_s && !dirs.iter().any(|d| dir.starts_with(&format!("{d}/")) || *d == dir) {
        dirs.push(dir);
    }
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
            let shown = target.clone();
            files.insert_deferred(target, move || read_text(&path, &shown));
        }
    }
    Ok(())
}

/// A file's text, or why it cannot be read, as Ruby's `File.read` says it
/// of `shown` (the path as Puppet would see it): a lookup that reads the
/// file fails with it.
fn read_text(path: &Path, shown: &str) -> Result<String, String> {
    use std::io::Read;
    let ruby = |e: std::io::Error| {
        let what = match e.kind() {
            std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
            std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
            _ => e.to_string(),
        };
        format!("{what} @ rb_sysopen - {shown}")
    };
    let too_large = || format!("{shown} is larger than 64 MiB, the most hiera-lookup reads");
    let file = std::fs::File::open(path).map_err(ruby)?;
    let size = file.metadata().map_or(0, |m| m.len());
    if size > MAX_FILE {
        return Err(too_large());
    }
    // Sized up front: one read of the whole file, and no copying as it grows.
    let mut bytes = Vec::with_capacity(size as usize + 1);
    file.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(ruby)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(too_large());
    }
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
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

/// The nodes of a facts directory: each `.yaml`, `.yml` or `.json` file is
/// one node's facts in any shape [`hiera_core::facts::read`] reads, named by
/// the certname it gives, else by the file's name without its extension.
pub fn read_facts_dir(dir: &Path) -> Result<Vec<(String, Hash)>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        // `.facts`: facterdb's files (JSON).
        .filter(|p| {
            p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json" || e == "facts")
        })
        .collect();
    paths.sort();
    let mut nodes = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let read = hiera_core::facts::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        nodes.push((read.certname.unwrap_or(stem), read.facts));
    }
    Ok(nodes)
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
        let paths: Vec<&str> = files.paths().collect();
        assert_eq!(
            paths,
            ["/etc/puppetlabs/code/data/common.yaml", "/etc/puppetlabs/code/environments/production/data/common.yaml"]
        );
    }
}
