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
    /// A glob as Yandex's parser matches it: each segment after the head
    /// is looked for one byte at a time, a mismatch starting it again at
    /// the byte that broke it (see [`restart_segments_match`]).
    Restart,
    /// Like `Restart`, and the path must end where the last segment does.
    RestartAnchored,
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

    /// Compiles a normalised pattern as `profile` reads it (wildcards or
    /// not, and Yandex's `*`, which never goes back).
    ///
    /// ```
    /// use crawlgate::{Pattern, Profile};
    /// let google = Pattern::for_profile("/*aab", &Profile::GOOGLE);
    /// let yandex = Pattern::for_profile("/*aab", &Profile::YANDEX);
    /// assert!(google.matches("/aaab"));
    /// assert!(!yandex.matches("/aaab"));
    /// assert!(yandex.matches("/xaab"));
    /// ```
    pub fn for_profile(pattern: &'a str, profile: &crate::Profile) -> Pattern<'a> {
        let (shape, body) = compile_for(pattern.as_bytes(), profile);
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

/// Compiles a normalised pattern as `profile` reads it: [`compile`], and
/// with Yandex's `*` ([`Profile::restarting_star`](crate::Profile)) its
/// globs matched by restarting, and a pattern of stars alone (`**`, `*$`)
/// matching nothing, as that parser stores it empty (`*` alone is `/`).
pub(crate) fn compile_for<'p>(pattern: &'p [u8], profile: &crate::Profile) -> (Shape, &'p [u8]) {
    if !profile.restarting_star || !profile.wildcards {
        return compile(pattern, profile.wildcards);
    }
    if pattern != b"*" && crate::yandex::convert::stores_empty(pattern) {
        return (Shape::Never, pattern);
    }
    match compile(pattern, true) {
        (Shape::Glob, body) => (Shape::Restart, body),
        (Shape::GlobAnchored, body) => (Shape::RestartAnchored, body),
        other => other,
    }
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
        Shape::Restart => restart_glob(body, path, false),
        Shape::RestartAnchored => restart_glob(body, path, true),
        Shape::Never => false,
    }
}

/// A glob as Yandex's parser matches it: the head (before the first `*`)
/// must start the path, then [`restart_segments_match`].
fn restart_glob(body: &[u8], path: &[u8], anchored: bool) -> bool {
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
    // A final `*` before the anchor frees the end, as in `compile`.
    let anchored = anchored && !body.ends_with(b"*");
    let segments = body[first_star + 1..]
        .split(|&b| b == b'*')
        .filter(|s| !s.is_empty());
    restart_segments_match(segments, anchored, path, first_star)
}

/// Yandex's `*`: after the head (the first `from` bytes of `path`), each
/// literal segment in turn is read byte by byte; a byte that breaks a
/// partial match starts the segment again, compared with that byte alone
/// (the bytes before it are not tried again, so `/*aab` does not match
/// `/aaab`). A finished segment is never reopened. Unanchored, the match
/// succeeds when the last segment is finished; anchored, when the path
/// ends with it finished (a byte after it starts it again). One pass,
/// linear in the length of the path.
pub(crate) fn restart_segments_match<'s>(
    segments: impl Iterator<Item = &'s [u8]>,
    anchored: bool,
    path: &[u8],
    from: usize,
) -> bool {
    let mut segments = segments.peekable();
    let Some(mut segment) = segments.next() else {
        // Stars alone after the head: anything follows.
        return true;
    };
    let mut done = 0;
    let mut bytes = path[from..].iter();
    loop {
        if done == segment.len() {
            match segments.next() {
                Some(next) => {
                    segment = next;
                    done = 0;
                }
                None if !anchored => return true,
                None => {}
            }
        }
        let Some(&b) = bytes.next() else {
            return done == segment.len() && segments.peek().is_none();
        };
        if done < segment.len() && segment[done] == b {
            done += 1;
        } else {
            done = usize::from(segment[0] == b);
        }
    }
}

/// The first occurrence of `needle` (non-empty) in `haystack`.
pub(crate) fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = haystack.len().checked_sub(needle.len())?;
    if haystack.len() > 256 {
        return find_long(haystack, needle);
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

/// [`find`] in a long haystack: a search worth setting up. Apart, so that
/// its frame does not weigh on the short searches.
#[cold]
#[inline(never)]
fn find_long(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    match needle {
        [first] => memchr::memchr(*first, haystack),
        _ => memmem::find(haystack, needle),
    }
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

    /// Yandex's parser's own matcher, literally (its pointer walks as index
    /// walks): the reference the restarting globs are held to.
    fn yandex_reference(path: &[u8], rule: &[u8]) -> bool {
        let at = |i: usize| rule.get(i).copied().unwrap_or(0);
        let mut r = 0;
        for &c in path {
            while at(r) == b'*' {
                r += 1;
            }
            if c == at(r) {
                r += 1;
            } else {
                while r != 0 && at(r) != b'*' {
                    r -= 1;
                }
                if at(r) != b'*' {
                    return false;
                }
                r += 1;
                if at(r) == c {
                    r += 1;
                }
            }
        }
        at(r) == 0 || at(r + 1) == 0 && at(r) == b'*'
    }

    /// The rule as that parser stores a pattern it matches as a glob: stars
    /// collapsed, a final `$` dropped, else a final `*` added.
    fn stored_glob(pattern: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        for &b in pattern {
            if b != b'*' || out.last() != Some(&b'*') {
                out.push(b);
            }
        }
        if out.last() == Some(&b'$') {
            out.pop();
        } else if out.last() != Some(&b'*') {
            out.push(b'*');
        }
        out
    }

    #[test]
    fn restarting_globs_match_as_yandex_does() {
        let y = |pattern: &str, path: &str| {
            let (shape, body) = compile_for(pattern.as_bytes(), &crate::Profile::YANDEX);
            matches(shape, body, path.as_bytes())
        };
        assert!(!y("/*aab", "/aaab"));
        assert!(y("/*aab", "/xaab"));
        assert!(y("/*.php$", "/a.php.php"));
        assert!(!y("/*aab$", "/aaab"));
        assert!(y("/*ab$", "/abab"));
        assert!(y("*foo", "/x/foo/y"));
        assert!(!y("**", "/a"));
        assert!(!y("*$", "/a"));
        assert!(y("*", "/a"));
        assert!(y("/a$b", "/a$b/c"));
        assert!(y("/a*$", "/abc"));
    }

    proptest! {
        #[test]
        fn restarting_globs_agree_with_the_parser(
            pattern in "/[ab*$]{0,8}",
            path in "/[ab$]{0,10}",
        ) {
            let (shape, body) = compile_for(pattern.as_bytes(), &crate::Profile::YANDEX);
            let stored = stored_glob(pattern.as_bytes());
            if matches!(shape, Shape::Restart | Shape::RestartAnchored) {
                prop_assert_eq!(
                    matches(shape, body, path.as_bytes()),
                    yandex_reference(path.as_bytes(), &stored),
                    "pattern {:?} stored {:?}", pattern, String::from_utf8_lossy(&stored)
                );
            }
        }
    }

    #[test]
    fn restarting_stars_stay_linear() {
        let pattern = format!("/{}b", "*a".repeat(30));
        let (shape, body) = compile_for(pattern.as_bytes(), &crate::Profile::YANDEX);
        let path = format!("/{}", "a".repeat(100_000));
        assert!(!matches(shape, body, path.as_bytes()));
        assert!(matches(shape, body, format!("{path}b").as_bytes()));
    }

    #[test]
    fn thirty_stars_do_not_backtrack() {
        let pattern = format!("/{}b", "*a".repeat(30));
        let path = format!("/{}", "a".repeat(100_000));
        assert!(!m(&pattern, &path));
        let path = format!("{path}b");
        assert!(m(&pattern, &path));
    }

    /// The first occurrence, literally.
    fn naive_find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
        haystack.windows(needle.len()).position(|w| w == needle)
    }

    proptest! {
        /// Haystacks on both sides of 256 bytes (where a set-up search
        /// takes over from the word loop), few distinct bytes so that near
        /// misses abound, needles of 1 to 20 bytes.
        #[test]
        fn find_finds_the_first_occurrence(
            haystack in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'.'), Just(0xC3u8)], 0..300),
            needle in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b'.'), Just(0xC3u8)], 1..20),
            cut in 0usize..300,
        ) {
            let haystack = &haystack[..cut.min(haystack.len())];
            prop_assert_eq!(find(haystack, &needle), naive_find(haystack, &needle));
            // The needle planted at the end.
            let mut planted = haystack.to_vec();
            planted.extend_from_slice(&needle);
            prop_assert_eq!(find(&planted, &needle), naive_find(&planted, &needle));
        }

        #[test]
        fn agrees_with_the_reference(
            pattern in "/[ab*$]{0,8}",
            path in "/[ab$]{0,10}",
        ) {
            prop_assert_eq!(m(&pattern, &path), reference_matches(pattern.as_bytes(), path.as_bytes()));
        }
    }
}
