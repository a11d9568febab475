//! The crate's modules form layers: no module reaches, directly or through
//! others, back into one that uses it. In particular the model (`model`) is
//! plain data: it uses neither the parser (`parse`) that builds it nor the
//! query side (`agent`, `matcher`, `decide`) that reads it.
//!
//! A module is a file of `src/` or a directory of it (with its submodules);
//! it uses another when its code (comments and tests aside) names
//! `crate::other`, or an item that `lib.rs` re-exports from `other`. The
//! scanner is `crawlgate_test_support::architecture`, shared with the lint
//! crate's and the CLI's architecture tests.

use crawlgate_test_support::architecture::{cycles, Graph, SourceTree};

fn graph() -> Graph {
    SourceTree::read(env!("CARGO_MANIFEST_DIR")).module_graph()
}

#[test]
fn modules_form_layers_without_cycles() {
    let graph = graph();
    for module in ["model", "parse", "matcher", "decide", "agent", "once"] {
        assert!(graph.contains_key(module), "no module {module}: {graph:?}");
    }
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_model_uses_neither_the_parser_nor_the_query_side() {
    let graph = graph();
    let model = &graph["model"];
    for other in ["parse", "matcher", "decide", "agent", "once", "lint"] {
        assert!(!model.contains(other), "model uses {other}: {model:?}");
    }
}

#[test]
fn the_scanner_sees_the_uses_it_must() {
    // The checks above are only as good as the graph: it must see every
    // way a module is named (a path, a group, a re-exported name).
    let graph = graph();
    assert!(graph["parse"].contains("model"), "{:?}", graph["parse"]);
    assert!(graph["decide"].contains("matcher"), "{:?}", graph["decide"]);
}
