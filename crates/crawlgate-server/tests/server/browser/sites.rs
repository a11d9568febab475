//! The tester never answers from stale text: a fetch that gives no file
//! (no DNS answer, a refused connection, a 4xx) answers the verdicts from
//! that fetch's outcome and says why; a URL on another site is tested
//! against that site's own robots.txt; a site's host variants are listed
//! with their own files; the short crawler picker reads each crawler by
//! its operator's rules; the issues list keeps Search Console's items
//! apart from lint's advice; counts, code spans, marks and the phone
//! layout read right. What the page shows is what the API says.

use std::sync::Arc;
use std::time::Duration;

use crawlgate_fetch::{AddressPolicy, StaticResolver};
use crawlgate_server::{Network, ServerConfig};
use serde_json::{json, Value};

use super::{assert_rows_match_library, counted, Tester};
use crate::support::{free_port, get, post, query, serving, Reply};

const FILE: &str = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n";
const URLS: [&str; 3] = ["/private/x", "/private/press/y", "/open"];

/// `site.test` (and, with `www`, `www.site.test`) resolve to loopback; any
/// other name does not resolve.
fn names(config: &mut ServerConfig, www: bool) {
    let loopback = ["127.0.0.1".parse().unwrap()];
    let mut resolver = StaticResolver::new().with("site.test", loopback);
    if www {
        resolver = resolver.with("www.site.test", loopback);
    }
    config.network = Some(Network {
        resolver: Arc::new(resolver),
        policy: AddressPolicy::allow_private(),
    });
}

/// The verdict rows: [url, allowed, source, deciding-line cell].
const SOURCED: &str = "if (document.body.dataset.busy) return null;
const rows = [...document.querySelectorAll('#verdicts tbody tr')];
if (rows.length !== arguments[0] || rows.some(r => r.dataset.source !== arguments[1])) return null;
return rows.map(r => [r.dataset.url, r.dataset.allowed, r.children[2].textContent]);";

/// What the page says is tested, and the editor's text.
const TESTED: &str = "return [document.getElementById('tested-copy').textContent,
  document.getElementById('file-origin').dataset.tested, document.getElementById('robots').value,
  document.getElementById('shown').textContent];";

/// The API's verdicts for the site's fetch outcome, as [url, allowed,
/// fetch_outcome], and the fetch it read.
async fn outcome_verdicts(page: &Tester, origin: &str) -> (Vec<Value>, Value) {
    let (status, checked) = post(
        &page.server.url("/v1/check"),
        &json!({"url": origin, "agent": "mybot", "urls": URLS, "all_profiles": true}),
    )
    .await;
    assert_eq!(status, 200, "{checked}");
    let rows = checked["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["url"], r["allowed"].to_string(), r["fetch_outcome"]]))
        .collect();
    (rows, checked["source"]["fetch"].clone())
}

/// Fetches `url` in the page and waits for the verdicts of its outcome.
async fn fetch_failing(page: &Tester, url: &str, origin: &str) -> Value {
    page.type_into("fetch-url", url).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the fetch's panel",
        "const o = document.getElementById('fetch-origin'); return o && o.textContent === arguments[0];",
        vec![json!(origin)],
    )
    .await;
    page.settled().await;
    page.wait_for(
        "verdicts from the fetch outcome",
        SOURCED,
        vec![json!(URLS.len()), json!("fetch-outcome")],
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_fetch_answers_from_its_outcome_never_from_the_old_text() {
    let site = serving(Reply::text(200, FILE));
    let page = Tester::open(|config| names(config, false), 1280, 1200).await;
    page.type_into("agent", "mybot").await;
    page.paste("urls", &URLS.join("\n")).await;
    let own = format!("http://site.test:{}", site.port());
    page.type_into("fetch-url", &format!("{own}/")).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the fetched file",
        "return document.getElementById('robots').value === arguments[0];",
        vec![json!(FILE)],
    )
    .await;
    assert_rows_match_library(&page.rows(3).await, FILE, "mybot", &URLS);

    // A name that does not resolve: the page says so, in the API's terms,
    // and every verdict is the outcome's (nothing may be fetched), not the
    // editor's text, which stays, marked as not tested.
    let gone = format!("http://gone.test:{}", site.port());
    let rows = fetch_failing(&page, &format!("{gone}/"), &gone).await;
    let (want, fetch) = outcome_verdicts(&page, &gone).await;
    assert_eq!(fetch["attempt"], json!({"kind": "network", "error": "dns"}));
    assert_eq!(fetch["outcome"], "full_disallow");
    assert_eq!(rows, json!(want));
    assert!(want.iter().all(|r| r[1] == "false"), "{want:?}");
    let why = page
        .eval(
            "return document.getElementById('fetch-why').textContent;",
            vec![],
        )
        .await;
    assert_eq!(why, "no response: DNS error: the host name did not resolve");
    let tested = page.eval(TESTED, vec![]).await;
    let said = tested[0].as_str().unwrap();
    assert!(
        said.starts_with(&format!(
            "Tested: {gone}/robots.txt as fetched {}, which gave no file (no response: DNS error: the host name did not resolve).",
            fetch["fetched_at"].as_str().unwrap()
        )),
        "{said}"
    );
    assert!(said.contains("crawlers may fetch nothing"), "{said}");
    assert!(said.ends_with("The editor's text is not tested."), "{said}");
    assert!(!said.contains("site.test"), "the old site named: {said}");
    assert_eq!(tested[1], "fetch-outcome");
    assert_eq!(tested[2], FILE, "the editor keeps its text");
    assert!(
        tested[3]
            .as_str()
            .unwrap()
            .ends_with(&format!("(not tested: {gone} gave no file)")),
        "{tested}"
    );
    page.shot("tester-failed-fetch-dns.png").await;

    // A refused connection on loopback: the same, said as such.
    let refused = format!("http://127.0.0.1:{}", free_port());
    let rows = fetch_failing(&page, &format!("{refused}/"), &refused).await;
    let (want, fetch) = outcome_verdicts(&page, &refused).await;
    assert_eq!(
        fetch["attempt"],
        json!({"kind": "network", "error": "connect"})
    );
    assert_eq!(rows, json!(want));
    let said = page.eval(TESTED, vec![]).await[0].clone();
    assert!(
        said.as_str().unwrap().contains(
            "(no response: the connection failed (refused, or the TLS handshake failed))"
        ),
        "{said}"
    );

    // A 404: no robots.txt, so everything may be fetched.
    let missing = serving(Reply::status(404));
    let missing_origin = format!("http://127.0.0.1:{}", missing.port());
    let rows = fetch_failing(&page, &missing.url("/"), &missing_origin).await;
    let (want, fetch) = outcome_verdicts(&page, &missing_origin).await;
    assert_eq!(fetch["outcome"], "full_allow");
    assert_eq!(rows, json!(want));
    assert!(want.iter().all(|r| r[1] == "true"), "{want:?}");
    let said = page.eval(TESTED, vec![]).await[0].clone();
    assert!(
        said.as_str().unwrap().contains(
            "(HTTP 404). By Google's rules a 4xx answer means there is no robots.txt: crawlers may fetch everything"
        ),
        "{said}"
    );
    page.shot("tester-failed-fetch-404.png").await;

    // Asked for, the editor's text is tested again, as the file of the
    // site it came from.
    page.click("#test-editor").await;
    page.settled().await;
    page.wait_for(
        "verdicts from the editor's text",
        SOURCED,
        vec![json!(URLS.len()), json!("editor")],
    )
    .await;
    assert_rows_match_library(&page.rows(3).await, FILE, "mybot", &URLS);
    let tested = page.eval(TESTED, vec![]).await;
    assert!(
        tested[0].as_str().unwrap().starts_with(&format!(
            "Tested as the robots.txt of {own} (the site it was fetched from)"
        )),
        "{tested}"
    );
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_on_other_sites_are_tested_against_their_own_robots_txt() {
    let other = serving(Reply::text(200, "User-agent: *\nDisallow: /theirs/\n"));
    let page = Tester::open(|_| {}, 1280, 1100).await;
    page.paste("robots", FILE).await;
    page.type_into("agent", "mybot").await;
    let mine = "https://mine.example/private/x";
    let theirs = [other.url("/theirs/a"), other.url("/private/b")];
    let list = [mine, theirs[0].as_str(), theirs[1].as_str(), "/open"];
    page.paste("urls", &list.join("\n")).await;
    let rows = page.rows(4).await;
    // The other site's URLs get no verdict from this file.
    let untested: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| (r.url.as_str(), r.allowed.as_str(), r.verdict.as_str()))
        .collect();
    assert_eq!(
        untested,
        [
            (mine, "false", "disallowed"),
            (theirs[0].as_str(), "", "not tested"),
            (theirs[1].as_str(), "", "not tested"),
            ("/open", "true", "allowed"),
        ]
    );
    assert_eq!(other.hits("/robots.txt"), 0, "nothing fetched unasked");
    page.shot("tester-other-site-untested.png").await;

    // Asked, each is tested against its own site's robots.txt: what the
    // API's sidecar answer says.
    page.click("#test-elsewhere").await;
    let shown = page
        .wait_for(
            "the other site's verdicts",
            "const rows = [...document.querySelectorAll('#verdicts tbody tr[data-source=\"other-site\"]')];
return rows.length === 2 && rows.map(r => [r.dataset.url, r.dataset.allowed, r.dataset.line, r.children[1].textContent, r.children[2].textContent]);",
            vec![],
        )
        .await;
    let (status, answer) = post(
        &page.server.url("/v1/allowed"),
        &json!({"pairs": theirs.iter().map(|u| json!({"url": u, "agent": "mybot"})).collect::<Vec<_>>()}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let want: Vec<Value> = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&theirs)
        .map(|(r, url)| {
            let allowed = r["allowed"].as_bool().unwrap();
            json!([
                url,
                allowed.to_string(),
                r["rule"]["line"]
                    .as_u64()
                    .map(|l| l.to_string())
                    .unwrap_or_default(),
                if allowed { "allowed" } else { "disallowed" },
                match r["rule"].is_null() {
                    true => r["fetch_outcome"]
                        .as_str()
                        .map(str::to_owned)
                        .unwrap_or_else(|| "no rule matches".into()),
                    false => format!(
                        "{}: {}",
                        r["rule"]["line"],
                        r["rule"]["text"].as_str().unwrap()
                    ),
                },
            ])
        })
        .collect();
    assert_eq!(shown, json!(want));
    assert_eq!(want[0][1], "false");
    assert_eq!(
        want[1][1], "true",
        "the pasted file's /private/ is not theirs"
    );
    assert_eq!(other.hits("/robots.txt"), 1);
    page.shot("tester-other-site-tested.png").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_variants_are_listed_with_their_own_files() {
    let site = serving(Reply::text(200, FILE));
    // The https variants meet a plain-HTTP server: they fail, after at
    // most this long.
    let page = Tester::open(
        |config| {
            names(config, true);
            config.fetch_timeout = Duration::from_secs(1);
        },
        1280,
        1200,
    )
    .await;
    let origin = format!("http://site.test:{}", site.port());
    page.type_into("fetch-url", &format!("{origin}/")).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the offer of the variants",
        "const b = document.getElementById('variants-button'); return b && b.offsetParent !== null;",
        vec![],
    )
    .await;
    page.click("#variants-button").await;
    let shown = page
        .wait_for(
            "the variants",
            "const p = document.getElementById('variants'); if (p.dataset.loaded !== 'true') return null;
return [...p.querySelectorAll('tbody tr')].map(r => [r.dataset.origin, r.dataset.asked, r.dataset.same,
  r.querySelector('.variant-fetch').textContent, r.querySelector('.variant-same').textContent]);",
            vec![],
        )
        .await;
    let (status, answer) = get(&page.server.url(&format!(
        "/v1/variants?{}",
        query(&[("origin", origin.as_str())])
    )))
    .await;
    assert_eq!(status, 200, "{answer}");
    let variants = answer["variants"].as_array().unwrap();
    let port = site.port();
    let origins: Vec<&str> = variants
        .iter()
        .map(|v| v["origin"].as_str().unwrap())
        .collect();
    assert_eq!(
        origins,
        [
            format!("https://www.site.test:{port}"),
            format!("https://site.test:{port}"),
            format!("http://www.site.test:{port}"),
            origin.clone(),
        ]
    );
    let shown = shown.as_array().unwrap();
    assert_eq!(shown.len(), 4, "{shown:?}");
    for (row, v) in shown.iter().zip(variants) {
        assert_eq!(row[0], v["origin"]);
        assert_eq!(row[1], v["asked"].to_string());
        let fetch_text = row[3].as_str().unwrap();
        match v["fetch"]["attempt"]["kind"].as_str() {
            Some("status") => assert_eq!(
                fetch_text,
                format!("HTTP {}", v["fetch"]["status"]),
                "{row}"
            ),
            Some(_) => assert!(fetch_text.starts_with("no response: "), "{row} {v}"),
            None => assert!(fetch_text.starts_with("not fetched: "), "{row} {v}"),
        }
    }
    // The www host serves the same file (the same server); the https
    // variants answer nothing, so their reading differs.
    let same: Vec<&Value> = variants.iter().map(|v| &v["same_as_asked"]).collect();
    assert_eq!(
        same,
        [&json!(false), &json!(false), &json!(true), &json!(true)]
    );
    let labels: Vec<&str> = shown.iter().map(|r| r[4].as_str().unwrap()).collect();
    assert!(labels[0].starts_with("differs"), "{labels:?}");
    assert!(labels[2].starts_with("same as tested"), "{labels:?}");
    assert_eq!(labels[3], "the one tested");
    page.shot("tester-host-variants.png").await;
    page.close().await;
}

/// The crawlers Search Console's old tester and Bing's tester offered.
const PICKED: [&str; 8] = [
    "Googlebot",
    "Googlebot-Image",
    "Googlebot-News",
    "Googlebot-Video",
    "AdsBot-Google",
    "Mediapartners-Google",
    "Bingbot",
    "AdIdxBot",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_short_picker_reads_each_crawler_by_its_operator() {
    // Bing ends a group at Crawl-delay; AdsBot ignores `*`; Googlebot-Image
    // falls back to Googlebot's group.
    let robots = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n\nUser-agent: AdIdxBot\nDisallow: /ads/\n";
    let urls = ["/", "/ads/x", "/page"];
    let page = Tester::open(|_| {}, 1280, 1100).await;
    page.paste("robots", robots).await;
    page.paste("urls", &urls.join("\n")).await;
    let offered = page
        .eval(
            "return [...document.querySelectorAll('#quick-crawlers button')].map(b => b.textContent);",
            vec![],
        )
        .await;
    assert_eq!(offered, json!(PICKED));
    for name in PICKED {
        page.click(&format!("#quick-crawlers button[data-agent=\"{name}\"]"))
            .await;
        let rows = page.rows(urls.len()).await;
        let (status, checked) = post(
            &page.server.url("/v1/check"),
            &json!({"robots_txt": robots, "agent": name, "urls": urls, "all_profiles": true}),
        )
        .await;
        assert_eq!(status, 200);
        let said = page
            .eval(
                "const r = document.getElementById('reading-used'); return [r.dataset.profile, r.textContent, document.getElementById('agent').value,
  document.querySelector('#quick-crawlers button[aria-pressed=\"true\"]').textContent];",
                vec![],
            )
            .await;
        assert_eq!(said[0], checked["profile"], "{name}");
        assert_eq!(said[2], name);
        assert_eq!(said[3], name);
        let operator = if name.starts_with("Bing") || name.starts_with("AdIdx") {
            "bing"
        } else {
            "google"
        };
        assert_eq!(checked["profile"], operator, "{name}");
        let rules = if operator == "bing" {
            "Bing's"
        } else {
            "Google's"
        };
        assert!(
            said[1].as_str().unwrap().starts_with(&format!(
                "Verdicts for {name} read by {rules} rules: its operator's own reading"
            )),
            "{said}"
        );
        // The headline verdict is the crawler's own reading; Google's and
        // Bing's side by side where they differ.
        for (row, want) in rows.iter().zip(checked["results"].as_array().unwrap()) {
            assert_eq!(row.allowed, want["allowed"].to_string(), "{name} {row:?}");
            let (google, bing) = (
                &want["profiles"]["google"]["allowed"],
                &want["profiles"]["bing"]["allowed"],
            );
            if google != bing {
                assert!(
                    row.others.starts_with(&format!(
                        "Google: {}",
                        if google == true {
                            "allowed"
                        } else {
                            "disallowed"
                        }
                    )),
                    "{name} {row:?}"
                );
            }
        }
    }
    page.shot("tester-short-picker.png").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issues_by_line_counts_marks_and_the_phone_read_right() {
    // A typo, a missing colon, a line Google does not know, a duplicate
    // rule, a message with code spans.
    let robots = "User-agent: *\nDisalow: /x\nDisallow /tmp\nfoo bar\nDisallow: /d\nDisallow: /d\nAllow: \nSitemap: /relative.xml\n";
    let page = Tester::open(|_| {}, 1280, 1200).await;
    page.paste("robots", robots).await;
    page.settled().await;
    let (_, report) = post(
        &page.server.url("/v1/report"),
        &json!({"robots_txt": robots}),
    )
    .await;
    let (_, linted) = post(&page.server.url("/v1/lint"), &json!({"robots_txt": robots})).await;
    let flagged: Vec<u64> = report["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["flagged"] == true)
        .map(|l| l["line"].as_u64().unwrap())
        .collect();
    assert!(flagged.len() >= 3, "{report}");
    let diagnostics = linted["diagnostics"].as_array().unwrap();
    let mut lines: Vec<u64> = flagged.clone();
    lines.extend(
        diagnostics
            .iter()
            .filter_map(|d| d["line"].as_u64())
            .filter(|&l| l > 0),
    );
    lines.sort_unstable();
    lines.dedup();
    let items = page
        .wait_for(
            "the issues by line",
            "const items = [...document.querySelectorAll('#line-issues > li[data-line]')];
return items.length && items.map(li => [Number(li.dataset.line), li.dataset.sc, li.dataset.lint,
  [...li.querySelectorAll('.sc-item')].length, li.textContent]);",
            vec![],
        )
        .await;
    let items = items.as_array().unwrap();
    let shown: Vec<u64> = items.iter().map(|i| i[0].as_u64().unwrap()).collect();
    assert_eq!(shown, lines);
    for item in items {
        let line = item[0].as_u64().unwrap();
        let sc = flagged.contains(&line);
        assert_eq!(item[1], sc.to_string(), "{item}");
        assert_eq!(item[3], u64::from(sc), "{item}");
        let codes: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d["line"] == line)
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(item[2], codes.join(" "), "{item}");
        for d in diagnostics.iter().filter(|d| d["line"] == line) {
            let words = d["message"].as_str().unwrap().replace('`', "");
            assert!(
                item[4].as_str().unwrap().contains(&words),
                "{item} lacks {words}"
            );
        }
    }

    // Counts in words: "1 warning", never "1 warnings"; no raw backtick in
    // any finding, code drawn as code.
    let counts = &linted["counts"];
    let said = page
        .eval(
            "return [document.getElementById('lint-count').textContent,
  document.getElementById('diagnostics').textContent.includes('`'), document.querySelectorAll('#diagnostics code').length,
  document.getElementById('line-issues').textContent.includes('`')];",
            vec![],
        )
        .await;
    assert_eq!(
        said[0],
        format!(
            "({}, {}, {})",
            counted(&counts["errors"], "error"),
            counted(&counts["warnings"], "warning"),
            counted(&counts["infos"], "note")
        )
    );
    let ticked = diagnostics
        .iter()
        .filter(|d| d["message"].as_str().unwrap().contains('`'))
        .count();
    assert!(ticked > 0, "no finding with a code span: {linted}");
    assert_eq!((&said[1], &said[3]), (&json!(false), &json!(false)));
    assert!(said[2].as_u64().unwrap() >= ticked as u64, "{said}");

    // Search Console's note has its own mark (S is its sitemap class), in
    // the legend; the short notes over the editor are never cut off.
    page.eval(
        "const r = document.getElementById('robots'); r.focus(); r.setSelectionRange(14, 14); r.dispatchEvent(new Event('keyup'));",
        vec![],
    )
    .await;
    let marks = page
        .wait_for(
            "line 2's notes",
            "const n = document.getElementById('line-notes'); if (n.dataset.line !== '2') return null;
const sc = n.querySelector('li.search-console .sym');
const notes = [...document.querySelectorAll('.mark .note')];
const column = [...document.querySelectorAll('#line-marks .cell')].filter(c => c.querySelector('.sym.search-console')).map(c => Number(c.dataset.line));
return sc && [sc.textContent, document.getElementById('legend').textContent.includes('⚑ Search Console flags the line'),
  notes.length, notes.every(x => x.scrollWidth <= x.clientWidth + 1), column];",
            vec![],
        )
        .await;
    assert_eq!(marks[0], "⚑");
    assert_eq!(marks[1], true);
    assert!(marks[2].as_u64().unwrap() > 0, "{marks}");
    assert_eq!(marks[3], true, "a note is cut off: {marks}");
    assert_eq!(marks[4], json!(flagged), "the flag column: {marks}");
    page.shot("tester-issues-editor.png").await;
    page.eval(
        "document.getElementById('issues-title').scrollIntoView();",
        vec![],
    )
    .await;
    page.shot("tester-issues-by-line.png").await;
    page.close().await;

    // On a phone the profile label stays beside its select.
    let page = Tester::open(|_| {}, 390, 844).await;
    page.paste("robots", robots).await;
    let placed = page
        .eval(
            "const l = document.querySelector('label[for=profile]').getBoundingClientRect();
const s = document.getElementById('profile').getBoundingClientRect();
return [Math.abs((l.top + l.bottom) / 2 - (s.top + s.bottom) / 2) < 4, l.right <= s.left + 1, s.right <= innerWidth];",
            vec![],
        )
        .await;
    assert_eq!(placed, json!([true, true, true]));
    page.eval(
        "document.getElementById('quick-crawlers').scrollIntoView();",
        vec![],
    )
    .await;
    page.shot("tester-phone-picker.png").await;
    page.close().await;
}
