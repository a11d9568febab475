//! The survey's source files form layers: no file reaches, directly or
//! through others, back into one that uses it. The scanner is
//! `crawlgate_test_support::architecture`.

#[test]
fn files_form_layers_without_cycles() {
    crawlgate_test_support::architecture::assert_no_cycles(
        env!("CARGO_MANIFEST_DIR"),
        &[("run.rs", "checkpoint.rs"), ("run.rs", "summary.rs")],
    );
}
