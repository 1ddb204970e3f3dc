//! Glob matching (Ruby's Dir.glob order) over a small tree.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|pattern: &str| {
    let mut files = hiera_core::fs::Files::new();
    for p in ["/d/a.yaml", "/d/b.yaml", "/d/sub/c.yaml", "/d/sub/deep/e.json", "/d/.hidden/x.yaml", "/d/[weird]{name}.yaml"] {
        files.insert(p, "");
    }
    let _ = files.glob(&format!("/d/{pattern}"));
    let _ = hiera_core::fs::expand_braces(pattern);
});
