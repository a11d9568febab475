//! Google's robots.txt compliance suite (400 expectations, in
//! testdata/google-suite) through `POST /v1/check` on a real server on
//! loopback: every case answered as Google's suite expects, and as the
//! library answers it. The empty agent and the empty URL are asked as they
//! are; the three files that are not UTF-8 go through `robots_txt_b64`.

use base64::Engine;
use serde_json::{json, Value};

use crate::support::{config, post, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_case_of_google_s_suite_through_the_api() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/google-suite/cases.json"
    );
    let suite: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = suite["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 400, "the suite has 400 expectations");

    let dir = tempfile::tempdir().unwrap();
    let server = start(config(dir.path())).await;
    let check = server.url("/v1/check");
    let (mut passed, mut failures, mut b64, mut empty) = (0, Vec::new(), 0, 0);
    for case in cases {
        let (agent, url) = (
            case["agent"].as_str().unwrap(),
            case["url"].as_str().unwrap(),
        );
        // One-token questions: Google's library reads the agent as one token.
        let mut request = json!({"agent": agent, "urls": [url], "reading": "one-token"});
        let bytes = if let Some(text) = case["robots_txt"].as_str() {
            request["robots_txt"] = json!(text);
            text.as_bytes().to_vec()
        } else {
            let encoded = case["robots_txt_b64"].as_str().unwrap();
            request["robots_txt_b64"] = json!(encoded);
            b64 += 1;
            base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .unwrap()
        };
        if agent.is_empty() || url.is_empty() {
            empty += 1;
        }
        let expected = case["allowed"].as_bool().unwrap();
        let library = crawlgate::RobotsTxt::parse(&bytes)
            .decide(agent, url)
            .is_allowed();
        let (status, body) = post(&check, &request).await;
        let answered = body["results"][0]["allowed"].as_bool();
        if status == 200 && answered == Some(expected) && library == expected {
            passed += 1;
        } else {
            failures.push(format!(
                "{} test {} expectation {}: agent {agent:?} url {url:?}: expected {expected}, the API said {status} {answered:?}, the library {library}",
                case["file"], case["test"], case["expectation"]
            ));
        }
    }
    assert_eq!(
        (b64, empty),
        (3, 4),
        "the cases the issue named are among them"
    );
    assert!(
        failures.is_empty(),
        "{passed}/400 passed:\n{}",
        failures.join("\n")
    );
    assert_eq!(passed, 400);
}
