//! The answers routes give: the fetch crate's explained verdict (with the
//! lines of the groups that applied), and what a fetch of robots.txt gave.

use std::time::SystemTime;

use crawlgate::RobotsTxt;
use crawlgate_answers::time::rfc3339;

use crawlgate_answers::{
    Attempt, CacheEntry, ExplainedVerdict, GroupLines, OutcomeKind, OutcomeReason,
};
use serde::Serialize;
use utoipa::ToSchema;

/// A verdict as the API gives it: `crawlgate check --json`'s verdict
/// (`allowed`, `basis`, `rule` and, when the fetch outcome decided,
/// `fetch_outcome`) and the groups that applied.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Explained {
    /// `{allowed, basis, rule: {line, kind, value, text, via_index_alias} |
    /// null, fetch_outcome?}`. `basis` is what decided: `rule`,
    /// `empty_rule`, `no_matching_rule`, `no_group`, `robots_txt_itself`,
    /// `ignores_robots_txt`, `rule_limit`, `full_allow`, `full_disallow`.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub verdict: ExplainedVerdict,
    /// The groups the crawler obeyed: `[{first_line, last_line}]` (moved
    /// here from `verdict`, whose own list is then empty).
    #[schema(value_type = Vec<Object>)]
    pub groups: Vec<GroupLines>,
}

impl From<ExplainedVerdict> for Explained {
    /// Moves the groups out of the verdict (which does not serialize
    /// them) to beside it, where the API shows them: no copy.
    fn from(mut verdict: ExplainedVerdict) -> Explained {
        Explained {
            groups: std::mem::take(&mut verdict.groups),
            verdict,
        }
    }
}

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
