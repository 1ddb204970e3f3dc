//! What a lookup's outcome depends on besides the files and the node: the
//! Puppet whose lookup is reproduced, and the `puppet.conf` settings it reads.

use crate::load::fs::Files;

/// Where Puppet reads `strict` from.
pub const PUPPET_CONF: &str = "/etc/puppetlabs/puppet/puppet.conf";

/// The Puppet whose `puppet lookup` the engine reproduces.
///
/// The two differ only where their code or defaults do: Puppet 8 defaults to
/// `strict = error` (a data file that is not a hash, an undefined variable in
/// data, a version 3 hiera.yaml in an environment or module are errors) and
/// fills `$server_facts`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Puppet {
    /// Puppet 7.23.
    V7,
    /// Puppet 8, as OpenVox 8.28.1.
    #[default]
    V8,
}

impl Puppet {
    /// Both, oldest first.
    pub const ALL: [Puppet; 2] = [Puppet::V7, Puppet::V8];

    /// The major version: 7 or 8.
    pub fn major(self) -> u8 {
        match self {
            Puppet::V7 => 7,
            Puppet::V8 => 8,
        }
    }

    /// The Puppet of a major version, if it is 7 or 8.
    pub fn from_major(major: i128) -> Option<Puppet> {
        match major {
            7 => Some(Puppet::V7),
            8 => Some(Puppet::V8),
            _ => None,
        }
    }

    /// The release whose behaviour is reproduced, as people name it.
    pub fn release(self) -> &'static str {
        match self {
            Puppet::V7 => "Puppet 7.23",
            Puppet::V8 => "Puppet 8 (OpenVox 8.28.1)",
        }
    }

    /// The other version.
    pub fn other(self) -> Puppet {
        match self {
            Puppet::V7 => Puppet::V8,
            Puppet::V8 => Puppet::V7,
        }
    }
}

impl std::fmt::Display for Puppet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.major().fmt(f)
    }
}

/// Puppet's `strict = error`, from `puppet.conf`'s `[main]` or `[user]`
/// section, else the version's default (`warning` in 7, `error` in 8).
pub fn strict_is_error(puppet: Puppet, files: &Files) -> bool {
    let Some(text) = files.read(PUPPET_CONF) else { return puppet == Puppet::V8 };
    let mut section = "main".to_string();
    let mut strict = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.trim().to_string();
        } else if let Some((k, v)) = line.split_once('=') {
            if k.trim() == "strict" && (section == "main" || section == "user") {
                strict = Some(v.trim().to_string());
            }
        }
    }
    match strict {
        Some(s) => s == "error",
        None => puppet == Puppet::V8,
    }
}
