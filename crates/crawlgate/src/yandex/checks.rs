//! What Yandex's parser accepts as a `Crawl-delay`, a `Sitemap` and a
//! `Host`: only accepted records are stored, and stored records count
//! towards its limits.
//!
//! The parser checks sitemap and host addresses with Yandex's URL library,
//! which is not part of its `robots_txt` folder; the checks here are
//! simpler (an `http`/`https` address with a plain host name), and they
//! only matter for files close to the limits.

/// The longest address the parser takes (its `URL_MAX` is 1,024; a sitemap
/// must be shorter than 1,016 bytes).
pub(crate) const URL_MAX: usize = 1024;

/// A crawl delay Yandex's parser reads: digits (at most 1,024), then
/// optionally `.` and digits. In milliseconds.
pub(crate) fn crawl_delay(value: &[u8]) -> Option<u32> {
    let digits = value.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut whole: u32 = 0;
    for &b in &value[..digits] {
        whole = whole * 10 + u32::from(b - b'0');
        if whole > 1024 {
            return None;
        }
    }
    let rest = &value[digits..];
    let fraction = match rest.split_first() {
        None => &[][..],
        Some((b'.', fraction)) if fraction.iter().all(u8::is_ascii_digit) => fraction,
        Some(_) => return None,
    };
    let milli = (0..3).fold(0, |n, i| {
        n * 10 + fraction.get(i).map_or(0, |d| u32::from(d - b'0'))
    });
    Some(whole * 1000 + milli)
}

fn host_part(rest: &[u8]) -> Option<&[u8]> {
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?'))
        .unwrap_or(rest.len());
    let (host, _) = rest.split_at(end);
    let name = match host.iter().position(|&b| b == b':') {
        Some(colon)
            if host[colon + 1..].iter().all(u8::is_ascii_digit) && colon + 1 < host.len() =>
        {
            &host[..colon]
        }
        Some(_) => return None,
        None => host,
    };
    (!name.is_empty()
        && name
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_')))
    .then_some(rest)
}

fn without_scheme(value: &[u8]) -> Option<&[u8]> {
    let lower = |n: usize| value.get(..n).map(<[u8]>::to_ascii_lowercase);
    if lower(8).as_deref() == Some(b"https://") {
        Some(&value[8..])
    } else if lower(7).as_deref() == Some(b"http://") {
        Some(&value[7..])
    } else {
        None
    }
}

/// Whether the parser stores a `Sitemap` value (an absolute `http` or
/// `https` address with a host, shorter than 1,016 bytes, no spaces).
pub(crate) fn sitemap(value: &[u8]) -> bool {
    value.len() < URL_MAX - 8
        && !value.iter().any(|&b| REFUSED_IN_SITEMAP[usize::from(b)])
        && without_scheme(value).and_then(host_part).is_some()
}

/// The bytes that make the parser refuse a `Sitemap` value: ASCII white
/// space, the vertical tab, and `"<>\^`{|}`. A table: each byte of each
/// value is looked up.
static REFUSED_IN_SITEMAP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_whitespace() || byte == 0x0B;
        b += 1;
    }
    let mut i = 0;
    let others = b"\"<>\\^`{|}";
    while i < others.len() {
        table[others[i] as usize] = true;
        i += 1;
    }
    table
};

/// Whether the parser stores a `Host` value (lowercased): a host name,
/// with an optional `http`/`https` scheme, port and final `/`.
pub(crate) fn host(value: &[u8]) -> bool {
    let rest = without_scheme(value).unwrap_or(value);
    let rest = rest.strip_suffix(b"/").unwrap_or(rest);
    !rest.contains(&b'/') && !rest.contains(&b'?') && host_part(rest).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_delays() {
        assert_eq!(crawl_delay(b"2"), Some(2000));
        assert_eq!(crawl_delay(b"0.5"), Some(500));
        assert_eq!(crawl_delay(b"1.2345"), Some(1234));
        assert_eq!(crawl_delay(b""), Some(0));
        assert_eq!(crawl_delay(b"1024"), Some(1_024_000));
        assert_eq!(crawl_delay(b"1025"), None);
        assert_eq!(crawl_delay(b"1s"), None);
        assert_eq!(crawl_delay(b"1.a"), None);
    }

    #[test]
    fn the_refused_bytes_are_the_listed_ones() {
        for b in 0..=255u8 {
            let listed = b.is_ascii_whitespace() || b == 0x0B || b"\"<>\\^`{|}".contains(&b);
            assert_eq!(REFUSED_IN_SITEMAP[usize::from(b)], listed, "{b}");
        }
    }

    #[test]
    fn sitemaps_and_hosts() {
        assert!(sitemap(b"https://example.com/sitemap.xml"));
        assert!(sitemap(b"HTTP://example.com:8080"));
        assert!(!sitemap(b"/sitemap.xml"));
        assert!(!sitemap(b"ftp://example.com/s.xml"));
        assert!(!sitemap(b"https://exa mple.com/"));
        assert!(host(b"example.com"));
        assert!(host(b"https://www.example.com"));
        assert!(host(b"example.com:8080/"));
        assert!(!host(b"bad host!"));
        assert!(!host(b"example.com/path"));
    }
}
