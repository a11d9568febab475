//! Times as every front end writes them (RFC 3339, to the second, UTC), and
//! the arithmetic the fetch policy does on them. Nothing here reads a
//! clock: callers pass `now`.

use std::time::{Duration, SystemTime};

use serde::Serializer;

/// One day.
pub const DAY: Duration = Duration::from_secs(86_400);

/// The last second RFC 3339's four-digit year can hold.
const LAST_SECOND: u64 = 253_402_300_799; // 9999-12-31T23:59:59Z

/// `now + by`, saturating instead of panicking on absurd settings (a year
/// ahead when the sum does not fit, `now` when that does not either).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_answers::time::{later, DAY};
///
/// let now = SystemTime::UNIX_EPOCH;
/// assert_eq!(later(now, DAY), now + DAY);
/// assert_eq!(later(now, Duration::MAX), now + 365 * DAY);
/// ```
pub fn later(now: SystemTime, by: Duration) -> SystemTime {
    now.checked_add(by)
        .or_else(|| now.checked_add(365 * DAY))
        .unwrap_or(now)
}

/// `2026-11-23T14:05:09Z`: a time as every front end writes it (the fetch
/// report, the service's answers, survey tables). Fractions of a second
/// are dropped; times are clamped to 1970–9999, which the format can hold.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_answers::time::rfc3339;
///
/// let at = |secs| SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
/// assert_eq!(rfc3339(at(951_782_400)), "2000-02-29T00:00:00Z");
/// assert_eq!(rfc3339(SystemTime::UNIX_EPOCH - Duration::from_secs(5)), "1970-01-01T00:00:00Z");
/// assert_eq!(rfc3339(at(u64::MAX / 4)), "9999-12-31T23:59:59Z");
/// ```
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .min(LAST_SECOND);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // At most 2,932,896 days: the cast cannot wrap.
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date `(year, month, day)` of a count of days
/// since 1970-01-01 (Howard Hinnant's `civil_from_days`): the one calendar
/// every front end's times go through (the audit's log timestamps too).
///
/// ```
/// use crawlgate_answers::time::{civil_from_days, days_from_civil};
///
/// assert_eq!(civil_from_days(0), (1970, 1, 1));
/// assert_eq!(civil_from_days(11_016), (2000, 2, 29));
/// assert_eq!(civil_from_days(-1), (1969, 12, 31));
/// assert_eq!(days_from_civil(2000, 2, 29), 11_016);
/// ```
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // In 1..=31 and 1..=12: the casts cannot wrap.
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The days from 1970-01-01 to a proleptic Gregorian date: the inverse of
/// [`civil_from_days`].
///
/// ```
/// use crawlgate_answers::time::{civil_from_days, days_from_civil};
///
/// for days in [-800_000, -1, 0, 59, 20_000, 2_932_896] {
///     let (year, month, day) = civil_from_days(days);
///     assert_eq!(days_from_civil(year, month, day), days);
/// }
/// ```
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Serialises a time as [`rfc3339`] writes it (`#[serde(serialize_with)]`).
pub fn serialize_rfc3339<S: Serializer>(time: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&rfc3339(*time))
}

/// Serialises an optional time as [`rfc3339`] writes it, or `null`.
pub fn serialize_opt_rfc3339<S: Serializer>(
    time: &Option<SystemTime>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match time {
        Some(t) => s.serialize_some(&rfc3339(*t)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn formats_rfc3339_at_any_instant() {
        assert_eq!(rfc3339(at(0)), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(at(951_782_400)), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(at(1_700_000_000)), "2023-11-14T22:13:20Z");
        assert_eq!(
            rfc3339(at(1_700_000_000) + Duration::from_millis(999)),
            "2023-11-14T22:13:20Z"
        );
        assert_eq!(rfc3339(at(4_102_444_799)), "2099-12-31T23:59:59Z");
        assert_eq!(rfc3339(at(LAST_SECOND)), "9999-12-31T23:59:59Z");
        assert_eq!(rfc3339(at(LAST_SECOND + 1)), "9999-12-31T23:59:59Z");
        assert_eq!(rfc3339(at(u64::MAX / 4)), "9999-12-31T23:59:59Z");
        assert_eq!(
            rfc3339(SystemTime::UNIX_EPOCH - Duration::from_secs(5)),
            "1970-01-01T00:00:00Z"
        );
    }

    #[test]
    fn every_day_of_a_leap_cycle_reads_back_in_order() {
        // Each day's date is the day before's plus one: no gap, no repeat.
        let mut previous = rfc3339(at(0));
        for day in 1..=(3 * 365 + 366) {
            let text = rfc3339(at(day * 86_400));
            assert!(text > previous, "{previous} then {text}");
            assert!(text.ends_with("T00:00:00Z"));
            previous = text;
        }
        assert_eq!(previous, "1974-01-01T00:00:00Z");
    }

    #[test]
    fn later_saturates_instead_of_panicking() {
        let now = at(1_700_000_000);
        assert_eq!(later(now, DAY), now + DAY);
        assert_eq!(later(now, Duration::MAX), now + 365 * DAY);
    }
}
