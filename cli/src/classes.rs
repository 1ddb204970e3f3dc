//! `hiera-lookup class`: what `include CLASS` binds each parameter to.

use crate::args::{Options, RenderAs};
use hiera_core::classes::{Binding, Bound, From};
use hiera_core::value::Hash;
use hiera_core::{case, steps, Hiera, Value};
use std::process::ExitCode;

/// Binds each class of `o.keys` and prints them; exit status 2 when any
/// would fail Puppet's compile.
pub fn run(o: &Options) -> ExitCode {
    let hiera = match super::load_with_spans(o) {
        Ok(h) => h,
        Err(message) => {
            eprintln!("Error: {message}");
            return ExitCode::from(2);
        }
    };
    let bindings = hiera.bind_classes(o.keys.iter().map(String::as_str));
    let text = if o.render_as == Some(RenderAs::Json) {
        let all: Hash = bindings.iter().map(|b| (Value::String(b.class.clone()), as_value(b))).collect();
        Value::Hash(all).to_json().unwrap_or_default()
    } else {
        bindings.iter().map(|b| as_text(&hiera, b)).collect::<Vec<_>>().join("\n")
    };
    println!("{}", text.trim_end());
    if bindings.iter().any(|b| b.error.is_some()) {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// One failure `check` lists.
struct Failure {
    node: String,
    class: String,
    parameter: Option<String>,
    message: String,
    /// The data file and line of the failing value, when it came from Hiera.
    at: Option<(String, usize)>,
}

/// Binds the classes on every node of `--facts-dir` and lists each failure;
/// exit status 1 when there are any.
pub fn check(o: &Options) -> ExitCode {
    let loaded = (|| {
        let hiera = super::load_with_spans(o)?;
        let nodes = crate::tree::read_facts_dir(std::path::Path::new(o.facts_dir.as_deref().unwrap_or_default()))?;
        let mut classes = o.keys.clone();
        if let Some(file) = &o.classes_file {
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let named = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty());
            classes.extend(named.map(str::to_string));
        }
        if o.all_classes {
            classes.extend(hiera.classes().into_iter().map(|d| d.header.name));
        }
        Ok::<_, String>((hiera, nodes, classes))
    })();
    let (mut hiera, nodes, classes) = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failures = Vec::new();
    let node_count = nodes.len();
    for (name, facts) in nodes {
        hiera.set_node(hiera_core::Node { name: name.clone(), environment: o.environment.clone(), facts });
        for b in hiera.bind_classes(classes.iter().map(String::as_str)) {
            let Some(error) = &b.error else { continue };
            let mut told = false;
            for p in b.parameters.iter().filter(|p| p.mismatch.is_some()) {
                told = true;
                let at = (p.from == From::Hiera)
                    .then(|| found_at(&hiera, &format!("{}::{}", b.class, p.name)).into_iter().next())
                    .flatten()
                    .and_then(|(_, file, line)| Some((file, line?)));
                let message = format!("{}: {}", b.resource(), p.mismatch.clone().unwrap_or_default());
                failures.push(Failure {
                    node: name.clone(),
                    class: b.class.clone(),
                    parameter: Some(p.name.clone()),
                    message,
                    at,
                });
            }
            if !told {
                failures.push(Failure {
                    node: name.clone(),
                    class: b.class.clone(),
                    parameter: None,
                    message: error.clone(),
                    at: None,
                });
            }
        }
    }
    let text = if o.render_as == Some(RenderAs::Json) {
        let list = failures.iter().map(|f| {
            let mut h = Hash::default();
            h.insert("node".into(), Value::String(f.node.clone()));
            h.insert("class".into(), Value::String(f.class.clone()));
            h.insert("parameter".into(), f.parameter.clone().map_or(Value::Undef, Value::String));
            h.insert("message".into(), Value::String(f.message.clone()));
            if let Some((file, line)) = &f.at {
                h.insert("file".into(), Value::String(file.clone()));
                h.insert("line".into(), Value::Integer((*line as i64).into()));
            }
            Value::Hash(h)
        });
        Value::Array(list.collect::<Vec<_>>().into()).to_json().unwrap_or_default()
    } else {
        let mut out = String::new();
        for f in &failures {
            let param = f.parameter.as_ref().map(|p| format!(" ${p}")).unwrap_or_default();
            let at = f.at.as_ref().map(|(file, line)| format!(" ({file}:{line})")).unwrap_or_default();
            out.push_str(&format!("{} {}{param}: {}{at}\n", f.node, f.class, f.message));
        }
        let failing = {
            let mut nodes: Vec<&str> = failures.iter().map(|f| f.node.as_str()).collect();
            nodes.sort();
            nodes.dedup();
            nodes.len()
        };
        let plural = if failures.len() == 1 { "" } else { "s" };
        out.push_str(&format!(
            "{} failure{plural} on {failing} of {node_count} nodes ({} classes each)",
            failures.len(),
            classes.len()
        ));
        out
    };
    println!("{text}");
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Where Hiera found the value it gives `key`, most specific first: each
/// level, its data file (relative to the environment) and the value's line.
fn found_at(hiera: &Hiera, key: &str) -> Vec<(String, String, Option<usize>)> {
    steps::found_steps(hiera, key)
        .into_iter()
        .map(|s| (s.level.clone(), relative(hiera, &s.path), s.origin.as_ref().map(|o| o.spans.at().line as usize)))
        .collect()
}

/// `{parameters: {...}}` or `{error: MESSAGE}`, as the oracle records a class.
fn as_value(b: &Binding) -> Value {
    let mut h = Hash::default();
    if let Some(e) = &b.error {
        h.insert("error".into(), Value::String(e.clone()));
        return Value::Hash(h);
    }
    let params: Hash = b
        .parameters
        .iter()
        .map(|p| {
            let value = match &p.value {
                Bound::Value(v) => match case::value_outcome(v) {
                    case::Expect::Rendered { rendered, type_name } => {
                        let mut r = Hash::default();
                        r.insert("value_rendered".into(), Value::String(rendered));
                        r.insert("type".into(), Value::String(type_name));
                        Value::Hash(r)
                    }
                    _ => v.clone(),
                },
                Bound::Unevaluated(source) => {
                    let mut r = Hash::default();
                    r.insert("default_expression".into(), Value::String(source.clone()));
                    Value::Hash(r)
                }
                Bound::Missing => Value::Undef,
            };
            (Value::String(p.name.clone()), value)
        })
        .collect();
    h.insert("parameters".into(), Value::Hash(params));
    Value::Hash(h)
}

/// The class, where it is defined, and a line a parameter: its name, type,
/// value and where the value comes from; then the compile error, if any.
fn as_text(hiera: &Hiera, b: &Binding) -> String {
    let place = |file: &str, line: usize| format!("{}:{line}", relative(hiera, file));
    let mut out = match &b.defined {
        Some(d) => format!("class {} ({})\n", b.class, place(&d.file, d.header.line)),
        None => format!("class {}\n", b.class),
    };
    let width = b.parameters.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in &b.parameters {
        let value = match &p.value {
            Bound::Value(v) => case::rich_rendering(v).unwrap_or_else(|| v.to_json().unwrap_or_else(|_| v.inspect())),
            Bound::Unevaluated(source) => format!("{source} (evaluated by Puppet when compiling)"),
            Bound::Missing => "(none)".into(),
        };
        let from = match p.from {
            From::Hiera => hiera_source(hiera, &format!("{}::{}", b.class, p.name)),
            From::Default => "default".into(),
            From::Nothing => "no value".into(),
        };
        let ty = p.type_text.as_deref().unwrap_or("Any");
        out.push_str(&format!("  {:width$}  {ty}  {value}  ({from})\n", p.name));
        if let Some(m) = &p.mismatch {
            out.push_str(&format!("  {:width$}  ✗ {m}\n", ""));
        }
    }
    if let Some(e) = &b.error {
        out.push_str(&format!("Error: {e}\n"));
    }
    out
}

/// The levels and data files (with lines) that gave `key` its value.
fn hiera_source(hiera: &Hiera, key: &str) -> String {
    let found: Vec<String> = found_at(hiera, key)
        .into_iter()
        .map(|(level, file, line)| format!("{level} {file}{}", line.map(|l| format!(":{l}")).unwrap_or_default()))
        .collect();
    if found.is_empty() {
        "hiera".into()
    } else {
        format!("hiera: {}", found.join(", "))
    }
}

/// A path inside the environment, relative to it.
pub fn relative(hiera: &Hiera, path: &str) -> String {
    let env = case::environment_dir(&hiera.node().environment);
    path.strip_prefix(&format!("{env}/")).unwrap_or(path).to_string()
}
