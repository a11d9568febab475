//! The crawler reading and its one-token toggle, Search Console's line
//! marks and counts, and the AI preferences, as the page shows them against
//! what the API and the library say.

use crawlgate::{RobotsTxt, SearchConsoleReport, Who};
use serde_json::{json, Value};

use super::Tester;
use crate::support::post;

/// Google's robots.txt documentation's example of group selection.
const DOCUMENTATION: &str = include_str!("../../../../../examples/google-groups.robots.txt");

const CHOICE: &str = "if (document.body.dataset.busy) return null;
const c = document.getElementById('choice');
const row = document.querySelector('#verdicts tbody tr');
return !c.hidden && row && [c.textContent, c.dataset.kind, c.dataset.reading, row.dataset.allowed, row.dataset.line];";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn googlebot_image_obeys_the_googlebot_group_and_the_toggle_reads_one_token() {
    let page = Tester::open(|_| {}, 1280, 1000).await;
    page.paste("robots", DOCUMENTATION).await;
    page.type_into("agent", "Googlebot-Image").await;
    page.paste("urls", "/googlebot-only/a.jpg").await;
    page.rows(1).await;
    let shown = page.wait_for("the rule applied", CHOICE, vec![]).await;
    let (status, api) = post(
        &page.server.url("/v1/check"),
        &json!({"robots_txt": DOCUMENTATION, "agent": "Googlebot-Image", "urls": ["/googlebot-only/a.jpg"]}),
    )
    .await;
    assert_eq!(status, 200);
    let decided = &api["results"][0];
    let parsed = RobotsTxt::parse(DOCUMENTATION.as_bytes());
    let library = parsed.decide(Who::crawler("Googlebot-Image"), "/googlebot-only/a.jpg");
    assert!(!library.is_allowed());
    let why = library.group_choice().explain("Googlebot-Image");
    assert_eq!(decided["choice"]["why"], why);
    let text = shown[0].as_str().unwrap();
    assert!(text.starts_with(&why), "{text}");
    assert!(
        text.contains(decided["choice"]["source"]["title"].as_str().unwrap()),
        "{text}"
    );
    assert_eq!(shown[1], "fallback");
    assert_eq!(shown[2], "crawler");
    assert_eq!(shown[3], "false");
    assert_eq!(shown[4], decided["rule"]["line"].to_string());
    assert_eq!(shown[4], "8");
    page.shot("tester-crawler-reading.png").await;

    // The one-token reading: Googlebot-Image is one token and obeys `*`.
    page.click("#one-token").await;
    let one = page
        .wait_for(
            "the one-token reading",
            &format!("const r = (() => {{ {CHOICE} }})(); return r && r[2] === 'one-token' && r;"),
            vec![],
        )
        .await;
    let token = parsed.decide("Googlebot-Image", "/googlebot-only/a.jpg");
    assert_eq!(one[3], token.is_allowed().to_string());
    assert_eq!(one[1], "*");

    // The picker lists the registry by operator and purpose, with the rule.
    let label = page
        .wait_for(
            "Googlebot-Image in the picker",
            "const o = document.querySelector('#crawler-list option[value=\"Googlebot-Image\"]'); return o && [o.label, o.dataset.family];",
            vec![],
        )
        .await;
    assert!(
        label[0]
            .as_str()
            .unwrap()
            .contains("falls back to Googlebot"),
        "{label}"
    );
    assert!(label[1].as_str().unwrap().starts_with("Google"), "{label}");
    let ads = page
        .eval(
            "const o = document.querySelector('#crawler-list option[value=\"AdsBot-Google\"]'); return o && o.label;",
            vec![],
        )
        .await;
    assert!(ads.as_str().unwrap().contains("ignores *"), "{ads}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn line_marks_counts_and_preferences_are_the_api_s() {
    let page = Tester::open(|_| {}, 1280, 1000).await;
    // A typo, a missing colon, an unused key, an unknown one; preferences.
    let file = "User-agent: *\nDisalow: /a\nDisallow /b\nCrawl-delay: 5\nFoo: bar\n\
                Content-Usage: train-ai=n\nContent-Signal: search=yes, ai-train=no\nSitemap: https://example.com/s.xml\n";
    page.paste("robots", file).await;
    page.type_into("agent", "mybot").await;
    page.paste("urls", "/page").await;
    page.rows(1).await;
    let marks = page
        .wait_for(
            "the line marks",
            "if (document.body.dataset.busy) return null;
const m = [...document.querySelectorAll('#sc-marks div')];
const c = document.getElementById('sc-counts');
return m.length >= 8 && [m.map(d => [Number(d.dataset.line), d.dataset.kind, d.dataset.flags]), c.dataset.valid, c.dataset.unused, c.textContent];",
            vec![],
        )
        .await;
    let report = SearchConsoleReport::of(file.as_bytes());
    let expected: Vec<Value> = report
        .lines()
        .iter()
        .filter(|l| !matches!(l.kind.as_str(), "empty" | "comment" | "invalid"))
        .map(|l| {
            let flags: Vec<&str> = [
                (l.typo, "typo"),
                (l.missing_colon, "missing_colon"),
                (l.too_long, "too_long"),
            ]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect();
            json!([l.number, l.kind.as_str(), flags.join(" ")])
        })
        .collect();
    assert_eq!(marks[0], json!(expected));
    assert_eq!(marks[1], report.valid_directives().to_string());
    assert_eq!(marks[2], report.unused_directives().to_string());
    assert_eq!(marks[0][1], json!([2, "disallow", "typo"]));
    assert_eq!(marks[0][2], json!([3, "disallow", "missing_colon"]));
    assert_eq!(marks[0][3], json!([4, "unused", ""]));
    assert!(marks[3].as_str().unwrap().contains(&format!(
        "{} valid and {} unused",
        report.valid_directives(),
        report.unused_directives()
    )));
    // A flagged line's notes say what Search Console says of it.
    let notes = page
        .eval(
            "return [2, 3, 4, 5].map(n => noteList(n).map(li => li.textContent).join(' | '));",
            vec![],
        )
        .await;
    assert!(
        notes[0]
            .as_str()
            .unwrap()
            .contains("Search Console: disallow (typo)"),
        "{notes}"
    );
    assert!(
        notes[1]
            .as_str()
            .unwrap()
            .contains("Search Console: disallow (missing colon)"),
        "{notes}"
    );
    assert!(
        notes[2]
            .as_str()
            .unwrap()
            .contains("Search Console: unused, Google knows crawl-delay and does not use it"),
        "{notes}"
    );
    assert!(
        notes[3]
            .as_str()
            .unwrap()
            .contains("Search Console: unknown"),
        "{notes}"
    );
    // The legend names every class.
    let legend = page
        .eval(
            "return document.getElementById('sc-legend').textContent;",
            vec![],
        )
        .await;
    for class in [
        "user-agent",
        "allow",
        "disallow",
        "sitemap",
        "unused",
        "unknown",
        "typo",
        "missing colon",
        "too long",
    ] {
        assert!(
            legend.as_str().unwrap().contains(class),
            "{class}: {legend}"
        );
    }

    // The AI preferences for the URL and crawler, as the API gives them.
    let prefs = page
        .wait_for(
            "the preferences",
            "const p = document.getElementById('preferences'); return !p.hidden && [p.dataset.trainAi, p.dataset.search, p.dataset.signal, p.textContent];",
            vec![],
        )
        .await;
    let (_, api) = post(
        &page.server.url("/v1/check"),
        &json!({"robots_txt": file, "agent": "mybot", "urls": ["/page"]}),
    )
    .await;
    let from_api = &api["results"][0]["preferences"];
    assert_eq!(prefs[0], from_api["train_ai"]);
    assert_eq!(prefs[0], "disallowed");
    assert_eq!(prefs[1], from_api["search"]);
    assert_eq!(prefs[2], from_api["content_signal"]["value"]);
    assert!(prefs[3].as_str().unwrap().contains("line 6"), "{prefs}");
    page.shot("tester-search-console.png").await;

    // Vocabulary draft 08: ai-use, and Search deciding the others inside a
    // search application, as the API gives them.
    let file = "User-agent: *\nContent-Usage: train-ai=n, ai-use=n, search=y\n";
    page.paste("robots", file).await;
    page.rows(1).await;
    let prefs = page
        .wait_for(
            "the draft 08 preferences",
            "const p = document.getElementById('preferences');
return !p.hidden && p.dataset.aiUse && [p.dataset.trainAi, p.dataset.aiUse, p.dataset.search, p.textContent];",
            vec![],
        )
        .await;
    let (_, api) = post(
        &page.server.url("/v1/check"),
        &json!({"robots_txt": file, "agent": "mybot", "urls": ["/page"]}),
    )
    .await;
    let from_api = &api["results"][0]["preferences"];
    assert_eq!(prefs[0], from_api["train_ai"]);
    assert_eq!(prefs[1], from_api["ai_use"]);
    assert_eq!(prefs[1], "disallowed");
    assert_eq!(prefs[2], from_api["search"]);
    assert_eq!(from_api["search_overrides"], json!(["train-ai", "ai-use"]));
    let text = prefs[3].as_str().unwrap();
    assert!(
        text.contains("train-ai disallowed, ai-use disallowed, search allowed")
            && text.contains(
                "inside a search application search allowed decides train-ai and ai-use too"
            ),
        "{text}"
    );
    page.close().await;
}
