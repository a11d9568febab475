//! The CLI's source files form layers: no import cycle, and no file uses an
//! item of a module above it (`main.rs` above every file, a folder's
//! `mod.rs` above the files in it). The dispatcher (`commands/mod.rs`)
//! hands each command what it needs (the UI choices, the clap command);
//! exit codes live in `main.rs`; loading lives in `load/`.

use crawlgate_test_support::architecture::{cycles, SourceTree};

fn tree() -> SourceTree {
    SourceTree::read(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_file_uses_a_module_above_it() {
    let upward = tree().upward_imports();
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn files_form_layers_without_cycles() {
    let graph = tree().graph();
    assert!(graph.len() > 25, "{} files", graph.len());
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_scanner_sees_the_cli_as_it_is() {
    // The checks above are only as good as the graph: it must see the uses
    // that are there.
    let graph = tree().graph();
    assert!(graph["commands/mod.rs"].contains("args.rs"), "{graph:?}");
    assert!(
        graph["commands/check.rs"].contains("load/mod.rs"),
        "{graph:?}"
    );
    assert!(
        graph["commands/check.rs"].contains("load/fetch.rs"),
        "{graph:?}"
    );
    assert!(graph["main.rs"].contains("status.rs"), "{graph:?}");
}
