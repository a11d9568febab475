//! What the routes give beside the answers crate's explained verdict
//! (which they show with its groups, `ExplainedVerdict::with_groups`): the
//! file's licences, and what a fetch of robots.txt gave.

use std::time::SystemTime;

use crawlgate::RobotsTxt;
use crawlgate_answers::time::rfc3339;

use crawlgate_answers::{Attempt, CacheEntry, OutcomeKind, OutcomeReason};
use serde::Serialize;
use utoipa::ToSchema;

/// A `License:` line (RSL 1.0): file-wide, wherever it is.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct LicenseShown {
    /// Its line.
    pub line: u32,
    /// The licence's address as written.
    pub url: String,
    /// Whether it is an absolute http(s) URL, as RSL asks.
    pub absolute: bool,
}

impl LicenseShown {
    /// Every `License:` line of `robots`, in file order.
    pub fn all(robots: &RobotsTxt) -> Vec<LicenseShown> {
        robots
            .licenses()
            .map(|l| LicenseShown {
                line: l.line,
                url: l.url.to_owned(),
                absolute: l.is_absolute(),
            })
            .collect()
    }
}

/// What the robots.txt in use is, and where it came from.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct FetchInfo {
    /// The final HTTP status, when a response came.
    pub status: Option<u16>,
    /// What the last attempt gave: `{"kind": "status", "status": 200}`,
    /// `{"kind": "redirect", "stop": …}` or `{"kind": "network", "error": …}`.
    #[schema(value_type = Object)]
    pub attempt: Attempt,
    /// `conditional`, `full_allow` or `full_disallow`.
    #[schema(value_type = String, example = "conditional")]
    pub outcome: OutcomeKind,
    /// Why (`fetched`, `not_found`, `server_error`, `stale_copy` …).
    #[schema(value_type = String, example = "fetched")]
    pub reason: OutcomeReason,
    /// When it was fetched (RFC 3339).
    pub fetched_at: String,
    /// When it will be fetched again (RFC 3339).
    pub expires_at: String,
    /// Whether this answer needed no fetch.
    pub from_cache: bool,
    /// Whether the entry is still fresh now.
    pub fresh: bool,
}

impl FetchInfo {
    /// Describes a cache entry.
    pub fn of(entry: &CacheEntry, from_cache: bool) -> FetchInfo {
        FetchInfo {
            status: match entry.attempt {
                Attempt::Status { status } => Some(status),
                _ => None,
            },
            attempt: entry.attempt,
            outcome: entry.outcome.kind(),
            reason: entry.outcome.reason,
            fetched_at: rfc3339(entry.fetched_at),
            expires_at: rfc3339(entry.expires_at),
            from_cache,
            fresh: entry.is_fresh(SystemTime::now()),
        }
    }
}
