//! `hiera-lookup`: `puppet lookup` without Ruby, over a real directory tree.

mod alloc;
mod args;
mod bench;
mod tree;

use args::{Command, Options, RenderAs};
use hiera_core::case::{self, Document};
use hiera_core::{ErrorKind, Hiera, Request, Value};
use std::path::Path;
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: alloc::MiMalloc = alloc::MiMalloc;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match args::parse(&argv) {
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Conformance { exact, paths }) => conformance(exact, &paths),
        Ok(Command::Bench { repo, out, passes }) => match bench::run(Path::new(&repo), Path::new(&out), passes) {
            Ok(summary) => {
                print!("{summary}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("Error: {e}");
                ExitCode::from(2)
            }
        },
        Ok(Command::Lookup(options)) => lookup(&options),
        Ok(Command::Diff(options)) => diff(&options),
        Err(message) => {
            eprintln!("Error: {message}\nRun 'hiera-lookup --help' for more details");
            ExitCode::from(2)
        }
    }
}

fn lookup(o: &Options) -> ExitCode {
    let hiera = match load(o) {
        Ok(h) => h,
        Err(message) => {
            eprintln!("Error: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &o.facts_dir {
        return each_node(hiera, o, Path::new(dir));
    }
    if o.all {
        return all(&hiera, o);
    }
    let merge = match o.merge_value() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("Error: Could not run: {e}");
            return ExitCode::from(2);
        }
    };
    let request = Request {
        keys: o.keys.clone(),
        merge,
        default: o.default.clone().map(Value::String),
        value_type: o.value_type.clone(),
        explain: o.explain,
    };
    let answer = hiera.lookup(&request);
    if o.explain {
        print!("{}", answer.explain_text());
    }
    match answer.result {
        Ok(value) => {
            if !o.explain {
                match render(&value, o.render_as.unwrap_or(RenderAs::Yaml)) {
                    Ok(text) => println!("{text}"),
                    Err(e) => {
                        eprintln!("Error: Could not run: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) if e.kind == ErrorKind::NotFound => ExitCode::from(1),
        Err(e) => {
            if !(o.explain && e.kind == ErrorKind::Lookup) {
                eprintln!("Error: Could not run: {e}");
            }
            ExitCode::from(2)
        }
    }
}

/// Every node of a facts directory, each with the keys asked (or, with
/// `--all`, every key its data holds): `{NODE: {KEY: VALUE}}`, nodes and keys
/// sorted, keys not found left out, a failing key as `{error: MESSAGE}`.
fn each_node(mut hiera: Hiera, o: &Options, dir: &Path) -> ExitCode {
    let nodes = match tree::read_facts_dir(dir) {
        Ok(nodes) => nodes,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    };
    let merge = match o.merge_value() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("Error: Could not run: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = Vec::new();
    for (name, facts) in nodes {
        hiera.set_node(hiera_core::Node { name: name.clone(), environment: o.environment.clone(), facts });
        let mut keys = if o.all { hiera.keys() } else { o.keys.clone() };
        keys.sort();
        keys.dedup();
        let mut values = hiera_core::value::Hash::default();
        let mut session = hiera.session();
        for key in keys {
            match answer(&hiera, &mut session, &key, o, &merge) {
                Ok(Some(v)) => values.insert(Value::String(key), v),
                Ok(None) => None,
                Err(message) => values.insert(Value::String(key), one("error", Value::String(message))),
            };
        }
        out.push((name, values));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    let all: hiera_core::value::Hash = out.into_iter().map(|(n, v)| (Value::String(n), Value::Hash(v))).collect();
    match render(&Value::Hash(all), o.render_as.unwrap_or(RenderAs::Yaml)) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("Error: Could not run: {e}");
            ExitCode::from(2)
        }
    }
}

/// `key`'s value for the node `hiera` is set to, with the options of `o`;
/// `None` when it is not found. A plain lookup goes through `session`, which
/// keeps what one key's lookup resolved for the next (a tenth of the time).
fn answer(
    hiera: &Hiera,
    session: &mut hiera_core::Session,
    key: &str,
    o: &Options,
    merge: &Option<Value>,
) -> Result<Option<Value>, String> {
    if merge.is_none() && o.default.is_none() && o.value_type.is_none() {
        return session.lookup(key).map_err(|e| e.into_message());
    }
    let request = Request {
        keys: vec![key.to_string()],
        merge: merge.clone(),
        default: o.default.clone().map(Value::String),
        value_type: o.value_type.clone(),
        explain: false,
    };
    match hiera.lookup(&request).result {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.kind == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into_message()),
    }
}

/// `{name: value}`.
fn one(name: &str, value: Value) -> Value {
    let mut h = hiera_core::value::Hash::default();
    h.insert(Value::from(name), value);
    Value::Hash(h)
}

/// Every (node, key) whose answer differs between the trees `--from` and
/// `--to` (environment directories, or directories that play `/`), for each
/// node of `--facts-dir`: as text, or with `--render-as json` a list of
/// `{node, key, before, after}`, each answer `{value}`, `{not_found}` or
/// `{error}`. Exit status 0 when nothing differs, 1 when something does.
fn diff(o: &Options) -> ExitCode {
    let tree = |dir: &Option<String>| {
        let dir = dir.clone().unwrap_or_default();
        let mut t = Options { facts_dir: None, root: None, env_dir: None, ..o.clone() };
        if Path::new(&dir).join("etc/puppetlabs").is_dir() {
            t.root = Some(dir);
        } else {
            t.env_dir = Some(dir);
        }
        load(&t)
    };
    let loaded = (|| {
        Ok::<_, String>((
            tree(&o.from)?,
            tree(&o.to)?,
            tree::read_facts_dir(Path::new(o.facts_dir.as_deref().unwrap_or_default()))?,
            o.merge_value().map_err(|e| e.to_string())?,
        ))
    })();
    let (mut before, mut after, nodes, merge) = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    };
    let state = |a: Result<Option<Value>, String>| match a {
        Ok(Some(v)) => one("value", v),
        Ok(None) => one("not_found", Value::Bool(true)),
        Err(m) => one("error", Value::String(m)),
    };
    let mut changes = Vec::new();
    for (name, facts) in nodes {
        let node = hiera_core::Node { name: name.clone(), environment: o.environment.clone(), facts };
        before.set_node(node.clone());
        after.set_node(node);
        let mut keys = if o.all { [before.keys(), after.keys()].concat() } else { o.keys.clone() };
        keys.sort();
        keys.dedup();
        let (mut in_before, mut in_after) = (before.session(), after.session());
        for key in keys {
            let b = state(answer(&before, &mut in_before, &key, o, &merge));
            let a = state(answer(&after, &mut in_after, &key, o, &merge));
            if !case::same(&b, &a) {
                changes.push((name.clone(), key, b, a));
            }
        }
    }
    changes.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    let text = if o.render_as == Some(RenderAs::Json) {
        let list = changes.iter().map(|(n, k, b, a)| {
            let mut h = hiera_core::value::Hash::default();
            for (name, v) in [
                ("node", Value::from(n.as_str())),
                ("key", Value::from(k.as_str())),
                ("before", b.clone()),
                ("after", a.clone()),
            ] {
                h.insert(Value::from(name), v);
            }
            Value::Hash(h)
        });
        Value::Array(list.collect::<Vec<_>>().into()).to_json().unwrap_or_default()
    } else {
        let said = |s: &Value| match s.as_hash().and_then(|h| h.iter().next()) {
            Some((k, v)) if k.as_str() == Some("value") => v.to_json().unwrap_or_else(|_| v.inspect()),
            Some((k, _)) if k.as_str() == Some("not_found") => "not found".into(),
            Some((_, m)) => format!("error: {}", m.to_ruby_s()),
            None => String::new(),
        };
        let mut out = format!("{} difference{}\n", changes.len(), if changes.len() == 1 { "" } else { "s" });
        for (n, k, b, a) in &changes {
            out.push_str(&format!("{n} {k}: {} -> {}\n", said(b), said(a)));
        }
        out.trim_end().to_string()
    };
    println!("{text}");
    if changes.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Every key the node's data holds, each looked up as `lookup(key)` would.
fn all(hiera: &Hiera, o: &Options) -> ExitCode {
    let mut session = hiera.session();
    let mut out = hiera_core::value::Hash::default();
    let mut failed = false;
    for key in hiera.keys() {
        match session.lookup(&key) {
            Ok(Some(v)) => {
                out.insert(Value::String(key), v);
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("Error: {key}: {e}");
                failed = true;
            }
        }
    }
    match render(&Value::Hash(out), o.render_as.unwrap_or(RenderAs::Yaml)) {
        Ok(text) => println!("{text}"),
        Err(e) => {
            eprintln!("Error: Could not run: {e}");
            return ExitCode::from(2);
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

fn load(o: &Options) -> Result<Hiera, String> {
    let mut files = hiera_core::fs::Files::new();
    if let Some(root) = &o.root {
        tree::read_root(Path::new(root), &o.environment, &mut files)?;
        tree::read_outside_paths(Path::new(root), &mut files)?;
    }
    if let Some(env_dir) = &o.env_dir {
        tree::read_into(Path::new(env_dir), &case::environment_dir(&o.environment), &mut files)?;
    }
    let facts = match &o.facts {
        Some(path) => tree::read_facts(Path::new(path))?,
        None => Default::default(),
    };
    let name = o
        .node
        .clone()
        .or_else(|| facts.get(&Value::from("clientcert")).map(Value::to_ruby_s))
        .unwrap_or_else(|| "localhost".into());
    // Nothing the command prints says where a value is.
    let node = hiera_core::Node { name, environment: o.environment.clone(), facts };
    Ok(Hiera::new(files, node).with_puppet(o.puppet).without_spans())
}

fn render(value: &Value, as_: RenderAs) -> Result<String, String> {
    Ok(match as_ {
        RenderAs::Json => value.to_json()?,
        RenderAs::Yaml => hiera_core::yaml::to_yaml(value).trim_end().to_string(),
        RenderAs::S => value.to_ruby_s(),
    })
}

fn conformance(exact: bool, paths: &[String]) -> ExitCode {
    let mut cases = Vec::new();
    for p in paths {
        if let Err(e) = tree::collect_cases(Path::new(p), &mut cases) {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    }
    let (mut passed, mut failed) = (0, 0);
    for path in cases {
        let name = path.display().to_string();
        let doc = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| Document::from_yaml(&t).map_err(|e| e.to_string()))
        {
            Ok(d) => d,
            Err(e) => {
                println!("{name}: cannot read: {e}");
                failed += 1;
                continue;
            }
        };
        for (i, r) in doc.check(exact).into_iter().enumerate() {
            match r {
                Ok(()) => passed += 1,
                Err(diff) => {
                    failed += 1;
                    println!("{name}#{i} {}: {}", doc.lookups[i].key_label(), diff.replace('\n', "\n    "));
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
