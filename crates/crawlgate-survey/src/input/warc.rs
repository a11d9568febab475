//! WARC files (ISO 28500: WARC/1.0 and WARC/1.1), such as Common Crawl's
//! `robotstxt` subset: plain, or gzip with one record per member (or many).
//!
//! Each `response` record whose target is a `/robots.txt` becomes a capture:
//! its HTTP status, `Content-Type`, `Location`, `Cache-Control` and
//! `Retry-After`, and its body (chunked transfer coding and gzip or deflate
//! content coding removed). Other records are skipped.
//!
//! Nothing is read without a bound: a header block is at most
//! [`MAX_HEADER`] bytes, a body is kept up to
//! [`BODY_LIMIT`](crate::capture::BODY_LIMIT) bytes and counted up to
//! [`MAX_COUNTED`], the rest of a record is skipped as it streams by. A
//! record that is malformed or cut short becomes an error capture with the
//! reason; reading goes on at the next record (the next gzip member, or the
//! next line starting with `WARC/`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crawlgate_fetch::{HttpResponse, Origin};
use flate2::bufread::GzDecoder;

use crate::capture::{host_of, shown, Capture, Payload, BODY_LIMIT, MAX_HOST_LEN};
use crate::input::Flow;

/// The longest WARC or HTTP header block read.
pub const MAX_HEADER: usize = 64 << 10;

/// How far a body is counted for its size: bodies longer than this (after
/// decoding) are reported with this size.
pub const MAX_COUNTED: u64 = 64 << 20;

/// The first bytes of a gzip member.
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// Reads the WARC file at `path`.
pub(crate) fn read_file(path: &Path, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let name = path.display().to_string();
    match File::open(path) {
        Ok(file) => read(BufReader::with_capacity(1 << 20, file), &name, emit),
        Err(e) => {
            emit(
                Capture::error(None, name, format!("cannot open the WARC file: {e}")),
                0,
            );
        }
    }
}

/// Reads a WARC stream named `name` (for the captures' `source`), plain or
/// gzip, handing each capture to `emit` with the bytes of the stream read
/// so far. After a broken gzip member, reading goes back to the member's
/// start and looks for the next one from there (hence `Seek`).
///
/// ```
/// use crawlgate_survey::input::{warc, Flow};
/// use crawlgate_survey::Payload;
///
/// let http = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /\n";
/// let record = format!(
///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/robots.txt\r\n\
///      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
///     http.len()
/// );
/// let mut captures = Vec::new();
/// warc::read(std::io::Cursor::new(record), "x.warc", &mut |capture, _| {
///     captures.push(capture);
///     Flow::Continue
/// });
/// assert_eq!(captures[0].host.as_deref(), Some("example.com"));
/// assert!(matches!(&captures[0].payload, Payload::Http { response, .. } if response.status == 200));
/// ```
pub fn read(input: impl BufRead + Seek, name: &str, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let mut input = Counting {
        inner: input,
        position: 0,
    };
    match input.fill_buf() {
        Ok(start) if start.starts_with(&GZIP_MAGIC[..2]) => read_gzip(&mut input, name, emit),
        Ok(_) => {
            Records::new(name, Base::Plain).read(&mut input, emit);
        }
        Err(e) => {
            emit(
                Capture::error(None, name, format!("cannot read the WARC file: {e}")),
                0,
            );
        }
    }
}

/// A `BufRead` that counts the bytes consumed.
struct Counting<R> {
    inner: R,
    position: u64,
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.position += n as u64;
        Ok(n)
    }
}

impl<R: Seek> Seek for Counting<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.position = self.inner.seek(to)?;
        Ok(self.position)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
        self.position += amount as u64;
    }
}

/// Reads gzip members one after the other, each as its own stream of
/// records, so a broken member costs only its own records.
fn read_gzip<R: BufRead + Seek>(
    input: &mut Counting<R>,
    name: &str,
    emit: &mut dyn FnMut(Capture, u64) -> Flow,
) {
    loop {
        let start = input.position;
        match input.fill_buf() {
            Ok([]) => return,
            Ok(bytes) if bytes.starts_with(&GZIP_MAGIC) => {}
            Ok(_) => {
                let skipped = skip_to_member(input);
                let capture = Capture::error(
                    None,
                    format!("{name}@{start}"),
                    format!("{skipped} bytes that are not a gzip member skipped"),
                );
                if emit(capture, input.position) == Flow::Stop {
                    return;
                }
                continue;
            }
            Err(e) => {
                emit(
                    Capture::error(
                        None,
                        format!("{name}@{start}"),
                        format!("cannot read the WARC file further: {e}"),
                    ),
                    input.position,
                );
                return;
            }
        }
        let mut records = Records::new(name, Base::Member(start));
        let ended = {
            let mut member = BufReader::with_capacity(1 << 16, GzDecoder::new(&mut *input));
            records.read(&mut member, &mut |c, _| emit(c, start))
        };
        if ended.flow == Flow::Stop {
            return;
        }
        if ended.failed || input.position == start {
            // The member is broken, and its decoder may have read into the
            // next one: look for that from just past this member's start.
            if input.seek(SeekFrom::Start(start + 1)).is_err() {
                return;
            }
            skip_to_member(input);
        }
    }
}

/// Skips to the next gzip member (or the end); returns the bytes skipped.
fn skip_to_member<R: BufRead>(input: &mut Counting<R>) -> u64 {
    let mut skipped = 0u64;
    loop {
        let buffer = match input.fill_buf() {
            Ok([]) | Err(_) => return skipped,
            Ok(buffer) => buffer,
        };
        // A magic number may straddle two buffers: keep the last two bytes.
        let found = buffer
            .windows(GZIP_MAGIC.len())
            .position(|w| w == GZIP_MAGIC);
        let used = match found {
            Some(at) => at,
            None if buffer.len() > 2 => buffer.len() - 2,
            None => buffer.len(),
        };
        input.consume(used);
        skipped += used as u64;
        if found.is_some() || used == 0 {
            return skipped;
        }
    }
}

/// How a record's position is written in its `source`.
#[derive(Clone, Copy)]
enum Base {
    /// The record's offset in a plain file.
    Plain,
    /// The offset of the gzip member holding it.
    Member(u64),
}

/// The records of one stream (a plain file, or one gzip member).
struct Records<'n> {
    name: &'n str,
    base: Base,
    /// Bytes of the (decompressed) stream consumed.
    offset: u64,
    /// Records seen in this stream.
    seen: u64,
}

/// A WARC record's header fields that matter here.
#[derive(Default)]
struct WarcHeader {
    kind: Option<String>,
    target: Option<String>,
    content_type: Option<String>,
    length: Option<String>,
}

/// Why a record could not be read.
enum Broken {
    /// Its format: reading goes on at the next line starting with `WARC/`.
    Format(String),
    /// The stream ended inside it: the stream is done, and sound.
    Cut(String),
    /// The stream itself (I/O or decompression): this stream is done, and
    /// broken.
    Stream(String),
}

/// How reading a stream of records ended.
struct Ended {
    flow: Flow,
    /// Whether the stream broke (rather than ending).
    failed: bool,
}

impl<'n> Records<'n> {
    fn new(name: &'n str, base: Base) -> Records<'n> {
        Records {
            name,
            base,
            offset: 0,
            seen: 0,
        }
    }

    fn source(&self, record_offset: u64) -> String {
        match self.base {
            Base::Plain => format!("{}@{record_offset}", self.name),
            Base::Member(member) if self.seen <= 1 => format!("{}@{member}", self.name),
            Base::Member(member) => format!("{}@{member}#{}", self.name, self.seen),
        }
    }

    /// Reads every record of `stream`, handing each capture to `emit` with
    /// the bytes of the stream read so far.
    fn read(
        &mut self,
        stream: &mut impl BufRead,
        emit: &mut dyn FnMut(Capture, u64) -> Flow,
    ) -> Ended {
        let ended = |flow, failed| Ended { flow, failed };
        let mut resync = false;
        loop {
            let start = self.offset;
            match self.record(stream, resync) {
                Ok(None) => return ended(Flow::Continue, false),
                Ok(Some(Some(capture))) => {
                    resync = false;
                    if emit(capture, self.offset) == Flow::Stop {
                        return ended(Flow::Stop, false);
                    }
                }
                Ok(Some(None)) => resync = false,
                Err((host, Broken::Format(why))) => {
                    resync = true;
                    let capture = Capture::error(host, self.source(start), why);
                    if emit(capture, self.offset) == Flow::Stop {
                        return ended(Flow::Stop, false);
                    }
                }
                Err((host, Broken::Cut(why))) => {
                    let capture = Capture::error(host, self.source(start), why);
                    return ended(emit(capture, self.offset), false);
                }
                Err((host, Broken::Stream(why))) => {
                    let capture = Capture::error(host, self.source(start), why);
                    return ended(emit(capture, self.offset), true);
                }
            }
        }
    }

    /// Reads one line of at most `max` bytes (without its end); `None` at
    /// the end of the stream.
    fn line(&mut self, stream: &mut impl BufRead, max: usize) -> Result<Option<Vec<u8>>, Broken> {
        let mut line = Vec::new();
        let read = crate::input::lines::read_line(stream, &mut line, max).map_err(stream_error)?;
        self.offset += read.taken as u64;
        if read.taken == 0 {
            return Ok(None);
        }
        if read.cut {
            return Err(Broken::Format(format!(
                "a header line longer than {max} bytes"
            )));
        }
        Ok(Some(line))
    }

    /// One record: `None` at the end of the stream, `Some(None)` for a
    /// record that is not a robots.txt response.
    #[allow(clippy::type_complexity)]
    fn record(
        &mut self,
        stream: &mut impl BufRead,
        resync: bool,
    ) -> Result<Option<Option<Capture>>, (Option<String>, Broken)> {
        let no_host = |broken| (None, broken);
        // The version line, after the blank lines ending the last record
        // (or, to resynchronise, any lines).
        let start = loop {
            let at = self.offset;
            let Some(line) = self.line(stream, MAX_HEADER).map_err(no_host)? else {
                return Ok(None);
            };
            if line.starts_with(b"WARC/") {
                break at;
            }
            if !resync && !line.is_empty() {
                return Err(no_host(Broken::Format(format!(
                    "not a WARC record: {:?}",
                    shown(&String::from_utf8_lossy(&line))
                ))));
            }
        };
        self.seen += 1;
        let header = self.warc_header(stream).map_err(no_host)?;
        let length = match header.length.as_deref().map(|l| l.trim().parse::<u64>()) {
            Some(Ok(length)) => length,
            Some(Err(_)) => {
                return Err(no_host(Broken::Format(
                    "a Content-Length that is not a number".to_owned(),
                )))
            }
            None => {
                return Err(no_host(Broken::Format(
                    "a record without Content-Length".to_owned(),
                )))
            }
        };
        let is_response = header.kind.as_deref() == Some("response")
            && header.content_type.as_deref().is_some_and(|t| {
                t.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("application/http")
            });
        let origin = header
            .target
            .as_deref()
            .map(|t| t.trim().trim_start_matches('<').trim_end_matches('>'))
            .filter(|t| crawlgate::path_of(t) == "/robots.txt")
            .and_then(|t| Origin::from_url(t).ok());
        let mut block = (&mut *stream).take(length);
        let parsed = match (&origin, is_response) {
            (Some(_), true) => Some(read_response(&mut block)),
            _ => None,
        };
        // Skip what is left of the block, then check it was all there.
        let skipped = io::copy(&mut block, &mut io::sink());
        let missing = block.limit();
        self.offset += length - missing;
        let mut host = origin.as_ref().map(host_of);
        let mut refused = None;
        if let Some(long) = host
            .as_ref()
            .map(|h| h.chars().count())
            .filter(|&n| n > MAX_HOST_LEN)
        {
            host = None;
            refused = Some(format!(
                "host name of {long} characters (at most {MAX_HOST_LEN})"
            ));
        }
        let source = self.source(start);
        if let Err(e) = skipped {
            return Err((host, stream_error(e)));
        }
        if missing > 0 {
            return Err((
                host,
                Broken::Cut(format!(
                    "record cut short: {length} bytes declared, {} present",
                    length - missing
                )),
            ));
        }
        let Some(parsed) = parsed else {
            return Ok(Some(None));
        };
        let payload = match (parsed, refused) {
            (_, Some(why)) => Payload::Error(why),
            (Ok(payload), None) => payload,
            (Err(Broken::Format(why) | Broken::Cut(why) | Broken::Stream(why)), None) => {
                Payload::Error(why)
            }
        };
        Ok(Some(Some(Capture {
            host,
            source,
            payload,
        })))
    }

    fn warc_header(&mut self, stream: &mut impl BufRead) -> Result<WarcHeader, Broken> {
        let mut header = WarcHeader::default();
        let mut total = 0;
        loop {
            let Some(line) = self.line(stream, MAX_HEADER)? else {
                return Err(Broken::Stream(
                    "the file ends inside a record's header".to_owned(),
                ));
            };
            if line.is_empty() {
                return Ok(header);
            }
            total += line.len();
            if total > MAX_HEADER {
                return Err(Broken::Format(format!(
                    "a record header longer than {MAX_HEADER} bytes"
                )));
            }
            let Some((name, value)) = split_field(&line) else {
                continue;
            };
            let slot = match name.to_ascii_lowercase().as_str() {
                "warc-type" => &mut header.kind,
                "warc-target-uri" => &mut header.target,
                "content-type" => &mut header.content_type,
                "content-length" => &mut header.length,
                _ => continue,
            };
            *slot = Some(value);
        }
    }
}

fn stream_error(e: io::Error) -> Broken {
    Broken::Stream(format!("cannot read further: {e}"))
}

/// `Name: value` (the value trimmed).
fn split_field(line: &[u8]) -> Option<(String, String)> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = String::from_utf8_lossy(&line[..colon]).trim().to_owned();
    let value = String::from_utf8_lossy(&line[colon + 1..])
        .trim()
        .to_owned();
    Some((name, value))
}

/// One line of an HTTP header block into `line`; false at the end of the
/// block.
fn http_line(block: &mut impl BufRead, line: &mut Vec<u8>) -> Result<bool, Broken> {
    let read = crate::input::lines::read_line(block, line, MAX_HEADER).map_err(stream_error)?;
    if read.cut {
        return Err(Broken::Format(format!(
            "an HTTP header line longer than {MAX_HEADER} bytes"
        )));
    }
    Ok(read.taken > 0)
}

/// The HTTP response in a record's block.
fn read_response(block: &mut impl BufRead) -> Result<Payload, Broken> {
    let mut line = Vec::new();
    if !http_line(block, &mut line)? {
        return Err(Broken::Format("an empty HTTP response".to_owned()));
    }
    let status = parse_status(&line).ok_or_else(|| {
        Broken::Format(format!(
            "not an HTTP status line: {:?}",
            shown(&String::from_utf8_lossy(&line))
        ))
    })?;
    let mut response = HttpResponse::new(status);
    let (mut location, mut chunked, mut coding) = (None, false, None);
    let mut total = 0;
    loop {
        if !http_line(block, &mut line)? {
            return Err(Broken::Format(
                "the record ends inside the HTTP header".to_owned(),
            ));
        }
        if line.is_empty() {
            break;
        }
        total += line.len();
        if total > MAX_HEADER {
            return Err(Broken::Format(format!(
                "an HTTP header longer than {MAX_HEADER} bytes"
            )));
        }
        let Some((name, value)) = split_field(&line) else {
            continue;
        };
        match name.to_ascii_lowercase().as_str() {
            "content-type" => response.content_type = Some(value),
            "location" => location = Some(value),
            "retry-after" => response.retry_after = Some(value),
            "cache-control" => {
                response.cache_control = Some(match response.cache_control.take() {
                    Some(earlier) => format!("{earlier}, {value}"),
                    None => value,
                })
            }
            "transfer-encoding" => chunked |= value.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => coding = Some(value.to_ascii_lowercase()),
            _ => {}
        }
    }
    let (body, size) = read_body(block, chunked, coding.as_deref())?;
    response.body = body;
    Ok(Payload::Http {
        response,
        size,
        location,
    })
}

/// `HTTP/1.1 200 OK` → 200.
fn parse_status(line: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(line).ok()?;
    let mut parts = text.split_ascii_whitespace();
    if !parts.next()?.starts_with("HTTP/") {
        return None;
    }
    let code = parts.next()?;
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    code.parse().ok().filter(|c| (100..=999).contains(c))
}

/// The body, decoded: at most [`BODY_LIMIT`] bytes kept, and its size
/// counted up to [`MAX_COUNTED`].
fn read_body(
    block: &mut impl BufRead,
    chunked: bool,
    coding: Option<&str>,
) -> Result<(Vec<u8>, u64), Broken> {
    let transferred: Box<dyn Read + '_> = if chunked {
        Box::new(Chunked::new(block))
    } else {
        Box::new(block)
    };
    let mut decoded: Box<dyn Read + '_> = match coding.map(str::trim) {
        None | Some("" | "identity") => transferred,
        Some("gzip" | "x-gzip") => Box::new(flate2::read::MultiGzDecoder::new(transferred)),
        Some("deflate") => Box::new(flate2::read::ZlibDecoder::new(transferred)),
        Some(other) => {
            return Err(Broken::Format(format!(
                "a body with content coding {:?}, which is not decoded",
                shown(other)
            )))
        }
    };
    let mut body = Vec::new();
    let undecodable = |e: io::Error| Broken::Format(format!("the body cannot be decoded: {e}"));
    (&mut decoded)
        .take(BODY_LIMIT as u64)
        .read_to_end(&mut body)
        .map_err(undecodable)?;
    let rest = io::copy(
        &mut (&mut decoded).take(MAX_COUNTED.saturating_sub(body.len() as u64)),
        &mut io::sink(),
    )
    .map_err(undecodable)?;
    let size = body.len() as u64 + rest;
    Ok((body, size))
}

/// The chunked transfer coding removed (RFC 9112 §7.1), lines bounded.
struct Chunked<R> {
    inner: R,
    /// Bytes left in the current chunk.
    left: u64,
    done: bool,
}

impl<R: BufRead> Chunked<R> {
    fn new(inner: R) -> Chunked<R> {
        Chunked {
            inner,
            left: 0,
            done: false,
        }
    }

    fn size_line(&mut self) -> io::Result<u64> {
        let mut line = Vec::new();
        let read = crate::input::lines::read_line(&mut self.inner, &mut line, 1024)?;
        if read.taken == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "chunked body cut short",
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let size = text.split(';').next().unwrap_or_default().trim();
        u64::from_str_radix(size, 16).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("bad chunk size {:?}", shown(size)),
            )
        })
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            self.left = self.size_line()?;
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "chunked body cut short",
            ));
        }
        self.left -= n as u64;
        if self.left == 0 {
            // The CRLF after the chunk's data.
            let mut end = Vec::new();
            crate::input::lines::read_line(&mut self.inner, &mut end, 2)?;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines() {
        assert_eq!(parse_status(b"HTTP/1.1 200 OK"), Some(200));
        assert_eq!(parse_status(b"HTTP/1.0 503"), Some(503));
        for bad in [
            &b"HTTP/1.1 20 OK"[..],
            b"HTTP/1.1 abc",
            b"GET / HTTP/1.1",
            b"",
            b"HTTP/1.1 099 x",
        ] {
            assert_eq!(
                parse_status(bad),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn chunked_bodies_are_joined() {
        let mut body = String::new();
        Chunked::new(&b"5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n\r\n"[..])
            .read_to_string(&mut body)
            .unwrap();
        assert_eq!(body, "hello world");
        let mut cut = String::new();
        assert!(Chunked::new(&b"5\r\nhel"[..])
            .read_to_string(&mut cut)
            .is_err());
        assert!(Chunked::new(&b"zz\r\n"[..])
            .read_to_string(&mut cut)
            .is_err());
    }

    #[test]
    fn garbage_before_a_member_is_skipped() {
        let mut input = Counting {
            inner: &b"xxxx\x1f\x8b\x08rest"[..],
            position: 0,
        };
        assert_eq!(skip_to_member(&mut input), 4);
        assert_eq!(input.fill_buf().unwrap(), b"\x1f\x8b\x08rest");
    }
}
