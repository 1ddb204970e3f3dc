//! `hiera-lookup lint`: a review of the data for every node of a facts
//! directory (see `hiera_core::review`).

use crate::args::{Options, RenderAs};
use hiera_core::review::{self, Finding, Kind};
use hiera_core::Value;
use std::process::ExitCode;

/// Reviews the tree of `o` for the nodes of `--facts-dir` and prints the
/// findings; exit status 1 when there are any.
pub fn run(o: &Options) -> ExitCode {
    let loaded = (|| {
        let hiera = super::load_with_spans(o)?;
        let nodes = crate::tree::read_facts_dir(std::path::Path::new(o.facts_dir.as_deref().unwrap_or_default()))?;
        Ok::<_, String>((hiera, nodes))
    })();
    let (mut hiera, nodes) = match loaded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::from(2);
        }
    };
    let nodes: Vec<hiera_core::Node> = nodes
        .into_iter()
        .map(|(name, facts)| hiera_core::Node { name, environment: o.environment.clone(), facts })
        .collect();
    let review = review::review(&mut hiera, &nodes);
    let relative = |f: &Finding| crate::classes::relative(&hiera, &f.file);
    if o.render_as == Some(RenderAs::Json) {
        let list = review.findings.iter().map(|f| f.to_value(&relative(f))).collect();
        println!("{}", Value::Array(list).to_json().unwrap_or_default());
        for note in &review.notes {
            eprintln!("note: {note}");
        }
    } else {
        for f in &review.findings {
            let line = f.line.map(|l| format!(":{l}")).unwrap_or_default();
            let key = f.key.as_deref().map(|k| format!(" {k}")).unwrap_or_default();
            let nodes = match f.nodes.len() {
                0 => String::new(),
                n if n <= 5 => format!(" [{}]", f.nodes.join(", ")),
                n => format!(" [{}, and {} more]", f.nodes[..4].join(", "), n - 4),
            };
            println!("{}{line}: {}{key}{nodes}: {}", relative(f), f.kind.as_str(), f.message);
        }
        println!("{}", summary(&review.findings, nodes.len()));
        for note in &review.notes {
            println!("note: {note}");
        }
    }
    if review.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `5 findings over 4 nodes: 2 unused-key, 3 shadowed`.
fn summary(findings: &[Finding], nodes: usize) -> String {
    let kinds = [Kind::UnusedKey, Kind::DeadFile, Kind::Shadowed, Kind::LegacyFact, Kind::Type];
    let counts: Vec<String> = kinds
        .iter()
        .map(|k| (k, findings.iter().filter(|f| f.kind == *k).count()))
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {}", k.as_str()))
        .collect();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match counts.is_empty() {
        true => format!("no findings over {}", plural(nodes, "node")),
        false => format!("{} over {}: {}", plural(findings.len(), "finding"), plural(nodes, "node"), counts.join(", ")),
    }
}
