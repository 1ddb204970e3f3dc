//! The share-link decoder: truncated, garbage, future and oversized links end in an error.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|fragment: &str| {
    let _ = hiera_core::share::decode(fragment);
    let _ = hiera_core::share::decode(&format!("h1.{fragment}"));
});
