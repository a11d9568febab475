//! Politeness that cannot be poisoned: asking does not reserve; a
//! reservation never lies beyond the horizon, with the embedded store and
//! with Redis, however many are asked for; a reset forgets them.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate_answers::Origin;
use crawlgate_fetch::{Pacing, PolitenessConfig};
use crawlgate_server::{EmbeddedStore, RedisStore, Slot, Store};
use serde_json::Value;

use crate::support::{client, config, get, query, redis_config, serving, start, Redis, Reply};

const HORIZON: Duration = Duration::from_secs(600);

/// 100,000 reservations on one origin, 16 at a time: every one granted
/// lies within the horizon of when it was asked, and so does the next free
/// time afterwards.
async fn hundred_thousand_reservations(store: Store) {
    let origin = Origin::from_url("https://busy.example/").unwrap();
    let pacing = Pacing::unrestricted(&PolitenessConfig::default()); // 1 s apart
    let store = Arc::new(store);
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let (store, origin) = (store.clone(), origin.clone());
            tokio::spawn(async move {
                let (mut reserved, mut full) = (0u32, 0u32);
                for _ in 0..6_250 {
                    let now = SystemTime::now();
                    match store
                        .slot(&origin, &pacing, now, HORIZON, true)
                        .await
                        .unwrap()
                    {
                        Slot::Reserved(at) => {
                            assert!(
                                at <= now + HORIZON,
                                "reserved {at:?} past {now:?} + horizon"
                            );
                            reserved += 1;
                        }
                        Slot::Full { retry_at } => {
                            assert!(retry_at <= now + Duration::from_secs(2), "{retry_at:?}");
                            full += 1;
                        }
                        Slot::Free(_) => unreachable!("a reservation was asked"),
                    }
                }
                (reserved, full)
            })
        })
        .collect();
    let (mut reserved, mut full) = (0, 0);
    for task in tasks {
        let (r, f) = task.await.unwrap();
        reserved += r;
        full += f;
    }
    assert_eq!(reserved + full, 100_000);
    // 1 s apart within 600 s: about 600 granted (more as time passes).
    assert!((590..=700).contains(&reserved), "{reserved} reserved");
    let now = SystemTime::now();
    let Slot::Free(next) = store
        .slot(&origin, &pacing, now, HORIZON, false)
        .await
        .unwrap()
    else {
        unreachable!()
    };
    assert!(
        next <= now + HORIZON,
        "the next free time is past the horizon"
    );
    assert!(
        next >= now + HORIZON - Duration::from_secs(30),
        "the schedule is full"
    );
    // A reset forgets them all.
    assert!(store.reset_schedule(&origin).await.unwrap());
    let Slot::Reserved(at) = store
        .slot(&origin, &pacing, now, HORIZON, true)
        .await
        .unwrap()
    else {
        unreachable!()
    };
    assert_eq!(at, now);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reservations_stay_within_the_horizon_embedded() {
    let dir = tempfile::tempdir().unwrap();
    let store = EmbeddedStore::open(dir.path(), 1 << 20, 1 << 20).unwrap();
    hundred_thousand_reservations(Store::Embedded(Arc::new(store))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reservations_stay_within_the_horizon_redis() {
    let redis = Redis::start();
    let store = RedisStore::connect(&redis.url(), "horizon:", 1 << 20, Duration::from_secs(60))
        .await
        .unwrap();
    hundred_thousand_reservations(Store::Redis(store.clone())).await;

    // A slot written far ahead (by an older version that reserved without
    // bound) reads as if at the horizon, and expires with it.
    let origin = Origin::from_url("https://poisoned.example/").unwrap();
    let pacing = Pacing::unrestricted(&PolitenessConfig::default());
    let six_days = SystemTime::now() + Duration::from_secs(6 * 86_400);
    let micros = six_days
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_micros()
        .to_string();
    let mut conn = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let _: () = redis::cmd("SET")
        .arg("horizon:slot:https://poisoned.example")
        .arg(micros)
        .query_async(&mut conn)
        .await
        .unwrap();
    let store = Store::Redis(store);
    let now = SystemTime::now();
    let Slot::Free(next) = store
        .slot(&origin, &pacing, now, HORIZON, false)
        .await
        .unwrap()
    else {
        unreachable!()
    };
    assert!(next <= now + HORIZON + Duration::from_secs(1), "{next:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asking_does_not_reserve_and_reserving_is_bounded() {
    for shared in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let redis = shared.then(Redis::start);
        let mut config = match &redis {
            Some(redis) => redis_config(dir.path(), redis),
            None => config(dir.path()),
        };
        config.limits.politeness_horizon = Duration::from_secs(60);
        let server = start(config).await;
        // Crawl-delay 10 s: six reservations fit in a minute.
        let origin = serving(Reply::text(200, "User-agent: *\nCrawl-delay: 10\n"));
        let ask = server.url(&format!(
            "/v1/allowed?{}",
            query(&[("url", &origin.url("/page")), ("agent", "bot")])
        ));
        // Two hundred questions without reserve (many times the six a
        // minute holds) move nothing.
        for _ in 0..200 {
            let (status, body) = get(&ask).await;
            assert_eq!(status, 200);
            assert_eq!(body["reservation"], "none");
            assert_eq!(body["wait_ms"], 0, "{body}");
        }
        let mut answers: Vec<Value> = Vec::new();
        for _ in 0..20 {
            answers.push(get(&format!("{ask}&reserve=true")).await.1);
        }
        let reserved = answers
            .iter()
            .filter(|a| a["reservation"] == "reserved")
            .count();
        assert_eq!(reserved, 6, "{answers:?}");
        for answer in &answers {
            if answer["reservation"] == "reserved" {
                assert!(answer["wait_ms"].as_u64().unwrap() <= 50_000, "{answer}");
            } else {
                assert_eq!(answer["reservation"], "full");
                assert_eq!(answer["next_allowed_at"], Value::Null);
                let retry = answer["retry_after_ms"].as_u64().unwrap();
                assert!((1..=10_000).contains(&retry), "{answer}");
            }
        }
        // Reset through the API: the next request may go now.
        let origin_url = origin.url("/");
        let response = client()
            .delete(server.url(&format!(
                "/v1/schedule?{}",
                query(&[("origin", &origin_url)])
            )))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["cleared"], true, "{body}");
        let (_, body) = get(&format!("{ask}&reserve=true")).await;
        assert_eq!(
            (body["reservation"].clone(), body["wait_ms"].clone()),
            ("reserved".into(), 0.into())
        );
        server.stop().await;
    }
}
