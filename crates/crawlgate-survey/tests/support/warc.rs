//! A small WARC writer for tests: response records of robots.txt captures
//! (any status, headers and body), other record types, and the damage real
//! files show (a member cut short, garbage between members, a declared
//! length the record does not have), gzip per record as Common Crawl
//! writes them, or plain. Shared by the survey crate's tests and the
//! command's (included by path).

#![allow(dead_code)]

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

/// One HTTP response as captured.
#[derive(Clone, Debug)]
pub struct Response {
    pub url: String,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// The record's `WARC-Date`.
    pub date: String,
}

impl Response {
    /// A 200 `text/plain` response for `host`'s robots.txt.
    pub fn ok(host: &str, body: impl Into<Vec<u8>>) -> Response {
        Response::status(host, 200, body).header("Content-Type", "text/plain")
    }

    /// A response with this status for `host`'s robots.txt.
    pub fn status(host: &str, status: u16, body: impl Into<Vec<u8>>) -> Response {
        Response {
            url: format!("https://{host}/robots.txt"),
            status,
            headers: Vec::new(),
            body: body.into(),
            date: "2026-11-01T00:00:00Z".to_owned(),
        }
    }

    /// A redirect from `url` to `location`.
    pub fn redirect(url: &str, status: u16, location: &str) -> Response {
        Response {
            url: url.to_owned(),
            status,
            headers: vec![("Location".to_owned(), location.to_owned())],
            body: Vec::new(),
            date: "2026-11-01T00:00:00Z".to_owned(),
        }
    }

    /// With another target URL.
    pub fn at(mut self, url: &str) -> Response {
        self.url = url.to_owned();
        self
    }

    /// Captured at another time.
    pub fn dated(mut self, date: &str) -> Response {
        self.date = date.to_owned();
        self
    }

    /// With one more header.
    pub fn header(mut self, name: &str, value: &str) -> Response {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The HTTP message: status line, headers, blank line, body.
    pub fn http(&self) -> Vec<u8> {
        let mut out = format!("HTTP/1.1 {} X\r\n", self.status).into_bytes();
        for (name, value) in &self.headers {
            out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }
}

/// A record: WARC header fields and a block.
pub fn record(kind: &str, target: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    record_declaring(kind, target, content_type, block, block.len() as u64)
}

/// A record whose `Content-Length` says `declared`, whatever the block.
pub fn record_declaring(
    kind: &str,
    target: &str,
    content_type: &str,
    block: &[u8],
    declared: u64,
) -> Vec<u8> {
    dated_record(
        kind,
        target,
        content_type,
        block,
        declared,
        "2026-11-01T00:00:00Z",
    )
}

/// A record captured at `date`.
pub fn dated_record(
    kind: &str,
    target: &str,
    content_type: &str,
    block: &[u8],
    declared: u64,
    date: &str,
) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {target}\r\nWARC-Date: {date}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\nContent-Type: {content_type}\r\nContent-Length: {declared}\r\n\r\n"
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// The response record of a capture.
pub fn response_record(response: &Response) -> Vec<u8> {
    let http = response.http();
    dated_record(
        "response",
        &response.url,
        "application/http; msgtype=response",
        &http,
        http.len() as u64,
        &response.date,
    )
}

/// `bytes` as one gzip member.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A WARC file being built: records gzipped one per member (`gzip`) or
/// plain.
pub struct WarcFile {
    pub bytes: Vec<u8>,
    gzip: bool,
}

impl WarcFile {
    pub fn new(gzip: bool) -> WarcFile {
        WarcFile {
            bytes: Vec::new(),
            gzip,
        }
    }

    /// Appends a record (gzipped as its own member when the file is).
    pub fn push(&mut self, record: &[u8]) -> &mut Self {
        if self.gzip {
            self.bytes.extend_from_slice(&gzip(record));
        } else {
            self.bytes.extend_from_slice(record);
        }
        self
    }

    /// Appends a response record.
    pub fn response(&mut self, response: &Response) -> &mut Self {
        self.push(&response_record(response))
    }

    /// Appends raw bytes (garbage, or a member cut short).
    pub fn raw(&mut self, bytes: &[u8]) -> &mut Self {
        self.bytes.extend_from_slice(bytes);
        self
    }
}
