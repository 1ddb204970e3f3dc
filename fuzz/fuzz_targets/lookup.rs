//! A whole lookup over a generated filesystem: the input is a case document.
#![no_main]
use hiera_core::{case::Document, Hiera};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(doc) = Document::from_yaml(text) else { return };
    let hiera = Hiera::new(doc.files(), doc.node());
    for lookup in doc.lookups.iter().take(8) {
        if let Ok(request) = lookup.request(true) {
            let answer = hiera.lookup(&request);
            let _ = answer.explain_text();
        }
    }
    let _ = hiera.keys();
    let _ = hiera_core::archive::import(text.as_bytes());
});
