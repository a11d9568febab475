//! Every row of the policy with plain values.

use super::*;
use crate::outcome::OutcomeKind;
use crate::result::{NetworkErrorKind, NetworkFailure, RedirectStop};
use crawlgate::RobotsTxt;

const HOUR: Duration = Duration::from_secs(3600);

fn t0() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000)
}

fn ok(body: &str) -> FetchResult {
    FetchResult::Response(HttpResponse::new(200).with_body(body))
}

fn status(code: u16) -> FetchResult {
    FetchResult::Response(HttpResponse::new(code))
}

fn network(kind: NetworkErrorKind) -> FetchResult {
    FetchResult::Network(NetworkFailure {
        kind,
        message: "boom".into(),
    })
}

fn robots(outcome: &Outcome) -> &RobotsTxt {
    outcome.rules.robots().expect("conditional outcome")
}

const BODY: &str = "User-agent: *\nDisallow: /private\n";

#[test]
fn success_is_conditional_for_24_hours() {
    let policy = FetchPolicy::default();
    let (outcome, entry) = policy.apply(&ok(BODY), None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::Conditional);
    assert_eq!(outcome.reason, OutcomeReason::Fetched);
    assert!(!robots(&outcome).is_allowed("bot", "/private/x"));
    assert!(robots(&outcome).is_allowed("bot", "/public"));
    assert_eq!(entry.fetched_at, t0());
    assert_eq!(entry.expires_at, t0() + 24 * HOUR);
    assert!(entry.is_fresh(t0() + 24 * HOUR - Duration::from_secs(1)));
    assert!(!entry.is_fresh(t0() + 24 * HOUR));
    assert!(entry.last_good.is_some());
    assert!(entry.errors.is_none());
    assert_eq!(entry.attempt, Attempt::Status { status: 200 });
    for code in [201, 203, 206, 299] {
        let (outcome, _) = policy.apply(&status(code), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::Conditional, "{code}");
        // An empty body allows everything.
        assert!(robots(&outcome).is_allowed("bot", "/anything"));
    }
}

fn with_cache_control(value: &str) -> FetchResult {
    FetchResult::Response(
        HttpResponse::new(200)
            .with_body(BODY)
            .with_cache_control(value),
    )
}

#[test]
fn max_age_shortens_and_lengthens_the_ttl() {
    let policy = FetchPolicy::default();
    let (_, entry) = policy.apply(&with_cache_control("max-age=3600"), None, t0());
    assert_eq!(entry.expires_at, t0() + HOUR);
    assert!(!entry.is_fresh(t0() + HOUR));
    let (_, entry) = policy.apply(&with_cache_control("public, max-age=172800"), None, t0());
    assert_eq!(entry.expires_at, t0() + 48 * HOUR);
    assert!(entry.is_fresh(t0() + 47 * HOUR));
    // Bounded both ways.
    let (_, entry) = policy.apply(&with_cache_control("max-age=5"), None, t0());
    assert_eq!(entry.ttl(), policy.min_ttl);
    let (_, entry) = policy.apply(&with_cache_control("max-age=999999999999"), None, t0());
    assert_eq!(entry.ttl(), policy.max_ttl);
    // Malformed values are ignored.
    let (_, entry) = policy.apply(&with_cache_control("max-age=soon"), None, t0());
    assert_eq!(entry.ttl(), 24 * HOUR);
    let (_, entry) = policy.apply(&with_cache_control("max-age=-5"), None, t0());
    assert_eq!(entry.ttl(), 24 * HOUR);
}

#[test]
fn no_cache_and_no_store_keep_the_answer_only_briefly() {
    let policy = FetchPolicy::default();
    let (outcome, entry) = policy.apply(&with_cache_control("no-cache"), None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::Conditional);
    assert_eq!(entry.ttl(), Duration::from_secs(60));
    assert!(entry.last_good.is_some(), "no-cache may be stored");

    let (outcome, entry) = policy.apply(&with_cache_control("no-store, max-age=86400"), None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::Conditional);
    assert_eq!(entry.ttl(), Duration::from_secs(60));
    assert!(entry.last_good.is_none(), "no-store is not kept as a copy");

    // So a failed refresh after a no-store copy has nothing to fall back on.
    let later = entry.expires_at;
    let (outcome, _) = policy.apply(&status(500), Some(&entry), later);
    assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);

    let mut zero = policy.clone();
    zero.min_ttl = Duration::ZERO;
    let (_, entry) = zero.apply(&with_cache_control("no-store"), None, t0());
    assert!(!entry.is_fresh(t0()));
}

#[test]
fn unfollowed_redirects_are_404() {
    let policy = FetchPolicy::default();
    for stop in [
        RedirectStop::TooManyRedirects,
        RedirectStop::Loop,
        RedirectStop::MissingLocation,
        RedirectStop::InvalidLocation,
        RedirectStop::UnsupportedScheme,
    ] {
        let (outcome, entry) = policy.apply(&FetchResult::RedirectNotFollowed(stop), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
        assert_eq!(outcome.reason, OutcomeReason::RedirectsNotFollowed);
        assert_eq!(entry.ttl(), 24 * HOUR);
        assert_eq!(entry.attempt, Attempt::Redirect { stop });
    }
    for code in [301, 302, 304, 307, 308] {
        let (outcome, _) = policy.apply(&status(code), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow, "{code}");
        assert_eq!(outcome.reason, OutcomeReason::RedirectsNotFollowed);
    }
}

#[test]
fn client_errors_allow_everything_for_24_hours() {
    let policy = FetchPolicy::default();
    for code in [400, 401, 403, 404, 410, 418, 451, 499] {
        let (outcome, entry) = policy.apply(&status(code), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow, "{code}");
        assert_eq!(outcome.reason, OutcomeReason::NotFound);
        assert_eq!(entry.ttl(), 24 * HOUR);
        assert!(entry.errors.is_none());
    }
    // A 404 replaces an earlier copy: the file is gone.
    let (_, good) = policy.apply(&ok(BODY), None, t0());
    let (_, gone) = policy.apply(&status(404), Some(&good), t0() + 25 * HOUR);
    let (outcome, _) = policy.apply(&status(500), Some(&gone), t0() + 50 * HOUR);
    assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
    assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
    // max-age applies to a 404 too.
    let gone = FetchResult::Response(HttpResponse::new(404).with_cache_control("max-age=600"));
    let (_, entry) = policy.apply(&gone, None, t0());
    assert_eq!(entry.ttl(), Duration::from_secs(600));
}

#[test]
fn server_errors_disallow_everything_and_retry() {
    let policy = FetchPolicy::default();
    for code in [429, 500, 502, 503, 504, 599] {
        let (outcome, entry) = policy.apply(&status(code), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{code}");
        assert_eq!(outcome.reason, OutcomeReason::ServerError);
        assert_eq!(
            entry.errors,
            Some(ErrorStreak {
                since: t0(),
                count: 1
            })
        );
        assert_eq!(entry.ttl(), Duration::from_secs(60));
    }
    // Out-of-range status codes are invalid responses.
    for code in [0, 100, 199, 600, 999] {
        let (outcome, _) = policy.apply(&status(code), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{code}");
    }
}

#[test]
fn network_failures_are_server_errors() {
    let policy = FetchPolicy::default();
    for kind in [
        NetworkErrorKind::Dns,
        NetworkErrorKind::Connect,
        NetworkErrorKind::Timeout,
        NetworkErrorKind::ConnectionReset,
        NetworkErrorKind::InvalidResponse,
        NetworkErrorKind::BrokenBody,
        NetworkErrorKind::Other,
    ] {
        let (outcome, entry) = policy.apply(&network(kind), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{kind}");
        assert_eq!(outcome.reason, OutcomeReason::ServerError);
        assert_eq!(entry.attempt, Attempt::Network { error: kind });
    }
}

#[test]
fn backoff_doubles_up_to_the_cap_and_503_retries_frequently() {
    let policy = FetchPolicy::default();
    let mut now = t0();
    let mut previous: Option<CacheEntry> = None;
    let mut waits = Vec::new();
    for _ in 0..8 {
        let (_, entry) = policy.apply(&status(500), previous.as_ref(), now);
        waits.push(entry.ttl().as_secs());
        now = entry.expires_at;
        previous = Some(entry);
    }
    assert_eq!(waits, [60, 120, 240, 480, 960, 1920, 3600, 3600]);
    let streak = previous.as_ref().unwrap().errors.unwrap();
    assert_eq!((streak.since, streak.count), (t0(), 8));

    let (_, entry) = policy.apply(&status(503), previous.as_ref(), now);
    assert_eq!(entry.ttl(), Duration::from_secs(60));
    assert_eq!(entry.errors.unwrap().count, 9);
}

#[test]
fn retry_after_is_honoured() {
    let policy = FetchPolicy::default();
    let in_seconds = FetchResult::Response(HttpResponse::new(429).with_retry_after("120"));
    let (outcome, entry) = policy.apply(&in_seconds, None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
    assert_eq!(entry.expires_at, t0() + Duration::from_secs(120));

    let date = httpdate::fmt_http_date(t0() + Duration::from_secs(7200));
    let at_date = FetchResult::Response(HttpResponse::new(503).with_retry_after(&date));
    let (_, entry) = policy.apply(&at_date, None, t0());
    assert_eq!(entry.expires_at, t0() + Duration::from_secs(7200));

    let huge = FetchResult::Response(HttpResponse::new(503).with_retry_after("99999999"));
    let (_, entry) = policy.apply(&huge, None, t0());
    assert_eq!(entry.ttl(), 24 * HOUR);

    let zero = FetchResult::Response(HttpResponse::new(429).with_retry_after("0"));
    let (_, entry) = policy.apply(&zero, None, t0());
    assert_eq!(entry.ttl(), Duration::from_secs(1));

    let past = httpdate::fmt_http_date(t0() - HOUR);
    let past = FetchResult::Response(HttpResponse::new(429).with_retry_after(&past));
    let (_, entry) = policy.apply(&past, None, t0());
    assert_eq!(entry.ttl(), Duration::from_secs(1));

    // Garbage falls back to the backoff.
    let junk = FetchResult::Response(HttpResponse::new(500).with_retry_after("later"));
    let (_, entry) = policy.apply(&junk, None, t0());
    assert_eq!(entry.ttl(), Duration::from_secs(60));
}

#[test]
fn a_failed_refresh_uses_the_stale_copy() {
    let policy = FetchPolicy::default();
    let (_, good) = policy.apply(&ok(BODY), None, t0());
    let refresh = good.expires_at + Duration::from_secs(5);
    assert!(!good.is_fresh(refresh));
    for failure in [status(500), status(429), network(NetworkErrorKind::Timeout)] {
        let (outcome, entry) = policy.apply(&failure, Some(&good), refresh);
        assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
        assert_eq!(outcome.kind(), OutcomeKind::Conditional);
        assert!(!robots(&outcome).is_allowed("bot", "/private"));
        assert_eq!(entry.last_good.as_ref().unwrap().fetched_at, t0());
        assert_eq!(entry.errors.unwrap().since, refresh);
        assert!(entry.is_fresh(refresh));
        assert!(!entry.is_fresh(refresh + Duration::from_secs(60)));
    }
    // A later success ends the streak.
    let (_, failed) = policy.apply(&status(500), Some(&good), refresh);
    let (outcome, entry) = policy.apply(
        &ok("User-agent: *\nDisallow: /\n"),
        Some(&failed),
        refresh + HOUR,
    );
    assert_eq!(outcome.reason, OutcomeReason::Fetched);
    assert!(entry.errors.is_none());
    assert!(!robots(&outcome).is_allowed("bot", "/public"));
    assert_eq!(entry.last_good.unwrap().fetched_at, refresh + HOUR);
}

/// Fails every `step` from `start` until `end` (inclusive), returning the
/// last outcome and entry.
fn fail_until(
    policy: &FetchPolicy,
    previous: Option<CacheEntry>,
    start: SystemTime,
    end: SystemTime,
) -> (Outcome, CacheEntry) {
    let mut now = start;
    let mut previous = previous;
    loop {
        let (outcome, entry) = policy.apply(&status(503), previous.as_ref(), now);
        if now >= end {
            return (outcome, entry);
        }
        now = entry.expires_at.min(end);
        previous = Some(entry);
    }
}

#[test]
fn after_30_days_of_errors_without_a_copy_everything_is_allowed() {
    // Hourly retries keep the loop short.
    let policy = FetchPolicy {
        retry_min: HOUR,
        ..FetchPolicy::default()
    };
    let thirty = t0() + 30 * DAY;
    let (outcome, entry) = fail_until(&policy, None, t0(), thirty);
    assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "exactly 30 days");
    assert_eq!(entry.errors.unwrap().since, t0());
    let (outcome, entry) =
        policy.apply(&status(500), Some(&entry), thirty + Duration::from_secs(1));
    assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
    assert_eq!(outcome.reason, OutcomeReason::UnreachableAllowAll);
    // Still retried.
    assert!(!entry.is_fresh(thirty + 2 * HOUR));
    // And a success afterwards is obeyed again.
    let (outcome, _) = policy.apply(&ok(BODY), Some(&entry), thirty + 3 * HOUR);
    assert_eq!(outcome.kind(), OutcomeKind::Conditional);
}

#[test]
fn after_30_days_of_errors_with_a_copy_the_last_copy_is_used() {
    let policy = FetchPolicy {
        retry_min: HOUR,
        ..FetchPolicy::default()
    };
    let (_, good) = policy.apply(&ok(BODY), None, t0());
    let start = good.expires_at;
    let (outcome, entry) = fail_until(&policy, Some(good), start, start + 30 * DAY);
    assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
    let (outcome, _) = policy.apply(
        &network(NetworkErrorKind::Dns),
        Some(&entry),
        start + 30 * DAY + Duration::from_secs(1),
    );
    assert_eq!(outcome.reason, OutcomeReason::UnreachableLastCopy);
    assert!(!robots(&outcome).is_allowed("bot", "/private"));
    assert!(robots(&outcome).is_allowed("bot", "/public"));
}

#[test]
fn soft_404_heuristic_is_off_by_default() {
    let page = FetchResult::Response(
        HttpResponse::new(500).with_body("<html><title>Page Not Found</title></html>"),
    );
    let (outcome, _) = FetchPolicy::default().apply(&page, None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
    let policy = FetchPolicy {
        soft_not_found: true,
        ..FetchPolicy::default()
    };
    let (outcome, entry) = policy.apply(&page, None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
    assert_eq!(outcome.reason, OutcomeReason::SoftNotFound);
    assert!(entry.errors.is_none());
    let (outcome, _) = policy.apply(&status(500), None, t0());
    assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
}

#[test]
fn settings_never_panic_when_inverted() {
    let policy = FetchPolicy {
        min_ttl: 10 * DAY,
        max_ttl: DAY,
        retry_max: Duration::ZERO,
        ..FetchPolicy::default()
    };
    let (_, entry) = policy.apply(&with_cache_control("max-age=60"), None, t0());
    assert_eq!(entry.ttl(), DAY);
    let (_, entry) = policy.apply(&status(500), None, t0());
    assert_eq!(entry.ttl(), Duration::from_secs(60));
}

#[test]
fn huge_settings_saturate_instead_of_panicking() {
    let policy = FetchPolicy {
        default_ttl: Duration::MAX,
        max_ttl: Duration::MAX,
        retry_min: Duration::MAX,
        retry_max: Duration::MAX,
        ..FetchPolicy::default()
    };
    let (_, entry) = policy.apply(&ok(BODY), None, t0());
    assert!(entry.is_fresh(t0() + 300 * DAY));
    let (_, entry) = policy.apply(&status(500), None, t0());
    assert!(entry.expires_at > t0());
}

#[test]
fn entries_round_trip_through_serde() {
    let policy = FetchPolicy::default();
    let (_, good) = policy.apply(&ok(BODY), None, t0());
    let (_, failed) = policy.apply(&status(500), Some(&good), t0() + 25 * HOUR);
    let json = serde_json::to_string(&failed).unwrap();
    let back: CacheEntry = serde_json::from_str(&json).unwrap();
    assert_eq!(back.outcome.reason, OutcomeReason::StaleCopy);
    assert_eq!(back.expires_at, failed.expires_at);
    assert_eq!(back.errors, failed.errors);
    assert!(!robots(&back.outcome).is_allowed("bot", "/private"));
    assert!(back.heap_size() > 0);
}
