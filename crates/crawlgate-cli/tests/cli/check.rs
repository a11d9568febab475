//! `crawlgate check` on files and standard input: every output mode and
//! every input error.

use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files, SAMPLE};

/// Runs `check` on SAMPLE written as `robots.txt` in a fresh directory.
fn check_sample(args: &[&str]) -> std::process::Output {
    let files = Files::new();
    files.write("robots.txt", SAMPLE);
    crawlgate()
        .current_dir(files.path())
        .arg("check")
        .arg("robots.txt")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn one_line_per_url_with_the_deciding_line_quoted() {
    let output = check_sample(&[
        "--agent",
        "mybot",
        "/private/x",
        "https://example.com/private/press/1",
        "/index.php",
        "/index.php?x",
    ]);
    assert_eq!(
        stdout_of(&output),
        "\
disallowed  /private/x                           robots.txt:6  Disallow: /private
allowed     https://example.com/private/press/1  robots.txt:7  Allow: /private/press
disallowed  /index.php                           robots.txt:8  Disallow: /*.php$
allowed     /index.php?x                         no rule matched
"
    );
    assert_eq!(output.status.code(), Some(1), "some URL is disallowed");
    assert_eq!(stderr_of(&output), "");
}

#[test]
fn exit_0_when_everything_is_allowed() {
    let output = check_sample(&["-a", "Googlebot", "/nogoogle/ok", "/private/x"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout_of(&output),
        "\
allowed     /nogoogle/ok  robots.txt:3  Allow: /nogoogle/ok
allowed     /private/x    no rule matched (`Googlebot` obeys its own group at lines 1–3; the 3 rules of `User-agent: *` do not apply to it)
"
    );
}

#[test]
fn says_when_an_empty_rule_or_no_group_decided() {
    let files = Files::new();
    files.write(
        "robots.txt",
        "User-agent: a\nDisallow:\n\nUser-agent: b\nDisallow: /\n",
    );
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "-a", "a", "/x"])
        .assert()
        .success()
        .stdout("allowed     /x  robots.txt:2  Disallow:  (empty rule: allows everything)\n");
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "-a", "c", "/x"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "no group names this crawler and there is no `*` group",
        ));
}

#[test]
fn index_html_alias_is_named() {
    let files = Files::new();
    files.write(
        "robots.txt",
        "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
    );
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "-a", "bot", "/dir/"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "robots.txt:3  Allow: /dir/index.html  (Google's index.html alias",
        ));
}

#[test]
fn standard_input_is_named_stdin() {
    crawlgate()
        .args(["check", "-", "--agent", "mybot", "/private/x"])
        .write_stdin(SAMPLE)
        .assert()
        .code(1)
        .stdout("disallowed  /private/x  <stdin>:6  Disallow: /private\n");
}

#[test]
fn json_for_machines() {
    let output = check_sample(&["-a", "mybot", "--json", "/index.php", "/a"]);
    assert_eq!(output.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["agent"], "mybot");
    assert_eq!(json["profile"], "google");
    assert_eq!(json["allowed"], false);
    let first = &json["results"][0];
    assert_eq!(first["url"], "/index.php");
    assert_eq!(first["robots"], "robots.txt");
    assert_eq!(first["allowed"], false);
    assert_eq!(first["basis"], "rule");
    assert_eq!(first["rule"]["line"], 8);
    assert_eq!(first["rule"]["kind"], "disallow");
    assert_eq!(first["rule"]["text"], "Disallow: /*.php$");
    let second = &json["results"][1];
    assert_eq!(second["allowed"], true);
    assert_eq!(second["basis"], "no_matching_rule");
    assert_eq!(second["rule"], Value::Null);
}

#[test]
fn all_profiles_side_by_side() {
    let output = check_sample(&["-a", "mybot", "--all-profiles", "/index.php", "/a"]);
    assert_eq!(
        stdout_of(&output),
        "\
URL         google                       rfc9309                      legacy                       bing                         yandex
/index.php  disallowed  line 8           disallowed  line 8           allowed     no rule matched  disallowed  line 8           disallowed  line 8           (profiles disagree)
/a          allowed     no rule matched  allowed     no rule matched  allowed     no rule matched  allowed     no rule matched  allowed     no rule matched

robots.txt:8  Disallow: /*.php$
"
    );
    assert_eq!(output.status.code(), Some(1), "a profile disallows");
}

#[test]
fn all_profiles_json_lists_each_verdict() {
    let output = check_sample(&["-a", "mybot", "--all-profiles", "--json", "/index.php"]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        json["profiles"],
        serde_json::json!(["google", "rfc9309", "legacy", "bing", "yandex"])
    );
    let result = &json["results"][0];
    assert_eq!(result["agree"], false);
    let verdicts: Vec<(String, bool)> = result["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["profile"].as_str().unwrap().to_owned(),
                v["allowed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("google".to_owned(), false),
            ("rfc9309".to_owned(), false),
            ("legacy".to_owned(), true),
            ("bing".to_owned(), false),
            ("yandex".to_owned(), false)
        ]
    );
}

#[test]
fn profile_changes_the_reading() {
    let files = Files::new();
    files.write("robots.txt", "User-agent: *\nDisallow /x\n");
    let run = |profile: &str| {
        crawlgate()
            .current_dir(files.path())
            .args([
                "check",
                "robots.txt",
                "-a",
                "bot",
                "--profile",
                profile,
                "/x",
            ])
            .output()
            .unwrap()
    };
    // Google accepts the line without a colon; RFC 9309 does not.
    assert_eq!(run("google").status.code(), Some(1));
    assert_eq!(run("rfc9309").status.code(), Some(0));
    assert_eq!(
        stdout_of(&run("rfc9309")),
        "allowed     /x  no rule matched\n"
    );
    crawlgate()
        .current_dir(files.path())
        .args([
            "check",
            "robots.txt",
            "-a",
            "bot",
            "--profile",
            "rfc9309",
            "/robots.txt",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "/robots.txt itself is always allowed",
        ));
}

#[test]
fn missing_file_is_an_input_error() {
    let files = Files::new();
    crawlgate()
        .current_dir(files.path())
        .args(["check", "missing.txt", "-a", "bot", "/"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "crawlgate: error: cannot read robots.txt file `missing.txt`:",
        ));
}

#[test]
fn a_site_name_given_as_a_file_gets_a_hint() {
    let files = Files::new();
    crawlgate()
        .current_dir(files.path())
        .args(["check", "example.com", "-a", "bot", "/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "give its URL: https://example.com/",
        ));
}

#[test]
fn unreadable_file_is_an_input_error() {
    let files = Files::new();
    // A directory cannot be read as a file, whoever runs the test.
    std::fs::create_dir(files.path().join("robots.txt")).unwrap();
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "-a", "bot", "/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read robots.txt file `robots.txt`: it is a directory",
        ));
}

#[cfg(target_os = "linux")]
#[test]
fn file_that_fails_to_read_is_an_input_error() {
    // Reading a process's memory from offset 0 fails (EIO) even for root,
    // unlike a chmod 000 file.
    crawlgate()
        .args(["check", "/proc/self/mem", "-a", "bot", "/"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read robots.txt file `/proc/self/mem`",
        ));
}

#[test]
fn invalid_urls_are_input_errors() {
    for (url, message) in [
        (
            "example.com/page",
            "give an absolute URL (https://example.com/page) or a path starting with `/`",
        ),
        ("mailto:me@example.com", "mailto: URLs have no robots.txt"),
        ("http://[::1", "invalid IPv6 address"),
        ("", "invalid URL ``"),
    ] {
        let output = check_sample(&["-a", "bot", "/fine", url]);
        assert_eq!(output.status.code(), Some(2), "{url}");
        assert_eq!(
            stdout_of(&output),
            "",
            "nothing is checked when a URL is invalid"
        );
        let stderr = stderr_of(&output);
        assert!(stderr.contains(message), "{url}: {stderr}");
    }
}

#[test]
fn no_url_is_a_usage_error() {
    let output = check_sample(&["-a", "bot"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("no URL to check"));
}

#[test]
fn empty_agent_is_an_input_error() {
    for agent in ["", "   "] {
        let output = check_sample(&["--agent", agent, "/"]);
        assert_eq!(output.status.code(), Some(2));
        assert!(stderr_of(&output).contains("the agent is empty"));
    }
}

#[test]
fn missing_agent_is_a_usage_error() {
    let output = check_sample(&["/"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("--agent <NAME>"));
}

#[test]
fn agent_that_is_not_a_product_token_warns_and_gets_the_star_group() {
    let output = check_sample(&["--agent", "Googlebot/2.1", "--one-token", "/nogoogle/x"]);
    // Read as one token, `Googlebot/2.1` is not `Googlebot`: the `*` group
    // decides, which does not disallow /nogoogle/.
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout_of(&output),
        "allowed     /nogoogle/x  no rule matched\n"
    );
    let stderr = stderr_of(&output);
    assert!(
        stderr.starts_with("crawlgate: warning: `Googlebot/2.1` is not a product token"),
        "{stderr}"
    );
    assert!(stderr.contains("only `*`"), "{stderr}");
    assert!(stderr.contains("(RFC 9309 §2.2.1)"), "{stderr}");
    assert!(
        stderr.contains("its product token is `Googlebot`"),
        "{stderr}"
    );

    let output = check_sample(&["--agent", "Foo Bar", "/"]);
    assert!(stderr_of(&output).contains("`Foo Bar` is not a product token"));
}

#[test]
fn unknown_profile_is_a_usage_error() {
    let output = check_sample(&["-a", "bot", "--profile", "baidu", "/"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains(
        "unknown profile `baidu` (expected one of: google, rfc9309, legacy, bing, yandex)"
    ));
}

/// The example: Google merges Bingbot into the `*` group, Bing ends
/// Bingbot's group at its `Crawl-delay`.
const BING_EXAMPLE: &str = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\n\
User-agent: *\nCrawl-delay: 30\nDisallow: /\n";

fn check_bing_example(args: &[&str]) -> std::process::Output {
    let files = Files::new();
    files.write("robots.txt", BING_EXAMPLE);
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn bing_profile_reads_crawl_delay_as_a_group_member() {
    let output = check_bing_example(&["-a", "bingbot", "--profile", "bing", "/page"]);
    assert_eq!(
        stdout_of(&output),
        "allowed     /page  no rule matched (`bingbot` obeys its own group at lines 1–3; \
         the 1 rule of `User-agent: *` does not apply to it)\n"
    );
    assert_eq!(output.status.code(), Some(0));
    let output = check_bing_example(&["-a", "bingbot", "--profile", "google", "/page"]);
    assert_eq!(
        stdout_of(&output),
        "disallowed  /page  robots.txt:6  Disallow: /\n"
    );
}

/// Without `--profile`, Bing's crawlers are read by Bing's rules (the
/// registry's `profile=bing`), and the answer says so; `--profile` still
/// decides; one token is read by Google's rules.
#[test]
fn bings_crawlers_are_read_by_bing_without_a_profile() {
    for agent in ["bingbot", "msnbot", "AdIdxBot", "BingPreview"] {
        let own = check_bing_example(&["-a", agent, "/page"]);
        let named = check_bing_example(&["-a", agent, "--profile", "bing", "/page"]);
        let own_text = stdout_of(&own);
        let (said, verdicts) = own_text.split_once('\n').unwrap();
        assert_eq!(
            said,
            format!(
                "read by the bing profile (Bing's rules), as its operator reads files for `{agent}` \
                 (--profile google for Google's reading)"
            )
        );
        assert_eq!(verdicts, stdout_of(&named), "{agent}");
        assert_eq!(own.status.code(), named.status.code(), "{agent}");
        let json = check_bing_example(&["-a", agent, "--json", "/page"]);
        let json: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(json["profile"], "bing", "{agent}");
    }
    let bingbot = check_bing_example(&["-a", "bingbot", "/page"]);
    assert_eq!(bingbot.status.code(), Some(0));
    let token = check_bing_example(&["-a", "bingbot", "--one-token", "/page"]);
    assert_eq!(
        stdout_of(&token),
        "disallowed  /page  robots.txt:6  Disallow: /\n"
    );
    let json = check_bing_example(&["-a", "bingbot", "--one-token", "--json", "/page"]);
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["profile"], "google");
}

/// The example of docs/cli.md: `bingbot` without `--profile` answers as
/// with `--profile bing`.
#[test]
fn the_docs_example_reads_bingbot_by_bing() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/robots.txt");
    let ask = |extra: &[&str]| {
        crawlgate()
            .args(["check", example, "--agent", "bingbot", "/files/menu.pdf"])
            .args(extra)
            .output()
            .unwrap()
    };
    let own = stdout_of(&ask(&[]));
    let bing = stdout_of(&ask(&["--profile", "bing"]));
    assert!(own.ends_with(&bing), "{own}\n{bing}");
    assert!(bing.starts_with("allowed "), "{bing}");
    assert!(stdout_of(&ask(&["--profile", "google"])).starts_with("disallowed "));
}

/// Yandex's robots are read by Yandex's parser without `--profile`.
#[test]
fn yandex_robots_are_read_by_yandex_without_a_profile() {
    let files = Files::new();
    // Yandex's `*` never goes back: `/*aab` does not match `/aaab` there.
    files.write("robots.txt", "User-agent: Yandex\nDisallow: /*aab\n");
    let ask = |extra: &[&str]| {
        crawlgate()
            .current_dir(files.path())
            .args(["check", "robots.txt", "/aaab"])
            .args(extra)
            .output()
            .unwrap()
    };
    let own = stdout_of(&ask(&["-a", "YandexBot"]));
    assert!(
        own.contains("read by the yandex profile (Yandex's parser)"),
        "{own}"
    );
    assert!(own.lines().last().unwrap().starts_with("allowed "), "{own}");
    let google = stdout_of(&ask(&["-a", "YandexBot", "--profile", "google"]));
    assert!(!google.contains("read by the"), "{google}");
    assert!(
        google.lines().last().unwrap().starts_with("disallowed "),
        "{google}"
    );
    let json: Value = serde_json::from_slice(&ask(&["-a", "YandexBot", "--json"]).stdout).unwrap();
    assert_eq!(json["profile"], "yandex");
    assert_eq!(json["results"][0]["allowed"], true);
}

#[test]
fn all_profiles_show_bing_beside_google() {
    let output = check_bing_example(&["-a", "bingbot", "--all-profiles", "/page"]);
    let text = stdout_of(&output);
    let header = text.lines().next().unwrap();
    assert!(
        header.ends_with("bing                         yandex"),
        "{text}"
    );
    let row = text.lines().nth(1).unwrap();
    assert!(row.starts_with("/page  disallowed  line 6"), "{text}");
    let bing = row.split("line 6").nth(2).unwrap();
    assert!(bing.contains("allowed     no rule matched"), "{text}");
    assert!(row.ends_with("(profiles disagree)"), "{text}");
    let json = check_bing_example(&["-a", "bingbot", "--all-profiles", "--json", "/page"]);
    let json: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["profiles"][3], "bing");
    let verdicts = &json["results"][0]["verdicts"];
    assert_eq!(verdicts[0]["allowed"], false);
    assert_eq!(verdicts[3]["profile"], "bing");
    assert_eq!(verdicts[3]["allowed"], true);
    assert_eq!(json["results"][0]["agree"], false);
}

#[test]
fn profile_and_all_profiles_conflict() {
    let output = check_sample(&["-a", "bot", "--profile", "legacy", "--all-profiles", "/"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn binary_garbage_is_read_and_warned_about() {
    let files = Files::new();
    // Deterministic bytes of every value, with line ends and colons among them.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    files.write("garbage.bin", &garbage);
    crawlgate()
        .current_dir(files.path())
        .args(["check", "garbage.bin", "-a", "bot", "/private"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "allowed     /private  no rule matched",
        ))
        .stderr(predicate::str::contains(
            "crawlgate: warning: garbage.bin: no user-agent line in 4096 bytes",
        ));
}

#[test]
fn an_empty_file_allows_everything_without_a_warning() {
    let files = Files::new();
    files.write("robots.txt", "");
    crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "-a", "bot", "/x"])
        .assert()
        .success()
        .stdout("allowed     /x  no rule matched (no group names this crawler and there is no `*` group)\n")
        .stderr("");
}

#[test]
fn colour_follows_the_color_flag() {
    let coloured = check_sample(&["-a", "mybot", "/private/x", "--color", "always"]);
    let text = stdout_of(&coloured);
    assert!(text.contains("\u{1b}[31mdisallowed"), "{text:?}");
    assert!(text.contains("\u{1b}[2mrobots.txt:6"), "{text:?}");
    // Into a pipe, by default: no escapes.
    let plain = check_sample(&["-a", "mybot", "/private/x"]);
    assert!(!stdout_of(&plain).contains('\u{1b}'));
    let never = check_sample(&["-a", "mybot", "/private/x", "--color", "never"]);
    assert!(!stdout_of(&never).contains('\u{1b}'));
}

/// A crawler whose name is no product token is compared whole, as Google's
/// library compares it: a group of a shorter token (`Ai2Bot-Dolma`, read
/// as `Ai`; `Crawl`) does not bind AI2Bot or Crawl4AI, and the crawler
/// reading answers as `--one-token` does, the JSON naming the crawler.
#[test]
fn whole_crawler_names_are_not_bound_by_shortened_tokens() {
    let files = Files::new();
    files.write(
        "robots.txt",
        "User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: Crawl\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /\n",
    );
    for agent in ["AI2Bot", "Crawl4AI", "img2dataset"] {
        let verdicts: Vec<String> = [&[][..], &["--one-token"][..]]
            .iter()
            .map(|extra| {
                let output = crawlgate()
                    .current_dir(files.path())
                    .args(["check", "robots.txt", "--json", "--agent", agent])
                    .args(*extra)
                    .arg("/")
                    .output()
                    .unwrap();
                assert_eq!(output.status.code(), Some(0), "{agent}");
                let json: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
                json["allowed"].to_string()
            })
            .collect();
        assert_eq!(verdicts, ["true", "true"], "{agent}");
    }
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "--agent", "AI2Bot", "/"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).contains("a line naming AI2Bot is read as `AI`"),
        "{}",
        stdout_of(&output)
    );
    // A crawler called `AI` is what those lines name.
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "--one-token", "--agent", "AI", "/"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).starts_with("disallowed"),
        "{}",
        stdout_of(&output)
    );
}
