//! Interpolation, parsed and evaluated: the input is a data value looked up
//! through a small hierarchy with facts, nested lookups and aliases.
#![no_main]
use hiera_core::{case::Document, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = hiera_core::internals::pieces(text);
    let quoted = serde_json_string(text);
    let doc = format!(
        "facts:\n  role: web\n  os: {{family: Debian}}\nfiles:\n  hiera.yaml: |\n    version: 5\n    hierarchy:\n      - name: Role\n        path: \"roles/%{{facts.role}}.yaml\"\n      - name: Common\n        path: common.yaml\n  data/common.yaml: |\n    other: \"x\"\n    list: [a, b]\n    subject: {quoted}\n"
    );
    let Ok(doc) = Document::from_yaml(&doc) else { return };
    let hiera = doc.hiera();
    let answer = hiera.lookup(&Request { keys: vec!["subject".into()], explain: true, ..Request::default() });
    let _ = answer.explain_text();
});

/// A YAML double-quoted scalar holding `s`.
fn serde_json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
