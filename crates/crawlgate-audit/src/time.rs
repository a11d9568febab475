//! Timestamps as logs write them, read into milliseconds since the Unix
//! epoch (UTC): Apache/nginx `10/Oct/2026:13:55:36 -0700`, ISO 8601 /
//! RFC 3339, W3C `date` and `time` fields, and epoch numbers (seconds with
//! a fraction, or whole milliseconds, microseconds or nanoseconds).

// The calendar is the one every front end's times go through.
use crawlgate_answers::time::{civil_from_days, days_from_civil};

/// Milliseconds since 1970-01-01T00:00:00Z.
pub type Millis = i64;

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        _ => 28,
    }
}

fn digits(bytes: &[u8]) -> Option<u32> {
    if bytes.is_empty() || bytes.len() > 9 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(bytes.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
}

fn month_of(name: &[u8]) -> Option<u32> {
    const NAMES: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    let lower = [
        name.first()?.to_ascii_lowercase(),
        name.get(1)?.to_ascii_lowercase(),
        name.get(2)?.to_ascii_lowercase(),
    ];
    (name.len() == 3)
        .then(|| NAMES.iter().position(|n| **n == lower))
        .flatten()
        .map(|i| i as u32 + 1)
}

/// Milliseconds of a date and time of day, or `None` when out of range.
fn millis_of(year: i64, month: u32, day: u32, h: u32, m: u32, s: u32, ms: u32) -> Option<Millis> {
    if !(1..=12).contains(&month)
        || day == 0
        || day > days_in_month(year, month)
        || h > 23
        || m > 59
        || s > 60
        || !(1..=9999).contains(&year)
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(((days * 86_400 + i64::from(h * 3600 + m * 60 + s)) * 1000) + i64::from(ms))
}

/// `+0700`, `-07:00`, `Z`: seconds east of UTC.
fn offset_of(text: &[u8]) -> Option<i64> {
    match text {
        b"Z" | b"z" => Some(0),
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (h, m) = match rest {
                [h1, h2, b':', m1, m2] | [h1, h2, m1, m2] => ([*h1, *h2], [*m1, *m2]),
                [h1, h2] => ([*h1, *h2], [b'0', b'0']),
                _ => return None,
            };
            let (h, m) = (digits(&h)?, digits(&m)?);
            if h > 23 || m > 59 {
                return None;
            }
            let seconds = i64::from(h * 3600 + m * 60);
            Some(if *sign == b'-' { -seconds } else { seconds })
        }
        _ => None,
    }
}

/// Fraction digits after a `.` or `,` as milliseconds (extra digits cut).
fn fraction_millis(text: &[u8]) -> Option<u32> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut ms = 0;
    for i in 0..3 {
        ms = ms * 10 + text.get(i).map_or(0, |d| u32::from(d - b'0'));
    }
    Some(ms)
}

/// Apache's and nginx's `%t` / `$time_local`: `10/Oct/2026:13:55:36 -0700`
/// (the brackets left out).
///
/// ```
/// use crawlgate_audit::time::{parse_clf, format_rfc3339};
/// let t = parse_clf("27/Nov/2026:13:55:36 -0700").unwrap();
/// assert_eq!(format_rfc3339(t), "2026-11-27T20:55:36Z");
/// assert!(parse_clf("32/Nov/2026:13:55:36 -0700").is_none());
/// ```
pub fn parse_clf(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    // dd/Mon/yyyy:hh:mm:ss zone
    if b.len() < 20 || b[2] != b'/' || b[6] != b'/' || b[11] != b':' {
        return None;
    }
    let day = digits(&b[0..2])?;
    let month = month_of(&b[3..6])?;
    let year = i64::from(digits(&b[7..11])?);
    let (h, m, s) = (
        digits(&b[12..14])?,
        digits(&b[15..17])?,
        digits(&b[18..20])?,
    );
    if b[14] != b':' || b[17] != b':' {
        return None;
    }
    let mut rest = &b[20..];
    let mut ms = 0;
    if let [b'.', frac @ ..] = rest {
        let end = frac
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(frac.len());
        ms = fraction_millis(&frac[..end])?;
        rest = &frac[end..];
    }
    let offset = match rest {
        [b' ', zone @ ..] => offset_of(zone)?,
        _ => return None,
    };
    Some(millis_of(year, month, day, h, m, s, ms)? - offset * 1000)
}

/// ISO 8601 / RFC 3339: `2026-11-27T13:55:36Z`, `…+01:00`, a fraction,
/// a space for the `T`; no zone means UTC.
///
/// ```
/// use crawlgate_audit::time::{parse_iso8601, format_rfc3339};
/// let t = parse_iso8601("2026-11-27T13:55:36.250+01:00").unwrap();
/// assert_eq!(format_rfc3339(t), "2026-11-27T12:55:36.250Z");
/// ```
pub fn parse_iso8601(text: &str) -> Option<Millis> {
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let year = i64::from(digits(&b[0..4])?);
    let (month, day) = (digits(&b[5..7])?, digits(&b[8..10])?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, m, s) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
    );
    let mut rest = &b[19..];
    let mut ms = 0;
    if let [b'.' | b',', frac @ ..] = rest {
        let end = frac
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(frac.len());
        ms = fraction_millis(&frac[..end])?;
        rest = &frac[end..];
    }
    let offset = if rest.is_empty() { 0 } else { offset_of(rest)? };
    Some(millis_of(year, month, day, h, m, s, ms)? - offset * 1000)
}

/// W3C extended logs' `date` (`2026-11-27`) and `time` (`13:55:36`, maybe
/// with a fraction), in UTC as the format says.
///
/// ```
/// use crawlgate_audit::time::{parse_w3c, format_rfc3339};
/// assert_eq!(format_rfc3339(parse_w3c("2026-11-27", "13:55:36").unwrap()), "2026-11-27T13:55:36Z");
/// ```
pub fn parse_w3c(date: &str, time: &str) -> Option<Millis> {
    if date.len() != 10 || time.len() < 8 {
        return None;
    }
    parse_iso8601(&format!("{date}T{time}"))
}

/// An epoch number: seconds with an optional fraction (`1764251736.250`,
/// nginx's `$msec`), or a whole number read by its size as seconds,
/// milliseconds, microseconds or nanoseconds (Cloudflare's
/// `EdgeStartTimestamp` is nanoseconds by default).
///
/// ```
/// use crawlgate_audit::time::parse_epoch;
/// assert_eq!(parse_epoch("1764251736.25"), Some(1_764_251_736_250));
/// assert_eq!(parse_epoch("1764251736250000000"), Some(1_764_251_736_250));
/// assert_eq!(parse_epoch("1764251736"), Some(1_764_251_736_000));
/// assert_eq!(parse_epoch("soon"), None);
/// ```
pub fn parse_epoch(text: &str) -> Option<Millis> {
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    if whole.is_empty() || whole.len() > 19 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = whole.parse().ok()?;
    if let Some(frac) = frac {
        return Some(n.checked_mul(1000)? + i64::from(fraction_millis(frac.as_bytes())?));
    }
    Some(match n {
        n if n >= 100_000_000_000_000_000 => n / 1_000_000,
        n if n >= 100_000_000_000_000 => n / 1_000,
        n if n >= 100_000_000_000 => n,
        n => n * 1000,
    })
}

/// `2026-11-27T20:55:36Z`, with milliseconds when there are some.
pub fn format_rfc3339(t: Millis) -> String {
    let days = t.div_euclid(86_400_000);
    let rest = t.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (s, ms) = (rest / 1000, rest % 1000);
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if ms == 0 {
        format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
    } else {
        format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
    }
}

/// The start of the hour of `t`.
pub fn hour_of(t: Millis) -> Millis {
    t.div_euclid(3_600_000) * 3_600_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips() {
        for days in [-800_000, -1, 0, 1, 19_000, 20_419, 2_900_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn clf_with_zones_and_fractions() {
        let utc = parse_clf("01/Jan/2026:00:00:00 +0000").unwrap();
        assert_eq!(format_rfc3339(utc), "2026-01-01T00:00:00Z");
        assert_eq!(parse_clf("01/Jan/2026:01:00:00 +0100"), Some(utc));
        assert_eq!(parse_clf("31/dec/2025:23:00:00 -0100"), Some(utc));
        assert_eq!(parse_clf("01/Jan/2026:00:00:00.500 +0000"), Some(utc + 500));
        assert_eq!(parse_clf("01/Jan/2026:00:00:00"), None);
        for bad in [
            "",
            "01/Foo/2026:00:00:00 +0000",
            "29/Feb/2026:00:00:00 +0000",
            "01/Jan/2026:24:00:00 +0000",
            "01/Jan/2026:00:00:00 +2500",
            "01/Jan/2026:00:00:00 x",
        ] {
            assert_eq!(parse_clf(bad), None, "{bad}");
        }
        assert!(parse_clf("29/Feb/2024:00:00:00 +0000").is_some());
    }

    #[test]
    fn iso_and_w3c() {
        let t = parse_iso8601("2026-11-27T10:00:00Z").unwrap();
        assert_eq!(parse_iso8601("2026-11-27 10:00:00"), Some(t));
        assert_eq!(parse_iso8601("2026-11-27T11:00:00+0100"), Some(t));
        assert_eq!(parse_iso8601("2026-11-27T10:00:00.123456Z"), Some(t + 123));
        assert_eq!(parse_w3c("2026-11-27", "10:00:00"), Some(t));
        assert_eq!(parse_iso8601("2026-11-27T10:00"), None);
        assert_eq!(parse_iso8601("2026-13-27T10:00:00Z"), None);
        assert_eq!(format_rfc3339(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(hour_of(t + 1_234_567), t);
    }
}
