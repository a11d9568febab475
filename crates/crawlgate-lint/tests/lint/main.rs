//! The linter's integration tests, one binary: each file a module.

mod architecture;
mod fixes_keep_verdicts;
mod growth;
mod lint_corpus;
mod lint_snapshots;
mod precision;
mod sarif_schema;
