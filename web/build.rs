//! The welcome example as the page embeds it: the document written again by
//! the engine, which leaves out what the oracle recorded for it (`expect`,
//! `explain`): the page works that out itself, and it would be most of the
//! example's size.

fn main() {
    let source = "../www/examples/00-welcome.yaml";
    println!("cargo::rerun-if-changed={source}");
    let text = std::fs::read_to_string(source).expect("the welcome example is readable");
    let doc = hiera_core::case::Document::from_yaml(&text).expect("the welcome example is a valid case file");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("welcome.yaml");
    std::fs::write(out, doc.to_yaml()).expect("OUT_DIR is writable");
}
