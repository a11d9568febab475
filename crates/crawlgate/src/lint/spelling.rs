//! Near misses: "did you mean" by edit distance.

/// Words longer than this are never near misses of anything.
const MAX_LEN: usize = 63;

/// Damerau-style edit distance (insertions, deletions, substitutions and
/// swaps of neighbours), ASCII case-insensitive, giving up past `limit`.
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > limit || a.len() > MAX_LEN || b.len() > MAX_LEN {
        return None;
    }
    let lower = |c: u8| c.to_ascii_lowercase();
    let width = b.len() + 1;
    let mut rows = [[0u8; MAX_LEN + 1]; 3];
    for (j, cell) in rows[1][..width].iter_mut().enumerate() {
        *cell = j as u8;
    }
    // Rolling rows: `two` is two rows up, `prev` the previous row, `this` the
    // row being computed.
    let (mut two, mut prev, mut this) = (0, 1, 2);
    for i in 1..=a.len() {
        rows[this][0] = i as u8;
        let mut best = i as u8;
        for j in 1..=b.len() {
            let cost = u8::from(lower(a[i - 1]) != lower(b[j - 1]));
            let mut d = (rows[prev][j] + 1)
                .min(rows[this][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1
                && j > 1
                && lower(a[i - 1]) == lower(b[j - 2])
                && lower(a[i - 2]) == lower(b[j - 1])
            {
                d = d.min(rows[two][j - 2] + 1);
            }
            rows[this][j] = d;
            best = best.min(d);
        }
        if usize::from(best) > limit {
            return None;
        }
        (two, prev, this) = (prev, this, two);
    }
    let d = usize::from(rows[prev][b.len()]);
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
        if let Some(d) = distance(word, candidate, limit) {
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, candidate));
            }
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
        assert_eq!(
            closest("crawldelay", ["crawl-delay", "allow"], 2),
            Some("crawl-delay")
        );
    }
}
