//! The fetch crate's files form layers: no file reaches, directly or
//! through others, back into one that uses it (the fetcher ties the client,
//! the cache, single-flight and the schedule together; none of them uses
//! it). What a fetch means is `crawlgate-answers`'s. The scanner is
//! `crawlgate_test_support::architecture`.

use crawlgate_test_support::architecture::{cycles, SourceTree};

#[test]
fn files_form_layers_without_cycles() {
    let graph = SourceTree::read(env!("CARGO_MANIFEST_DIR")).graph();
    assert!(graph["fetcher.rs"].contains("client.rs"), "{graph:?}");
    assert!(graph["fetcher.rs"].contains("politeness.rs"), "{graph:?}");
    for part in ["client.rs", "cache.rs", "flight.rs", "politeness.rs"] {
        assert!(!graph[part].contains("fetcher.rs"), "{part}: {graph:?}");
    }
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}
