//! A module's manifest as automatic parameter lookup reads it: any text
//! binds its class or gives Puppet's error, never a panic or a hang,
//! whatever its strings, heredocs, comments, regexps, nesting or types.
#![no_main]
use hiera_core::{fs::Files, Hiera, Node};
use libfuzzer_sys::fuzz_target;

const ENV: &str = "/etc/puppetlabs/code/environments/production";

fuzz_target!(|text: &str| {
    let mut files = Files::new();
    files.insert(format!("{ENV}/hiera.yaml"), "version: 5\n");
    files.insert(format!("{ENV}/data/common.yaml"), "m::a: [1, x]\nm::b: {k: 1}\n");
    files.insert(format!("{ENV}/modules/m/manifests/init.pp"), text);
    // The text as a type alias too, and an alias that names itself.
    files.insert(format!("{ENV}/modules/m/types/t.pp"), text);
    files.insert(format!("{ENV}/modules/m/types/self.pp"), "type M::Self = Array[M::Self]\n");
    let hiera = Hiera::new(files, Node::default());
    for defined in hiera.classes() {
        let binding = hiera.bind_class(&defined.header.name);
        assert!(binding.error.is_some() || binding.parameters.len() == defined.header.params.len());
    }
    let binding = hiera.bind_class("m");
    assert!(binding.error.is_some() || binding.defined.is_some());
});
