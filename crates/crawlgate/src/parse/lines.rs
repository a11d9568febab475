//! Splitting the input into lines, zero-copy, exactly as Google's reference
//! does: CR, LF and CR LF each end a line; a UTF-8 byte order mark (or a
//! prefix of one) at the very start is skipped; only the first
//! `max_line_bytes` bytes of a line are read.

use super::split;
use crate::scan;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// How many leading bytes of `input` are (a prefix of) a UTF-8 BOM.
pub(crate) fn bom_len(input: &[u8]) -> usize {
    input.iter().zip(BOM).take_while(|(a, b)| **a == *b).count()
}

/// The length of the input that is read under a byte limit: everything up to
/// the limit, minus a last line the limit cuts.
pub(crate) fn limited_len(input: &[u8], max_bytes: usize) -> usize {
    if input.len() <= max_bytes {
        return input.len();
    }
    // The line is whole if its terminator is the first byte past the limit.
    if matches!(input[max_bytes], b'\n' | b'\r') {
        return max_bytes;
    }
    memchr::memrchr2(b'\n', b'\r', &input[..max_bytes]).map_or(0, |i| i + 1)
}

/// One physical line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Line<'a> {
    /// 1-based.
    pub number: u32,
    /// Offset of the line's first byte in the input.
    pub start: usize,
    /// The bytes read (at most `max_line_bytes`), terminator excluded.
    pub bytes: &'a [u8],
    /// Bytes of the line past `max_line_bytes` that are ignored.
    pub cut: usize,
    /// Whether the line ended with a bare CR.
    pub bare_cr: bool,
    /// Where in `bytes` the comment starts (its first `#`), or the length
    /// of `bytes`, when found in the same search as the line's end;
    /// [`NOT_SEARCHED`] when lines are read without looking for comments.
    pub comment: usize,
}

/// [`Line::comment`] when comments were not looked for.
const NOT_SEARCHED: usize = usize::MAX;

impl<'a> Line<'a> {
    /// The bytes read, up to the comment.
    #[inline]
    pub(crate) fn before_comment(&self) -> &'a [u8] {
        let end = match self.comment {
            NOT_SEARCHED => split::find_either(self.bytes, b'#', b'#').unwrap_or(self.bytes.len()),
            comment => comment,
        };
        &self.bytes[..end]
    }
}

pub(crate) struct Lines<'a> {
    input: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    max_line_bytes: usize,
    comments: bool,
    /// Where the 64-byte block that `stops` describes starts.
    base: usize,
    /// The bytes of that block a line search stops at (CR, LF and, with
    /// `comments`, `#`), a bit each, those before `pos` cleared.
    stops: u64,
}

impl<'a> Lines<'a> {
    /// The lines of `input` from `start`; with `comments`, each line's
    /// comment is found in the search for its end (a reader that looks at
    /// most lines whole), else only when asked for (one that skips most).
    pub(crate) fn new(
        input: &'a [u8],
        start: usize,
        max_line_bytes: usize,
        comments: bool,
    ) -> Self {
        Lines {
            input,
            pos: start,
            number: 0,
            done: false,
            max_line_bytes,
            comments,
            base: start,
            stops: block_stops(input.get(start..).unwrap_or_default(), comments),
        }
    }

    /// The next byte a line search stops at, from `pos` on.
    #[inline(always)]
    fn next_stop(&mut self) -> Option<usize> {
        while self.stops == 0 {
            self.base += 64;
            let block = self.input.get(self.base..).filter(|b| !b.is_empty())?;
            // The LF of a CR LF that ends the block before is behind `pos`.
            let behind = self.pos.saturating_sub(self.base);
            self.stops = block_stops(block, self.comments)
                & u64::MAX.checked_shl(behind as u32).unwrap_or(0);
        }
        let at = self.base + self.stops.trailing_zeros() as usize;
        self.stops &= self.stops - 1;
        Some(at)
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.done {
            return None;
        }
        let start = self.pos;
        let input = self.input;
        // One pass over the bytes finds the line's end and its comment.
        let mut comment = usize::MAX;
        let end = loop {
            match self.next_stop() {
                Some(at) if input[at] == b'#' => comment = comment.min(at - start),
                end => break end,
            }
        };
        let (len, terminator, bare_cr) = match end {
            Some(i) if input[i] == b'\r' => {
                if input.get(i + 1) == Some(&b'\n') {
                    // The LF is the next stop: it ends nothing.
                    if i + 1 < self.base + 64 {
                        self.stops &= self.stops - 1;
                    }
                    (i - start, 2, false)
                } else {
                    (i - start, 1, true)
                }
            }
            Some(i) => (i - start, 1, false),
            None => {
                self.done = true;
                (input.len() - start, 0, false)
            }
        };
        self.pos = start + len + terminator;
        self.number += 1;
        let read = len.min(self.max_line_bytes);
        Some(Line {
            number: self.number,
            start,
            bytes: &input[start..start + read],
            cut: len - read,
            bare_cr,
            comment: if self.comments {
                comment.min(read)
            } else {
                NOT_SEARCHED
            },
        })
    }
}

/// The bytes among the first 64 of `bytes` that a line search stops at:
/// CR, LF and, with `comments`, `#`, a bit each (bit `i` for byte `i`).
/// Lines are a few dozen bytes: classifying 64 at a time and walking the
/// bits beats starting a search for every line.
#[inline(always)]
fn block_stops(bytes: &[u8], comments: bool) -> u64 {
    let third = if comments { b'#' } else { b'\n' };
    match bytes.first_chunk::<64>() {
        Some(block) => classify(block, third),
        None => {
            let mut block = [0u8; 64];
            block[..bytes.len()].copy_from_slice(bytes);
            classify(&block, third)
        }
    }
}

/// The bytes of `block` that are CR, LF or `third`, a bit each: SSE2,
/// sixteen bytes a step.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn classify(block: &[u8; 64], third: u8) -> u64 {
    use safe_arch::{
        cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i,
    };
    let [lf, cr, third] = [b'\n', b'\r', third].map(|b| set_splat_i8_m128i(b as i8));
    let mut stops = 0;
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        let v = load_unaligned_m128i(chunk.try_into().expect("16 bytes"));
        let hits = cmp_eq_mask_i8_m128i(v, lf)
            | cmp_eq_mask_i8_m128i(v, cr)
            | cmp_eq_mask_i8_m128i(v, third);
        stops |= u64::from(move_mask_i8_m128i(hits) as u16) << (16 * k);
    }
    stops
}

/// The bytes of `block` that are CR, LF or `third`, a bit each: eight
/// bytes a step.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn classify_words(block: &[u8; 64], third: u8) -> u64 {
    let mut stops = 0;
    for (k, chunk) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let hits =
            scan::exactly(word, b'\n') | scan::exactly(word, b'\r') | scan::exactly(word, third);
        // The high bit of each byte, gathered into the top byte.
        let bits = ((hits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
        stops |= u64::from(bits) << (8 * k);
    }
    stops
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use classify_words as classify;

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_test_support::Rng;

    #[test]
    fn comments_are_found_with_the_line_end() {
        let input = b"a#b\nno comment\r#\r\nx # y # z\nlong#";
        let found: Vec<(&[u8], &[u8])> = Lines::new(input, 0, usize::MAX, true)
            .map(|l| (l.bytes, l.before_comment()))
            .collect();
        assert_eq!(
            found,
            [
                (&b"a#b"[..], &b"a"[..]),
                (b"no comment", b"no comment"),
                (b"#", b""),
                (b"x # y # z", b"x "),
                (b"long#", b"long"),
            ]
        );
        // A comment past the line's limit is not in what is read.
        let line = Lines::new(b"abcdef#\n", 0, 4, true).next().unwrap();
        assert_eq!(
            (line.bytes, line.before_comment()),
            (&b"abcd"[..], &b"abcd"[..])
        );
        // Read without looking for comments, the same when asked.
        for (with, without) in
            Lines::new(input, 0, usize::MAX, true).zip(Lines::new(input, 0, usize::MAX, false))
        {
            assert_eq!(with.before_comment(), without.before_comment());
        }
    }

    fn lines(input: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(input, 0, usize::MAX, true)
            .map(|l| (l.number, l.bytes))
            .collect()
    }

    #[test]
    fn every_line_ending_counts_once() {
        assert_eq!(
            lines(b"a\nb\rc\r\nd"),
            vec![(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b"d")]
        );
        // LF CR is two line ends; CR CR LF is two as well.
        assert_eq!(lines(b"a\n\rb").len(), 3);
        assert_eq!(lines(b"a\r\r\nb").len(), 3);
    }

    #[test]
    fn bom_prefixes_are_skipped() {
        assert_eq!(bom_len(b"\xEF\xBB\xBFUser"), 3);
        assert_eq!(bom_len(b"\xEF\xBBUser"), 2);
        assert_eq!(bom_len(b"User"), 0);
        assert_eq!(bom_len(b"\xBB\xBF"), 0);
    }

    #[test]
    fn limit_drops_a_cut_line() {
        assert_eq!(limited_len(b"ab\ncd\nef", 4), 3);
        assert_eq!(limited_len(b"ab\ncd\nef", 6), 6);
        assert_eq!(limited_len(b"ab\ncd\nef", 5), 5);
        // The terminator right past the limit keeps the line whole.
        assert_eq!(limited_len(b"abcd\nef", 4), 4);
        assert_eq!(limited_len(b"abcdef", 4), 0);
        assert_eq!(limited_len(b"ab", 4), 2);
    }

    #[test]
    fn lines_end_where_the_bytes_say_wherever_they_fall() {
        // Line ends anywhere: next to each other, in long lines, at the
        // very start and the very end.
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for round in 0..2_000 {
            let len = (round % 300) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    let bits = rng.next_u64();
                    match bits % (5 + round % 40) {
                        0 => b'\n',
                        1 => b'\r',
                        2 => b'#',
                        _ => b'a' + (bits % 3) as u8,
                    }
                })
                .collect();
            let mut expected = Vec::new();
            let mut start = 0;
            let mut i = 0;
            while i < input.len() {
                match input[i] {
                    b'\r' if input.get(i + 1) == Some(&b'\n') => {
                        expected.push(&input[start..i]);
                        i += 2;
                        start = i;
                    }
                    b'\r' | b'\n' => {
                        expected.push(&input[start..i]);
                        i += 1;
                        start = i;
                    }
                    _ => i += 1,
                }
            }
            expected.push(&input[start..]);
            let got: Vec<&[u8]> = Lines::new(&input, 0, usize::MAX, true)
                .map(|l| l.bytes)
                .collect();
            assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(&input));
            // Each line's comment starts at its first `#`, found in the
            // same pass or when asked.
            for comments in [true, false] {
                let before: Vec<&[u8]> = Lines::new(&input, 0, usize::MAX, comments)
                    .map(|l| l.before_comment())
                    .collect();
                let cut: Vec<&[u8]> = expected
                    .iter()
                    .map(|l| &l[..l.iter().position(|&b| b == b'#').unwrap_or(l.len())])
                    .collect();
                assert_eq!(before, cut);
            }
            // Started inside the input, lines are those of the rest.
            let from = input.len() / 3;
            let rest: Vec<&[u8]> = Lines::new(&input, from, usize::MAX, true)
                .map(|l| l.bytes)
                .collect();
            let again: Vec<&[u8]> = Lines::new(&input[from..], 0, usize::MAX, true)
                .map(|l| l.bytes)
                .collect();
            assert_eq!(rest, again);
        }
    }

    #[test]
    fn both_classifiers_find_every_stop() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..5_000 {
            let mut block = [0u8; 64];
            for b in &mut block {
                *b = rng.pick(&[b'\n', b'\r', b'#', b'a', 0x8A, 0x8D, 0xA3, 0]);
            }
            for third in [b'#', b'\n'] {
                let expected = block
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| b == b'\n' || b == b'\r' || b == third)
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                assert_eq!(classify(&block, third), expected);
                assert_eq!(classify_words(&block, third), expected);
            }
        }
    }

    #[test]
    fn long_lines_are_cut() {
        let line = Lines::new(b"abcdef\nx", 0, 4, true).next().unwrap();
        assert_eq!(line.bytes, b"abcd");
        assert_eq!(line.cut, 2);
    }
}
