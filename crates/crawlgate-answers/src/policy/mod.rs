//! The fetch policy as a pure function: (what a fetch gave, the previous
//! cache entry, now) → (outcome, next cache entry). No I/O and no clock:
//! every row of the table is testable with plain values. The rows are RFC
//! 9309 §2.3.1 (access results) and §2.4 (caching), as Google's "How Google
//! interprets the robots.txt specification" reads them
//! (<https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt>,
//! "Handling of errors and HTTP status codes" and "Caching").
//!
//! | fetch result | outcome |
//! |---|---|
//! | 2xx | conditional: the body is parsed |
//! | 3xx not followed (past the hop limit, loop, no `Location`) | full allow, as a 404 |
//! | 4xx except 429 | full allow |
//! | 429, 5xx, network failure | the last good copy if there is one (stale), else full disallow; retried with backoff, `Retry-After` honoured |
//! | server errors for more than 30 days | the last good copy if there is one, else full allow |
//!
//! A settled answer (2xx, 4xx, 3xx given up) is kept for 24 hours, or for
//! `Cache-Control: max-age` within [`FetchPolicy::min_ttl`] and
//! [`FetchPolicy::max_ttl`]; `no-cache` and `no-store` keep it only for
//! `min_ttl`, and a `no-store` body is not kept as a fallback copy.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate::Profile;

use crate::entry::{CacheEntry, ErrorStreak, GoodCopy};
use crate::headers::{parse_retry_after, CacheDirectives};
use crate::outcome::{Outcome, OutcomeReason, RobotsCopy, Rules};
use crate::result::{Attempt, FetchResult, HttpResponse};
use crate::time::{later, DAY};

#[cfg(test)]
mod tests;

/// The policy's settings. [`FetchPolicy::default`] is RFC 9309 §2.3.1 and
/// §2.4 as Google applies them.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FetchPolicy {
    /// How long a settled answer is kept without `Cache-Control` (24 h).
    pub default_ttl: Duration,
    /// The shortest time an answer is kept, whatever `max-age`, `no-cache`
    /// or `no-store` say (1 min), so a crawler does not fetch robots.txt
    /// once per URL.
    pub min_ttl: Duration,
    /// The longest `max-age` honoured (30 days).
    pub max_ttl: Duration,
    /// The first retry after a server error, and the fixed retry interval
    /// after a 503 ("frequent retries") (1 min).
    pub retry_min: Duration,
    /// The cap of the exponential backoff (1 h).
    pub retry_max: Duration,
    /// The longest `Retry-After` honoured (24 h).
    pub retry_after_max: Duration,
    /// How long server errors last before the outcome switches to the last
    /// copy or full allow (30 days).
    pub unreachable_limit: Duration,
    /// Treat a 5xx whose body says "not found" as a 404 (off).
    pub soft_not_found: bool,
    /// How bodies are parsed.
    pub profile: Profile,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        FetchPolicy {
            default_ttl: DAY,
            min_ttl: Duration::from_secs(60),
            max_ttl: 30 * DAY,
            retry_min: Duration::from_secs(60),
            retry_max: Duration::from_secs(3600),
            retry_after_max: DAY,
            unreachable_limit: 30 * DAY,
            soft_not_found: false,
            profile: Profile::GOOGLE,
        }
    }
}

/// Which row of the table a result falls in.
enum Row<'a> {
    Success(&'a HttpResponse),
    NoRobotsTxt(OutcomeReason, Option<&'a HttpResponse>),
    ServerError(Option<&'a HttpResponse>),
}

impl FetchPolicy {
    /// Applies the policy: the outcome to obey now and the entry to cache.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, OutcomeKind};
    ///
    /// let policy = FetchPolicy::default();
    /// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    ///
    /// let (outcome, entry) = policy.apply(&FetchResult::Response(HttpResponse::new(404)), None, now);
    /// assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
    /// assert_eq!(entry.ttl(), Duration::from_secs(86_400));
    ///
    /// let (outcome, entry) = policy.apply(&FetchResult::Response(HttpResponse::new(503)), None, now);
    /// assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
    /// assert_eq!(entry.ttl(), Duration::from_secs(60)); // retried soon
    /// ```
    pub fn apply(
        &self,
        result: &FetchResult,
        previous: Option<&CacheEntry>,
        now: SystemTime,
    ) -> (Outcome, CacheEntry) {
        let attempt = result.attempt();
        let entry = match self.row(result) {
            Row::Success(response) => {
                let copy = RobotsCopy::parse(&response.body, self.profile);
                let rules = Rules::Conditional(Arc::new(copy));
                self.settled(rules, OutcomeReason::Fetched, attempt, Some(response), now)
            }
            Row::NoRobotsTxt(reason, response) => {
                self.settled(Rules::FullAllow, reason, attempt, response, now)
            }
            Row::ServerError(response) => self.failed(attempt, response, previous, now),
        };
        (entry.outcome.clone(), entry)
    }

    fn row<'a>(&self, result: &'a FetchResult) -> Row<'a> {
        let response = match result {
            FetchResult::Response(r) => r,
            FetchResult::RedirectNotFollowed(_) => {
                return Row::NoRobotsTxt(OutcomeReason::RedirectsNotFollowed, None)
            }
            FetchResult::Network(_) => return Row::ServerError(None),
        };
        match response.status {
            200..=299 => Row::Success(response),
            // A 3xx reaching the policy is one the client did not follow.
            300..=399 => Row::NoRobotsTxt(OutcomeReason::RedirectsNotFollowed, Some(response)),
            429 => Row::ServerError(Some(response)),
            400..=499 => Row::NoRobotsTxt(OutcomeReason::NotFound, Some(response)),
            500..=599 if self.soft_not_found && looks_not_found(&response.body) => {
                Row::NoRobotsTxt(OutcomeReason::SoftNotFound, Some(response))
            }
            // 5xx, and status codes outside 200–599 (an invalid response).
            _ => Row::ServerError(Some(response)),
        }
    }

    /// The time a settled answer is kept.
    pub fn ttl_for(&self, directives: &CacheDirectives) -> Duration {
        let ttl = if directives.no_store || directives.no_cache {
            self.min_ttl
        } else {
            match directives.max_age {
                Some(seconds) => Duration::from_secs(seconds),
                None => self.default_ttl,
            }
        };
        // max then min, not clamp: clamp panics when min_ttl > max_ttl.
        ttl.max(self.min_ttl).min(self.max_ttl)
    }

    fn settled(
        &self,
        rules: Rules,
        reason: OutcomeReason,
        attempt: Attempt,
        response: Option<&HttpResponse>,
        now: SystemTime,
    ) -> CacheEntry {
        let directives = response
            .and_then(|r| r.cache_control.as_deref())
            .map(CacheDirectives::parse)
            .unwrap_or_default();
        let keep = !(directives.no_store && matches!(rules, Rules::Conditional(_)));
        CacheEntry {
            last_good: keep.then(|| GoodCopy {
                rules: rules.clone(),
                fetched_at: now,
            }),
            outcome: Outcome { rules, reason },
            attempt,
            fetched_at: now,
            expires_at: later(now, self.ttl_for(&directives)),
            errors: None,
        }
    }

    fn failed(
        &self,
        attempt: Attempt,
        response: Option<&HttpResponse>,
        previous: Option<&CacheEntry>,
        now: SystemTime,
    ) -> CacheEntry {
        let errors = match previous.and_then(|p| p.errors) {
            Some(streak) => ErrorStreak {
                since: streak.since,
                count: streak.count.saturating_add(1),
            },
            None => ErrorStreak {
                since: now,
                count: 1,
            },
        };
        let last_good = previous.and_then(|p| p.last_good.clone());
        let unreachable_for = now.duration_since(errors.since).unwrap_or_default();
        let outcome = match (&last_good, unreachable_for > self.unreachable_limit) {
            (Some(good), true) => Outcome {
                rules: good.rules.clone(),
                reason: OutcomeReason::UnreachableLastCopy,
            },
            (None, true) => Outcome {
                rules: Rules::FullAllow,
                reason: OutcomeReason::UnreachableAllowAll,
            },
            (Some(good), false) => Outcome {
                rules: good.rules.clone(),
                reason: OutcomeReason::StaleCopy,
            },
            (None, false) => Outcome {
                rules: Rules::FullDisallow,
                reason: OutcomeReason::ServerError,
            },
        };
        CacheEntry {
            outcome,
            attempt,
            fetched_at: now,
            expires_at: later(now, self.retry_wait(response, errors.count, now)),
            last_good,
            errors: Some(errors),
        }
    }

    /// How long to wait before retrying after the `count`-th server error in
    /// a row: `Retry-After` when given (at least 1 s, at most
    /// [`retry_after_max`](Self::retry_after_max)); after a 503,
    /// [`retry_min`](Self::retry_min); otherwise `retry_min` doubled per
    /// error up to [`retry_max`](Self::retry_max).
    pub fn retry_wait(
        &self,
        response: Option<&HttpResponse>,
        count: u32,
        now: SystemTime,
    ) -> Duration {
        let retry_after = response
            .and_then(|r| r.retry_after.as_deref())
            .and_then(|v| parse_retry_after(v, now));
        if let Some(wait) = retry_after {
            return wait.max(Duration::from_secs(1)).min(self.retry_after_max);
        }
        if response.is_some_and(|r| r.status == 503) {
            return self.retry_min;
        }
        let doublings = count.saturating_sub(1).min(30);
        self.retry_min
            .saturating_mul(1u32 << doublings)
            .min(self.retry_max.max(self.retry_min))
    }
}

/// The soft-404 heuristic: the start of the body says "not found".
fn looks_not_found(body: &[u8]) -> bool {
    let head = &body[..body.len().min(4096)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    ["not found", "404", "does not exist"]
        .iter()
        .any(|needle| head.contains(needle))
}
