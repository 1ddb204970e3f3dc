//! `hiera-lookup bench`: times every key of a generated control repo the way
//! ../shared/bench's Puppet and hyera harnesses do, and writes the same
//! result dump, so that `compare-results` can check the answers key by key.

use hiera_core::{Hiera, Node, Value};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::time::Instant;

/// Runs the benchmark over `repo` (an environment directory with
/// `facts.yaml` and `keys.txt`) and writes the dump to `out`.
pub fn run(repo: &Path, out: &Path, passes: usize) -> Result<String, String> {
    let t0 = Instant::now();
    let mut files = hiera_core::fs::Files::new();
    crate::tree::read_into(repo, &hiera_core::case::environment_dir("production"), &mut files)?;
    let facts = crate::tree::read_facts(&repo.join("facts.yaml"))?;
    let keys: Vec<String> = std::fs::read_to_string(repo.join("keys.txt"))
        .map_err(|e| format!("keys.txt: {e}"))?
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let name = facts.get(&Value::from("clientcert")).map(Value::to_ruby_s).ok_or("facts.yaml has no clientcert")?;
    let node = Node { name: name.clone(), environment: "production".into(), facts };
    let startup = t0.elapsed().as_secs_f64();

    // Pass 1 starts from nothing parsed, as a fresh Puppet compiler does.
    // As the command reads, for `lookup`.
    // The reference, ../shared/bench's puppet-bench, runs Debian's Puppet 7.23.
    let hiera = Hiera::new(files, node).with_puppet(hiera_core::Puppet::V7).without_spans();
    let mut session = hiera.session();
    let mut first: Vec<Json> = Vec::new();
    let mut timings = Vec::new();
    let mut mismatches = 0;
    for pass in 0..passes.max(1) {
        // Only the lookups are timed, as in Puppet's and hyera's harnesses.
        let faults = minor_faults();
        let start = Instant::now();
        let answers = lookup_all(&mut session, &keys);
        let wall = start.elapsed().as_secs_f64();
        let faults = minor_faults().zip(faults).map(|(after, before)| after - before);
        let results: Vec<Json> = answers.into_iter().map(record).collect();
        let count = |k: &str| results.iter().filter(|r| r.get(k).is_some()).count();
        timings.push(json!({
            "pass": pass + 1,
            "wall_s": wall,
            "lookups_per_s": keys.len() as f64 / wall,
            "minor_faults": faults,
            "counts": {"found": count("value"), "not_found": count("not_found"), "error": count("error")},
        }));
        if pass == 0 {
            first = results;
        } else {
            mismatches += results.iter().zip(&first).filter(|(a, b)| a != b).count();
        }
    }
    let meta = json!({"meta": {
        "impl": format!("hiera-lookup {}", env!("CARGO_PKG_VERSION")),
        "repo": repo.display().to_string(),
        "node": name,
        "keys": keys.len(),
        "startup": {"read_tree_s": startup, "total_s": startup},
        "passes": timings,
        "pass_mismatches": mismatches,
    }});
    let mut text = format!("{meta}\n");
    for (k, r) in keys.iter().zip(&first) {
        text.push_str(&serde_json::to_string(&json!([k, r])).unwrap_or_default());
        text.push('\n');
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut summary = format!("node: {name}   keys: {}\nstartup: {startup:.3} s (reading the tree)\n", keys.len());
    for t in &timings {
        let faults = t["minor_faults"].as_u64().map(|n| format!("; {n} page faults")).unwrap_or_default();
        summary.push_str(&format!(
            "pass {} ({}): {:.4} s = {:.0} lookups/s [found {}, not found {}, errors {}{faults}]\n",
            t["pass"],
            if t["pass"] == 1 { "cold" } else { "warm" },
            t["wall_s"].as_f64().unwrap_or(0.0),
            t["lookups_per_s"].as_f64().unwrap_or(0.0),
            t["counts"]["found"],
            t["counts"]["not_found"],
            t["counts"]["error"],
        ));
    }
    summary.push_str(&format!(
        "passes agree: {}\nresults: {}\n",
        if mismatches == 0 { "yes" } else { "NO" },
        out.display()
    ));
    Ok(summary)
}

/// One pass over the keys: the timed part, kept out of line so that a
/// profiler can be pointed at it (`--toggle-collect=*lookup_all*`).
#[inline(never)]
fn lookup_all(session: &mut hiera_core::Session, keys: &[String]) -> Vec<Result<Option<Value>, hiera_core::Error>> {
    keys.iter().map(|k| session.lookup(k)).collect()
}

/// The process's minor page faults so far, where the system tells: each is
/// a page of memory touched for the first time, a large part of a cold
/// pass's time (see the README).
fn minor_faults() -> Option<u64> {
    // Field 10 of /proc/self/stat, the first after the parenthesized name.
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    stat.get(stat.rfind(')')? + 2..)?.split(' ').nth(7)?.parse().ok()
}

fn record(result: Result<Option<Value>, hiera_core::Error>) -> Json {
    match result {
        Ok(Some(v)) => json!({"value": to_json(&v)}),
        Ok(None) => json!({"not_found": true}),
        Err(e) => json!({"error": e.message}),
    }
}

/// The dump's JSON for a value: hash keys as strings, rich values rendered.
fn to_json(v: &Value) -> Json {
    match v {
        Value::Hash(h) => Json::Object(h.iter().map(|(k, v)| (k.to_ruby_s(), to_json(v))).collect()),
        Value::Array(a) => Json::Array(a.iter().map(to_json).collect()),
        Value::Sensitive(_) => json!({"__rendered__": "Sensitive [value redacted]"}),
        v => v
            .to_json()
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_else(|| json!({"__rendered__": v.to_ruby_s()})),
    }
}
