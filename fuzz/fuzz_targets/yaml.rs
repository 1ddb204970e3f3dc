//! The YAML loader (Psych semantics) and the JSON reader: any input ends in a
//! value or an error, and the loader's fast path for block-style text reads
//! exactly what the event parser reads, whole or in pieces, notes any
//! symbol it reads, and learns of each top-level value what walking it
//! would.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let read = hiera_core::yaml::load_noting_surprises(text);
    // Debug text, so that NaN equals NaN.
    assert_eq!(format!("{read:?}"), format!("{:?}", hiera_core::yaml::load_with_event_parser(text)));
    // Cut into pieces, as a long text is to be read on several threads, it reads the same.
    for pieces in [1, 2, 3] {
        let document = hiera_core::internals::document_in_pieces::<hiera_core::internals::data::Entry>(text, pieces);
        assert_eq!(format!("{:?}", document.as_ref().map(|d| (&d.value, &d.surprises))), format!("{read:?}"));
        if let Ok(hiera_core::yaml::Document { value: Some((value, _)), symbols, entries, .. }) = &document {
            assert!(*symbols || !hiera_core::internals::holds_symbol(value), "a symbol unnoted");
            if let (false, Some(hash)) = (entries.is_empty(), value.as_hash()) {
                let walked: Vec<_> = hash.values().map(hiera_core::internals::data::Entry::of).collect();
                assert_eq!(entries, &walked, "what reading learnt of the entries");
            }
        }
    }
    let _ = hiera_core::json::parse(text);
    if let Ok((Some((v, _)), _)) = read {
        let _ = hiera_core::yaml::to_yaml(&v);
    }
});
