//! Bad input never panics: every case's files, truncated at every tenth
//! byte, still give each lookup an answer (a value or an error).

mod common;

use hiera_core::case::Document;
use hiera_core::{Hiera, Request};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

#[test]
fn truncated_files_never_panic() {
    let dir = common::conformance_dir();
    let mut paths: Vec<PathBuf> = ["cases", "own"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    paths.sort();
    let mut runs = 0;
    for path in paths {
        let doc = Document::from_yaml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let requests: Vec<Request> = doc.lookups.iter().filter_map(|l| l.request(true).ok()).collect();
        let files = doc.files();
        let intact = Hiera::new(files.clone(), doc.node()).with_puppet(doc.puppet);
        let explains: Vec<String> = requests.iter().map(|r| intact.lookup(r).explain_text()).collect();
        for (file, text) in files.iter() {
            let readers = common::readers(&explains, file);
            for cut in (0..text.len()).step_by(10).filter(|c| text.is_char_boundary(*c)) {
                let mut hiera = Hiera::new(files.clone(), doc.node()).with_puppet(doc.puppet);
                hiera.set_file(file, &text[..cut]);
                for request in requests.iter().zip(&readers).filter(|(_, &reads)| reads).map(|(r, _)| r) {
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        let answer = hiera.lookup(request);
                        answer.explain_text();
                    }));
                    assert!(outcome.is_ok(), "{}: {file} cut at byte {cut}, key {:?}", path.display(), request.keys);
                    runs += 1;
                }
            }
        }
    }
    println!("{runs} lookups over truncated files, none panicked");
}

/// The engine over a document whose common.yaml is `data`.
fn hiera_with(data: &str) -> Hiera {
    let mut files = hiera_core::fs::Files::new();
    files.insert("/etc/puppetlabs/code/environments/production/hiera.yaml", "version: 5\n");
    files.insert("/etc/puppetlabs/code/environments/production/data/common.yaml", data);
    Hiera::new(files, hiera_core::Node::default())
}

/// Looks up `key`, explained, in a document whose common.yaml is `data`.
fn lookup_in(data: &str, key: &str) -> Result<hiera_core::Value, hiera_core::Error> {
    hiera_with(data).lookup(&Request { keys: vec![key.into()], explain: true, ..Request::default() }).result
}

#[test]
fn an_alias_bomb_ends_with_a_message() {
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = if i == 0 { "a".to_string() } else { ["b", "c", "d", "e", "f", "g", "h"][i - 1].to_string() };
        bomb.push_str(&format!("{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let started = std::time::Instant::now();
    let e = lookup_in(&bomb, "a").unwrap_err();
    assert!(e.message.contains("alias bomb"), "{}", e.message);
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn deep_nesting_ends_with_a_message() {
    let started = std::time::Instant::now();
    let flow = format!("k: {}1{}\n", "[".repeat(600), "]".repeat(600));
    assert!(lookup_in(&flow, "k").unwrap_err().message.starts_with("Unable to parse"));
    let block: String = (0..600).map(|i| format!("{}a{i}:\n", " ".repeat(i))).collect();
    assert!(lookup_in(&block, "a0").unwrap_err().message.contains("nested deeper"));
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn lookup_recursion_ends_with_puppets_message() {
    let e = lookup_in("a: \"%{lookup('b')}\"\nb: \"%{alias('a')}\"\n", "a").unwrap_err();
    assert!(e.message.contains("Recursive lookup detected"), "{}", e.message);
}

#[test]
fn long_keys_and_huge_values_are_fine() {
    // YAML allows implicit keys of up to 1024 characters.
    let key = "k".repeat(1000);
    let value = "v".repeat(1_000_000);
    let found = lookup_in(&format!("{key}: {value}\n"), &key).map(|v| v.as_str().map(str::len));
    assert!(matches!(found, Ok(Some(1_000_000))), "a long key and a huge value are found");
    let too_long = "k".repeat(100_000);
    assert!(lookup_in(&format!("{too_long}: v\n"), &too_long).is_err(), "an over-long key is an error, not a hang");
}

#[test]
fn a_glob_that_matches_everything_stays_quick() {
    let mut files = hiera_core::fs::Files::new();
    files.insert(
        "/etc/puppetlabs/code/environments/production/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: all\n    glob: \"**/*\"\n",
    );
    for i in 0..2000 {
        files.insert(
            format!("/etc/puppetlabs/code/environments/production/data/d{}/f{i}.yaml", i % 40),
            format!("k{i}: {i}\n"),
        );
    }
    let hiera = Hiera::new(files, hiera_core::Node::default());
    let started = std::time::Instant::now();
    let answer = hiera.lookup(&Request { keys: vec!["k1999".into()], ..Request::default() });
    assert_eq!(answer.result.unwrap().inspect(), "1999");
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn a_glob_with_too_many_alternatives_is_a_lookup_error() {
    let mut files = hiera_core::fs::Files::new();
    let glob = "{a,b}".repeat(12);
    files.insert(
        "/etc/puppetlabs/code/environments/production/hiera.yaml",
        format!("version: 5\nhierarchy:\n  - name: many\n    glob: \"{glob}.yaml\"\n"),
    );
    files.insert("/etc/puppetlabs/code/environments/production/data/ab.yaml", "k: v\n");
    let hiera = Hiera::new(files, hiera_core::Node::default());
    let answer = hiera.lookup(&Request { keys: vec!["k".into()], ..Request::default() });
    let message = answer.result.unwrap_err().into_message();
    assert!(message.contains("has too many alternatives"), "{message}");
}

/// Runs `f` on a thread of its own, failing the test when it has not
/// answered within 30 seconds (a debug build is slow; a hang is endless).
fn ends<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new().stack_size(8 << 20).spawn(move || tx.send(f())).unwrap();
    rx.recv_timeout(std::time::Duration::from_secs(30)).expect("the lookup did not end")
}

/// `depth` keys, each of whose values names the next key through
/// `value(next)`, the last one a short string.
fn fanning_out(depth: usize, value: impl Fn(&str) -> String) -> String {
    let mut data: String = (0..depth).map(|i| format!("k{i}: {}\n", value(&format!("k{}", i + 1)))).collect();
    data.push_str(&format!("k{depth}: x\n"));
    data
}

/// The lookup of `k0` in `data` fails at a bound, alike with and without
/// an explanation, naming the key asked for.
fn stops_at_a_bound(data: String) -> String {
    let message = |explain: bool| {
        let data = data.clone();
        ends(move || {
            let answer = hiera_with(&data).lookup(&Request { keys: vec!["k0".into()], explain, ..Request::default() });
            let explained = answer.explain_text();
            (answer.result.expect_err("a bound stops the lookup").into_message(), explained)
        })
    };
    let (plain, _) = message(false);
    let (explained, text) = message(true);
    assert!(plain.starts_with("Lookup of 'k0' stopped: "), "{plain}");
    assert_eq!(plain, explained, "the same bound, explained or not");
    assert_eq!(text, format!("{plain}\n"), "the explanation is the message alone");
    plain
}

/// `value` repeated `n` times, in double quotes.
fn quoted(n: usize, value: String) -> String {
    format!("\"{}\"", value.repeat(n))
}

#[test]
fn lookups_that_fan_out_stop_at_a_bound() {
    for method in ["lookup", "hiera"] {
        let message = stops_at_a_bound(fanning_out(30, |next| quoted(2, format!("%{{{method}('{next}')}}"))));
        assert!(message.contains("more than 10000 nested lookups"), "{message}");
    }
    let aliases = fanning_out(40, |next| format!("[\"%{{alias('{next}')}}\", \"%{{alias('{next}')}}\"]"));
    stops_at_a_bound(aliases);
    // Few lookups of a long string.
    let long = fanning_out(10, |next| quoted(2, format!("%{{lookup('{next}')}}")));
    let long = long.replace("k10: x", &format!("k10: {}", "x".repeat(100_000)));
    assert!(stops_at_a_bound(long).contains("built more than 16777216 characters"));
    let keys = fanning_out(30, |next| format!("{{\"a%{{lookup('{next}')}}\": 1, \"b%{{lookup('{next}')}}\": 2}}"));
    stops_at_a_bound(keys);
    // Wide: 200 calls a key, four deep, ending in an empty string.
    let wide = fanning_out(4, |next| quoted(200, format!("%{{lookup('{next}')}}"))).replace("k4: x", "k4: ''");
    assert!(stops_at_a_bound(wide).contains("more than 10000 nested lookups"));
}

#[test]
fn lookups_nested_too_deep_stop_at_a_bound() {
    let chain = |depth| fanning_out(depth, |next| quoted(1, format!("%{{lookup('{next}')}}")));
    let message = stops_at_a_bound(chain(5000));
    assert!(message.contains("went more than 100 deep"), "{message}");
    let found = ends(move || lookup_in(&chain(90), "k0").map(|v| v.inspect()));
    assert_eq!(found.unwrap(), "\"x\"", "90 deep is fine");
}

#[test]
fn a_key_interpolated_many_times_gives_each_its_value() {
    // 2^13 nested lookups of 12 keys, under the bounds: remembered when
    // nothing is explained, and the same value either way.
    let data = fanning_out(12, |next| quoted(2, format!("%{{lookup('{next}')}}")));
    let (explained, plain) = ends(move || {
        let explained = lookup_in(&data, "k0").map(|v| v.inspect());
        let plain = hiera_with(&data).session().lookup("k0").map(|v| v.map(|v| v.inspect()));
        (explained, plain)
    });
    let explained = explained.unwrap();
    assert_eq!(explained.len(), (1 << 12) + 2);
    assert_eq!(plain.unwrap(), Some(explained));
}

#[test]
fn manifests_cut_anywhere_or_nested_deep_bind_or_fail_with_a_message() {
    let manifest = r#"# a class { with } braces in a comment
class m (
  Array[Struct[{a => Optional[String], 'b' => Integer[0, 9]}]] $x = [{ 'a' => "s${facts['os']}\"", b => 1 }],
  Stdlib::Port $p = -(2 + 3) * 4 % 3,
  $h = @("END"/L)
    text } ${x}
    | END
  $r = $x =~ /[}{]/ ? { true => 'y', default => 'n' },
) inherits m::base {
  /* } */ $y = "${"${'a'}"}"
}
type M::T = Variant[Enum['a', "b"], Pattern[/\//]]
"#;
    let bind = |text: String| {
        let mut files = hiera_core::fs::Files::new();
        let env = "/etc/puppetlabs/code/environments/production";
        files.insert(format!("{env}/modules/m/manifests/init.pp"), text);
        files.insert(format!("{env}/modules/m/types/t.pp"), "type M::T = M::T\n");
        ends(move || {
            let hiera = Hiera::new(files, Default::default());
            let binding = hiera.bind_class("m");
            assert!(binding.error.is_some() || !binding.parameters.is_empty());
            hiera.classes().len()
        })
    };
    for cut in (0..manifest.len()).filter(|c| manifest.is_char_boundary(*c)) {
        bind(manifest[..cut].to_string());
    }
    let deep = |open: &str, close: &str| {
        format!(
            "class m ($a = {}1{}, $b = \"{}x{}\", $c = {}1) {{}}",
            open.repeat(50_000),
            close.repeat(50_000),
            "${\"".repeat(5_000),
            "\"}".repeat(5_000),
            "-".repeat(50_000)
        )
    };
    for (open, close) in [("[", "]"), ("(", ")"), ("{'k' => ", "}")] {
        bind(deep(open, close));
    }
    // Heredocs in the interpolations of a heredoc's lines, each body holding
    // the lines after it (found by the manifest fuzz target).
    bind(format!("class m ($h = @(\"E\")\n{}E\n) {{}}", "${@(\"E\")}${@(\"E\")}\n".repeat(40)));
}
