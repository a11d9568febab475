//! Reasoning about what patterns match: whether one pattern matches every
//! path another one matches (to prove a rule can never decide), and sample
//! paths a pattern matches (to compare readings on concrete URLs).

use crate::budget::Budget;

/// A pattern as the set of paths it matches, as bytes with each run of stars
/// as one NUL (which no pattern holds): a prefix match is a glob ending in
/// a star; an anchored one ends without.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Glob {
    text: Vec<u8>,
}

const STAR: u8 = 0;

/// Longest pattern reasoned about; longer ones are left alone.
const MAX_LEN: usize = 4096;

impl Glob {
    /// The glob of a normalised rule pattern as a reading matches it;
    /// `None` for a pattern that matches nothing (or everything: the empty
    /// pattern, which is a rule that is never a real match) and for very
    /// long patterns.
    pub(crate) fn new(pattern: &str, wildcards: bool) -> Option<Glob> {
        let bytes = pattern.as_bytes();
        if bytes.is_empty() || bytes.len() > MAX_LEN {
            return None;
        }
        let mut text = Vec::with_capacity(bytes.len() + 1);
        if !wildcards {
            // `*` alone is urllib's "every path"; otherwise `*` is literal.
            if bytes == b"*" {
                return Some(Glob { text: vec![STAR] });
            }
            if bytes[0] != b'/' {
                return None;
            }
            text.extend_from_slice(bytes);
            text.push(STAR);
            return Some(Glob { text });
        }
        if bytes[0] != b'/' && bytes[0] != b'*' {
            return None;
        }
        let (anchored, body) = match bytes.split_last() {
            Some((b'$', body)) => (true, body),
            _ => (false, bytes),
        };
        for &b in body {
            let item = if b == b'*' { STAR } else { b };
            if !(item == STAR && text.last() == Some(&STAR)) {
                text.push(item);
            }
        }
        if !anchored && text.last() != Some(&STAR) {
            text.push(STAR);
        }
        Some(Glob { text })
    }

    /// Whether every path `other` matches is also matched by `self`.
    ///
    /// Sound, and conservative: `other`'s stars are treated as symbols only
    /// `self`'s stars can absorb, so `true` is a proof; `false` may also mean
    /// "could not tell", as when `budget` does not cover the work (a byte
    /// compared is a unit).
    ///
    /// `self` is then a glob matched against `other`'s bytes: its first
    /// literal segment must start them, its last end them, and the others
    /// occur in order between. Finding each at its leftmost place is exact
    /// for globs whose only wildcard is `*`, and linear.
    pub(crate) fn includes(&self, other: &Glob, budget: &Budget) -> bool {
        /// Setting up the substring searches, whatever the lengths.
        const CALL: usize = 32;
        if !budget.spend(CALL + self.text.len() + other.text.len()) {
            return false;
        }
        let text = other.text.as_slice();
        let mut segments = self.text.split(|&b| b == STAR);
        let first = segments.next().unwrap_or_default();
        if !text.starts_with(first) {
            return false;
        }
        let rest: Vec<&[u8]> = segments.collect();
        let Some((last, middle)) = rest.split_last() else {
            // No star: the same bytes.
            return text.len() == first.len();
        };
        let mut from = first.len();
        for segment in middle.iter().filter(|s| !s.is_empty()) {
            match memchr::memmem::find(&text[from..], segment) {
                Some(at) => from += at + segment.len(),
                None => return false,
            }
        }
        text.len() >= from + last.len() && text.ends_with(last)
    }
}

/// Writes into `out` the path [`sample_paths`] would give (without
/// allocating); `false` when there is none.
pub(crate) fn sample_into(pattern: &str, out: &mut String) -> bool {
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    out.clear();
    if body.is_empty() {
        return false;
    }
    if !body.starts_with('/') {
        out.push('/');
    }
    for c in body.chars() {
        out.push(if c == '*' { 'x' } else { c });
    }
    true
}

/// A path that a pattern matches (or is meant to match): the pattern with
/// each `*` read as `x`, a trailing `$` dropped, and a leading `/` added when
/// missing.
pub(crate) fn sample_paths(pattern: &str, out: &mut Vec<String>) {
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    if body.is_empty() {
        return;
    }
    let base = if body.starts_with('/') {
        body.to_owned()
    } else {
        format!("/{body}")
    };
    if base.contains('*') {
        out.push(base.replace('*', "x"));
    } else {
        out.push(base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_test_support::Rng;

    fn g(p: &str) -> Glob {
        Glob::new(p, true).unwrap()
    }

    impl Glob {
        fn covers(&self, other: &Glob) -> bool {
            self.includes(other, &Budget::for_file(0, 0))
        }
    }

    #[test]
    fn inclusion_of_prefixes() {
        // A shorter prefix includes a longer one, never the other way round.
        assert!(g("/a").covers(&g("/ab")));
        assert!(!g("/ab").covers(&g("/a")));
        assert!(g("/a").covers(&g("/a")));
        assert!(g("/a*").covers(&g("/a")));
        assert!(g("/a").covers(&g("/a$")));
        assert!(!g("/a$").covers(&g("/a")));
    }

    #[test]
    fn inclusion_with_wildcards() {
        assert!(g("/*.php").covers(&g("/a.php")));
        assert!(g("/*.php").covers(&g("/*/x.php")));
        assert!(!g("/a.php").covers(&g("/*.php")));
        assert!(g("/*page").covers(&g("/page")));
        assert!(g("/*.php$").covers(&g("/a.php$")));
        assert!(!g("/*.php$").covers(&g("/a.php")));
        assert!(g("*").covers(&g("/x$")));
        // `/*a` does not include `/*b*`.
        assert!(!g("/*a").covers(&g("/*b")));
    }

    #[test]
    fn segments_do_not_overlap() {
        assert!(!g("/*aa*aa$").covers(&g("/aaa$")));
        assert!(g("/*aa*aa$").covers(&g("/aaaa$")));
        assert!(g("/*a*b$").covers(&g("/xaxb$")));
        assert!(!g("/*a*b$").covers(&g("/xbxa$")));
        // Stars are symbols only stars absorb.
        assert!(!g("/a$").covers(&g("/*$")));
        assert!(g("/*$").covers(&g("/*a*$")));
    }

    /// Glob matching by trying every split: the definition, exponential,
    /// for short strings.
    fn reference(glob: &[u8], text: &[u8]) -> bool {
        match glob.split_first() {
            None => text.is_empty(),
            Some((&STAR, rest)) => (0..=text.len()).any(|i| reference(rest, &text[i..])),
            Some((&b, rest)) => text.first() == Some(&b) && reference(rest, &text[1..]),
        }
    }

    #[test]
    fn inclusion_agrees_with_the_definition() {
        let mut rng = Rng::new(11);
        let mut pattern = || {
            let mut p = String::from("/");
            let seed = rng.next_u64();
            let mut bits = seed >> 20;
            for _ in 0..(seed >> 60) as usize % 7 {
                p.push([b'a', b'b', b'*', b'a'][(bits & 3) as usize] as char);
                bits >>= 2;
            }
            if bits & 1 == 1 {
                p.push('$');
            }
            p
        };
        for _ in 0..2000 {
            let (a, b) = (g(&pattern()), g(&pattern()));
            assert_eq!(a.covers(&b), reference(&a.text, &b.text), "{a:?} {b:?}");
        }
    }

    #[test]
    fn legacy_globs_are_literal() {
        let star = Glob::new("*", false).unwrap();
        assert!(star.covers(&Glob::new("/x", false).unwrap()));
        let p = Glob::new("/*.php", false).unwrap();
        assert!(!p.covers(&Glob::new("/a.php", false).unwrap()));
        assert!(Glob::new("fish", false).is_none());
    }

    #[test]
    fn samples() {
        let mut out = Vec::new();
        sample_paths("/*.php$", &mut out);
        sample_paths("*.png", &mut out);
        assert_eq!(out, ["/x.php", "/x.png"]);
        out.clear();
        sample_paths("/a$", &mut out);
        assert_eq!(out, ["/a"]);
        let mut one = String::new();
        for pattern in ["/*.php$", "*.png", "/a$", "/plain"] {
            out.clear();
            sample_paths(pattern, &mut out);
            assert!(sample_into(pattern, &mut one));
            assert_eq!(out, [one.clone()]);
        }
        assert!(!sample_into("$", &mut one));
    }
}
