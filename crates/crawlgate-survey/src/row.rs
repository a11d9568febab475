//! One row per site: what its robots.txt fetch gave and what the file says
//! to each crawler.

use crawlgate_fetch::{OutcomeKind, OutcomeReason};

use crate::classify::Classification;
use crate::findings::LintCounts;

/// What a survey found for one site. An error row (the input could not be
/// read) has `error` set, and nothing but `host`, `source` (and `size` when
/// known) besides.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SiteRow {
    /// The site's host, when known.
    pub host: Option<String>,
    /// Where the row came from (file, `file:line`, `file@offset`, URL).
    pub source: String,
    /// Why the input gave no answer: the row is an error row.
    pub error: Option<String>,
    /// The HTTP status (none for a file given without one).
    pub status: Option<u16>,
    /// Full allow, full disallow or conditional (RFC 9309 §2.3.1).
    pub outcome: Option<OutcomeKind>,
    /// Why the fetch gave that outcome.
    pub reason: Option<OutcomeReason>,
    /// The `Content-Type` it was served with.
    pub content_type: Option<String>,
    /// The `Location` of a redirect that was not followed.
    pub location: Option<String>,
    /// The body's size in bytes.
    pub size: Option<u64>,
    /// Whether the body is larger than crawlers read (500 KiB).
    pub over_limit: Option<bool>,
    /// Whether the site served HTML: a `text/html` content type on a
    /// success, or a body that is an HTML page (lint `R017`).
    pub html: Option<bool>,
    /// Groups in the file.
    pub groups: Option<u32>,
    /// `Sitemap:` lines in the file.
    pub sitemaps: Option<u32>,
    /// The crawl-delay of the `*` groups, in seconds.
    pub crawl_delay: Option<f64>,
    /// The `Content-Usage` records of the `*` groups, as written, joined by
    /// `; `.
    pub content_usage: Option<String>,
    /// The first `Content-Signal` value of the `*` groups.
    pub content_signal: Option<String>,
    /// The linter's findings (none without a file).
    pub lint: Option<LintCounts>,
    /// One classification per crawler of the survey, in its order (empty
    /// in an error row).
    pub crawlers: Vec<Classification>,
}

impl SiteRow {
    /// An error row.
    pub fn error(host: Option<String>, source: String, reason: String) -> SiteRow {
        SiteRow {
            host,
            source,
            error: Some(reason),
            ..SiteRow::default()
        }
    }

    /// Whether it is an error row.
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
}

/// The word written for an outcome kind (`full_allow`).
pub fn outcome_word(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::FullAllow => "full_allow",
        OutcomeKind::FullDisallow => "full_disallow",
        OutcomeKind::Conditional => "conditional",
    }
}

/// The word written for an outcome reason (`server_error`), as the fetch
/// crate serialises it.
pub fn reason_word(reason: OutcomeReason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{reason:?}"))
}
