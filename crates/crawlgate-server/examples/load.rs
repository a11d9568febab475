//! Load generator for `/v1/allowed` with a warm cache, on loopback only.
//!
//! Starts an origin serving a robots.txt and a crawlgate server (embedded
//! store in a temporary directory) in this process, warms the cache, then
//! runs two bounded phases over keep-alive HTTP/1.1 connections:
//!
//! 1. `GET /v1/allowed?url=…&agent=…`, one pair per request;
//! 2. `POST /v1/allowed` with 1,000 pairs per request.
//!
//! and prints requests (and decisions) per second with p50 / p99 latency.
//!
//! ```text
//! cargo run --release -p crawlgate-server --example load -- [--seconds 5] [--connections 32]
//! ```
//!
//! Client and server share the machine's cores, so the figures are a floor
//! for a server with the machine to itself.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use crawlgate_server::{Server, ServerConfig};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use tokio::net::TcpStream;

struct Options {
    seconds: u64,
    connections: usize,
    max_requests: usize,
}

fn options() -> Options {
    let mut options = Options {
        seconds: 5,
        connections: 32,
        max_requests: 2_000_000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), value) {
            ("--seconds", Some(v)) => options.seconds = v.clamp(1, 60),
            ("--connections", Some(v)) => options.connections = (v as usize).clamp(1, 256),
            ("--max-requests", Some(v)) => options.max_requests = (v as usize).max(1),
            (other, _) => {
                eprintln!(
                    "unknown or incomplete argument {other:?}; see the example's documentation"
                );
                std::process::exit(2);
            }
        }
        i += 2;
    }
    options
}

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /*.pdf$\n\nUser-agent: GPTBot\nDisallow: /\n";

async fn origin() -> SocketAddr {
    let app = axum::Router::new().route("/robots.txt", axum::routing::get(|| async { ROBOTS }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// One phase's results.
struct Phase {
    latencies: Vec<Duration>,
    elapsed: Duration,
}

impl Phase {
    fn report(&mut self, name: &str, per_request: usize) {
        self.latencies.sort_unstable();
        let n = self.latencies.len();
        let at = |q: f64| self.latencies[((n as f64 * q) as usize).min(n - 1)];
        let rps = n as f64 / self.elapsed.as_secs_f64();
        println!(
            "{name}: {n} requests in {:.2} s: {:.0} requests/s, {:.0} decisions/s, p50 {:.3} ms, p99 {:.3} ms",
            self.elapsed.as_secs_f64(),
            rps,
            rps * per_request as f64,
            at(0.50).as_secs_f64() * 1e3,
            at(0.99).as_secs_f64() * 1e3,
        );
    }
}

/// Runs `connections` keep-alive connections sending `make(n)` until the
/// time or the request budget runs out.
async fn phase(
    server: SocketAddr,
    options: &Options,
    make: Arc<dyn Fn(usize) -> Request<Full<Bytes>> + Send + Sync>,
) -> Phase {
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    let budget = options.max_requests / options.connections;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..options.connections {
        let make = make.clone();
        tasks.push(tokio::spawn(async move {
            let stream = TcpStream::connect(server).await.unwrap();
            stream.set_nodelay(true).unwrap();
            let io = hyper_util::rt::TokioIo::new(stream);
            let (mut sender, conn) = hyper::client::conn::http1::handshake(io).await.unwrap();
            tokio::spawn(conn);
            let mut latencies = Vec::with_capacity(budget.min(1 << 20));
            for n in 0..budget {
                if Instant::now() >= deadline {
                    break;
                }
                let request = make(c * budget + n);
                let sent = Instant::now();
                let response = sender.send_request(request).await.unwrap();
                assert!(response.status().is_success(), "{}", response.status());
                response.into_body().collect().await.unwrap();
                latencies.push(sent.elapsed());
            }
            latencies
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.unwrap());
    }
    Phase {
        latencies,
        elapsed: started.elapsed(),
    }
}

fn main() {
    let options = options();
    let server_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (server, origin) = server_runtime.block_on(async {
        let origin = origin().await;
        let mut config = ServerConfig::default();
        config.bind = "127.0.0.1:0".parse().unwrap();
        config.data_dir = dir.path().to_path_buf();
        config.targets.allow_private = true;
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr();
        tokio::spawn(server.run_until(std::future::pending()));
        (addr, origin)
    });

    let client_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    client_runtime.block_on(async {
        let host = format!("{server}");
        let page = move |n: usize| format!("http://{origin}/section/{}/page-{n}.html", n % 97);
        // Warm the cache: the first question fetches robots.txt.
        let warm = phase(
            server,
            &Options {
                seconds: 5,
                connections: 1,
                max_requests: 1,
            },
            Arc::new({
                let host = host.clone();
                move |n| {
                    let query = url::form_urlencoded::Serializer::new(String::new())
                        .append_pair("url", &page(n))
                        .append_pair("agent", "mybot")
                        .finish();
                    Request::get(format!("/v1/allowed?{query}"))
                        .header("host", &host)
                        .body(Full::new(Bytes::new()))
                        .unwrap()
                }
            }),
        )
        .await;
        assert_eq!(warm.latencies.len(), 1);

        let single = Arc::new({
            let host = host.clone();
            move |n: usize| {
                let query = url::form_urlencoded::Serializer::new(String::new())
                    .append_pair("url", &page(n))
                    .append_pair("agent", if n % 10 == 0 { "GPTBot" } else { "mybot" })
                    .finish();
                Request::get(format!("/v1/allowed?{query}"))
                    .header("host", &host)
                    .body(Full::new(Bytes::new()))
                    .unwrap()
            }
        });
        phase(server, &options, single).await.report("GET /v1/allowed (1 pair)", 1);

        const PAIRS: usize = 1_000;
        let body: Bytes = {
            let pairs: Vec<serde_json::Value> = (0..PAIRS)
                .map(|n| serde_json::json!({"url": page(n), "agent": if n % 10 == 0 { "GPTBot" } else { "mybot" }}))
                .collect();
            serde_json::to_vec(&serde_json::json!({"pairs": pairs})).unwrap().into()
        };
        let batch = Arc::new(move |_: usize| {
            Request::post("/v1/allowed")
                .header("host", &host)
                .header("content-type", "application/json")
                .body(Full::new(body.clone()))
                .unwrap()
        });
        let batch_options = Options {
            connections: options.connections.min(4),
            ..options
        };
        phase(server, &batch_options, batch)
            .await
            .report(&format!("POST /v1/allowed ({PAIRS} pairs)"), PAIRS);
    });
}
