//! What a fetch did, for people and for JSON: the redirect chain, each
//! hop's status, bytes read and discarded, the outcome and why, how long it
//! is cached, the sitemaps, and warnings.

use std::fmt;
use std::time::SystemTime;

use serde::Serialize;
use url::Url;

use crate::client::{FetchAttempt, Hop};
use crawlgate_answers::time::serialize_rfc3339;
use crawlgate_answers::{
    Attempt, CacheDirectives, CacheEntry, FetchResult, Origin, OutcomeKind, OutcomeReason, Rules,
};

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum WarningCode {
    /// The body was served as HTML; it was parsed anyway.
    HtmlBody,
    /// The body was longer than the size limit; the rest was not read.
    Truncated,
    /// A redirect led to another host.
    CrossHostRedirect,
    /// A redirect was not followed; treated as 404.
    RedirectsNotFollowed,
    /// A server error or network failure; crawling is restricted.
    ServerError,
    /// A failed refresh; an older copy is in use.
    StaleCopy,
    /// Server errors for more than 30 days.
    Unreachable,
    /// The server sent `Retry-After`.
    RetryAfter,
    /// `Cache-Control: no-store` or `no-cache`.
    NotCacheable,
    /// The parser reported problems in the file.
    Diagnostics,
}

/// One thing worth knowing about a fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What it is about.
    pub code: WarningCode,
    /// A sentence for people.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The full account of one robots.txt fetch (what `crawlgate fetch URL`
/// shows).
#[derive(Clone, Debug, Serialize)]
pub struct FetchReport {
    /// The origin whose robots.txt it is.
    pub origin: Origin,
    /// The robots.txt URL.
    pub robots_url: String,
    /// Every request, in order (redirects included).
    pub hops: Vec<Hop>,
    /// The final status, when a response came.
    pub status: Option<u16>,
    /// What the fetch gave, in short.
    pub attempt: Attempt,
    /// The final `Content-Type`.
    pub content_type: Option<String>,
    /// Body bytes read (decoded).
    pub bytes_read: u64,
    /// Body bytes parsed (at most the size limit; a cut last line is not).
    pub bytes_parsed: Option<u64>,
    /// Whether the body was longer than the limit.
    pub truncated: bool,
    /// Bytes past the limit that were not read, when the length was known.
    pub bytes_discarded: Option<u64>,
    /// Full allow, full disallow or conditional.
    pub outcome: OutcomeKind,
    /// Why the fetch gave the outcome (RFC 9309 §2.3.1).
    pub reason: OutcomeReason,
    /// When the fetch finished (RFC 3339).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub fetched_at: SystemTime,
    /// When the answer expires and is fetched again (RFC 3339).
    #[serde(serialize_with = "serialize_rfc3339")]
    pub expires_at: SystemTime,
    /// Seconds from `fetched_at` to `expires_at`.
    pub ttl_seconds: u64,
    /// How long the fetch took, in milliseconds.
    pub elapsed_ms: u64,
    /// The file's `Sitemap:` URLs (of the copy in use).
    pub sitemaps: Vec<String>,
    /// How many groups the file in use has.
    pub groups: usize,
    /// How many parser diagnostics it has.
    pub diagnostics: usize,
    /// Things worth knowing.
    pub warnings: Vec<Warning>,
    /// The cache entry the fetch produced.
    #[serde(skip)]
    pub entry: CacheEntry,
}

impl FetchReport {
    pub(crate) fn new(origin: Origin, attempt: &FetchAttempt, entry: CacheEntry) -> FetchReport {
        let response = match &attempt.result {
            FetchResult::Response(r) => Some(r),
            _ => None,
        };
        let robots = entry.outcome.rules.robots();
        let mut report = FetchReport {
            robots_url: origin.robots_url().to_string(),
            hops: attempt.hops.clone(),
            status: response.map(|r| r.status),
            attempt: attempt.result.attempt(),
            content_type: response.and_then(|r| r.content_type.clone()),
            bytes_read: attempt.bytes_read,
            bytes_parsed: match (&entry.outcome.reason, robots) {
                (OutcomeReason::Fetched, Some(r)) => Some(r.stats().parsed_bytes as u64),
                _ => None,
            },
            truncated: attempt.truncated,
            bytes_discarded: attempt.bytes_discarded,
            outcome: entry.outcome.kind(),
            reason: entry.outcome.reason,
            fetched_at: entry.fetched_at,
            expires_at: entry.expires_at,
            ttl_seconds: entry.ttl().as_secs(),
            elapsed_ms: u64::try_from(attempt.elapsed.as_millis()).unwrap_or(u64::MAX),
            sitemaps: robots
                .map(|r| r.sitemaps().map(|s| s.url().to_owned()).collect())
                .unwrap_or_default(),
            groups: robots.map_or(0, |r| r.groups().len()),
            diagnostics: robots.map_or(0, |r| r.diagnostics().len()),
            warnings: Vec::new(),
            origin,
            entry,
        };
        report.warnings = report.collect_warnings(attempt);
        report
    }

    /// The rules in force after this fetch.
    pub fn rules(&self) -> &Rules {
        &self.entry.outcome.rules
    }

    fn collect_warnings(&self, attempt: &FetchAttempt) -> Vec<Warning> {
        let mut warnings = Vec::new();
        let mut warn = |code, message: String| warnings.push(Warning { code, message });
        let response = match &attempt.result {
            FetchResult::Response(r) => Some(r),
            _ => None,
        };

        let origin_host = self.origin.host_str();
        for hop in attempt.hops.iter().skip(1) {
            let host = Url::parse(&hop.url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned));
            if let Some(host) = host.filter(|h| *h != origin_host) {
                warn(
                    WarningCode::CrossHostRedirect,
                    format!(
                        "redirected to another host ({host}); the file found there applies to {}",
                        self.origin
                    ),
                );
                break;
            }
        }
        if let FetchResult::RedirectNotFollowed(stop) = &attempt.result {
            warn(
                WarningCode::RedirectsNotFollowed,
                format!(
                    "{stop} after {} requests: treated as 404 (everything allowed)",
                    attempt.hops.len()
                ),
            );
        }
        if let Some(r) = response.filter(|r| (200..300).contains(&r.status))
            && let Some(ct) = r
                .content_type
                .as_deref()
                .filter(|ct| ct.to_ascii_lowercase().contains("html"))
        {
            warn(
                    WarningCode::HtmlBody,
                    format!("served as {ct}, not text/plain; parsed anyway (only valid robots.txt lines count)"),
                );
        }
        if attempt.truncated {
            let discarded = match attempt.bytes_discarded {
                Some(n) => format!("{n} bytes"),
                None => "the rest".to_owned(),
            };
            warn(
                WarningCode::Truncated,
                format!(
                    "body longer than {} bytes: only that much is parsed, {discarded} not read",
                    attempt.body_limit
                ),
            );
        }
        match self.reason {
            OutcomeReason::ServerError => warn(
                WarningCode::ServerError,
                format!(
                    "{}: everything disallowed until a retry succeeds",
                    describe(&attempt.result)
                ),
            ),
            OutcomeReason::StaleCopy => warn(
                WarningCode::StaleCopy,
                format!("{}: using the last good copy", describe(&attempt.result)),
            ),
            OutcomeReason::UnreachableLastCopy | OutcomeReason::UnreachableAllowAll => warn(
                WarningCode::Unreachable,
                format!(
                    "{} for more than 30 days: {}",
                    describe(&attempt.result),
                    self.reason
                ),
            ),
            _ => {}
        }
        if let Some(ra) = response.and_then(|r| r.retry_after.as_deref()) {
            warn(
                WarningCode::RetryAfter,
                format!(
                    "the server asked to retry after {ra:?}; next attempt in {} s",
                    self.ttl_seconds
                ),
            );
        }
        if let Some(cc) = response.and_then(|r| r.cache_control.as_deref()) {
            let d = CacheDirectives::parse(cc);
            if d.no_store || d.no_cache {
                warn(
                    WarningCode::NotCacheable,
                    format!("Cache-Control: {cc}; kept only {} s", self.ttl_seconds),
                );
            }
        }
        if self.diagnostics > 0 && self.reason == OutcomeReason::Fetched {
            warn(
                WarningCode::Diagnostics,
                format!(
                    "the parser reported {} problem(s); `crawlgate lint {}` lists them",
                    self.diagnostics, self.robots_url
                ),
            );
        }
        warnings
    }
}

fn describe(result: &FetchResult) -> String {
    match result {
        FetchResult::Response(r) => format!("HTTP {}", r.status),
        FetchResult::RedirectNotFollowed(stop) => stop.to_string(),
        FetchResult::Network(f) => format!("{} ({})", f.kind, f.message),
    }
}
