//! An environment's `environment.conf`, as Puppet's `EnvironmentConf` and
//! settings reader take it: the `modulepath` (where the module layers are)
//! and `config_version` (a command Puppet runs before any lookup). Its other
//! settings (`manifest`, `environment_timeout`, ...) change no lookup.
//!
//! The file is read the way Puppet reads `puppet.conf` (`Puppet::Settings::IniFile`
//! and `ConfigFile`), quirks and all: a value's one leading and one trailing
//! quote are dropped, and a `{...}` in a value is taken for file options
//! (`{owner = root}`), which is why `${basemodulepath}` cannot be written there.

use crate::error::Error;
use crate::load::fs::{self, Files};

/// The file's name in the environment's directory.
pub(crate) const FILE: &str = "environment.conf";

/// Whether a path (absolute, or relative to a directory) names an environment.conf.
pub(crate) fn is_conf(path: &str) -> bool {
    path.strip_suffix(FILE).is_some_and(|dir| dir.is_empty() || dir.ends_with('/'))
}

/// The settings a modulepath may name by `$name`, with the values Puppet
/// gives them on an all-in-one install (the paths the oracle's Puppet has).
const SETTINGS: &[(&str, &str)] = &[
    ("codedir", "/etc/puppetlabs/code"),
    ("confdir", "/etc/puppetlabs/puppet"),
    ("environmentpath", "/etc/puppetlabs/code/environments"),
    ("basemodulepath", "/etc/puppetlabs/code/modules:/opt/puppetlabs/puppet/modules"),
    ("vendormoduledir", "/opt/puppetlabs/puppet/vendor_modules"),
    ("vardir", "/opt/puppetlabs/puppet/cache"),
    ("publicdir", "/opt/puppetlabs/puppet/public"),
    ("logdir", "/var/log/puppetlabs/puppet"),
    ("rundir", "/var/run/puppetlabs"),
    ("ssldir", "/etc/puppetlabs/puppet/ssl"),
];

/// What an environment's `environment.conf` says that changes lookups.
#[derive(Debug)]
pub(crate) struct EnvironmentConf {
    /// The modulepath's entries, in order, as absolute paths (those that
    /// are no directory too: the caller keeps the ones there are).
    pub(crate) modulepath: Vec<String>,
}

/// Reads the `environment.conf` of the environment `name` at `dir` (none:
/// the default modulepath). Fails as Puppet fails before any lookup: a line
/// it cannot read, a setting it cannot interpolate, a `config_version`
/// command that is not there.
pub(crate) fn read(files: &Files, dir: &str, name: &str) -> Result<EnvironmentConf, Error> {
    let path = [dir, "/", FILE].concat();
    let settings = match files.read(&path) {
        Some(text) => main_section(text, &path)?,
        None => Vec::new(),
    };
    let setting = |wanted: &str| settings.iter().find(|(n, _)| n == wanted).map(|(_, v)| v.as_str());
    let failed = |setting: &str, e: String| {
        Error::puppet(format!("Error converting value for param '{setting}': {e}")).at(&path, None, None)
    };
    let modulepath = match setting("modulepath") {
        Some(value) => {
            let listed: Vec<String> = value
                .split(':')
                .map(|entry| absolute(entry, dir))
                .flat_map(|entry| expand_glob(files, entry))
                .collect();
            interpolate(&listed.join(":"), None).map_err(|e| failed("modulepath", e))?
        }
        None => [dir, "/modules:$basemodulepath"].concat().replace("$basemodulepath", setting_value("basemodulepath")),
    };
    if let Some(command) = setting("config_version").filter(|c| !c.is_empty()) {
        let command = interpolate(&absolute(command, dir), Some(name)).map_err(|e| failed("config_version", e))?;
        if !files.is_file(&command) {
            // Puppet runs the command; only one that is not there is known to fail.
            return Err(Error::puppet(format!(
                "Execution of config_version command `{command}` failed: Execution of '{command}' returned 1: \
                 Error: Could not execute posix command: No such file or directory - {command}"
            )));
        }
    }
    // Ruby's `split` drops the empty strings at the end.
    let mut modulepath: Vec<String> = modulepath.split(':').map(str::to_string).collect();
    while modulepath.last().is_some_and(String::is_empty) {
        modulepath.pop();
    }
    Ok(EnvironmentConf { modulepath })
}

/// The settings of the file's `[main]` section (settings before any section
/// header are in it too), each with its value as Puppet's `ValueTranslator`
/// and `extract_fileinfo` leave it.
fn main_section(text: &str, path: &str) -> Result<Vec<(String, String)>, Error> {
    let mut section = "main";
    let mut settings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(name) = trimmed.strip_prefix('[').and_then(|l| l.strip_suffix(']')).filter(|n| is_word(n)) {
            section = name;
            continue;
        }
        let setting = line.split_once('=').map(|(k, v)| (k.trim(), v.trim())).filter(|(k, _)| is_word(k));
        let Some((name, value)) = setting else {
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            return Err(located(format!("Could not match line {line}"), path, n + 1));
        };
        if section != "main" {
            continue;
        }
        let value = file_options_removed(unquoted(value)).map_err(|e| located(e, path, n + 1))?;
        settings.push((name.to_string(), value));
    }
    Ok(settings)
}

/// A `Puppet::Settings::ParseError`: its message says where.
fn located(message: String, path: &str, line: usize) -> Error {
    Error::puppet(format!("{message} (file: {path}, line: {line})")).at(path, Some(line), None)
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// `ValueTranslator`: one quote at each end goes.
fn unquoted(value: &str) -> &str {
    let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
    value.strip_suffix(['"', '\'']).unwrap_or(value).trim_end()
}

/// `extract_fileinfo`: the first `{...}` in a value holds file options
/// (`owner`, `group`, `mode`), which are dropped; anything else there is an
/// error.
fn file_options_removed(value: &str) -> Result<String, String> {
    let Some(open) = value.find('{') else { return Ok(value.to_string()) };
    let Some(close) = value[open..].find('}').map(|i| open + i).filter(|&c| c > open + 1) else {
        return Ok(value.to_string());
    };
    for option in value[open + 1..close].trim().split(',') {
        let Some((name, v)) = option.split_once('=').map(|(n, v)| (n.trim(), v.trim())) else {
            return Err(format!("Could not parse '{value}'"));
        };
        if !is_word(name) || !is_word(v) {
            return Err(format!("Could not parse '{value}'"));
        }
        if !["owner", "group", "mode"].contains(&name) {
            return Err(format!("Invalid file option '{name}'"));
        }
        if name == "mode" && !v.chars().all(|c| c.is_ascii_digit()) {
            return Err("File modes must be numbers".into());
        }
    }
    Ok([&value[..open], &value[close + 1..]].concat().trim_end().to_string())
}

/// `EnvironmentConf#absolute`: a path that starts with a setting stays as
/// it is; any other is made absolute against the environment's directory.
fn absolute(entry: &str, dir: &str) -> String {
    if entry.starts_with('$') {
        entry.to_string()
    } else {
        fs::join(dir, entry)
    }
}

/// `EnvironmentConf#expand_glob`: an entry with glob characters becomes the
/// paths it matches (none, when it matches none).
fn expand_glob(files: &Files, entry: String) -> Vec<String> {
    if entry.contains(['*', '?', '[', '{']) {
        files.glob_entries(&entry).unwrap_or_default()
    } else {
        vec![entry]
    }
}

fn setting_value(name: &str) -> &'static str {
    SETTINGS.iter().find(|(n, _)| *n == name).map_or("", |(_, v)| v)
}

/// Puppet's settings interpolation: `$name` and `${name}` become the
/// setting's value. `$environment` is the environment's name where it may
/// be used (`config_version`), and stays as it is elsewhere.
fn interpolate(value: &str, environment: Option<&str>) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = match after.strip_prefix('{') {
            Some(braced) => {
                let name: &str = &braced[..braced.find(|c: char| !is_word_char(c)).unwrap_or(braced.len())];
                if braced[name.len()..].starts_with('}') && !name.is_empty() {
                    (name, name.len() + 2)
                } else {
                    ("", 0)
                }
            }
            None => {
                let name = &after[..after.find(|c: char| !is_word_char(c)).unwrap_or(after.len())];
                (name, name.len())
            }
        };
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        let expression = &rest[at..at + 1 + len];
        match (name, environment) {
            ("environment", Some(env)) => out.push_str(env),
            ("environment", None) => out.push_str(expression),
            _ => match SETTINGS.iter().find(|(n, _)| *n == name) {
                Some((_, v)) => out.push_str(v),
                None => return Err(format!("Could not find value for {expression}")),
            },
        }
        rest = &after[len..];
    }
    out.push_str(rest);
    Ok(out)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENV: &str = "/etc/puppetlabs/code/environments/production";

    fn read_conf(text: &str, more: &[&str]) -> Result<Vec<String>, Error> {
        let mut files = Files::new();
        files.insert(format!("{ENV}/environment.conf"), text);
        for p in more {
            files.insert(*p, "");
        }
        read(&files, ENV, "production").map(|c| c.modulepath)
    }

    #[test]
    fn without_a_modulepath_the_environment_s_modules_come_before_the_base_modulepath() {
        let expected =
            [format!("{ENV}/modules"), "/etc/puppetlabs/code/modules".into(), "/opt/puppetlabs/puppet/modules".into()];
        assert_eq!(read(&Files::new(), ENV, "production").unwrap().modulepath, expected);
        assert_eq!(read_conf("manifest = site.pp\n", &[]).unwrap(), expected);
    }

    #[test]
    fn entries_are_made_absolute_and_settings_interpolated() {
        let path = read_conf("# r10k\nmodulepath = \"site:../shared:$codedir/dist:$basemodulepath\"\n", &[]).unwrap();
        assert_eq!(
            path,
            [
                format!("{ENV}/site"),
                "/etc/puppetlabs/code/environments/shared".into(),
                "/etc/puppetlabs/code/dist".into(),
                "/etc/puppetlabs/code/modules".into(),
                "/opt/puppetlabs/puppet/modules".into(),
            ]
        );
    }

    #[test]
    fn a_glob_entry_becomes_the_paths_it_matches_in_order() {
        let more = [&format!("{ENV}/teams/b/db/x") as &str, &format!("{ENV}/teams/a/db/x")];
        let path = read_conf("modulepath = teams/*:site\n", &more).unwrap();
        assert_eq!(path, [format!("{ENV}/teams/a"), format!("{ENV}/teams/b"), format!("{ENV}/site")]);
    }

    #[test]
    fn environment_is_not_interpolated_in_a_modulepath() {
        assert_eq!(read_conf("modulepath = /m/$environment\n", &[]).unwrap(), ["/m/$environment"]);
    }

    #[test]
    fn what_puppet_refuses_is_an_error_naming_the_file() {
        let e = read_conf("modulepath = site:$nosuch\n", &[]).unwrap_err();
        assert_eq!(e.message, "Error converting value for param 'modulepath': Could not find value for $nosuch");
        assert_eq!(e.file.as_deref(), Some(&*format!("{ENV}/environment.conf")));
        let e = read_conf("modulepath = ${codedir}/m\n", &[]).unwrap_err();
        assert_eq!(e.message, format!("Could not parse '${{codedir}}/m' (file: {ENV}/environment.conf, line: 1)"));
        let e = read_conf("[main]\nnot a setting\n", &[]).unwrap_err();
        let expected = format!("Could not match line not a setting (file: {ENV}/environment.conf, line: 2)");
        assert_eq!((e.message.as_str(), e.line), (expected.as_str(), Some(2)));
    }

    #[test]
    fn a_config_version_command_must_be_there() {
        let e = read_conf("config_version = scripts/v.sh\n", &[]).unwrap_err();
        assert!(e.message.starts_with(&format!("Execution of config_version command `{ENV}/scripts/v.sh` failed")));
        assert!(read_conf("config_version = scripts/v.sh\n", &[&format!("{ENV}/scripts/v.sh")]).is_ok());
    }

    #[test]
    fn settings_in_other_sections_are_ignored() {
        assert_eq!(
            read_conf("[agent]\nmodulepath = elsewhere\n[main]\nmodulepath=site\n", &[]).unwrap(),
            [format!("{ENV}/site")]
        );
    }
}
