//! What Yandex's parser compares rules with: a URL's path and everything
//! after it, as given.

use std::borrow::Cow;

/// The part of `url` Yandex's parser compares: a path (`/p?q#f`) as given,
/// an absolute URL from its path on (`/` when it has none), up to the
/// first NUL. Nothing is decoded or normalised, and a fragment is kept
/// (give the URL a crawler would ask for): `https://example.com/a?b#c`
/// compares `/a?b#c`.
pub(crate) fn target(url: &str) -> Cow<'_, str> {
    let url = url.split('\0').next().unwrap_or("");
    if url.starts_with('/') {
        return Cow::Borrowed(url);
    }
    let Some(scheme_end) = url.find("://") else {
        return Cow::Borrowed(url);
    };
    let scheme = &url[..scheme_end];
    let is_scheme = scheme
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !is_scheme {
        return Cow::Borrowed(url);
    }
    let after = &url[scheme_end + 3..];
    match after.find(['/', '?', '#']) {
        Some(at) if after[at..].starts_with('/') => Cow::Borrowed(&after[at..]),
        Some(at) => Cow::Owned(format!("/{}", &after[at..])),
        None => Cow::Borrowed("/"),
    }
}

#[cfg(test)]
mod tests {
    use super::target;

    #[test]
    fn targets() {
        assert_eq!(target("/a?b#c"), "/a?b#c");
        assert_eq!(target("//host/p"), "//host/p");
        assert_eq!(target("https://example.com/a?b#c"), "/a?b#c");
        assert_eq!(target("https://example.com"), "/");
        assert_eq!(target("http://example.com?x"), "/?x");
        assert_eq!(target("HTTP://example.com/é"), "/é");
        assert_eq!(target("/a\0b"), "/a");
        assert_eq!(target("abc"), "abc");
    }
}
