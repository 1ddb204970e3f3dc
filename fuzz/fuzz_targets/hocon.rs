//! HOCON as hocon_data reads it: any text gives a hash or an error with a
//! line, never a panic, whatever its nesting or substitutions.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = hiera_core::hocon::parse(text) {
        assert!(e.line >= 1 && e.line <= text.split('\n').count() + 1, "{e}");
    }
});
