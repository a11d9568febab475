//! A buffered reader whose buffer outlives it: a WARC file's gzip members
//! are each read through a reader of their own, and a fresh
//! `std::io::BufReader` per member allocated and zeroed its whole buffer
//! every time (64 KiB for a member of a few KiB).

use std::io::{self, BufRead, Read};

/// Reads `inner` through `buffer`, which the caller keeps between readers.
pub(crate) struct KeptBuffer<'b, R> {
    inner: R,
    buffer: &'b mut [u8],
    /// The bytes read and not yet consumed: `buffer[start..end]`.
    start: usize,
    end: usize,
}

impl<'b, R: Read> KeptBuffer<'b, R> {
    /// A reader of `inner` through `buffer` (which must not be empty).
    pub(crate) fn new(inner: R, buffer: &'b mut [u8]) -> KeptBuffer<'b, R> {
        debug_assert!(!buffer.is_empty());
        KeptBuffer {
            inner,
            buffer,
            start: 0,
            end: 0,
        }
    }
}

impl<R: Read> Read for KeptBuffer<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        // A large read with nothing held goes straight through.
        if self.start == self.end && out.len() >= self.buffer.len() {
            return self.inner.read(out);
        }
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for KeptBuffer<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.end = self.inner.read(self.buffer)?;
            self.start = 0;
        }
        Ok(&self.buffer[self.start..self.end])
    }

    fn consume(&mut self, amount: usize) {
        self.start = (self.start + amount).min(self.end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_inner_reader_holds_in_lines_and_blocks() {
        let data: Vec<u8> = (0..10_000u32)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let mut buffer = vec![0; 100];
        let mut reader = KeptBuffer::new(&data[..], &mut buffer);
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        assert_eq!(first, "line 0\n");
        let mut block = vec![0; 7];
        reader.read_exact(&mut block).unwrap();
        assert_eq!(block, b"line 1\n");
        // A read larger than the buffer, with bytes still held.
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, data[14..]);
        // The same buffer serves the next reader, from its own start.
        let mut again = KeptBuffer::new(&b"next\nreader"[..], &mut buffer);
        let mut text = String::new();
        again.read_to_string(&mut text).unwrap();
        assert_eq!(text, "next\nreader");
    }
}
