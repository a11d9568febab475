//! Reading a text file line by line, never keeping more than a bound of
//! one line, so a huge line cannot exhaust memory. The survey's readers use
//! it, and so does `crawlgate batch` for its requests.

use std::io::{self, BufRead};

/// One line as [`read_line`] read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// How many bytes it took in the input, its end included (0 at the end
    /// of the input).
    pub taken: usize,
    /// Whether it was longer than the bound (its start is kept).
    pub cut: bool,
}

/// Reads one line into `line` (cleared first, without its `\n` or `\r\n`),
/// keeping at most `max` bytes and skipping the rest. The bound counts the
/// line's end: a line of `max` bytes and its `\n` is cut.
///
/// ```
/// use crawlgate_survey::input::lines::{read_line, Line};
///
/// let mut input = &b"short\r\nmuch too long\n"[..];
/// let mut line = Vec::new();
/// assert_eq!(read_line(&mut input, &mut line, 8)?, Line { taken: 7, cut: false });
/// assert_eq!(line, b"short");
/// assert_eq!(read_line(&mut input, &mut line, 8)?, Line { taken: 14, cut: true });
/// assert_eq!(line, b"much too");
/// assert_eq!(read_line(&mut input, &mut line, 8)?.taken, 0);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    line.clear();
    let mut taken = 0;
    let mut cut = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        let (used, done) = match memchr::memchr(b'\n', buffer) {
            Some(end) => (end + 1, true),
            None => (buffer.len(), false),
        };
        let room = max.saturating_sub(line.len());
        if used > room {
            cut = true;
        }
        line.extend_from_slice(&buffer[..used.min(room)]);
        reader.consume(used);
        taken += used;
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Line { taken, cut })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded() {
        let mut input = &b"short\r\nmuch too long here\nlast"[..];
        let mut line = Vec::new();
        let first = read_line(&mut input, &mut line, 8).unwrap();
        assert_eq!(
            (line.as_slice(), first.taken, first.cut),
            (&b"short"[..], 7, false)
        );
        let second = read_line(&mut input, &mut line, 8).unwrap();
        assert_eq!(
            (line.as_slice(), second.taken, second.cut),
            (&b"much too"[..], 19, true)
        );
        let third = read_line(&mut input, &mut line, 8).unwrap();
        assert_eq!((line.as_slice(), third.taken), (&b"last"[..], 4));
        assert_eq!(read_line(&mut input, &mut line, 8).unwrap().taken, 0);
    }
}
