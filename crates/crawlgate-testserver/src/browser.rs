//! Real headless Chromium for browser tests, driven through chromedriver
//! with fantoccini (feature `browser`).
//!
//! [`Chromedriver::start`] runs chromedriver on a free loopback port (stopped
//! on drop); [`Chromedriver::session`] opens a headless Chromium with a fresh
//! profile and [`ChromiumOptions`]; [`Screenshots`] keeps what a test wants
//! to look at afterwards under `target/`. A missing chromedriver is a clear
//! failure, never a skipped test.
//!
//! ```
//! use crawlgate_testserver::browser::{Chromedriver, ChromiumOptions, Screenshots};
//! use crawlgate_testserver::{Reply, TestServer};
//!
//! let page = Reply::status(200).header("Content-Type", "text/html");
//! let server = TestServer::start([("/", page.body("<title>hello</title>"))]);
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! runtime.block_on(async {
//!     let driver = Chromedriver::start();
//!     let client = driver.session(&ChromiumOptions::new().window(800, 600)).await;
//!     client.goto(&server.url("/")).await.unwrap();
//!     assert_eq!(client.title().await.unwrap(), "hello");
//!     let shot = Screenshots::folder("testserver-screenshots").take(&client, "hello.png").await;
//!     assert!(std::fs::metadata(shot).unwrap().len() > 0);
//!     client.close().await.unwrap();
//! });
//! ```

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Map, Value};

/// The browser the sessions run.
const CHROMIUM: &str = "/usr/bin/chromium";

/// What installs chromium and chromedriver, for the failure message.
const INSTALL: &str = "install chromium and chromium-driver (scripts/test-all.sh installs them)";

/// How long chromedriver may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// chromedriver on a free port of 127.0.0.1, stopped on drop, with a
/// temporary folder for its sessions' profiles.
#[derive(Debug)]
pub struct Chromedriver {
    port: u16,
    child: Child,
    profiles: tempfile::TempDir,
    sessions: AtomicUsize,
}

impl Chromedriver {
    /// Starts chromedriver and waits until it listens. Panics when it is not
    /// installed, exits, or does not listen within 20 seconds: a browser
    /// test cannot go on without it.
    pub fn start() -> Chromedriver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let mut child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run chromedriver ({e}): {INSTALL}"));
        let deadline = Instant::now() + START_TIMEOUT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("chromedriver exited at start ({status}): {INSTALL}");
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromedriver did not listen within {START_TIMEOUT:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Chromedriver {
            port,
            child,
            profiles: tempfile::tempdir().expect("a folder for Chromium profiles"),
            sessions: AtomicUsize::new(0),
        }
    }

    /// Opens a headless Chromium session with a fresh profile. Panics when
    /// Chromium cannot start.
    pub async fn session(&self, options: &ChromiumOptions) -> Client {
        let n = self.sessions.fetch_add(1, Ordering::Relaxed);
        let profile = self.profiles.path().join(format!("session-{n}"));
        ClientBuilder::new(HttpConnector::new())
            .capabilities(options.capabilities(&profile))
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .unwrap_or_else(|e| panic!("cannot open a Chromium session ({e}): {INSTALL}"))
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a Chromium session differs from test to test: its window and any
/// further WebDriver capabilities.
#[derive(Clone, Debug)]
pub struct ChromiumOptions {
    window: (u32, u32),
    extra: Map<String, Value>,
}

impl Default for ChromiumOptions {
    /// A 1280×1000 window, no further capabilities.
    fn default() -> Self {
        ChromiumOptions {
            window: (1280, 1000),
            extra: Map::new(),
        }
    }
}

impl ChromiumOptions {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// The window's width and height in pixels.
    pub fn window(mut self, width: u32, height: u32) -> Self {
        self.window = (width, height);
        self
    }

    /// A further capability, such as `goog:loggingPrefs` to read the console
    /// afterwards; `goog:chromeOptions` is this module's own.
    pub fn capability(mut self, name: &str, value: Value) -> Self {
        self.extra.insert(name.to_owned(), value);
        self
    }

    /// The capabilities of a session with its profile in `profile`.
    fn capabilities(&self, profile: &Path) -> Map<String, Value> {
        let (width, height) = self.window;
        let mut capabilities = self.extra.clone();
        // No sandbox (Chromium refuses to run as root with one) and no GPU;
        // no QUIC and no background services: the tests' pages are on
        // loopback, and the browser reaches nothing else.
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }),
        );
        capabilities
    }
}

/// A folder under the target directory the tests were built in
/// ([`crawlgate_test_support::target_dir`]) where screenshots are kept after the test.
#[derive(Clone, Debug)]
pub struct Screenshots {
    dir: PathBuf,
}

impl Screenshots {
    /// The folder `name` under the target directory, created if missing.
    pub fn folder(name: &str) -> Screenshots {
        let dir = crawlgate_test_support::target_dir().join(name);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Screenshots { dir }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Saves what `client` shows as the PNG file `file`; returns its path.
    pub async fn take(&self, client: &Client, file: &str) -> PathBuf {
        let png = client.screenshot().await.expect("a screenshot");
        let path = self.dir.join(file);
        std::fs::write(&path, png)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }
}
