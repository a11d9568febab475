//! `crawlgate serve` starts the service with its defaults overridden by
//! flags, and stops on SIGTERM.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{free_port, request};

fn get(port: u16, path: &str) -> Option<String> {
    request(port, "GET", path)
}

#[test]
fn serve_answers_health_and_the_api_then_stops_on_sigterm() {
    let data = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
        .env("CRAWLGATE_DATA_DIR", data.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let health = loop {
        if let Some(response) = get(port, "/healthz") {
            break response;
        }
        assert!(Instant::now() < deadline, "crawlgate serve did not answer");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.contains(r#""cache":"embedded""#), "{health}");
    // Loopback targets are refused without --allow-private.
    let refused = get(
        port,
        "/v1/allowed?url=http%3A%2F%2F127.0.0.1%3A9%2F&agent=bot",
    )
    .unwrap();
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(
        data.path().join("cache.redb").is_file(),
        "the store lives in the data directory"
    );

    let status = Command::new("kill")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(
        stderr.contains(&format!("serving on http://127.0.0.1:{port}")),
        "{stderr}"
    );
}

#[test]
fn serve_rejects_an_unknown_cache() {
    let output = Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .args(["serve", "--cache", "memcached://x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--cache"), "{stderr}");
}

#[test]
fn serve_rejects_unusable_limits() {
    for (args, flag) in [
        (vec!["--memory-budget", "lots"], "--memory-budget"),
        (vec!["--body-timeout", "soon"], "--body-timeout"),
        (vec!["--politeness-horizon", "5s"], "--politeness-horizon"),
        (vec!["--max-target", "1M"], "--max-target"),
        (
            vec!["--max-fetches-per-client", "0"],
            "--max-fetches-per-client",
        ),
    ] {
        let output = Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
            .arg("serve")
            .args(&args)
            .env("CRAWLGATE_DATA_DIR", std::env::temp_dir())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}
