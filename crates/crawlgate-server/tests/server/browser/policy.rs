//! The policy panel: choose purposes, write, see the file and the diff
//! against the editor's text, copy, download, put it in the editor. What
//! the panel shows is what the policy crate writes.

use crawlgate_policy::{merge, Access, Policy, Purpose};
use serde_json::json;

use crate::browser::Tester;

const SITE: &str = "User-agent: *\nDisallow: /tmp/\n\nUser-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /drafts/\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_panel_writes_merges_copies_and_downloads() {
    let tester = Tester::open(|_| {}, 1280, 1600).await;
    tester.paste("robots", SITE).await;
    tester.settled().await;
    tester
        .eval(
            "document.getElementById('policy-search').value = 'allow';
             document.getElementById('policy-ai-train').value = 'deny';
             document.getElementById('policy-private').value = '/admin/';",
            vec![],
        )
        .await;
    tester.click("#policy-write").await;
    let file = tester
        .wait_for(
            "the policy's file",
            "return !document.body.dataset.policyBusy && !document.getElementById('policy-result').hidden
               && document.getElementById('policy-file').textContent;",
            vec![],
        )
        .await;
    let library = merge(
        &Policy::new()
            .with(Purpose::Search, Access::Allow)
            .with(Purpose::AiTrain, Access::Deny)
            .with_private("/admin/"),
        SITE.as_bytes(),
    )
    .unwrap();
    assert_eq!(file, json!(library.text()));
    let diff = tester
        .eval(
            "return document.getElementById('policy-diff').textContent;",
            vec![],
        )
        .await;
    assert_eq!(diff, json!(library.diff.clone().unwrap()));
    let removed = tester
        .eval("return [...document.querySelectorAll('#policy-diff .removed')].map(e => e.textContent);", vec![])
        .await;
    assert_eq!(removed, json!(["-User-agent: GPTBot\n"]));
    let status = tester
        .eval(
            "return document.getElementById('policy-status').textContent;",
            vec![],
        )
        .await;
    let crawlers = crawlgate::registry::crawlers().len();
    assert!(
        status
            .as_str()
            .unwrap()
            .starts_with(&format!("Proven for the {crawlers} crawlers")),
        "{status}"
    );
    let notes = tester
        .eval(
            "return [...document.querySelectorAll('#policy-notes li')].map(e => e.textContent);",
            vec![],
        )
        .await;
    assert_eq!(notes, json!(library.notes));
    tester.shot("policy-panel").await;

    // Copy: what reaches the clipboard is the file.
    tester
        .eval(
            "window.__copied = null; navigator.clipboard.writeText = (t) => { window.__copied = t; return Promise.resolve(); };",
            vec![],
        )
        .await;
    tester.click("#policy-copy").await;
    let copied = tester
        .wait_for("the copy", "return window.__copied;", vec![])
        .await;
    assert_eq!(copied, json!(library.text()));
    // Download: a robots.txt holding the file.
    tester
        .eval(
            "window.__blob = null; const make = URL.createObjectURL; URL.createObjectURL = (b) => { b.text().then(t => { window.__blob = t; }); return make(b); };
             HTMLAnchorElement.prototype.click = function () { window.__name = this.download; };",
            vec![],
        )
        .await;
    tester.click("#policy-download").await;
    let downloaded = tester
        .wait_for("the download", "return window.__blob;", vec![])
        .await;
    assert_eq!(downloaded, json!(library.text()));
    assert_eq!(
        tester.eval("return window.__name;", vec![]).await,
        json!("robots.txt")
    );

    // Into the editor: the tester then tests the new file, and undo
    // brings the site's back.
    tester.click("#policy-use").await;
    tester.settled().await;
    let editor = tester
        .eval("return document.getElementById('robots').value;", vec![])
        .await;
    assert_eq!(editor, json!(library.text()));
    tester.type_into("agent", "GPTBot").await;
    tester.paste("urls", "/\n/admin/x").await;
    let rows = tester.rows(2).await;
    assert_eq!(
        (rows[0].allowed.as_str(), rows[1].allowed.as_str()),
        ("false", "false")
    );
    tester.click("#undo-replace").await;
    tester.settled().await;
    let editor = tester
        .eval("return document.getElementById('robots').value;", vec![])
        .await;
    assert_eq!(editor, json!(SITE));
    tester.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_that_cannot_be_written_is_said() {
    let tester = Tester::open(|_| {}, 1024, 1400).await;
    tester
        .eval(
            "document.getElementById('policy-ai-train').value = 'deny';
             document.getElementById('policy-private').value = '/robots.txt';
             document.getElementById('policy-merge').checked = false;",
            vec![],
        )
        .await;
    tester.click("#policy-write").await;
    let error = tester
        .wait_for(
            "the error",
            "const e = document.getElementById('policy-error'); return !e.hidden && e.textContent;",
            vec![],
        )
        .await;
    let error = error.as_str().unwrap();
    assert!(
        error.contains("/robots.txt") && error.contains("crawlers fetch /robots.txt"),
        "{error}"
    );
    assert_eq!(
        tester
            .eval(
                "return document.getElementById('policy-result').hidden;",
                vec![]
            )
            .await,
        json!(true)
    );
    // Fixed, and written new (not merged): no diff.
    tester
        .eval(
            "document.getElementById('policy-private').value = '';",
            vec![],
        )
        .await;
    tester.click("#policy-write").await;
    tester
        .wait_for(
            "the file",
            "return !document.getElementById('policy-result').hidden && !document.body.dataset.policyBusy;",
            vec![],
        )
        .await;
    assert_eq!(
        tester
            .eval(
                "return document.getElementById('policy-diff').hidden;",
                vec![]
            )
            .await,
        json!(true)
    );
    tester.shot("policy-panel-new-file").await;
    tester.close().await;
}
