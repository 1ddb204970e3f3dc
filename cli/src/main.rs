//! `hiera-lookup`: `puppet lookup` without Ruby, over a real directory tree.

mod alloc;
mod args;
mod bench;
mod classes;
mod lint;
mod reduce;
mod tree;

use args::{Command, Options, RenderAs};
use hiera_core::case::{self, Document};
use hiera_core::fleet::{self, Answer, Change};
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
        Ok(Command::Class(options)) => classes::run(&options),
        Ok(Command::Check(options)) => classes::check(&options),
        Ok(Command::Lint(options)) => lint::run(&options),
        Ok(Command::Reduce(options)) => reduce::run(&options),
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
            // Ruby's `puts` of a binary string writes its bytes as they are.
            if let (false, Some(RenderAs::S), Value::Binary(bytes)) = (o.explain, o.render_as, &value) {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(bytes).and_then(|()| out.write_all(b"\n"));
                return ExitCode::SUCCESS;
            }
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
                Answer::Value(v) => values.insert(Value::String(key), v),
                Answer::NotFound => None,
                error => values.insert(Value::String(key), error.to_value()),
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

/// `key`'s answer for the node `hiera` is set to, with the options of `o`. A plain lookup goes through `session`, which
/// keeps what one key's lookup resolved for the next (a tenth of the time).
fn answer(hiera: &Hiera, session: &mut hiera_core::Session, key: &str, o: &Options, merge: &Option<Value>) -> Answer {
    if merge.is_none() && o.default.is_none() && o.value_type.is_none() {
        return match session.lookup(key) {
            Ok(Some(v)) => Answer::Value(v),
            Ok(None) => Answer::NotFound,
            Err(e) => Answer::Error(e.into_message()),
        };
    }
    let request = Request {
        keys: vec![key.to_string()],
        merge: merge.clone(),
        default: o.default.clone().map(Value::String),
        value_type: o.value_type.clone(),
        explain: false,
    };
    Answer::of(hiera.lookup(&request).result)
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
    // With --all, only the keys the change can touch are looked up (when it
    // can be told): the others answer alike in both trees.
    let touched = if o.all { fleet::touched_keys(&before, &after) } else { None };
    let mut changes = Vec::new();
    let node_count = nodes.len();
    for (name, facts) in nodes {
        let node = hiera_core::Node { name: name.clone(), environment: o.environment.clone(), facts };
        before.set_node(node.clone());
        after.set_node(node);
        // A touched key neither tree holds for the node is not found in both.
        let mut keys = match &touched {
            Some(touched) => touched.iter().cloned().collect(),
            None if o.all => [before.keys(), after.keys()].concat(),
            None => o.keys.clone(),
        };
        keys.sort();
        keys.dedup();
        let (mut in_before, mut in_after) = (before.session(), after.session());
        for key in keys {
            let b = answer(&before, &mut in_before, &key, o, &merge);
            let a = answer(&after, &mut in_after, &key, o, &merge);
            if !b.same(&a) {
                changes.push(Change { node: name.clone(), key, before: b, after: a });
            }
        }
    }
    fleet::sort(&mut changes);
    let text = if o.render_as == Some(RenderAs::Json) {
        Value::Array(changes.iter().map(Change::to_value).collect()).to_json().unwrap_or_default()
    } else if o.markdown {
        fleet::markdown(&changes, node_count, fleet::COMMENT_LIMIT, o.full_json.as_deref()).trim_end().to_string()
    } else {
        let mut out = format!("{} difference{}\n", changes.len(), if changes.len() == 1 { "" } else { "s" });
        for change in &changes {
            out.push_str(&format!("{change}\n"));
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
    // Nothing the command prints says where a value is.
    load_with_spans(o).map(Hiera::without_spans)
}

/// The tree and node of `o`, its data files read noting where each value is.
fn load_with_spans(o: &Options) -> Result<Hiera, String> {
    let mut files = hiera_core::fs::Files::new();
    if let Some(root) = &o.root {
        tree::read_root(Path::new(root), &o.environment, &mut files)?;
        tree::read_outside_paths(Path::new(root), &o.environment, &mut files)?;
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
    let node = hiera_core::Node { name, environment: o.environment.clone(), facts };
    Ok(Hiera::new(files, node).with_puppet(o.puppet))
}

fn render(value: &Value, as_: RenderAs) -> Result<String, hiera_core::json::NotJson> {
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
                    println!("{name}#{i} {}: {}", doc.lookups[i].key_label(), diff.0.replace('\n', "\n    "));
                }
            }
        }
        for (class, r) in doc.classes.iter().zip(doc.check_classes(exact)) {
            match r {
                Ok(()) => passed += 1,
                Err(diff) => {
                    failed += 1;
                    println!("{name}@{}: {}", class.class, diff.0.replace('\n', "\n    "));
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
