//! Word-at-a-time byte search for short inputs: robots.txt field names,
//! values and URL paths are a few dozen bytes, where setting up a SIMD
//! search costs more than looking at eight bytes at a time.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `at`, little-endian, if there are eight.
#[inline(always)]
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(*bytes.get(at..)?.first_chunk::<8>()?))
}

/// The (up to) eight bytes at `at`, little-endian, zero past the end.
#[inline(always)]
pub(crate) fn word_padded(bytes: &[u8], at: usize) -> u64 {
    if let Some(last) = bytes.len().checked_sub(8)
        && at <= last
    {
        return u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    }
    let rest = bytes.get(at..).unwrap_or_default();
    match bytes.last_chunk::<8>() {
        // The last eight bytes, shifted so that the byte at `at` comes first.
        Some(last) if !rest.is_empty() => u64::from_le_bytes(*last) >> (8 * (8 - rest.len())),
        Some(_) => 0,
        None => rest
            .iter()
            .rev()
            .fold(0, |word, &b| word << 8 | u64::from(b)),
    }
}

/// The set of bytes in `bytes`, folded to 64 bits (one bit per class of
/// [`BYTE_CLASS`]): a cheap, conservative stand-in for "contains every
/// byte of".
#[inline]
pub(crate) fn byte_set(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0, |set, &b| set | BYTE_CLASS[usize::from(b)])
}

/// Each byte's bit in [`byte_set`]. Folding by `b % 64` put `.` on `n`,
/// `&` on `f` and `%` on `e`: a glob such as `/misc/*.png` passed the
/// filter for most paths. Here letters (either case) and digits have bits
/// of their own, and so has the punctuation URLs and rules use; the rest
/// share the few bits left.
static BYTE_CLASS: [u64; 256] = byte_classes();

/// The bits of [`byte_set`] that `#` and NUL set (the bytes that end a
/// path read from a URL): a string whose set lacks them holds neither.
pub(crate) const PATH_END_CLASSES: u64 = {
    let table = byte_classes();
    table[b'#' as usize] | table[0]
};

const fn byte_classes() -> [u64; 256] {
    const PUNCTUATION: &[u8] = b"./-_?=&%+,;:~!@$'()";
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        let class = match byte {
            b'a'..=b'z' => byte - b'a',
            b'A'..=b'Z' => byte - b'A',
            b'0'..=b'9' => 26 + byte - b'0',
            0x80..=0xBF => 61,
            0xC0..=0xFF => 62,
            _ => {
                let mut class = 63;
                let mut i = 0;
                while i < PUNCTUATION.len() {
                    if PUNCTUATION[i] == byte {
                        class = 36 + i as u8;
                    }
                    i += 1;
                }
                if class == 63 && byte >= b' ' {
                    // The other printable ASCII bytes, six classes.
                    class = 55 + byte % 6;
                }
                class
            }
        };
        table[b] = 1 << class;
        b += 1;
    }
    table
}

/// Whether two equally long byte strings are equal, eight bytes at a
/// time: they are short, and a call into `memcmp` costs more.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let mut a_words = a.chunks_exact(8);
    let mut b_words = b.chunks_exact(8);
    for (x, y) in a_words.by_ref().zip(b_words.by_ref()) {
        if u64::from_ne_bytes(x.try_into().expect("8 bytes"))
            != u64::from_ne_bytes(y.try_into().expect("8 bytes"))
        {
            return false;
        }
    }
    a_words
        .remainder()
        .iter()
        .zip(b_words.remainder())
        .all(|(x, y)| x == y)
}

/// A mask with the high bit of every byte of `word` equal to `byte` (a byte
/// of `word ^ byte…` is zero iff `(x - 0x01…) & !x & 0x80…` flags it). Bytes
/// above a match may be flagged too, as a borrow runs upwards, so only the
/// lowest flag is exact: use `trailing_zeros() / 8` for the first match, and
/// `!= 0` for "any".
#[inline(always)]
pub(crate) fn matching(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// A mask with the high bit of exactly the bytes of `word` equal to
/// `byte`: a byte of `x = word ^ byte…` is zero iff adding `0x7F` to its low
/// seven bits does not reach its high bit and that bit is clear. No borrow
/// crosses bytes, so every flag is exact.
#[inline(always)]
pub(crate) fn exactly(word: u64, byte: u8) -> u64 {
    const LOWS: u64 = !HIGHS;
    let x = word ^ (ONES * u64::from(byte));
    !(((x & LOWS) + LOWS) | x) & HIGHS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_test_support::Rng;

    #[test]
    fn exact_flags_are_every_match_and_nothing_else() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            // Few distinct bytes, so that matches next to each other are common.
            let bytes = rng
                .next_u64()
                .to_le_bytes()
                .map(|b| [0, 1, 0x7F, 0x80, 0xFF, b'#'][b as usize % 6]);
            let word = u64::from_le_bytes(bytes);
            for byte in [0, 1, 0x7F, 0x80, 0xFF, b'#'] {
                let expected = bytes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b == byte)
                    .fold(0, |m, (i, _)| m | 0x80 << (8 * i));
                assert_eq!(exactly(word, byte), expected, "{bytes:?} {byte}");
            }
        }
    }

    #[test]
    fn lowest_flag_is_the_first_match() {
        for at in 0..8 {
            let mut bytes = [0xFFu8; 8];
            bytes[at] = b':';
            if at + 1 < 8 {
                bytes[at + 1] = b':' + 1; // a near miss above the match
            }
            let mask = matching(u64::from_le_bytes(bytes), b':');
            assert_eq!(mask.trailing_zeros() / 8, at as u32);
        }
        assert_eq!(matching(u64::from_le_bytes(*b"abcdefgh"), b':'), 0);
        assert_eq!(word_at(b"1234567", 0), None);
    }

    #[test]
    fn padded_words_hold_the_bytes_left() {
        for len in 0..20 {
            let bytes: Vec<u8> = (1..=len as u8).collect();
            for at in 0..=len + 2 {
                let mut expected = [0u8; 8];
                for (i, slot) in expected.iter_mut().enumerate() {
                    *slot = bytes.get(at + i).copied().unwrap_or(0);
                }
                assert_eq!(
                    word_padded(&bytes, at),
                    u64::from_le_bytes(expected),
                    "len {len} at {at}"
                );
            }
        }
        assert!(same(b"0123456789", b"0123456789"));
        assert!(!same(b"0123456789", b"0123456780"));
        assert!(!same(b"01234567", b"01234568"));
    }

    #[test]
    fn byte_classes_separate_what_urls_and_rules_hold() {
        // One bit each, and a set holds the bit of each of its bytes.
        for b in 0..=255u8 {
            assert_eq!(BYTE_CLASS[usize::from(b)].count_ones(), 1, "{b}");
            assert_eq!(
                byte_set(&[b, b'a']) & BYTE_CLASS[usize::from(b)],
                BYTE_CLASS[usize::from(b)]
            );
        }
        let distinct = b"abcdefghijklmnopqrstuvwxyz0123456789./-_?=&%+,;:~!@$'()";
        for (i, &x) in distinct.iter().enumerate() {
            for &y in &distinct[i + 1..] {
                assert_ne!(
                    byte_set(&[x]),
                    byte_set(&[y]),
                    "{} {}",
                    x as char,
                    y as char
                );
            }
        }
        assert_eq!(byte_set(b"PNG"), byte_set(b"png"));
        assert_eq!(byte_set(b""), 0);
    }
}
