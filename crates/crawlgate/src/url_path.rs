//! The part of a URL that rules are matched against.

use std::borrow::Cow;

use crate::scan;

/// Every byte of a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The first `#` or NUL from `from` on, else the end: where the path
/// ends. Sixteen bytes a step (SSE2), the last step over the last sixteen
/// (see [`first_in_chunks`]), since paths run to dozens of bytes; eight
/// for a string shorter than sixteen.
#[inline]
pub(crate) fn path_end(bytes: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if bytes.len() >= 16 {
        use safe_arch::{cmp_eq_mask_i8_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
        let [hash, nul] = [b'#', 0].map(|b| set_splat_i8_m128i(b as i8));
        let end = first_in_chunks(bytes, from, |v| {
            move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, hash) | cmp_eq_mask_i8_m128i(v, nul))
        });
        return end.unwrap_or(bytes.len());
    }
    path_end_words(bytes, from)
}

/// The first byte from `from` (at most the length) on whose bit `mask`
/// sets, for a string of sixteen bytes or more: sixteen bytes a step
/// while sixteen are left, then the last sixteen once, the bits of the
/// bytes before `from` dropped (cheaper than eight bytes a step for what
/// is left of a host or path).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn first_in_chunks(
    bytes: &[u8],
    from: usize,
    mask: impl Fn(safe_arch::m128i) -> i32,
) -> Option<usize> {
    use safe_arch::load_unaligned_m128i;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..).and_then(|rest| rest.first_chunk::<16>()) {
        let bits = mask(load_unaligned_m128i(chunk));
        if bits != 0 {
            return Some(i + bits.trailing_zeros() as usize);
        }
        i += 16;
    }
    let last = bytes.last_chunk::<16>()?;
    // Fewer than sixteen left: `i` lies within the last sixteen.
    let skip = i - (bytes.len() - 16);
    let bits = (mask(load_unaligned_m128i(last)) as u32)
        .checked_shr(skip as u32)
        .unwrap_or(0);
    (bits != 0).then(|| i + bits.trailing_zeros() as usize)
}

/// [`path_end`] eight bytes a step.
#[inline]
fn path_end_words(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() {
        // `#` (0x23) and NUL are among the bytes whose bits all lie in
        // 0x23; so are a few others (0x01-0x03, ` `, `!`, `"`), checked below.
        let hits = scan::matching(scan::word_padded(bytes, i) | (ONES * 0x23), 0x23);
        let at = i + (hits.trailing_zeros() / 8) as usize;
        if hits == 0 {
            i += 8;
        } else if at >= bytes.len() || matches!(bytes[at], b'#' | 0) {
            return at.min(bytes.len());
        } else {
            i = at + 1;
        }
    }
    bytes.len()
}

/// The first byte from `from` on that starts a path, params or query (`/`,
/// `;`, `?`) or a fragment (`#`): where a scheme and authority end.
/// Sixteen bytes a step (SSE2), as hosts run to a few dozen bytes (see
/// [`first_in_chunks`]); eight for a string shorter than sixteen.
#[inline(always)]
fn authority_end(bytes: &[u8], from: usize) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if bytes.len() >= 16 {
        use safe_arch::{cmp_eq_mask_i8_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
        let [slash, question, semicolon, hash] =
            [b'/', b'?', b';', b'#'].map(|b| set_splat_i8_m128i(b as i8));
        return first_in_chunks(bytes, from, |v| {
            move_mask_i8_m128i(
                cmp_eq_mask_i8_m128i(v, slash)
                    | cmp_eq_mask_i8_m128i(v, question)
                    | cmp_eq_mask_i8_m128i(v, semicolon)
                    | cmp_eq_mask_i8_m128i(v, hash),
            )
        });
    }
    authority_end_words(bytes, from)
}

/// [`authority_end`] eight bytes a step.
#[inline(always)]
fn authority_end_words(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < bytes.len() {
        // The four are among the bytes that `| 0x1C` makes `?`; so are `'`,
        // `+`, `3` and `7`, checked below. Padding past the end is not.
        let hits = scan::matching(scan::word_padded(bytes, i) | (ONES * 0x1C), b'?');
        if hits == 0 {
            i += 8;
            continue;
        }
        let at = i + (hits.trailing_zeros() / 8) as usize;
        if matches!(bytes.get(at), Some(b'/' | b'?' | b';' | b'#')) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// Where the authority starts when the URL starts with a scheme `https://`
/// or `http://` (the common case for a crawler), found without a scan.
#[inline]
fn after_web_scheme(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(b"https://") {
        Some(8)
    } else if bytes.starts_with(b"http://") {
        Some(7)
    } else {
        None
    }
}

/// Where the path of a URL starts, for the URLs a crawler asks most
/// (`http://` or `https://` ones whose path starts with `/`, and paths):
/// [`path_of`] gives the URL from there up to its first `#` or NUL. `None`
/// for any other URL.
#[inline(always)]
pub(crate) fn path_start(url: &[u8]) -> Option<usize> {
    if let Some(authority) = after_web_scheme(url) {
        let start = authority_end(url, authority)?;
        return (url[start] == b'/').then_some(start);
    }
    (url.first() == Some(&b'/') && url.get(1) != Some(&b'/')).then_some(0)
}

/// The path, params and query of a URL: scheme, authority and fragment
/// removed, always starting with `/` (an empty path is `/`). The URL is not
/// normalised: escapes are kept as given.
///
/// Works on absolute URLs, scheme-relative ones (`//host/p`) and paths
/// (`/p?q`), exactly as Google's reference extracts them.
///
/// ```
/// use crawlgate::path_of;
/// assert_eq!(path_of("https://example.com/a/b?q=1#frag"), "/a/b?q=1");
/// assert_eq!(path_of("https://example.com"), "/");
/// assert_eq!(path_of("http://example.com?x"), "/?x");
/// assert_eq!(path_of("//example.com/p;params"), "/p;params");
/// assert_eq!(path_of("/path-only"), "/path-only");
/// ```
#[inline]
pub fn path_of(url: &str) -> Cow<'_, str> {
    let bytes = url.as_bytes();
    // Already a path (the common case for a crawler's own queue): `/…` but not
    // `//host…`. Google's rules then reduce to dropping the fragment.
    if bytes.first() == Some(&b'/') && bytes.get(1) != Some(&b'/') {
        return Cow::Borrowed(&url[..path_end(bytes, 0)]);
    }
    if let Some(authority) = after_web_scheme(bytes) {
        // What the scan below finds for these schemes, without looking at
        // the scheme again.
        return match authority_end(bytes, authority) {
            Some(start) if bytes[start] != b'#' => path_from(url, start),
            _ => Cow::Borrowed("/"),
        };
    }
    let search_start = if bytes.starts_with(b"//") { 2 } else { 0 };
    // Google looks for `://` and ignores it when a path, param or query
    // starts before it. Since `://` holds a `/`, the only occurrence that can
    // count is the one whose `/` is the first of `/?;`. A `#` before the
    // path starts means there is no path.
    let Some(mut start) = authority_end(bytes, search_start) else {
        return Cow::Borrowed("/");
    };
    if start > search_start
        && bytes[start - 1] == b':'
        && bytes.get(start..start + 2) == Some(b"//")
    {
        match authority_end(bytes, start + 2) {
            Some(path_start) => start = path_start,
            None => return Cow::Borrowed("/"),
        }
    }
    if bytes[start] == b'#' {
        return Cow::Borrowed("/");
    }
    path_from(url, start)
}

/// The path starting at `start` (a `/`, `;` or `?`), up to the fragment;
/// Google's reference hands the path on as a C string, so a NUL ends it
/// too.
#[inline]
fn path_from(url: &str, start: usize) -> Cow<'_, str> {
    let path = &url[start..path_end(url.as_bytes(), start)];
    if path.starts_with('/') {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(format!("/{path}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first byte from `from` on that `is` accepts. URLs are short: a plain
    /// scan beats a SIMD search's setup.
    #[inline]
    fn find_from(bytes: &[u8], from: usize, is: impl Fn(u8) -> bool) -> Option<usize> {
        bytes
            .get(from..)?
            .iter()
            .position(|&b| is(b))
            .map(|i| i + from)
    }

    /// Where the path ends: the first `#` or NUL from `from`, else the end;
    /// eight bytes at a time, since paths run to dozens of bytes.
    fn fragment_or_nul(bytes: &[u8], from: usize) -> usize {
        let mut i = from;
        while let Some(word) = scan::word_at(bytes, i) {
            if scan::matching(word, 0) | scan::matching(word, b'#') != 0 {
                break;
            }
            i += 8;
        }
        find_from(bytes, i, |b| b == b'#' || b == 0).unwrap_or(bytes.len())
    }

    fn path_start_byte(b: u8) -> bool {
        b == b'/' || b == b'?' || b == b';'
    }

    /// The extraction as first written (several passes), kept to check the
    /// one-pass version against.
    fn reference_path_of(url: &str) -> Cow<'_, str> {
        let bytes = url.as_bytes();
        // Already a path (the common case for a crawler's own queue): `/…` but not
        // `//host…`. Google's rules then reduce to dropping the fragment.
        if bytes.first() == Some(&b'/') && bytes.get(1) != Some(&b'/') {
            return Cow::Borrowed(&url[..fragment_or_nul(bytes, 0)]);
        }
        if let Some(authority) = after_web_scheme(bytes) {
            // What the scan below finds for these schemes, without looking at
            // the scheme again.
            return match authority_end(bytes, authority) {
                Some(start) if bytes[start] != b'#' => path_from(url, start),
                _ => Cow::Borrowed("/"),
            };
        }
        let search_start = if bytes.starts_with(b"//") { 2 } else { 0 };
        let early_path = find_from(bytes, search_start, path_start_byte);
        // Google looks for `://` and ignores it when a path, param or query
        // starts before it. Since `://` holds a `/`, the only occurrence that can
        // start before the first of `/?;` is the one ending right there.
        let protocol_end = early_path.filter(|&early| {
            early > search_start
                && bytes[early - 1] == b':'
                && bytes.get(early..early + 2) == Some(b"//")
        });
        let authority_start = protocol_end.map_or(search_start, |slash| slash + 2);
        let Some(path_start) = find_from(bytes, authority_start, path_start_byte) else {
            return Cow::Borrowed("/");
        };
        if find_from(&bytes[..path_start], search_start, |b| b == b'#').is_some() {
            return Cow::Borrowed("/");
        }
        // The fragment goes; and Google's reference hands the path on as a C
        // string, so a NUL ends it too.
        let end = fragment_or_nul(bytes, path_start);
        let path = &url[path_start..end];
        if path.starts_with('/') {
            Cow::Borrowed(path)
        } else {
            Cow::Owned(format!("/{path}"))
        }
    }

    proptest! {
        #[test]
        fn one_pass_agrees_with_the_reference(
            url in "(https?:|[a-z]{0,5}:|//|/|)(//)?[a-z:@.#?;/\\x00]{0,12}(/[a-z/#?;:\\x00]{0,12})?",
        ) {
            prop_assert_eq!(path_of(&url), reference_path_of(&url));
        }

        #[test]
        fn any_string_agrees_with_the_reference(url in "\\PC{0,40}") {
            prop_assert_eq!(path_of(&url), reference_path_of(&url));
        }

        #[test]
        fn the_authority_ends_at_the_first_path_or_fragment_byte(
            url in "[a-z0-9'+37:@.#?;/\\x00-\\x03]{0,70}",
            from in 0usize..20,
        ) {
            let bytes = url.as_bytes();
            let from = from.min(bytes.len());
            let expected = find_from(bytes, from, |b| matches!(b, b'/' | b'?' | b';' | b'#'));
            prop_assert_eq!(authority_end(bytes, from), expected);
            prop_assert_eq!(authority_end_words(bytes, from), expected);
        }

        #[test]
        fn the_path_ends_at_the_first_fragment_or_nul(
            url in "[a-z0-9/?:@.#\\x00-\\x03\\x20-\\x23]{0,70}",
            from in 0usize..20,
        ) {
            let bytes = url.as_bytes();
            let from = from.min(bytes.len());
            let expected = find_from(bytes, from, |b| b == b'#' || b == 0).unwrap_or(bytes.len());
            prop_assert_eq!(path_end(bytes, from), expected);
            prop_assert_eq!(path_end_words(bytes, from), expected);
        }

        #[test]
        fn the_path_read_in_place_is_the_path(
            url in "(https?://|/|//|[a-z]{0,5}:)[a-z0-9'+:@.#?;/\\x00]{0,30}",
        ) {
            if let Some(from) = path_start(url.as_bytes()) {
                let end = path_end(url.as_bytes(), from);
                prop_assert_eq!(&url[from..end], path_of(&url));
            }
        }
    }

    #[test]
    fn google_reference_examples() {
        let cases = [
            ("", "/"),
            ("http://www.example.com", "/"),
            ("http://www.example.com/", "/"),
            ("http://www.example.com/a", "/a"),
            ("http://www.example.com/a/", "/a/"),
            (
                "http://www.example.com/a/b?c=http://d.e/",
                "/a/b?c=http://d.e/",
            ),
            ("http://www.example.com/a/b?c=d&e=f#fg", "/a/b?c=d&e=f"),
            ("example.com", "/"),
            ("example.com/", "/"),
            ("example.com/a", "/a"),
            ("example.com/a/", "/a/"),
            ("example.com/a/b?c=d&e=f#fg", "/a/b?c=d&e=f"),
            ("a", "/"),
            ("a/", "/"),
            ("/a", "/a"),
            ("a/b", "/b"),
            ("example.com?a", "/?a"),
            ("example.com/a;b#c", "/a;b"),
            ("//a/b/c", "/b/c"),
            ("http://h#frag/x", "/"),
            ("h:/x", "/x"),
            ("a?b://c/d", "/?b://c/d"),
            ("//:/x", "/x"),
            ("http://", "/"),
            ("http:///x", "/x"),
            ("ftp://h:21/a", "/a"),
            ("x://y://z/w", "//z/w"),
        ];
        for (url, path) in cases {
            assert_eq!(path_of(url), path, "{url}");
        }
    }
}
