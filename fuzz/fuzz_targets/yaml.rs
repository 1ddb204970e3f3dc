//! The YAML loader (Psych semantics) and the JSON reader: any input ends in a value or an error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = hiera_core::yaml::load_noting_surprises(text);
    let _ = hiera_core::json::parse(text);
    if let Ok(Some((v, _))) = hiera_core::yaml::load(text) {
        let _ = hiera_core::yaml::to_yaml(&v);
    }
});
