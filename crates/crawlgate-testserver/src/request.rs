//! A request as the server saw it: the request line and the headers, read
//! with a bound.

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// The most bytes of request line and headers read; a longer head is
/// dropped unanswered.
pub(crate) const MAX_HEAD: usize = 16 * 1024;

/// One request the server received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD` …
    pub method: String,
    /// The request target as sent (`/robots.txt`).
    pub path: String,
    /// Header names and values, in order, trimmed.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Parses a request head (`GET /path HTTP/1.1\r\nName: value\r\n…`);
    /// `None` when it has no request line.
    pub(crate) fn parse(head: &[u8]) -> Option<Request> {
        let text = String::from_utf8_lossy(head);
        let mut lines = text.split("\r\n");
        let mut first = lines.next()?.split(' ');
        let method = first.next().filter(|m| !m.is_empty())?.to_owned();
        let path = first.next()?.to_owned();
        let headers = lines
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
            .collect();
        Some(Request {
            method,
            path,
            headers,
        })
    }

    /// Reads one request head from `socket`; `None` when the client goes
    /// away first or sends more than [`MAX_HEAD`] bytes of it.
    pub(crate) async fn read(socket: &mut TcpStream) -> Option<Request> {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 1024];
        while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
            if buf.len() > MAX_HEAD {
                return None;
            }
            let n = socket.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        Request::parse(&buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_request_line_and_headers() {
        let request = Request::parse(
            b"GET /robots.txt HTTP/1.1\r\nHost: a.test\r\nUser-Agent:  bot/1.0 \r\n\r\nbody",
        )
        .unwrap();
        assert_eq!(request.method, "GET");
        assert_eq!(request.path, "/robots.txt");
        assert_eq!(request.header("user-agent"), Some("bot/1.0"));
        assert_eq!(request.header("Accept"), None);
        assert_eq!(request.headers.len(), 2);
    }

    #[test]
    fn a_head_without_a_request_line_is_none() {
        assert_eq!(Request::parse(b""), None);
        assert_eq!(Request::parse(b"GET\r\n\r\n"), None);
    }
}
