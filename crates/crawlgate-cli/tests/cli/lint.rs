//! `crawlgate lint`: output formats, exit status, audit, rule docs.

use crawlgate::Who;
use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn crawlgate() -> Command {
    let mut command = Command::cargo_bin("crawlgate").expect("the crawlgate binary");
    command.env_remove("NO_COLOR");
    command
}

/// A file in a fresh temporary directory.
fn file(dir: &tempfile::TempDir, name: &str, body: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, body).expect("a writable temporary file");
    path
}

const TRAP: &str = "User-agent: a\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";

fn stdout_of(command: &mut Command) -> (String, i32) {
    let output = command.output().expect("crawlgate runs");
    (
        String::from_utf8(output.stdout).expect("UTF-8 output"),
        output.status.code().expect("an exit code"),
    )
}

#[test]
fn human_output_is_rustc_style_and_warnings_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "robots.txt", TRAP);
    let (out, code) = stdout_of(crawlgate().arg("lint").arg(&path));
    assert_eq!(code, 0, "{out}");
    let shown = path.display().to_string();
    assert!(
        out.contains(&format!("{shown}:3:1: warning[R101]: `Crawl-delay` (line 2) ends a group for Bing but not for Google: in Google's reading `a` (line 1) and `*` (line 3) share one group")),
        "{out}"
    );
    assert!(
        out.contains("3 | User-agent: *\n  | ^^^^^^^^^^^^^\n"),
        "{out}"
    );
    assert!(
        out.contains("  = help: if `a` (line 1) should not obey these rules"),
        "{out}"
    );
    assert!(
        out.contains(&format!("{shown}: 0 errors, 1 warning, ")),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "no colour into a pipe");
}

#[test]
fn deny_turns_warnings_and_infos_into_failures() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "robots.txt", TRAP);
    let (_, code) = stdout_of(crawlgate().args(["lint", "--deny", "warnings"]).arg(&path));
    assert_eq!(code, 1);
    let infos_only = file(
        &dir,
        "infos.txt",
        "User-agent: *\nCrawl-delay: 5\nDisallow: /tmp/\n",
    );
    let (out, code) = stdout_of(
        crawlgate()
            .arg("lint")
            .arg(&infos_only)
            .args(["--deny", "warnings"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("info[R301]"), "{out}");
    let (_, code) = stdout_of(
        crawlgate()
            .arg("lint")
            .arg(&infos_only)
            .args(["--deny", "info"]),
    );
    assert_eq!(code, 1);
}

#[test]
fn errors_fail_and_clean_files_pass() {
    let dir = tempfile::tempdir().unwrap();
    let broken = file(&dir, "broken.txt", "User-agent: *\nDisallow: private/\n");
    let (out, code) = stdout_of(crawlgate().arg("lint").arg(&broken));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(":2:11: error[R006]:"), "{out}");
    let clean = file(&dir, "clean.txt", "User-agent: *\nDisallow: /tmp/\n");
    let (out, code) = stdout_of(crawlgate().arg("lint").arg(&clean).args(["--deny", "info"]));
    assert_eq!(code, 0, "{out}");
    assert!(out.ends_with("clean.txt: no problems found\n"), "{out}");
}

#[test]
fn unreadable_file_is_an_input_error() {
    let output = crawlgate()
        .args(["lint", "/nonexistent/robots.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("cannot read robots.txt file `/nonexistent/robots.txt`: No such file"));
}

#[test]
fn standard_input_and_json() {
    let (out, code) = stdout_of(
        crawlgate()
            .args(["lint", "-", "--format", "json"])
            .write_stdin("User-agent: *\nDisallow: /a\nDisallow: /a\n"),
    );
    assert_eq!(code, 0);
    let value: Value = serde_json::from_str(&out).expect("JSON");
    let first = &value[0];
    assert_eq!(first["file"], "<stdin>");
    assert_eq!(first["code"], "R201");
    assert_eq!(first["name"], "duplicate-rule");
    assert_eq!(first["severity"], "info");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(first["end_column"], 13);
    assert_eq!(first["fix"]["replacement"], "");
    assert_eq!(first["fix"]["changes_verdicts"], false);
    assert_eq!(first["fix"]["verdict_change"], Value::Null);
}

/// A fix that changes what crawlers may fetch says so, and how, in the
/// JSON, the SARIF and the text, with the library's words.
#[test]
fn a_fix_that_changes_verdicts_says_so_everywhere() {
    let file = "User-agent: *\nDisallow: private/\n";
    let report = crawlgate_lint::lint(file.as_bytes(), &crawlgate_lint::LintOptions::default());
    let how = report.diagnostics[0]
        .fix
        .as_ref()
        .unwrap()
        .verdict_change
        .clone()
        .unwrap();
    assert!(how.contains("`/private/`"), "{how}");
    let run = |format: &str| {
        stdout_of(
            crawlgate()
                .args(["lint", "-", "--format", format])
                .write_stdin(file),
        )
        .0
    };
    let json: Value = serde_json::from_str(&run("json")).expect("JSON");
    assert_eq!(json[0]["fix"]["changes_verdicts"], true);
    assert_eq!(json[0]["fix"]["verdict_change"], how.as_ref());
    let sarif: Value = serde_json::from_str(&run("sarif")).expect("SARIF");
    let fix = &sarif["runs"][0]["results"][0]["fixes"][0];
    assert_eq!(fix["properties"]["changes_verdicts"], true);
    assert_eq!(fix["properties"]["verdict_change"], how.as_ref());
    assert!(run("human").contains(&format!("= note: this fix changes verdicts: {how}")));
}

#[test]
fn sarif_for_several_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = file(&dir, "a.txt", TRAP);
    let b = file(&dir, "b.txt", "User-agent: *\nDisallow: private/\n");
    let (out, code) = stdout_of(
        crawlgate()
            .args(["lint", "--format", "sarif"])
            .arg(&a)
            .arg(&b),
    );
    assert_eq!(code, 1);
    let sarif: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let uris: Vec<&str> = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(uris.iter().any(|u| u.ends_with("a.txt")) && uris.iter().any(|u| u.ends_with("b.txt")));
    let error = results
        .iter()
        .find(|r| r["ruleId"] == "R006")
        .expect("R006");
    assert_eq!(error["level"], "error");
    assert_eq!(
        error["locations"][0]["physicalLocation"]["region"]["startColumn"],
        11
    );
}

#[test]
fn audit_lists_known_crawlers() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "robots.txt",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n",
    );
    let (out, code) = stdout_of(crawlgate().args(["lint", "--audit"]).arg(&path));
    assert_eq!(code, 0);
    assert!(out.contains("crawler audit ("), "{out}");
    let gptbot = out
        .lines()
        .find(|l| l.starts_with("GPTBot "))
        .expect("a GPTBot row");
    assert!(
        gptbot.contains("own (line 1)")
            && gptbot.contains("blocked")
            && gptbot.contains("line 2: Disallow: /"),
        "{gptbot}"
    );
    let ccbot = out
        .lines()
        .find(|l| l.starts_with("CCBot "))
        .expect("a CCBot row");
    assert!(ccbot.contains("allowed"), "{ccbot}");

    let (out, _) = stdout_of(
        crawlgate()
            .args(["lint", "--audit", "--format", "json"])
            .arg(&path),
    );
    let value: Value = serde_json::from_str(&out).expect("JSON");
    let crawlers = value["audits"][0]["audit"]["crawlers"].as_array().unwrap();
    assert!(crawlers.len() >= 100);
    let gpt = crawlers.iter().find(|c| c["token"] == "GPTBot").unwrap();
    assert_eq!(gpt["root_allowed"], false);
    assert_eq!(gpt["deciding_line"], 2);
    assert_eq!(gpt["purpose"], "ai-training");
}

#[test]
fn audit_reads_crawlers_as_their_operators_document_unless_one_token() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "robots.txt",
        "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: msnbot\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
    );
    let robots = crawlgate::RobotsTxt::parse(&std::fs::read(&path).unwrap());
    let audit = |extra: &[&str]| {
        let (out, code) = stdout_of(
            crawlgate()
                .args(["lint", "--audit", "--format", "json"])
                .args(extra)
                .arg(&path),
        );
        assert_eq!(code, 0, "{out}");
        let value: Value = serde_json::from_str(&out).expect("JSON");
        value["audits"][0]["audit"].clone()
    };
    // The crawler reading (default): every row is what the library says.
    let crawler = audit(&[]);
    assert_eq!(crawler["reading"], "crawler");
    let rows = crawler["crawlers"].as_array().unwrap();
    assert_eq!(rows.len(), crawlgate::registry::crawlers().len());
    for row in rows {
        let name = row["name"].as_str().unwrap();
        let view = robots.view(Who::crawler(name));
        let verdict = view.decide("/");
        assert_eq!(row["root_allowed"], verdict.is_allowed(), "{name}");
        assert_eq!(
            row["selection"],
            view.group_choice().kind().as_str(),
            "{name}"
        );
        assert_eq!(row["why"], view.group_choice().explain(name), "{name}");
    }
    let row = |audit: &Value, name: &str| {
        audit["crawlers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap()
            .clone()
    };
    let bing = row(&crawler, "Bingbot");
    assert_eq!(
        (&bing["selection"], &bing["selected_token"]),
        (&"fallback".into(), &"msnbot".into())
    );
    assert_eq!(bing["root_allowed"], true);
    assert_eq!(row(&crawler, "AdsBot-Google")["root_allowed"], true);
    // The one-token reading: each crawler's token as Google's library reads it.
    let one = audit(&["--one-token"]);
    assert_eq!(one["reading"], "one-token");
    for row in one["crawlers"].as_array().unwrap() {
        let token = row["token"].as_str().unwrap();
        assert_eq!(
            row["root_allowed"],
            robots.decide(token, "/").is_allowed(),
            "{token}"
        );
    }
    assert_eq!(row(&one, "Bingbot")["selection"], "*");
    assert_eq!(row(&one, "AdsBot-Google")["root_allowed"], false);
    // Text says which reading the table is.
    let (text, _) = stdout_of(
        crawlgate()
            .args(["lint", "--audit", "--one-token"])
            .arg(&path),
    );
    assert!(
        text.contains("each token read as one token (--one-token)"),
        "{text}"
    );
    // --one-token without --audit is a usage error.
    let output = crawlgate()
        .args(["lint", "--one-token"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn profile_changes_the_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "robots.txt", "User-agent: *\nDisallow: *.pdf\n");
    let (google, _) = stdout_of(crawlgate().arg("lint").arg(&path));
    assert!(google.contains("info[R008]"), "{google}");
    let (rfc, code) = stdout_of(
        crawlgate()
            .args(["lint", "--profile", "rfc9309"])
            .arg(&path),
    );
    assert!(
        rfc.contains("error[R006]") && !rfc.contains("R008"),
        "{rfc}"
    );
    assert_eq!(code, 1);
}

#[test]
fn rule_documentation() {
    let (out, code) = stdout_of(crawlgate().args(["lint", "--explain", "merged-groups"]));
    assert_eq!(code, 0);
    assert!(
        out.starts_with("R101 merged-groups (warning, grouping)"),
        "{out}"
    );
    assert!(out.contains("## Why it matters"), "{out}");
    let (out, _) = stdout_of(crawlgate().args(["lint", "--list-rules"]));
    for code in ["R001", "R101", "R204", "R310", "R402", "R501"] {
        assert!(out.contains(code), "{code} missing from {out}");
    }
    let output = crawlgate()
        .args(["lint", "--explain", "R999"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn help_has_examples_and_exit_status() {
    let (out, _) = stdout_of(crawlgate().args(["lint", "--help"]));
    assert!(out.contains("crawlgate lint robots.txt --audit"), "{out}");
    assert!(out.contains("Exit status: 0 no errors"), "{out}");
}

#[test]
fn legacy_comparison_is_opt_in() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "robots.txt",
        "User-agent: *\nDisallow: /shop/\nAllow: /shop/cart\n",
    );
    let (out, _) = stdout_of(crawlgate().arg("lint").arg(&path));
    assert!(!out.contains("R402"), "{out}");
    let (out, code) = stdout_of(crawlgate().args(["lint", "--legacy"]).arg(&path));
    assert_eq!(code, 0);
    assert!(
        out.contains(":3:1: info[R402]: `Googlebot` fetching `/shop/cart`: Google allows it"),
        "{out}"
    );
}
