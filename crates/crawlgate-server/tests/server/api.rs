//! Every route and every error path, against a server on loopback and a
//! scripted origin.

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{config, get, post, post_raw, query, serving, start, Reply};

const ROBOTS: &str = "User-agent: *\nDisallow: /private\nAllow: /private/press\nCrawl-delay: 2\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n";

async fn server() -> (tempfile::TempDir, crate::support::Running) {
    let dir = tempfile::tempdir().unwrap();
    let running = start(config(dir.path())).await;
    (dir, running)
}

fn allowed_url(server: &crate::support::Running, url: &str, agent: &str) -> String {
    server.url(&format!(
        "/v1/allowed?{}",
        query(&[("url", url), ("agent", agent)])
    ))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_fetches_once_then_answers_from_the_cache() {
    let (_dir, server) = server().await;
    let origin = serving(Reply::text(200, ROBOTS));

    let (status, body) = get(&allowed_url(&server, &origin.url("/private/x"), "mybot")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["allowed"], false);
    assert_eq!(body["basis"], "rule");
    assert_eq!(body["rule"]["text"], "Disallow: /private");
    assert_eq!(body["rule"]["line"], 2);
    assert_eq!(body["robots_url"], origin.url("/robots.txt"));
    assert_eq!(body["fetch"]["status"], 200);
    assert_eq!(body["fetch"]["outcome"], "conditional");
    assert_eq!(body["fetch"]["from_cache"], false);
    assert_eq!(body["crawl_delay"], 2.0);
    assert_eq!(body["next_allowed_at"], Value::Null, "disallowed: no slot");

    let reserving = |url: &str| format!("{}&reserve=true", allowed_url(&server, url, "mybot"));
    let (_, body) = get(&reserving(&origin.url("/private/press/a"))).await;
    assert_eq!(body["allowed"], true);
    assert_eq!(body["rule"]["line"], 3);
    assert_eq!(body["fetch"]["from_cache"], true);
    assert_eq!(body["groups"], json!([{"first_line": 1, "last_line": 4}]));
    assert_eq!(body["reservation"], "reserved");
    let first_wait = body["wait_ms"].as_u64().unwrap();
    assert!(body["next_allowed_at"].as_str().unwrap().ends_with('Z'));

    // The next request is spaced by the crawl-delay.
    let (_, body) = get(&reserving(&origin.url("/page"))).await;
    let second_wait = body["wait_ms"].as_u64().unwrap();
    assert!(
        (1_500..=2_100).contains(&(second_wait - first_wait)),
        "{first_wait} then {second_wait}"
    );
    // Without reserving (the default), the slot after that is reported
    // but not taken.
    let peek = allowed_url(&server, &origin.url("/page"), "mybot");
    let (_, a) = get(&peek).await;
    let (_, b) = get(&peek).await;
    assert_eq!(a["next_allowed_at"], b["next_allowed_at"]);
    assert_eq!(a["reservation"], "none");
    assert!(a["wait_ms"].as_u64().unwrap() >= second_wait + 1_500);

    // Another crawler, its own group.
    let (_, body) = get(&allowed_url(&server, &origin.url("/page"), "GPTBot")).await;
    assert_eq!(
        (body["allowed"].clone(), body["rule"]["line"].clone()),
        (json!(false), json!(7))
    );
    assert_eq!(body["groups"], json!([{"first_line": 6, "last_line": 7}]));

    // /robots.txt itself needs no fetch.
    let (_, body) = get(&allowed_url(&server, &origin.url("/robots.txt"), "GPTBot")).await;
    assert_eq!(body["allowed"], true);
    assert_eq!(body["basis"], "robots_txt_itself");
    assert_eq!(body["rule"], Value::Null);

    assert_eq!(origin.hits("/robots.txt"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_follows_the_fetch_rules() {
    let (_dir, server) = server().await;
    let missing = serving(Reply::text(404, "nope"));
    let failing = serving(Reply::text(503, "busy"));
    let (_, body) = get(&allowed_url(&server, &missing.url("/x"), "bot")).await;
    assert_eq!(
        (
            body["allowed"].clone(),
            body["basis"].clone(),
            body["fetch"]["outcome"].clone()
        ),
        (json!(true), json!("full_allow"), json!("full_allow"))
    );
    assert_eq!(body["fetch"]["status"], 404);
    let (_, body) = get(&allowed_url(&server, &failing.url("/x"), "bot")).await;
    assert_eq!(
        (
            body["allowed"].clone(),
            body["basis"].clone(),
            body["fetch"]["reason"].clone()
        ),
        (json!(false), json!("full_disallow"), json!("server_error"))
    );
    assert_eq!(body["fetch"]["status"], 503);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_questions_share_one_fetch() {
    let (_dir, server) = server().await;
    let origin = serving(Reply::text(200, ROBOTS).delayed(Duration::from_secs(2)));
    let url = allowed_url(&server, &origin.url("/page"), "bot");
    // The first question starts the fetch; the other 49 are asked while the
    // origin holds its answer (asked all at once, a loaded machine could
    // connect them after the fetch had ended, and nothing would join it).
    let first = tokio::spawn({
        let url = url.clone();
        async move { get(&url).await }
    });
    for _ in 0..2000 {
        if origin.hits("/robots.txt") > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        origin.hits("/robots.txt"),
        1,
        "the first question's fetch never reached the origin"
    );
    let mut answers = futures_util::future::join_all((0..49).map(|_| get(&url))).await;
    answers.push(first.await.unwrap());
    for (status, body) in &answers {
        assert_eq!(*status, 200, "{body}");
        assert_eq!(body["allowed"], true);
    }
    assert_eq!(origin.hits("/robots.txt"), 1);
    let (_, metrics) = get(&server.url("/metrics")).await;
    let metrics = metrics.as_str().unwrap().to_owned();
    let joins = metric(&metrics, "crawlgate_single_flight_joins_total");
    assert!(joins >= 1.0, "{metrics}");
}

fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in\n{text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batches_answer_in_order_with_per_pair_errors() {
    let (_dir, server) = server().await;
    let a = serving(Reply::text(200, ROBOTS));
    let b = serving(Reply::text(404, ""));
    let pairs = json!({"pairs": [
        {"url": a.url("/private/1"), "agent": "bot"},
        {"url": b.url("/anything"), "agent": "bot"},
        {"url": "mailto:someone@example.com", "agent": "bot"},
        {"url": a.url("/open"), "agent": "GPTBot"},
        {"url": a.url("/open"), "agent": "bot"},
        {"url": "http://169.254.169.254/latest/meta-data", "agent": "bot"},
    ]});
    let (status, body) = post(&server.url("/v1/allowed"), &pairs).await;
    assert_eq!(status, 200, "{body}");
    // Each origin once, with its fetch facts or its error.
    let origins = body["origins"].as_array().unwrap();
    assert_eq!(origins.len(), 3, "{body}");
    assert_eq!(origins[0]["origin"], format!("http://{}", a.addr()));
    assert_eq!(origins[0]["robots_url"], a.url("/robots.txt"));
    assert_eq!(origins[0]["fetch"]["status"], 200);
    assert_eq!(origins[1]["fetch"]["outcome"], "full_allow");
    assert_eq!(origins[2]["origin"], "http://169.254.169.254");
    assert_eq!(origins[2]["error"]["code"], "refused_address");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert_eq!(
        results[0],
        json!({"origin": 0, "profile": "google", "allowed": false, "basis": "rule", "crawl_delay": 2.0, "rule": {
            "line": 2, "kind": "disallow", "value": "/private", "text": "Disallow: /private", "via_index_alias": false
        }, "choice": {
            "reading": "crawler", "kind": "*", "token": "*", "crawler": null, "source": null,
            "why": "bot obeys the * group at lines 1–4: no group names bot"
        }})
    );
    assert_eq!(
        (results[1]["origin"].clone(), results[1]["basis"].clone()),
        (json!(1), json!("full_allow"))
    );
    assert!(results[1]["next_allowed_at"].is_string());
    assert_eq!(results[2]["error"]["code"], "invalid_field");
    assert_eq!(results[2]["error"]["field"], "pairs[2].url");
    assert_eq!(
        (
            results[3]["allowed"].clone(),
            results[3]["rule"]["line"].clone()
        ),
        (json!(false), json!(7))
    );
    assert_eq!(results[4]["allowed"], true);
    assert_eq!(results[4]["basis"], "no_matching_rule");
    assert_eq!(results[5]["error"]["code"], "refused_address");
    assert_eq!(results[5]["error"]["field"], "pairs[5].url");
    assert!(results[5]["error"]["problem"]
        .as_str()
        .unwrap()
        .contains("link-local"));
    // The same answers as one at a time.
    for (n, pair) in pairs["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .take(5)
    {
        let url = pair["url"].as_str().unwrap();
        let agent = pair["agent"].as_str().unwrap();
        let (status, one) = get(&format!(
            "{}&reserve=false",
            allowed_url(&server, url, agent)
        ))
        .await;
        if status == 200 {
            for field in ["allowed", "basis", "rule"] {
                assert_eq!(one[field], results[n][field], "{url}: {field}");
            }
        } else {
            assert_eq!(one["error"]["code"], results[n]["error"]["code"], "{url}");
        }
    }
    // Many URLs of one origin parse its authority once and still decide
    // each path: the same answers for every spelling of the origin.
    let spellings = json!({"pairs": [
        {"url": a.url("/private/a"), "agent": "bot"},
        {"url": format!("HTTP://{}/private/b", a.addr()), "agent": "bot"},
        {"url": format!("http://{}?q=/private", a.addr()), "agent": "bot"},
        {"url": format!("http://{}#/private", a.addr()), "agent": "bot"},
    ]});
    let (_, body) = post(&server.url("/v1/allowed"), &spellings).await;
    assert_eq!(body["origins"].as_array().unwrap().len(), 1, "{body}");
    let allowed: Vec<Value> = body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["allowed"].clone())
        .collect();
    assert_eq!(
        allowed,
        [json!(false), json!(false), json!(true), json!(true)]
    );
    assert_eq!(a.hits("/robots.txt"), 1);
    assert_eq!(b.hits("/robots.txt"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_name_the_field() {
    let (_dir, server) = server().await;
    let long = "x".repeat(70_000);
    let long_url = format!("https://example.com/{long}");
    // A request target holds at most 32 KiB (past it, 414: the `hostile`
    // tests), so query fields are tested at 20,000 characters; JSON fields
    // at 70,000.
    let long_query = "x".repeat(20_000);
    let long_query_url = format!("https://example.com/{long_query}");
    let allowed = server.url("/v1/allowed");

    // Query strings.
    let cases = [
        (query(&[("agent", "bot")]), "missing_field", "url"),
        (
            query(&[("url", "https://example.com/")]),
            "missing_field",
            "agent",
        ),
        (
            query(&[("url", &long_query_url), ("agent", "bot")]),
            "too_large",
            "url",
        ),
        (
            query(&[("url", "https://example.com/"), ("agent", &long_query)]),
            "too_large",
            "agent",
        ),
        (
            query(&[("url", "/relative"), ("agent", "bot")]),
            "invalid_field",
            "url",
        ),
        (
            query(&[
                ("url", "https://example.com/"),
                ("agent", "b"),
                ("reserve", "maybe"),
            ]),
            "invalid_field",
            "reserve",
        ),
    ];
    for (q, code, field) in cases {
        let (status, body) = get(&format!("{allowed}?{q}")).await;
        assert_eq!(status, 400, "{q}: {body}");
        assert_eq!(body["error"]["code"], code, "{q}: {body}");
        assert_eq!(body["error"]["field"], field, "{q}: {body}");
        assert!(!body["error"]["problem"].as_str().unwrap().is_empty());
    }

    // JSON bodies.
    let check = server.url("/v1/check");
    let bodies: Vec<(Vec<u8>, &str, Option<&str>)> = vec![
        (b"{not json".to_vec(), "bad_json", None),
        (b"".to_vec(), "bad_json", None),
        (b"[1,2]".to_vec(), "bad_json", None),
        (
            br#"{"robots_txt":"","urls":[]}"#.to_vec(),
            "missing_field",
            Some("agent"),
        ),
        (
            br#"{"robots_txt":"","agent":"b"}"#.to_vec(),
            "missing_field",
            Some("urls"),
        ),
        (
            br#"{"robots_txt":"","agent":"b","urls":["/a",7]}"#.to_vec(),
            "invalid_field",
            Some("urls[1]"),
        ),
        (
            br#"{"robots_txt":5,"agent":"b","urls":[]}"#.to_vec(),
            "invalid_field",
            Some("robots_txt"),
        ),
        (
            br#"{"agent":"b","urls":[]}"#.to_vec(),
            "missing_field",
            Some("robots_txt"),
        ),
        (
            br#"{"robots_txt":"","url":"https://e.com/","agent":"b","urls":[]}"#.to_vec(),
            "invalid_field",
            Some("robots_txt, url"),
        ),
        (
            br#"{"robots_txt":"","robots_txt_b64":"","agent":"b","urls":[]}"#.to_vec(),
            "invalid_field",
            Some("robots_txt, robots_txt_b64"),
        ),
        (
            br#"{"robots_txt_b64":"not base64!","agent":"b","urls":[]}"#.to_vec(),
            "invalid_field",
            Some("robots_txt_b64"),
        ),
        (
            br#"{"robots_txt":"","agent":"b","urls":[],"profile":"Google"}"#.to_vec(),
            "invalid_field",
            Some("profile"),
        ),
        (
            br#"{"robots_txt":"","agent":"b","urls":[],"profile":"baidu"}"#.to_vec(),
            "invalid_field",
            Some("profile"),
        ),
        (
            br#"{"robots_txt":"","agent":"b","urls":[],"robots":"x"}"#.to_vec(),
            "invalid_field",
            Some("robots"),
        ),
        (
            serde_json::to_vec(&json!({"robots_txt": "", "agent": long, "urls": []})).unwrap(),
            "too_large",
            Some("agent"),
        ),
        (
            serde_json::to_vec(&json!({"robots_txt": "", "agent": "b", "urls": ["/", long]}))
                .unwrap(),
            "too_large",
            Some("urls[1]"),
        ),
        (
            serde_json::to_vec(
                &json!({"robots_txt": "x".repeat(2 << 20), "agent": "b", "urls": []}),
            )
            .unwrap(),
            "too_large",
            Some("robots_txt"),
        ),
    ];
    for (body, code, field) in bodies {
        let shown = String::from_utf8_lossy(&body[..body.len().min(80)]).into_owned();
        let (status, answer) = post_raw(&check, "application/json", body).await;
        assert_eq!(status, 400, "{shown}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{shown}: {answer}");
        assert_eq!(
            answer["error"]["field"].as_str(),
            field,
            "{shown}: {answer}"
        );
    }
    // A 70,000-character robots.txt is a file to test, not an error.
    let (status, body) = post(
        &check,
        &json!({"robots_txt": format!("User-agent: *\nDisallow: /{long}\n"), "agent": "b", "urls": ["/x"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let (status, body) = post_raw(&check, "text/plain", b"{}".to_vec()).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("bad_json"))
    );

    // Batches: too many pairs, a field too long, a body over the limit.
    let pair = json!({"url": "https://example.com/", "agent": "bot"});
    let too_many = json!({"pairs": vec![pair.clone(); 1_001]});
    let (status, body) = post(&allowed, &too_many).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "too_many");
    assert_eq!(body["error"]["field"], "pairs");
    let long_pair =
        json!({"pairs": [pair.clone(), pair.clone(), {"url": long_url, "agent": "bot"}]});
    let (status, body) = post(&allowed, &long_pair).await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (400, json!("pairs[2].url")),
        "{body}"
    );
    let (status, body) = post(
        &allowed,
        &json!({"pairs": [{"url": "https://example.com/"}]}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (400, json!("pairs[0].agent")),
        "{body}"
    );
    let oversize = format!("{{\"pairs\":[],\"x\":\"{}\"}}", "y".repeat(5 << 20));
    let (status, body) = post_raw(&allowed, "application/json", oversize.into_bytes()).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["error"]["code"], "too_large");

    // Unknown routes and origins with nothing cached.
    let (status, body) = get(&server.url("/v2/nothing")).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (404, json!("not_found"))
    );
    let (status, body) = get(&server.url("/v1/robots")).await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (400, json!("origin"))
    );
    let (status, body) = get(&server.url("/v1/robots?origin=https%3A%2F%2Fnever.example%2F")).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (404, json!("not_found"))
    );
    let (status, body) =
        get(&server.url("/v1/robots/version?origin=https%3A%2F%2Fe.com&id=abc")).await;
    assert_eq!((status, body["error"]["field"].clone()), (400, json!("id")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_targets_are_refused_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let mut strict = config(dir.path());
    strict.targets.allow_private = false;
    let server = start(strict).await;
    // Refused before any connection is attempted.
    for url in [
        "http://127.0.0.1:9/x",
        "http://[::1]:9/x",
        "http://10.0.0.1/x",
        "http://192.168.1.1/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost:9/x",
    ] {
        let (status, body) = get(&allowed_url(&server, url, "bot")).await;
        assert_eq!(status, 403, "{url}: {body}");
        assert_eq!(body["error"]["code"], "refused_address", "{url}");
        assert_eq!(body["error"]["field"], "url", "{url}");
    }
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"url": "http://127.0.0.1:9/", "agent": "b", "urls": ["/"]}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (403, json!("url"))
    );
    server.stop().await;

    // --allow-private: loopback yes, link-local still no.
    let dir = tempfile::tempdir().unwrap();
    let server = start(config(dir.path())).await;
    let origin = serving(Reply::text(200, ROBOTS));
    let (status, _) = get(&allowed_url(&server, &origin.url("/x"), "bot")).await;
    assert_eq!(status, 200);
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/x",
    ] {
        let (status, body) = get(&allowed_url(&server, url, "bot")).await;
        assert_eq!(status, 403, "{url}: {body}");
        assert!(
            body["error"]["problem"]
                .as_str()
                .unwrap()
                .contains("link-local"),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_gives_deciding_lines_under_every_profile() {
    let (_dir, server) = server().await;
    let robots = "User-agent: *\nDisallow: /*.php$\nDisallow /nocolon\n";
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": robots, "agent": "bot", "urls": ["/index.php", "/nocolon", "/fine"], "all_profiles": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["profile"], "google");
    assert_eq!(body["source"], Value::Null);
    let r = body["results"].as_array().unwrap();
    assert_eq!(
        (r[0]["allowed"].clone(), r[0]["rule"]["line"].clone()),
        (json!(false), json!(2))
    );
    assert_eq!(r[0]["rule"]["text"], "Disallow: /*.php$");
    // Legacy has no wildcards; rfc9309 has no colon-less lines.
    assert_eq!(r[0]["profiles"]["legacy"]["allowed"], true);
    assert_eq!(r[0]["profiles_differ"], true);
    assert_eq!(r[1]["allowed"], false);
    assert_eq!(r[1]["profiles"]["rfc9309"]["allowed"], true);
    assert_eq!(r[2]["profiles_differ"], false);
    assert_eq!(r[2]["basis"], "no_matching_rule");
    assert_eq!(r[2]["profiles"]["bing"]["allowed"], true);

    // Bing ends Bingbot's group at its `Crawl-delay`; Google does not.
    let robots = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\n\
                  User-agent: *\nCrawl-delay: 30\nDisallow: /\n";
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": robots, "agent": "bingbot", "urls": ["/page"], "all_profiles": true}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let r = &body["results"][0];
    assert_eq!(r["profiles"]["google"]["allowed"], false, "{body}");
    assert_eq!(r["profiles"]["bing"]["allowed"], true, "{body}");
    assert_eq!(r["profiles_differ"], true);
    // Each profile's verdict shows its groups, as the main verdict does.
    let groups = |first, last| json!([{"first_line": first, "last_line": last}]);
    assert_eq!(r["profiles"]["google"]["groups"], groups(1, 6), "{body}");
    assert_eq!(r["profiles"]["bing"]["groups"], groups(1, 3), "{body}");

    // By URL: fetched once, reused afterwards.
    let origin = serving(Reply::text(200, ROBOTS));
    for from_cache in [false, true] {
        let (status, body) = post(
            &server.url("/v1/check"),
            &json!({"url": origin.url("/"), "agent": "bot", "urls": ["/private", origin.url("/ok")], "profile": "rfc9309"}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["profile"], "rfc9309");
        assert_eq!(body["source"]["fetch"]["from_cache"], from_cache);
        assert_eq!(body["source"]["fetch"]["status"], 200);
        assert_eq!(body["results"][0]["rule"]["line"], 2);
        assert_eq!(body["results"][1]["allowed"], true);
    }
    assert_eq!(origin.hits("/robots.txt"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lint_answers_as_the_cli_json_does() {
    let (_dir, server) = server().await;
    let robots = "User-agent: *\nDisallow: /a\nDisallow: /a\nDisallow: private/\n";
    let (status, body) = post(&server.url("/v1/lint"), &json!({"robots_txt": robots})).await;
    assert_eq!(status, 200, "{body}");
    let report = crawlgate_lint::lint(robots.as_bytes(), &crawlgate_lint::LintOptions::default());
    let expected = crawlgate_lint::render::json(&[crawlgate_lint::render::LintedFile {
        path: "robots.txt",
        source: robots.as_bytes(),
        report: &report,
    }]);
    let expected: Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(body["diagnostics"], expected);
    assert!(body["diagnostics"].as_array().unwrap().len() >= 2);
    assert_eq!(
        body["counts"]["errors"],
        report.count(crawlgate::Severity::Error)
    );
    let duplicate = body["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "R201")
        .unwrap();
    assert_eq!(duplicate["line"], 3);

    let (_, body) = post(
        &server.url("/v1/lint"),
        &json!({"robots_txt": robots, "audit": true}),
    )
    .await;
    let gptbot = body["audit"]["crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["token"] == "GPTBot")
        .unwrap()
        .clone();
    assert_eq!(gptbot["root_allowed"], true);

    let origin = serving(Reply::text(200, robots));
    let (status, body) = post(&server.url("/v1/lint"), &json!({"url": origin.url("/")})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["file"], origin.url("/robots.txt"));
    assert_eq!(
        body["diagnostics"].as_array().unwrap().len(),
        expected.as_array().unwrap().len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_shows_the_cache_and_its_history() {
    let (_dir, server) = server().await;
    let origin = serving(Reply::text(200, ROBOTS));
    let q = query(&[("origin", &origin.url("/"))]);
    let (status, _) = get(&server.url(&format!("/v1/robots?{q}"))).await;
    assert_eq!(status, 404);
    let (status, body) = get(&server.url(&format!("/v1/robots?{q}&fetch=true"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["fetch"]["status"], 200);
    assert_eq!(body["fetch"]["fresh"], true);
    assert_eq!(body["size"], ROBOTS.len());
    assert_eq!(body["sitemaps"], json!(["https://example.com/sitemap.xml"]));
    assert_eq!(body["groups"][1]["agents"], json!(["GPTBot"]));
    assert_eq!(body["groups"][0]["rules"], 2);
    assert_eq!(body["body"], ROBOTS);
    assert_eq!(body["history"].as_array().unwrap().len(), 1);

    // A new version, then a refresh that is too soon.
    origin.set(
        "/robots.txt",
        Reply::text(200, "User-agent: *\nDisallow: /\n"),
    );
    let (status, body) = post(&server.url(&format!("/v1/refresh?{q}")), &json!(null)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["fetch"]["from_cache"], false);
    let history = body["history"].as_array().unwrap().clone();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["size"], 26);
    assert_eq!(history[1]["size"], ROBOTS.len());
    let (status, body) = post(&server.url(&format!("/v1/refresh?{q}")), &json!(null)).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (429, json!("rate_limited"))
    );
    assert_eq!(origin.hits("/robots.txt"), 2);

    // The old version, as crawlers saw it.
    let id = history[1]["id"].as_u64().unwrap();
    let (status, body) = get(&server.url(&format!("/v1/robots/version?{q}&id={id}"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["body"], ROBOTS);
    assert_eq!(body["status"], 200);
    let (status, _) = get(&server.url(&format!("/v1/robots/version?{q}&id=1"))).await;
    assert_eq!(status, 404);

    // The new version is the one obeyed.
    let (_, body) = get(&allowed_url(&server, &origin.url("/x"), "bot")).await;
    assert_eq!(body["allowed"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_metrics_openapi_and_the_page() {
    let (_dir, server) = server().await;
    let (status, body) = get(&server.url("/healthz")).await;
    assert_eq!(status, 200);
    assert_eq!(
        (body["status"].clone(), body["cache"].clone()),
        (json!("ok"), json!("embedded"))
    );

    let origin = serving(Reply::text(200, ROBOTS));
    get(&allowed_url(&server, &origin.url("/a"), "bot")).await;
    get(&allowed_url(&server, &origin.url("/b"), "bot")).await;
    get(&server.url("/v1/allowed?url=x")).await;
    let (_, text) = get(&server.url("/metrics")).await;
    let text = text.as_str().unwrap();
    assert_eq!(
        metric(
            text,
            "crawlgate_http_requests_total{route=\"GET /v1/allowed\",status=\"200\"}"
        ),
        2.0,
        "{text}"
    );
    assert_eq!(
        metric(
            text,
            "crawlgate_http_requests_total{route=\"GET /v1/allowed\",status=\"400\"}"
        ),
        1.0
    );
    assert_eq!(metric(text, "crawlgate_cache_hits_total"), 1.0);
    assert_eq!(metric(text, "crawlgate_cache_misses_total"), 1.0);
    assert_eq!(
        metric(text, "crawlgate_fetches_total{outcome=\"fetched\"}"),
        1.0
    );
    assert!(
        text.contains("crawlgate_http_request_duration_seconds_bucket{le="),
        "{text}"
    );

    let (status, doc) = get(&server.url("/openapi.json")).await;
    assert_eq!(status, 200);
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    for path in [
        "/v1/allowed",
        "/v1/check",
        "/v1/lint",
        "/v1/robots",
        "/v1/robots/version",
        "/v1/refresh",
        "/healthz",
        "/metrics",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    assert!(doc["paths"]["/v1/allowed"]["post"].is_object());
    assert!(doc["components"]["schemas"]["Allowed"].is_object());
    // Each route lists the statuses it can answer: the fetch's only where a
    // robots.txt may be fetched, 404 only where a key is looked up.
    let statuses = |path: &str, method: &str| -> Vec<String> {
        doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path}"))
            .keys()
            .cloned()
            .collect()
    };
    let has =
        |path: &str, method: &str, status: &str| statuses(path, method).iter().any(|s| s == status);
    for (path, method) in [
        ("/v1/allowed", "get"),
        ("/v1/allowed", "post"),
        ("/v1/check", "post"),
        ("/v1/refresh", "post"),
    ] {
        for status in ["400", "403", "413", "422", "429", "503"] {
            assert!(has(path, method, status), "{method} {path} lacks {status}");
        }
    }
    for (path, method) in [
        ("/healthz", "get"),
        ("/metrics", "get"),
        ("/v1/crawlers", "get"),
        ("/v1/verify", "post"),
        ("/v1/policy", "post"),
    ] {
        for status in ["403", "404", "422", "429"] {
            assert!(
                !has(path, method, status),
                "{method} {path} cannot answer {status}: {:?}",
                statuses(path, method)
            );
        }
        assert!(
            has(path, method, "503") && has(path, method, "405"),
            "{method} {path}"
        );
    }
    assert!(has("/v1/robots/version", "get", "404") && !has("/v1/robots/version", "get", "429"));

    let page = crate::support::client()
        .get(server.url("/"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("default-src 'self'"));
    let html = page.text().await.unwrap();
    assert!(html.contains("<textarea"));
    for elsewhere in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(
            !html.contains(elsewhere),
            "nothing loaded from elsewhere: {elsewhere}"
        );
    }
    for asset in ["/assets/tester.js", "/assets/tester.css"] {
        let r = crate::support::client()
            .get(server.url(asset))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{asset}");
    }
    let (status, crawlers) = get(&server.url("/v1/crawlers")).await;
    assert_eq!(status, 200);
    let gptbot = crawlers
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["token"] == "GPTBot")
        .unwrap();
    assert_eq!(gptbot["ai"], true);
    let googlebot = crawlers
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["token"] == "Googlebot")
        .unwrap();
    assert_eq!(googlebot["ai"], false);
}

#[tokio::test]
async fn the_agent_is_read_and_warned_about_as_the_command_line_does() {
    let (_dir, server) = server().await;
    let file = "User-agent: FooBot\nDisallow: /x\n";
    // Empty: answered as Google's library answers it (only `*` applies),
    // and the reason says so in words.
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": "User-agent: *\nDisallow: /x\n", "agent": "", "urls": ["/x"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let why = body["results"][0]["choice"]["why"].as_str().unwrap();
    assert_eq!(
        why,
        "the empty name obeys the * group at lines 1–2: no group names the empty name"
    );
    let expected = crawlgate_answers::agent_warning("", crawlgate::Reading::Crawler).unwrap();
    assert_eq!(body["warning"], expected.as_str());
    // A full User-Agent header of a crawler nobody knows: answered, with the
    // command line's warning (it matches no group of its own).
    let header = "FooBot/1.0 (+http://x)";
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": file, "agent": header, "urls": ["/x"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let expected = crawlgate_answers::agent_warning(header, crawlgate::Reading::Crawler).unwrap();
    assert_eq!(body["warning"], expected.as_str());
    assert_eq!(body["results"][0]["allowed"], true);
    // A product token, or a header the registry knows: no warning.
    for agent in [
        "FooBot",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ] {
        let (_, body) = post(
            &server.url("/v1/check"),
            &json!({"robots_txt": file, "agent": agent, "urls": ["/x"]}),
        )
        .await;
        assert!(body.get("warning").is_none(), "{agent}: {body}");
    }
    // A relative URL is told to be absolute, without promising ftp (which
    // is answered 422: not fetched).
    let (status, body) = get(&server.url("/v1/allowed?url=/x&agent=a")).await;
    assert_eq!(status, 400);
    let problem = body["error"]["problem"].as_str().unwrap();
    assert!(
        problem.contains("give an absolute URL") && !problem.contains("ftp"),
        "{problem}"
    );
}
