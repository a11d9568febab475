//! The answers routes give: the fetch crate's explained verdict (with the
//! lines of the groups that applied), and what a fetch of robots.txt gave.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use crawlgate::extension::CONTENT_SIGNAL_KEYS;
use crawlgate::{AgentView, Preference, RobotsTxt};

use crawlgate_fetch::{
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
    /// `full_allow`, `full_disallow`.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub verdict: ExplainedVerdict,
    /// The groups the crawler obeyed: `[{first_line, last_line}]`.
    #[schema(value_type = Vec<Object>)]
    pub groups: Vec<GroupLines>,
}

impl From<ExplainedVerdict> for Explained {
    fn from(verdict: ExplainedVerdict) -> Explained {
        Explained {
            groups: verdict.groups.clone(),
            verdict,
        }
    }
}

/// The usage preferences that apply to one URL for the crawler
/// (`AgentView::preferences`: `Content-Usage` as the IETF AI-preferences
/// drafts read it, and Cloudflare's `Content-Signal`), with the field names
/// of `crawlgate check --json`'s `preferences`.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Preferences {
    /// The `Content-Signal` line of the crawler's groups, if any.
    pub content_signal: Option<SignalShown>,
    /// The `Content-Usage` records that apply (the longest matching path;
    /// several only when they name the same path).
    pub content_usage: Vec<UsageShown>,
    /// `allowed`, `disallowed` or `unknown`: the `search` category.
    #[schema(example = "unknown")]
    pub search: &'static str,
    /// `allowed`, `disallowed` or `unknown`: the `train-ai` category (the
    /// most restrictive of the records that apply).
    #[schema(example = "disallowed")]
    pub train_ai: &'static str,
    /// Keys outside the drafts' vocabulary, ignored.
    pub unknown_keys: Vec<String>,
}

/// A `Content-Usage` record.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct UsageShown {
    /// Its line.
    pub line: u32,
    /// The path it is scoped to (`null`: the whole site).
    pub path: Option<String>,
    /// Its preferences as written (`train-ai=n`).
    pub preferences: String,
}

/// A `Content-Signal` line.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SignalShown {
    /// Its line.
    pub line: u32,
    /// Each known signal it sets (`search`, `ai-input`, `ai-train`).
    pub signals: BTreeMap<&'static str, bool>,
    /// Its value as written.
    pub value: String,
}

impl Preferences {
    /// What `view` says of usage at `url`; `None` when the file states
    /// nothing about usage to this crawler there (or the URL may not be
    /// fetched at all).
    pub fn of(view: &AgentView<'_>, url: &str) -> Option<Preferences> {
        let found = view.preferences(url).filter(|p| !p.is_empty())?;
        let word = |p: Option<Preference>| match p {
            Some(Preference::Allowed) => "allowed",
            Some(Preference::Disallowed) => "disallowed",
            None => "unknown",
        };
        Some(Preferences {
            content_signal: found.content_signal.map(|s| SignalShown {
                line: s.line,
                signals: CONTENT_SIGNAL_KEYS
                    .iter()
                    .filter_map(|&key| s.get(key).map(|v| (key, v)))
                    .collect(),
                value: s.value.to_owned(),
            }),
            content_usage: found
                .records
                .iter()
                .map(|u| UsageShown {
                    line: u.line,
                    path: u.path.map(str::to_owned),
                    preferences: u.preferences.to_owned(),
                })
                .collect(),
            search: word(found.search),
            train_ai: word(found.train_ai),
            unknown_keys: found.unknown_keys.iter().map(|k| (*k).to_owned()).collect(),
        })
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
