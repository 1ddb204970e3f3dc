//! The real-world corpus (`../shared/realworld/`: hiera data from public
//! control repositories and modules, recorded from Puppet) against the
//! engine. It is other people's data, so it is read where it lies and never
//! copied here; without the folder the test says so and passes.

use hiera_core::case::Document;
use std::path::PathBuf;

/// Lookups whose value is Puppet's but whose message is not, each
/// `case#index`; none now. The test fails when one of them becomes exact.
const KNOWN_INEXACT: &[&str] = &[];

#[test]
fn real_repositories_match_puppet() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/realworld");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("realworld: {} not found; nothing checked", dir.display());
        return;
    };
    let mut paths: Vec<PathBuf> =
        entries.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "yaml")).collect();
    paths.sort();
    let (mut total, mut inexact) = (0, Vec::new());
    let mut differ = Vec::new();
    for path in &paths {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let doc =
            Document::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (i, (loose, strict)) in doc.check(false).into_iter().zip(doc.check(true)).enumerate() {
            total += 1;
            match (loose, strict) {
                (Err(e), _) => differ.push(format!("{name}#{i}: {e}")),
                (Ok(()), Err(e)) if !KNOWN_INEXACT.contains(&format!("{name}#{i}").as_str()) => {
                    inexact.push(format!("{name}#{i}: {e}"))
                }
                (Ok(()), Ok(())) if KNOWN_INEXACT.contains(&format!("{name}#{i}").as_str()) => {
                    inexact.push(format!("{name}#{i}: now exact; remove it from KNOWN_INEXACT"))
                }
                _ => {}
            }
        }
    }
    println!(
        "realworld: {} of {total} lookups in {} cases match Puppet; {} with identical error and explain texts",
        total - differ.len(),
        paths.len(),
        total - differ.len() - inexact.len() - KNOWN_INEXACT.len()
    );
    assert!(differ.is_empty(), "lookups that differ from Puppet:\n{}", differ.join("\n"));
    // Every other text is Puppet's, to the letter.
    assert!(inexact.is_empty(), "texts that differ from Puppet's:\n{}", inexact.join("\n"));
}
