//! `crawlgate policy` by each crawler's own reading (a merge keeps
//! bingbot's verdicts as `check --agent bingbot` gives them; every row of
//! `--json` is `batch`'s verdict) and server rules by the operators'
//! published address ranges (`--ip-ranges`), with their bad input.

use serde_json::Value;

use crate::policy::write_policy;
use crate::{crawlgate, stderr_of, Files};

/// A file Google and Bing read differently (Bing ends a group at a
/// `User-agent` line after `Crawl-delay`): bingbot may fetch everything by
/// Bing's rules, nothing by Google's.
const BING_DIFFERS: &str =
    "User-agent: bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";

fn allowed(files: &Files, file: &str, agent: &str, url: &str) -> bool {
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", file, "--agent", agent, url, "--json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", stderr_of(&output)));
    json["allowed"]
        .as_bool()
        .or_else(|| json["results"][0]["allowed"].as_bool())
        .unwrap_or_else(|| panic!("no verdict in {json}"))
}

#[test]
fn a_merge_keeps_bingbots_verdicts_as_check_gives_them() {
    let files = Files::new();
    files.write("site.txt", BING_DIFFERS);
    let args = [
        "policy",
        "--search",
        "allow",
        "--ai-train",
        "deny",
        "--merge",
        "site.txt",
    ];
    write_policy(&files, &args);
    for url in ["/", "/page"] {
        for agent in ["bingbot", "Googlebot", "YandexBot"] {
            assert_eq!(
                allowed(&files, "robots.txt", agent, url),
                allowed(&files, "site.txt", agent, url),
                "{agent} {url}"
            );
        }
    }
    assert!(allowed(&files, "site.txt", "bingbot", "/page"));
    assert!(!allowed(&files, "robots.txt", "GPTBot", "/page"));
    // Every row of the table is what `batch` (the crawler reading, by
    // each crawler's profile) answers for the written file.
    let rows = crate::policy::explain_rows_are_batch_answers(&files, &args);
    let bing = rows.iter().find(|r| r["crawler"] == "Bingbot").unwrap();
    assert_eq!(bing["profile"], "bing");
    assert_eq!(bing["allowed"], true);
}

/// The lab's mirror of every feed, GPTBot's listing 127.0.0.2.
fn mirror(files: &Files) {
    crawlgate_test_support::access_log::Lab::generate(10, 1)
        .write_mirror(&files.path().join("mirror"))
        .unwrap();
    files.write(
        "mirror/openai.com/gptbot.json",
        r#"{"creationTime":"2026-11-28T00:00:00","prefixes":[{"ipv4Prefix":"127.0.0.2/32"}]}"#,
    );
}

#[test]
fn ip_ranges_deny_the_denied_crawlers_addresses() {
    let files = Files::new();
    mirror(&files);
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "policy",
            "--search",
            "allow",
            "--ai-train",
            "deny",
            "-o",
            "robots.txt",
            "--ip-ranges",
            "mirror",
            "--nginx",
            "block.conf",
            "--nginx-http",
            "geo.conf",
            "--haproxy",
            "haproxy.cfg",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let denied: Vec<&str> = json["server"]["denied_ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(denied.contains(&"127.0.0.2/32"), "{denied:?}");
    // Anthropic's one feed serves Claude-User, which the policy lets in.
    assert!(!denied.contains(&"160.79.104.0/23"), "{denied:?}");
    let stderr = stderr_of(&output);
    assert!(stderr.contains("not denied by address"), "{stderr}");
    assert!(stderr.contains("whatever User-Agent"), "{stderr}");
    let geo = std::fs::read_to_string(files.path().join("geo.conf")).unwrap();
    assert!(geo.contains("    127.0.0.2/32 1;"), "{geo}");
    let block = std::fs::read_to_string(files.path().join("block.conf")).unwrap();
    assert!(block.contains("$crawlgate_denied_address"), "{block}");
    let haproxy = std::fs::read_to_string(files.path().join("haproxy.cfg")).unwrap();
    assert!(
        haproxy.contains("src ") && haproxy.contains("127.0.0.2/32"),
        "{haproxy}"
    );
}

#[test]
fn bad_ip_range_input_is_said_and_exits_2() {
    let files = Files::new();
    mirror(&files);
    std::fs::create_dir(files.path().join("broken")).unwrap();
    let long = "m".repeat(70_000);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--ip-ranges", "nowhere", "--haproxy", "h.cfg"],
            "not a folder",
        ),
        (
            vec!["--ip-ranges", &long, "--haproxy", "h.cfg"],
            "not a folder",
        ),
        (vec!["--ip-ranges", "mirror"], "name one with --nginx"),
        (
            vec!["--ip-ranges", "mirror", "--nginx", "b.conf"],
            "--nginx-http",
        ),
        (vec!["--nginx-http", "g.conf"], "needs --ip-ranges"),
        (
            vec!["--ip-ranges", "broken", "--haproxy", "h.cfg"],
            "the feed https://",
        ),
        (
            vec![
                "--ip-ranges",
                "mirror",
                "--fetch-ip-ranges",
                "--haproxy",
                "h.cfg",
            ],
            "cannot be used with",
        ),
    ];
    for (args, says) in cases {
        let output = crawlgate()
            .current_dir(files.path())
            .args(["policy", "--ai-train", "deny"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr_of(&output)
        );
        let error = stderr_of(&output);
        assert!(error.contains(says), "{args:?}: {error}");
        assert!(error.len() < 2_000, "a long input is not echoed whole");
        assert!(
            !files.path().join("h.cfg").exists(),
            "nothing written on an error"
        );
    }
    // A feed without prefixes in the mirror: named, and why.
    files.write("mirror/openai.com/gptbot.json", r#"{"creationTime":"x"}"#);
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "policy",
            "--ai-train",
            "deny",
            "--ip-ranges",
            "mirror",
            "--haproxy",
            "h.cfg",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("openai.com/gptbot.json"),
        "{}",
        stderr_of(&output)
    );
}
