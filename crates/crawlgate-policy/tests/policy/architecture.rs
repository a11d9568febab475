//! The crate's files form layers: no file reaches back into one that uses
//! it, none uses an item of a module above it (`lib.rs`, `server/mod.rs`),
//! and none does I/O. The scanner is `crawlgate_test_support::architecture`.

use std::path::Path;

use crawlgate_test_support::architecture::{cycles, SourceTree};

fn tree() -> SourceTree {
    SourceTree::read(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn files_form_layers_without_cycles() {
    let tree = tree();
    assert!(tree.graph().len() >= 20, "{} files", tree.graph().len());
    let cycles = cycles(&tree.graph());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn no_file_uses_a_module_above_it() {
    let upward = tree().upward_imports();
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
}

#[test]
fn the_crate_does_no_io() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() >= 20);
    for (file, text) in files {
        for word in [
            "std::fs",
            "std::net",
            "std::process",
            "std::env",
            "tokio",
            "SystemTime",
        ] {
            assert!(!text.contains(word), "{file} uses {word}");
        }
    }
}
