//! One request as a log line gives it, borrowed from the line where it can
//! be (a field is copied only when an escape had to be decoded).

use std::borrow::Cow;
use std::net::IpAddr;

use crate::time::Millis;

/// One request read from a log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// When, in milliseconds since the Unix epoch (UTC), if the format
    /// logs it.
    pub time: Option<Millis>,
    /// The address that connected (before `X-Forwarded-For` is believed).
    pub ip: IpAddr,
    /// The `X-Forwarded-For` header, if logged and present.
    pub forwarded_for: Option<Cow<'a, str>>,
    /// The `Host` (or virtual host), if logged.
    pub host: Option<Cow<'a, str>>,
    /// The method (`GET`), if logged.
    pub method: Option<Cow<'a, str>>,
    /// The request target as sent: path and query (`/a?b=c`), or an
    /// absolute URL; `None` when the request line was not a request (`-`,
    /// a TLS handshake sent to a plain port).
    pub target: Option<Cow<'a, str>>,
    /// The response status, if logged.
    pub status: Option<u16>,
    /// The `User-Agent` header (empty when absent or `-`).
    pub user_agent: Cow<'a, str>,
}

impl<'a> Request<'a> {
    /// A request from `ip` with every other field empty.
    pub fn new(ip: IpAddr) -> Request<'a> {
        Request {
            time: None,
            ip,
            forwarded_for: None,
            host: None,
            method: None,
            target: None,
            status: None,
            user_agent: Cow::Borrowed(""),
        }
    }

    /// The target's path, without its query (`/a` for `/a?b`); for an
    /// absolute URL, the path after its host.
    pub fn path(&self) -> Option<&str> {
        let target = self.target.as_deref()?;
        let path = match target.find("://") {
            Some(i) => {
                let rest = &target[i + 3..];
                rest.find('/').map_or("/", |j| &rest[j..])
            }
            None => target,
        };
        Some(path.split(['?', '#']).next().unwrap_or(path))
    }
}

/// Splits a request line (`GET /a?b HTTP/1.1`) into method and target;
/// the target is `None` unless it is a path or an absolute URL.
pub(crate) fn split_request_line(line: &str) -> (Option<&str>, Option<&str>) {
    let mut parts = line.split(' ').filter(|p| !p.is_empty());
    let method = parts.next();
    let target = parts.next();
    let plausible_method =
        method.is_some_and(|m| m.len() <= 32 && m.bytes().all(|b| b.is_ascii_alphabetic()));
    if !plausible_method {
        return (None, None);
    }
    let target = target.filter(|t| {
        t.starts_with('/') || t.starts_with("http://") || t.starts_with("https://") || *t == "*"
    });
    (method, target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        assert_eq!(
            split_request_line("GET /a?b HTTP/1.1"),
            (Some("GET"), Some("/a?b"))
        );
        assert_eq!(
            split_request_line("GET http://h/x HTTP/1.0"),
            (Some("GET"), Some("http://h/x"))
        );
        assert_eq!(split_request_line("-"), (None, None));
        assert_eq!(split_request_line("\u{16}\u{3}\u{1}"), (None, None));
        assert_eq!(split_request_line("GET garbage"), (Some("GET"), None));
    }

    #[test]
    fn paths() {
        let mut r = Request::new("1.2.3.4".parse().unwrap());
        r.target = Some("/a/b?c=d#e".into());
        assert_eq!(r.path(), Some("/a/b"));
        r.target = Some("https://example.com".into());
        assert_eq!(r.path(), Some("/"));
        r.target = Some("http://example.com/x?y".into());
        assert_eq!(r.path(), Some("/x"));
    }
}
