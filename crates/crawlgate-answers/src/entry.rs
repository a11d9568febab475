//! What the cache keeps for one origin: the outcome in force and until
//! when, what the last attempt gave, the last settled answer to fall back
//! on, and the current run of server errors. Plain data, serialisable so a
//! store can keep it anywhere; [`FetchPolicy`](crate::FetchPolicy) makes
//! and updates it.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::outcome::{Outcome, Rules};
use crate::result::Attempt;

/// The last settled answer (2xx, 4xx, or redirects given up), kept to be
/// used when later refreshes fail.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GoodCopy {
    /// Its rules (full allow after a 4xx).
    pub rules: Rules,
    /// When it was fetched.
    pub fetched_at: SystemTime,
}

/// A run of consecutive server errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorStreak {
    /// When the first one happened.
    pub since: SystemTime,
    /// How many in a row.
    pub count: u32,
}

/// What the cache keeps for one origin.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CacheEntry {
    /// What to obey until `expires_at`.
    pub outcome: Outcome,
    /// What the last fetch attempt gave.
    pub attempt: Attempt,
    /// When the last fetch attempt finished.
    pub fetched_at: SystemTime,
    /// When to fetch again (after a failure: when to retry).
    pub expires_at: SystemTime,
    /// The last settled answer, for use when refreshes fail.
    pub last_good: Option<GoodCopy>,
    /// The current run of server errors, if the last attempt failed.
    pub errors: Option<ErrorStreak>,
}

impl CacheEntry {
    /// Whether the entry may be used without fetching again.
    pub fn is_fresh(&self, now: SystemTime) -> bool {
        now < self.expires_at
    }

    /// How long the entry was granted.
    pub fn ttl(&self) -> Duration {
        self.expires_at
            .duration_since(self.fetched_at)
            .unwrap_or_default()
    }

    /// Heap bytes held (the good copy usually shares the outcome's rules).
    pub fn heap_size(&self) -> usize {
        let shared = match (&self.outcome.rules, &self.last_good) {
            (
                Rules::Conditional(a),
                Some(GoodCopy {
                    rules: Rules::Conditional(b),
                    ..
                }),
            ) => Arc::ptr_eq(a, b),
            _ => false,
        };
        let good = match &self.last_good {
            Some(g) if !shared => g.rules.heap_size(),
            _ => 0,
        };
        std::mem::size_of::<CacheEntry>() + self.outcome.rules.heap_size() + good
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{OutcomeReason, RobotsCopy};
    use crawlgate::Profile;

    const HOUR: Duration = Duration::from_secs(3600);

    fn t0() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    }

    fn entry(rules: Rules, last_good: Option<GoodCopy>) -> CacheEntry {
        CacheEntry {
            outcome: Outcome {
                rules,
                reason: OutcomeReason::Fetched,
            },
            attempt: Attempt::Status { status: 200 },
            fetched_at: t0(),
            expires_at: t0() + HOUR,
            last_good,
            errors: None,
        }
    }

    fn copy() -> Rules {
        let body = format!("User-agent: *\nDisallow: /{}\n", "x".repeat(1000));
        Rules::Conditional(Arc::new(RobotsCopy::parse(
            body.as_bytes(),
            Profile::GOOGLE,
        )))
    }

    #[test]
    fn fresh_until_it_expires() {
        let e = entry(Rules::FullAllow, None);
        assert!(e.is_fresh(t0()));
        assert!(e.is_fresh(t0() + HOUR - Duration::from_secs(1)));
        assert!(!e.is_fresh(t0() + HOUR));
        assert_eq!(e.ttl(), HOUR);
        let mut backwards = e.clone();
        backwards.expires_at = t0() - HOUR;
        assert_eq!(backwards.ttl(), Duration::ZERO);
    }

    #[test]
    fn a_copy_shared_with_the_outcome_is_counted_once() {
        let rules = copy();
        let shared = entry(
            rules.clone(),
            Some(GoodCopy {
                rules,
                fetched_at: t0(),
            }),
        );
        let apart = entry(
            copy(),
            Some(GoodCopy {
                rules: copy(),
                fetched_at: t0(),
            }),
        );
        let alone = entry(copy(), None);
        assert_eq!(shared.heap_size(), alone.heap_size());
        assert!(apart.heap_size() > alone.heap_size() + 1000);
        assert_eq!(
            entry(Rules::FullAllow, None).heap_size(),
            std::mem::size_of::<CacheEntry>()
        );
    }

    #[test]
    fn round_trips_through_serde() {
        let mut e = entry(
            copy(),
            Some(GoodCopy {
                rules: Rules::FullAllow,
                fetched_at: t0() - HOUR,
            }),
        );
        e.errors = Some(ErrorStreak {
            since: t0(),
            count: 3,
        });
        let back: CacheEntry = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back.errors, e.errors);
        assert_eq!(
            (back.fetched_at, back.expires_at),
            (e.fetched_at, e.expires_at)
        );
        assert_eq!(back.attempt, e.attempt);
        let robots = back.outcome.rules.robots().unwrap();
        assert!(!robots.is_allowed("bot", &format!("/{}", "x".repeat(1001))));
        assert!(robots.is_allowed("bot", "/xx"));
        assert_eq!(back.last_good.unwrap().fetched_at, t0() - HOUR);
    }
}
