//! The crate's files form layers: no file reaches, directly or through
//! others, back into one that uses it.

#[test]
fn files_form_layers_without_cycles() {
    crawlgate_test_support::architecture::assert_no_cycles(
        env!("CARGO_MANIFEST_DIR"),
        &[
            ("audit.rs", "robots.rs"),
            ("audit.rs", "identity/mod.rs"),
            ("identity/mod.rs", "identity/dns.rs"),
            ("output/table.rs", "findings.rs"),
        ],
    );
}
