//! `GET /v1/variants`: each host variant of a site fetched (cached when
//! fresh), its own status, and whether crawlers read the same there;
//! garbage, an origin past its bound and ftp get a 4xx with a JSON body;
//! the OpenAPI document lists the route's own statuses.

use std::sync::Arc;
use std::time::Duration;

use crawlgate_fetch::{AddressPolicy, StaticResolver};
use crawlgate_server::Network;
use serde_json::{json, Value};

use crate::support::{config, get, query, serving, start, Reply};

async fn variants(base: &crate::support::Running, origin: &str) -> (u16, Value) {
    get(&base.url(&format!("/v1/variants?{}", query(&[("origin", origin)])))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_variant_has_its_own_fetch_and_file() {
    let site = serving(Reply::text(200, "User-agent: *\nDisallow: /x\n"));
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(&dir.path().join("data"));
    // site.test resolves; www.site.test does not. The https variants meet
    // a plain-HTTP server and fail within the timeout.
    config.network = Some(Network {
        resolver: Arc::new(StaticResolver::new().with("site.test", ["127.0.0.1".parse().unwrap()])),
        policy: AddressPolicy::allow_private(),
    });
    config.fetch_timeout = Duration::from_secs(1);
    let server = start(config).await;
    let origin = format!("http://site.test:{}", site.port());
    let (status, answer) = variants(&server, &format!("{origin}/some/page")).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["origin"], origin);
    let list = answer["variants"].as_array().unwrap();
    let port = site.port();
    let summary: Vec<Value> = list
        .iter()
        .map(|v| {
            json!([
                v["origin"],
                v["asked"],
                v["fetch"]["attempt"]["kind"],
                v["fetch"]["attempt"]["error"],
                v["same_as_asked"],
                v["size"]
            ])
        })
        .collect();
    assert_eq!(summary[0][0], format!("https://www.site.test:{port}"));
    assert_eq!(summary[1][0], format!("https://site.test:{port}"));
    assert_eq!(
        summary[2],
        json!([
            format!("http://www.site.test:{port}"),
            false,
            "network",
            "dns",
            false,
            0
        ])
    );
    assert_eq!(summary[3], json!([origin, true, "status", null, true, 27]));
    assert_eq!(summary[1][2], "network", "{summary:?}");
    // One fetch of the asked origin's file; asking again reads the cache.
    assert_eq!(site.hits("/robots.txt"), 1);
    let (status, again) = variants(&server, &origin).await;
    assert_eq!(status, 200);
    assert_eq!(again["variants"][3]["fetch"]["from_cache"], true);
    assert_eq!(site.hits("/robots.txt"), 1);
    // The same answer as GET /v1/robots for the asked origin.
    let (_, cached) = get(&server.url(&format!(
        "/v1/robots?{}",
        query(&[("origin", origin.as_str())])
    )))
    .await;
    assert_eq!(
        cached["fetch"]["status"],
        again["variants"][3]["fetch"]["status"]
    );
    assert_eq!(cached["size"], again["variants"][3]["size"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_origins_get_a_4xx_with_a_json_body() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(config(&dir.path().join("data"))).await;
    // Past the origin's 8,192 characters (a request target holds at most
    // 32 KiB; past it, 414: the `hostile` tests).
    let long = format!("https://example.com/{}", "a".repeat(20_000));
    for origin in [
        "",
        "not a url",
        "mailto:a@b.example",
        "ftp://example.com/",
        "/relative",
        long.as_str(),
    ] {
        let (status, body) = variants(&server, origin).await;
        assert!((400..500).contains(&status), "{origin:.40}: {status}");
        assert!(
            body["error"]["problem"]
                .as_str()
                .is_some_and(|p| !p.is_empty()),
            "{origin:.40}: {body}"
        );
    }
    let (status, body) = get(&server.url("/v1/variants")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["field"], "origin");

    let (_, doc) = get(&server.url("/openapi.json")).await;
    let responses = doc["paths"]["/v1/variants"]["get"]["responses"]
        .as_object()
        .unwrap();
    // A variant's refused address or spent allowance is said in its row,
    // inside the 200: the route answers neither 403 nor 429 itself.
    for status in ["200", "400", "405", "503"] {
        assert!(responses.contains_key(status), "lacks {status}");
    }
    for status in ["403", "404", "422", "429"] {
        assert!(!responses.contains_key(status), "{status}: {responses:?}");
    }
}
