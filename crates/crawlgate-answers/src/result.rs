//! What one fetch of a robots.txt gave, as the HTTP client saw it: the
//! final response, a redirect it did not follow, or a failure below HTTP.
//! The vocabulary the client produces and the policy reads.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What one attempt to fetch a robots.txt gave, as the HTTP client saw it
/// after following redirects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchResult {
    /// The final response.
    Response(HttpResponse),
    /// A redirect that was not followed (past the hop limit, a loop, no or
    /// an unusable `Location`).
    RedirectNotFollowed(RedirectStop),
    /// The fetch failed below HTTP.
    Network(NetworkFailure),
}

impl FetchResult {
    /// The summary kept in the cache entry.
    pub fn attempt(&self) -> Attempt {
        match self {
            FetchResult::Response(r) => Attempt::Status { status: r.status },
            FetchResult::RedirectNotFollowed(stop) => Attempt::Redirect { stop: *stop },
            FetchResult::Network(failure) => Attempt::Network {
                error: failure.kind,
            },
        }
    }
}

/// The parts of an HTTP response the policy reads.
///
/// ```
/// use crawlgate_answers::HttpResponse;
/// let r = HttpResponse::new(200).with_body("User-agent: *\nDisallow: /x\n").with_cache_control("max-age=60");
/// assert_eq!(r.status, 200);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Cache-Control` header (several joined with `, `).
    pub cache_control: Option<String>,
    /// The `Retry-After` header.
    pub retry_after: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The body, decoded, as far as it was read (the client stops one byte
    /// past the size limit so the parser can tell whether the last line was
    /// cut).
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A response with this status and nothing else.
    pub fn new(status: u16) -> HttpResponse {
        HttpResponse {
            status,
            ..HttpResponse::default()
        }
    }

    /// With a body.
    pub fn with_body(mut self, body: impl Into<Vec<u8>>) -> HttpResponse {
        self.body = body.into();
        self
    }

    /// With a `Cache-Control` header.
    pub fn with_cache_control(mut self, value: &str) -> HttpResponse {
        self.cache_control = Some(value.to_owned());
        self
    }

    /// With a `Retry-After` header.
    pub fn with_retry_after(mut self, value: &str) -> HttpResponse {
        self.retry_after = Some(value.to_owned());
        self
    }

    /// With a `Content-Type` header.
    pub fn with_content_type(mut self, value: &str) -> HttpResponse {
        self.content_type = Some(value.to_owned());
        self
    }
}

/// Why a redirect was not followed. Each is treated as a 404.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RedirectStop {
    /// More redirects than the hop limit (5 by default).
    TooManyRedirects,
    /// A redirect back to a URL already visited.
    Loop,
    /// A 3xx without a `Location` header.
    MissingLocation,
    /// A `Location` that is not a URL.
    InvalidLocation,
    /// A `Location` with a scheme other than http or https.
    UnsupportedScheme,
}

impl fmt::Display for RedirectStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RedirectStop::TooManyRedirects => "too many redirects",
            RedirectStop::Loop => "redirect loop",
            RedirectStop::MissingLocation => "redirect without a Location header",
            RedirectStop::InvalidLocation => "redirect to an invalid URL",
            RedirectStop::UnsupportedScheme => "redirect to a scheme other than http(s)",
        })
    }
}

/// A failure below HTTP. Each is treated as a server error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NetworkErrorKind {
    /// The host name did not resolve.
    Dns,
    /// The connection (or the TLS handshake) failed.
    Connect,
    /// The connect or total timeout ran out.
    Timeout,
    /// The connection was reset or closed before the response was complete.
    ConnectionReset,
    /// The response was not valid HTTP (or had an invalid status code).
    InvalidResponse,
    /// The body broke off (truncated chunked encoding, short body, bad
    /// compression).
    BrokenBody,
    /// Anything else.
    Other,
}

impl fmt::Display for NetworkErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetworkErrorKind::Dns => "DNS error",
            NetworkErrorKind::Connect => "connection failed",
            NetworkErrorKind::Timeout => "timed out",
            NetworkErrorKind::ConnectionReset => "connection reset",
            NetworkErrorKind::InvalidResponse => "invalid response",
            NetworkErrorKind::BrokenBody => "broken body",
            NetworkErrorKind::Other => "network error",
        })
    }
}

/// A network failure and what the client said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkFailure {
    /// What kind of failure.
    pub kind: NetworkErrorKind,
    /// The client's message.
    pub message: String,
}

/// What the last fetch attempt gave, in short (kept in the cache entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attempt {
    /// A final HTTP status.
    Status {
        /// The status code.
        status: u16,
    },
    /// A redirect that was not followed.
    Redirect {
        /// Why.
        stop: RedirectStop,
    },
    /// A network failure.
    Network {
        /// Which.
        error: NetworkErrorKind,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_result_is_summarised_for_the_cache_entry() {
        let response = FetchResult::Response(HttpResponse::new(503).with_body("busy"));
        assert_eq!(response.attempt(), Attempt::Status { status: 503 });
        let stop = FetchResult::RedirectNotFollowed(RedirectStop::Loop);
        assert_eq!(
            stop.attempt(),
            Attempt::Redirect {
                stop: RedirectStop::Loop
            }
        );
        let failure = FetchResult::Network(NetworkFailure {
            kind: NetworkErrorKind::Dns,
            message: "no address for nowhere.test".into(),
        });
        assert_eq!(
            failure.attempt(),
            Attempt::Network {
                error: NetworkErrorKind::Dns
            }
        );
    }

    #[test]
    fn responses_are_built_header_by_header() {
        let r = HttpResponse::new(429)
            .with_retry_after("120")
            .with_cache_control("no-store")
            .with_content_type("text/plain");
        assert_eq!(r.status, 429);
        assert_eq!(r.retry_after.as_deref(), Some("120"));
        assert_eq!(r.cache_control.as_deref(), Some("no-store"));
        assert_eq!(r.content_type.as_deref(), Some("text/plain"));
        assert!(r.body.is_empty());
    }

    #[test]
    fn attempts_serialize_tagged_by_kind() {
        let json = |a: Attempt| serde_json::to_string(&a).unwrap();
        assert_eq!(
            json(Attempt::Status { status: 200 }),
            r#"{"kind":"status","status":200}"#
        );
        assert_eq!(
            json(Attempt::Redirect {
                stop: RedirectStop::TooManyRedirects
            }),
            r#"{"kind":"redirect","stop":"too_many_redirects"}"#
        );
        assert_eq!(
            json(Attempt::Network {
                error: NetworkErrorKind::ConnectionReset
            }),
            r#"{"kind":"network","error":"connection_reset"}"#
        );
    }

    #[test]
    fn failures_read_as_words() {
        assert_eq!(RedirectStop::Loop.to_string(), "redirect loop");
        assert_eq!(NetworkErrorKind::Dns.to_string(), "DNS error");
        assert_eq!(NetworkErrorKind::Timeout.to_string(), "timed out");
    }
}
