//! The response headers the fetch policy honours: `Cache-Control` (how long
//! an answer is kept, RFC 9309 §2.4) and `Retry-After` (when to try again
//! after a 429 or 503).

use std::time::{Duration, SystemTime};

/// The cache directives the policy honours.
///
/// ```
/// use crawlgate_answers::CacheDirectives;
/// let d = CacheDirectives::parse("public, Max-Age=\"3600\", no-transform");
/// assert_eq!(d.max_age, Some(3600));
/// assert!(!d.no_store && !d.no_cache);
/// assert!(CacheDirectives::parse("no-store").no_store);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheDirectives {
    /// `max-age=N` (seconds), the first valid one.
    pub max_age: Option<u64>,
    /// `no-store`.
    pub no_store: bool,
    /// `no-cache`.
    pub no_cache: bool,
}

impl CacheDirectives {
    /// Parses a `Cache-Control` value; unknown and malformed directives are
    /// ignored.
    pub fn parse(header: &str) -> CacheDirectives {
        let mut directives = CacheDirectives::default();
        for part in header.split(',') {
            let (name, value) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim().trim_matches('"'))),
                None => (part.trim(), None),
            };
            if name.eq_ignore_ascii_case("no-store") {
                directives.no_store = true;
            } else if name.eq_ignore_ascii_case("no-cache") {
                directives.no_cache = true;
            } else if name.eq_ignore_ascii_case("max-age") && directives.max_age.is_none() {
                directives.max_age = value.and_then(parse_seconds);
            }
        }
        directives
    }
}

/// Delta-seconds: digits only; a value too large saturates.
fn parse_seconds(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u64::MAX))
}

/// How long `Retry-After` asks to wait from `now` (delta-seconds or an HTTP
/// date; a date in the past means no wait).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_answers::parse_retry_after;
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
/// assert_eq!(parse_retry_after("120", now), Some(Duration::from_secs(120)));
/// assert_eq!(parse_retry_after("Sun, 09 Sep 2001 01:46:41 GMT", now), Some(Duration::from_secs(1)));
/// assert_eq!(parse_retry_after("soon", now), None);
/// ```
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(seconds) = parse_seconds(value) {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_directives_parse() {
        assert_eq!(
            CacheDirectives::parse("NO-CACHE, max-age=10, max-age=20"),
            CacheDirectives {
                max_age: Some(10),
                no_store: false,
                no_cache: true
            }
        );
        assert_eq!(CacheDirectives::parse("").max_age, None);
        assert_eq!(CacheDirectives::parse("max-age").max_age, None);
        assert_eq!(CacheDirectives::parse("s-maxage=5").max_age, None);
        assert_eq!(CacheDirectives::parse("max-age=-5").max_age, None);
        assert_eq!(CacheDirectives::parse("max-age=soon").max_age, None);
        assert!(CacheDirectives::parse("private,no-store").no_store);
    }

    #[test]
    fn the_first_valid_max_age_counts() {
        assert_eq!(
            CacheDirectives::parse("max-age=x, max-age=60, max-age=5").max_age,
            Some(60)
        );
    }

    #[test]
    fn huge_delta_seconds_saturate() {
        assert_eq!(
            CacheDirectives::parse("max-age=99999999999999999999999").max_age,
            Some(u64::MAX)
        );
    }

    #[test]
    fn retry_after_takes_seconds_or_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(
            parse_retry_after(" 30 ", now),
            Some(Duration::from_secs(30))
        );
        let date = httpdate::fmt_http_date(now + Duration::from_secs(7200));
        assert_eq!(
            parse_retry_after(&date, now),
            Some(Duration::from_secs(7200))
        );
        let past = httpdate::fmt_http_date(now - Duration::from_secs(60));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("", now), None);
    }
}
