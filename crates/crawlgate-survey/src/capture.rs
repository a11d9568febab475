//! What one input gave for one site: a robots.txt file, a captured HTTP
//! response, a live fetch, or the reason nothing could be had.

use crawlgate_answers::{HttpResponse, Origin};
use crawlgate_fetch::FetchReport;

/// The longest host name kept (RFC 1035: 253 characters); longer names make
/// an error row.
pub const MAX_HOST_LEN: usize = 253;

/// The bytes of a body that are read: what crawlers parse, and one more to
/// see that there was more.
pub const BODY_LIMIT: usize = crawlgate::MAX_BYTES + 1;

/// One site as an input gave it.
#[derive(Debug)]
pub struct Capture {
    /// The site's host (with `:port` when not the default), when known.
    pub host: Option<String>,
    /// Where the capture came from: a file, `file:line`, `file@offset`, a
    /// URL.
    pub source: String,
    /// What it holds.
    pub payload: Payload,
    /// The URL captured (a WARC record's target, a fetched robots.txt), when
    /// known.
    pub url: Option<String>,
    /// When it was captured (a WARC record's `WARC-Date`, as written).
    pub date: Option<String>,
    /// Where it starts in its input, in bytes (a WARC record or the gzip
    /// member holding it, a table's line), when it has a place.
    pub offset: Option<u64>,
    /// The media type the archive identified in the body
    /// (`WARC-Identified-Payload-Type`), when given.
    pub payload_type: Option<String>,
}

/// What a capture holds.
#[derive(Debug)]
pub enum Payload {
    /// The bytes of a robots.txt file, with no HTTP status: read as if
    /// served with 200.
    File {
        /// At most [`BODY_LIMIT`] bytes.
        body: Vec<u8>,
        /// The whole file's size.
        size: u64,
    },
    /// A captured HTTP response (a WARC record), to be read as the fetch
    /// rules say.
    Http {
        /// Status, headers the policy reads, and at most [`BODY_LIMIT`]
        /// bytes of the decoded body.
        response: HttpResponse,
        /// The whole body's size, decoded (see [`Payload::Http`]'s source
        /// for how far it is counted).
        size: u64,
        /// The `Location` header of a redirect.
        location: Option<String>,
    },
    /// A robots.txt fetched live, and what the fetch rules made of it.
    Fetched(Box<FetchReport>),
    /// Nothing usable: why.
    Error(String),
}

impl Capture {
    /// A capture of `payload` for `host`, from `source`, with nothing else
    /// known.
    pub fn new(host: Option<String>, source: impl Into<String>, payload: Payload) -> Capture {
        Capture {
            host,
            source: source.into(),
            payload,
            url: None,
            date: None,
            offset: None,
            payload_type: None,
        }
    }

    /// An error capture.
    pub fn error(
        host: Option<String>,
        source: impl Into<String>,
        reason: impl Into<String>,
    ) -> Capture {
        Capture::new(host, source, Payload::Error(reason.into()))
    }

    /// The same capture, placed at `offset` of its input.
    pub fn at(mut self, offset: u64) -> Capture {
        self.offset = Some(offset);
        self
    }
}

/// The host of an origin as a survey writes it: lowercase, punycode, with
/// `:port` when the port is not the scheme's default.
///
/// ```
/// use crawlgate_answers::Origin;
/// use crawlgate_survey::capture::host_of;
/// assert_eq!(host_of(&Origin::from_url("https://WWW.Example.com/robots.txt").unwrap()), "www.example.com");
/// assert_eq!(host_of(&Origin::from_url("http://example.com:8080/").unwrap()), "example.com:8080");
/// ```
pub fn host_of(origin: &Origin) -> String {
    let host = origin.host_str();
    if origin.port() == origin.scheme().default_port() {
        host
    } else {
        format!("{host}:{}", origin.port())
    }
}

/// Checks a host name given by an input (a file name, a table cell): its
/// normal form, or why it is not one.
///
/// ```
/// use crawlgate_survey::capture::checked_host;
/// assert_eq!(checked_host("Example.COM").unwrap(), "example.com");
/// assert_eq!(checked_host("bücher.example").unwrap(), "xn--bcher-kva.example");
/// assert!(checked_host("a b").is_err());
/// assert!(checked_host(&"a".repeat(70_000)).unwrap_err().contains("70000 characters"));
/// ```
pub fn checked_host(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("empty host name".to_owned());
    }
    let chars = name.chars().count();
    if chars > MAX_HOST_LEN {
        return Err(format!(
            "host name of {chars} characters (at most {MAX_HOST_LEN})"
        ));
    }
    if name.contains(['/', '?', '#', '@', '\\']) || name.chars().any(char::is_whitespace) {
        return Err(format!("not a host name: {name:?}"));
    }
    Origin::from_url(&format!("http://{name}/"))
        .map(|origin| host_of(&origin))
        .map_err(|e| format!("not a host name: {name:?} ({e})"))
}

/// A name shortened for an error message: at most 80 characters.
pub(crate) fn shown(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_normalised_or_refused() {
        assert_eq!(checked_host(" example.com ").unwrap(), "example.com");
        assert_eq!(checked_host("example.com:443").unwrap(), "example.com:443");
        assert_eq!(checked_host("example.com:80").unwrap(), "example.com");
        assert_eq!(checked_host("103.88.218.109").unwrap(), "103.88.218.109");
        for bad in ["", "a/b", "x?y", "user@host", "a b", "exa mple.com"] {
            assert!(checked_host(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn long_text_is_shortened() {
        assert_eq!(shown("abc"), "abc");
        let long = "é".repeat(100);
        assert_eq!(shown(&long).chars().count(), 81);
    }
}
