//! A whole lookup over a generated filesystem: the input is a case document.
//! A session, which keeps indexes and what it learnt of each key, must
//! answer every key as a fresh run does.
#![no_main]
use hiera_core::{case::Document, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(doc) = Document::from_yaml(text) else { return };
    let hiera = doc.hiera();
    for lookup in doc.lookups.iter().take(8) {
        if let Ok(request) = lookup.request(true) {
            let answer = hiera.lookup(&request);
            let _ = answer.explain_text();
        }
    }
    let mut session = hiera.session();
    for key in doc.lookups.iter().take(8).flat_map(|l| l.keys.iter().take(4)) {
        let fresh = hiera.lookup(&Request { keys: vec![key.clone()], ..Request::default() }).result;
        match (fresh, session.lookup(key)) {
            (Ok(v), Ok(Some(k))) => assert_eq!(v, k, "{key}"),
            (Err(e), Ok(None)) => assert!(e.message.contains("did not find a value"), "{key}: {e:?}"),
            (Err(e), Err(k)) => assert_eq!(e.message, k.message, "{key}"),
            (fresh, kept) => panic!("{key}: fresh {fresh:?}, session {kept:?}"),
        }
    }
    let _ = hiera.keys();
    let _ = hiera_core::archive::unzip(text.as_bytes());
});
