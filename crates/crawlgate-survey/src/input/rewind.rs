//! A buffered reader that can go back to a mark, so a damaged gzip member
//! can be searched again for the next member from just past its start,
//! whether the bytes come from a file or a network stream (no `Seek`).
//!
//! The bytes since the mark are kept up to [`MAX_REWIND`]; past that the
//! mark is dropped (a damaged member that large is searched from where
//! decoding stopped).

use std::io::{self, BufRead, Read};

/// The most bytes kept to go back to a mark.
pub const MAX_REWIND: usize = 8 << 20;

/// How much is read from the source at a time.
const READ_SIZE: usize = 256 << 10;

/// A reader with a mark to go back to.
pub(crate) struct Rewind<R> {
    inner: R,
    buffer: Vec<u8>,
    /// The next byte to hand out, in `buffer`.
    at: usize,
    /// Where the mark is, in `buffer`.
    mark: Option<usize>,
    /// The offset of `buffer[0]` in the source.
    base: u64,
    ended: bool,
}

impl<R: Read> Rewind<R> {
    /// Reads `inner`, whose first byte is at `offset` of the source.
    pub(crate) fn new(inner: R, offset: u64) -> Rewind<R> {
        Rewind {
            inner,
            buffer: Vec::new(),
            at: 0,
            mark: None,
            base: offset,
            ended: false,
        }
    }

    /// The offset of the next byte handed out.
    pub(crate) fn position(&self) -> u64 {
        self.base + self.at as u64
    }

    /// Marks the next byte to come back to. The bytes before it are
    /// dropped when the buffer is next refilled, not here: a WARC file's
    /// members are marked one after the other, and moving the rest of the
    /// buffer at every mark copied it once per member.
    pub(crate) fn mark(&mut self) {
        self.mark = Some(self.at);
    }

    /// Goes back to `skip` bytes past the mark; false (and nothing done)
    /// when the mark was dropped or is past.
    pub(crate) fn rewind(&mut self, skip: u64) -> bool {
        match self.mark {
            Some(mark) if (mark as u64 + skip) <= self.buffer.len() as u64 => {
                self.at = mark + skip as usize;
                true
            }
            _ => false,
        }
    }

    /// Drops the bytes before `keep` in the buffer.
    fn compact(&mut self, keep: usize) {
        if keep > 0 {
            self.buffer.drain(..keep);
            self.base += keep as u64;
            self.at -= keep;
            self.mark = self.mark.and_then(|m| m.checked_sub(keep));
        }
    }
}

impl<R: Read> Read for Rewind<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> Rewind<R> {
    /// The bytes available, at least `min` of them unless the source ends
    /// first (a magic number straddling two reads is seen whole).
    pub(crate) fn fill(&mut self, min: usize) -> io::Result<&[u8]> {
        while self.buffer.len() - self.at < min && !self.ended {
            match self.mark {
                Some(mark) if self.buffer.len() - mark > MAX_REWIND => {
                    self.mark = None;
                    self.compact(self.at);
                }
                Some(mark) => self.compact(mark),
                None => self.compact(self.at),
            }
            let start = self.buffer.len();
            self.buffer.resize(start + READ_SIZE, 0);
            let read = loop {
                match self.inner.read(&mut self.buffer[start..]) {
                    Ok(n) => break Ok(n),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => break Err(e),
                }
            };
            match read {
                Ok(n) => {
                    self.buffer.truncate(start + n);
                    self.ended = n == 0;
                }
                Err(e) => {
                    self.buffer.truncate(start);
                    return Err(e);
                }
            }
        }
        Ok(&self.buffer[self.at..])
    }
}

impl<R: Read> BufRead for Rewind<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.fill(1)
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.buffer.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn going_back_to_the_mark_replays_the_bytes() {
        let data: Vec<u8> = (0..1_000_000u32).map(|i| i as u8).collect();
        let mut reader = Rewind::new(&data[..], 100);
        let mut first = vec![0; 10];
        reader.read_exact(&mut first).unwrap();
        assert_eq!(reader.position(), 110);
        reader.mark();
        let mut long = vec![0; 600_000];
        reader.read_exact(&mut long).unwrap();
        assert!(reader.rewind(1));
        assert_eq!(reader.position(), 111);
        let mut again = vec![0; 5];
        reader.read_exact(&mut again).unwrap();
        assert_eq!(again, data[11..16]);
        assert!(!reader.rewind(u64::MAX / 2));
    }

    #[test]
    fn a_mark_too_far_behind_is_dropped() {
        let data = vec![7u8; MAX_REWIND + 2 * READ_SIZE];
        let mut reader = Rewind::new(&data[..], 0);
        reader.mark();
        io::copy(&mut reader, &mut io::sink()).unwrap();
        assert!(!reader.rewind(1));
        assert_eq!(reader.position(), data.len() as u64);
    }
}
