//! Reasoning about what patterns match: whether one pattern matches every
//! path another one matches (to prove a rule can never decide), and sample
//! paths a pattern matches (to compare readings on concrete URLs).

use crate::budget::Budget;

/// One element of a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Byte(u8),
    /// Any run of bytes, the empty one included.
    Star,
}

/// A pattern as the set of paths it matches: a prefix match is a glob ending
/// in `*`; an anchored one ends without.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Glob {
    items: Vec<Item>,
    /// The items as bytes, a star as NUL (which no pattern holds).
    text: Vec<u8>,
}

const STAR_BYTE: u8 = 0;

/// Longest pattern reasoned about; longer ones are left alone.
const MAX_ITEMS: usize = 4096;

impl Glob {
    /// The glob of a normalised rule pattern as a reading matches it;
    /// `None` for a pattern that matches nothing (or everything: the empty
    /// pattern, which is a rule that is never a real match) and for very
    /// long patterns.
    pub(crate) fn new(pattern: &str, wildcards: bool) -> Option<Glob> {
        let bytes = pattern.as_bytes();
        if bytes.is_empty() || bytes.len() > MAX_ITEMS {
            return None;
        }
        let mut items = Vec::with_capacity(bytes.len() + 1);
        if !wildcards {
            if bytes == b"*" {
                items.push(Item::Star);
                return Some(Glob::from_items(items));
            }
            if bytes[0] != b'/' {
                return None;
            }
            items.extend(bytes.iter().map(|&b| Item::Byte(b)));
            items.push(Item::Star);
            return Some(Glob::from_items(items));
        }
        if bytes[0] != b'/' && bytes[0] != b'*' {
            return None;
        }
        let (anchored, body) = match bytes.split_last() {
            Some((b'$', body)) => (true, body),
            _ => (false, bytes),
        };
        for &b in body {
            let item = if b == b'*' { Item::Star } else { Item::Byte(b) };
            if !(item == Item::Star && items.last() == Some(&Item::Star)) {
                items.push(item);
            }
        }
        if !anchored && items.last() != Some(&Item::Star) {
            items.push(Item::Star);
        }
        Some(Glob::from_items(items))
    }

    fn from_items(items: Vec<Item>) -> Glob {
        let text = items
            .iter()
            .map(|item| match item {
                Item::Byte(b) => *b,
                Item::Star => STAR_BYTE,
            })
            .collect();
        Glob { items, text }
    }

    /// Whether every path `other` matches is also matched by `self`.
    ///
    /// Sound, and conservative: `other`'s stars are treated as symbols only
    /// `self`'s stars can absorb, so `true` is a proof; `false` may also mean
    /// "could not tell", as when `budget` does not cover the work (a byte
    /// compared is a unit).
    pub(crate) fn includes(&self, other: &Glob, budget: &Budget) -> bool {
        /// Setting up the substring searches, whatever the lengths.
        const CALL: usize = 32;
        let a = &other.items;
        if self.items.len().saturating_mul(a.len()) > 1 << 22
            || !budget.spend(CALL + self.items.len() + a.len())
        {
            return false;
        }
        // An anchored pattern never includes an unanchored one.
        if self.items.last() != Some(&Item::Star) && a.last() == Some(&Item::Star) {
            return false;
        }
        // Each literal run of `self` must occur, in order, among the bytes
        // of `other` (stars match only stars): a cheap necessary condition.
        let mut from = 0;
        for run in self
            .text
            .split(|&b| b == STAR_BYTE)
            .filter(|r| !r.is_empty())
        {
            match memchr::memmem::find(&other.text[from..], run) {
                Some(at) => from += at + run.len(),
                None => return false,
            }
        }
        if !budget.spend(self.items.len() * a.len()) {
            return false;
        }
        // reach[j]: the items of `self` seen so far can produce a[..j].
        let mut reach = vec![false; a.len() + 1];
        reach[0] = true;
        let mut next = vec![false; a.len() + 1];
        for item in &self.items {
            match item {
                Item::Star => {
                    let mut any = false;
                    for j in 0..=a.len() {
                        any |= reach[j];
                        next[j] = any;
                    }
                }
                Item::Byte(b) => {
                    next[0] = false;
                    for j in 1..=a.len() {
                        next[j] = reach[j - 1] && a[j - 1] == Item::Byte(*b);
                    }
                }
            }
            std::mem::swap(&mut reach, &mut next);
            if !reach.iter().any(|&r| r) {
                return false;
            }
        }
        reach[a.len()]
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
