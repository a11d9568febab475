//! Near misses: "did you mean" by edit distance.

/// Words longer than this are never near misses of anything (and keep the
/// distance cheap).
const MAX_LEN: usize = 63;

/// Edit distance counting insertions, deletions, substitutions and swaps of
/// neighbours (optimal string alignment), over bytes, ASCII
/// case-insensitive; `None` past `limit`.
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit || a.len() > MAX_LEN || b.len() > MAX_LEN {
        return None;
    }
    // One char per byte, so that a multi-byte character counts as the bytes
    // it is made of, as everywhere else in robots.txt.
    let bytes = |s: &str| -> String {
        s.bytes()
            .map(|b| char::from(b.to_ascii_lowercase()))
            .collect()
    };
    let d = strsim::osa_distance(&bytes(a), &bytes(b));
    (d <= limit).then_some(d)
}

/// The candidate closest to `word` within `limit` edits (ties: the first).
pub(crate) fn closest<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    limit: usize,
) -> Option<&'c str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if let Some(d) = distance(word, candidate, limit)
            && best.is_none_or(|(b, _)| d < b)
        {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("dissalow", "disallow", 2), Some(2));
        assert_eq!(distance("Alow", "allow", 2), Some(1));
        assert_eq!(distance("GPTBot", "gptbot", 0), Some(0));
        assert_eq!(distance("GTPBot", "GPTBot", 2), Some(1));
        assert_eq!(distance("Googlebot", "Bingbot", 2), None);
        assert_eq!(distance("", "ab", 2), Some(2));
        assert_eq!(distance("abc", "", 2), None);
        // Bytes, not characters: `é` is two bytes away from `e`.
        assert_eq!(distance("allöw", "allow", 2), Some(2));
        assert_eq!(
            closest("crawldelay", ["crawl-delay", "allow"], 2),
            Some("crawl-delay")
        );
    }
}
