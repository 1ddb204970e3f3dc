//! hiera.yaml reading and validation, for every layer.
#![no_main]
use hiera_core::internals::{HieraConfig, Layer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    for layer in [Layer::Global, Layer::Environment, Layer::Module] {
        let _ = HieraConfig::parse_for(layer, "/etc/puppetlabs/code/environments/production/hiera.yaml", text);
    }
});
