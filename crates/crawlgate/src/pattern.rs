//! Path patterns: what a rule's value matches.
//!
//! A pattern is compiled to the cheapest shape that matches it: a plain
//! prefix, an exact path (`…$`), or a glob of literal segments separated by
//! `*`. Globs are matched by finding each segment leftmost-first, which is
//! correct for `*`-only globs and linear in the length of the path: a
//! pattern such as `/*a*a*a…*b` never backtracks.

use memchr::memmem;

use crate::scan;

/// The compiled form of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Matches every path (an empty pattern, or `*` in the legacy reading).
    Everything,
    /// The path starts with the literal.
    Prefix,
    /// The path equals the literal (pattern ended with `$`).
    Exact,
    /// Literal segments separated by `*`, anchored at the start.
    Glob,
    /// Like `Glob`, and the last segment must end the path.
    GlobAnchored,
    /// Can never match a path (which always starts with `/`).
    Never,
}

/// A rule's pattern compiled for matching paths, as a reading with or
/// without wildcards matches it: the public face of the shapes below.
///
/// ```
/// use crawlgate::Pattern;
/// let php = Pattern::new("/*.php$", true);
/// assert!(php.matches("/a/b.php"));
/// assert!(!php.matches("/a.php5"));
/// // Without wildcards (the legacy reading), `*` and `$` are literal.
/// let literal = Pattern::new("/*.php$", false);
/// assert!(!literal.matches("/a.php"));
/// assert!(literal.matches("/*.php$x"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern<'a> {
    shape: Shape,
    body: &'a [u8],
}

impl<'a> Pattern<'a> {
    /// Compiles a normalised pattern (as [`Rule::pattern`](crate::Rule::pattern)
    /// gives it), with or without wildcards (`*` and a final `$`).
    pub fn new(pattern: &'a str, wildcards: bool) -> Pattern<'a> {
        let (shape, body) = compile(pattern.as_bytes(), wildcards);
        Pattern { shape, body }
    }

    /// Whether the pattern matches a (normalised) path.
    pub fn matches(&self, path: &str) -> bool {
        matches(self.shape, self.body, path.as_bytes())
    }
}

/// Compiles a normalised pattern. Returns the shape and the part of the
/// pattern the shape matches against (the trailing `$` removed).
pub(crate) fn compile(pattern: &[u8], wildcards: bool) -> (Shape, &[u8]) {
    if pattern.is_empty() {
        return (Shape::Everything, pattern);
    }
    if !wildcards {
        // urllib compares with `startswith`; its targets need not start
        // with `/` either.
        return (Shape::Prefix, pattern);
    }
    if pattern[0] != b'/' && pattern[0] != b'*' {
        return (Shape::Never, pattern);
    }
    let (anchored, body) = match pattern.split_last() {
        Some((b'$', body)) => (true, body),
        _ => (false, pattern),
    };
    let has_star = memchr::memchr(b'*', body).is_some();
    let shape = match (has_star, anchored) {
        (false, false) => Shape::Prefix,
        (false, true) => Shape::Exact,
        (true, false) => Shape::Glob,
        (true, true) => Shape::GlobAnchored,
    };
    // A glob whose pieces are all stars matches everything.
    if shape == Shape::Glob && body.iter().all(|&b| b == b'*') {
        return (Shape::Everything, body);
    }
    if shape == Shape::Glob && body.ends_with(b"*") {
        // A trailing `*` changes nothing: `/fish*` is `/fish`.
        let trimmed = trim_trailing_stars(body);
        if memchr::memchr(b'*', trimmed).is_none() {
            return (Shape::Prefix, trimmed);
        }
        return (Shape::Glob, trimmed);
    }
    (shape, body)
}

fn trim_trailing_stars(mut body: &[u8]) -> &[u8] {
    while let [rest @ .., b'*'] = body {
        body = rest;
    }
    body
}

/// Whether `path` matches a compiled pattern.
#[inline]
pub(crate) fn matches(shape: Shape, body: &[u8], path: &[u8]) -> bool {
    match shape {
        Shape::Everything => true,
        Shape::Prefix => path.starts_with(body),
        Shape::Exact => path == body,
        Shape::Glob => glob(body, path, false),
        Shape::GlobAnchored => glob(body, path, true),
        Shape::Never => false,
    }
}

/// The first occurrence of `needle` (non-empty) in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = haystack.len().checked_sub(needle.len())?;
    if haystack.len() > 256 {
        return match rest {
            [] => memchr::memchr(first, haystack),
            _ => memmem::find(haystack, needle),
        };
    }
    // Paths are short: candidates for the first byte eight at a time, each
    // checked in place, beat setting up any search.
    let mut i = 0;
    while i <= last_start {
        let mut hits = scan::matching(scan::word_padded(haystack, i), first);
        while hits != 0 {
            let at = i + (hits.trailing_zeros() / 8) as usize;
            if at > last_start {
                return None;
            }
            // Flags above a match may be false: each candidate is checked.
            if haystack[at] == first && scan::same(&haystack[at + 1..at + needle.len()], rest) {
                return Some(at);
            }
            hits &= hits - 1;
        }
        i += 8;
    }
    None
}

/// Whether `path` starts with `prefix`.
#[inline]
fn starts_with(path: &[u8], prefix: &[u8]) -> bool {
    path.len() >= prefix.len() && scan::same(&path[..prefix.len()], prefix)
}

/// Whether `path` ends with `suffix`.
#[inline]
fn ends_with(path: &[u8], suffix: &[u8]) -> bool {
    path.len() >= suffix.len() && scan::same(&path[path.len() - suffix.len()..], suffix)
}

fn star(pattern: &[u8]) -> Option<usize> {
    pattern.iter().position(|&b| b == b'*')
}

/// Leftmost-first segment matching. The first segment must be a prefix; each
/// later one is found at its leftmost position after the previous; with an
/// anchor, the last one must end the path. Leftmost placement leaves the
/// longest possible rest of the path, so it finds a match whenever one
/// exists, and it never looks at a byte of the path twice per segment.
fn glob(body: &[u8], path: &[u8], anchored: bool) -> bool {
    let Some(first_star) = star(body) else {
        return if anchored {
            path == body
        } else {
            starts_with(path, body)
        };
    };
    if !starts_with(path, &body[..first_star]) {
        return false;
    }
    let mut pos = first_star;
    let mut rest = &body[first_star + 1..];
    if anchored {
        // Cheap rejection first: the last segment must end the path.
        let last = &rest[rest.iter().rposition(|&b| b == b'*').map_or(0, |i| i + 1)..];
        if path.len() - pos < last.len() || !ends_with(path, last) {
            return false;
        }
    }
    loop {
        match star(rest) {
            Some(next) => {
                let segment = &rest[..next];
                rest = &rest[next + 1..];
                if segment.is_empty() {
                    continue;
                }
                match find(&path[pos..], segment) {
                    Some(at) => pos += at + segment.len(),
                    None => return false,
                }
            }
            None if anchored => return path.len() - pos >= rest.len() && ends_with(path, rest),
            None => return rest.is_empty() || find(&path[pos..], rest).is_some(),
        }
    }
}

/// Whether `path`, which starts with a glob's head (the part before its
/// first `*`, `from` bytes long), matches the glob's literal `segments`
/// after it: each found leftmost after the one before, and, if
/// `anchored`, the last ending the path. What [`glob`] does past the head,
/// with the segments split beforehand.
pub(crate) fn segments_match<'s>(
    mut segments: impl ExactSizeIterator<Item = &'s [u8]> + Clone,
    anchored: bool,
    path: &[u8],
    from: usize,
) -> bool {
    let mut pos = from;
    let middle = segments.len().saturating_sub(1);
    if anchored {
        // Cheap rejection first: the last segment must end the path.
        let Some(last) = segments.clone().last() else {
            return true;
        };
        if path.len() - pos < last.len() || !ends_with(path, last) {
            return false;
        }
    }
    for segment in segments.by_ref().take(middle) {
        match find(&path[pos..], segment) {
            Some(at) => pos += at + segment.len(),
            None => return false,
        }
    }
    match segments.next() {
        None => true,
        Some(last) if anchored => path.len() - pos >= last.len() && ends_with(path, last),
        Some(last) => find(&path[pos..], last).is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_test_support::reference_matches;
    use proptest::prelude::*;

    fn m(pattern: &str, path: &str) -> bool {
        let (shape, body) = compile(pattern.as_bytes(), true);
        matches(shape, body, path.as_bytes())
    }

    #[test]
    fn spec_examples() {
        for path in [
            "/fish",
            "/fish.html",
            "/fish/salmon.html",
            "/fishheads",
            "/fish.php?id=x",
        ] {
            assert!(m("/fish", path), "{path}");
            assert!(m("/fish*", path), "{path}");
        }
        for path in ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"] {
            assert!(!m("/fish", path), "{path}");
        }
        assert!(m("/*.php$", "/filename.php"));
        assert!(m("/*.php$", "/a.php.php"));
        for path in [
            "/filename.php?x",
            "/filename.php/",
            "/filename.php5",
            "/windows.PHP",
        ] {
            assert!(!m("/*.php$", path), "{path}");
        }
        assert!(m("/$", "/"));
        assert!(!m("/$", "/a"));
        assert!(m("*.png", "/a.png"));
        assert!(!m("fish/", "/fish/"));
        assert!(m("/a$b", "/a$b"));
        assert!(m("/*", "/anything"));
        assert!(m("", "/anything"));
    }

    #[test]
    fn thirty_stars_do_not_backtrack() {
        let pattern = format!("/{}b", "*a".repeat(30));
        let path = format!("/{}", "a".repeat(100_000));
        assert!(!m(&pattern, &path));
        let path = format!("{path}b");
        assert!(m(&pattern, &path));
    }

    proptest! {
        #[test]
        fn agrees_with_the_reference(
            pattern in "/[ab*$]{0,8}",
            path in "/[ab$]{0,10}",
        ) {
            prop_assert_eq!(m(&pattern, &path), reference_matches(pattern.as_bytes(), path.as_bytes()));
        }
    }
}
