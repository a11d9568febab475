//! A scripted HTTP/1.1 server on 127.0.0.1 for the fetching tests: each
//! path answers with a fixed response (or never answers), every request is
//! recorded. Nothing here talks to anything but loopback.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// What the server does for one path.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A complete response.
    Http {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    /// Reads the request and never answers (until the test is long over).
    Hang,
}

impl Reply {
    pub fn text(status: u16, body: &str) -> Reply {
        Reply::Http {
            status,
            headers: vec![("Content-Type", "text/plain".to_owned())],
            body: body.as_bytes().to_vec(),
        }
    }

    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::Http {
            status,
            headers: vec![("Location", location.to_owned())],
            body: Vec::new(),
        }
    }

    pub fn with_header(self, name: &'static str, value: &str) -> Reply {
        match self {
            Reply::Http {
                status,
                mut headers,
                body,
            } => {
                headers.push((name, value.to_owned()));
                Reply::Http {
                    status,
                    headers,
                    body,
                }
            }
            other => other,
        }
    }
}

/// One request the server received.
#[derive(Clone, Debug)]
pub struct Request {
    pub path: String,
    pub user_agent: Option<String>,
}

pub struct Server {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Server {
    /// Starts a server answering `routes`; other paths get a 404.
    pub fn start(routes: &[(&str, Reply)]) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let addr = listener.local_addr().expect("local address");
        let routes: Arc<HashMap<String, Reply>> = Arc::new(
            routes
                .iter()
                .map(|(path, reply)| ((*path).to_owned(), reply.clone()))
                .collect(),
        );
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = requests.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let routes = routes.clone();
                let recorded = recorded.clone();
                thread::spawn(move || serve(stream, &routes, &recorded));
            }
        });
        Server { addr, requests }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(mut stream: TcpStream, routes: &HashMap<String, Reply>, recorded: &Mutex<Vec<Request>>) {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let path = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("/")
        .to_owned();
    let user_agent = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("user-agent")
            .then(|| value.trim().to_owned())
    });
    recorded.lock().unwrap().push(Request {
        path: path.clone(),
        user_agent,
    });
    let reply = routes
        .get(&path)
        .cloned()
        .unwrap_or_else(|| Reply::text(404, "not found"));
    match reply {
        Reply::Hang => thread::sleep(Duration::from_secs(10)),
        Reply::Http {
            status,
            headers,
            body,
        } => {
            let mut response = format!(
                "HTTP/1.1 {status} Scripted\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                response.push_str(&format!("{name}: {value}\r\n"));
            }
            response.push_str("\r\n");
            let _ = stream.write_all(response.as_bytes());
            let _ = stream.write_all(&body);
        }
    }
}
