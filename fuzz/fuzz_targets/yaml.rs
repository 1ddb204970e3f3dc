//! The YAML loader (Psych semantics) and the JSON reader: any input ends in a
//! value or an error, and the loader's fast path for block-style text reads
//! exactly what the event parser reads, whole or in pieces.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let read = hiera_core::yaml::load_noting_surprises(text);
    // Debug text, so that NaN equals NaN.
    assert_eq!(format!("{read:?}"), format!("{:?}", hiera_core::yaml::load_with_event_parser(text)));
    // Cut into pieces, as a long text is to be read on several threads, it reads the same.
    for pieces in [2, 3] {
        assert_eq!(format!("{:?}", hiera_core::yaml::load_in_pieces(text, pieces)), format!("{read:?}"));
    }
    let _ = hiera_core::json::parse(text);
    if let Ok((Some((v, _)), _)) = read {
        let _ = hiera_core::yaml::to_yaml(&v);
    }
});
