//! Characters of a source line as people see them: lossy UTF-8 decoding
//! (a valid character, or one `U+FFFD` per invalid sequence), found once per
//! line so that the characters of any byte range are counted in constant
//! time, however many findings the line has.

use std::ops::Range;

/// One line's characters, control characters shown as `U+FFFD` (tabs kept),
/// and where each starts.
pub(crate) struct LineChars {
    /// The characters, one per decoding unit.
    shown: Vec<char>,
    /// `unit_at[i]`: the unit holding byte `i`; `unit_at[len]` is the number
    /// of units.
    unit_at: Vec<u32>,
    /// `unit_start[u]`: the first byte of unit `u`; `unit_start[units]` is
    /// the line's length.
    unit_start: Vec<u32>,
    bytes_len: usize,
}

/// What a person is shown for a character.
fn shown(c: char) -> char {
    if c.is_control() && c != '\t' {
        char::REPLACEMENT_CHARACTER
    } else {
        c
    }
}

/// The characters lossy decoding gives for a few bytes.
fn decode_small(bytes: &[u8]) -> impl Iterator<Item = char> + '_ {
    bytes.utf8_chunks().flat_map(|chunk| {
        let invalid = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        chunk.valid().chars().chain(invalid)
    })
}

impl LineChars {
    pub(crate) fn new(bytes: &[u8]) -> LineChars {
        let mut shown_chars = Vec::with_capacity(bytes.len());
        let mut unit_at = Vec::with_capacity(bytes.len() + 1);
        let mut unit_start = Vec::with_capacity(bytes.len() + 1);
        let mut push = |c: char, width: usize, shown_chars: &mut Vec<char>| {
            let unit = shown_chars.len() as u32;
            unit_start.push(unit_at.len() as u32);
            unit_at.extend(std::iter::repeat_n(unit, width));
            shown_chars.push(shown(c));
        };
        for chunk in bytes.utf8_chunks() {
            for c in chunk.valid().chars() {
                push(c, c.len_utf8(), &mut shown_chars);
            }
            if !chunk.invalid().is_empty() {
                push(
                    char::REPLACEMENT_CHARACTER,
                    chunk.invalid().len(),
                    &mut shown_chars,
                );
            }
        }
        unit_at.push(shown_chars.len() as u32);
        unit_start.push(bytes.len() as u32);
        LineChars {
            shown: shown_chars,
            unit_at,
            unit_start,
            bytes_len: bytes.len(),
        }
    }

    /// Every character of the line.
    pub(crate) fn all(&self) -> &[char] {
        &self.shown
    }

    fn is_start(&self, i: usize) -> bool {
        i == 0 || i == self.bytes_len || self.unit_at[i] != self.unit_at[i - 1]
    }

    /// The unit boundaries nearest inside `range`: the first at or after its
    /// start, the last at or before its end.
    fn inner_bounds(&self, range: &Range<usize>) -> (usize, usize) {
        let from = if self.is_start(range.start) {
            range.start
        } else {
            self.unit_start[self.unit_at[range.start] as usize + 1] as usize
        };
        let to = if self.is_start(range.end) {
            range.end
        } else {
            self.unit_start[self.unit_at[range.end] as usize] as usize
        };
        (from, to)
    }

    /// How many characters lossy decoding gives for `bytes[range]` alone
    /// (`String::from_utf8_lossy(&bytes[range]).chars().count()`).
    ///
    /// Decoding `range` alone differs from the line's decoding only at its
    /// ends: bytes before its first unit boundary are continuation bytes (one
    /// `U+FFFD` each) and bytes after its last boundary are a cut sequence
    /// (one `U+FFFD`); the whole units between decode as in the line.
    pub(crate) fn count(&self, bytes: &[u8], range: Range<usize>) -> usize {
        let (from, to) = self.inner_bounds(&range);
        if from >= to {
            return decode_small(&bytes[range]).count();
        }
        decode_small(&bytes[range.start..from]).count()
            + (self.unit_at[to] - self.unit_at[from]) as usize
            + decode_small(&bytes[to..range.end]).count()
    }

    /// The characters lossy decoding gives for `bytes[..end]` alone, as
    /// shown, from the `skip`-th on.
    pub(crate) fn before(&self, bytes: &[u8], end: usize, skip: usize) -> Vec<char> {
        let (_, to) = self.inner_bounds(&(0..end));
        let whole = self.unit_at[to] as usize;
        let tail = decode_small(&bytes[to..end]).map(shown);
        self.shown[skip.min(whole)..whole]
            .iter()
            .copied()
            .chain(tail)
            .skip(skip.saturating_sub(whole))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_test_support::Rng;

    fn lossy(bytes: &[u8]) -> Vec<char> {
        String::from_utf8_lossy(bytes).chars().map(shown).collect()
    }

    /// Every range of many byte strings, valid and broken UTF-8 mixed,
    /// against decoding the range alone.
    #[test]
    fn counts_agree_with_decoding_each_range_alone() {
        let pieces: [&[u8]; 12] = [
            b"a",
            b"\t",
            "é".as_bytes(),
            "€".as_bytes(),
            "𝄞".as_bytes(),
            b"\x80",
            b"\xE2\x82",
            b"\xF0\x90",
            b"\xE0\x80",
            b"\xFF",
            b"\x01",
            b"\xC3",
        ];
        let mut rng = Rng::new(7);
        for _ in 0..400 {
            let mut line = Vec::new();
            for _ in 0..8 {
                line.extend_from_slice(rng.pick(&pieces));
            }
            let chars = LineChars::new(&line);
            assert_eq!(chars.all(), lossy(&line).as_slice());
            for a in 0..=line.len() {
                for b in a..=line.len() {
                    assert_eq!(
                        chars.count(&line, a..b),
                        lossy(&line[a..b]).len(),
                        "{line:?} {a}..{b}"
                    );
                }
                for skip in 0..4 {
                    let expected: Vec<char> = lossy(&line[..a]).into_iter().skip(skip).collect();
                    assert_eq!(
                        chars.before(&line, a, skip),
                        expected,
                        "{line:?} ..{a} skip {skip}"
                    );
                }
            }
        }
    }
}
