//! The part of a URL that rules are matched against.

use std::borrow::Cow;

use memchr::{memchr, memmem};

fn find_first_of(bytes: &[u8], from: usize, set: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|b| set.contains(b))
        .map(|i| i + from)
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
pub fn path_of(url: &str) -> Cow<'_, str> {
    let bytes = url.as_bytes();
    let search_start = if bytes.starts_with(b"//") { 2 } else { 0 };
    let early_path = find_first_of(bytes, search_start, b"/?;");
    let mut protocol_end = memmem::find(&bytes[search_start..], b"://").map(|i| i + search_start);
    if let (Some(early), Some(protocol)) = (early_path, protocol_end) {
        // A path, params or query before `://`: it is not a scheme separator.
        if early < protocol {
            protocol_end = None;
        }
    }
    let authority_start = protocol_end.map_or(search_start, |p| p + 3);
    let Some(path_start) = find_first_of(bytes, authority_start, b"/?;") else {
        return Cow::Borrowed("/");
    };
    let hash = memchr(b'#', &bytes[search_start..]).map(|i| i + search_start);
    if hash.is_some_and(|h| h < path_start) {
        return Cow::Borrowed("/");
    }
    let mut path = &url[path_start..hash.unwrap_or(url.len())];
    // Google's reference hands the path on as a C string: a NUL ends it.
    if let Some(nul) = memchr(0, path.as_bytes()) {
        path = &path[..nul];
    }
    if path.starts_with('/') {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(format!("/{path}"))
    }
}

#[cfg(test)]
mod tests {
    use super::path_of;

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
        ];
        for (url, path) in cases {
            assert_eq!(path_of(url), path, "{url}");
        }
    }
}
