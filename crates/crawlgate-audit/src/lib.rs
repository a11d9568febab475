//! # crawlgate-audit
//!
//! Access logs against robots.txt: which crawlers came, whether they were
//! who they said, and whether they obeyed.
//!
//! ## Features
//!
//! * `files` (default): the rows written as table files
//!   (`output::table::TableWriter`: Parquet, CSV, JSON lines). Without it
//!   the rows are Arrow batches in memory ([`output::table::Batches`],
//!   [`output::table::OneBatch`]) and neither `parquet` nor `arrow-csv` and
//!   `arrow-json` is built: the Python package, the server and the policy
//!   crate depend on it so.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod audit;
pub mod findings;
pub mod format;
pub mod identity;
pub mod input;
pub mod output;
pub mod record;
pub mod records;
pub mod robots;
pub mod service;
pub mod session;
pub mod time;
