//! The embedded store survives a restart; expired entries are refetched.

use std::time::Duration;

use serde_json::Value;

use crate::support::{config, get, query, serving, start, Origin, Reply};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_and_history_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let lasting = serving(
        Reply::text(200, "User-agent: *\nDisallow: /kept\n")
            .header("cache-control", "max-age=3600"),
    );
    let brief = serving(
        Reply::text(200, "User-agent: *\nDisallow: /brief\n").header("cache-control", "max-age=1"),
    );
    let ask = |server: &crate::support::Running, origin: &Origin, path: &str| {
        server.url(&format!(
            "/v1/allowed?{}",
            query(&[("url", &origin.url(path)), ("agent", "bot")])
        ))
    };

    let first = start(config(dir.path())).await;
    for origin in [&lasting, &brief] {
        let (status, body) = get(&ask(&first, origin, "/x")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["fetch"]["from_cache"], false);
    }
    first.stop().await;

    let second = start(config(dir.path())).await;
    let q = query(&[("origin", &lasting.url("/"))]);
    let (status, state) = get(&second.url(&format!("/v1/robots?{q}"))).await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["history"].as_array().unwrap().len(), 1);
    assert_eq!(state["body"], "User-agent: *\nDisallow: /kept\n");
    let (_, body) = get(&ask(&second, &lasting, "/kept")).await;
    assert_eq!(body["fetch"]["from_cache"], true);
    assert_eq!(body["allowed"], false);
    assert_eq!(
        lasting.hits("/robots.txt"),
        1,
        "served from the store, not refetched"
    );

    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let q = query(&[("origin", &brief.url("/"))]);
    let (_, state) = get(&second.url(&format!("/v1/robots?{q}"))).await;
    assert_eq!(
        state["fetch"]["fresh"], false,
        "expired is never shown as fresh"
    );
    let (_, body) = get(&ask(&second, &brief, "/brief")).await;
    assert_eq!(body["fetch"]["from_cache"], false, "expired: refetched");
    assert_eq!(body["allowed"], false);
    assert_eq!(brief.hits("/robots.txt"), 2);
    let (_, state): (u16, Value) = get(&second.url(&format!("/v1/robots?{q}"))).await;
    assert_eq!(
        state["history"].as_array().unwrap().len(),
        1,
        "same bytes: same version"
    );
}
