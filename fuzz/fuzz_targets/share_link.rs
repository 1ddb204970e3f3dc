//! The share-link decoder: truncated, garbage, future and oversized links,
//! and payloads that are not a document, end in an error.
#![no_main]
use hiera_core::share::{read, unpack};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|fragment: &str| {
    let _ = unpack(fragment);
    let _ = unpack(&format!("h1.{fragment}"));
    let _ = read(Ok(fragment.as_bytes().to_vec()));
});
