//! WARC files (ISO 28500: WARC/1.0 and WARC/1.1), such as Common Crawl's
//! `robotstxt` subset: plain, or gzip with one record per member (or many),
//! from a file or a network stream.
//!
//! Every record is accounted for: a `response` record whose target is a
//! `/robots.txt` becomes a capture (its HTTP status, `Content-Type`,
//! `Location`, `Cache-Control` and `Retry-After`, its body with chunked
//! transfer coding and gzip or deflate content coding removed, the
//! record's `WARC-Date` and `WARC-Identified-Payload-Type`); any other
//! record is a counted [`Skip`]. A response whose target URI does not
//! parse is an error capture.
//!
//! Damage costs one error capture per damaged record, member or span: a
//! gzip member that does not decode (corrupt, or cut short) gives exactly
//! one, with the host of its first record when its header could be read,
//! and nothing else from that member; reading then looks for the next
//! member that decodes to a WARC record, from just past the damaged one's
//! start. Bytes between members that are no member are one error capture.
//! In a plain file a record that cannot be read is one error capture and
//! reading goes on at the next line starting with `WARC/`.
//!
//! Nothing is read without a bound: a header block is at most
//! [`MAX_HEADER`] bytes, a gzip header's name or comment at most 65,535 bytes, a
//! body is kept up to
//! [`BODY_LIMIT`](crate::capture::BODY_LIMIT) bytes and counted up to
//! [`MAX_COUNTED`], the rest of a record is skipped as it streams by; a
//! member's captures are held until it is known to be sound, at most
//! [`MEMBER_ITEMS`] of them (a larger member is handed on as it goes).

use std::io::{self, BufRead, Read};

use crawlgate_answers::{HttpResponse, Origin};
use flate2::bufread::GzDecoder;

use crate::capture::{host_of, shown, Capture, Payload, BODY_LIMIT, MAX_HOST_LEN};
use crate::input::gzip_member::{GzipMember, Inflater};
use crate::input::kept_buffer::KeptBuffer;
use crate::input::rewind::Rewind;
use crate::input::{Flow, Item, Mark, Skip};

/// The longest WARC or HTTP header block read.
pub const MAX_HEADER: usize = 64 << 10;

/// How far a body is counted for its size: bodies longer than this (after
/// decoding) are reported with this size.
pub const MAX_COUNTED: u64 = 64 << 20;

/// The most items of one gzip member held until the member is known to be
/// sound.
pub const MEMBER_ITEMS: usize = 64;

/// The first bytes of a gzip member.
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The bytes asked of the inflater at a time when a damaged member is read
/// again to keep what comes before the damage.
const SALVAGE_STEP: usize = 32;

/// Reads a WARC stream named `name` (for the captures' `source`), plain or
/// gzip, whose first byte is at `offset` of the whole file (0, or where a
/// stopped survey resumes: a member or record start), handing each item to
/// `emit` with the bytes read so far and, when reading could start again
/// right after it, that offset.
///
/// ```
/// use crawlgate_survey::input::{warc, Flow, Item};
/// use crawlgate_survey::Payload;
///
/// let http = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /\n";
/// let record = format!(
///     "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/robots.txt\r\n\
///      WARC-Date: 2026-11-01T00:00:00Z\r\n\
///      Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
///     http.len()
/// );
/// let mut captures = Vec::new();
/// warc::read(record.as_bytes(), 0, "x.warc", &mut |item, _| {
///     if let Item::Capture(capture) = item {
///         captures.push(capture);
///     }
///     Flow::Continue
/// });
/// assert_eq!(captures[0].host.as_deref(), Some("example.com"));
/// assert_eq!(captures[0].date.as_deref(), Some("2026-11-01T00:00:00Z"));
/// assert!(matches!(&captures[0].payload, Payload::Http { response, .. } if response.status == 200));
/// ```
pub fn read(input: impl Read, offset: u64, name: &str, emit: &mut dyn FnMut(Item, Mark) -> Flow) {
    let mut input = Rewind::new(input, offset);
    match input.fill(2) {
        Ok(start) if start.starts_with(&GZIP_MAGIC[..2]) => read_gzip(&mut input, name, emit),
        Ok(_) => {
            let mut records = Records::new(name, Base::Plain(offset));
            let _ = records.read(&mut input, &mut |item, consumed, restartable| {
                let at = offset + consumed;
                emit(
                    item,
                    Mark {
                        bytes: at,
                        restart: restartable.then_some(at),
                    },
                )
            });
        }
        Err(e) => {
            emit(
                Item::Capture(Capture::error(
                    None,
                    format!("{name}@{offset}"),
                    format!("cannot read the WARC file: {e}"),
                )),
                Mark::at(offset),
            );
        }
    }
}

/// Reads gzip members one after the other, each as its own stream of
/// records, so a damaged member costs one error capture.
fn read_gzip<R: Read>(input: &mut Rewind<R>, name: &str, emit: &mut dyn FnMut(Item, Mark) -> Flow) {
    // Every member is read through this buffer and this inflater.
    let mut buffer = vec![0; 1 << 16];
    let mut inflater = Inflater::new();
    loop {
        let start = input.position();
        match input.fill(GZIP_MAGIC.len()) {
            Ok([]) => return,
            Ok(bytes) if bytes.starts_with(&GZIP_MAGIC) => {}
            Ok(_) => {
                // Bytes that are no member: one error for the whole span.
                let skipped = next_member(input, start);
                let capture = Capture::error(
                    None,
                    format!("{name}@{start}"),
                    format!("{skipped} bytes that are not a WARC gzip member skipped"),
                )
                .at(start);
                if emit(Item::Capture(capture), Mark::restart(input.position())) == Flow::Stop {
                    return;
                }
                continue;
            }
            Err(e) => {
                let capture = Capture::error(
                    None,
                    format!("{name}@{start}"),
                    format!("cannot read the WARC file further: {e}"),
                )
                .at(start);
                emit(Item::Capture(capture), Mark::at(start));
                return;
            }
        }
        input.mark();
        let mut member = read_member(input, name, start, (&mut buffer, &mut inflater), emit);
        if matches!(member.ended, Ended::Broken { .. }) && !member.streamed && input.rewind(0) {
            // The inflater decodes a whole buffer's worth per call and gives
            // none of it back when it meets the damage: read the member
            // again a few bytes at a time to keep the records (or the host)
            // that come before the damage.
            let salvage = (&mut buffer[..SALVAGE_STEP], &mut inflater);
            member = read_member(input, name, start, salvage, emit);
        }
        let Member {
            held,
            streamed,
            stopped,
            ended,
        } = member;
        if stopped {
            return;
        }
        match ended {
            Ended::Done if input.position() > start => {
                let end = input.position();
                let last = held.len().saturating_sub(1);
                for (i, item) in held.into_iter().enumerate() {
                    let mark = if i == last {
                        Mark::restart(end)
                    } else {
                        Mark::at(end)
                    };
                    if emit(item, mark) == Flow::Stop {
                        return;
                    }
                }
            }
            Ended::Stopped => return,
            Ended::Done | Ended::Broken { .. } => {
                let (why, host) = match ended {
                    Ended::Broken { why, host } => (why, host),
                    _ => ("the gzip member is empty".to_owned(), None),
                };
                let what = if streamed {
                    "the rest of a damaged gzip member is lost"
                } else {
                    "a damaged gzip member"
                };
                let capture =
                    Capture::error(host, format!("{name}@{start}"), format!("{what}: {why}"))
                        .at(start);
                // Look for the next sound member from just past this one's
                // start (its decoder may have read into the next member).
                if !input.rewind(1) {
                    // Too large to go back: search on from here.
                }
                let from = input.position();
                next_member(input, from);
                if emit(Item::Capture(capture), Mark::restart(input.position())) == Flow::Stop {
                    return;
                }
            }
        }
    }
}

/// What reading one gzip member gave: the items not yet handed on, whether
/// some were (a large member), whether the consumer stopped, and how the
/// member ended.
struct Member {
    held: Vec<Item>,
    streamed: bool,
    stopped: bool,
    ended: Ended,
}

/// Reads the gzip member at `start` through `buffer` and `inflater`,
/// holding its items until it ends unless there are more than
/// [`MEMBER_ITEMS`].
fn read_member<R: Read>(
    input: &mut Rewind<R>,
    name: &str,
    start: u64,
    (buffer, inflater): (&mut [u8], &mut Inflater),
    emit: &mut dyn FnMut(Item, Mark) -> Flow,
) -> Member {
    let mut records = Records::new(name, Base::Member(start));
    let mut held: Vec<Item> = Vec::new();
    let mut streamed = false;
    let mut stopped = false;
    let mut member = KeptBuffer::new(GzipMember::new(&mut *input, inflater), buffer);
    let ended = records.read(&mut member, &mut |item, _, _| {
        held.push(item);
        if held.len() >= MEMBER_ITEMS {
            // A large member is handed on as it goes.
            streamed = true;
            for item in held.drain(..) {
                if emit(item, Mark::at(start)) == Flow::Stop {
                    stopped = true;
                    return Flow::Stop;
                }
            }
        }
        Flow::Continue
    });
    Member {
        held,
        streamed,
        stopped,
        ended,
    }
}

/// Moves to the next gzip member that decodes to a WARC record (or the
/// end); returns the bytes passed over since `from`.
fn next_member<R: Read>(input: &mut Rewind<R>, from: u64) -> u64 {
    loop {
        skip_to_magic(input);
        let at = input.position();
        if input.fill_buf().map_or(true, <[u8]>::is_empty) {
            return at - from;
        }
        input.mark();
        let mut first = [0u8; 5];
        let sound =
            GzDecoder::new(&mut *input).read_exact(&mut first).is_ok() && &first == b"WARC/";
        if !input.rewind(u64::from(!sound)) {
            // The candidate was too long to go back to: take it as damage.
            continue;
        }
        if sound {
            return at - from;
        }
    }
}

/// Skips to the next gzip magic number (or the end).
fn skip_to_magic<R: Read>(input: &mut Rewind<R>) {
    loop {
        let buffer = match input.fill(GZIP_MAGIC.len()) {
            Ok(buffer) => buffer,
            Err(_) => return,
        };
        if buffer.len() < GZIP_MAGIC.len() {
            // Too few bytes left for a member to start.
            let rest = buffer.len();
            input.consume(rest);
            return;
        }
        match buffer
            .windows(GZIP_MAGIC.len())
            .position(|w| w == GZIP_MAGIC)
        {
            Some(at) => {
                input.consume(at);
                return;
            }
            // A magic number may straddle two reads: keep the last two bytes.
            None => {
                let used = buffer.len() - (GZIP_MAGIC.len() - 1);
                input.consume(used);
            }
        }
    }
}

/// How a record's position is written in its `source`.
#[derive(Clone, Copy)]
enum Base {
    /// A plain file read from this offset.
    Plain(u64),
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
    /// The host of the first record whose header was read.
    first_host: Option<String>,
}

/// A WARC record's header fields that matter here.
#[derive(Default)]
struct WarcHeader {
    kind: Option<String>,
    target: Option<String>,
    content_type: Option<String>,
    length: Option<String>,
    date: Option<String>,
    payload_type: Option<String>,
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
enum Ended {
    /// At its end.
    Done,
    /// The consumer stopped it.
    Stopped,
    /// The stream broke (I/O or decompression).
    Broken {
        why: String,
        /// The host of its first record, when known.
        host: Option<String>,
    },
}

/// One record read: a capture, a skip, or nothing more.
// One record at a time: boxing the capture would cost an allocation each.
#[allow(clippy::large_enum_variant)]
enum Record {
    Item(Item),
    End,
}

impl<'n> Records<'n> {
    fn new(name: &'n str, base: Base) -> Records<'n> {
        Records {
            name,
            base,
            offset: 0,
            seen: 0,
            first_host: None,
        }
    }

    /// The source and offset of the record starting at `record_offset` of
    /// this stream.
    fn place(&self, record_offset: u64) -> (String, u64) {
        match self.base {
            Base::Plain(from) => (
                format!("{}@{}", self.name, from + record_offset),
                from + record_offset,
            ),
            Base::Member(member) if self.seen <= 1 => (format!("{}@{member}", self.name), member),
            Base::Member(member) => (format!("{}@{member}#{}", self.name, self.seen), member),
        }
    }

    /// Reads every record of `stream`, handing each item to `emit` with the
    /// bytes of the stream read after it and whether reading could start
    /// again there (not while looking for the next record after damage).
    fn read(
        &mut self,
        stream: &mut impl BufRead,
        emit: &mut dyn FnMut(Item, u64, bool) -> Flow,
    ) -> Ended {
        let mut resync = false;
        loop {
            let start = self.offset;
            let item = match self.record(stream, resync) {
                Ok(Record::End) => return Ended::Done,
                Ok(Record::Item(item)) => {
                    resync = false;
                    item
                }
                Err((host, Broken::Format(why))) => {
                    resync = true;
                    let (source, offset) = self.place(start);
                    Item::Capture(Capture::error(host, source, why).at(offset))
                }
                Err((host, Broken::Cut(why))) => {
                    let (source, offset) = self.place(start);
                    let item = Item::Capture(Capture::error(host, source, why).at(offset));
                    return match emit(item, self.offset, true) {
                        Flow::Stop => Ended::Stopped,
                        Flow::Continue => Ended::Done,
                    };
                }
                Err((host, Broken::Stream(why))) => {
                    return Ended::Broken {
                        why,
                        host: host.or_else(|| self.first_host.clone()),
                    }
                }
            };
            if emit(item, self.offset, !resync) == Flow::Stop {
                return Ended::Stopped;
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

    /// One record.
    fn record(
        &mut self,
        stream: &mut impl BufRead,
        resync: bool,
    ) -> Result<Record, (Option<String>, Broken)> {
        let no_host = |broken| (None, broken);
        // The version line, after the blank lines ending the last record
        // (or, to resynchronise, any lines).
        let start = loop {
            let at = self.offset;
            let Some(line) = self.line(stream, MAX_HEADER).map_err(no_host)? else {
                return Ok(Record::End);
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
        let target = header.target.as_deref().map(|t| {
            t.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_owned()
        });
        let origin = target.as_deref().map(Origin::from_url);
        let mut host = match &origin {
            Some(Ok(origin)) => Some(host_of(origin)),
            _ => None,
        };
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
        if self.first_host.is_none() {
            self.first_host.clone_from(&host);
        }
        let length = match header.length.as_deref().map(|l| l.trim().parse::<u64>()) {
            Some(Ok(length)) => length,
            Some(Err(_)) => {
                return Err((
                    host,
                    Broken::Format("a Content-Length that is not a number".to_owned()),
                ))
            }
            None => {
                return Err((
                    host,
                    Broken::Format("a record without Content-Length".to_owned()),
                ))
            }
        };
        let is_response = header.kind.as_deref() == Some("response");
        let is_http = header.content_type.as_deref().is_some_and(|t| {
            t.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/http")
        });
        let is_robots = target
            .as_deref()
            .is_some_and(|t| crawlgate::path_of(t) == "/robots.txt");
        let unparsable = matches!(origin, Some(Err(_)) | None);
        // What the record is: read its response, or count it as skipped.
        let wanted = is_response && is_http && (is_robots || unparsable);
        let mut block = (&mut *stream).take(length);
        let parsed = (wanted && !unparsable).then(|| read_response(&mut block));
        // Skip what is left of the block, then check it was all there.
        let skipped = io::copy(&mut block, &mut io::sink());
        let missing = block.limit();
        self.offset += length - missing;
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
        if !is_response {
            return Ok(Record::Item(Item::Skipped(Skip::NotResponse)));
        }
        if !is_http {
            return Ok(Record::Item(Item::Skipped(Skip::NotHttp)));
        }
        let (source, offset) = self.place(start);
        if unparsable {
            let why = match (&target, &origin) {
                (Some(t), Some(Err(e))) => {
                    format!("the target URI {:?} does not parse: {e}", shown(t))
                }
                _ => "a response record without WARC-Target-URI".to_owned(),
            };
            return Ok(Record::Item(Item::Capture(
                Capture::error(None, source, why).at(offset),
            )));
        }
        let Some(parsed) = parsed else {
            return Ok(Record::Item(Item::Skipped(Skip::OtherUrl)));
        };
        let payload = match (parsed, refused) {
            (_, Some(why)) => Payload::Error(why),
            (Ok(payload), None) => payload,
            (Err(Broken::Stream(why)), None) => return Err((host, Broken::Stream(why))),
            (Err(Broken::Format(why) | Broken::Cut(why)), None) => Payload::Error(why),
        };
        Ok(Record::Item(Item::Capture(Capture {
            host,
            source,
            payload,
            url: target,
            date: header.date,
            offset: Some(offset),
            payload_type: header.payload_type,
        })))
    }

    fn warc_header(&mut self, stream: &mut impl BufRead) -> Result<WarcHeader, Broken> {
        let mut header = WarcHeader::default();
        let mut total = 0;
        loop {
            let Some(line) = self.line(stream, MAX_HEADER)? else {
                return Err(Broken::Cut(
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
            let mut lower = [0; FIELD_NAME_MAX];
            let Some((name, value)) = split_field(&line, &mut lower) else {
                continue;
            };
            let slot = match name {
                "warc-type" => &mut header.kind,
                "warc-target-uri" => &mut header.target,
                "content-type" => &mut header.content_type,
                "content-length" => &mut header.length,
                "warc-date" => &mut header.date,
                "warc-identified-payload-type" => &mut header.payload_type,
                _ => continue,
            };
            *slot = Some(field_value(value));
        }
    }
}

fn stream_error(e: io::Error) -> Broken {
    Broken::Stream(format!("cannot read further: {e}"))
}

/// The longest field name read from a header (`WARC-Identified-Payload-Type`
/// and a little room).
const FIELD_NAME_MAX: usize = 32;

/// `Name: value`: the name trimmed and lowercased into `lower`, without an
/// allocation, and the raw value, read by [`field_value`] only for a field
/// that is kept (most header lines are not). `None` for a line without a
/// colon, and for a name no field read here has: longer than `lower`, or
/// not UTF-8.
fn split_field<'l, 'b>(
    line: &'l [u8],
    lower: &'b mut [u8; FIELD_NAME_MAX],
) -> Option<(&'b str, &'l [u8])> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = std::str::from_utf8(&line[..colon]).ok()?.trim();
    let lower = lower.get_mut(..name.len())?;
    lower.copy_from_slice(name.as_bytes());
    lower.make_ascii_lowercase();
    // ASCII lowercasing keeps the name UTF-8.
    Some((std::str::from_utf8(lower).ok()?, &line[colon + 1..]))
}

/// A field's value as text, trimmed.
fn field_value(value: &[u8]) -> String {
    String::from_utf8_lossy(value).trim().to_owned()
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
fn read_response<R: BufRead>(block: &mut io::Take<R>) -> Result<Payload, Broken> {
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
        let mut lower = [0; FIELD_NAME_MAX];
        let Some((name, value)) = split_field(&line, &mut lower) else {
            continue;
        };
        match name {
            "content-type" => response.content_type = Some(field_value(value)),
            "location" => location = Some(field_value(value)),
            "retry-after" => response.retry_after = Some(field_value(value)),
            "cache-control" => {
                let value = field_value(value);
                response.cache_control = Some(match response.cache_control.take() {
                    Some(earlier) => format!("{earlier}, {value}"),
                    None => value,
                })
            }
            "transfer-encoding" => {
                chunked |= field_value(value).to_ascii_lowercase().contains("chunked")
            }
            "content-encoding" => coding = Some(field_value(value).to_ascii_lowercase()),
            _ => {}
        }
    }
    let left = block.limit();
    let (body, size) = read_body(block, chunked, coding.as_deref(), left)?;
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
/// counted up to [`MAX_COUNTED`]. `left`: the bytes left in the record.
fn read_body(
    block: &mut impl BufRead,
    chunked: bool,
    coding: Option<&str>,
    left: u64,
) -> Result<(Vec<u8>, u64), Broken> {
    // A body sent as it is fills the rest of the record: room for it (up
    // to what is kept) at once, not grown a doubling and a copy at a time.
    let plain = !chunked && matches!(coding.map(str::trim), None | Some("" | "identity"));
    let room = if plain {
        left.min(BODY_LIMIT as u64) as usize
    } else {
        0
    };
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
    let mut body = Vec::with_capacity(room);
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
    fn garbage_is_passed_over_to_a_member_that_decodes() {
        // A false magic number inside the garbage is not a member.
        let mut bytes = b"xxxx\x1f\x8b\x08junk".to_vec();
        let real = {
            use std::io::Write;
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(b"WARC/1.0\r\n").unwrap();
            encoder.finish().unwrap()
        };
        bytes.extend_from_slice(&real);
        let mut input = Rewind::new(&bytes[..], 0);
        assert_eq!(next_member(&mut input, 0), 11);
        assert_eq!(input.position(), 11);
        let mut empty = Rewind::new(&b"xx"[..], 0);
        assert_eq!(next_member(&mut empty, 0), 2);
    }

    #[test]
    fn field_names_are_read_trimmed_in_lowercase_and_values_raw() {
        let mut lower = [0; FIELD_NAME_MAX];
        assert_eq!(
            split_field(b" Content-TYPE :  text/plain ", &mut lower),
            Some(("content-type", &b"  text/plain "[..]))
        );
        assert_eq!(field_value(b"  text/plain "), "text/plain");
        let long = format!("{}: x", "X".repeat(FIELD_NAME_MAX + 1));
        assert_eq!(split_field(long.as_bytes(), &mut lower), None);
        assert_eq!(split_field(b"Caf\xe9: x", &mut lower), None);
        assert_eq!(split_field(b"no colon here", &mut lower), None);
        assert_eq!(
            split_field(b": empty name", &mut lower),
            Some(("", &b" empty name"[..]))
        );
    }

    #[test]
    fn a_damaged_member_keeps_the_host_decoded_before_the_damage() {
        use std::io::Write;
        let member = |host: &str| {
            let http = "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /private\n";
            let record = format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://{host}/robots.txt\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
                http.len()
            );
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(record.as_bytes()).unwrap();
            encoder.finish().unwrap()
        };
        // Damaged near its end, before the trailer: its WARC header decodes
        // before the damage.
        let mut bytes = member("one.example");
        let mut damaged = member("two.example");
        let at = damaged.len() - 16;
        for byte in &mut damaged[at..at + 8] {
            *byte ^= 0x5a;
        }
        bytes.extend_from_slice(&damaged);
        bytes.extend_from_slice(&member("three.example"));
        let mut seen = Vec::new();
        read(&bytes[..], 0, "x.warc.gz", &mut |item, _| {
            if let Item::Capture(capture) = item {
                seen.push((
                    capture.host.clone(),
                    matches!(capture.payload, Payload::Error(_)),
                ));
            }
            Flow::Continue
        });
        let host = |h: &str| Some(h.to_owned());
        assert_eq!(
            seen,
            [
                (host("one.example"), false),
                (host("two.example"), true),
                (host("three.example"), false)
            ]
        );
    }
}
