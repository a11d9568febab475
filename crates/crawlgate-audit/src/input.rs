//! Reading logs: files or standard input, plain, gzip or zstd (told by
//! their first bytes), cut into chunks of whole lines for parsing in
//! parallel. A line longer than [`MAX_LINE`] is not kept: it comes out as
//! a chunk of its own that says so, and reading goes on.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// The longest line read (64 KiB): a longer one is counted as unreadable.
pub const MAX_LINE: usize = 64 * 1024;

/// The size of a chunk of lines (1 MiB, cut at a line end).
pub const CHUNK: usize = 1 << 20;

/// Where a log comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogSource {
    /// A file.
    File(PathBuf),
    /// Standard input.
    Stdin,
}

impl LogSource {
    /// `-` is standard input; anything else a file.
    pub fn from_arg(arg: &str) -> LogSource {
        if arg == "-" {
            LogSource::Stdin
        } else {
            LogSource::File(PathBuf::from(arg))
        }
    }

    /// Its name in rows and messages (`<stdin>` for standard input).
    pub fn name(&self) -> String {
        match self {
            LogSource::File(path) => path.display().to_string(),
            LogSource::Stdin => "<stdin>".into(),
        }
    }

    /// Opens it, decompressing gzip (several members, as `logrotate`
    /// writes) or zstd, which are told by their first bytes.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        let raw: Box<dyn Read + Send> = match self {
            LogSource::File(path) => Box::new(open_file(path)?),
            LogSource::Stdin => Box::new(io::stdin()),
        };
        decompress(raw)
    }
}

fn open_file(path: &Path) -> io::Result<File> {
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display())))?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a folder, not a log", path.display()),
        ));
    }
    Ok(file)
}

/// Wraps `raw` in the decompressor its first bytes call for.
pub fn decompress(raw: Box<dyn Read + Send>) -> io::Result<Box<dyn Read + Send>> {
    let mut buffered = BufReader::with_capacity(256 * 1024, raw);
    let head = io::BufRead::fill_buf(&mut buffered)?;
    Ok(match head {
        [0x1f, 0x8b, ..] => Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
        [0x28, 0xb5, 0x2f, 0xfd, ..] => {
            Box::new(zstd::stream::read::Decoder::with_buffer(buffered)?)
        }
        _ => Box::new(buffered),
    })
}

/// A piece of a log, in order.
#[derive(Debug)]
pub enum Chunk {
    /// Whole lines (each ends with `\n`, but maybe the file's last).
    Lines {
        /// The number of its first line in its file (1-based).
        first_line: u64,
        /// The bytes.
        data: Vec<u8>,
    },
    /// A line longer than [`MAX_LINE`], left out.
    TooLong {
        /// Its number.
        line: u64,
        /// How long it was.
        bytes: u64,
    },
}

/// Cuts a stream into [`Chunk`]s.
pub struct Chunks<R> {
    reader: R,
    /// Bytes read but not yet handed out (a partial line at most).
    pending: Vec<u8>,
    next_line: u64,
    done: bool,
    chunk_size: usize,
}

impl<R: Read> Chunks<R> {
    /// Chunks of about [`CHUNK`] bytes.
    pub fn new(reader: R) -> Chunks<R> {
        Chunks::with_size(reader, CHUNK)
    }

    /// Chunks of about `size` bytes (at least [`MAX_LINE`] + 1).
    pub fn with_size(reader: R, size: usize) -> Chunks<R> {
        Chunks {
            reader,
            pending: Vec::new(),
            next_line: 1,
            done: false,
            chunk_size: size.max(MAX_LINE + 1),
        }
    }

    fn fill(&mut self, want: usize) -> io::Result<()> {
        while !self.done && self.pending.len() < want {
            let start = self.pending.len();
            self.pending.resize(want, 0);
            let n = loop {
                match self.reader.read(&mut self.pending[start..]) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other,
                }
            };
            match n {
                Ok(0) => {
                    self.pending.truncate(start);
                    self.done = true;
                }
                Ok(n) => self.pending.truncate(start + n),
                Err(e) => {
                    self.pending.truncate(start);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Skips the rest of an over-long line; returns its length counted
    /// from `seen` bytes already passed.
    fn skip_line(&mut self, mut seen: u64) -> io::Result<u64> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.pending) {
                seen += i as u64;
                self.pending.drain(..=i);
                return Ok(seen);
            }
            seen += self.pending.len() as u64;
            self.pending.clear();
            if self.done {
                return Ok(seen);
            }
            self.fill(self.chunk_size)?;
        }
    }

    /// The next chunk, `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        self.fill(self.chunk_size)?;
        if self.pending.is_empty() {
            return Ok(None);
        }
        // Cut after the last line end; a first line longer than MAX_LINE
        // is left out.
        let first_end = memchr::memchr(b'\n', &self.pending);
        let first_len = first_end.unwrap_or(self.pending.len());
        if first_len > MAX_LINE {
            let line = self.next_line;
            self.next_line += 1;
            let bytes = self.skip_line(0)?;
            return Ok(Some(Chunk::TooLong { line, bytes }));
        }
        let cut = if self.done {
            self.pending.len()
        } else {
            memchr::memrchr(b'\n', &self.pending).map_or(self.pending.len(), |i| i + 1)
        };
        let rest = self.pending.split_off(cut);
        let data = std::mem::replace(&mut self.pending, rest);
        let lines = bytecount(&data) + u64::from(!data.ends_with(b"\n"));
        let first_line = self.next_line;
        self.next_line += lines;
        // A line cut at the chunk's end that is already too long to keep:
        // it becomes the next chunk's first line and is left out there.
        Ok(Some(Chunk::Lines { first_line, data }))
    }
}

fn bytecount(data: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', data).count() as u64
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        match self.next_chunk() {
            Ok(Some(chunk)) => Some(Ok(chunk)),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                self.pending.clear();
                Some(Err(e))
            }
        }
    }
}

/// The lines of a chunk's data with their numbers.
pub fn lines(first_line: u64, data: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    let body = data.strip_suffix(b"\n").unwrap_or(data);
    let empty = data.is_empty();
    body.split(|b| *b == b'\n')
        .take(if empty { 0 } else { usize::MAX })
        .enumerate()
        .map(move |(i, line)| (first_line + i as u64, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn collect(data: &[u8], size: usize) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        for chunk in Chunks::with_size(data, size) {
            match chunk.unwrap() {
                Chunk::Lines { first_line, data } => {
                    for (n, line) in lines(first_line, &data) {
                        out.push((n, String::from_utf8_lossy(line).into_owned()));
                    }
                }
                Chunk::TooLong { line, bytes } => out.push((line, format!("<{bytes} bytes>"))),
            }
        }
        out
    }

    #[test]
    fn lines_keep_their_numbers_across_chunks() {
        let text: String = (1..=30_000).map(|i| format!("line {i}\n")).collect();
        let got = collect(text.as_bytes(), MAX_LINE + 1);
        assert_eq!(got.len(), 30_000);
        assert!(got
            .iter()
            .enumerate()
            .all(|(i, (n, l))| *n == i as u64 + 1 && *l == format!("line {}", i + 1)));
        // No final line end: the last line still counts.
        assert_eq!(
            collect(b"a\nb", MAX_LINE + 1),
            [(1, "a".into()), (2, "b".into())]
        );
        assert_eq!(
            collect(b"a\n\nb\n", MAX_LINE + 1),
            [(1, "a".into()), (2, "".into()), (3, "b".into())]
        );
        assert!(collect(b"", MAX_LINE + 1).is_empty());
    }

    #[test]
    fn a_megabyte_line_is_left_out_and_counted() {
        let mut data = b"first\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 1 << 20));
        data.extend(b"\nlast\n");
        let got = collect(&data, MAX_LINE + 1);
        assert_eq!(
            got,
            [
                (1, "first".into()),
                (2, "<1048576 bytes>".into()),
                (3, "last".into())
            ]
        );
        // At the very end, without a line end.
        let mut tail = b"first\n".to_vec();
        tail.extend(std::iter::repeat_n(b'y', 200_000));
        assert_eq!(
            collect(&tail, MAX_LINE + 1),
            [(1, "first".into()), (2, "<200000 bytes>".into())]
        );
    }

    #[test]
    fn gzip_and_zstd_are_told_by_their_bytes() {
        let text = b"one\ntwo\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        let mut gz = gz.finish().unwrap();
        // logrotate's gzip files may hold several members.
        let mut second = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        second.write_all(b"three\n").unwrap();
        gz.extend(second.finish().unwrap());
        let mut out = String::new();
        decompress(Box::new(io::Cursor::new(gz)))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "one\ntwo\nthree\n");
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        let mut out = String::new();
        decompress(Box::new(io::Cursor::new(zst)))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "one\ntwo\n");
        let mut out = String::new();
        decompress(Box::new(io::Cursor::new(text.to_vec())))
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "one\ntwo\n");
    }
}
