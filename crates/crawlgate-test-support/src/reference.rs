//! Google's matching algorithm, literally.

/// Whether the robots.txt `pattern` matches `path`, as Google's library
/// decides it: a set of reachable path positions advanced one pattern byte
/// at a time (O(path × pattern)), `*` any run of bytes, a final `$` the end.
/// The fast matchers and the oracles are checked against it.
///
/// ```
/// use crawlgate_test_support::reference_matches;
///
/// assert!(reference_matches(b"/fish", b"/fish.html"));
/// assert!(reference_matches(b"/*.php$", b"/a/b.php"));
/// assert!(!reference_matches(b"/*.php$", b"/a/b.php?x"));
/// ```
pub fn reference_matches(pattern: &[u8], path: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (i, &p) in pattern.iter().enumerate() {
        if p == b'$' && i + 1 == pattern.len() {
            return positions.last() == Some(&path.len());
        }
        if p == b'*' {
            let from = positions[0];
            positions = (from..=path.len()).collect();
        } else {
            positions.retain(|&pos| pos < path.len() && path[pos] == p);
            for pos in &mut positions {
                *pos += 1;
            }
            if positions.is_empty() {
                return false;
            }
        }
    }
    true
}
