//! A fetched file: what replaces the editor's text can be undone, the shown
//! version is named and marked once edited, two versions compare line by
//! line, and no error (a 429, a 5xx, an unreachable site, this server
//! gone) takes the editor's text or the status and history panels away.

use std::time::Duration;

use serde_json::json;

use super::{assert_rows_match_library, Tester};
use crate::support::{free_port, get, query, serving, Reply};

const OWN: &str = "User-agent: *\nDisallow: /mine\n";
const FIRST: &str =
    "User-agent: *\nDisallow: /old\nDisallow: /tmp\n\nSitemap: https://example.com/a.xml\n";
const SECOND: &str = "User-agent: *\nDisallow: /new\nAllow: /new/press\nDisallow: /tmp\n\nSitemap: https://example.com/a.xml\n";

const EDITOR: &str = "return document.getElementById('robots').value;";

/// What the page says about the editor's text: [shown, edited, undo enabled].
const SHOWN: &str = "return [document.getElementById('shown').textContent,
  !document.getElementById('edited').hidden, !document.getElementById('undo-replace').disabled];";

/// The status panel: [origin, HTTP status, outcome, history items].
const PANELS: &str = "const o = document.getElementById('fetch-origin');
return o && [o.textContent, document.getElementById('fetch-status').textContent,
  document.getElementById('fetch-outcome').textContent, document.querySelectorAll('#history-list li').length,
  document.getElementById('fetch-info').hidden, document.getElementById('history').hidden];";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_are_named_compared_and_every_replace_undone() {
    let site = serving(Reply::text(200, FIRST));
    let page = Tester::open(
        |config| config.limits.refresh_interval = Duration::ZERO,
        1280,
        1200,
    )
    .await;
    page.paste("robots", OWN).await;
    page.type_into("agent", "mybot").await;
    page.paste("urls", "/old/x\n/new/press/y\n/tmp/z").await;
    page.rows(3).await;
    assert_eq!(
        page.eval(SHOWN, vec![]).await,
        json!(["Shown: your text", false, false])
    );

    // Fetching replaces the text: the version is named, and undo brings the
    // pasted text back.
    page.type_into("fetch-url", &site.url("/")).await;
    page.click("#fetch-button").await;
    let text = page
        .wait_for(
            "the fetched file",
            "const v = document.getElementById('robots').value; return v.startsWith('User-agent: *\\nDisallow: /old') && v;",
            vec![],
        )
        .await;
    assert_eq!(text, FIRST);
    let site_url = site.url("/");
    let (status, cached) = get(&page.server.url(&format!(
        "/v1/robots?{}",
        query(&[("origin", site_url.as_str())])
    )))
    .await;
    assert_eq!(status, 200);
    let shown = page.eval(SHOWN, vec![]).await;
    assert_eq!(
        shown[0],
        format!(
            "Shown: {} as fetched {} (HTTP 200)",
            cached["robots_url"].as_str().unwrap(),
            cached["fetch"]["fetched_at"].as_str().unwrap()
        )
    );
    assert_eq!((&shown[1], &shown[2]), (&json!(false), &json!(true)));
    let rows = page.rows(3).await;
    assert_rows_match_library(&rows, FIRST, "mybot", &["/old/x", "/new/press/y", "/tmp/z"]);
    page.click("#undo-replace").await;
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    let shown = page.eval(SHOWN, vec![]).await;
    assert!(
        shown[0].as_str().unwrap().starts_with("Shown: your text"),
        "{shown}"
    );
    assert_eq!(shown[2], false, "nothing left to undo: {shown}");

    // Fetched again, then edited: marked as edited since the fetch.
    page.click("#fetch-button").await;
    page.wait_for(
        "the file again",
        "return document.getElementById('robots').value.includes('/old');",
        vec![],
    )
    .await;
    page.paste("robots", &format!("{FIRST}Disallow: /edited\n"))
        .await;
    page.wait_for(
        "the edited mark",
        "return !document.getElementById('edited').hidden;",
        vec![],
    )
    .await;

    // The site changes; "Refetch now" brings the new version, the history
    // has both, and the edited text is one undo away.
    site.set("/robots.txt", Reply::text(200, SECOND));
    page.click("#refresh-button").await;
    page.wait_for(
        "the second version",
        "return document.getElementById('robots').value.includes('/new/press');",
        vec![],
    )
    .await;
    assert_eq!(page.eval(EDITOR, vec![]).await, SECOND);
    page.wait_for(
        "two versions in the history",
        "return document.querySelectorAll('#history-list li').length === 2;",
        vec![],
    )
    .await;
    let rows = page.rows(3).await;
    assert_rows_match_library(
        &rows,
        SECOND,
        "mybot",
        &["/old/x", "/new/press/y", "/tmp/z"],
    );

    // Compare the older version with the newer: line by line, as a diff
    // of the two bodies the API keeps.
    let (_, cached) = get(&page.server.url(&format!(
        "/v1/robots?{}",
        query(&[("origin", site_url.as_str())])
    )))
    .await;
    let ids: Vec<u64> = cached["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{cached}");
    let mut bodies = Vec::new();
    for id in &ids {
        let (status, version) = get(&page.server.url(&format!(
            "/v1/robots/version?{}",
            query(&[
                ("origin", site_url.as_str()),
                ("id", id.to_string().as_str())
            ])
        )))
        .await;
        assert_eq!(status, 200);
        bodies.push(version["body"].as_str().unwrap().to_owned());
    }
    assert_eq!((bodies[0].as_str(), bodies[1].as_str()), (SECOND, FIRST));
    page.eval(
        "document.getElementById('compare-from').value = arguments[0]; document.getElementById('compare-to').value = arguments[1];",
        vec![json!(ids[1].to_string()), json!(ids[0].to_string())],
    )
    .await;
    page.click("#compare-button").await;
    let diff = page
        .wait_for(
            "the differences",
            "const d = document.getElementById('diff'); if (d.hidden || !d.dataset.added) return null;
return [d.dataset.added, d.dataset.removed, document.getElementById('diff-summary').textContent,
  [...d.querySelectorAll('tr.added td:last-child')].map(t => t.textContent),
  [...d.querySelectorAll('tr.removed td:last-child')].map(t => t.textContent)];",
            vec![],
        )
        .await;
    let (added, removed) = line_changes(FIRST, SECOND);
    assert_eq!(diff[3], json!(added), "{diff}");
    assert_eq!(diff[4], json!(removed), "{diff}");
    assert_eq!(diff[0], added.len().to_string());
    assert_eq!(diff[1], removed.len().to_string());
    assert!(
        diff[2]
            .as_str()
            .unwrap()
            .contains("2 lines added, 1 removed"),
        "{diff}"
    );
    page.shot("tester-diff.png").await;

    // Loading the older version names it, and undo goes back to the newer.
    page.click(&format!("#history-list li[data-id=\"{}\"] button", ids[1]))
        .await;
    page.wait_for(
        "the older version",
        "return document.getElementById('robots').value.includes('/old');",
        vec![],
    )
    .await;
    let shown = page.eval(SHOWN, vec![]).await;
    let fetched_at = cached["history"][1]["fetched_at"].as_str().unwrap();
    assert!(
        shown[0]
            .as_str()
            .unwrap()
            .ends_with(&format!("the version of {fetched_at} (HTTP 200)")),
        "{shown}"
    );
    let current = page
        .eval(
            "return document.querySelector('#history-list li.current').dataset.id;",
            vec![],
        )
        .await;
    assert_eq!(current, ids[1].to_string());
    page.click("#undo-replace").await;
    assert_eq!(page.eval(EDITOR, vec![]).await, SECOND);
    page.click("#undo-replace").await;
    assert_eq!(
        page.eval(EDITOR, vec![]).await,
        format!("{FIRST}Disallow: /edited\n"),
        "the edited text is not lost to the refetch"
    );
    page.close().await;
}

/// The lines only in `new` and only in `old`, in order (the two test
/// versions share the rest in the same order).
fn line_changes(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let (o, n): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let added = n
        .iter()
        .filter(|l| !o.contains(*l))
        .map(|l| l.to_string())
        .collect();
    let removed = o
        .iter()
        .filter(|l| !n.contains(*l))
        .map(|l| l.to_string())
        .collect();
    (added, removed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_keep_the_editor_and_the_panels() {
    let site = serving(Reply::text(200, FIRST));
    let mut page = Tester::open(|_| {}, 1280, 1200).await;
    page.paste("robots", OWN).await;
    page.type_into("agent", "mybot").await;
    page.paste("urls", "/old/x\n/mine").await;
    page.rows(2).await;

    page.type_into("fetch-url", &site.url("/")).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the fetched file",
        "return document.getElementById('robots').value.includes('/old');",
        vec![],
    )
    .await;
    let panels = page.wait_for("the panels", PANELS, vec![]).await;
    let site_origin = panels[0].clone();
    assert_eq!(panels[1], "200");

    // A refetch too soon (the second within 10 s): the API answers 429; the
    // panels and the editor stay.
    page.click("#refresh-button").await;
    page.wait_for(
        "the first refetch",
        "return !document.getElementById('refresh-button').disabled;",
        vec![],
    )
    .await;
    page.paste("robots", OWN).await;
    let panels = page.eval(PANELS, vec![]).await;
    page.click("#refresh-button").await;
    let error = page
        .wait_for(
            "the 429",
            "const e = document.getElementById('fetch-error'); return !e.hidden && [e.dataset.status, e.textContent];",
            vec![],
        )
        .await;
    assert_eq!(error[0], "429", "{error}");
    assert!(
        error[1].as_str().unwrap().contains("refreshed less than"),
        "{error}"
    );
    assert!(
        error[1]
            .as_str()
            .unwrap()
            .contains("Wait 10 s between two refetches of a site."),
        "{error}"
    );
    assert_eq!(page.eval(PANELS, vec![]).await, panels);
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    page.shot("tester-429.png").await;

    // An address the server refuses (400: no robots.txt for mailto:): the
    // panels and the editor stay, and there is nothing to refetch.
    page.type_into("fetch-url", "mailto:webmaster@example.com")
        .await;
    page.click("#fetch-button").await;
    let error = page
        .wait_for(
            "the 400",
            "const e = document.getElementById('fetch-error'); return !e.hidden && e.dataset.status === '400' && e.textContent;",
            vec![],
        )
        .await;
    assert!(error.as_str().unwrap().contains("origin"), "{error}");
    assert_eq!(page.eval(PANELS, vec![]).await, panels);
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    assert_eq!(
        page.eval(
            "return document.getElementById('refresh-button').hidden;",
            vec![]
        )
        .await,
        true
    );

    // A site that answers 503: the fetch worked, crawlers may fetch
    // nothing, and there is no file to show, so the editor keeps its text;
    // "Refetch now" follows the new site.
    let failing = serving(Reply::text(503, "down"));
    page.type_into("fetch-url", &failing.url("/")).await;
    page.click("#fetch-button").await;
    let now = page
        .wait_for(
            "the 503 site's panel",
            "const o = document.getElementById('fetch-origin'); const n = document.getElementById('fetch-no-file');
return o && n && o.textContent !== arguments[0] && [o.textContent, document.getElementById('fetch-status').textContent, n.textContent];",
            vec![site_origin.clone()],
        )
        .await;
    assert_eq!(now[1], "503");
    assert!(
        now[2].as_str().unwrap().contains("may fetch nothing"),
        "{now}"
    );
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    let target = page
        .eval(
            "return document.getElementById('refresh-button').dataset.origin;",
            vec![],
        )
        .await;
    assert_eq!(target, now[0]);

    // An unreachable site: the same, and the status says no response.
    let port = free_port();
    page.type_into("fetch-url", &format!("http://127.0.0.1:{port}/"))
        .await;
    page.click("#fetch-button").await;
    let gone = page
        .wait_for(
            "the unreachable site's panel",
            "const o = document.getElementById('fetch-origin');
return o && o.textContent.endsWith(':' + arguments[0]) && [document.getElementById('fetch-status').textContent, document.getElementById('fetch-outcome').textContent];",
            vec![json!(port)],
        )
        .await;
    assert_eq!(gone[0], "no response", "{gone}");
    // Its only version has no file: nothing to load or compare.
    let offered = page
        .eval(
            "return [document.getElementById('compare-form').offsetParent === null,
  document.querySelectorAll('#history-list button').length, document.getElementById('fetch-info').textContent];",
            vec![],
        )
        .await;
    assert_eq!(
        (&offered[0], &offered[1]),
        (&json!(true), &json!(0)),
        "{offered}"
    );
    assert!(!offered[2].as_str().unwrap().contains("null"), "{offered}");
    assert!(
        gone[1].as_str().unwrap().starts_with("full disallow"),
        "{gone}"
    );
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    let panels = page.eval(PANELS, vec![]).await;

    // This server gone: a network error; still nothing is wiped.
    let rows_before = page.rows(2).await;
    let server = page.server.base.clone();
    page.server.halt().await;
    page.click("#refresh-button").await;
    let error = page
        .wait_for(
            "the network error",
            "const e = document.getElementById('fetch-error'); return !e.hidden && e.textContent;",
            vec![],
        )
        .await;
    assert!(
        error.as_str().unwrap().contains("did not answer"),
        "{error}"
    );
    assert_eq!(page.eval(PANELS, vec![]).await, panels);
    assert_eq!(page.eval(EDITOR, vec![]).await, OWN);
    let rows_after = page
        .eval(
            "return document.querySelectorAll('#verdicts tbody tr').length;",
            vec![],
        )
        .await
        .as_u64()
        .unwrap() as usize;
    assert_eq!(
        rows_after,
        rows_before.len(),
        "the verdicts of {server} stay"
    );
    page.shots
        .take(&page.client, "tester-server-gone.png")
        .await;
    page.close().await;
}
