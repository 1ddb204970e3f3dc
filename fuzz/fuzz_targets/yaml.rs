//! The YAML loader (Psych semantics) and the JSON reader: any input ends in a
//! value or an error, and the loader's fast path for block-style text reads
//! exactly what the event parser reads, whole or in pieces, and notes any
//! symbol it reads.
#![no_main]
use hiera_core::value::Value;
use libfuzzer_sys::fuzz_target;

fn has_symbol(value: &Value) -> bool {
    match value {
        Value::Symbol(_) => true,
        Value::Array(a) => a.iter().any(has_symbol),
        Value::Hash(h) => h.iter().any(|(k, v)| has_symbol(k) || has_symbol(v)),
        _ => false,
    }
}

fuzz_target!(|text: &str| {
    let read = hiera_core::yaml::load_noting_surprises(text);
    // Debug text, so that NaN equals NaN.
    assert_eq!(format!("{read:?}"), format!("{:?}", hiera_core::yaml::load_with_event_parser(text)));
    // Cut into pieces, as a long text is to be read on several threads, it reads the same.
    for pieces in [1, 2, 3] {
        let document = hiera_core::yaml::document_in_pieces(text, pieces);
        assert_eq!(format!("{:?}", document.as_ref().map(|d| (&d.value, &d.surprises))), format!("{read:?}"));
        if let Ok(hiera_core::yaml::Document { value: Some((value, _)), symbols, .. }) = &document {
            assert!(*symbols || !has_symbol(value), "a symbol unnoted");
        }
    }
    let _ = hiera_core::json::parse(text);
    if let Ok((Some((v, _)), _)) = read {
        let _ = hiera_core::yaml::to_yaml(&v);
    }
});
