//! What Python's `urllib.parse` does to rule paths and URLs, for the legacy
//! profile, which reads robots.txt as `urllib.robotparser` does.
//!
//! `robotparser` never compares what was written: a rule path becomes
//! `quote(urlunparse(urlparse(unquote(value))))`, and a URL becomes
//! `quote(urlunparse(("", "", path, params, query, fragment)))` of
//! `urlparse(unquote(url))`. Those round trips change things: `//` becomes
//! empty (so `Disallow: //` blocks everything), an empty query or params
//! disappears, `%7E` and `~` compare equal, and `*` is just `%2A`. This module
//! reproduces Python 3.11's functions on the inputs robots.txt can hold; the
//! differential test against `python3` keeps it honest.

use crate::hex::{hex_value, HEX};

/// `scheme_chars` of `urllib.parse`.
fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// Schemes whose URLs `urlunsplit` writes with `//`.
const USES_NETLOC: &[&str] = &[
    "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp",
    "snews", "prospero", "rtsp", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git",
    "git+ssh", "ws", "wss",
];

/// Schemes whose paths `urlparse` splits `;params` from.
const USES_PARAMS: &[&str] = &[
    "", "ftp", "hdl", "prospero", "http", "imap", "https", "shttp", "rtsp", "rtspu", "sip", "sips",
    "mms", "sftp", "tel",
];

/// `urllib.parse.unquote`: `%XX` escapes decoded, the bytes read as UTF-8
/// with invalid sequences replaced.
pub(crate) fn unquote(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(hi), Some(lo)) = (hex_value(bytes[i + 1]), hex_value(bytes[i + 2]))
        {
            out.push(hi * 16 + lo);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `urllib.parse.quote(s, safe="/")`: every UTF-8 byte but `A-Za-z0-9_.-~`
/// and `/` percent-encoded with uppercase hex.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xF)] as char);
        }
    }
    out
}

/// The six parts `urlparse` returns.
#[derive(Debug, Default, PartialEq, Eq)]
struct Parsed {
    scheme: String,
    netloc: String,
    path: String,
    params: String,
    query: String,
    fragment: String,
}

/// `urllib.parse.urlparse` (Python 3.11).
fn urlparse(url: &str) -> Parsed {
    // Leading C0 controls and spaces go; tabs and line breaks go anywhere.
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|&c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let mut rest = url.as_str();
    let mut parsed = Parsed::default();
    if let Some(colon) = rest.find(':') {
        let candidate = &rest[..colon];
        if colon > 0
            && candidate.starts_with(|c: char| c.is_ascii_alphabetic())
            && candidate.chars().all(is_scheme_char)
        {
            parsed.scheme = candidate.to_ascii_lowercase();
            rest = &rest[colon + 1..];
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        parsed.netloc = after[..end].to_owned();
        rest = &after[end..];
    }
    if let Some((before, fragment)) = rest.split_once('#') {
        parsed.fragment = fragment.to_owned();
        rest = before;
    }
    if let Some((before, query)) = rest.split_once('?') {
        parsed.query = query.to_owned();
        rest = before;
    }
    let mut path = rest;
    if USES_PARAMS.contains(&parsed.scheme.as_str()) && path.contains(';') {
        let split = match path.rfind('/') {
            Some(slash) => path[slash..].find(';').map(|i| i + slash),
            None => path.find(';'),
        };
        if let Some(semi) = split {
            parsed.params = path[semi + 1..].to_owned();
            path = &path[..semi];
        }
    }
    parsed.path = path.to_owned();
    parsed
}

/// `urllib.parse.urlunparse` (Python 3.11).
fn urlunparse(parts: &Parsed) -> String {
    let mut url = parts.path.clone();
    if !parts.params.is_empty() {
        url = format!("{url};{}", parts.params);
    }
    let netloc_form = !parts.scheme.is_empty()
        && USES_NETLOC.contains(&parts.scheme.as_str())
        && !url.starts_with("//");
    if !parts.netloc.is_empty() || netloc_form {
        if !url.is_empty() && !url.starts_with('/') {
            url.insert(0, '/');
        }
        url = format!("//{}{url}", parts.netloc);
    }
    if !parts.scheme.is_empty() {
        url = format!("{}:{url}", parts.scheme);
    }
    if !parts.query.is_empty() {
        url = format!("{url}?{}", parts.query);
    }
    if !parts.fragment.is_empty() {
        url = format!("{url}#{}", parts.fragment);
    }
    url
}

/// What `RuleLine` compares URLs with, from the value as written.
pub(crate) fn rule_path(value: &[u8]) -> String {
    let value = unquote(&String::from_utf8_lossy(value));
    quote(&urlunparse(&urlparse(&value)))
}

/// What `can_fetch` compares the rules with, from the URL as given.
pub(crate) fn target(url: &str) -> String {
    let parsed = urlparse(&unquote(url));
    let relative = Parsed {
        scheme: String::new(),
        netloc: String::new(),
        ..parsed
    };
    let quoted = quote(&urlunparse(&relative));
    if quoted.is_empty() {
        "/".to_owned()
    } else {
        quoted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_like_python() {
        // Each right-hand side was printed by Python 3.11's urllib.parse.
        let cases = [
            ("//", ""),
            ("///x", "/x"),
            ("//x", "//x"),
            ("/a?", "/a"),
            ("/a;", "/a"),
            ("/a;b", "/a;b"),
            ("a:b", "a:b"),
            ("http:/x", "http:///x"),
            ("/x?y#z", "/x?y#z"),
            ("  /a", "/a"),
            ("/a\tb", "/ab"),
            ("/a;b;c/d;e", "/a;b;c/d;e"),
            ("/a:b/c", "/a:b/c"),
            ("1a:b", "1a:b"),
            ("A+b:c", "a+b:c"),
        ];
        for (input, output) in cases {
            assert_eq!(urlunparse(&urlparse(input)), output, "{input:?}");
        }
    }

    #[test]
    fn quoting() {
        assert_eq!(unquote("/%FF%zz%C3%A9"), "/\u{fffd}%zz\u{e9}");
        assert_eq!(
            quote("/\u{fffd}%zz\u{e9}/a b*"),
            "/%EF%BF%BD%25zz%C3%A9/a%20b%2A"
        );
        assert_eq!(rule_path(b"*"), "%2A");
        assert_eq!(rule_path(b"//"), "");
        assert_eq!(target("http://example.com"), "/");
        assert_eq!(target("http://example.com/a%3Fb?c#d"), "/a%3Fb%3Fc%23d");
    }
}
