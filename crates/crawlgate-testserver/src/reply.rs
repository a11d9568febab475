//! What the server does for one path: a complete response, or one of the
//! ways real servers misbehave (a reset, a hang, a body that breaks off or
//! trickles, raw bytes), perhaps after a delay.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// The script for one path.
///
/// ```
/// use std::time::Duration;
/// use crawlgate_testserver::Reply;
///
/// let moved = Reply::redirect(301, "/elsewhere/robots.txt");
/// let cached = Reply::ok("User-agent: *\nDisallow: /private\n").header("Cache-Control", "max-age=60");
/// let slow = Reply::status(503).header("Retry-After", "120").delayed(Duration::from_millis(50));
/// # let _ = (moved, cached, slow);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A complete response; `Content-Length` and `Connection: close` are
    /// added.
    Http {
        /// The status code.
        status: u16,
        /// Header names and values, in order.
        headers: Vec<(String, String)>,
        /// The body.
        body: Vec<u8>,
    },
    /// Reads the request, then resets the connection (RST).
    Reset,
    /// Reads the request and never answers (until the server is dropped).
    Hang,
    /// A chunked 200 whose body breaks off in the middle of a chunk.
    TruncatedChunked,
    /// A 200 announcing 100 bytes, then sending one byte per `interval`.
    Trickle {
        /// The time between two bytes.
        interval: Duration,
    },
    /// These bytes as they are, then close.
    Raw(Vec<u8>),
    /// Waits, then does the inner reply.
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    /// A response with this status, no header and no body.
    pub fn status(status: u16) -> Reply {
        Reply::Http {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// A `text/plain` response with this status and body.
    pub fn text(status: u16, body: &str) -> Reply {
        Reply::status(status)
            .header("Content-Type", "text/plain")
            .body(body)
    }

    /// `text(200, body)`.
    pub fn ok(body: &str) -> Reply {
        Reply::text(200, body)
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).header("Location", location)
    }

    /// Adds a header (to a complete response; other replies are unchanged).
    pub fn header(self, name: &str, value: &str) -> Reply {
        match self {
            Reply::Http {
                status,
                mut headers,
                body,
            } => {
                headers.push((name.to_owned(), value.to_owned()));
                Reply::Http {
                    status,
                    headers,
                    body,
                }
            }
            other => other,
        }
    }

    /// Sets the body (of a complete response; other replies are unchanged).
    pub fn body(self, body: impl Into<Vec<u8>>) -> Reply {
        match self {
            Reply::Http {
                status, headers, ..
            } => Reply::Http {
                status,
                headers,
                body: body.into(),
            },
            other => other,
        }
    }

    /// This reply after waiting `by`.
    pub fn delayed(self, by: Duration) -> Reply {
        Reply::Delayed(by, Box::new(self))
    }
}

fn head(status: u16, headers: &[(String, String)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} Scripted\r\nConnection: close\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out.into_bytes()
}

/// Plays `reply` on `socket`.
pub(crate) async fn respond(socket: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
    match reply {
        Reply::Http {
            status,
            mut headers,
            body,
        } => {
            headers.push(("Content-Length".into(), body.len().to_string()));
            socket.write_all(&head(status, &headers)).await?;
            socket.write_all(&body).await?;
            socket.shutdown().await
        }
        Reply::Reset => socket.set_zero_linger(),
        Reply::Hang => std::future::pending().await,
        Reply::TruncatedChunked => {
            let headers = [
                ("Content-Type".to_owned(), "text/plain".to_owned()),
                ("Transfer-Encoding".to_owned(), "chunked".to_owned()),
            ];
            socket.write_all(&head(200, &headers)).await?;
            // A complete first chunk, then a chunk that promises 0x100 bytes
            // and delivers 5 before the connection closes.
            let first = "User-agent: *\nAllow: /\n";
            let bytes = format!("{:x}\r\n{first}\r\n100\r\nDisal", first.len());
            socket.write_all(bytes.as_bytes()).await?;
            socket.shutdown().await
        }
        Reply::Trickle { interval } => {
            let headers = [
                ("Content-Type".to_owned(), "text/plain".to_owned()),
                ("Content-Length".to_owned(), "100".to_owned()),
            ];
            socket.write_all(&head(200, &headers)).await?;
            // Bounded: 100 bytes at most, and it stops when the client goes.
            for _ in 0..100 {
                tokio::time::sleep(interval).await;
                socket.write_all(b"#").await?;
            }
            Ok(())
        }
        Reply::Raw(bytes) => {
            socket.write_all(&bytes).await?;
            socket.shutdown().await
        }
        Reply::Delayed(by, reply) => {
            tokio::time::sleep(by).await;
            Box::pin(respond(socket, *reply)).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_compose() {
        let reply = Reply::ok("hi").header("X-A", "1");
        assert_eq!(
            reply,
            Reply::Http {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "text/plain".into()),
                    ("X-A".into(), "1".into())
                ],
                body: b"hi".to_vec(),
            }
        );
        assert_eq!(
            Reply::redirect(308, "/x"),
            Reply::status(308).header("Location", "/x")
        );
        // Header and body only change complete responses.
        assert_eq!(Reply::Hang.header("X", "y").body("z"), Reply::Hang);
        assert_eq!(
            Reply::Reset.delayed(Duration::from_secs(1)),
            Reply::Delayed(Duration::from_secs(1), Box::new(Reply::Reset))
        );
    }

    #[test]
    fn heads_end_with_a_blank_line() {
        let text = String::from_utf8(head(404, &[("A".into(), "b".into())])).unwrap();
        assert_eq!(
            text,
            "HTTP/1.1 404 Scripted\r\nConnection: close\r\nA: b\r\n\r\n"
        );
    }
}
