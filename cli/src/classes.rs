//! `hiera-lookup class`: what `include CLASS` binds each parameter to.

use crate::args::{Options, RenderAs};
use hiera_core::classes::{Binding, Bound, From};
use hiera_core::value::Hash;
use hiera_core::{case, steps, Hiera, Request, Value};
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
    let bindings: Vec<Binding> = o.keys.iter().map(|c| hiera.bind_class(c)).collect();
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
    let answer = hiera.lookup(&Request { keys: vec![key.to_string()], explain: true, ..Request::default() });
    let Some(ex) = &answer.explanation else { return "hiera".into() };
    let found: Vec<String> = steps::merge_steps(ex)
        .iter()
        .filter(|s| s.outcome == steps::StepOutcome::Found)
        .map(|s| {
            let line = s.origin.as_ref().map(|o| format!(":{}", o.spans.at().line)).unwrap_or_default();
            format!("{} {}{line}", s.level, relative(hiera, &s.path))
        })
        .collect();
    if found.is_empty() {
        "hiera".into()
    } else {
        format!("hiera: {}", found.join(", "))
    }
}

/// A path inside the environment, relative to it.
fn relative(hiera: &Hiera, path: &str) -> String {
    let env = case::environment_dir(&hiera.node().environment);
    path.strip_prefix(&format!("{env}/")).unwrap_or(path).to_string()
}
