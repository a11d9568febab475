//! Word-at-a-time byte search for short inputs: robots.txt field names,
//! values and URL paths are a few dozen bytes, where setting up a SIMD
//! search costs more than looking at eight bytes at a time.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes at `at`, little-endian, if there are eight.
#[inline]
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk = bytes.get(at..at + 8)?;
    Some(u64::from_le_bytes(chunk.try_into().expect("8 bytes")))
}

/// A mask with the high bit of every byte of `word` equal to `byte` (a byte
/// of `word ^ byte…` is zero iff `(x - 0x01…) & !x & 0x80…` flags it). Bytes
/// above a match may be flagged too, as a borrow runs upwards, so only the
/// lowest flag is exact: use `trailing_zeros() / 8` for the first match, and
/// `!= 0` for "any".
#[inline]
pub(crate) fn matching(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
