//! Bad input never panics: every case's files, truncated at every tenth
//! byte, still give each lookup an answer (a value or an error).

use hiera_core::case::Document;
use hiera_core::{Hiera, Request};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

#[test]
fn truncated_files_never_panic() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance");
    let mut paths: Vec<PathBuf> = ["cases", "own"]
        .iter()
        .flat_map(|d| std::fs::read_dir(dir.join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    paths.sort();
    let mut runs = 0;
    for path in paths {
        let doc = Document::from_yaml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let requests: Vec<Request> = doc.lookups.iter().filter_map(|l| l.request(true).ok()).collect();
        let files = doc.files();
        for (file, text) in files.iter() {
            for cut in (0..text.len()).step_by(10).filter(|c| text.is_char_boundary(*c)) {
                let mut hiera = Hiera::new(files.clone(), doc.node());
                hiera.set_file(file, &text[..cut]);
                for request in &requests {
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        let answer = hiera.lookup(request);
                        answer.explain_text();
                    }));
                    assert!(outcome.is_ok(), "{}: {file} cut at byte {cut}, key {:?}", path.display(), request.keys);
                    runs += 1;
                }
            }
        }
    }
    println!("{runs} lookups over truncated files, none panicked");
}
