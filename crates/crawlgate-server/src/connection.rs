//! The accept loop: each connection served by hyper's HTTP/1.1 server with
//! its own timeouts (headers within the header timeout, idle kept-alive
//! connections included), the client's address recorded for its requests,
//! and a [`GuardedIo`] around the socket that drops a client which does not
//! read its response within the send timeout and gives the answers hyper
//! writes by itself (a malformed request, a request target over 64 KiB,
//! headers too large) the JSON error body every other answer has.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::allowance::ClientAddr;
use crate::config::Limits;

/// The largest request head read.
const MAX_HEAD_BYTES: usize = 128 << 10;

/// How long in-flight requests may take to finish once shutdown is asked.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until `shutdown` completes, then lets the
/// requests in flight finish (for at most ten seconds).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        // A request head (target and headers) of at most 128 KiB: past it,
        // 431 (and past 64 KiB of target, 414).
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    let send_timeout = limits.send_timeout;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it
                // was accepted: wait a moment rather than spin or stop.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(GuardedIo::new(stream, send_timeout));
        let service = service(router.clone(), peer);
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            // A connection's end (the client left, a timeout) is not the
            // server's error.
            let _ = connection.await;
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
    Ok(())
}

fn service(
    router: Router,
    peer: SocketAddr,
) -> impl hyper::service::Service<
    Request<Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Future<Output = Result<axum::response::Response, std::convert::Infallible>> + Send,
> + Clone {
    hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ClientAddr(peer.ip()));
        router.clone().oneshot(request.map(axum::body::Body::new))
    })
}

/// The socket of one connection, with a deadline on writes the client does
/// not take and JSON bodies on hyper's own error answers.
pub struct GuardedIo {
    stream: TcpStream,
    send_timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    /// A rewritten error answer being written, and the length of the one
    /// hyper asked to write (reported once the rewrite is out).
    rewrite: Option<(Vec<u8>, usize, usize)>,
}

impl GuardedIo {
    fn new(stream: TcpStream, send_timeout: Duration) -> GuardedIo {
        GuardedIo {
            stream,
            send_timeout,
            stalled: None,
            rewrite: None,
        }
    }

    /// Starts (or checks) the send deadline of a write that made no
    /// progress; an error once it has passed.
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        let timeout = self.send_timeout;
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(sleep.as_mut().poll(cx));
        Poll::Ready(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client did not read its response within the send timeout",
        ))
    }

    fn write_guarded(
        &mut self,
        cx: &mut Context<'_>,
        write: impl FnOnce(Pin<&mut TcpStream>, &mut Context<'_>) -> Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match write(Pin::new(&mut self.stream), cx) {
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => match self.stall(cx) {
                Poll::Ready(error) => Poll::Ready(Err(error)),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    /// Writes the pending rewrite; its original length once all is out.
    fn drive_rewrite(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        loop {
            let Some((bytes, written, original)) = self.rewrite.take() else {
                return Poll::Ready(Ok(0));
            };
            if written == bytes.len() {
                return Poll::Ready(Ok(original));
            }
            let rest = bytes[written..].to_vec();
            self.rewrite = Some((bytes, written, original));
            let n = ready!(self.write_guarded(cx, |s, cx| s.poll_write(cx, &rest)))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            if let Some((_, written, _)) = self.rewrite.as_mut() {
                *written += n;
            }
        }
    }
}

/// hyper's own answer to a request it could not read: a 4xx head with an
/// empty body. The application's answers always have a JSON body.
fn own_error_answer(head: &[u8]) -> Option<u16> {
    let rest = head.strip_prefix(b"HTTP/1.1 4")?;
    if !head.ends_with(b"\r\n\r\n") {
        return None;
    }
    let lower = head.to_ascii_lowercase();
    let empty = lower.windows(21).any(|w| w == b"\r\ncontent-length: 0\r\n");
    let typed = lower.windows(14).any(|w| w == b"\r\ncontent-type");
    if !empty || typed {
        return None;
    }
    let digits = rest.get(..2)?;
    let tail: u16 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some(400 + tail)
}

/// The same answer with a JSON body naming the problem.
fn with_json_body(head: &[u8], status: u16) -> Vec<u8> {
    let (code, problem) = match status {
        414 => (
            "too_large",
            "the request target is longer than 65,534 bytes; send long inputs in a POST body",
        ),
        431 => ("too_large", "the request headers are too large"),
        _ => ("bad_request", "the request is not valid HTTP/1.1"),
    };
    let body = serde_json::json!({"error": {"code": code, "problem": problem}}).to_string();
    let text = String::from_utf8_lossy(head);
    let mut out = String::new();
    for line in text.split("\r\n").filter(|l| !l.is_empty()) {
        if line.to_ascii_lowercase().starts_with("content-length:") {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("content-type: application/json\r\n");
    out.push_str(&format!("content-length: {}\r\n", body.len()));
    out.push_str("connection: close\r\n\r\n");
    out.push_str(&body);
    out.into_bytes()
}

impl AsyncRead for GuardedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.rewrite.is_none() {
            if let Some(status) = own_error_answer(buf) {
                this.rewrite = Some((with_json_body(buf, status), 0, buf.len()));
            }
        }
        if this.rewrite.is_some() {
            return this.drive_rewrite(cx);
        }
        this.write_guarded(cx, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.rewrite.is_none() && bufs.len() == 1 {
            if let Some(status) = own_error_answer(&bufs[0]) {
                this.rewrite = Some((with_json_body(&bufs[0], status), 0, bufs[0].len()));
            }
        }
        if this.rewrite.is_some() {
            return this.drive_rewrite(cx);
        }
        this.write_guarded(cx, |s, cx| s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_flush(cx) {
            Poll::Ready(result) => {
                this.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => match this.stall(cx) {
                Poll::Ready(error) => Poll::Ready(Err(error)),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hyper_s_own_answers_get_a_json_body() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 19:00:00 GMT\r\n\r\n";
        assert_eq!(own_error_answer(head), Some(414));
        let out = String::from_utf8(with_json_body(head, 414)).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(head.contains("content-type: application/json"));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"]["code"], "too_large");
        // The application's answers are left alone.
        let own = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(own_error_answer(own), None);
        assert_eq!(
            own_error_answer(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"),
            None
        );
        assert_eq!(
            own_error_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n"),
            Some(400)
        );
    }
}
