//! The history of an origin: each distinct answer its robots.txt gave
//! (status, outcome, body) in the last 30 days, so a webmaster can see what
//! crawlers saw on a given day.

use std::time::{Duration, SystemTime};

use crawlgate_answers::{Attempt, CacheEntry, OutcomeKind, OutcomeReason, Rules};
use serde::{Deserialize, Serialize};

use super::micros;

/// How long versions are kept.
pub const HISTORY_WINDOW: Duration = Duration::from_secs(30 * 86_400);

/// One distinct version, as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Version {
    /// Its id: the fetch time in microseconds since the Unix epoch.
    pub id: u64,
    /// What the fetch gave.
    pub attempt: Attempt,
    /// The outcome obeyed.
    pub outcome: OutcomeKind,
    /// Why.
    pub reason: OutcomeReason,
    /// Diagnostics the parser reported.
    pub diagnostics: u32,
    /// The body, for a fetched file.
    pub body: Option<Vec<u8>>,
}

/// A version without its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionSummary {
    /// The id ([`Version::id`]).
    pub id: u64,
    /// What the fetch gave.
    pub attempt: Attempt,
    /// The outcome obeyed.
    pub outcome: OutcomeKind,
    /// Body bytes.
    pub size: u64,
    /// Diagnostics the parser reported.
    pub diagnostics: u32,
}

impl Version {
    /// The version a fresh cache entry records. A failed refresh that
    /// serves the stale copy records the failure, not the copy again.
    pub fn of(entry: &CacheEntry) -> Version {
        let (body, diagnostics) = match (&entry.outcome.rules, entry.outcome.reason) {
            (Rules::Conditional(copy), OutcomeReason::Fetched) => (
                Some(copy.body().to_vec()),
                u32::try_from(copy.robots().diagnostics().len()).unwrap_or(u32::MAX),
            ),
            _ => (None, 0),
        };
        Version {
            id: micros(entry.fetched_at),
            attempt: entry.attempt,
            outcome: entry.outcome.kind(),
            reason: entry.outcome.reason,
            diagnostics,
            body,
        }
    }

    /// Whether `self` says the same as `other` (same status, outcome and
    /// bytes): then it is not a new version.
    pub fn same_as(&self, other: &Version) -> bool {
        self.attempt == other.attempt
            && self.outcome == other.outcome
            && self.reason == other.reason
            && self.body == other.body
    }

    /// The summary.
    pub fn summary(&self) -> VersionSummary {
        VersionSummary {
            id: self.id,
            attempt: self.attempt,
            outcome: self.outcome,
            size: self.body.as_ref().map_or(0, |b| b.len() as u64),
            diagnostics: self.diagnostics,
        }
    }
}

/// The oldest version id kept at `now`.
pub(crate) fn oldest_kept(now: SystemTime) -> u64 {
    micros(
        now.checked_sub(HISTORY_WINDOW)
            .unwrap_or(SystemTime::UNIX_EPOCH),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse};

    fn entry(status: u16, body: &str, at: u64) -> CacheEntry {
        let result = FetchResult::Response(HttpResponse::new(status).with_body(body));
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(at);
        FetchPolicy::default().apply(&result, None, now).1
    }

    #[test]
    fn versions_differ_by_status_outcome_or_bytes_not_time() {
        let a = Version::of(&entry(200, "User-agent: *\nDisallow: /a\n", 10));
        let b = Version::of(&entry(200, "User-agent: *\nDisallow: /a\n", 20));
        let c = Version::of(&entry(200, "User-agent: *\nDisallow: /b\n", 30));
        let d = Version::of(&entry(503, "", 40));
        assert!(a.same_as(&b));
        assert!(!a.same_as(&c));
        assert!(!c.same_as(&d));
        assert_eq!(a.id, 10_000_000);
        assert_eq!(c.summary().size, 27);
        assert_eq!(d.summary().size, 0);
        assert_eq!(d.outcome, OutcomeKind::FullDisallow);
        let bad = Version::of(&entry(200, "Disallow /x\nfoo\n", 50));
        assert!(bad.diagnostics > 0);
    }
}
