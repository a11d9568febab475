//! `POST /v1/policy`: what the panel asks, answered as `crawlgate policy`
//! (the policy crate) writes it: the file, the diff of a merge, the
//! table, the server rules; bad policies and files as 400s with the field
//! and the words; oversized inputs refused before any work.

use crawlgate_policy::{merge, write, Access, Policy, Purpose};
use serde_json::{json, Value};

use crate::support::{config, post, start};

async fn server() -> (tempfile::TempDir, crate::support::Running) {
    let dir = tempfile::tempdir().unwrap();
    let running = start(config(dir.path())).await;
    (dir, running)
}

fn bar() -> Policy {
    Policy::new()
        .with(Purpose::Search, Access::Allow)
        .with(Purpose::AiTrain, Access::Deny)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answer_is_what_the_command_writes() {
    let (_dir, server) = server().await;
    let url = server.url("/v1/policy");
    let (status, body) = post(
        &url,
        &json!({"purposes": {"search": "allow", "ai-train": "deny"}}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let library = write(&bar()).unwrap();
    assert_eq!(body["robots_txt"], library.text().as_ref());
    assert_eq!(body["diff"], Value::Null);
    assert_eq!(body["proof"]["holds"], true);
    assert_eq!(body["server"]["nginx"], library.server.nginx());
    assert_eq!(body["server"]["haproxy"], library.server.haproxy());
    let rows = body["crawlers"].as_array().unwrap();
    assert_eq!(rows.len(), crawlgate::registry::crawlers().len());
    assert_eq!(
        rows[..],
        serde_json::to_value(library.explain_rows())
            .unwrap()
            .as_array()
            .unwrap()[..]
    );
    let gptbot = rows.iter().find(|r| r["crawler"] == "GPTBot").unwrap();
    assert_eq!(
        (gptbot["allowed"].clone(), gptbot["server_rule"].clone()),
        (json!(false), json!("403"))
    );

    // A merge: the site's file, the diff.
    let site = "User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /tmp/\n";
    let (status, body) = post(
        &url,
        &json!({"purposes": {"ai-train": "deny"}, "private": ["/admin/"], "robots_txt": site}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let library = merge(
        &Policy::new()
            .with(Purpose::AiTrain, Access::Deny)
            .with_private("/admin/"),
        site.as_bytes(),
    )
    .unwrap();
    assert_eq!(body["robots_txt"], library.text().as_ref());
    assert_eq!(body["diff"], library.diff.unwrap());
    assert_eq!(body["notes"], json!(library.notes));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_policies_are_400s_that_name_the_field() {
    let (_dir, server) = server().await;
    let url = server.url("/v1/policy");
    let long = format!("/{}", "a".repeat(70_000));
    let cases = [
        (
            json!({"purposes": {"ai-training": "deny"}}),
            "purposes",
            "not a purpose",
        ),
        (
            json!({"purposes": {"search": "maybe"}}),
            "purposes.search",
            "neither `allow` nor `deny`",
        ),
        (
            json!({"crawlers": {"nobody-at-all": "deny"}}),
            "crawlers",
            "not a crawler",
        ),
        (
            json!({"purposes": {"ai-train": "deny"}, "private": ["/robots.txt"]}),
            "private",
            "crawlers fetch /robots.txt",
        ),
        (json!({"private": ["admin/"]}), "private", "starts with `/`"),
        (
            json!({"private": [long]}),
            "private",
            "longer than 2,000 bytes",
        ),
        (json!({"honeypot": "/"}), "honeypot", "whole site"),
        (json!({"crawl_delay": 99}), "crawl_delay", "outside 1–30"),
        (
            json!({"sitemaps": ["/sitemap.xml"]}),
            "sitemaps",
            "not an absolute",
        ),
        (
            json!({"robots_txt": "<!DOCTYPE html><html></html>", "purposes": {"ai-train": "deny"}}),
            "robots_txt",
            "HTML page",
        ),
        (
            json!({"private": vec!["/a"; 1_001]}),
            "private",
            "at most 1000",
        ),
        (json!({"policy": "x"}), "", "unknown field"),
    ];
    for (request, field, says) in cases {
        let (status, body) = post(&url, &request).await;
        assert_eq!(status, 400, "{request}: {body}");
        let error = &body["error"];
        if !field.is_empty() {
            assert_eq!(error["field"], field, "{body}");
        }
        let problem = error["problem"].as_str().unwrap();
        assert!(problem.contains(says), "{request}: {problem}");
        assert!(problem.len() < 1_000, "{problem}");
    }
    // A file over the limit is refused before any work.
    let huge = "User-agent: *\nDisallow: /x\n".repeat(50_000);
    let (status, body) = post(&url, &json!({"robots_txt": huge})).await;
    assert!(status == 400 || status == 413, "{status}: {body}");
}
