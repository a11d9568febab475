//! # crawlgate-survey
//!
//! Who may crawl what, across thousands to millions of sites: robots.txt
//! files from a folder, a table, WARC files (Common Crawl's `robotstxt`
//! subset, local or by URL: `s3://`, `https://`, `*.paths.gz` listings) or
//! fetched live, each read as the fetch rules of RFC 9309 §2.3.1 say (a
//! 5xx means everything disallowed, a 4xx everything allowed, redirects
//! followed), linted, and answered for every crawler of a chosen set: may
//! it fetch `/` (and each path asked about), which group decided, and why
//! (a [`Cause`](verdict::Cause) that keeps a site's choice apart from an
//! outage). One row per host, written as Parquet, CSV or JSON lines, an
//! HTML report and a JSON summary; a stopped survey resumes.
//!
//! ```
//! use crawlgate_survey::{Capture, CrawlerSet, Payload, Survey};
//! use crawlgate_survey::verdict::Cause;
//! use crawlgate_answers::HttpResponse;
//!
//! let survey = Survey::new(CrawlerSet::default_set());
//! let row = survey.observe(Capture::new(
//!     Some("example.com".into()),
//!     "example",
//!     Payload::Http {
//!         response: HttpResponse::new(503),
//!         size: 0,
//!         location: None,
//!     },
//! ));
//! // A server error disallows everything, for every crawler: an outage,
//! // not a choice of the site.
//! assert!(row.crawlers.iter().all(|c| c.root == Some(false) && c.cause == Some(Cause::Unreachable)));
//! ```
//!
//! ## The parts
//!
//! * [`input`]: the readers (folder, JSON lines or CSV table, WARC from a
//!   file or by URL, live site list); each streams, turns what it cannot
//!   read into an error capture and counts the records it passes over.
//! * [`Survey::observe`]: a [`Capture`] → a [`SiteRow`]: the fetch outcome
//!   (through `crawlgate_answers::FetchPolicy`), size, HTML, lint counts,
//!   sitemaps, crawl-delay, content signals, Common Crawl's
//!   [`taxonomy`], and a [`CrawlerVerdict`](verdict::CrawlerVerdict) per
//!   crawler (see [`verdict`] for the exact definitions), with the AI-use
//!   [`preferences`] each crawler is given for `/` and each path.
//! * [`run`]: all of it, streaming, on every core, in bounded memory, with
//!   [`checkpoint`]s to resume from and a [`merge`] into one row per host
//!   (latest capture, redirects followed).
//! * [`output`]: the Arrow schema, the Parquet, CSV and JSON-lines writers
//!   (temporary file, then rename) and the reader of tables (Spark's part
//!   files too); [`report`]: the HTML page and JSON summary, from a run or
//!   from tables; [`compare`]: the change since an earlier survey.
//!
//! ## Features
//!
//! * `files` (default): everything above that reads or writes files
//!   (`run`, `checkpoint`, `merge`, `report`, `compare`, `tables`, the
//!   table writers and readers of `output`). Without it the crate
//!   classifies captures into Arrow batches ([`batch`], `output::schema`)
//!   and builds neither `parquet` nor `arrow-csv`, `arrow-json` and
//!   `arrow-cast`: the Python package depends on it so.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod batch;
pub mod capture;
#[cfg(feature = "files")]
pub mod checkpoint;
mod chunks;
#[cfg(feature = "files")]
pub mod compare;
pub mod crawlers;
pub mod findings;
pub mod housekeeping;
pub mod input;
#[cfg(feature = "files")]
pub mod merge;
pub mod output;
pub mod preferences;
#[cfg(feature = "files")]
pub mod report;
mod row;
#[cfg(feature = "files")]
mod run;
#[cfg(feature = "files")]
mod summary;
mod survey;
#[cfg(feature = "files")]
pub mod tables;
pub mod taxonomy;
pub mod verdict;

pub use capture::{Capture, Payload};
pub use chunks::{CHUNK_BYTES, CHUNK_SITES};
pub use crawlers::{CrawlerSet, SurveyedCrawler};
#[cfg(feature = "files")]
pub use output::OutputFormat;
pub use row::{outcome_word, reason_word, SiteRow};
#[cfg(feature = "files")]
pub use run::{run, snapshot_label, Plan, Progress, SurveyError, CHECKPOINT_ROWS, FAN_IN};
#[cfg(feature = "files")]
pub use summary::{size_label, Accounting, CrawlerTally, Summary, TokenUse, SIZE_BOUNDS};
pub use survey::{PathError, Survey, MAX_PATHS, MAX_PATH_LEN};
