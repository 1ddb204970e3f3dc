//! HOCON as hocon_data reads it: any text gives a hash or an error with a
//! line of the text (or 0, where ruby-hocon gives it none), never a panic,
//! whatever its nesting or substitutions.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = hiera_core::hocon::parse(text) {
        assert!(e.line <= text.split('\n').count() + 1, "{e}");
    }
});
