//! `crawlgate fetch` and the URL forms of `check`, `explain` and `test`,
//! against a scripted server on 127.0.0.1 (never anything else).

use std::time::{Duration, Instant};

use crawlgate_testserver::{Reply, TestServer};
use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files};

const ROBOTS: &str = "\
User-agent: *
Disallow: /private
Allow: /private/press
Sitemap: https://example.com/sitemap.xml
";

fn site() -> TestServer {
    TestServer::start([("/robots.txt", Reply::text(200, ROBOTS))])
}

#[test]
fn fetch_shows_the_redirect_chain_status_outcome_and_ttl() {
    let server = TestServer::start([
        ("/robots.txt", Reply::redirect(301, "/moved/robots.txt")),
        (
            "/moved/robots.txt",
            Reply::text(200, ROBOTS).header("Cache-Control", "max-age=3600"),
        ),
    ]);
    let output = crawlgate()
        .args(["fetch", &server.url("/some/page"), "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let robots = server.url("/robots.txt");
    let moved = server.url("/moved/robots.txt");
    for expected in [
        format!("robots    {robots}  (for {})\n", server.url("")),
        format!("          1. GET {robots}  301 → /moved/robots.txt"),
        format!("          2. GET {moved}  200"),
        "status    HTTP 200, text/plain\n".to_owned(),
        format!("bytes     {} read, {} parsed\n", ROBOTS.len(), ROBOTS.len()),
        "outcome   conditional: robots.txt fetched and parsed\n".to_owned(),
        "kept for 3600 s (1 h)\n".to_owned(),
        "rules     1 group, 0 parser diagnostics\n".to_owned(),
        "sitemaps  https://example.com/sitemap.xml\n".to_owned(),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in\n{text}");
    }
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/robots.txt", "/moved/robots.txt"]);
}

#[test]
fn fetch_json_and_user_agent_header() {
    let server = site();
    let output = crawlgate()
        .args([
            "fetch",
            &server.url("/"),
            "--allow-private",
            "--json",
            "--user-agent",
            "testbot/1.0 (+https://example.com/bot)",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["robots_url"], server.url("/robots.txt"));
    assert_eq!(json["status"], 200);
    assert_eq!(json["outcome"], "conditional");
    assert_eq!(json["ttl_seconds"], 86_400);
    assert_eq!(json["sitemaps"][0], "https://example.com/sitemap.xml");
    assert_eq!(
        server.requests()[0].header("User-Agent"),
        Some("testbot/1.0 (+https://example.com/bot)")
    );
}

#[test]
fn fetch_body_prints_the_file() {
    let server = site();
    crawlgate()
        .args(["fetch", &server.url("/"), "--allow-private", "--body"])
        .assert()
        .success()
        .stdout(ROBOTS);
}

#[test]
fn fetch_server_error_is_full_disallow_and_exit_1() {
    let server = TestServer::start([("/robots.txt", Reply::text(503, "busy"))]);
    let output = crawlgate()
        .args(["fetch", &server.url("/"), "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stdout_of(&output);
    assert!(text.contains("status    HTTP 503"), "{text}");
    assert!(
        text.contains("outcome   full disallow: server error or network failure"),
        "{text}"
    );
    assert!(
        text.contains("warnings  HTTP 503: everything disallowed until a retry succeeds"),
        "{text}"
    );
}

#[test]
fn fetch_warns_about_html() {
    let server = TestServer::start([(
        "/robots.txt",
        Reply::status(200)
            .header("Content-Type", "text/html; charset=utf-8")
            .body("<html><body>Not here</body></html>"),
    )]);
    crawlgate()
        .args(["fetch", &server.url("/"), "--allow-private"])
        .assert()
        .success()
        .stdout(predicate::str::contains("served as text/html"));
}

#[test]
fn loopback_is_refused_without_allow_private() {
    let server = site();
    crawlgate()
        .args(["fetch", &server.url("/")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("127.0.0.1 is a loopback address"))
        .stderr(predicate::str::contains("pass --allow-private to allow it"));
    crawlgate()
        .args(["check", &server.url("/private"), "-a", "bot"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("pass --allow-private"));
    assert!(server.requests().is_empty(), "nothing was sent");
}

#[test]
fn fetch_rejects_what_is_not_an_http_url() {
    for url in ["example.com", "ftp://example.com/", "/robots.txt"] {
        crawlgate()
            .args(["fetch", url])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("is not an http(s) URL"));
    }
}

#[test]
fn check_a_page_fetches_its_sites_robots_txt() {
    let server = site();
    let page = server.url("/private/x");
    let output = crawlgate()
        .args(["check", &page, "--agent", "mybot", "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let robots = server.url("/robots.txt");
    assert_eq!(
        stdout_of(&output),
        format!(
            "{robots}: HTTP 200, {} bytes: conditional (robots.txt fetched and parsed)\n\
             disallowed  {page}  {robots}:2  Disallow: /private\n",
            ROBOTS.len()
        )
    );
}

#[test]
fn check_a_site_with_relative_and_absolute_urls() {
    let server = site();
    let output = crawlgate()
        .args([
            "check",
            &server.url("/"),
            "-a",
            "mybot",
            "--allow-private",
            "/private/press/1",
            &server.url("/open"),
            "/robots.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let robots = server.url("/robots.txt");
    let width = server.url("/private/press/1").len();
    assert!(
        text.contains(&format!(
            "allowed     {}  {robots}:3  Allow: /private/press\n",
            server.url("/private/press/1")
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "allowed     {:<width$}  no rule matched\n",
            server.url("/open")
        )),
        "{text}"
    );
    assert!(
        text.contains("/robots.txt itself is always allowed"),
        "{text}"
    );
    // One fetch for the three URLs.
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn check_obeys_the_fetch_outcome() {
    let missing = TestServer::start([]);
    let output = crawlgate()
        .args([
            "check",
            &missing.url("/anything"),
            "-a",
            "bot",
            "--allow-private",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stdout_of(&output).ends_with(&format!(
            "allowed     {}  full allow: no robots.txt (4xx): everything allowed\n",
            missing.url("/anything")
        )),
        "{}",
        stdout_of(&output)
    );

    let failing = TestServer::start([("/robots.txt", Reply::text(500, "oops"))]);
    let output = crawlgate()
        .args([
            "check",
            &failing.url("/anything"),
            "-a",
            "bot",
            "--allow-private",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout_of(&output).contains(
        "full disallow: server error or network failure: everything disallowed until a retry succeeds"
    ));
    assert!(stderr_of(&output).contains("warning: "));
}

#[test]
fn check_json_includes_the_fetch() {
    let server = site();
    let output = crawlgate()
        .args([
            "check",
            &server.url("/"),
            "-a",
            "bot",
            "--allow-private",
            "--json",
            "/private",
        ])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["results"][0]["url"], server.url("/private"));
    assert_eq!(json["results"][0]["robots"], server.url("/robots.txt"));
    assert_eq!(json["results"][0]["allowed"], false);
    assert_eq!(json["fetches"][0]["status"], 200);
}

#[test]
fn check_all_profiles_on_a_fetched_file() {
    let server = TestServer::start([(
        "/robots.txt",
        Reply::text(200, "User-agent: *\nDisallow: /*.php$\n"),
    )]);
    let output = crawlgate()
        .args([
            "check",
            &server.url("/"),
            "-a",
            "bot",
            "--allow-private",
            "--all-profiles",
            "/a.php",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout_of(&output).contains("(profiles disagree)"));
}

#[test]
fn a_hanging_server_times_out_as_full_disallow() {
    let server = TestServer::start([("/robots.txt", Reply::Hang)]);
    let started = Instant::now();
    let output = crawlgate()
        .args([
            "check",
            &server.url("/x"),
            "-a",
            "bot",
            "--allow-private",
            "--timeout",
            "0.5",
        ])
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the timeout was obeyed"
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout_of(&output).contains("timed out"),
        "{}",
        stdout_of(&output)
    );
}

#[test]
fn bad_timeout_is_a_usage_error() {
    crawlgate()
        .args(["fetch", "http://127.0.0.1:9/", "--timeout", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a number of seconds"));
}

#[test]
fn explain_a_fetched_file() {
    let server = site();
    let output = crawlgate()
        .args([
            "explain",
            &server.url("/private/x"),
            "-a",
            "mybot",
            "--allow-private",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    let robots = server.url("/robots.txt");
    assert!(
        text.contains(&format!("How `mybot` reads {robots} (google profile)")),
        "{text}"
    );
    // The page given as ROBOTS is explained.
    assert!(
        text.contains(&format!("{}  disallowed\n", server.url("/private/x"))),
        "{text}"
    );
    assert!(
        text.contains(&format!("{robots}:2  Disallow: /private")),
        "{text}"
    );
}

#[test]
fn explain_rejects_urls_of_another_site() {
    let server = site();
    crawlgate()
        .args([
            "explain",
            &server.url("/"),
            "-a",
            "bot",
            "--allow-private",
            "https://example.com/x",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not on"));
    assert!(server.requests().is_empty());
}

#[test]
fn explain_a_full_disallow() {
    let server = TestServer::start([("/robots.txt", Reply::text(503, ""))]);
    let output = crawlgate()
        .args([
            "explain",
            &server.url("/"),
            "-a",
            "bot",
            "--allow-private",
            "/x",
        ])
        .output()
        .unwrap();
    let text = stdout_of(&output);
    assert!(
        text.contains("No rules are read: server error or network failure"),
        "{text}"
    );
    assert!(
        text.contains("/x  disallowed\n  the fetch outcome decides"),
        "{text}"
    );
}

#[test]
fn test_against_a_fetched_file() {
    let server = site();
    let files = Files::new();
    files.write("expect.txt", "disallow bot /private\nallow bot /\n");
    crawlgate()
        .current_dir(files.path())
        .args(["test", &server.url("/"), "expect.txt", "--allow-private"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("2 passed, 0 failed\n"));
    files.write("other.txt", "allow bot https://example.com/\n");
    crawlgate()
        .current_dir(files.path())
        .args(["test", &server.url("/"), "other.txt", "--allow-private"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "other.txt:1: `https://example.com/` is not on",
        ));
}

#[test]
fn check_urls_of_several_sites_fetches_each_robots_txt_once() {
    let first = site();
    let second = TestServer::start([(
        "/robots.txt",
        Reply::text(200, "User-agent: *\nDisallow: /\n"),
    )]);
    let output = crawlgate()
        .args([
            "check",
            &first.url("/"),
            "-a",
            "bot",
            "--allow-private",
            "/private",
            &second.url("/a"),
            &second.url("/b"),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stdout_of(&output);
    assert!(
        text.contains(&format!(
            "{}:2  Disallow: /private",
            first.url("/robots.txt")
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:2  Disallow: /", second.url("/robots.txt"))),
        "{text}"
    );
    assert_eq!((first.requests().len(), second.requests().len()), (1, 1));
}

#[test]
fn allow_private_does_not_open_link_local_addresses_to_redirects() {
    for target in [
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://169.254.1.2/",
        "http://[fe80::1]/",
    ] {
        let server = TestServer::start([("/robots.txt", Reply::redirect(302, target))]);
        for command in [
            vec!["fetch", "URL", "--allow-private"],
            vec!["check", "URL", "-a", "bot", "--allow-private"],
        ] {
            let url = server.url("/page");
            let args: Vec<&str> = command
                .iter()
                .map(|a| if *a == "URL" { url.as_str() } else { a })
                .collect();
            let output = crawlgate()
                .args(&args)
                .timeout(Duration::from_secs(60))
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(2), "{target}: {args:?}");
            let error = stderr_of(&output);
            assert!(
                error.contains("refused to fetch")
                    && error.contains(
                        "must be allowed explicitly, apart from other non-public addresses"
                    )
                    && error.ends_with(": pass --allow-link-local to allow it\n"),
                "{target}: {error}"
            );
        }
        assert_eq!(server.hits("/robots.txt"), 2, "only the first hop");
    }
}
