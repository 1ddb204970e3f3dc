//! eyaml's blocks: any string is scanned for `ENC[...]` and every block it
//! finds is decrypted with a real key pair (and with the input's tail as a
//! key file), so that truncated and foreign DER, odd base64 and bad key
//! files reach the PKCS7 reader. Errors are values, never a panic.
#![no_main]
use hiera_core::eyaml::{self, Keys};
use hiera_core::fs::Files;
use hiera_core::value::Hash;
use hiera_core::Value;
use libfuzzer_sys::fuzz_target;

const CASE: &str = include_str!("../../tests/conformance/backends/eyaml-whole-string-values.yaml");

fuzz_target!(|input: &str| {
    let (text, key) = input.split_once('\u{0}').unwrap_or((input, ""));
    let doc = hiera_core::case::Document::from_yaml(CASE).expect("the case reads");
    let mut files: Files = doc.files();
    files.insert("/keys/fuzzed.pem", key);
    let pkcs7 = eyaml::builtin().expect("built with the pkcs7 feature");
    for private in ["/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem", "/keys/fuzzed.pem"] {
        let mut options = Hash::default();
        options.insert(Value::from("pkcs7_private_key"), Value::from(private));
        options.insert(Value::from("pkcs7_public_key"), Value::from("/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem"));
        let keys = Keys { options: Some(&options), files: &files, pkcs7: Some(&*pkcs7), decrypted: None };
        let found = eyaml::blocks(text);
        assert!(found.iter().all(|b| text.get(b.range.clone()).is_some_and(|s| s.starts_with("ENC[") && s.ends_with(']'))));
        let _ = eyaml::decrypt(text, &keys);
    }
});
