//! What two readings' patterns have in common, for the checks that
//! compare readings: whether Yandex's `*` matches a pattern as Google's
//! does, and whether two patterns can match one path.

/// Whether Yandex's `*`, which never goes back (the core's
/// `restart_segments_match`), matches this wildcard pattern exactly as
/// Google's does. Each literal segment after a `*` is looked for byte by
/// byte, a broken partial match starting again at the byte that broke it:
/// that finds a segment's first occurrence, as Google's `*` does, unless
/// an occurrence can start inside a broken partial match, which takes the
/// segment's first byte again inside it (before its last byte; before its
/// end for the last segment of an anchored pattern, whose occurrence must
/// end the path). Leftmost occurrences are then all an unanchored match
/// needs. A `$` before the end is read literally by one reading only.
pub(crate) fn restart_alike(pattern: &str) -> bool {
    let (body, anchored) = match pattern.strip_suffix('$') {
        Some(body) => (body, true),
        None => (pattern, false),
    };
    if body.contains('$') {
        return false;
    }
    let Some(star) = body.find('*') else {
        return true;
    };
    let anchored = anchored && !body.ends_with('*');
    let segments: Vec<&[u8]> = body.as_bytes()[star + 1..]
        .split(|&b| b == b'*')
        .filter(|s| !s.is_empty())
        .collect();
    let last = segments.len().saturating_sub(1);
    segments.iter().enumerate().all(|(i, segment)| {
        let end = if anchored && i == last {
            segment.len()
        } else {
            segment.len() - 1
        };
        !segment.get(1..end).unwrap_or(&[]).contains(&segment[0])
    })
}

/// The literal start every path a pattern matches (in Google's reading)
/// begins with: up to its first `*` or `$`.
pub(crate) fn literal_start(pattern: &str) -> &[u8] {
    if !pattern.starts_with('/') {
        return b"";
    }
    let end = pattern.find(['*', '$']).unwrap_or(pattern.len());
    &pattern.as_bytes()[..end]
}

/// Whether two rules starting so can match one path: one start is a
/// prefix of the other.
pub(crate) fn may_overlap(a: &[u8], b: &[u8]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}
