//! A tiny scripted HTTP/1.1 server on 127.0.0.1 for the end-to-end tests:
//! each path answers with scripted bytes (a full response, a reset, a hang,
//! a broken chunked body, a trickle …), and every request is counted.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How long a hanging connection is held before the server gives up on it
/// (longer than every client timeout in the tests).
const HANG: Duration = Duration::from_secs(5);

/// What the server does for one path.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A complete response.
    Http {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Reads the request, then resets the connection (RST).
    Reset,
    /// Reads the request and never answers.
    Hang,
    /// A chunked response whose body breaks off mid-chunk.
    TruncatedChunked,
    /// Headers, then the body one byte per interval.
    Trickle { interval: Duration },
    /// These bytes, then close.
    Raw(Vec<u8>),
    /// Waits, then replies.
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    pub fn status(status: u16) -> Reply {
        Reply::Http {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn ok(body: &str) -> Reply {
        Reply::status(200)
            .header("Content-Type", "text/plain")
            .body(body.as_bytes().to_vec())
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::status(status).header("Location", location)
    }

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

    pub fn body(self, body: Vec<u8>) -> Reply {
        match self {
            Reply::Http {
                status, headers, ..
            } => Reply::Http {
                status,
                headers,
                body,
            },
            other => other,
        }
    }

    pub fn delayed(self, by: Duration) -> Reply {
        Reply::Delayed(by, Box::new(self))
    }
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct State {
    routes: HashMap<String, Reply>,
    requests: Vec<Request>,
}

/// The server. It stops with the test's runtime.
pub struct TestServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

impl TestServer {
    pub async fn start(routes: &[(&str, Reply)]) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State {
            routes: routes
                .iter()
                .map(|(p, r)| ((*p).to_owned(), r.clone()))
                .collect(),
            requests: Vec::new(),
        }));
        let shared = state.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, shared.clone()));
            }
        });
        TestServer { addr, state }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Changes what a path answers.
    pub fn set(&self, path: &str, reply: Reply) {
        self.state
            .lock()
            .unwrap()
            .routes
            .insert(path.to_owned(), reply);
    }

    /// Requests seen for `path`.
    pub fn hits(&self, path: &str) -> usize {
        self.state
            .lock()
            .unwrap()
            .requests
            .iter()
            .filter(|r| r.path == path)
            .count()
    }

    /// Every request seen.
    pub fn requests(&self) -> Vec<Request> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn total(&self) -> usize {
        self.state.lock().unwrap().requests.len()
    }
}

async fn read_request(socket: &mut TcpStream) -> Option<Request> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        if buf.len() > 16 * 1024 {
            return None;
        }
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&buf);
    let mut lines = text.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_owned();
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

async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    // One request per connection: the client under test does not pool.
    let Some(request) = read_request(&mut socket).await else {
        return;
    };
    let reply = {
        let mut state = state.lock().unwrap();
        let reply = state
            .routes
            .get(&request.path)
            .cloned()
            .unwrap_or_else(|| Reply::status(404));
        state.requests.push(request);
        reply
    };
    let _ = respond(&mut socket, reply).await;
}

fn head(status: u16, headers: &[(String, String)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} Scripted\r\nConnection: close\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    out.into_bytes()
}

async fn respond(socket: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
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
        Reply::Reset => {
            socket.set_zero_linger()?;
            Ok(())
        }
        Reply::Hang => {
            tokio::time::sleep(HANG).await;
            Ok(())
        }
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
