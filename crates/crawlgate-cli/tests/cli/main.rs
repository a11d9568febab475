//! Integration tests: each runs the built `crawlgate` binary.
//!
//! One test crate (one binary to link) with a module per subcommand. The
//! human output of `check`, `explain` and `test` on real files from the
//! shared corpus is compared with insta snapshots in `tests/snapshots/`.

mod architecture;
mod audit;
mod audit_readings;
mod audit_service;
mod batch;
mod check;
mod crawlers;
mod explain;
mod fetch;
mod general;
mod hostile;
mod inputs;
mod lint;
mod pipes;
mod policy;
mod policy_readings;
mod report;
mod report_api;
mod serve;
mod snapshots;
mod survey;
mod terminal;
mod test_cmd;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// The `crawlgate` binary, with colour left to its default (off: the output
/// is a pipe).
pub fn crawlgate() -> Command {
    let mut command = Command::cargo_bin("crawlgate").expect("the crawlgate binary is built");
    command.env_remove("NO_COLOR");
    command
}

/// A directory of test files that is removed afterwards.
pub struct Files {
    dir: TempDir,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }
}

impl Files {
    /// A fresh, empty directory.
    pub fn new() -> Files {
        Files::default()
    }

    /// Writes `name` and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).expect("write a test file");
        path
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// The real-world corpus of robots.txt files (see `crawlgate-corpus`).
pub fn corpus() -> PathBuf {
    crawlgate_corpus::dir()
}

/// A port nothing listens on now, on loopback: for a service a test starts,
/// or an address where none answers.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a loopback port")
        .local_addr()
        .expect("its address")
        .port()
}

/// One HTTP/1.1 request to loopback `port` (no body, `Connection: close`):
/// the whole response, or `None` while nothing answers there.
pub fn request(port: u16, method: &str, path: &str) -> Option<String> {
    send(port, method, path, b"")
}

/// The same with a JSON body.
pub fn send(port: u16, method: &str, path: &str, json: &[u8]) -> Option<String> {
    use std::io::{Read, Write};
    let mut socket = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    write!(
        socket,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        json.len()
    )
    .ok()?;
    socket.write_all(json).ok()?;
    let mut response = String::new();
    socket.read_to_string(&mut response).ok()?;
    Some(response)
}

/// `crawlgate serve` on a free loopback port, its embedded store in a
/// fresh data folder, `args` added; started when it answers `/healthz`,
/// killed when dropped.
pub struct Serving {
    child: std::process::Child,
    /// Where it listens on loopback.
    pub port: u16,
    _data: TempDir,
}

impl Serving {
    /// Starts it and waits (20 seconds at most) until it answers.
    pub fn start(args: &[&str]) -> Serving {
        let data = tempfile::tempdir().expect("a temporary directory");
        let port = free_port();
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
            .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
            .args(args)
            .env("CRAWLGATE_DATA_DIR", data.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("crawlgate serve starts");
        let serving = Serving {
            child,
            port,
            _data: data,
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while request(port, "GET", "/healthz").is_none() {
            assert!(
                std::time::Instant::now() < deadline,
                "crawlgate serve did not answer"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        serving
    }

    /// Its base URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard output of a finished command as text.
pub fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error of a finished command as text.
pub fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// A small robots.txt used by many tests.
pub const SAMPLE: &str = "\
User-agent: Googlebot
Disallow: /nogoogle/
Allow: /nogoogle/ok

User-agent: *
Disallow: /private
Allow: /private/press
Disallow: /*.php$
Sitemap: https://example.com/sitemap.xml
";
