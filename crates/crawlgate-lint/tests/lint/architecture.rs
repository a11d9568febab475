//! The crate's source files form layers: no file reaches, directly or
//! through others, back into one that uses it, and no file uses an item of
//! a module above it (`lib.rs` above every file, `rules/mod.rs` above the
//! rules). Shared helpers live in modules of their own (`wording.rs`,
//! `spans.rs`, `rule.rs`, `render/source.rs`), which files use downward.
//! The scanner is `crawlgate_test_support::architecture`, shared with the
//! core's and the CLI's architecture tests.

use crawlgate_test_support::architecture::{cycles, SourceTree};

fn tree() -> SourceTree {
    SourceTree::read(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_file_uses_a_module_above_it() {
    let tree = tree();
    assert!(tree.graph().len() > 60, "{} files", tree.graph().len());
    let upward = tree.upward_imports();
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn files_form_layers_without_cycles() {
    let cycles = cycles(&tree().graph());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_scanner_sees_the_uses_it_must() {
    let tree = tree();
    let path = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
    // A re-exported name leads to the file that defines it.
    assert_eq!(tree.resolve(&path("RuleInfo")).as_deref(), Some("rule.rs"));
    assert_eq!(
        tree.resolve(&path("rules::RULES")).as_deref(),
        Some("rules/mod.rs")
    );
    assert_eq!(
        tree.resolve(&path("rules::extensions::noindex_line::is_noindex"))
            .as_deref(),
        Some("rules/extensions/noindex_line.rs")
    );
    let graph = tree.graph();
    assert!(
        graph["render/sarif.rs"].contains("render/source.rs"),
        "{:?}",
        graph["render/sarif.rs"]
    );
    // Test-only files are left out.
    assert!(!graph.contains_key("testing.rs"));
}
