//! Dotted keys (`a."b.c".0`) split as Puppet splits them.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|key: &str| {
    let _ = hiera_core::key::split_key(key);
    let _ = hiera_core::key::LookupKey::parse(key);
});
