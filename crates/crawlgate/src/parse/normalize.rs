//! Normalising rule paths (and, in the rfc9309 profile, URL paths) so that
//! they compare byte for byte: bytes outside ASCII become `%XX`, existing
//! escapes get uppercase hex, and optionally escapes of unreserved characters
//! are decoded.

use crate::hex::{hex_value, HEX};

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// How a profile treats percent escapes and bytes outside ASCII.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// Google: non-ASCII bytes encoded, escapes' hex upper-cased.
    AsWritten,
    /// RFC 9309: also decode escapes of unreserved characters.
    DecodeUnreserved,
    /// `urllib.robotparser`: see `crate::urllib::rule_path`.
    Requote,
    /// Yandex: nothing changes; rules and URLs compare byte for byte.
    Raw,
}

impl Escapes {
    pub(crate) fn of(profile: &crate::profile::Profile) -> Escapes {
        if profile.requote {
            Escapes::Requote
        } else if !profile.normalize_escapes {
            Escapes::Raw
        } else if profile.decode_unreserved {
            Escapes::DecodeUnreserved
        } else {
            Escapes::AsWritten
        }
    }

    /// Whether normalising `value` could change it.
    pub(crate) fn may_change(self, value: &[u8]) -> bool {
        match self {
            Escapes::Requote => true,
            Escapes::Raw => false,
            _ => may_need_normalizing(value),
        }
    }

    /// Appends the normalised `value` to `out`; returns whether it changed.
    pub(crate) fn normalize_into(self, value: &[u8], out: &mut Vec<u8>) -> bool {
        match self {
            Escapes::AsWritten => normalize_into(value, false, out),
            Escapes::DecodeUnreserved => normalize_into(value, true, out),
            Escapes::Requote => {
                let before = out.len();
                out.extend_from_slice(crate::urllib::rule_path(value).as_bytes());
                &out[before..] != value
            }
            Escapes::Raw => {
                out.extend_from_slice(value);
                false
            }
        }
    }
}

/// Appends the normalised form of `value` to `out`; returns whether it
/// differs from `value`.
pub(crate) fn normalize_into(value: &[u8], decode_unreserved: bool, out: &mut Vec<u8>) -> bool {
    let before = out.len();
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b == b'%'
            && i + 2 < value.len()
            && let (Some(hi), Some(lo)) = (hex_value(value[i + 1]), hex_value(value[i + 2]))
        {
            let decoded = hi * 16 + lo;
            if decode_unreserved && is_unreserved(decoded) {
                out.push(decoded);
            } else {
                out.extend_from_slice(&[b'%', HEX[hi as usize], HEX[lo as usize]]);
            }
            i += 3;
            continue;
        }
        if b == b'%' && decode_unreserved {
            // A stray `%` would form a new escape with the characters a
            // decoding brings next to it; encoding it keeps the form canonical.
            out.extend_from_slice(b"%25");
        } else if b >= 0x80 {
            out.extend_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]]);
        } else {
            out.push(b);
        }
        i += 1;
    }
    &out[before..] != value
}

/// Whether `value` contains anything [`normalize_into`] could change: a `%`
/// or a byte outside ASCII.
pub(crate) fn may_need_normalizing(value: &[u8]) -> bool {
    // Eight bytes at a time: a high bit, or a `%` (a false flag from
    // `matching` only ever comes above a true one).
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while at < value.len() {
        let word = crate::scan::word_padded(value, at);
        if word & HIGHS != 0 || crate::scan::matching(word, b'%') != 0 {
            return true;
        }
        at += 8;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &[u8], decode: bool) -> String {
        let mut out = Vec::new();
        normalize_into(s, decode, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_may_need_normalizing() {
        for (value, may) in [
            (&b""[..], false),
            (b"/plain/path-here.html", false),
            (b"/a%2f", true),
            (b"/0123456789abcdef%", true),
            ("/é".as_bytes(), true),
            (b"/0123456789abcdefgh\x80", true),
        ] {
            assert_eq!(may_need_normalizing(value), may, "{value:?}");
        }
    }

    #[test]
    fn escapes_non_ascii_and_uppercases_hex() {
        assert_eq!(
            norm("/SanJoséSellers".as_bytes(), false),
            "/SanJos%C3%A9Sellers"
        );
        assert_eq!(norm(b"/%aa%2f", false), "/%AA%2F");
        assert_eq!(norm(b"/%zz%4", false), "/%zz%4");
        assert_eq!(norm(b"/\xff", false), "/%FF");
        assert_eq!(norm(b"%", false), "%");
    }

    #[test]
    fn decodes_unreserved_only_when_asked() {
        assert_eq!(norm(b"/%62%61%7A%2F%7e", true), "/baz%2F~");
        assert_eq!(norm(b"/%62%61%7A", false), "/%62%61%7A");
        assert_eq!(norm(b"/%2A%24", true), "/%2A%24");
        // Decoding must not create a new escape out of a stray `%`.
        assert_eq!(norm(b"/%%41b", true), "/%25Ab");
        assert_eq!(norm(norm(b"/%%41b", true).as_bytes(), true), "/%25Ab");
    }

    #[test]
    fn reports_whether_anything_changed() {
        let mut out = Vec::new();
        assert!(!normalize_into(b"/%AB", false, &mut out));
        assert!(normalize_into(b"/%ab", false, &mut out));
        assert!(normalize_into("/é".as_bytes(), false, &mut out));
        assert!(!may_need_normalizing(b"/plain"));
    }
}
