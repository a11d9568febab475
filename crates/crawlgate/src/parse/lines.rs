//! Splitting the input into lines, zero-copy, exactly as Google's reference
//! does: CR, LF and CR LF each end a line; a UTF-8 byte order mark (or a
//! prefix of one) at the very start is skipped; only the first
//! `max_line_bytes` bytes of a line are read.

use memchr::memchr2;

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
}

pub(crate) struct Lines<'a> {
    input: &'a [u8],
    pos: usize,
    number: u32,
    done: bool,
    max_line_bytes: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(input: &'a [u8], start: usize, max_line_bytes: usize) -> Self {
        Lines {
            input,
            pos: start,
            number: 0,
            done: false,
            max_line_bytes,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.done {
            return None;
        }
        let start = self.pos;
        let rest = &self.input[start..];
        let (len, terminator, bare_cr) = match memchr2(b'\n', b'\r', rest) {
            Some(i) if rest[i] == b'\r' => {
                if rest.get(i + 1) == Some(&b'\n') {
                    (i, 2, false)
                } else {
                    (i, 1, true)
                }
            }
            Some(i) => (i, 1, false),
            None => {
                self.done = true;
                (rest.len(), 0, false)
            }
        };
        self.pos = start + len + terminator;
        self.number += 1;
        let read = len.min(self.max_line_bytes);
        Some(Line {
            number: self.number,
            start,
            bytes: &rest[..read],
            cut: len - read,
            bare_cr,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(u32, &[u8])> {
        Lines::new(input, 0, usize::MAX)
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
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..2_000 {
            let len = (round % 300) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    match rng % (4 + round % 40) {
                        0 => b'\n',
                        1 => b'\r',
                        _ => b'a' + (rng % 3) as u8,
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
            let got: Vec<&[u8]> = Lines::new(&input, 0, usize::MAX).map(|l| l.bytes).collect();
            assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(&input));
        }
    }

    #[test]
    fn long_lines_are_cut() {
        let line = Lines::new(b"abcdef\nx", 0, 4).next().unwrap();
        assert_eq!(line.bytes, b"abcd");
        assert_eq!(line.cut, 2);
    }
}
