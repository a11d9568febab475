//! Two instances on one Redis: one fetch per origin across both, one
//! politeness schedule.

use std::time::Duration;

use serde_json::Value;

use crate::support::{get, query, redis_config, serving, start, Redis, Reply};

/// Seconds since the epoch of an RFC 3339 `YYYY-MM-DDTHH:MM:SSZ` time.
fn epoch_seconds(text: &str) -> i64 {
    let n = |range: std::ops::Range<usize>| text[range].parse::<i64>().unwrap();
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let days = 365 * y + y / 4 - y / 100 + y / 400 + (153 * m + 2) / 5 + d - 719_469;
    days * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)
}

#[test]
fn epoch_seconds_reads_rfc3339() {
    assert_eq!(epoch_seconds("1970-01-01T00:00:00Z"), 0);
    assert_eq!(epoch_seconds("2023-11-14T22:13:20Z"), 1_700_000_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_fetch_once_and_share_one_schedule() {
    let redis = Redis::start();
    let dir = tempfile::tempdir().unwrap();
    let a = start(redis_config(&dir.path().join("a"), &redis)).await;
    let b = start(redis_config(&dir.path().join("b"), &redis)).await;
    let (status, health) = get(&a.url("/healthz")).await;
    assert_eq!((status, health["cache"].as_str()), (200, Some("redis")));

    let robots = "User-agent: *\nCrawl-delay: 2\nDisallow: /private\n";
    let origin = serving(Reply::text(200, robots).delayed(Duration::from_millis(300)));
    let calls = (0..100).map(|n| {
        let server = if n % 2 == 0 { &a } else { &b };
        let url = server.url(&format!(
            "/v1/allowed?{}",
            query(&[
                ("url", &origin.url(&format!("/page/{n}"))),
                ("agent", "bot"),
                ("reserve", "true")
            ])
        ));
        async move { get(&url).await }
    });
    let answers: Vec<(u16, Value)> = futures_util::future::join_all(calls).await;
    let answered = epoch_seconds(&crawlgate_answers::time::rfc3339(
        std::time::SystemTime::now(),
    ));
    assert_eq!(
        origin.hits("/robots.txt"),
        1,
        "one fetch across both instances"
    );

    let mut slots: Vec<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            assert_eq!(body["allowed"], true);
            assert_eq!(body["crawl_delay"], 2.0);
            epoch_seconds(body["next_allowed_at"].as_str().unwrap())
        })
        .collect();
    slots.sort_unstable();
    // Each reservation takes the later of "the last slot + 2 s" and its
    // own now: never closer than 2 s across instances, and further only
    // when the request came later than that, so a wider gap ends at a slot
    // that had come by the time every answer was in (a loaded machine can
    // stall a request for seconds; a schedule that skipped slots cannot
    // pass this).
    for pair in slots.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= 2, "slots 2 s apart across instances: {slots:?}");
        assert!(
            gap == 2 || pair[1] <= answered,
            "a gap of {gap} s before a slot still to come ({answered} answered): {slots:?}"
        );
    }

    // Both serve the same cached copy afterwards; a refresh through one is
    // seen by the other, and the refresh limit holds across them.
    origin.set(
        "/robots.txt",
        Reply::text(200, "User-agent: *\nDisallow: /\n"),
    );
    let q = query(&[("origin", &origin.url("/"))]);
    let (status, body) =
        crate::support::post(&a.url(&format!("/v1/refresh?{q}")), &Value::Null).await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = crate::support::post(&b.url(&format!("/v1/refresh?{q}")), &Value::Null).await;
    assert_eq!(status, 429);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (_, body) = get(&b.url(&format!(
        "/v1/allowed?{}",
        query(&[("url", &origin.url("/page")), ("agent", "bot")])
    )))
    .await;
    assert_eq!(body["allowed"], false, "{body}");
    assert_eq!(body["rule"]["text"], "Disallow: /");
    let (_, state) = get(&b.url(&format!("/v1/robots?{q}"))).await;
    assert_eq!(state["history"].as_array().unwrap().len(), 2, "{state}");
    assert_eq!(origin.hits("/robots.txt"), 2);

    // Without Redis: the health check and new questions fail clearly.
    drop(redis);
    let (status, body) = get(&a.url("/healthz")).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["error"]["code"], "unavailable");
    let other = serving(Reply::text(200, robots));
    let (status, body) = get(&a.url(&format!(
        "/v1/allowed?{}",
        query(&[("url", &other.url("/x")), ("agent", "bot")])
    )))
    .await;
    assert_eq!(status, 503, "{body}");
    assert!(
        body["error"]["problem"].as_str().unwrap().contains("redis"),
        "{body}"
    );
    assert_eq!(other.hits("/robots.txt"), 0);
}
