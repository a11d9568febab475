//! What the server tests run against, all on loopback: a scripted origin
//! server, crawlgate servers in this process, a real `redis-server`.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use crawlgate_server::{CacheBackend, Server, ServerConfig};
use serde_json::Value;
use tokio::sync::oneshot;

/// What the origin answers for one path.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
}

impl Reply {
    pub fn text(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("content-type".into(), "text/plain".into())],
            body: body.as_bytes().to_vec(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn delayed(mut self, delay: Duration) -> Reply {
        self.delay = delay;
        self
    }
}

#[derive(Default)]
struct Script {
    replies: HashMap<String, Reply>,
    hits: HashMap<String, usize>,
}

/// A scripted HTTP origin on 127.0.0.1 that counts requests per path.
pub struct Origin {
    pub addr: SocketAddr,
    script: Arc<Mutex<Script>>,
    _shutdown: oneshot::Sender<()>,
}

impl Origin {
    pub async fn start() -> Origin {
        let script = Arc::new(Mutex::new(Script::default()));
        let app = axum::Router::new()
            .fallback(answer)
            .with_state(script.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        Origin {
            addr,
            script,
            _shutdown: tx,
        }
    }

    /// With `robots.txt` answering `reply`.
    pub async fn serving(reply: Reply) -> Origin {
        let origin = Origin::start().await;
        origin.set("/robots.txt", reply);
        origin
    }

    pub fn set(&self, path: &str, reply: Reply) {
        self.script
            .lock()
            .unwrap()
            .replies
            .insert(path.into(), reply);
    }

    pub fn hits(&self, path: &str) -> usize {
        self.script
            .lock()
            .unwrap()
            .hits
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

async fn answer(State(script): State<Arc<Mutex<Script>>>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    let reply = {
        let mut script = script.lock().unwrap();
        *script.hits.entry(path.clone()).or_default() += 1;
        script.replies.get(&path).cloned()
    };
    let reply = reply.unwrap_or_else(|| Reply::text(404, "not found"));
    tokio::time::sleep(reply.delay).await;
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap();
    for (name, value) in reply.headers {
        response.headers_mut().insert(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(&value).unwrap(),
        );
    }
    response
}

/// A crawlgate server running in this process.
pub struct Running {
    pub base: String,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Stops the server and waits until it has let go of its store.
    pub async fn stop(mut self) {
        self.halt().await;
    }

    async fn halt(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A config for tests: any free port, the data directory given, loopback
/// origins allowed, entries kept as long as Cache-Control says.
pub fn config(data_dir: &Path) -> ServerConfig {
    let mut config = ServerConfig::default();
    config.bind = "127.0.0.1:0".parse().unwrap();
    config.data_dir = data_dir.to_path_buf();
    config.targets.allow_private = true;
    config.policy.min_ttl = Duration::ZERO;
    config.fetch_timeout = Duration::from_secs(10);
    config
}

pub async fn start(config: ServerConfig) -> Running {
    let server = Server::bind(config).await.unwrap();
    let base = format!("http://{}", server.local_addr());
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        server
            .run_until(async {
                let _ = rx.await;
            })
            .await
            .unwrap();
    });
    Running {
        base,
        shutdown: Some(tx),
        task: Some(task),
    }
}

pub fn redis_config(data_dir: &Path, redis: &Redis) -> ServerConfig {
    let mut config = config(data_dir);
    config.cache = CacheBackend::Redis {
        url: redis.url(),
        prefix: "test:".into(),
    };
    config
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// GET, returning the status and the JSON body.
pub async fn get(url: &str) -> (u16, Value) {
    let response = client().get(url).send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// POST a JSON body.
pub async fn post(url: &str, body: &Value) -> (u16, Value) {
    post_raw(url, "application/json", serde_json::to_vec(body).unwrap()).await
}

/// POST raw bytes with a content type.
pub async fn post_raw(url: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
    let response = client()
        .post(url)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `?url=…&agent=…`, encoded.
pub fn query(pairs: &[(&str, &str)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A real `redis-server` on a free loopback port, stopped on drop.
pub struct Redis {
    port: u16,
    child: Child,
}

impl Redis {
    pub fn start() -> Redis {
        let port = free_port();
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server must be installed (scripts/test-server.sh installs it)");
        let redis = Redis { port, child };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not start on port {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
