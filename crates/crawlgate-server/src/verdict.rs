//! The answers routes give: a verdict with its deciding line and the
//! groups that applied, and what a fetch of robots.txt gave.

use std::time::{Duration, SystemTime};

use crawlgate::{Reason, RobotsTxt, SelectionKind, Verdict};
use crawlgate_fetch::{Attempt, Basis, CacheEntry, OutcomeKind, OutcomeReason, Rules};
use serde::Serialize;
use utoipa::ToSchema;

/// May the crawler fetch the URL, and which line says so.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct VerdictBody {
    /// The answer.
    pub allowed: bool,
    /// What decided: `rule`, `empty_rule`, `no_matching_rule`, `no_group`,
    /// `full_allow`, `full_disallow`, `robots_txt_itself`.
    #[schema(value_type = String, example = "rule")]
    pub reason: Basis,
    /// The deciding line as it reads (`Disallow: /private`).
    pub rule: Option<String>,
    /// Its 1-based line number.
    pub line: Option<u32>,
    /// Matched through Google's `index.html` alias.
    pub via_index_alias: bool,
    /// First line of each group the crawler obeyed.
    pub group_lines: Vec<u32>,
    /// How the groups were chosen: `own` (named), `*`, or `none`.
    pub selection: &'static str,
}

impl VerdictBody {
    /// From the core's verdict.
    pub fn from_verdict(verdict: &Verdict<'_>) -> VerdictBody {
        let rule = verdict.rule();
        VerdictBody {
            allowed: verdict.is_allowed(),
            reason: basis(verdict.reason()),
            rule: rule.map(|r| r.to_string()),
            line: rule.map(|r| r.line()),
            via_index_alias: verdict.via_index_alias(),
            group_lines: verdict.groups().map(|g| g.first_line()).collect(),
            selection: selection_name(verdict.selection()),
        }
    }

    /// Under a fetched outcome: full allow, full disallow, or the rules.
    pub fn of_rules(rules: &Rules, agent: &str, url: &str) -> VerdictBody {
        match rules {
            Rules::Conditional(copy) => VerdictBody::decide(copy.robots(), agent, url),
            Rules::FullAllow => VerdictBody::without_rules(true, Basis::FullAllow),
            Rules::FullDisallow => VerdictBody::without_rules(false, Basis::FullDisallow),
        }
    }

    /// Decides `url` for `agent` in `robots`.
    pub fn decide(robots: &RobotsTxt, agent: &str, url: &str) -> VerdictBody {
        VerdictBody::from_verdict(&robots.decide(agent, url))
    }

    /// `/robots.txt` itself, always allowed (RFC 9309 §2.5).
    pub fn robots_txt_itself() -> VerdictBody {
        VerdictBody::without_rules(true, Basis::RobotsTxtItself)
    }

    fn without_rules(allowed: bool, reason: Basis) -> VerdictBody {
        VerdictBody {
            allowed,
            reason,
            rule: None,
            line: None,
            via_index_alias: false,
            group_lines: Vec::new(),
            selection: "none",
        }
    }
}

/// The fetch crate's name for the core's reason.
pub(crate) fn basis(reason: Reason) -> Basis {
    match reason {
        Reason::Rule => Basis::Rule,
        Reason::EmptyRule => Basis::EmptyRule,
        Reason::NoMatchingRule => Basis::NoMatchingRule,
        Reason::NoGroup => Basis::NoGroup,
        Reason::RobotsTxt => Basis::RobotsTxtItself,
    }
}

/// `own`, `*` or `none`, as `crawlgate lint --audit` says.
pub fn selection_name(kind: SelectionKind) -> &'static str {
    match kind {
        SelectionKind::Specific => "own",
        SelectionKind::Global => "*",
        SelectionKind::Nothing => "none",
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

/// `2026-11-23T14:05:09Z`: what every time in the API looks like (the
/// batch route formats one per pair, so a fast formatter).
///
/// Times are clamped to 1970–9999, which the format can hold.
pub fn rfc3339(time: SystemTime) -> String {
    let last = SystemTime::UNIX_EPOCH + Duration::from_secs(253_402_300_799);
    let time = time.clamp(SystemTime::UNIX_EPOCH, last);
    humantime::format_rfc3339_seconds(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_rfc3339_at_any_instant() {
        let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
        assert_eq!(rfc3339(at(1_700_000_000)), "2023-11-14T22:13:20Z");
        assert_eq!(
            rfc3339(at(1_700_000_000) + Duration::from_millis(999)),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(
            rfc3339(SystemTime::UNIX_EPOCH - Duration::from_secs(5)),
            "1970-01-01T00:00:00Z"
        );
        assert_eq!(rfc3339(at(u64::MAX / 4)), "9999-12-31T23:59:59Z");
        // The same text as the fetch crate's reports.
        assert_eq!(
            rfc3339(at(951_782_400)),
            crawlgate_fetch::format_time(at(951_782_400))
        );
    }
}
