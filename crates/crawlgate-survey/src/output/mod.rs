//! Where rows go: the Arrow schema and record batches of a survey's rows
//! ([`schema`], [`record_batch`]); with the `files` feature, Parquet, CSV
//! and JSON-lines tables of that schema, written batch by batch, and where
//! they come back from (a table, or a Spark output folder of part files).
//!
//! Every file is written under a temporary name beside its path and
//! renamed onto it once complete, so a run that is stopped or killed at
//! any moment leaves the file that was at the path before as it was.

#[cfg(feature = "files")]
mod parquet_table;
#[cfg(feature = "files")]
mod read;
mod schema;
#[cfg(feature = "files")]
mod write;

#[cfg(feature = "files")]
pub use read::{ReadError, TableSource};
pub use schema::{
    record_batch, schema, verdict_word, META_CRAWLERS, META_PATHS, META_PROFILE, META_TABLE,
    META_VERSION, SCHEMA_VERSION,
};
#[cfg(feature = "files")]
pub use schema::{rows_of_batch, Layout};
#[cfg(feature = "files")]
pub use write::{
    partial_path, write_atomically, OutputError, OutputFormat, TableWriter, ROW_GROUP_ROWS,
};
