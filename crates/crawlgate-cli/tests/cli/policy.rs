//! `crawlgate policy`: the bar through the command (the file lints
//! clean; `check` and Google's matcher for each token give search engines
//! in and AI training out; another crawler reads `train-ai=n, search=y`;
//! `Content-Signal` says `ai-train=no`), `--explain`/`--json` rows equal to
//! `check`'s verdicts for every crawler of the registry, `--merge` with its
//! diff and `--in-place` backup, the server rules as the library writes
//! them, and bad input.

use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files};
use crawlgate_policy::{write, Access, Policy, Purpose};

/// Google's group choice for one token and its matcher, literally.
fn reference_allowed(file: &[u8], token: &str, path: &str) -> bool {
    let robots = crawlgate::RobotsTxt::parse(file);
    let mut best: Option<(usize, bool)> = None;
    for rule in robots.view(token).groups().flat_map(|g| g.rules()) {
        let pattern = rule.pattern();
        if pattern.is_empty()
            || !crawlgate_test_support::reference_matches(pattern.as_bytes(), path.as_bytes())
        {
            continue;
        }
        let candidate = (pattern.len(), rule.is_allow());
        best = match best {
            Some(kept) if kept.0 > candidate.0 || (kept.0 == candidate.0 && kept.1) => Some(kept),
            _ => Some(candidate),
        };
    }
    best.is_none_or(|(_, allow)| allow)
}

fn check_json(files: &Files, agent: &str, url: &str) -> Value {
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", "robots.txt", "--agent", agent, url, "--json"])
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn the_bar_search_in_ai_training_out() {
    let files = Files::new();
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
            "--nginx",
            "block.conf",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(stdout_of(&output).is_empty(), "the file goes to -o");
    let said = stderr_of(&output);
    assert!(
        said.contains("crawlgate: wrote robots.txt: proven for the "),
        "{said}"
    );
    assert!(
        said.contains("crawlgate: wrote block.conf (nginx): 403 to "),
        "{said}"
    );
    let file = std::fs::read(files.path().join("robots.txt")).unwrap();
    let lint = crawlgate()
        .current_dir(files.path())
        .args(["lint", "robots.txt", "--deny", "info"])
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "{}", stdout_of(&lint));
    assert!(stdout_of(&lint).contains("no problems found"));
    for agent in [
        "Googlebot",
        "bingbot",
        "Applebot",
        "DuckDuckBot",
        "YandexBot",
    ] {
        let json = check_json(&files, agent, "/");
        assert_eq!(json["allowed"], true, "{agent}: {json}");
        assert!(reference_allowed(&file, agent, "/"), "{agent}");
    }
    for agent in [
        "GPTBot",
        "ClaudeBot",
        "CCBot",
        "Google-Extended",
        "Applebot-Extended",
        "Bytespider",
        "meta-externalagent",
    ] {
        let json = check_json(&files, agent, "/");
        assert_eq!(json["allowed"], false, "{agent}: {json}");
        for path in ["/", "/some/page.html"] {
            assert!(!reference_allowed(&file, agent, path), "{agent} {path}");
        }
        let one_token = crawlgate()
            .current_dir(files.path())
            .args(["check", "robots.txt", "--agent", agent, "--one-token", "/"])
            .output()
            .unwrap();
        assert_eq!(
            one_token.status.code(),
            Some(1),
            "{agent}: one token, disallowed"
        );
    }
    let other = check_json(&files, "SomeNewBot", "/");
    assert_eq!(other["allowed"], true);
    let preferences = &other["results"][0]["preferences"];
    assert_eq!(preferences["train_ai"], "disallowed", "{preferences}");
    assert_eq!(preferences["search"], "allowed", "{preferences}");
    assert_eq!(preferences["content_signal"]["signals"]["ai-train"], false);
    let text = String::from_utf8(file).unwrap();
    assert!(
        text.contains("\nContent-Signal: search=yes, ai-train=no\n"),
        "{text}"
    );
    // The nginx rules are the library's, which a real nginx answers with
    // (crates/crawlgate-policy/tests/policy/servers.rs).
    let library = write(
        &Policy::new()
            .with(Purpose::Search, Access::Allow)
            .with(Purpose::AiTrain, Access::Deny),
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(files.path().join("block.conf")).unwrap(),
        library.server.nginx()
    );
    assert_eq!(text.as_bytes(), &library.robots_txt[..]);
}

#[test]
fn explain_rows_are_checks_verdicts_for_every_crawler() {
    let files = Files::new();
    let args = [
        "policy",
        "--search",
        "allow",
        "--ai-train",
        "deny",
        "--ai-use",
        "deny",
        "--private",
        "/admin/",
    ];
    write_policy(&files, &args);
    explain_rows_are_batch_answers(&files, &args);
    let table = stdout_of(
        &crawlgate()
            .current_dir(files.path())
            .args(args)
            .arg("--explain")
            .output()
            .unwrap(),
    );
    let gptbot = table.lines().find(|l| l.starts_with("GPTBot ")).unwrap();
    assert!(
        gptbot.contains("ai-train deny") && gptbot.contains("disallowed"),
        "{gptbot}"
    );
    let googlebot = table.lines().find(|l| l.starts_with("Googlebot ")).unwrap();
    assert!(
        googlebot.contains("allowed") && googlebot.contains("search=y"),
        "{googlebot}"
    );
    assert!(table.starts_with("crawler "), "{table}");
}

const SITE: &str = "User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /tmp/\n";

#[test]
fn merge_shows_the_diff_and_in_place_keeps_a_backup() {
    let files = Files::new();
    files.write("robots.txt", SITE);
    let output = crawlgate()
        .current_dir(files.path())
        .args(["policy", "--ai-train", "deny", "--merge", "robots.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let diff = stdout_of(&output);
    assert!(
        diff.starts_with("--- robots.txt\n+++ robots.txt (with the policy)\n"),
        "{diff}"
    );
    assert!(diff.contains("\n-User-agent: GPTBot\n"), "{diff}");
    assert!(diff.contains("\n+# BEGIN crawlgate policy"), "{diff}");
    assert!(
        stderr_of(&output).contains("took GPTBot out of the group at line 1"),
        "{}",
        stderr_of(&output)
    );
    assert_eq!(
        std::fs::read_to_string(files.path().join("robots.txt")).unwrap(),
        SITE,
        "shown, not written"
    );
    let before = [
        ("Googlebot", "/drafts/x"),
        ("Googlebot", "/tmp/x"),
        ("bingbot", "/tmp/x"),
        ("GPTBot", "/"),
    ]
    .map(|(agent, url)| check_json(&files, agent, url)["allowed"].clone());
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "policy",
            "--ai-train",
            "deny",
            "--merge",
            "robots.txt",
            "--in-place",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("(the file before is robots.txt.bak)"),
        "{}",
        stderr_of(&output)
    );
    assert_eq!(
        std::fs::read_to_string(files.path().join("robots.txt.bak")).unwrap(),
        SITE
    );
    let after = [
        ("Googlebot", "/drafts/x"),
        ("Googlebot", "/tmp/x"),
        ("bingbot", "/tmp/x"),
        ("GPTBot", "/"),
    ]
    .map(|(agent, url)| check_json(&files, agent, url)["allowed"].clone());
    assert_eq!(before[..3], after[..3]);
    assert_eq!(
        (before[3].clone(), after[3].clone()),
        (Value::Bool(true), Value::Bool(false))
    );
    // Merged again: nothing to change.
    let again = crawlgate()
        .current_dir(files.path())
        .args(["policy", "--ai-train", "deny", "--merge", "robots.txt"])
        .output()
        .unwrap();
    assert!(stdout_of(&again).is_empty(), "{}", stdout_of(&again));
    assert!(
        stderr_of(&again).contains("nothing to change"),
        "{}",
        stderr_of(&again)
    );
}

#[test]
fn a_policy_file_and_flags_together() {
    let files = Files::new();
    files.write(
        "POLICY.toml",
        "search = \"allow\"\nai-train = \"allow\"\nprivate = [\"/admin/\"]\n",
    );
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "policy",
            "POLICY.toml",
            "--ai-train",
            "deny",
            "--apache",
            "a.conf",
            "--caddy",
            "c.caddy",
            "--haproxy",
            "h.cfg",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let text = stdout_of(&output);
    assert!(
        text.contains("Policy: search allow, ai-train deny; private /admin/."),
        "{text}"
    );
    assert!(text.contains("\nDisallow: /admin/\n"), "{text}");
    let library = write(
        &Policy::new()
            .with(Purpose::Search, Access::Allow)
            .with(Purpose::AiTrain, Access::Deny)
            .with_private("/admin/"),
    )
    .unwrap();
    assert_eq!(text.as_bytes(), &library.robots_txt[..]);
    for (file, rules) in [
        ("a.conf", library.server.apache()),
        ("c.caddy", library.server.caddy()),
        ("h.cfg", library.server.haproxy()),
    ] {
        assert_eq!(
            std::fs::read_to_string(files.path().join(file)).unwrap(),
            rules,
            "{file}"
        );
    }
}

#[test]
fn bad_input_is_said_and_exits_2() {
    let files = Files::new();
    files.write("bad.toml", "ai-training = \"deny\"\n");
    files.write(
        "page.html",
        "<!DOCTYPE html>\n<html><body>hi</body></html>\n",
    );
    let long = format!("/{}", "a".repeat(70_000));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--search", "maybe"], "neither `allow` nor `deny`"),
        (
            vec!["--crawler", "nobody-at-all=deny"],
            "not a crawler of crawlgate's registry",
        ),
        (vec!["--crawler", "GPTBot"], "NAME=allow"),
        (vec!["bad.toml"], "ai-training"),
        (vec!["missing.toml"], "cannot read missing.toml"),
        (
            vec!["--ai-train", "deny", "--private", "/robots.txt"],
            "crawlers fetch /robots.txt",
        ),
        (vec!["--in-place"], "--merge"),
        (vec!["--private", "admin"], "a path starts with `/`"),
        (vec!["--private", &long], "longer than 2,000 bytes"),
        (vec!["--crawl-delay", "0"], "outside 1–30"),
        (
            vec!["--ai-train", "deny", "--merge", "page.html"],
            "an HTML page",
        ),
    ];
    for (args, says) in cases {
        let output = crawlgate()
            .current_dir(files.path())
            .arg("policy")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr_of(&output);
        assert!(error.contains(says), "{args:?}: {error}");
        assert!(
            error.len() < 2_000,
            "{args:?}: a long input is not echoed whole"
        );
    }
}

/// Runs `crawlgate ARGS -o robots.txt` in `files`, which must succeed.
pub(crate) fn write_policy(files: &Files, args: &[&str]) {
    let written = crawlgate()
        .current_dir(files.path())
        .args(args)
        .args(["-o", "robots.txt"])
        .output()
        .unwrap();
    assert_eq!(written.status.code(), Some(0), "{}", stderr_of(&written));
}

/// The `--explain --json` rows of `crawlgate ARGS` (a policy writing
/// `robots.txt` in `files`): the proof holds, one row per registry
/// crawler, and each row's verdict and group choice are what `crawlgate
/// batch` (the crawler reading `check` uses, by each crawler's profile)
/// answers for the written file. Returns the rows.
pub(crate) fn explain_rows_are_batch_answers(files: &Files, args: &[&str]) -> Vec<Value> {
    let json: Value = serde_json::from_slice(
        &crawlgate()
            .current_dir(files.path())
            .args(args)
            .arg("--json")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(json["proof"]["holds"], true);
    let rows = json["crawlers"].as_array().unwrap().clone();
    assert_eq!(rows.len(), crawlgate::registry::crawlers().len());
    let requests: String = rows
        .iter()
        .map(|r| format!("{}\n", serde_json::json!({"robots_file": "robots.txt", "crawler": r["crawler"], "url": "/"})))
        .collect();
    files.write("requests.jsonl", requests);
    let answers = crawlgate()
        .current_dir(files.path())
        .args(["batch", "requests.jsonl"])
        .output()
        .unwrap();
    let answers = stdout_of(&answers);
    assert_eq!(answers.lines().count(), rows.len());
    for (row, answer) in rows.iter().zip(answers.lines()) {
        let answer: Value = serde_json::from_str(answer).unwrap();
        assert_eq!(row["allowed"], answer["allowed"], "{row}\n{answer}");
        assert_eq!(row["choice"], answer["choice"], "{row}\n{answer}");
        assert_eq!(row["holds"], true, "{row}");
    }
    rows
}
