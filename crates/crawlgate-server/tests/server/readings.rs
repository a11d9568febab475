//! What the API says of the crawler a person names (#24), of the usage
//! preferences (#27) and of each line as Search Console reports it (#25),
//! compared with what the library says.

use crawlgate::{RobotsTxt, SearchConsoleReport, Who};
use serde_json::{json, Value};

use crate::support::{config, get, post, query, serving, start, Reply};

/// Google's robots.txt documentation's example of group selection.
const DOCUMENTATION: &str = include_str!("../../../../examples/google-groups.robots.txt");

async fn server() -> (tempfile::TempDir, crate::support::Running) {
    let dir = tempfile::tempdir().unwrap();
    let running = start(config(dir.path())).await;
    (dir, running)
}

async fn check(server: &crate::support::Running, request: Value) -> Value {
    let (status, body) = post(&server.url("/v1/check"), &request).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_reads_the_crawler_by_default_and_one_token_when_asked() {
    let (_dir, server) = server().await;
    // Googlebot-Image: no group names it; the Googlebot group (lines 7–8)
    // applies, not `*` (lines 4–5).
    let body = check(
        &server,
        json!({"robots_txt": DOCUMENTATION, "agent": "Googlebot-Image", "urls": ["/googlebot-only/a.jpg", "/everyone-else/a.jpg"]}),
    )
    .await;
    assert_eq!(body["reading"], "crawler");
    let robots = RobotsTxt::parse(DOCUMENTATION.as_bytes());
    for (i, url) in ["/googlebot-only/a.jpg", "/everyone-else/a.jpg"]
        .iter()
        .enumerate()
    {
        let result = &body["results"][i];
        let library = robots.decide(Who::crawler("Googlebot-Image"), url);
        assert_eq!(result["allowed"], library.is_allowed(), "{url}");
        assert_eq!(
            result["choice"]["why"],
            library.group_choice().explain("Googlebot-Image"),
            "{url}"
        );
    }
    let decided = &body["results"][0];
    assert_eq!(decided["allowed"], false);
    assert_eq!(decided["rule"]["line"], 8);
    assert_eq!(
        decided["groups"],
        json!([{"first_line": 7, "last_line": 8}])
    );
    assert_eq!(decided["choice"]["reading"], "crawler");
    assert_eq!(decided["choice"]["kind"], "fallback");
    assert_eq!(decided["choice"]["token"], "Googlebot");
    assert_eq!(decided["choice"]["crawler"], "Googlebot-Image");
    assert!(decided["choice"]["source"]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    assert_eq!(body["results"][1]["allowed"], true);

    // The one-token reading: Googlebot-Image is one token, and obeys `*`.
    let one = check(
        &server,
        json!({"robots_txt": DOCUMENTATION, "agent": "Googlebot-Image", "urls": ["/googlebot-only/a.jpg", "/everyone-else/a.jpg"], "reading": "one-token"}),
    )
    .await;
    assert_eq!(one["reading"], "one-token");
    assert_eq!(one["results"][0]["allowed"], true);
    assert_eq!(one["results"][1]["allowed"], false);
    assert_eq!(one["results"][1]["rule"]["line"], 5);
    assert_eq!(one["results"][1]["choice"]["kind"], "*");
    assert_eq!(
        one["results"][1]["choice"]["why"],
        robots
            .decide("Googlebot-Image", "/everyone-else/a.jpg")
            .group_choice()
            .explain("Googlebot-Image")
    );

    // AdsBot-Google ignores `*`.
    let ads = check(
        &server,
        json!({"robots_txt": "User-agent: *\nDisallow: /\n", "agent": "AdsBot-Google", "urls": ["/landing"]}),
    )
    .await;
    let result = &ads["results"][0];
    assert_eq!(result["allowed"], true);
    assert_eq!(result["basis"], "no_group");
    assert_eq!(result["choice"]["kind"], "none");
    assert!(result["choice"]["why"]
        .as_str()
        .unwrap()
        .contains("ignores the * group"));
    // Under every profile too, as the library reads it there (Yandex's
    // parser knows only Yandex's robots: any other obeys `*`).
    let all = check(
        &server,
        json!({"robots_txt": "User-agent: *\nDisallow: /\n", "agent": "AdsBot-Google", "urls": ["/landing"], "all_profiles": true}),
    )
    .await;
    for (profile, verdict) in all["results"][0]["profiles"].as_object().unwrap() {
        let library = RobotsTxt::parse_with(
            b"User-agent: *\nDisallow: /\n",
            crawlgate::Profile::named(profile).unwrap(),
        )
        .view(Who::read("AdsBot-Google", crawlgate::Reading::Crawler))
        .is_allowed("/landing");
        assert_eq!(verdict["allowed"], library, "{profile}");
        assert_eq!(library, profile != "yandex", "{profile}");
    }

    // An unknown reading is a 400 naming the field.
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": "", "agent": "a", "urls": ["/"], "reading": "crawlers"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["field"], "reading");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_reads_the_crawler_by_default_and_one_token_when_asked() {
    let (_dir, server) = server().await;
    let origin = serving(Reply::text(200, DOCUMENTATION));
    let star = serving(Reply::text(200, "User-agent: *\nDisallow: /\n"));
    let ask = |url: String, agent: &str, reading: Option<&str>| {
        let mut pairs = vec![("url", url.as_str()), ("agent", agent)];
        if let Some(reading) = reading {
            pairs.push(("reading", reading));
        }
        server.url(&format!("/v1/allowed?{}", query(&pairs)))
    };
    let (status, body) = get(&ask(
        origin.url("/googlebot-only/a.jpg"),
        "Googlebot-Image",
        None,
    ))
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["reading"], "crawler");
    assert_eq!(
        (body["allowed"].clone(), body["rule"]["line"].clone()),
        (json!(false), json!(8))
    );
    assert_eq!(body["choice"]["token"], "Googlebot");
    let (_, body) = get(&ask(
        origin.url("/googlebot-only/a.jpg"),
        "Googlebot-Image",
        Some("one-token"),
    ))
    .await;
    assert_eq!(body["reading"], "one-token");
    assert_eq!(body["allowed"], true);
    assert_eq!(body["choice"]["kind"], "*");

    let (_, body) = get(&ask(star.url("/landing"), "AdsBot-Google", None)).await;
    assert_eq!(
        (body["allowed"].clone(), body["basis"].clone()),
        (json!(true), json!("no_group"))
    );
    let (_, body) = get(&ask(
        star.url("/landing"),
        "AdsBot-Google",
        Some("one-token"),
    ))
    .await;
    assert_eq!(body["allowed"], false);

    // A batch: one reading for every pair.
    let batch = |reading: Value| {
        json!({"pairs": [
            {"url": origin.url("/googlebot-only/a.jpg"), "agent": "Googlebot-Image"},
            {"url": star.url("/landing"), "agent": "AdsBot-Google"},
        ], "reading": reading})
    };
    let (status, body) = post(&server.url("/v1/allowed"), &batch(Value::Null)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["reading"], "crawler");
    assert_eq!(body["results"][0]["allowed"], false);
    assert_eq!(body["results"][0]["choice"]["kind"], "fallback");
    assert_eq!(body["results"][1]["allowed"], true);
    let (_, body) = post(&server.url("/v1/allowed"), &batch(json!("one-token"))).await;
    assert_eq!(body["reading"], "one-token");
    assert_eq!(body["results"][0]["allowed"], true);
    assert_eq!(body["results"][1]["allowed"], false);
    let (status, body) = get(&ask(star.url("/"), "a", Some("x"))).await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (400, json!("reading"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_carries_the_usage_preferences_and_licences_as_the_library_reads_them() {
    let (_dir, server) = server().await;
    let file = "User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y, bots=n\n\
                Content-Signal: search=yes, ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n\n\
                License: https://example.com/license.xml\nLicense: /relative.xml\n";
    let urls = ["/page", "/ai-ok/page", "/other"];
    let body = check(
        &server,
        json!({"robots_txt": file, "agent": "mybot", "urls": urls}),
    )
    .await;
    let robots = RobotsTxt::parse(file.as_bytes());
    let view = robots.view(Who::crawler("mybot"));
    let word = |p: Option<crawlgate::Preference>| match p {
        Some(crawlgate::Preference::Allowed) => "allowed",
        Some(crawlgate::Preference::Disallowed) => "disallowed",
        None => "unknown",
    };
    for (i, url) in urls.iter().enumerate() {
        let shown = &body["results"][i]["preferences"];
        let library = view.preferences(url).unwrap();
        assert_eq!(shown["train_ai"], word(library.train_ai), "{url}");
        assert_eq!(shown["search"], word(library.search), "{url}");
        let lines: Vec<u32> = library.records.iter().map(|r| r.line).collect();
        assert_eq!(
            shown["content_usage"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["line"].as_u64().unwrap() as u32)
                .collect::<Vec<_>>(),
            lines,
            "{url}"
        );
        assert_eq!(shown["unknown_keys"], json!(library.unknown_keys), "{url}");
        let signal = library.content_signal.unwrap();
        assert_eq!(shown["content_signal"]["line"], signal.line);
        assert_eq!(shown["content_signal"]["value"], signal.value);
        assert_eq!(
            shown["content_signal"]["signals"],
            json!({"search": true, "ai-train": false})
        );
    }
    assert_eq!(body["results"][0]["preferences"]["train_ai"], "disallowed");
    assert_eq!(body["results"][1]["preferences"]["train_ai"], "allowed");
    assert_eq!(
        body["results"][1]["preferences"]["unknown_keys"],
        json!(["bots"])
    );
    assert_eq!(
        body["licenses"],
        json!([
            {"line": 10, "url": "https://example.com/license.xml", "absolute": true},
            {"line": 11, "url": "/relative.xml", "absolute": false},
        ])
    );
    // A crawler that may fetch nothing gets no preferences: nothing to use.
    let gpt = check(
        &server,
        json!({"robots_txt": file, "agent": "GPTBot", "urls": ["/page"]}),
    )
    .await;
    assert!(gpt["results"][0].get("preferences").is_none(), "{gpt}");
    // A file without usage records says nothing of them.
    let plain = check(
        &server,
        json!({"robots_txt": "User-agent: *\nAllow: /\n", "agent": "a", "urls": ["/"]}),
    )
    .await;
    assert!(plain["results"][0].get("preferences").is_none());
    assert!(plain.get("licenses").is_none());
}

/// The API's report of `bytes`, field by field against the library.
fn assert_report_matches(name: &str, bytes: &[u8], shown: &Value) {
    let report = SearchConsoleReport::of(bytes);
    assert_eq!(shown["bytes"], bytes.len(), "{name}");
    assert_eq!(shown["lines_total"], report.lines().len(), "{name}");
    assert_eq!(
        shown["valid_directives"],
        report.valid_directives(),
        "{name}"
    );
    assert_eq!(
        shown["unused_directives"],
        report.unused_directives(),
        "{name}"
    );
    assert_eq!(shown["flagged"], report.flagged().count(), "{name}");
    let lines = shown["lines"].as_array().unwrap();
    assert_eq!(lines.len(), report.lines().len(), "{name}");
    for (line, library) in lines.iter().zip(report.lines()) {
        let at = format!("{name}:{}", library.number);
        assert_eq!(line["line"], library.number, "{at}");
        assert_eq!(line["kind"], library.kind.as_str(), "{at}");
        assert_eq!(line["tag"], library.tag().as_str(), "{at}");
        assert_eq!(line["typo"], library.typo, "{at}");
        assert_eq!(line["missing_colon"], library.missing_colon, "{at}");
        assert_eq!(line["too_long"], library.too_long, "{at}");
        assert_eq!(line["flagged"], library.is_flagged(), "{at}");
        assert_eq!(line["known_as"], json!(library.known_as), "{at}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_classifies_every_line_as_the_library_does() {
    let (_dir, server) = server().await;
    let report = server.url("/v1/report");
    // A typo, a missing colon, an unused key and an unknown one.
    let file = "User-agent: *\nDisalow: /a\nDisallow /b\nCrawl-delay: 5\nFoo: bar\n";
    let (status, body) = post(&report, &json!({"robots_txt": file})).await;
    assert_eq!(status, 200, "{body}");
    assert_report_matches("pasted", file.as_bytes(), &body);
    assert_eq!(body["source"], "robots.txt");
    assert_eq!(body["fetch"], Value::Null);
    assert_eq!(
        (
            body["valid_directives"].clone(),
            body["unused_directives"].clone()
        ),
        (json!(3), json!(2))
    );
    assert_eq!(body["lines"][1]["typo"], true);
    assert_eq!(body["lines"][2]["missing_colon"], true);
    assert_eq!(body["lines"][3]["kind"], "unused");
    assert_eq!(body["lines"][4]["kind"], "unknown");
    let (_, flagged) = post(&report, &json!({"robots_txt": file, "flagged_only": true})).await;
    assert_eq!(flagged["lines"].as_array().unwrap().len(), 4);
    assert_eq!(flagged["lines_total"], body["lines_total"]);

    // Corpus files, pasted as bytes (some are not UTF-8).
    use base64::Engine;
    let files = crawlgate_corpus::files();
    let step = files.len() / 8;
    for (name, bytes) in files.iter().step_by(step).take(8) {
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        let (status, body) = post(&report, &json!({"robots_txt_b64": encoded})).await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_report_matches(name, bytes, &body);
    }

    // Fetched as Google does: the fetch is shown with the lines.
    let origin = serving(Reply::text(200, file));
    let (status, body) = post(&report, &json!({"url": origin.url("/")})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["fetch"]["fetch"]["status"], 200);
    assert!(body["source"].as_str().unwrap().ends_with("/robots.txt"));
    assert_report_matches("fetched", file.as_bytes(), &body);

    // Bad input: a clear 400.
    let (status, body) = post(&report, &json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("missing_field"))
    );
    let (status, body) = post(&report, &json!({"robots_txt": "", "agent": "x"})).await;
    assert_eq!(status, 400, "{body}");
    // 100,000 lines and a 70,000-character line are answered.
    let many = "Allow:\n".repeat(100_000);
    let (status, body) = post(&report, &json!({"robots_txt": many, "flagged_only": true})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["lines_total"], 100_001);
    let (status, body) = post(
        &report,
        &json!({"robots_txt": "Allow: /\n".repeat(200_000)}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (400, json!("too_large"))
    );
    let long = format!("Disallow: /{}\n", "a".repeat(70_000));
    let (status, body) = post(&report, &json!({"robots_txt": long})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["lines"][0]["too_long"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crawlers_show_the_registry() {
    let (_dir, server) = server().await;
    let (status, body) = get(&server.url("/v1/crawlers")).await;
    assert_eq!(status, 200);
    let list = body.as_array().unwrap();
    assert_eq!(list.len(), crawlgate::registry::crawlers().len());
    let image = list
        .iter()
        .find(|c| c["name"] == "Googlebot-Image")
        .expect("Googlebot-Image is listed");
    let registry = crawlgate::registry::identify("Googlebot-Image").unwrap();
    assert_eq!(image["fallbacks"], json!(registry.fallbacks));
    assert_eq!(image["obeys_star"], registry.obeys_star);
    assert_eq!(image["operator"], registry.operator);
    assert_eq!(image["purpose"], registry.purpose.as_str());
    assert_eq!(image["source"]["title"], registry.source.title);
    assert_eq!(image["kind"], "crawler");
    let ads = list.iter().find(|c| c["name"] == "AdsBot-Google").unwrap();
    assert_eq!(ads["obeys_star"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_description_states_the_readings_and_the_report() {
    let (_dir, server) = server().await;
    let (status, doc) = get(&server.url("/openapi.json")).await;
    assert_eq!(status, 200);
    let schemas = &doc["components"]["schemas"];
    for schema in ["CheckRequest", "AllowedBatch"] {
        assert_eq!(
            schemas[schema]["properties"]["reading"]["enum"],
            json!(["crawler", "one-token", null]),
            "{schema}"
        );
    }
    let parameters = doc["paths"]["/v1/allowed"]["get"]["parameters"]
        .as_array()
        .unwrap();
    let reading = parameters.iter().find(|p| p["name"] == "reading").unwrap();
    assert_eq!(reading["required"], false);
    assert_eq!(reading["schema"]["enum"], json!(["crawler", "one-token"]));
    let report = &doc["paths"]["/v1/report"]["post"];
    assert!(report["requestBody"]["content"]["application/json"]["example"].is_object());
    assert!(report["responses"]["200"].is_object());
    // The report takes no profile: its schema says so, and so does the route.
    assert!(schemas["ReportRequest"]["properties"]
        .get("profile")
        .is_none());
    let (status, body) = post(
        &server.url("/v1/report"),
        &json!({"robots_txt": "", "profile": "google"}),
    )
    .await;
    assert_eq!(status, 400, "{body}");

    // A 70,000-character reading is refused, and quoted only in part.
    let long = "x".repeat(70_000);
    let (status, body) = post(
        &server.url("/v1/check"),
        &json!({"robots_txt": "", "agent": "a", "urls": ["/"], "reading": long}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["field"].clone()),
        (400, json!("reading"))
    );
    assert!(body["error"]["problem"].as_str().unwrap().len() < 200);
}

/// Bing's crawlers and Yandex's robots are read by their operators' readings
/// unless a profile is named: `/v1/check` and `/v1/allowed` (one and batch)
/// say which, and answer as the library does under that profile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_readings_by_default_and_named_profiles_override() {
    use crawlgate::{Profile, Reading};
    let (_dir, server) = server().await;
    // Bing ends bingbot's group at its Crawl-delay (no rules: allowed);
    // Google merges it into `*`. Yandex's `*` never goes back: `/*aab`
    // leaves `/aaab` allowed there.
    let file = "User-agent: bingbot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /*.pdf$\n\n\
                User-agent: Yandex\nDisallow: /*aab\n";
    let cases = [
        ("bingbot", "/menu.pdf", "bing"),
        ("msnbot", "/menu.pdf", "bing"),
        ("YandexBot", "/aaab", "yandex"),
        ("Googlebot", "/menu.pdf", "google"),
    ];
    let origin = serving(Reply::text(200, file));
    for (agent, url, own) in cases {
        let profile = Profile::named(own).unwrap();
        assert_eq!(Reading::Crawler.profile_for(agent, None), profile);
        let library = RobotsTxt::parse_with(file.as_bytes(), profile)
            .view(Who::read(agent, Reading::Crawler))
            .is_allowed(url);
        let google = RobotsTxt::parse(file.as_bytes())
            .view(Who::read(agent, Reading::Crawler))
            .is_allowed(url);
        // The two readings differ where the example is built to.
        let differs = ["bingbot", "YandexBot"].contains(&agent);
        assert_eq!(library != google, differs, "{agent}");
        let body = check(
            &server,
            json!({"robots_txt": file, "agent": agent, "urls": [url]}),
        )
        .await;
        assert_eq!(body["profile"], own, "{body}");
        assert_eq!(body["results"][0]["allowed"], library, "{body}");
        let body = check(
            &server,
            json!({"robots_txt": file, "agent": agent, "urls": [url], "profile": "google"}),
        )
        .await;
        assert_eq!(body["profile"], "google", "{body}");
        assert_eq!(body["results"][0]["allowed"], google, "{body}");
        let asked = server.url(&format!(
            "/v1/allowed?{}",
            query(&[("url", origin.url(url).as_str()), ("agent", agent)])
        ));
        let (status, body) = get(&asked).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["profile"], own, "{body}");
        assert_eq!(body["allowed"], library, "{body}");
    }
    let pairs: Vec<Value> = cases
        .iter()
        .map(|(agent, url, _)| json!({"url": origin.url(url), "agent": agent}))
        .collect();
    let (status, body) = post(&server.url("/v1/allowed"), &json!({ "pairs": pairs })).await;
    assert_eq!(status, 200, "{body}");
    for (i, (agent, url, own)) in cases.iter().enumerate() {
        let library = RobotsTxt::parse_with(file.as_bytes(), Profile::named(own).unwrap())
            .view(Who::read(agent, Reading::Crawler))
            .is_allowed(url);
        assert_eq!(body["results"][i]["profile"], *own, "{body}");
        assert_eq!(body["results"][i]["allowed"], library, "{agent}: {body}");
    }
}
