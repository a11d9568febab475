//! # crawlgate-testserver
//!
//! A scripted HTTP/1.1 origin server on 127.0.0.1, for tests that need a
//! real server: each path answers as scripted (a status, headers and body;
//! a redirect; a delay; a reset, a hang, a broken or trickling body), and
//! every request is recorded and counted. It listens on loopback only and
//! never connects anywhere.
//!
//! The server runs on a thread of its own with its own runtime, so
//! synchronous tests (a spawned process, a blocking client) and
//! asynchronous ones use it alike. It stops when dropped.
//!
//! With the feature `browser`, [`browser`] drives a real headless Chromium
//! through chromedriver, for tests of pages. With the feature `dns`,
//! [`dns`] is a DNS server on loopback answering a zone the test writes
//! (forged, double and silent PTR records included).
//!
//! ```
//! use std::io::{Read, Write};
//! use crawlgate_testserver::{Reply, TestServer};
//!
//! let server = TestServer::start([("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"))]);
//! let mut socket = std::net::TcpStream::connect(server.addr()).unwrap();
//! socket.write_all(b"GET /robots.txt HTTP/1.1\r\nHost: a.test\r\n\r\n").unwrap();
//! let mut response = String::new();
//! socket.read_to_string(&mut response).unwrap();
//! assert!(response.starts_with("HTTP/1.1 200 "));
//! assert!(response.ends_with("Disallow: /\n"));
//! assert_eq!(server.hits("/robots.txt"), 1);
//! assert_eq!(server.requests()[0].header("host"), Some("a.test"));
//! ```

#![deny(missing_docs)]

#[cfg(feature = "browser")]
pub mod browser;
#[cfg(feature = "dns")]
pub mod dns;
mod reply;
mod request;

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

pub use reply::Reply;
pub use request::Request;

#[derive(Default)]
struct State {
    routes: HashMap<String, Reply>,
    requests: Vec<Request>,
}

/// A running server. Paths without a script answer `404` with an empty
/// body.
pub struct TestServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server on a free port of 127.0.0.1 answering `routes`
    /// (path, reply). Panics when no loopback port can be had: a test
    /// cannot go on without one.
    pub fn start<'a>(routes: impl IntoIterator<Item = (&'a str, Reply)>) -> TestServer {
        let listener = StdListener::bind("127.0.0.1:0").expect("bind a loopback port");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking listener");
        let addr = listener.local_addr().expect("the listener's address");
        let state = Arc::new(Mutex::new(State {
            routes: routes
                .into_iter()
                .map(|(path, reply)| (path.to_owned(), reply))
                .collect(),
            requests: Vec::new(),
        }));
        let (stop, stopped) = oneshot::channel();
        let shared = state.clone();
        let thread = std::thread::Builder::new()
            .name(format!("testserver {addr}"))
            .spawn(move || run(listener, shared, stopped))
            .expect("start the server thread");
        TestServer {
            addr,
            state,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Changes what `path` answers from now on.
    pub fn set(&self, path: &str, reply: Reply) {
        self.lock().routes.insert(path.to_owned(), reply);
    }

    /// How many requests for `path` arrived.
    pub fn hits(&self, path: &str) -> usize {
        self.lock()
            .requests
            .iter()
            .filter(|r| r.path == path)
            .count()
    }

    /// How many requests arrived, for any path.
    pub fn total(&self) -> usize {
        self.lock().requests.len()
    }

    /// Every request, in the order they arrived.
    pub fn requests(&self) -> Vec<Request> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl std::fmt::Debug for TestServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestServer")
            .field("addr", &self.addr)
            .field("requests", &self.total())
            .finish()
    }
}

impl Drop for TestServer {
    /// Stops accepting, drops every open connection (a hanging one
    /// included), and waits for the thread to end.
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A panicking test thread leaves the state consistent: every change is one
/// push or insert.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The server thread: accepts until told to stop; dropping the runtime
/// then ends every connection task.
fn run(listener: StdListener, state: Arc<Mutex<State>>, stopped: oneshot::Receiver<()>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the server's runtime");
    runtime.block_on(async move {
        let listener = TcpListener::from_std(listener).expect("a tokio listener");
        let accept = async {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, state.clone()));
            }
        };
        tokio::select! {
            _ = accept => {}
            _ = stopped => {}
        }
    });
}

/// One request per connection (`Connection: close`): read it, record it,
/// play the path's script.
async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    let Some(request) = Request::read(&mut socket).await else {
        return;
    };
    let reply = {
        let mut state = lock(&state);
        let reply = state
            .routes
            .get(&request.path)
            .cloned()
            .unwrap_or_else(|| Reply::status(404));
        state.requests.push(request);
        reply
    };
    // The client going away mid-reply is part of what tests script.
    let _ = reply::respond(&mut socket, reply).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream as StdStream;
    use std::time::{Duration, Instant};

    /// Sends a GET for `path` and reads until the server closes.
    fn get(server: &TestServer, path: &str) -> std::io::Result<Vec<u8>> {
        let mut socket = StdStream::connect(server.addr())?;
        socket.set_read_timeout(Some(Duration::from_secs(5)))?;
        write!(
            socket,
            "GET {path} HTTP/1.1\r\nHost: t\r\nUser-Agent: probe/1\r\n\r\n"
        )?;
        let mut response = Vec::new();
        socket.read_to_end(&mut response)?;
        Ok(response)
    }

    fn text(bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn answers_each_path_as_scripted_and_counts_requests() {
        let server = TestServer::start([
            ("/robots.txt", Reply::ok("User-agent: *\n")),
            ("/moved", Reply::redirect(301, "/robots.txt")),
        ]);
        let ok = text(get(&server, "/robots.txt").unwrap());
        assert_eq!(
            ok,
            "HTTP/1.1 200 Scripted\r\nConnection: close\r\nContent-Type: text/plain\r\n\
             Content-Length: 14\r\n\r\nUser-agent: *\n"
        );
        assert!(text(get(&server, "/moved").unwrap()).contains("\r\nLocation: /robots.txt\r\n"));
        assert!(text(get(&server, "/nothing").unwrap()).starts_with("HTTP/1.1 404 "));
        assert_eq!(
            (
                server.hits("/robots.txt"),
                server.hits("/moved"),
                server.total()
            ),
            (1, 1, 3)
        );
        let first = &server.requests()[0];
        assert_eq!(
            (first.method.as_str(), first.header("User-Agent")),
            ("GET", Some("probe/1"))
        );
    }

    #[test]
    fn scripts_change_while_running() {
        let server = TestServer::start([("/robots.txt", Reply::status(503))]);
        assert!(text(get(&server, "/robots.txt").unwrap()).starts_with("HTTP/1.1 503 "));
        server.set("/robots.txt", Reply::status(200));
        assert!(text(get(&server, "/robots.txt").unwrap()).starts_with("HTTP/1.1 200 "));
        assert_eq!(server.hits("/robots.txt"), 2);
    }

    #[test]
    fn delays_hold_the_reply_back() {
        let server = TestServer::start([(
            "/slow",
            Reply::status(204).delayed(Duration::from_millis(200)),
        )]);
        let started = Instant::now();
        assert!(text(get(&server, "/slow").unwrap()).starts_with("HTTP/1.1 204 "));
        assert!(started.elapsed() >= Duration::from_millis(200));
    }

    #[test]
    fn broken_replies_break_as_scripted() {
        let server = TestServer::start([
            ("/reset", Reply::Reset),
            ("/chunked", Reply::TruncatedChunked),
            ("/raw", Reply::Raw(b"NOT HTTP\r\n".to_vec())),
        ]);
        match get(&server, "/reset") {
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::ConnectionReset),
            Ok(bytes) => assert!(bytes.is_empty(), "a reset sends nothing"),
        }
        let chunked = text(get(&server, "/chunked").unwrap());
        assert!(chunked.contains("Transfer-Encoding: chunked"));
        assert!(chunked.ends_with("100\r\nDisal"));
        assert_eq!(get(&server, "/raw").unwrap(), b"NOT HTTP\r\n");
    }

    #[test]
    fn a_trickle_sends_one_byte_at_a_time() {
        let server = TestServer::start([(
            "/trickle",
            Reply::Trickle {
                interval: Duration::from_millis(1),
            },
        )]);
        let body = text(get(&server, "/trickle").unwrap());
        assert!(body.contains("Content-Length: 100\r\n"));
        assert!(body.ends_with(&"#".repeat(100)));
    }

    #[test]
    fn dropping_the_server_ends_a_hanging_connection() {
        let server = TestServer::start([("/hang", Reply::Hang)]);
        let mut socket = StdStream::connect(server.addr()).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        socket.write_all(b"GET /hang HTTP/1.1\r\n\r\n").unwrap();
        while server.hits("/hang") == 0 {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(server);
        let mut rest = Vec::new();
        // Closed (or reset) at once, not after the read timeout.
        let started = Instant::now();
        let _ = socket.read_to_end(&mut rest);
        assert!(rest.is_empty());
        assert!(started.elapsed() < Duration::from_secs(4));
    }

    #[test]
    fn an_oversized_request_head_is_dropped_unanswered() {
        let server = TestServer::start([]);
        let mut socket = StdStream::connect(server.addr()).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let filler = "X-Filler: ".to_owned() + &"x".repeat(request::MAX_HEAD) + "\r\n";
        // The server may close while this is still being written.
        let _ = socket.write_all(format!("GET / HTTP/1.1\r\n{filler}").as_bytes());
        let mut response = Vec::new();
        let _ = socket.read_to_end(&mut response);
        assert!(response.is_empty());
        assert_eq!(server.total(), 0);
    }
}
