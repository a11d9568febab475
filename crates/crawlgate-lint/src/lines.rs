//! The source's lines, split as the parser splits them, for spans and for
//! showing the line a finding is on.

use memchr::memchr2;

/// A line of the source: byte range of its content (terminator excluded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SourceLine {
    pub start: usize,
    pub end: usize,
}

/// Splits the source into lines as the parser does: CR, LF and CR LF each end
/// a line; a (prefix of a) UTF-8 BOM at the start is not part of line 1.
pub(crate) fn split_lines(source: &[u8]) -> Vec<SourceLine> {
    let bom = source
        .iter()
        .zip([0xEF, 0xBB, 0xBF])
        .take_while(|(a, b)| **a == *b)
        .count();
    let mut lines = Vec::with_capacity(source.len() / 24 + 1);
    let mut pos = bom;
    loop {
        match memchr2(b'\n', b'\r', &source[pos..]) {
            Some(i) => {
                let end = pos + i;
                lines.push(SourceLine { start: pos, end });
                pos = if source[end] == b'\r' && source.get(end + 1) == Some(&b'\n') {
                    end + 2
                } else {
                    end + 1
                };
            }
            None => {
                lines.push(SourceLine {
                    start: pos,
                    end: source.len(),
                });
                break;
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_like_the_parser() {
        let lines = split_lines(b"\xEF\xBB\xBFa\nb\rc\r\nd");
        let ranges: Vec<_> = lines.iter().map(|l| l.start..l.end).collect();
        assert_eq!(ranges, [3..4, 5..6, 7..8, 10..11]);
        let ends: Vec<_> = split_lines(b"a\n").iter().map(|l| l.start..l.end).collect();
        assert_eq!(ends, [0..1, 2..2]);
    }
}
