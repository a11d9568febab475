//! The fetch crate's files form layers: no file reaches, directly or
//! through others, back into one that uses it (`outcome.rs` is the fetch's
//! outcome alone; `verdict.rs` explains verdicts and names outcomes;
//! `reading.rs` decides with both). The scanner is
//! `crawlgate_test_support::architecture`.

use crawlgate_test_support::architecture::{cycles, SourceTree};

#[test]
fn files_form_layers_without_cycles() {
    let graph = SourceTree::read(env!("CARGO_MANIFEST_DIR")).graph();
    assert!(graph["reading.rs"].contains("outcome.rs"), "{graph:?}");
    assert!(graph["reading.rs"].contains("verdict.rs"), "{graph:?}");
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
