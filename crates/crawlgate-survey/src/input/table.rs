//! A table of sites: JSON lines or CSV with the columns `host` and
//! `robots_txt` (text) or `robots_txt_b64` (exact bytes), and optionally
//! `status` (the HTTP status it was served with) and `content_type`.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::rc::Rc;

use base64::Engine as _;
use crawlgate_answers::HttpResponse;
use serde::Deserialize;

use crate::capture::{checked_host, shown, Capture, Payload, BODY_LIMIT};
use crate::input::lines::read_line;
use crate::input::Flow;

/// The longest line (JSON lines) or record (CSV) read: a 500 KiB file fits
/// several times over, even escaped. Longer ones make an error row.
pub const MAX_RECORD: usize = 8 << 20;

/// The format of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// One JSON object per line.
    JsonLines,
    /// Comma-separated values with a header line.
    Csv,
}

/// One site of a table, as given.
#[derive(Debug, Default, Deserialize)]
struct Site {
    #[serde(default)]
    host: Option<String>,
    #[serde(default)]
    robots_txt: Option<String>,
    #[serde(default)]
    robots_txt_b64: Option<String>,
    #[serde(default)]
    status: Option<u16>,
    #[serde(default)]
    content_type: Option<String>,
}

impl Site {
    fn capture(self, source: String) -> Capture {
        Given {
            host: self.host,
            text: self.robots_txt.map(String::into_bytes),
            b64: self.robots_txt_b64,
            status: self.status,
            content_type: self.content_type,
        }
        .capture(source)
    }
}

/// One site of a table, its body text as bytes (a CSV cell need not be
/// UTF-8).
struct Given {
    host: Option<String>,
    text: Option<Vec<u8>>,
    b64: Option<String>,
    status: Option<u16>,
    content_type: Option<String>,
}

impl Given {
    fn capture(self, source: String) -> Capture {
        let host = match self.host.as_deref().map(checked_host) {
            Some(Ok(host)) => host,
            Some(Err(why)) => return Capture::error(None, source, why),
            None => return Capture::error(None, source, "no host given"),
        };
        let mut body = match (self.text, self.b64) {
            (Some(text), None) => text,
            (None, Some(b64)) => match base64::engine::general_purpose::STANDARD.decode(b64.trim())
            {
                Ok(bytes) => bytes,
                Err(e) => {
                    return Capture::error(
                        Some(host),
                        source,
                        format!("robots_txt_b64 is not base64: {e}"),
                    )
                }
            },
            (Some(_), Some(_)) => {
                return Capture::error(
                    Some(host),
                    source,
                    "both robots_txt and robots_txt_b64 given",
                )
            }
            (None, None) => {
                return Capture::error(Some(host), source, "no robots_txt or robots_txt_b64 given")
            }
        };
        let size = body.len() as u64;
        body.truncate(BODY_LIMIT);
        let payload = match self.status {
            Some(status) => {
                let mut response = HttpResponse::new(status).with_body(body);
                response.content_type = self.content_type;
                Payload::Http {
                    response,
                    size,
                    location: None,
                }
            }
            None => Payload::File { body, size },
        };
        Capture::new(Some(host), source, payload)
    }
}

pub(crate) fn read(path: &Path, format: TableFormat, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let name = path.display().to_string();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) => {
            emit(
                Capture::error(None, name, format!("cannot open the table: {e}")),
                0,
            );
            return;
        }
    };
    match format {
        TableFormat::JsonLines => read_json_lines(file, &name, emit),
        TableFormat::Csv => read_csv(file, &name, emit),
    }
}

fn read_json_lines(file: File, name: &str, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::new();
    let mut offset = 0u64;
    for number in 1.. {
        let read = match read_line(&mut reader, &mut line, MAX_RECORD) {
            Ok(read) => read,
            Err(e) => {
                emit(
                    Capture::error(
                        None,
                        format!("{name}:{number}"),
                        format!("cannot read the table further: {e}"),
                    ),
                    offset,
                );
                return;
            }
        };
        if read.taken == 0 {
            return;
        }
        offset += read.taken as u64;
        if line.iter().all(u8::is_ascii_whitespace) && !read.cut {
            continue;
        }
        let source = format!("{name}:{number}");
        let capture = if read.cut {
            Capture::error(
                None,
                source,
                format!("line longer than {MAX_RECORD} bytes: not read"),
            )
        } else {
            match serde_json::from_slice::<Site>(&line) {
                Ok(site) => site.capture(source),
                Err(e) => Capture::error(
                    None,
                    source,
                    format!("not a site object: {}", shown(&e.to_string())),
                ),
            }
        };
        if emit(capture, offset) == Flow::Stop {
            return;
        }
    }
}

/// A reader that fails once more than [`MAX_RECORD`] bytes (and the CSV
/// reader's look-ahead) are read past the end of the last whole record.
struct Bounded<R> {
    inner: R,
    read: u64,
    limit: Rc<Cell<u64>>,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.read > self.limit.get() {
            return Err(io::Error::other(format!(
                "a record longer than {MAX_RECORD} bytes"
            )));
        }
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// The CSV reader's look-ahead past a record.
const LOOK_AHEAD: u64 = 1 << 16;

fn read_csv(file: File, name: &str, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let limit = Rc::new(Cell::new(MAX_RECORD as u64 + LOOK_AHEAD));
    let bounded = Bounded {
        inner: file,
        read: 0,
        limit: limit.clone(),
    };
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .buffer_capacity(1 << 16)
        .from_reader(bounded);
    let headers = match reader.byte_headers() {
        Ok(headers) => headers.clone(),
        Err(e) => {
            emit(
                Capture::error(
                    None,
                    format!("{name}:1"),
                    format!("cannot read the header line: {e}"),
                ),
                0,
            );
            return;
        }
    };
    let column = |wanted: &str| {
        headers
            .iter()
            .position(|h| h.eq_ignore_ascii_case(wanted.as_bytes()))
    };
    let (host, text, b64, status, content_type) = (
        column("host"),
        column("robots_txt"),
        column("robots_txt_b64"),
        column("status"),
        column("content_type"),
    );
    if host.is_none() || (text.is_none() && b64.is_none()) {
        emit(
            Capture::error(
                None,
                format!("{name}:1"),
                "the header line must name the columns host and robots_txt (or robots_txt_b64)",
            ),
            0,
        );
        return;
    }
    let mut record = csv::ByteRecord::new();
    loop {
        let line = reader.position().line();
        let source = format!("{name}:{line}");
        match reader.read_byte_record(&mut record) {
            Ok(false) => return,
            Ok(true) => {
                let offset = reader.position().byte();
                limit.set(offset + MAX_RECORD as u64 + LOOK_AHEAD);
                let field = |i: Option<usize>| {
                    i.and_then(|i| record.get(i))
                        .filter(|v| !v.is_empty())
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                };
                let status_text = field(status);
                let capture = match status_text.as_deref().map(|s| s.trim().parse::<u16>()) {
                    Some(Err(_)) => Capture::error(
                        None,
                        source,
                        format!(
                            "status {:?} is not an HTTP status",
                            shown(status_text.as_deref().unwrap_or(""))
                        ),
                    ),
                    parsed => {
                        let b64 = field(b64);
                        // An empty robots_txt cell is an empty file, unless
                        // the row gives robots_txt_b64 instead.
                        let text = text
                            .and_then(|i| record.get(i))
                            .filter(|v| !v.is_empty() || b64.is_none())
                            .map(<[u8]>::to_vec);
                        Given {
                            host: field(host),
                            text,
                            b64,
                            status: parsed.and_then(Result::ok),
                            content_type: field(content_type),
                        }
                        .capture(source)
                    }
                };
                if emit(capture, offset) == Flow::Stop {
                    return;
                }
            }
            Err(e) => {
                // The reader cannot find the next record after an I/O error
                // or an over-long one: the rest of the table is not read.
                emit(
                    Capture::error(None, source, format!("cannot read the table further: {e}")),
                    reader.position().byte(),
                );
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str, format: TableFormat) -> Vec<Capture> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        std::fs::write(&path, text).unwrap();
        let mut out = Vec::new();
        read(&path, format, &mut |c, _| {
            out.push(c);
            Flow::Continue
        });
        out
    }

    fn error(capture: &Capture) -> &str {
        match &capture.payload {
            Payload::Error(why) => why,
            other => panic!("not an error: {other:?}"),
        }
    }

    #[test]
    fn json_lines_give_files_responses_and_error_rows() {
        let long = "a".repeat(70_000);
        let text = format!(
            "{{\"host\":\"a.example\",\"robots_txt\":\"User-agent: *\\n\"}}\n\n\
             {{\"host\":\"b.example\",\"robots_txt_b64\":\"eA==\",\"status\":503}}\n\
             not json\n\
             {{\"host\":\"{long}\",\"robots_txt\":\"\"}}\n\
             {{\"host\":\"c.example\"}}\n"
        );
        let captures = read_text(&text, TableFormat::JsonLines);
        assert_eq!(captures.len(), 5);
        assert!(matches!(
            &captures[0].payload,
            Payload::File { size: 14, .. }
        ));
        assert!(
            matches!(&captures[1].payload, Payload::Http { response, .. } if response.status == 503 && response.body == b"x")
        );
        assert_eq!(captures[1].source.rsplit(':').next(), Some("3"));
        assert!(error(&captures[2]).starts_with("not a site object"));
        assert!(error(&captures[3]).contains("70000 characters"));
        assert!(error(&captures[4]).contains("no robots_txt"));
    }

    #[test]
    fn csv_tables_are_read_by_header() {
        let text = "robots_txt,host,status\n\"User-agent: *\nDisallow: /\n\",a.example,\n\"x\",b.example,404\n\"y\",c.example,abc\n";
        let captures = read_text(text, TableFormat::Csv);
        assert_eq!(captures.len(), 3);
        assert_eq!(captures[0].host.as_deref(), Some("a.example"));
        assert!(
            matches!(&captures[0].payload, Payload::File { body, .. } if body == b"User-agent: *\nDisallow: /\n")
        );
        assert!(
            matches!(&captures[1].payload, Payload::Http { response, .. } if response.status == 404)
        );
        assert_eq!(captures[0].source.rsplit(':').next(), Some("2"));
        assert_eq!(captures[1].source.rsplit(':').next(), Some("5"));
        assert!(error(&captures[2]).contains("not an HTTP status"));
        let headless = read_text("a,b\n1,2\n", TableFormat::Csv);
        assert!(error(&headless[0]).contains("must name the columns"));
    }

    #[test]
    fn over_long_records_are_error_rows_and_earlier_rows_stay() {
        let mut text = String::from("{\"host\":\"a.example\",\"robots_txt\":\"\"}\n");
        text.push_str(&format!(
            "{{\"host\":\"b.example\",\"robots_txt\":\"{}\"}}\n",
            "x".repeat(MAX_RECORD)
        ));
        text.push_str("{\"host\":\"c.example\",\"robots_txt\":\"\"}\n");
        let captures = read_text(&text, TableFormat::JsonLines);
        assert_eq!(captures.len(), 3);
        assert!(error(&captures[1]).contains("longer than"));
        assert_eq!(captures[2].host.as_deref(), Some("c.example"));

        let mut csv = String::from("host,robots_txt\na.example,ok\nb.example,\"");
        csv.push_str(&"x".repeat(MAX_RECORD + (1 << 17)));
        csv.push_str("\"\nc.example,ok\n");
        let captures = read_text(&csv, TableFormat::Csv);
        assert_eq!(captures.len(), 2);
        assert_eq!(captures[0].host.as_deref(), Some("a.example"));
        assert!(
            error(&captures[1]).contains("longer than"),
            "{}",
            error(&captures[1])
        );
    }
}
