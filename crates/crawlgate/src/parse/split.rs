//! Splitting one line into field name and value, exactly as Google's
//! reference does: cut at `#` (found with the line's end, see
//! `lines.rs`), strip, split at the first colon, or, with no colon, at
//! whitespace when the line holds exactly two tokens.
//!
//! Both readers share this: the model builder (`parse`) and the one-shot
//! decision (`decide_once`), so they cannot disagree about a line.

use super::{is_space, trim, trim_end};
use crate::scan;

/// What one line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split<'a> {
    /// Blank, whitespace only, or a comment.
    Nothing,
    /// `field: value`, or `field value` without a colon (`missing_colon`).
    Record {
        key: &'a [u8],
        value: &'a [u8],
        missing_colon: bool,
    },
    /// Neither: no field name, or more than two tokens without a colon.
    Invalid { body: &'a [u8] },
}

/// The first `a` or `b`. Field names and most values are short: the first
/// 16 bytes are looked at eight at a time; long lines (HTML served as
/// robots.txt) get a SIMD search.
#[inline]
pub(crate) fn find_either(s: &[u8], a: u8, b: u8) -> Option<usize> {
    let mut at = 0;
    while at < 16 {
        let Some(word) = scan::word_at(s, at) else {
            return s[at..]
                .iter()
                .position(|&c| c == a || c == b)
                .map(|i| i + at);
        };
        let hits = scan::matching(word, a) | scan::matching(word, b);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    memchr::memchr2(a, b, &s[at..]).map(|i| i + at)
}

/// Index of the first byte that is not whitespace, if any.
#[inline]
pub(crate) fn first_non_space(content: &[u8]) -> Option<usize> {
    match content.first() {
        Some(&b) if !is_space(b) => Some(0), // most lines
        _ => {
            // Indentation (HTML served as robots.txt) is skipped eight
            // spaces at a time.
            const SPACES: u64 = 0x2020_2020_2020_2020;
            let mut at = 0;
            while scan::word_at(content, at) == Some(SPACES) {
                at += 8;
            }
            content[at..]
                .iter()
                .position(|&b| !is_space(b))
                .map(|i| i + at)
        }
    }
}

/// Splits a line's content (already cut at the line-length limit, at a NUL
/// byte and at its comment). Inlined into each reader's line loop: called
/// out of line, its answer goes through memory, on every line.
#[inline(always)]
pub(crate) fn split(content: &[u8]) -> Split<'_> {
    let Some(first) = first_non_space(content) else {
        return Split::Nothing;
    };
    match find_either(&content[first..], b':', b':').map(|i| i + first) {
        Some(colon) => {
            let key = trim_end(&content[first..colon]);
            if key.is_empty() {
                return Split::Invalid {
                    body: trim(&content[first..]),
                };
            }
            Split::Record {
                key,
                value: trim(&content[colon + 1..]),
                missing_colon: false,
            }
        }
        None => {
            let body = trim(&content[first..]);
            // Google: exactly two whitespace-separated tokens stand for
            // `field: value`. Such lines are often long (HTML served as
            // robots.txt): gaps are searched for with SIMD.
            let is_gap = |b: &u8| *b == b' ' || *b == b'\t';
            let Some(sep) = memchr::memchr2(b' ', b'\t', body) else {
                return Split::Invalid { body };
            };
            let gap = body[sep..].iter().take_while(|b| is_gap(b)).count();
            let value = &body[sep + gap..];
            if memchr::memchr2(b' ', b'\t', value).is_some() {
                return Split::Invalid { body };
            }
            Split::Record {
                key: trim(&body[..sep]),
                value: trim(value),
                missing_colon: true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line's content up to its comment, as `Lines` gives it.
    fn content(line: &str) -> &[u8] {
        let bytes = line.as_bytes();
        &bytes[..memchr::memchr(b'#', bytes).unwrap_or(bytes.len())]
    }

    fn record(line: &str) -> Option<(&str, &str, bool)> {
        match split(content(line)) {
            Split::Record {
                key,
                value,
                missing_colon,
            } => Some((
                std::str::from_utf8(key).unwrap(),
                std::str::from_utf8(value).unwrap(),
                missing_colon,
            )),
            _ => None,
        }
    }

    #[test]
    fn finds_either_byte_at_every_position() {
        for len in 0..40 {
            for at in 0..len {
                let mut s = vec![b'x'; len];
                s[at] = b':';
                assert_eq!(find_either(&s, b':', b'#'), Some(at), "{len} {at}");
                if at + 1 < len {
                    s[at + 1] = b'#';
                    assert_eq!(find_either(&s, b'#', b'#'), Some(at + 1));
                }
            }
            assert_eq!(find_either(&vec![b'x'; len], b':', b'#'), None);
        }
        // High bytes next to the target do not confuse the word test.
        assert_eq!(find_either(b"\xff\x80\xba:", b':', b'#'), Some(3));
        assert_eq!(find_either(b"\x3b\x3a", b':', b'#'), Some(1));
    }

    #[test]
    fn splits_like_the_reference() {
        assert_eq!(record("Disallow: /x # c"), Some(("Disallow", "/x", false)));
        assert_eq!(
            record("  Disallow  :  /x  "),
            Some(("Disallow", "/x", false))
        );
        assert_eq!(record("Disallow /x"), Some(("Disallow", "/x", true)));
        assert_eq!(record("\tDisallow \t /x\t"), Some(("Disallow", "/x", true)));
        assert_eq!(record("Disallow /a:/b"), Some(("Disallow /a", "/b", false)));
        assert_eq!(record("Disallow:"), Some(("Disallow", "", false)));
        assert_eq!(
            split(b"Disallow /x /y"),
            Split::Invalid {
                body: b"Disallow /x /y"
            }
        );
        assert_eq!(split(b"Disallow"), Split::Invalid { body: b"Disallow" });
        assert_eq!(split(b": /x"), Split::Invalid { body: b": /x" });
        assert_eq!(split(content("   # comment")), Split::Nothing);
        assert_eq!(split(content(":# x")), Split::Invalid { body: b":" });
        assert_eq!(split(b" \x0b "), Split::Nothing);
        assert_eq!(split(b""), Split::Nothing);
    }
}
