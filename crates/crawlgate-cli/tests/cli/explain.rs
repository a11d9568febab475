//! `crawlgate explain`: group selection (merges, the `*` group, the
//! non-rule lines that do not end a group), rules in precedence order, extensions, per-URL matches; JSON; and
//! input errors.

use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files, SAMPLE};

/// Runs `explain` on `robots` written as `robots.txt` in a fresh directory.
fn explain(robots: &str, args: &[&str]) -> std::process::Output {
    let files = Files::new();
    files.write("robots.txt", robots);
    crawlgate()
        .current_dir(files.path())
        .arg("explain")
        .arg("robots.txt")
        .args(args)
        .output()
        .unwrap()
}

/// A Crawl-delay between two user-agent lines does not end the group
/// (docs/behaviour.md §4), so `a` gets `Disallow: /` too.
const TRAP: &str = "\
User-agent: a
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /
";

#[test]
fn makes_the_merge_trap_visible() {
    let output = explain(TRAP, &["--agent", "a", "/page"]);
    assert_eq!(output.status.code(), Some(0), "explain always succeeds");
    let text = stdout_of(&output);
    assert!(text.contains("`a` obeys the group at lines 1–5:"), "{text}");
    assert!(
        text.contains("robots.txt:1  User-agent: a  names `a`"),
        "{text}"
    );
    assert!(
        text.contains(
            "One group, not several: the Crawl-delay at line 2 between these user-agent lines is not a rule, \
             and only a rule followed by a user-agent line ends a group (docs/behaviour.md §4)."
        ),
        "{text}"
    );
    assert!(
        text.contains("the `*` line (robots.txt:3) is in this same group, so the rules written for every crawler apply to `a` too."),
        "{text}"
    );
    assert!(text.contains("/page  disallowed\n  1 matching rule, which decides:\n    1  robots.txt:5  Disallow: /\n"), "{text}");
}

#[test]
fn bing_profile_ends_the_group_at_the_crawl_delay() {
    let google = stdout_of(&explain(TRAP, &["--agent", "a", "/page"]));
    assert!(
        google.contains("for Bing the group ends at line 2 (`--profile bing`)"),
        "{google}"
    );
    let output = explain(TRAP, &["--agent", "a", "--profile", "bing", "/page"]);
    let text = stdout_of(&output);
    assert!(text.contains("(bing profile)"), "{text}");
    assert!(text.contains("`a` obeys the group at lines 1–2:"), "{text}");
    assert!(!text.contains("One group, not several"), "{text}");
    assert!(text.contains("Crawl-delay: 1  wait 1 s"), "{text}");
    let json = explain(
        TRAP,
        &["--agent", "a", "--profile", "bing", "--json", "/page"],
    );
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["profile"], "bing", "{json}");
}

#[test]
fn merged_groups_and_the_unused_star_group() {
    let robots = "\
User-agent: googlebot
Disallow: /a

User-agent: bingbot
Disallow: /b

User-agent: Googlebot
Allow: /a/public
Disallow: /c

User-agent: *
Disallow: /
";
    let text = stdout_of(&explain(robots, &["-a", "Googlebot", "/a/public/y"]));
    assert!(
        text.contains("2 groups name `Googlebot` (lines 1–2 and lines 7–9); they are merged into one set of rules (RFC 9309 §2.2.1):"),
        "{text}"
    );
    assert!(text.contains("    group at lines 7–9\n      robots.txt:7  User-agent: Googlebot  names `Googlebot`\n"), "{text}");
    assert!(
        text.contains("The `*` group (lines 11–12) is not used: a group names `Googlebot`, and `*` only applies to crawlers no group names"),
        "{text}"
    );
    // Precedence order, lengths and line numbers; bingbot's rule is not there.
    assert!(
        text.contains(
            "  length  line\n\
             \x20      9  robots.txt:8  Allow: /a/public\n\
             \x20      2  robots.txt:2  Disallow: /a\n\
             \x20      2  robots.txt:9  Disallow: /c\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("/a/public/y  allowed\n  2 matching rules, the first decides:\n    9  robots.txt:8  Allow: /a/public\n    2  robots.txt:2  Disallow: /a\n"),
        "{text}"
    );
}

#[test]
fn says_why_the_star_group_is_used_and_names_near_misses() {
    let robots = "User-agent: googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n";
    // The crawler reading: Googlebot-News follows the Googlebot group.
    let text = stdout_of(&explain(robots, &["-a", "googlebot-news"]));
    assert!(
        text.contains("Googlebot-News obeys the Googlebot group at lines 1–2: no group names Googlebot-News (Google's crawler documentation)."),
        "{text}"
    );
    // Read as one token, it is a near miss.
    let text = stdout_of(&explain(robots, &["-a", "googlebot-news", "--one-token"]));
    assert!(
        text.contains("No group names `googlebot-news`, so it obeys the `*` group at lines 4–5:"),
        "{text}"
    );
    assert!(
        text.contains("robots.txt:4  User-agent: *  every crawler"),
        "{text}"
    );
    assert!(
        text.contains("These lines name other crawlers, not `googlebot-news` (names must match exactly, RFC 9309 §2.2.1):\n    robots.txt:1  User-agent: googlebot\n"),
        "{text}"
    );
}

#[test]
fn no_group_and_no_star_group() {
    let text = stdout_of(&explain("User-agent: a\nDisallow: /\n", &["-a", "b", "/x"]));
    assert!(
        text.contains("No group names `b` and there is no `*` group: nothing is disallowed."),
        "{text}"
    );
    assert!(text.contains("none: every URL is allowed"), "{text}");
    assert!(
        text.contains("/x  allowed\n  no group applies to this crawler"),
        "{text}"
    );
}

#[test]
fn user_agent_values_name_only_their_product_token() {
    let text = stdout_of(&explain(
        "User-agent: Googlebot/2.1\nDisallow: /x\n",
        &["-a", "Googlebot"],
    ));
    assert!(
        text.contains(
            "User-agent: Googlebot/2.1  names `Googlebot` (only the product token counts)"
        ),
        "{text}"
    );
}

const EXTENSIONS: &str = "\
User-agent: bot
Disallow: /dir/
Allow: /dir/index.html
Disallow: spam
Crawl-delay: 2.5
Crawl-delay: 9
Request-rate: 1/5m
Visit-time: 0600-0845
Content-Usage: /news/ train-ai=n
Content-Signal: search=yes, ai-train=no
Host: example.com
Sitemap: https://example.com/sitemap.xml
";

#[test]
fn rules_extensions_and_sitemaps() {
    let text = stdout_of(&explain(EXTENSIONS, &["-a", "bot", "/dir/", "/news/today"]));
    for expected in [
        "      15  robots.txt:3  Allow: /dir/index.html\n",
        "       6  robots.txt:3  Allow: /dir/index.html  as /dir/$ (Google's index.html alias: also allows the directory)\n",
        "       5  robots.txt:2  Disallow: /dir/\n",
        "  Never match (a path must start with `/` or `*`):\n    robots.txt:4  Disallow: spam\n",
        "robots.txt:5   Crawl-delay: 2.5  ",
        "wait 2.5 s between requests",
        "robots.txt:6   Crawl-delay: 9  ",
        "not used: the first valid Crawl-delay (line 5) applies",
        "at most 1 request(s) per 300 s",
        "visit only between 0600 and 0845 UTC",
        "Content-Usage: /news/ train-ai=n",
        "usage preferences for /news/",
        "Host: example.com",
        "Sitemaps (for every crawler)\n  robots.txt:12  https://example.com/sitemap.xml\n",
        "/news/today  allowed\n  no rule matches\n  content usage: train-ai=n, ai-use=unknown, search=unknown  (robots.txt:9)\n  content signal: search=yes, ai-train=no  (robots.txt:10)\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn json_explanation() {
    let output = explain(EXTENSIONS, &["-a", "bot", "--json", "/dir/", "/dir/x"]);
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["agent"], "bot");
    assert_eq!(json["profile"], "google");
    assert_eq!(json["selection"], "specific");
    assert_eq!(json["groups"][0]["first_line"], 1);
    assert_eq!(json["groups"][0]["user_agents"][0]["names_agent"], true);
    let lengths: Vec<u64> = json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [15, 6, 5]);
    assert_eq!(json["rules"][1]["via_index_alias"], true);
    assert_eq!(json["rules"][1]["pattern"], "/dir/$");
    assert_eq!(json["never_matching_rules"][0]["line"], 4);
    assert_eq!(json["crawl_delay"]["seconds"], 2.5);
    assert_eq!(json["request_rate"]["period_seconds"], 300.0);
    assert_eq!(json["visit_time"]["from"], "0600");
    assert_eq!(json["content_signal"]["line"], 10);
    assert_eq!(
        json["sitemaps"][0]["url"],
        "https://example.com/sitemap.xml"
    );
    let dir = &json["urls"][0];
    assert_eq!(dir["url"], "/dir/");
    assert_eq!(dir["allowed"], true);
    assert_eq!(dir["matching_rules"].as_array().unwrap().len(), 2);
    assert_eq!(json["urls"][1]["allowed"], false);
    assert_eq!(json["urls"][1]["rule"]["line"], 2);
}

#[test]
fn json_shows_the_records_that_merge_groups() {
    let json: Value =
        serde_json::from_slice(&explain(TRAP, &["-a", "a", "--json"]).stdout).unwrap();
    assert_eq!(
        json["groups"][0]["records_between_user_agents"],
        serde_json::json!([{"line": 2, "field": "Crawl-delay"}])
    );
    assert_eq!(json["unused_global_groups"], serde_json::json!([]));
}

#[test]
fn legacy_profile_reads_the_first_matching_group() {
    let robots = "User-agent: bot\nDisallow: /a\n\nUser-agent: mybot\nDisallow: /b\n";
    let text = stdout_of(&explain(
        robots,
        &["-a", "mybot", "--profile", "legacy", "/b"],
    ));
    assert!(
        text.contains("How `mybot` reads robots.txt (legacy profile)"),
        "{text}"
    );
    assert!(
        text.contains("`mybot` obeys the group at lines 1–2 (legacy reading: the first group"),
        "{text}"
    );
    assert!(
        text.contains(
            "Ignored by this reading, although they name it too: the groups at lines 4–5."
        ),
        "{text}"
    );
    assert!(
        text.contains("Rules in file order (legacy: the first that matches decides)"),
        "{text}"
    );
    assert!(text.contains("/b  allowed\n  no rule matches"), "{text}");
}

#[test]
fn urls_are_optional() {
    let output = explain(SAMPLE, &["-a", "Googlebot"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout_of(&output);
    assert!(
        text.starts_with("How `Googlebot` reads robots.txt (google profile)\n\nGroups\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "Sitemaps (for every crawler)\n  robots.txt:9  https://example.com/sitemap.xml\n"
        ),
        "{text}"
    );
}

#[test]
fn input_errors() {
    let files = Files::new();
    crawlgate()
        .current_dir(files.path())
        .args(["explain", "missing.txt", "-a", "bot"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read robots.txt file `missing.txt`",
        ));
    let output = explain(SAMPLE, &["-a", "", "/"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("the agent is empty"));
    let output = explain(SAMPLE, &["-a", "bot", "page.html"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("invalid URL `page.html`"));
    let output = explain(SAMPLE, &["-a", "bot", "--profile", "nope"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("unknown profile `nope`"));
}

#[test]
fn not_a_product_token_warns() {
    let output = explain(SAMPLE, &["-a", "Googlebot/2.1", "--one-token"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr_of(&output).contains("`Googlebot/2.1` is not a product token"));
    assert!(
        stdout_of(&output).contains("No group names `Googlebot/2.1`, so it obeys the `*` group")
    );
    // …and the explanation points at the group it probably meant.
    assert!(stdout_of(&output).contains("robots.txt:1  User-agent: Googlebot"));
}

#[test]
fn binary_garbage_explains_an_empty_reading() {
    let files = Files::new();
    files.write(
        "g.bin",
        [
            0xffu8, 0xfe, b':', 0, b'\n', 0x80, b'<', b'h', b't', b'm', b'l', b'>', b'\r',
        ],
    );
    crawlgate()
        .current_dir(files.path())
        .args(["explain", "g.bin", "-a", "bot", "/x"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "No group names `bot` and there is no `*` group",
        ))
        .stderr(predicate::str::contains("g.bin: no user-agent line"));
}

/// Path-scoped preferences, a tie between two records for one path, a key
/// outside the vocabulary and a licence.
const PREFERENCES: &str = "\
License: https://example.com/license.xml
User-agent: *
Disallow: /private/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y, search=y
Content-Usage: /ai-ok/ train-ai=n, bots=n
Content-Usage: /open/ train-ai=y
Content-Signal: search=yes, ai-train=no
";

/// What `explain --json` and `check --json` show for each URL is what the
/// library's `AgentView::preferences` says.
#[test]
fn preferences_are_what_the_library_says() {
    use crawlgate::{Preference, RobotsTxt};
    let urls = ["/page", "/ai-ok/x", "/open/y", "/private/z"];
    let robots = RobotsTxt::parse(PREFERENCES.as_bytes());
    let view = robots.view("bot");
    let word = |p: Option<Preference>| match p {
        Some(Preference::Allowed) => "allowed",
        Some(Preference::Disallowed) => "disallowed",
        None => "unknown",
    };
    let mut args = vec!["-a", "bot", "--json"];
    args.extend(urls);
    let explained: Value = serde_json::from_slice(&explain(PREFERENCES, &args).stdout).unwrap();
    assert_eq!(
        explained["licenses"][0]["url"],
        "https://example.com/license.xml"
    );
    assert_eq!(explained["licenses"][0]["absolute"], true);
    let files = Files::new();
    files.write("robots.txt", PREFERENCES);
    let mut check = crawlgate();
    check
        .current_dir(files.path())
        .args(["check", "robots.txt"])
        .args(&args);
    let checked: Value = serde_json::from_slice(&check.output().unwrap().stdout).unwrap();
    for (i, url) in urls.iter().enumerate() {
        let shown = &explained["urls"][i]["preferences"];
        let in_check = &checked["results"][i]["preferences"];
        match view.preferences(url) {
            None => {
                assert!(shown.is_null(), "{url}: {shown}");
                assert!(in_check.is_null(), "{url}: {in_check}");
            }
            Some(p) => {
                assert_eq!(shown, in_check, "{url}");
                assert_eq!(shown["train_ai"], word(p.train_ai), "{url}");
                assert_eq!(shown["search"], word(p.search), "{url}");
                assert_eq!(shown["ai_use"], word(p.ai_use), "{url}");
                let overridden: Vec<&str> =
                    p.overridden_by_search().iter().map(|c| c.label()).collect();
                assert_eq!(
                    shown["search_overrides"],
                    serde_json::json!(overridden),
                    "{url}"
                );
                let lines: Vec<u64> = shown["content_usage"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["line"].as_u64().unwrap())
                    .collect();
                let expected: Vec<u64> = p.records.iter().map(|r| u64::from(r.line)).collect();
                assert_eq!(lines, expected, "{url}");
                assert_eq!(
                    shown["unknown_keys"],
                    serde_json::json!(p.unknown_keys),
                    "{url}"
                );
                assert_eq!(shown["content_signal"]["line"], 8, "{url}");
            }
        }
    }
    // The tie on /ai-ok/: the most restrictive of lines 5 and 6.
    assert_eq!(
        explained["urls"][1]["preferences"]["train_ai"],
        "disallowed"
    );
    assert_eq!(explained["urls"][1]["preferences"]["search"], "allowed");
    assert_eq!(explained["urls"][2]["preferences"]["train_ai"], "allowed");
    let text = stdout_of(&explain(PREFERENCES, &["-a", "bot", "/ai-ok/x"]));
    assert!(
        text.contains(
            "content usage: train-ai=n, ai-use=unknown, search=y; inside a search application \
             search=y decides train-ai and ai-use too; not in the vocabulary, ignored: bots  \
             (robots.txt:5, robots.txt:6: same path, the most restrictive of each)"
        ),
        "{text}"
    );
    assert!(text.contains("https://example.com/license.xml"), "{text}");
}

/// The vocabulary draft 08's examples (`testdata/ai-preferences/
/// vocab-08-examples.tsv`), through `check --json` and `explain`: the
/// three categories as the table says, in one run per example.
#[test]
fn the_vocabulary_08_examples_through_check_and_explain() {
    let table = std::fs::read_to_string(
        crawlgate_corpus::repository_root().join("testdata/ai-preferences/vocab-08-examples.tsv"),
    )
    .unwrap();
    let long = |short: &str| match short {
        "y" => "allowed",
        "n" => "disallowed",
        _ => "unknown",
    };
    let mut cases = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let file = format!("User-agent: *\nContent-Usage: {}\n", fields[0]);
        let files = Files::new();
        files.write("robots.txt", &file);
        let output = crawlgate()
            .current_dir(files.path())
            .args(["check", "robots.txt", "-a", "bot", "/ai-ok/x", "--json"])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        let shown = &json["results"][0]["preferences"];
        for (key, field) in [("train_ai", 1), ("ai_use", 2), ("search", 3)] {
            assert_eq!(shown[key], long(fields[field]), "{line}: {key}");
        }
        let text = stdout_of(&explain(&file, &["-a", "bot", "/ai-ok/x"]));
        let said = format!(
            "content usage: train-ai={}, ai-use={}, search={}",
            fields[1], fields[2], fields[3]
        );
        assert!(text.contains(&said), "{line}: {said}\n{text}");
        cases += 1;
    }
    assert!(cases >= 12);
}
