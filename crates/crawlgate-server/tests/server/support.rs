//! What the server tests run against, all on loopback: scripted origin
//! servers (crawlgate-testserver), crawlgate servers in this process, a
//! real `redis-server`.

use std::net::TcpListener as StdListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crawlgate_server::{CacheBackend, Server, ServerConfig};
use serde_json::Value;
use tokio::sync::oneshot;

pub use crawlgate_testserver::{Reply, TestServer as Origin};

/// A scripted origin whose `/robots.txt` answers `reply`.
pub fn serving(reply: Reply) -> Origin {
    Origin::start([("/robots.txt", reply)])
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

    /// [`Running::stop`], keeping the value (a test's page goes on).
    pub async fn halt(&mut self) {
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
    // Crawler verification never reaches the network in tests: an empty
    // feed mirror and no DNS (the verify tests set their own).
    let mirror = data_dir.join("ip-ranges");
    std::fs::create_dir_all(&mirror).unwrap();
    config.verify.feeds = crawlgate_audit::identity::feeds::FeedSource::Mirror(mirror);
    config.verify.dns = None;
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
