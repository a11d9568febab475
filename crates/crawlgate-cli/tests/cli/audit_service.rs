//! `crawlgate audit --robots-service URL --origin SITE`: the versions a
//! real `crawlgate serve` recorded of a site's robots.txt (served from the
//! test HTTP server, changed between two fetches), each request judged by
//! the version in force at its time; a service that is down, answers 404
//! or answers something else is a clear error naming the URL.

use std::time::{Duration, SystemTime};

use crawlgate::{Reading, Who};
use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, RobotsSource};
use crawlgate_audit::time::format_rfc3339;
use crawlgate_test_support::readings::{AGENTS, EARLIER, LATER, URLS};
use crawlgate_testserver::{Reply, TestServer};
use serde_json::Value;

use crate::audit_readings::checked;
use crate::{crawlgate, free_port, request, stderr_of, Files, Serving};

/// One request to the service on loopback: (status, JSON body).
fn call(port: u16, method: &str, path: &str) -> Option<(u16, Value)> {
    let response = request(port, method, path)?;
    let status = response.get(9..12)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n")?.1;
    // The service answers with a length, never chunked.
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// What `check` says of a fetched `body` (the library, under the crawler's
/// reading).
fn fetched_verdict(body: &str, agent: &str, url: &str) -> (Option<bool>, Option<u64>) {
    let result = FetchResult::Response(HttpResponse::new(200).with_body(body));
    let (outcome, _) = FetchPolicy::default().apply(&result, None, SystemTime::now());
    let source = RobotsSource::fetched(outcome);
    let verdict = source
        .read(Reading::Crawler.profile_for(agent, None))
        .decide(Who::crawler(agent), url);
    (Some(verdict.allowed), verdict.line().map(u64::from))
}

#[test]
fn audit_reads_the_services_versions_and_judges_each_request_by_its_own() {
    let service = Serving::start(&["--allow-private"]);
    let site = TestServer::start([("/robots.txt", Reply::text(200, EARLIER))]);
    let origin = site.url("/");
    let q = format!("origin={}", encode(&origin));
    let (status, body) = call(service.port, "GET", &format!("/v1/robots?{q}&fetch=true")).unwrap();
    assert_eq!(status, 200, "{body}");
    // The site changes; the service records the new version.
    site.set(
        "/robots.txt",
        Reply::text(200, LATER).delayed(Duration::from_millis(5)),
    );
    let (status, body) = call(service.port, "POST", &format!("/v1/refresh?{q}")).unwrap();
    assert_eq!(status, 200, "{body}");
    let mut ids: Vec<u64> = body["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_u64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids.len(), 2, "{body}");
    let (t1, t2) = ((ids[0] / 1000) as i64, (ids[1] / 1000) as i64);
    assert!(
        t2 > t1,
        "the versions are a millisecond apart at least: {ids:?}"
    );

    // Requests a day before the first version, at it, an hour after the
    // change (within the grace) and two days after it.
    let hour = 3_600_000;
    let times = [t1 - 24 * hour, t1, t2 + hour, t2 + 48 * hour];
    let files = Files::new();
    std::fs::create_dir(files.path().join("none")).unwrap();
    files.write("earlier.txt", EARLIER);
    files.write("later.txt", LATER);
    let mut log = String::new();
    for time in times {
        for agent in AGENTS {
            for url in URLS {
                let line = serde_json::json!({
                    "ip": "192.0.2.7", "time": format_rfc3339(time), "url": url, "ua": agent, "status": 200,
                });
                log.push_str(&format!("{line}\n"));
            }
        }
    }
    files.write("access.jsonl", &log);
    let output = crawlgate()
        .current_dir(files.path())
        .args(["audit", "access.jsonl", "--format", "json"])
        .args(["--robots-service", &service.url(), "--origin", &origin])
        .args(["--ip-ranges", "none", "--no-dns", "-o", "rows.jsonl"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let rows: Vec<Value> = std::fs::read_to_string(files.path().join("rows.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), times.len() * AGENTS.len() * URLS.len());
    let robots_url = site.url("/robots.txt");
    let mut by_version = [0; 3];
    for (chunk, time) in rows.chunks(AGENTS.len() * URLS.len()).zip(times) {
        let (file, body, id) = match time {
            t if t < t1 => {
                // Nothing was in force yet.
                for row in chunk {
                    assert_eq!(
                        (&row["allowed"], &row["robots_version"]),
                        (&Value::Null, &Value::Null),
                        "{row}"
                    );
                }
                by_version[0] += chunk.len();
                continue;
            }
            t if t < t2 => ("earlier.txt", EARLIER, ids[0]),
            _ => ("later.txt", LATER, ids[1]),
        };
        let label = format!("{robots_url} version {id} (since ");
        for (agent, rows) in AGENTS.iter().zip(chunk.chunks(URLS.len())) {
            let urls: Vec<&str> = rows.iter().map(|r| r["url"].as_str().unwrap()).collect();
            assert_eq!(urls, URLS);
            let checks = checked(&files, file, agent, &urls, None);
            for ((row, check), url) in rows.iter().zip(checks).zip(URLS) {
                let said = (row["allowed"].as_bool(), row["rule_line"].as_u64());
                assert_eq!(said, check, "{agent} {url} at {time} by {file}");
                assert_eq!(said, fetched_verdict(body, agent, url), "{agent} {url}");
                let version = row["robots_version"].as_str().unwrap();
                assert!(version.starts_with(&label), "{version} is not {label}…");
                by_version[if id == ids[0] { 1 } else { 2 }] += 1;
            }
        }
    }
    assert_eq!(by_version, [20, 20, 40]);
    // Googlebot on /later/x: the new version disallows it, the old one did
    // not: within the grace a recent change, after it a violation.
    let later: Vec<&Value> = rows
        .iter()
        .filter(|r| r["crawler"] == "Googlebot" && r["url"] == "/later/x")
        .collect();
    let flags: Vec<(bool, bool)> = later
        .iter()
        .map(|r| {
            (
                r["recent_change"].as_bool().unwrap(),
                r["violation"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        flags,
        [(false, false), (false, false), (true, false), (false, true)]
    );
}

#[test]
fn a_service_down_missing_or_not_a_service_is_a_clear_error() {
    let files = Files::new();
    files.write(
        "access.log",
        "192.0.2.1 - - [27/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
    );
    let run = |args: &[&str]| {
        let output = crawlgate()
            .current_dir(files.path())
            .args(["audit", "access.log"])
            .args(args)
            .output()
            .unwrap();
        let error = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
        assert!(error.len() < 2_000, "bounded: {error}");
        error
    };
    // Down: nothing listens on the port.
    let down = format!("http://127.0.0.1:{}", free_port());
    let error = run(&["--robots-service", &down, "--origin", "https://example.com"]);
    assert!(
        error.contains(&format!(
            "{down}/v1/robots?origin=https%3A%2F%2Fexample.com"
        )) && error.contains("cannot reach the service"),
        "{error}"
    );
    // The service knows nothing of the origin: its 404, and its words.
    let service = Serving::start(&["--allow-private"]);
    let error = run(&[
        "--robots-service",
        &service.url(),
        "--origin",
        "https://uncached.example",
    ]);
    assert!(
        error.contains(&format!("{}/v1/robots?origin=", service.url()))
            && error.contains("answered HTTP 404")
            && error.contains("nothing is cached"),
        "{error}"
    );
    // Not a crawlgate service: a 404, then JSON of another shape.
    let other = TestServer::start([]);
    let error = run(&[
        "--robots-service",
        &other.url(""),
        "--origin",
        "https://example.com",
    ]);
    assert!(error.contains("answered HTTP 404"), "{error}");
    let asked = other.requests()[0].path.clone();
    other.set(&asked, Reply::text(200, r#"{"history": "none"}"#));
    let error = run(&[
        "--robots-service",
        &other.url(""),
        "--origin",
        "https://example.com",
    ]);
    assert!(
        error.contains(&other.url(&asked))
            && error.contains("not the answer of a crawlgate service"),
        "{error}"
    );
    // Bad arguments.
    let long = format!("https://{}.example", "x".repeat(70_000));
    for (args, says) in [
        (vec!["--robots-service", "http://127.0.0.1:9"], "--origin"),
        (
            vec!["--origin", "https://example.com", "--robots", "r.txt"],
            "--robots-service",
        ),
        (
            vec![
                "--robots-service",
                "127.0.0.1:8080",
                "--origin",
                "https://example.com",
            ],
            "not the URL of a crawlgate service",
        ),
        (
            vec![
                "--robots-service",
                "http://127.0.0.1:9",
                "--origin",
                "/just/a/path",
            ],
            "not an origin",
        ),
        (
            vec!["--robots-service", "http://127.0.0.1:9", "--origin", &long],
            "--robots-service",
        ),
    ] {
        let error = run(&args);
        assert!(error.contains(says), "{}: {error}", args[0]);
    }
}
