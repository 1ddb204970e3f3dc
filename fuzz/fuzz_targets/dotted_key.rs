//! Dotted keys (`a."b.c".0`) split as Puppet splits them.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|key: &str| {
    let _ = hiera_core::internals::split_key(key);
    let _ = hiera_core::internals::LookupKey::parse(key);
});
