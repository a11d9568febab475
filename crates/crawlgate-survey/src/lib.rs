//! # crawlgate-survey
//!
//! Who may crawl what, across thousands to millions of sites: robots.txt
//! files from a folder, a table, WARC files (Common Crawl's `robotstxt`
//! subset) or fetched live, each read as the fetch rules of RFC 9309
//! §2.3.1 say (a 5xx means everything disallowed, a 404 everything
//! allowed), linted, and classified for every crawler of a chosen set.
//! One row per site, written as Parquet, CSV or JSON lines, and an HTML
//! report.
//!
//! ```
//! use crawlgate_survey::{Capture, Class, CrawlerSet, Payload, Survey};
//! use crawlgate_fetch::HttpResponse;
//!
//! let survey = Survey::new(CrawlerSet::default_set());
//! let row = survey.observe(Capture {
//!     host: Some("example.com".into()),
//!     source: "example".into(),
//!     payload: Payload::Http {
//!         response: HttpResponse::new(503),
//!         size: 0,
//!         location: None,
//!     },
//! });
//! // A server error disallows everything, for every crawler.
//! assert!(row.crawlers.iter().all(|c| c.class == Class::Blocked));
//! ```
//!
//! ## The parts
//!
//! * [`input`]: the readers (folder, JSON lines or CSV table, WARC, live
//!   site list); each streams and turns what it cannot read into an error
//!   capture.
//! * [`Survey::observe`]: a [`Capture`] → a [`SiteRow`]: the fetch outcome
//!   (through `crawlgate_fetch::FetchPolicy`), size, HTML, lint counts,
//!   sitemaps, crawl-delay, content signals, and a [`Class`] per crawler
//!   (see [`classify`] for the exact definitions).
//! * [`output`]: the Arrow schema and the Parquet, CSV and JSON-lines
//!   writers; [`report`]: the HTML page; [`compare`]: the change since an
//!   earlier survey.
//! * [`run`]: all of it, streaming, on every core, in bounded memory.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod batch;
pub mod capture;
pub mod classify;
pub mod compare;
pub mod crawlers;
pub mod findings;
pub mod input;
pub mod output;
pub mod report;
mod row;
mod run;
mod summary;
mod survey;

pub use capture::{Capture, Payload};
pub use classify::{Class, Classification, Classifier};
pub use crawlers::{CrawlerSet, SurveyedCrawler};
pub use output::OutputFormat;
pub use row::{outcome_word, reason_word, SiteRow};
pub use run::{run, Plan, Progress, SurveyError, CHUNK_BYTES, CHUNK_SITES};
pub use summary::{size_label, CrawlerTally, Summary, SIZE_BOUNDS};
pub use survey::Survey;
