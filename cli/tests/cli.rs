//! `hiera-lookup` run as a user runs it, over directories on disk.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A directory of its own under the system's temporary directory, removed
/// when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hiera-lookup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, path: &str, text: &str) -> &Scratch {
        let path = self.0.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const HIERA_YAML: &str = "version: 5\nhierarchy:\n  - name: Nodes\n    path: 'nodes/%{trusted.certname}.yaml'\n  - name: Common\n    path: common.yaml\n";

/// An environment where `web01` overrides one of the common values.
fn environment(scratch: &Scratch, at: &str) {
    scratch
        .write(&format!("{at}/hiera.yaml"), HIERA_YAML)
        .write(&format!("{at}/data/common.yaml"), "ntp::servers: [0.pool.ntp.org]\nmotd: common\n")
        .write(&format!("{at}/data/nodes/web01.yaml"), "motd: 'web01 %{facts.role}'\n");
    scratch.write("facts.yaml", "role: web\n");
}

/// Runs the command, failing the test if it takes more than 20 seconds.
fn run(args: &[&str], dir: &Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("hiera-lookup {args:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn looks_up_keys_in_an_environment_directory() {
    let scratch = Scratch::new("env-dir");
    environment(&scratch, "env");
    let found = run(&["--env-dir", "env", "--facts", "facts.yaml", "--node", "web01", "motd"], &scratch.0);
    assert_eq!((found.status.code(), stdout(&found).as_str()), (Some(0), "--- web01 web\n"));
    let json = run(&["--env-dir", "env", "--render-as", "json", "ntp::servers"], &scratch.0);
    assert_eq!(stdout(&json), "[\"0.pool.ntp.org\"]\n");
    let missing = run(&["--env-dir", "env", "no::such_key"], &scratch.0);
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn explains_merges_and_lists_as_puppet_lookup_does() {
    let scratch = Scratch::new("options");
    environment(&scratch, "env");
    scratch.write("env/data/common.yaml", "motd: common\nusers:\n  alice: {uid: 1}\n");
    scratch.write("env/data/nodes/web01.yaml", "motd: 'web01 %{facts.role}'\nusers:\n  bob: {uid: 2}\n");
    let node = ["--env-dir", "env", "--facts", "facts.yaml", "--node", "web01"];
    let with = |more: &[&str]| run(&[&node[..], more].concat(), &scratch.0);

    let explained = with(&["--explain", "motd"]);
    let text = stdout(&explained);
    assert_eq!(explained.status.code(), Some(0));
    assert!(text.starts_with("Searching for \"lookup_options\"\n"), "{text}");
    assert!(text.ends_with("        Found key: \"motd\" value: \"web01 web\"\n"), "{text}");

    let merged = with(&["--merge", "deep", "--render-as", "json", "users"]);
    assert_eq!(stdout(&merged), "{\"alice\":{\"uid\":1},\"bob\":{\"uid\":2}}\n");
    let first = with(&["--render-as", "json", "users"]);
    assert_eq!(stdout(&first), "{\"bob\":{\"uid\":2}}\n");
    let all = with(&["--all", "--render-as", "json"]);
    assert_eq!(stdout(&all), "{\"motd\":\"web01 web\",\"users\":{\"bob\":{\"uid\":2}}}\n");
    let default = with(&["--default", "fallback", "no::such_key"]);
    assert_eq!((default.status.code(), stdout(&default).as_str()), (Some(0), "--- fallback\n"));

    // `--render-as s` prints Ruby's `to_s`, as `puppet lookup` does.
    scratch.write("env/data/common.yaml", "mixed: [1, \"it's\", 2.5, ~, {k: v}]\nratio: 1.5\n");
    assert_eq!(stdout(&with(&["--render-as", "s", "mixed"])), "[1, \"it's\", 2.5, nil, {\"k\"=>\"v\"}]\n");
    assert_eq!(stdout(&with(&["--render-as", "s", "ratio"])), "1.5\n");
    // And `--render-as json` writes floats and big integers as Ruby's json gem does.
    scratch.write("env/data/common.yaml", "floats: [1.0e+20, 100.0, 0.1, 1.0e-07]\nbig: 18446744073709551616\n");
    assert_eq!(stdout(&with(&["--render-as", "json", "floats"])), "[1.0e+20,100.0,0.1,1.0e-07]\n");
    assert_eq!(stdout(&with(&["--render-as", "json", "big"])), "18446744073709551616\n");
}

#[test]
fn a_file_that_does_not_parse_is_an_error_with_its_place() {
    let scratch = Scratch::new("bad-yaml");
    environment(&scratch, "env");
    scratch.write("env/data/common.yaml", "motd: [common\n");
    let failed = run(&["--env-dir", "env", "motd"], &scratch.0);
    let message = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{message}");
    assert!(message.contains("/production/data/common.yaml") && message.contains("at line 1 column 7"), "{message}");
}

#[test]
fn a_file_that_cannot_be_read_is_an_error_with_its_path_not_an_empty_file() {
    let scratch = Scratch::new("unreadable");
    environment(&scratch, "env");
    scratch.write("env/data/common.yaml", "");
    // Over the 64 MiB that hiera-lookup reads; sparse, so it costs no disk.
    std::fs::File::create(scratch.0.join("env/data/common.yaml")).unwrap().set_len((64 << 20) + 1).unwrap();
    let failed = run(&["--env-dir", "env", "motd"], &scratch.0);
    let message = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{message}");
    assert!(
        message.contains("/etc/puppetlabs/code/environments/production/data/common.yaml is larger than 64 MiB"),
        "{message}"
    );
}

#[test]
fn answers_as_puppet_8_unless_told_7() {
    let scratch = Scratch::new("puppet");
    environment(&scratch, "env");
    scratch.write("env/data/common.yaml", "motd: 'role %{::no_such_fact}'\n");
    let eight = run(&["--env-dir", "env", "motd"], &scratch.0);
    let message = String::from_utf8_lossy(&eight.stderr);
    assert_eq!(eight.status.code(), Some(2), "{message}");
    assert!(message.contains("Undefined variable '::no_such_fact'; "), "{message}");
    let seven = run(&["--env-dir", "env", "--puppet", "7", "motd"], &scratch.0);
    assert_eq!((seven.status.code(), stdout(&seven).as_str()), (Some(0), "--- 'role '\n"));
    let nine = run(&["--env-dir", "env", "--puppet", "9", "motd"], &scratch.0);
    assert!(String::from_utf8_lossy(&nine.stderr).contains("--puppet must be 7 or 8, not '9'"));
}

#[test]
fn checks_conformance_cases() {
    // Each case as its own Puppet: the two differ on this one.
    for dir in ["cases", "puppet8"] {
        let case = format!("{}/../tests/conformance/{dir}/interp-top-scope-variables.yaml", env!("CARGO_MANIFEST_DIR"));
        let checked = run(&["conformance", "--exact", &case], Path::new(env!("CARGO_MANIFEST_DIR")));
        let text = stdout(&checked);
        assert_eq!(checked.status.code(), Some(0), "{text}");
        assert!(text.ends_with(" passed, 0 failed\n") && !text.starts_with("0 passed"), "{text}");
    }
}

#[test]
fn runs_a_document_with_pinned_answers_as_a_test() {
    // What the page writes once a value is pinned, and the same document
    // after a data file changed under the pin.
    let doc = "files:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    motd: hello\nlookups:\n- key: motd\n  expect:\n    value: hello\n- key: nope\n  expect:\n    error: Function lookup() did not find a value for the name 'nope'\n";
    let scratch = Scratch::new("pinned");
    scratch.write("pinned.yaml", doc).write("changed.yaml", &doc.replace("motd: hello", "motd: bye"));
    let passed = run(&["conformance", "pinned.yaml"], &scratch.0);
    assert_eq!((passed.status.code(), stdout(&passed).as_str()), (Some(0), "2 passed, 0 failed\n"));
    let failed = run(&["conformance", "changed.yaml"], &scratch.0);
    let text = stdout(&failed);
    assert_eq!(failed.status.code(), Some(1), "{text}");
    assert!(text.contains("changed.yaml#0 motd: expected value \"hello\", got value \"bye\""), "{text}");
}

#[test]
fn root_plays_the_machine_s_root_directory() {
    let scratch = Scratch::new("root");
    environment(&scratch, "root/etc/puppetlabs/code/environments/production");
    let found = run(&["--root", "root", "--facts", "facts.yaml", "--node", "web01", "motd"], &scratch.0);
    assert_eq!((found.status.code(), stdout(&found).as_str()), (Some(0), "--- web01 web\n"));
}

#[test]
fn root_reads_levels_at_absolute_paths_outside_puppet_s_directories() {
    let scratch = Scratch::new("outside");
    let env = "root/etc/puppetlabs/code/environments/production";
    let config = "version: 5\nhierarchy:\n  - name: Shared\n    path: '/srv/hiera-shared/%{facts.whereami}.yaml'\n  - name: Absolute datadir\n    datadir: /var/lib/hiera\n    path: common.yaml\n";
    scratch
        .write(&format!("{env}/hiera.yaml"), config)
        .write(&format!("{env}/data/common.yaml"), "motd: env\n")
        .write("root/srv/hiera-shared/nyc.yaml", "motd: shared nyc\n")
        .write("root/var/lib/hiera/common.yaml", "proxy: absolute datadir\n")
        .write("facts.yaml", "whereami: nyc\n");
    let shared = run(&["--root", "root", "--facts", "facts.yaml", "--", "motd"], &scratch.0);
    assert_eq!((shared.status.code(), stdout(&shared).as_str()), (Some(0), "--- shared nyc\n"));
    let datadir = run(&["--root", "root", "--facts", "facts.yaml", "proxy"], &scratch.0);
    assert_eq!((datadir.status.code(), stdout(&datadir).as_str()), (Some(0), "--- absolute datadir\n"));
}

#[test]
fn root_reads_the_modules_of_the_environment_s_modulepath() {
    // site/ in the environment, and a directory outside Puppet's own.
    let scratch = Scratch::new("modulepath");
    let env = "root/etc/puppetlabs/code/environments/production";
    let module = |dir: &str, data: &str| {
        scratch.write(&format!("{dir}/hiera.yaml"), "version: 5\n").write(&format!("{dir}/data/common.yaml"), data);
    };
    scratch.write(&format!("{env}/environment.conf"), "modulepath = site:/srv/modules:$basemodulepath\n");
    module(&format!("{env}/site/profiles"), "profiles::from: site\n");
    module("root/srv/modules/backup", "backup::from: srv\n");
    module(&format!("{env}/modules/apache"), "apache::from: modules\n");
    for (key, value) in [("profiles::from", "site"), ("backup::from", "srv")] {
        let found = run(&["--root", "root", key], &scratch.0);
        assert_eq!((found.status.code(), stdout(&found)), (Some(0), format!("--- {value}\n")));
    }
    // modules/ is not on this modulepath.
    let missing = run(&["--root", "root", "apache::from"], &scratch.0);
    assert_eq!(missing.status.code(), Some(1), "{}", stdout(&missing));
}

#[test]
fn looks_up_every_node_of_a_facts_directory() {
    let scratch = Scratch::new("facts-dir");
    environment(&scratch, "env");
    // facter -y, a PuppetDB factset (its certname names the node), and a
    // file named after its node; one without the key's data, one whose
    // interpolation fails.
    scratch
        .write("facts/a.yaml", "role: app\nnetworking:\n  fqdn: web01\n")
        .write("facts/db.json", r#"{"certname": "web01", "facts": {"data": [{"name": "role", "value": "db"}]}}"#)
        .write("facts/web02.yaml", "role: web\n")
        .write("env/data/nodes/web02.yaml", "motd: '%{lookup(\"motd\")}'\n");
    let both = run(&["--env-dir", "env", "--facts-dir", "facts", "--render-as", "json", "motd", "nope"], &scratch.0);
    assert_eq!(both.status.code(), Some(0), "{}", String::from_utf8_lossy(&both.stderr));
    assert_eq!(
        stdout(&both),
        "{\"a\":{\"motd\":\"common\"},\"web01\":{\"motd\":\"web01 db\"},\"web02\":{\"motd\":{\"error\":\"Lookup of key 'motd' failed: Recursive lookup detected in [motd]\"}}}\n"
    );
    let all = run(&["--env-dir", "env", "--facts-dir", "facts", "--render-as", "json", "--all"], &scratch.0);
    assert!(
        stdout(&all).starts_with("{\"a\":{\"motd\":\"common\",\"ntp::servers\":[\"0.pool.ntp.org\"]},"),
        "{}",
        stdout(&all)
    );
    let mixed = run(&["--env-dir", "env", "--facts-dir", "facts", "--node", "x", "motd"], &scratch.0);
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("--facts-dir names each node"));
}

#[test]
fn diff_lists_every_node_and_key_whose_answer_a_change_changes() {
    let scratch = Scratch::new("diff");
    environment(&scratch, "main");
    environment(&scratch, "pr");
    scratch
        .write("pr/data/common.yaml", "ntp::servers: [0.pool.ntp.org]\nmotd: changed\nnew: 1\n")
        .write("facts/web01.yaml", "role: web\n")
        .write("facts/web02.yaml", "role: db\n");
    let args = ["diff", "--from", "main", "--to", "pr", "--facts-dir", "facts", "--render-as", "json", "--all"];
    let changed = run(&args, &scratch.0);
    assert_eq!(changed.status.code(), Some(1), "{}", String::from_utf8_lossy(&changed.stderr));
    // web01's motd comes from its node file: only web02's changes, and the new key for both.
    assert_eq!(
        stdout(&changed),
        concat!(
            r#"[{"node":"web01","key":"new","before":{"not_found":true},"after":{"value":1}},"#,
            r#"{"node":"web02","key":"motd","before":{"value":"common"},"after":{"value":"changed"}},"#,
            r#"{"node":"web02","key":"new","before":{"not_found":true},"after":{"value":1}}]"#,
            "\n"
        )
    );
    // --all looks up only the keys the change can touch: the same as naming every key.
    let every = ["ntp::servers", "motd", "new"];
    let named = run(&[&args[..9], &every[..]].concat(), &scratch.0);
    assert_eq!(stdout(&named), stdout(&changed));
    let text = run(&["diff", "--from", "main", "--to", "pr", "--facts-dir", "facts", "motd"], &scratch.0);
    assert_eq!(stdout(&text), "1 difference\nweb02 motd: \"common\" -> \"changed\"\n");
    let same = run(&["diff", "--from", "main", "--to", "main", "--facts-dir", "facts", "--all"], &scratch.0);
    assert_eq!((same.status.code(), stdout(&same).as_str()), (Some(0), "0 differences\n"));
    let broken = run(&["diff", "--from", "main", "--to", "nowhere", "--facts-dir", "facts", "motd"], &scratch.0);
    assert_eq!(broken.status.code(), Some(2));
}

#[test]
fn files_that_are_not_regular_files_are_left_alone() {
    // Opening a named pipe waits for a writer that never comes: a module
    // holding one must not stop a lookup that has no use for it.
    let scratch = Scratch::new("fifo");
    environment(&scratch, "env");
    std::fs::create_dir_all(scratch.0.join("env/modules/site/files")).unwrap();
    let made = Command::new("mkfifo").arg(scratch.0.join("env/modules/site/files/pipe")).status().unwrap();
    assert!(made.success());
    let found = run(&["--env-dir", "env", "ntp::servers"], &scratch.0);
    assert_eq!((found.status.code(), stdout(&found).as_str()), (Some(0), "---\n- 0.pool.ntp.org\n"));
}

#[test]
fn decrypts_eyaml_with_the_key_files_under_root() {
    let case = include_str!("../../tests/conformance/backends/eyaml-whole-string-values.yaml");
    let doc = hiera_core::case::Document::from_yaml(case).unwrap();
    let scratch = Scratch::new("eyaml");
    for (path, text) in &doc.files {
        let at = match path.strip_prefix('/') {
            Some(absolute) => format!("root/{absolute}"),
            None => format!("root/etc/puppetlabs/code/environments/production/{path}"),
        };
        scratch.write(&at, text);
    }
    scratch.write("facts.yaml", "os:\n  family: Debian\n");
    let args =
        ["--root", "root", "--facts", "facts.yaml", "--node", "db01.example.com", "profile::postgresql::password"];
    let found = run(&args, &scratch.0);
    assert_eq!((found.status.code(), stdout(&found).as_str()), (Some(0), "--- Pg-S3cr3t!2024\n"));

    std::fs::remove_file(scratch.0.join("root/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem")).unwrap();
    let failed = run(&args, &scratch.0);
    let message = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{message}");
    assert!(
        message.contains(
            "Error was No such file or directory @ rb_sysopen - /etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem"
        ),
        "{message}"
    );
}

/// A document with several nodes, exported as the page exports it and
/// unpacked: `--facts-dir facts` over it answers every node as the page's
/// Nodes tab does.
#[test]
fn an_exported_document_s_nodes_answer_from_its_facts_directory() {
    use hiera_core::case::{Document, OtherNode};
    use hiera_core::fleet::Answer;
    let mut doc = Document::from_yaml(
        "node: web01.example.com\nfacts:\n  role: web\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Nodes\n        path: \"nodes/%{trusted.certname}.yaml\"\n      - name: Roles\n        path: \"roles/%{facts.role}.yaml\"\n  data/nodes/web01.example.com.yaml: \"port: 8080\\n\"\n  data/roles/web.yaml: \"port: 80\\nname: web\\n\"\n  data/roles/db.yaml: \"port: 5432\\n\"\nlookups:\n  - key: port\n  - key: name\n",
    )
    .unwrap();
    let db = hiera_core::value::Hash::from_iter([(hiera_core::Value::from("role"), hiera_core::Value::from("db"))]);
    doc.nodes.push(OtherNode { name: "db01.example.com".into(), environment: None, facts: db });
    let scratch = Scratch::new("exported-nodes");
    for entry in hiera_core::archive::unzip(&hiera_core::archive::export(&doc)).unwrap() {
        scratch.write(&entry.name, std::str::from_utf8(&entry.data).unwrap());
    }
    let out = run(&["--root", ".", "--facts-dir", "facts", "--render-as", "json", "port", "name"], &scratch.0);
    let all = hiera_core::json::parse(&stdout(&out)).unwrap();
    let table = hiera_core::playground::Playground::new(doc).fleet();
    for (column, node) in table.nodes.iter().enumerate() {
        for (row, key) in table.keys.iter().enumerate() {
            let got = all.get(node.as_str()).and_then(|n| n.get(key.as_str()));
            match &table.answers[row][column] {
                Answer::Value(v) => assert_eq!(got, Some(v), "{node} {key}"),
                Answer::NotFound => assert_eq!(got, None, "{node} {key}"),
                Answer::Error(e) => panic!("{node} {key}: {e}"),
            }
        }
    }
    assert_eq!(
        stdout(&out).trim(),
        r#"{"db01.example.com":{"port":5432},"web01.example.com":{"name":"web","port":8080}}"#
    );
}

/// The same control repository (puppetlabs/control-repo, from
/// `../shared/realworld/`) on two platforms at once: each node's answers by
/// `--facts-dir` are the ones Puppet gave for that node alone.
#[test]
fn a_facts_directory_of_real_nodes_answers_as_puppet_did_for_each() {
    use hiera_core::case::{Document, Expect};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/realworld");
    let names = ["combined-puppetlabs-control-repo-rhel9.yaml", "combined-puppetlabs-control-repo-ubuntu2204.yaml"];
    let Ok(docs) = names.iter().map(|n| std::fs::read_to_string(dir.join(n))).collect::<Result<Vec<_>, _>>() else {
        eprintln!("no ../shared/realworld here: skipped");
        return;
    };
    let docs: Vec<Document> = docs.iter().map(|t| Document::from_yaml(t).unwrap()).collect();
    let scratch = Scratch::new("realworld-nodes");
    for (path, text) in &docs[0].files {
        assert_eq!(docs[1].files.iter().find(|(p, _)| p == path).map(|(_, t)| t), Some(text), "the same repository");
        scratch.write(&format!("env/{path}"), text);
    }
    // Plain lookups (one key; no merge, default or type), a key once.
    let mut keys: Vec<&str> = Vec::new();
    let mut expected = std::collections::BTreeMap::new();
    for doc in &docs {
        let node = doc.node().name;
        let facts = hiera_core::yaml::to_yaml(&hiera_core::Value::Hash(doc.facts.clone()));
        scratch.write(
            &format!("facts/{node}.yaml"),
            &format!("clientcert: {node}\n{}", facts.trim_start_matches("---\n")),
        );
        let plain = |l: &&hiera_core::case::CaseLookup| {
            !l.key_is_list && l.merge.is_none() && l.default.is_none() && l.value_type.is_none()
        };
        for l in doc.lookups.iter().filter(plain) {
            let key = l.keys[0].as_str();
            if !keys.contains(&key) {
                keys.push(key);
            }
            expected.entry((node.clone(), key.to_string())).or_insert_with(|| l.expect.clone());
        }
    }
    let mut args = vec!["--env-dir", "env", "--facts-dir", "facts", "--render-as", "json", "--"];
    args.extend(&keys);
    let out = run(&args, &scratch.0);
    let all = hiera_core::json::parse(&stdout(&out)).unwrap();
    let mut compared = 0;
    for ((node, key), expect) in &expected {
        let got = all.get(node.as_str()).and_then(|n| n.get(key.as_str()));
        match (expect, got) {
            (Some(Expect::Value(v)), Some(g)) => {
                assert!(hiera_core::case::same(v, g), "{node} {key}: {g:?}, Puppet {v:?}")
            }
            (Some(Expect::Error(m)), None) => {
                assert!(m.contains("did not find a value"), "{node} {key}: not found, Puppet {m}")
            }
            (Some(Expect::Error(m)), Some(g)) => {
                assert_eq!(g.get("error").map(|e| e.to_ruby_s()).as_deref(), Some(m.as_str()), "{node} {key}")
            }
            (e, g) => panic!("{node} {key}: {g:?}, Puppet {e:?}"),
        }
        compared += 1;
    }
    assert!(compared > 100, "{compared} answers compared");
}

#[test]
fn a_lookup_that_fans_out_ends_with_a_message_in_every_command() {
    let scratch = Scratch::new("fan-out");
    // Each key interpolates the next one twice, thirty deep: 2^30 characters.
    let mut data: String =
        (0..30).map(|i| format!("k{i}: \"%{{lookup('k{0}')}}%{{lookup('k{0}')}}\"\n", i + 1)).collect();
    data.push_str("k30: x\n");
    for env in ["main", "pr"] {
        scratch.write(&format!("{env}/hiera.yaml"), "version: 5\n").write(&format!("{env}/data/common.yaml"), &data);
    }
    scratch.write("pr/data/common.yaml", &data.replace("k30: x", "k30: y")).write("facts/n1.yaml", "a: 1\n");
    let bound = "Lookup of 'k0' stopped: it made more than 10000 nested lookups";
    for explain in [&[][..], &["--explain"][..]] {
        let one = run(&[&["--env-dir", "main"], explain, &["k0"]].concat(), &scratch.0);
        assert_eq!(one.status.code(), Some(2));
        let said = format!("{}{}", stdout(&one), String::from_utf8_lossy(&one.stderr));
        assert!(said.contains(bound), "{said}");
    }
    let all = run(&["--env-dir", "main", "--facts-dir", "facts", "--all", "--render-as", "json"], &scratch.0);
    assert!(stdout(&all).contains(&format!("\"k0\":{{\"error\":\"{bound}")), "{}", stdout(&all));
    assert!(stdout(&all).contains("\"k29\":\"xx\""));
    let diff = run(&["diff", "--from", "main", "--to", "pr", "--facts-dir", "facts", "--all"], &scratch.0);
    assert_eq!(diff.status.code(), Some(1));
    assert!(stdout(&diff).contains("n1 k29: \"xx\" -> \"yy\""), "{}", stdout(&diff));
}

#[test]
fn binds_class_parameters_as_include_does_and_fails_where_puppet_would() {
    let scratch = Scratch::new("class");
    scratch
        .write("env/hiera.yaml", "version: 5\nhierarchy:\n  - name: OS\n    path: 'os/%{facts.os.family}.yaml'\n  - name: Common\n    path: common.yaml\n")
        .write("env/data/common.yaml", "ntp::servers: [a.pool.ntp.org]\nweb::port: '8080'\n")
        .write("env/data/os/Debian.yaml", "ntp::servers: [deb.pool.ntp.org]\n")
        .write("env/modules/ntp/manifests/init.pp", "class ntp (\n  Array[String] $servers,\n  Boolean $iburst = true,\n  $restrict = lookup('x'),\n) {\n  notify { \"${servers}\": }\n}\n")
        .write("env/modules/web/manifests/init.pp", "class web (Integer $port) { }\n")
        .write("facts.yaml", "os: {family: Debian}\n");
    let args = |extra: &[&'static str]| {
        let mut a = vec!["class", "--env-dir", "env", "--node", "n1.example.com", "--facts", "facts.yaml"];
        a.extend_from_slice(extra);
        a
    };
    let ok = run(&args(&["ntp", "--render-as", "json"]), &scratch.0);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    assert_eq!(
        stdout(&ok).trim_end(),
        r#"{"ntp":{"parameters":{"servers":["deb.pool.ntp.org"],"iburst":true,"restrict":{"default_expression":"lookup('x')"}}}}"#
    );
    let text = stdout(&run(&args(&["ntp"]), &scratch.0));
    assert!(text.contains("class ntp (modules/ntp/manifests/init.pp:1)"), "{text}");
    assert!(
        text.contains("servers   Array[String]  [\"deb.pool.ntp.org\"]  (hiera: OS data/os/Debian.yaml:1)"),
        "{text}"
    );
    assert!(text.contains("iburst    Boolean  true  (default)"), "{text}");
    let failed = run(&args(&["web", "--render-as", "json"]), &scratch.0);
    assert_eq!(failed.status.code(), Some(2));
    assert_eq!(
        stdout(&failed).trim_end(),
        r#"{"web":{"error":"Evaluation Error: Error while evaluating a Function Call, Class[Web]: parameter 'port' expects an Integer value, got String (line: 1, column: 1) on node n1.example.com"}}"#
    );
    let text = stdout(&run(&args(&["web"]), &scratch.0));
    assert!(text.contains("✗ parameter 'port' expects an Integer value, got String"), "{text}");
}

#[test]
fn check_lists_every_class_that_fails_on_any_node_with_the_value_s_file_and_line() {
    let scratch = Scratch::new("check");
    scratch
        .write("env/hiera.yaml", "version: 5\nhierarchy:\n  - name: OS\n    path: 'os/%{facts.os.family}.yaml'\n  - name: Common\n    path: common.yaml\n")
        .write("env/data/common.yaml", "web::port: '8080'\n")
        .write("env/data/os/RedHat.yaml", "app::port: 80800\n")
        .write("env/data/os/Debian.yaml", "app::port: 8080\nntp::servers: [pool.ntp.org]\n")
        .write("env/modules/web/manifests/init.pp", "class web (Integer $port) { }\n")
        .write("env/modules/app/manifests/init.pp", "class app (Stdlib::Port $port) { }\n")
        .write("env/modules/stdlib/types/port.pp", "type Stdlib::Port = Integer[0, 65535]\n")
        .write("env/modules/ntp/manifests/init.pp", "class ntp (Array[String] $servers) { }\n")
        .write("facts/rh.yaml", "clientcert: rh.example.com\nos: {family: RedHat}\n")
        .write("facts/deb.yaml", "clientcert: deb.example.com\nos: {family: Debian}\n")
        .write("classes.txt", "# the roles' classes\napp\nntp\n");
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--env-dir", "env", "--facts-dir", "facts"];
        args.extend_from_slice(extra);
        run(&args, &scratch.0)
    };
    let text = check(&["--all-classes"]);
    assert_eq!(text.status.code(), Some(1));
    assert_eq!(
        stdout(&text).trim_end(),
        "deb.example.com web $port: Class[Web]: parameter 'port' expects an Integer value, got String (data/common.yaml:1)\n\
         rh.example.com app $port: Class[App]: parameter 'port' expects a Stdlib::Port = Integer[0, 65535] value, got Integer[80800, 80800] (data/os/RedHat.yaml:1)\n\
         rh.example.com ntp $servers: Class[Ntp]: expects a value for parameter 'servers'\n\
         rh.example.com web $port: Class[Web]: parameter 'port' expects an Integer value, got String (data/common.yaml:1)\n\
         4 failures on 2 of 2 nodes (3 classes each)"
    );
    let json = check(&["--classes", "classes.txt", "--render-as", "json"]);
    assert_eq!(json.status.code(), Some(1));
    assert_eq!(
        stdout(&json).trim_end(),
        r#"[{"node":"rh.example.com","class":"app","parameter":"port","message":"Class[App]: parameter 'port' expects a Stdlib::Port = Integer[0, 65535] value, got Integer[80800, 80800]","file":"data/os/RedHat.yaml","line":1},{"node":"rh.example.com","class":"ntp","parameter":"servers","message":"Class[Ntp]: expects a value for parameter 'servers'"}]"#
    );
    let fine = check(&["ntp", "--facts-dir", "facts"]);
    assert_eq!(fine.status.code(), Some(1), "ntp fails on rh");
    scratch.write("env/data/common.yaml", "web::port: 8080\nntp::servers: [pool.ntp.org]\n");
    scratch.write("env/data/os/RedHat.yaml", "app::port: 8080\n");
    let passed = check(&["--all-classes"]);
    assert_eq!(passed.status.code(), Some(0), "{}", stdout(&passed));
    assert_eq!(stdout(&passed).trim_end(), "0 failures on 0 of 2 nodes (3 classes each)");
}

#[test]
fn a_binary_string_that_is_not_text_is_printed_as_puppet_lookup_prints_it() {
    let scratch = Scratch::new("binary");
    scratch
        .write("env/hiera.yaml", "version: 5\n")
        .write("env/data/common.yaml", "bin: !!binary /+8A\nlist: [!!binary /w==, a]\ntext: !!binary aGVsbG8=\n");
    let out = |key: &str, render: &str| {
        let o = run(&["--env-dir", "env", "--render-as", render, key], &scratch.0);
        (o.status.code(), o.stdout, String::from_utf8_lossy(&o.stderr).to_string())
    };
    assert_eq!(out("bin", "yaml"), (Some(0), b"--- !binary |-\n  /+8A\n".to_vec(), String::new()));
    assert_eq!(out("list", "yaml"), (Some(0), b"---\n- !binary |-\n  /w==\n- a\n".to_vec(), String::new()));
    assert_eq!(out("text", "yaml"), (Some(0), b"--- hello\n".to_vec(), String::new()));
    // Ruby's `puts` writes the bytes; its JSON generator refuses them, in its words.
    assert_eq!(out("bin", "s"), (Some(0), vec![0xff, 0xef, 0x00, b'\n'], String::new()));
    assert_eq!(out("list", "s"), (Some(0), b"[\"\\xFF\", \"a\"]\n".to_vec(), String::new()));
    let (code, _, err) = out("bin", "json");
    assert_eq!((code, err.trim_end()), (Some(2), "Error: Could not run: partial character in source, but hit end"));
}

#[test]
fn lint_reviews_the_data_for_every_node_with_each_finding_s_file_and_line() {
    let scratch = Scratch::new("lint");
    scratch
        .write(
            "env/hiera.yaml",
            "version: 5\nhierarchy:\n  - name: OS\n    path: 'os/%{::osfamily}.yaml'\n  - name: Common\n    path: common.yaml\n",
        )
        .write("env/data/common.yaml", "web::port: 8080\nweb::prot: 443\nmotd: 'on %{facts.hostname}'\n")
        .write("env/data/os/Debian.yaml", "web::port: '80'\n")
        .write("env/data/os/Solaris.yaml", "web::port: 80\n")
        .write("env/manifests/site.pp", "node default {\n  notify { lookup('motd'): }\n  include web\n}\n")
        .write("env/modules/web/manifests/init.pp", "class web (Integer $port) { }\n")
        .write("facts/deb.yaml", "clientcert: deb.example.com\nosfamily: Debian\nhostname: deb\n")
        .write("facts/rh.yaml", "clientcert: rh.example.com\nosfamily: RedHat\nhostname: rh\n");
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "--env-dir", "env", "--facts-dir", "facts"];
        args.extend_from_slice(extra);
        run(&args, &scratch.0)
    };
    let text = lint(&[]);
    assert_eq!(text.status.code(), Some(1), "{}", String::from_utf8_lossy(&text.stderr));
    assert_eq!(
        stdout(&text).trim_end(),
        "data/common.yaml:2: unused-key web::prot: class web has no parameter `prot`, and no lookup in the manifests or data reads `web::prot`\n\
         data/common.yaml:3: legacy-fact motd: `%{facts.hostname}` reads the legacy fact `hostname`, which Puppet 8 does not give nodes: use `%{facts.networking.hostname}`\n\
         data/os/Debian.yaml:1: type web::port [deb.example.com]: Class[Web]: parameter 'port' expects an Integer value, got String\n\
         data/os/Solaris.yaml: dead-file: no node's hierarchy reads this file (of 2 nodes)\n\
         hiera.yaml:4: legacy-fact: `%{::osfamily}` reads the legacy fact `osfamily`, which Puppet 8 does not give nodes: use `%{facts.os.family}`; with Puppet 8's facts no node of the 2 given reads a file of level \"OS\" (1 does with legacy facts)\n\
         5 findings over 2 nodes: 1 unused-key, 1 dead-file, 2 legacy-fact, 1 type"
    );
    let json = lint(&["--render-as", "json"]);
    assert_eq!(json.status.code(), Some(1));
    let first = stdout(&json);
    assert!(
        first.starts_with(r#"[{"kind":"unused-key","file":"data/common.yaml","line":2,"key":"web::prot","message":"class web has no parameter `prot`"#),
        "{first}"
    );
    assert!(
        first.contains(
            r#"{"kind":"type","file":"data/os/Debian.yaml","line":1,"key":"web::port","nodes":["deb.example.com"],"#
        ),
        "{first}"
    );
    // Fixed, nothing is found.
    scratch
        .write("env/hiera.yaml", "version: 5\nhierarchy:\n  - name: OS\n    path: 'os/%{facts.os.family}.yaml'\n  - name: Common\n    path: common.yaml\n")
        .write("env/data/common.yaml", "motd: 'on %{facts.networking.hostname}'\n")
        .write("env/data/os/Debian.yaml", "web::port: 80\n")
        .write("env/data/os/Solaris.yaml", "web::port: 80\n")
        .write("facts/deb.yaml", "clientcert: deb.example.com\nos: {family: Debian}\n")
        .write("facts/rh.yaml", "clientcert: rh.example.com\nos: {family: Solaris}\n");
    let clean = lint(&[]);
    assert_eq!(stdout(&clean).trim_end(), "no findings over 2 nodes");
    assert_eq!(clean.status.code(), Some(0));
    let usage = run(&["lint", "--env-dir", "env"], &scratch.0);
    assert_eq!(usage.status.code(), Some(2));
}

/// The fenced block that follows `marker` in a Markdown text.
fn block_after<'t>(text: &'t str, marker: &str) -> &'t str {
    let rest = &text[text.find(marker).unwrap_or_else(|| panic!("no {marker}"))..];
    let start = rest.find("```sh\n").unwrap() + "```sh\n".len();
    &rest[start..start + rest[start..].find("```").unwrap()]
}

#[test]
fn the_ci_recipes_commands_post_a_diff_of_a_real_git_repository() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ci.md")).unwrap();
    let commands = block_after(&docs, "<!-- ci-compare -->");
    // Both recipes run those lines as they are.
    for recipe in ["```yaml\nname: Hiera", "```yaml\nhiera-diff:"] {
        let yaml = &docs[docs.find(recipe).unwrap()..];
        let yaml = &yaml[..yaml[3..].find("```").unwrap()];
        for line in commands.lines() {
            assert!(yaml.lines().any(|l| l.trim() == line), "{recipe}... does not run `{line}`");
        }
    }
    let scratch = Scratch::new("ci");
    let repo = scratch.0.join("control-repo");
    let git = |args: &[&str]| {
        let out = Command::new("git").args(args).current_dir(&repo).output().expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    scratch
        .write("control-repo/hiera.yaml", "version: 5\nhierarchy:\n  - name: Role\n    path: 'roles/%{facts.role}.yaml'\n  - name: Common\n    path: common.yaml\n")
        .write("control-repo/data/common.yaml", "ntp::servers: [a.example.com]\nport: 80\n")
        .write("control-repo/data/roles/db.yaml", "port: 5432\n");
    for i in 0..30 {
        let role = if i % 3 == 0 { "db" } else { "web" };
        scratch.write(
            &format!("control-repo/facts/node{i:02}.yaml"),
            &format!("clientcert: node{i:02}.example.com\nrole: {role}\n"),
        );
    }
    git(&["init", "-q", "-b", "main"]);
    git(&["-c", "user.name=CI", "-c", "user.email=ci@example.com", "add", "."]);
    git(&["-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-qm", "data"]);
    scratch.write("control-repo/data/common.yaml", "ntp::servers: [b.example.com]\nport: \"%{nope('x')}\"\n");
    git(&["-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-qam", "change"]);
    let bin = Path::new(env!("CARGO_BIN_EXE_hiera-lookup")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .args(["-eu", "-c", commands])
        .current_dir(&repo)
        .env("PATH", path)
        .env("TMPDIR", &scratch.0)
        .env("BASE", "HEAD~1")
        .env("FACTS", "facts")
        .env("DIFF_URL", "https://ci.example.com/run/1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let markdown = std::fs::read_to_string(repo.join("hiera-diff.md")).unwrap();
    assert!(markdown.starts_with("### Hiera: 2 keys change on 30 of 30 nodes, 20 answers now fail\n"), "{markdown}");
    assert!(markdown.contains("#### `port` (20 nodes) ⚠️ now fails on 20"), "{markdown}");
    assert!(markdown.contains("30 nodes: `[\"a.example.com\"]` → `[\"b.example.com\"]`"), "{markdown}");
    let json = std::fs::read_to_string(repo.join("hiera-diff.json")).unwrap();
    assert_eq!(json.matches("\"node\":").count(), 50, "{json}");
    // The base's worktree is gone again.
    assert!(!scratch.0.join("hiera-base").exists());
}

#[test]
fn a_facts_directory_takes_facterdb_s_files() {
    let scratch = Scratch::new("facterdb");
    scratch
        .write("env/hiera.yaml", "version: 5\nhierarchy:\n  - name: OS\n    path: 'os/%{facts.os.family}.yaml'\n  - name: Common\n    path: common.yaml\n")
        .write("env/data/common.yaml", "pkg: common\n")
        .write("env/data/os/Debian.yaml", "pkg: apt\n")
        .write("env/data/os/RedHat.yaml", "pkg: dnf\n");
    let facterdb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/facts/facterdb");
    for name in ["debian-12-x86_64.facts", "rocky-9-x86_64.facts", "windows-2022-x86_64.facts"] {
        scratch.write(&format!("facts/{name}"), &std::fs::read_to_string(facterdb.join(name)).unwrap());
    }
    let out = run(&["--env-dir", "env", "--facts-dir", "facts", "--render-as", "json", "pkg"], &scratch.0);
    assert_eq!(
        stdout(&out).trim_end(),
        r#"{"debian-12-x86_64":{"pkg":"apt"},"rocky-9-x86_64":{"pkg":"dnf"},"windows-2022-x86_64":{"pkg":"common"}}"#
    );
}

#[test]
fn reduce_writes_the_smallest_case_that_gives_the_same_answer() {
    let scratch = Scratch::new("reduce");
    environment(&scratch, "env");
    scratch
        .write("env/data/common.yaml", "ntp::servers: [0.pool.ntp.org]\nmotd: common\nsecret: hunter2\n")
        .write("env/data/nodes/db01.yaml", "motd: db01\n")
        .write("env/manifests/site.pp", "node default { }\n")
        .write("facts.yaml", "role: web\nunused: {big: fact}\n");
    // (--explain prints the whole facts hash when a value interpolates a fact:
    // here none does, so the facts the hierarchy does not read can go.)
    scratch.write("env/data/nodes/web01.yaml", "motd: web01\n");
    let out = run(&["reduce", "--env-dir", "env", "--facts", "facts.yaml", "--node", "web01", "motd"], &scratch.0);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let case = stdout(&out);
    assert!(case.contains("  hiera.yaml: |"), "{case}");
    assert!(case.contains("  data/nodes/web01.yaml: |\n    motd: web01\n"), "{case}");
    for gone in ["hunter2", "ntp::servers", "db01", "site.pp", "unused", "motd: common"] {
        assert!(!case.contains(gone), "{gone} should be left out: {case}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("Left out: "), "{}", String::from_utf8_lossy(&out.stderr));
    // The case runs as a document: the page opens it, conformance reads it.
    scratch.write("case.yaml", &case);
    assert_eq!(run(&["conformance", "case.yaml"], &scratch.0).status.code(), Some(0));
    assert_eq!(run(&["reduce", "--env-dir", "env"], &scratch.0).status.code(), Some(2));
}
