//! The welcome example as the page embeds it: its files, facts and lookups,
//! without what the oracle recorded for it (`expect`, `explain`), which the
//! page works out itself and which would be most of its size.

use std::path::Path;

fn main() {
    let source = "../www/examples/00-welcome.yaml";
    println!("cargo::rerun-if-changed={source}");
    let text = std::fs::read_to_string(source).expect("the welcome example is readable");
    let (inputs, lookups) = text.split_once("\nlookups:\n").expect("the welcome example has lookups");
    let mut kept = format!("{inputs}\nlookups:\n");
    let mut recorded = false;
    for line in lookups.lines() {
        if line.starts_with("  expect:") || line.starts_with("  explain:") {
            recorded = true;
        } else if !(recorded && (line.starts_with("    ") || line.is_empty())) {
            recorded = false;
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("welcome.yaml");
    std::fs::write(out, kept).expect("OUT_DIR is writable");
}
