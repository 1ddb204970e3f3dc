//! A document as a control-repo zip and back: the files laid out as a real
//! Puppet installation, `facts.yaml`, a `lookups.sh` with the `puppet lookup`
//! command that reproduces each lookup on a real Puppet, and the document
//! itself (`playground.yaml`) so that importing gives back exactly what was
//! exported. A zip without `playground.yaml` (a repository zipped by hand) is
//! read from its layout.

use crate::document::case::{environment_dir, Document};
use crate::value::Value;

/// The most an archive may expand to: a document is small, and a crafted
/// zip must not exhaust memory.
pub const MAX_EXPANDED: usize = 64 << 20;

/// The most files an archive or folder may hold.
pub const MAX_FILES: usize = 10_000;

/// The zip of a document. Its entries are stored, not deflated: they are a
/// few kilobytes of text, and the page does without a deflate encoder.
pub fn export(doc: &Document) -> Vec<u8> {
    let env = environment_dir(&doc.environment);
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    for (path, text) in &doc.files {
        let abs = if path.starts_with('/') { path.clone() } else { format!("{env}/{path}") };
        entries.push((abs.trim_start_matches('/').to_string(), text.as_bytes().to_vec()));
    }
    entries.push(("facts.yaml".into(), facts_file(&doc.node()).into_bytes()));
    // Every node of a document with several: `hiera-lookup --facts-dir facts`
    // (and `diff`) read one file a node.
    if !doc.nodes.is_empty() {
        for node in doc.all_nodes() {
            entries.push((format!("facts/{}.yaml", node.name), facts_file(&node).into_bytes()));
        }
    }
    entries.push(("lookups.sh".into(), lookups_script(doc).into_bytes()));
    entries.push(("playground.yaml".into(), doc.to_yaml().into_bytes()));
    zip(&entries)
}

/// A node's facts as `puppet lookup --facts` reads them, with the four that
/// name the node, which it wants together (the page assumes them).
fn facts_file(node: &crate::Node) -> String {
    let name = node.name.as_str();
    let (host, domain) = name.split_once('.').unwrap_or((name, ""));
    let mut facts = node.facts.clone();
    for (k, v) in [("clientcert", name), ("fqdn", name), ("hostname", host), ("domain", domain)] {
        facts.get_or_insert_with(Value::from(k), || Value::from(v));
    }
    crate::formats::yaml::to_yaml(&Value::Hash(facts))
}

/// `puppet lookup` commands reproducing each lookup, run from the unzipped directory.
fn lookups_script(doc: &Document) -> String {
    let node = doc.node().name;
    let mut out = format!(
        "#!/bin/sh\n# Each lookup of the playground on a real Puppet, from the directory this\n# zip was unpacked in (its etc/ plays /etc). The playground answered as\n# {} does: run them with that Puppet to see the same answers.\nR=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n",
        doc.puppet.release()
    );
    for l in &doc.lookups {
        out.push_str(&format!(
            "puppet lookup --confdir \"$R/etc/puppetlabs/puppet\" --codedir \"$R/etc/puppetlabs/code\" --environment {} --node {} --facts \"$R/facts.yaml\" --explain {}\n",
            crate::document::case::shell(&doc.environment),
            crate::document::case::shell(&node),
            l.puppet_args()
        ));
    }
    out
}

/// Whether a file of a repository can matter to Hiera: its configurations and
/// data files (YAML, JSON, eyaml, HOCON's `.conf`), and the modules' classes
/// and type aliases (`.pp` files in a module's `manifests/` or `types/`),
/// which read Hiera. Hidden folders (`.git`) and everything else (the site
/// manifest, templates, Ruby code) are left out, so that a whole control
/// repository can be opened.
pub fn wanted(path: &str) -> bool {
    let components: Vec<&str> = path.split('/').collect();
    let hidden = components.iter().any(|c| c.starts_with('.'));
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    // `modules/ntp/manifests/init.pp`: a module's folder, inside a modulepath directory.
    let in_module = || components.iter().skip(2).any(|c| *c == "manifests" || *c == "types");
    !hidden
        && match extension.as_deref() {
            Some("yaml" | "yml" | "json" | "eyaml" | "conf") => true,
            Some("pp") => in_module(),
            _ => false,
        }
}

/// Reads the files of a folder or zip ([`unzip`]; path inside it →
/// contents): an
/// unpacked [`export`] (its `playground.yaml` gives the document back
/// exactly), an installation laid out as `etc/puppetlabs/...` with an
/// optional `facts.yaml`, or a control repository (the environment's own
/// directory, maybe inside one top folder that holds its `hiera.yaml`). Files that are not [`wanted`]
/// are skipped.
pub fn import_files(entries: Vec<(String, Vec<u8>)>) -> Result<Document, ArchiveError> {
    read_files(entries).map_err(ArchiveError)
}

fn read_files(entries: Vec<(String, Vec<u8>)>) -> Result<Document, String> {
    if entries.len() > MAX_FILES {
        return Err(format!("it holds {} files, more than the {MAX_FILES} the playground takes", entries.len()));
    }
    let text = |name: &str, b: &[u8]| String::from_utf8(b.to_vec()).map_err(|_| format!("{name} is not UTF-8 text"));
    let mut entries: Vec<(String, Vec<u8>)> =
        entries.into_iter().filter(|(n, _)| !n.ends_with('/') && wanted(n)).collect();
    if let Some((n, b)) = entries.iter().find(|(n, _)| n == "playground.yaml" || n.ends_with("/playground.yaml")) {
        return Document::from_yaml(&text(n, b)?).map_err(|e| e.to_string());
    }
    let installation = "etc/puppetlabs/";
    if !entries.iter().any(|(n, _)| n.contains(installation)) {
        // A repository is often zipped or dropped as its folder, which then
        // holds its hiera.yaml.
        let top = |n: &str| n.split_once('/').map(|(t, _)| t.to_string());
        if let Some(Some(first)) = entries.first().map(|(n, _)| top(n)) {
            let root = |f: &str| entries.iter().any(|(n, _)| *n == format!("{first}/{f}"));
            if entries.iter().all(|(n, _)| top(n).as_ref() == Some(&first))
                && (root("hiera.yaml") || root("facts.yaml"))
            {
                for (n, _) in &mut entries {
                    n.drain(..=first.len());
                }
            }
        }
    }
    let mut doc = Document::from_yaml("files: {}").map_err(|e| e.to_string())?;
    // A repository opened by hand is new work, answered as today's Puppet does.
    doc.puppet = crate::Puppet::default();
    let envs = "etc/puppetlabs/code/environments/";
    for (name, bytes) in &entries {
        if name == "facts.yaml" {
            if let Ok(Some((Value::Hash(h), _))) = crate::formats::yaml::load(&text(name, bytes)?) {
                doc.facts = h;
            }
            continue;
        }
        let path = match name.find(envs) {
            Some(i) => {
                let rest = &name[i + envs.len()..];
                match rest.split_once('/') {
                    Some((env, file)) => {
                        doc.environment = env.to_string();
                        file.to_string()
                    }
                    None => continue,
                }
            }
            None => match name.find(installation) {
                Some(i) => format!("/{}", &name[i..]),
                None => name.clone(),
            },
        };
        doc.files.push((path, text(name, bytes)?.into()));
    }
    if doc.files.is_empty() {
        return Err("it holds no Hiera configuration or data files".into());
    }
    Ok(doc)
}

// ---- the zip format (written stored) ----

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn zip(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let header = |sig: u32, central: bool| {
            let mut h = Vec::new();
            h.extend(sig.to_le_bytes());
            if central {
                h.extend(20u16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes());
            h.extend(0x0800u16.to_le_bytes()); // names are UTF-8
            h.extend(0u16.to_le_bytes()); // stored
            h.extend(0u32.to_le_bytes()); // time and date
            h.extend(crc.to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]); // comment length, disk, internal attributes
                h.extend(0u32.to_le_bytes()); // external attributes
                h.extend(offset.to_le_bytes());
            }
            h.extend(name.as_bytes());
            h
        };
        out.extend(header(0x0403_4b50, false));
        out.extend(data);
        central.extend(header(0x0201_4b50, true));
    }
    let start = out.len() as u32;
    out.extend(&central);
    out.extend(0x0605_4b50u32.to_le_bytes());
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((central.len() as u32).to_le_bytes());
    out.extend(start.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

/// What a zip says of a file it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Its path inside the zip.
    pub name: String,
    /// Its bytes as the zip holds them: as they are, or deflated.
    pub data: Vec<u8>,
    /// Whether `data` is a raw deflate (RFC 1951) of the file, for the page
    /// to have the browser inflate (to at most `size` bytes).
    pub deflated: bool,
    /// The file's size, as the zip gives it.
    pub size: usize,
}

/// Why a zip, a folder or a file in them cannot be opened.
#[derive(Clone, Debug, PartialEq)]
pub struct ArchiveError(pub String);

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArchiveError {}

/// Why a zip cannot be read; also what a deflated entry that does not
/// inflate to its size means.
pub const DAMAGED: &str = "this is not a zip file (or it is damaged)";

/// The entries of a zip (one made by [`export`], or a control repository
/// zipped by hand), for [`import_files`] once the deflated ones are
/// inflated. Entries are stored or deflated, not encrypted.
pub fn unzip(bytes: &[u8]) -> Result<Vec<Entry>, ArchiveError> {
    read_zip(bytes).map_err(ArchiveError)
}

fn read_zip(bytes: &[u8]) -> Result<Vec<Entry>, String> {
    let bad = || DAMAGED.to_string();
    let u16_at = |i: usize| bytes.get(i..i + 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize);
    let u32_at = |i: usize| bytes.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let end = (0..bytes.len().saturating_sub(21)).rev().find(|&i| u32_at(i) == Some(0x0605_4b50)).ok_or_else(bad)?;
    let count = u16_at(end + 10).ok_or_else(bad)?;
    if count > MAX_FILES {
        return Err(format!("the zip holds {count} files, more than the {MAX_FILES} the playground takes"));
    }
    let mut at = u32_at(end + 16).ok_or_else(bad)?;
    let mut out = Vec::new();
    let mut total = 0usize;
    for _ in 0..count {
        if u32_at(at) != Some(0x0201_4b50) {
            return Err(bad());
        }
        let method = u16_at(at + 10).ok_or_else(bad)?;
        let packed_len = u32_at(at + 20).ok_or_else(bad)?;
        let size = u32_at(at + 24).ok_or_else(bad)?;
        let (name_len, extra_len, comment_len) =
            (u16_at(at + 28).ok_or_else(bad)?, u16_at(at + 30).ok_or_else(bad)?, u16_at(at + 32).ok_or_else(bad)?);
        let local = u32_at(at + 42).ok_or_else(bad)?;
        let name = String::from_utf8_lossy(bytes.get(at + 46..at + 46 + name_len).ok_or_else(bad)?).into_owned();
        at += 46 + name_len + extra_len + comment_len;
        total += size;
        if total > MAX_EXPANDED {
            return Err(format!("the zip expands to more than {} MB; it is refused", MAX_EXPANDED >> 20));
        }
        let data_at = local + 30 + u16_at(local + 26).ok_or_else(bad)? + u16_at(local + 28).ok_or_else(bad)?;
        let body = bytes.get(data_at..data_at + packed_len).ok_or_else(bad)?;
        let deflated = match method {
            0 => false,
            8 => true,
            m => return Err(format!("{name}: compression method {m} is not supported (use deflate)")),
        };
        out.push(Entry { name, data: body.to_vec(), deflated, size });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Str;

    #[test]
    fn a_repository_s_hiera_files_are_wanted_and_nothing_else() {
        for path in [
            "hiera.yaml",
            "data/common.yml",
            "data/a.json",
            "data/secrets.eyaml",
            "data/roles/web.conf",
            "modules/ntp/manifests/init.pp",
            "repo/site-modules/profile/manifests/web/server.pp",
            "modules/stdlib/types/port.pp",
        ] {
            assert!(wanted(path), "{path}");
        }
        for path in [
            "manifests/site.pp",
            "repo/manifests/site.pp",
            ".git/config.yaml",
            "keys/private_key.pkcs7.pem",
            "README.md",
        ] {
            assert!(!wanted(path), "{path}");
        }
    }

    /// What the extras module does with a zip.
    fn import(bytes: &[u8]) -> Result<Document, String> {
        let files = read_zip(bytes)?.into_iter().map(|e| {
            let data = match e.deflated {
                true => miniz_oxide::inflate::decompress_to_vec_with_limit(&e.data, e.size).map_err(|_| DAMAGED)?,
                false => e.data,
            };
            Ok::<_, String>((e.name, data))
        });
        read_files(files.collect::<Result<_, _>>()?)
    }

    const DOC: &str = "facts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n  data/common.yaml: |\n    a: 1\n  /etc/puppetlabs/puppet/hiera.yaml: |\n    version: 5\nlookups:\n  - key: a\n    merge: {strategy: deep, knockout_prefix: '--'}\n";

    #[test]
    fn export_then_import_gives_the_same_document() {
        let doc = Document::from_yaml(DOC).unwrap();
        let zip = export(&doc);
        assert_eq!(import(&zip).unwrap(), doc);
        let names: Vec<String> = unzip(&zip).unwrap().into_iter().map(|e| e.name).collect();
        assert!(names.contains(&"etc/puppetlabs/code/environments/production/data/common.yaml".to_string()));
        assert!(names.contains(&"etc/puppetlabs/puppet/hiera.yaml".to_string()));
        let script =
            String::from_utf8(unzip(&zip).unwrap().into_iter().find(|e| e.name == "lookups.sh").unwrap().data).unwrap();
        assert!(script.contains("--merge deep --knock-out-prefix '--' 'a'"), "{script}");
        assert!(script.contains("answered as\n# Puppet 7.23 does"), "{script}");
        // The version travels with the document.
        let eight = Document { puppet: crate::Puppet::V8, ..doc };
        assert_eq!(import(&export(&eight)).unwrap(), eight);
    }

    #[test]
    fn a_hand_made_repository_zip_is_read_from_its_layout() {
        let entries = vec![
            ("repo/etc/puppetlabs/code/environments/staging/hiera.yaml".to_string(), b"version: 5\n".to_vec()),
            ("repo/etc/puppetlabs/code/environments/staging/data/common.yaml".to_string(), b"a: 1\n".to_vec()),
            ("facts.yaml".to_string(), b"role: db\n".to_vec()),
        ];
        let doc = import(&zip(&entries)).unwrap();
        assert_eq!(doc.environment, "staging");
        assert_eq!(doc.files[1].0, "data/common.yaml");
        assert_eq!(doc.facts.get(&Str("role")), Some(&Value::from("db")));
        assert!(import(b"not a zip").is_err());
        // Deflated entries, as zip tools write them (Python's zipfile made it).
        let doc = import(include_bytes!("../../tests/data/deflated.zip")).unwrap();
        assert_eq!(doc.files[1], ("data/common.yaml".to_string(), "a: deflated\n".repeat(4).into()));
    }

    #[test]
    fn a_dropped_control_repository_keeps_only_what_hiera_reads() {
        let file = |n: &str, t: &str| (format!("control-repo/{n}"), t.as_bytes().to_vec());
        let doc = import_files(vec![
            file("hiera.yaml", "version: 5\n"),
            file("data/common.yaml", "a: 1\n"),
            file("data/nodes/web01.json", "{\"a\": 2}"),
            file("modules/ntp/data/common.yaml", "ntp::servers: []\n"),
            file("modules/ntp/manifests/init.pp", "class ntp (Array $servers) { }\n"),
            file("modules/ntp/templates/ntp.conf.epp", "<%= $servers %>\n"),
            file("manifests/site.pp", "node default {}\n"),
            file(".gitlab-ci.yml", "stages: []\n"),
            file(".git/objects/ab/cdef", "\u{0}binary"),
            file("Puppetfile", "mod 'ntp'\n"),
        ])
        .unwrap();
        let paths: Vec<&str> = doc.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "hiera.yaml",
                "data/common.yaml",
                "data/nodes/web01.json",
                "modules/ntp/data/common.yaml",
                "modules/ntp/manifests/init.pp"
            ]
        );
        assert_eq!(doc.environment, "production");
        assert_eq!(doc.puppet, crate::Puppet::V8, "new work is answered as Puppet 8");
    }

    #[test]
    fn a_folder_without_hiera_files_or_with_too_many_is_refused() {
        let err = import_files(vec![("repo/manifests/site.pp".into(), b"node default {}".to_vec())]).unwrap_err();
        assert!(err.0.contains("no Hiera configuration or data files"), "{err}");
        let many = (0..=MAX_FILES).map(|i| (format!("data/{i}.yaml"), b"a: 1\n".to_vec())).collect();
        assert!(import_files(many).unwrap_err().0.contains("more than the 10000"));
        let err = import_files(vec![("data/common.yaml".into(), vec![0xff, 0xfe])]).unwrap_err();
        assert_eq!(err.to_string(), "data/common.yaml is not UTF-8 text");
    }

    #[test]
    fn an_unpacked_export_gives_the_same_document() {
        let doc = Document::from_yaml(DOC).unwrap();
        // One node: its facts are facts.yaml, and there is no facts/ folder.
        assert!(!unzip(&export(&doc)).unwrap().iter().any(|e| e.name.starts_with("facts/")));
        let folder = unzip(&export(&doc))
            .unwrap()
            .into_iter()
            .map(|e| (format!("hiera-playground/{}", e.name), e.data))
            .collect();
        assert_eq!(import_files(folder).unwrap(), doc);
    }
}
