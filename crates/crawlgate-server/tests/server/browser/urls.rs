//! The URL list: the server's limits stated, URLs past them reported (not
//! dropped), URLs on other sites than the file's flagged, and hostile
//! lists (a 70,000-character URL, 100,000 lines) handled.

use crawlgate_answers::Origin;
use serde_json::json;

use super::{assert_rows_match_library, Tester};
use crate::support::{post, serving, Reply};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n";

const NOTES: &str = "const n = document.getElementById('url-notes');
return !document.body.dataset.busy && [n.hidden, n.dataset.tested, n.dataset.skipped, n.textContent];";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_past_the_limits_are_reported() {
    let page = Tester::open(
        |config| {
            config.limits.max_pairs = 4;
            config.limits.max_url_chars = 64;
        },
        1280,
        1000,
    )
    .await;
    let stated = page
        .eval(
            "return document.getElementById('url-limits').textContent;",
            vec![],
        )
        .await;
    assert!(
        stated
            .as_str()
            .unwrap()
            .starts_with("At most 4 URLs per test, each at most 64 characters"),
        "{stated}"
    );
    page.paste("robots", ROBOTS).await;
    page.type_into("agent", "mybot").await;
    let long = format!("/{}", "a".repeat(70));
    let list = [
        "/a",
        "/private/x",
        &long,
        "",
        "/private/press/y",
        "/b",
        "/c",
        "/d",
    ];
    page.paste("urls", &list.join("\n")).await;
    let rows = page.rows(4).await;
    assert_rows_match_library(
        &rows,
        ROBOTS,
        "mybot",
        &["/a", "/private/x", "/private/press/y", "/b"],
    );
    let notes = page.wait_for("the notes", NOTES, vec![]).await;
    assert_eq!(notes[0], false);
    assert_eq!((&notes[1], &notes[2]), (&json!("4"), &json!("3")));
    assert_eq!(
        notes[3],
        "3 of 7 URLs not tested: 2 past the limit of 4 URLs per test (lines 7, 8); \
         1 longer than 64 characters (line 3)."
    );
    page.shot("tester-url-limits.png").await;

    // Within the limits again: nothing to report.
    page.paste("urls", "/a\n/b").await;
    page.rows(2).await;
    let notes = page.wait_for("no notes", NOTES, vec![]).await;
    assert_eq!(notes[0], true, "{notes}");
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_count_characters_as_the_server_does() {
    let page = Tester::open(
        |config| {
            config.limits.max_url_chars = 64;
            config.limits.max_robots_bytes = 256;
        },
        1280,
        1000,
    )
    .await;
    let stated = page
        .eval(
            "return document.getElementById('url-limits').textContent;",
            vec![],
        )
        .await;
    assert!(
        stated
            .as_str()
            .unwrap()
            .contains("each at most 64 characters; files of at most 256 characters"),
        "{stated}"
    );
    // 200 two-byte characters: 400 bytes but 225 characters, which the
    // server takes; so does the page.
    let robots = format!("User-agent: *\nDisallow: /{}\n", "é".repeat(200));
    let fits = format!("/{}", "é".repeat(63));
    let long = format!("/{}", "é".repeat(64));
    page.paste("robots", &robots).await;
    page.type_into("agent", "mybot").await;
    page.paste("urls", &format!("{fits}\n{long}")).await;
    let rows = page.rows(1).await;
    assert_rows_match_library(&rows, &robots, "mybot", &[&fits]);
    let notes = page.wait_for("the notes", NOTES, vec![]).await;
    assert_eq!(
        notes[3],
        "1 of 2 URLs not tested: 1 longer than 64 characters (line 2)."
    );
    // The API agrees on both sides of each limit.
    let check = page.server.url("/v1/check");
    let ask =
        |robots: &str, url: &str| json!({"robots_txt": robots, "agent": "mybot", "urls": [url]});
    assert_eq!(post(&check, &ask(&robots, &fits)).await.0, 200);
    let (status, body) = post(&check, &ask(&robots, &long)).await;
    assert_eq!(
        (status, &body["error"]["field"]),
        (400, &json!("urls[0]")),
        "{body}"
    );

    // 257 characters: past the limit, said so, nothing asked.
    let over = format!("User-agent: *\nDisallow: /{}\n", "é".repeat(231));
    assert_eq!(over.chars().count(), 257);
    let (status, body) = post(&check, &ask(&over, &fits)).await;
    assert_eq!(
        (status, &body["error"]["field"]),
        (400, &json!("robots_txt")),
        "{body}"
    );
    page.paste("robots", &over).await;
    page.settled().await;
    let said = page
        .eval(
            "return [document.getElementById('test-status').textContent, document.querySelectorAll('#verdicts tbody tr').length];",
            vec![],
        )
        .await;
    assert_eq!(
        said,
        json!([
            "The file is 257 characters long; this server tests files of at most 256 characters (crawlers read the first 512,000 bytes).",
            0
        ])
    );
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_url_lists_are_reported_not_dropped() {
    let page = Tester::open(|_| {}, 1280, 1000).await;
    page.paste("robots", ROBOTS).await;
    page.type_into("agent", "mybot").await;
    // 100,000 lines, one of them a 70,000-character URL.
    let mut lines: Vec<String> = (0..100_000).map(|i| format!("/private/{i}")).collect();
    lines[2] = format!("/{}", "x".repeat(70_000));
    page.paste("urls", &lines.join("\n")).await;
    let rows = page.rows(1000).await;
    assert_eq!(rows[2].url, "/private/3");
    assert_eq!(rows[999].url, "/private/1000");
    let notes = page.wait_for("the notes", NOTES, vec![]).await;
    assert_eq!(
        notes[3],
        "99,000 of 100,000 URLs not tested: 98,999 past the limit of 1,000 URLs per test \
         (lines 1,002, 1,003, 1,004, 1,005, 1,006 and 98,994 more); \
         1 longer than 8,192 characters (line 3)."
    );
    // The first and last tested rows say what the library says.
    let urls: Vec<&str> = rows.iter().map(|r| r.url.as_str()).collect();
    assert_rows_match_library(&rows[..1], ROBOTS, "mybot", &urls[..1]);
    assert_rows_match_library(&rows[999..], ROBOTS, "mybot", &urls[999..]);

    // A 70,000-character crawler name: said to be past the limit, nothing
    // asked.
    page.paste("agent", &"b".repeat(70_000)).await;
    page.settled().await;
    let said = page
        .eval(
            "return [document.getElementById('test-status').textContent, document.querySelectorAll('#verdicts tbody tr').length];",
            vec![],
        )
        .await;
    assert_eq!(
        said,
        json!([
            "The crawler's name is 70,000 characters long; this server takes names of at most 256.",
            0
        ])
    );
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_on_other_sites_are_flagged() {
    let site = serving(Reply::text(200, ROBOTS));
    let page = Tester::open(|_| {}, 1280, 1000).await;
    page.type_into("agent", "mybot").await;
    let own = site.url("/private/x");
    // The same site written otherwise (the scheme's case), another port,
    // another host, and a path.
    let same_upper = own.replace("http://", "HTTP://");
    let other_port = format!("http://127.0.0.1:{}/private/x", site.port() ^ 1);
    let list = [
        own.as_str(),
        same_upper.as_str(),
        other_port.as_str(),
        "https://other.example/private/y",
        "/private/press/z",
    ];
    page.paste("urls", &list.join("\n")).await;
    page.type_into("fetch-url", &site.url("/")).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the fetched file",
        "return document.getElementById('robots').value.includes('/private/press/');",
        vec![],
    )
    .await;
    page.settled().await;
    let rows = page.rows(5).await;
    // What the page flags is what the fetch crate calls another origin.
    let origin = Origin::from_url(&site.url("/")).unwrap();
    for row in &rows {
        let elsewhere = match Origin::from_url(&row.url) {
            Ok(of_url) => of_url != origin,
            Err(_) => false,
        };
        assert_eq!(row.other_host.is_some(), elsewhere, "{row:?}");
        if let Some(other) = &row.other_host {
            assert_eq!(other, &Origin::from_url(&row.url).unwrap().to_string());
        }
    }
    let flagged = rows.iter().filter(|r| r.other_host.is_some()).count();
    assert_eq!(flagged, 2, "{rows:?}");
    let said = page
        .eval(
            "return document.getElementById('file-origin').textContent;",
            vec![],
        )
        .await;
    assert_eq!(
        said,
        format!(
            "Tested as the robots.txt of {origin} (the site it was fetched from); a full URL on another site is not tested against this file, but against its own robots.txt when you ask."
        )
    );
    page.shot("tester-other-hosts.png").await;

    // A pasted file with no site named: the first full URL names it.
    page.paste("fetch-url", "").await;
    page.click("#undo-replace").await;
    page.paste(
        "urls",
        "https://a.example/private/x\nhttps://b.example/private/x\n/private/y",
    )
    .await;
    let rows = page.rows(3).await;
    let flags: Vec<Option<&str>> = rows.iter().map(|r| r.other_host.as_deref()).collect();
    assert_eq!(flags, [None, Some("https://b.example"), None]);
    page.close().await;
}
