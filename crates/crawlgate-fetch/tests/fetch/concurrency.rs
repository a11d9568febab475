//! Single-flight end to end: simultaneous checks on one origin share one
//! fetch, whether it succeeds or fails.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Barrier;

use crate::fetcher;
use crawlgate_testserver::{Reply, TestServer};

async fn hundred_checks(server: &TestServer) -> Vec<(String, bool)> {
    let f = Arc::new(fetcher());
    let barrier = Arc::new(Barrier::new(100));
    let mut tasks = Vec::new();
    for i in 0..100 {
        let (f, barrier) = (f.clone(), barrier.clone());
        let path = if i % 2 == 0 {
            format!("/private/{i}")
        } else {
            format!("/public/{i}")
        };
        let url = server.url(&path);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let d = f.check(&url, "bot").await.unwrap();
            (path, d.verdict.allowed)
        }));
    }
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    results
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_simultaneous_checks_cause_one_fetch() {
    let robots =
        Reply::ok("User-agent: *\nDisallow: /private\n").delayed(Duration::from_millis(300));
    let server = TestServer::start([("/robots.txt", robots)]);
    let results = hundred_checks(&server).await;
    assert_eq!(results.len(), 100);
    for (path, allowed) in results {
        assert_eq!(allowed, !path.starts_with("/private"), "{path}");
    }
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_simultaneous_checks_share_one_failure() {
    let server = TestServer::start([("/robots.txt", Reply::Hang)]);
    let results = hundred_checks(&server).await;
    assert!(
        results.iter().all(|(_, allowed)| !allowed),
        "a timeout disallows everything"
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}
