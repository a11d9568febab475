//! Snapshots of the human output of `check`, `explain` and `test` on real
//! robots.txt files from the shared corpus. Files are named relative to the
//! corpus directory so the output does not depend on where it lives.

use crate::{corpus, crawlgate, stdout_of};

/// Runs crawlgate in the corpus directory and returns standard output.
fn run(args: &[&str]) -> String {
    let output = crawlgate()
        .current_dir(corpus())
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout_of(&output)
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn check_hypebeast() {
    let text = run(&[
        "check",
        "hypebeast.com",
        "--agent",
        "Slurp",
        "/search/page/2",
        "/search/page/7",
        "/app.php",
        "https://hypebeast.com/wp-admin/",
    ]);
    snapshot("check_hypebeast_slurp", &text);
}

#[test]
fn check_gothamist_all_profiles() {
    let text = run(&[
        "check",
        "gothamist.com",
        "--agent",
        "Googlebot",
        "--all-profiles",
        "/photos/cat.jpg",
        "/photos/cat.jpg?w=300",
        "/mt/admin",
        "/news/",
    ]);
    snapshot("check_gothamist_all_profiles", &text);
}

#[test]
fn check_archive_org() {
    let text = run(&[
        "check",
        "archive.org",
        "-a",
        "ia_archiver",
        "/details/goldenbull2007john/",
        "/details/other",
        "/control/x",
        "/",
    ]);
    snapshot("check_archive_org", &text);
}

#[test]
fn explain_hypebeast_slurp() {
    // Slurp, TwitterBot and Baiduspider share one group: the Crawl-delay
    // lines between their user-agent lines do not end it.
    let text = run(&[
        "explain",
        "hypebeast.com",
        "--agent",
        "Slurp",
        "/search/page/2",
        "/search/page/9",
    ]);
    snapshot("explain_hypebeast_slurp", &text);
}

#[test]
fn explain_classicfm_rogerbot() {
    // rogerbot's group also names `*`: it gets the rules meant for everyone.
    let text = run(&[
        "explain",
        "www.classicfm.com",
        "--agent",
        "rogerbot",
        "/preview/show",
    ]);
    snapshot("explain_classicfm_rogerbot", &text);
}

#[test]
fn explain_gothamist_googlebot_news() {
    // No group names Googlebot-News: it follows the Googlebot group
    // (Google's crawler documentation), not `*`.
    let text = run(&[
        "explain",
        "gothamist.com",
        "--agent",
        "Googlebot-News",
        "/news/",
    ]);
    snapshot("explain_gothamist_googlebot_news", &text);
}

#[test]
fn explain_gothamist_googlebot_news_one_token() {
    // Read as one token, a near miss: `Googlebot-News` is not `Googlebot`,
    // so it gets `*`.
    let text = run(&[
        "explain",
        "gothamist.com",
        "--agent",
        "Googlebot-News",
        "--one-token",
        "/news/",
    ]);
    snapshot("explain_gothamist_googlebot_news_one_token", &text);
}

#[test]
fn explain_alternativeto_ahrefs() {
    let text = run(&[
        "explain",
        "alternativeto.net",
        "--agent",
        "AhrefsBot",
        "/login",
    ]);
    snapshot("explain_alternativeto_ahrefsbot", &text);
}

#[test]
fn test_gothamist_expectations() {
    let expectations = data("gothamist.expect");
    let output = crawlgate()
        .current_dir(corpus())
        .args(["test", "gothamist.com", &expectations])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "the file holds failing expectations"
    );
    let text = stdout_of(&output).replace(&expectations, "gothamist.expect");
    snapshot("test_gothamist", &text);
    // Read as one token, Googlebot-News gets `*` and its expectation fails.
    let output = crawlgate()
        .current_dir(corpus())
        .args(["test", "gothamist.com", &expectations, "--one-token"])
        .output()
        .unwrap();
    let text = stdout_of(&output).replace(&expectations, "gothamist.expect");
    snapshot("test_gothamist_one_token", &text);
}

#[test]
fn test_archive_org_verbose() {
    let expectations = data("archive.expect");
    let output = crawlgate()
        .current_dir(corpus())
        .args(["test", "archive.org", &expectations, "--verbose"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output).replace(&expectations, "archive.expect");
    snapshot("test_archive_org_verbose", &text);
}
