//! Real headless Chromium for browser tests, driven through chromedriver
//! with fantoccini (feature `browser`).
//!
//! [`Chromedriver::start`] runs chromedriver on a free loopback port (stopped
//! with every browser it started on drop, or when the test process ends
//! however it ends); [`Chromedriver::shared`] is one for the whole test
//! process. [`Chromedriver::session`] opens a headless Chromium with a fresh
//! profile and [`ChromiumOptions`]; [`Chromedriver::reused`] takes a session
//! an earlier test gave back, made fresh, so that tests do not each wait
//! for Chromium to start. [`Screenshots`] keeps what a test wants to look
//! at afterwards under `target/`. A missing chromedriver is a clear
//! failure, never a skipped test.
//!
//! ```
//! use crawlgate_testserver::browser::{console_messages, Chromedriver, ChromiumOptions, Screenshots};
//! use crawlgate_testserver::{Reply, TestServer};
//! use serde_json::json;
//!
//! let page = Reply::status(200).header("Content-Type", "text/html");
//! let server = TestServer::start([("/", page.body("<title>hello</title>"))]);
//! let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! runtime.block_on(async {
//!     let driver = Chromedriver::start();
//!     let console = json!({"browser": "ALL"});
//!     let options = ChromiumOptions::new().window(800, 600).capability("goog:loggingPrefs", console);
//!     let client = driver.session(&options).await;
//!     client.goto(&server.url("/")).await.unwrap();
//!     assert_eq!(client.title().await.unwrap(), "hello");
//!     client.execute("console.warn('careful')", vec![]).await.unwrap();
//!     let said = console_messages(&client).await;
//!     assert!(said.as_array().unwrap().iter().any(|m| m["message"].as_str().unwrap().contains("careful")));
//!     let shot = Screenshots::folder("testserver-screenshots").take(&client, "hello.png").await;
//!     assert!(std::fs::metadata(shot).unwrap().len() > 0);
//!     client.close().await.unwrap();
//! });
//! ```

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Map, Value};

/// The browser the sessions run.
const CHROMIUM: &str = "/usr/bin/chromium";

/// What installs chromium and chromedriver, for the failure message.
const INSTALL: &str = "install chromium and chromium-driver (scripts/test-all.sh installs them)";

/// How long chromedriver may take to listen.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs chromedriver (`$1`: its port) in a process group of its own, with
/// every Chromium it starts, and waits until the test process closes this
/// script's standard input (on drop, or by ending, however it ends: even
/// killed, its end of the pipe closes) or chromedriver exits; then kills
/// the group and removes the profiles' folder (`$2`). Killing chromedriver
/// alone would leave its browsers running. The script is in a group of its
/// own too, so that Ctrl-C on the tests reaches it only through the pipe.
/// The folder is their TMPDIR as well: a killed Chromium leaves its
/// `org.chromium.Chromium.*` folder there, not in /tmp.
const WATCH: &str = r#"set -m
TMPDIR="$2" chromedriver --port="$1" </dev/null >/dev/null 2>&1 &
driver=$!
cat >/dev/null &
wait -n "$driver" $!
status=$?
kill -KILL -- -"$driver" 2>/dev/null
rm -rf -- "$2"
exit "$status""#;

/// chromedriver on a free port of 127.0.0.1 with a temporary folder for
/// its sessions' profiles; on drop, or when the test process ends, it is
/// stopped with every browser it started.
#[derive(Debug)]
pub struct Chromedriver {
    port: u16,
    watch: Child,
    /// The write end of the watch script's pipe: closing it stops everything.
    lifeline: Option<ChildStdin>,
    profiles: PathBuf,
    sessions: AtomicUsize,
    /// Sessions of [`Chromedriver::reused`] that no test holds.
    idle: Mutex<Vec<String>>,
}

impl Chromedriver {
    /// Starts chromedriver and waits until it listens. Panics when it is not
    /// installed, exits, or does not listen within 20 seconds: a browser
    /// test cannot go on without it.
    pub fn start() -> Chromedriver {
        let found = std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|dir| dir.join("chromedriver").is_file())
        });
        assert!(found, "chromedriver is not on the PATH: {INSTALL}");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let profiles = tempfile::Builder::new()
            .prefix("chromium-profiles")
            .tempdir()
            .expect("a folder for Chromium profiles")
            .keep();
        let mut watch = Command::new("bash")
            .arg("-c")
            .arg(WATCH)
            .arg("chromedriver-watch")
            .arg(port.to_string())
            .arg(&profiles)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run bash to start chromedriver ({e})"));
        let lifeline = watch.stdin.take();
        let deadline = Instant::now() + START_TIMEOUT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = watch.try_wait() {
                panic!("chromedriver exited at start ({status}): {INSTALL}");
            }
            if Instant::now() >= deadline {
                drop(lifeline);
                let _ = watch.wait();
                panic!("chromedriver did not listen within {START_TIMEOUT:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Chromedriver {
            port,
            watch,
            lifeline,
            profiles,
            sessions: AtomicUsize::new(0),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// One chromedriver for the whole test process, started by the first
    /// caller and stopped with every browser when the process ends. A
    /// failed start panics in every caller, each trying again.
    pub fn shared() -> &'static Chromedriver {
        static SHARED: OnceLock<Chromedriver> = OnceLock::new();
        SHARED.get_or_init(Chromedriver::start)
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Opens a headless Chromium session with a fresh profile. Panics when
    /// Chromium cannot start.
    pub async fn session(&self, options: &ChromiumOptions) -> Client {
        let n = self.sessions.fetch_add(1, Ordering::Relaxed);
        let profile = self.profiles.join(format!("session-{n}"));
        ClientBuilder::new(HttpConnector::new())
            .capabilities(options.capabilities(&profile))
            .connect(&self.url())
            .await
            .unwrap_or_else(|e| panic!("cannot open a Chromium session ({e}): {INSTALL}"))
    }

    /// A session that an earlier test gave back with [`Reused::release`]
    /// (or a new one, with the default options, when none is idle), made
    /// fresh: on `about:blank`, its cache and cookies cleared, its viewport
    /// `width`×`height` pixels. Starting Chromium took about a second of
    /// each test.
    pub async fn reused(&self, width: u32, height: u32) -> Reused<'_> {
        let idle = self.idle.lock().unwrap().pop();
        let client = match idle {
            Some(id) => Client::with_existing_session(&self.url(), &id, HttpConnector::new())
                .await
                .unwrap_or_else(|e| panic!("cannot reach the Chromium session {id} ({e})")),
            None => self.session(&ChromiumOptions::new()).await,
        };
        // Dropping this client must not end the session; `Reused` does.
        client.persist().await.unwrap();
        let id = client.session_id().await.unwrap().expect("a session id");
        let fresh = |result: Result<_, fantoccini::error::CmdError>| {
            result
                .unwrap_or_else(|e| panic!("the Chromium session {id} cannot be made fresh ({e})"))
        };
        fresh(client.goto("about:blank").await);
        for cmd in ["Network.clearBrowserCache", "Network.clearBrowserCookies"] {
            client
                .issue_cmd(Cdp(cmd))
                .await
                .unwrap_or_else(|e| panic!("the Chromium session {id} cannot be made fresh ({e})"));
        }
        // Sized through WebDriver: a headless window started with
        // --window-size=390,... is 500 pixels wide inside; sized this way,
        // it is as wide as asked.
        fresh(client.set_window_rect(0, 0, width, height).await);
        Reused {
            client,
            id,
            driver: self,
            released: false,
        }
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        // The watch script stops chromedriver and its browsers.
        drop(self.lifeline.take());
        let _ = self.watch.wait();
    }
}

/// A Chromium DevTools command without parameters, through chromedriver.
#[derive(Debug)]
struct Cdp(&'static str);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (hyper::Method, Option<String>) {
        (
            hyper::Method::POST,
            Some(json!({"cmd": self.0, "params": {}}).to_string()),
        )
    }
}

/// The browser's console messages since the last call (chromedriver's
/// `browser` log; the session must have been opened with the capability
/// `goog:loggingPrefs` set to `{"browser": "ALL"}`): a JSON array, empty
/// when the page said nothing.
///
/// # Panics
///
/// When chromedriver does not answer (a test helper: the test fails).
pub async fn console_messages(client: &Client) -> Value {
    client
        .issue_cmd(BrowserLog)
        .await
        .expect("chromedriver answers for the browser's log")
}

/// chromedriver's command for the browser's log.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (hyper::Method, Option<String>) {
        (
            hyper::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

/// A session of [`Chromedriver::reused`]: given back by
/// [`Reused::release`]; ended if dropped otherwise (a test that failed
/// midway leaves its page in a state the next should not see).
#[derive(Debug)]
pub struct Reused<'a> {
    client: Client,
    id: String,
    driver: &'a Chromedriver,
    released: bool,
}

impl Reused<'_> {
    /// The session's client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Gives the session back for the next test.
    pub fn release(mut self) {
        self.released = true;
        self.driver.idle.lock().unwrap().push(self.id.clone());
    }
}

impl Drop for Reused<'_> {
    fn drop(&mut self) {
        if self.released {
            return;
        }
        // Ended on a thread of its own: this may be a panicking test's
        // runtime, and the next test must not wait for it.
        let (url, id) = (self.driver.url(), self.id.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                if let Ok(client) =
                    Client::with_existing_session(&url, &id, HttpConnector::new()).await
                {
                    let _ = client.close().await;
                }
            });
        });
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
