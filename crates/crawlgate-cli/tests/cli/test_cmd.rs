//! `crawlgate test`: expectations files for CI.

use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files, SAMPLE};

/// Runs `test robots.txt expect.txt` with SAMPLE and `expectations`.
fn test(expectations: &str, args: &[&str]) -> std::process::Output {
    let files = Files::new();
    files.write("robots.txt", SAMPLE);
    files.write("expect.txt", expectations);
    crawlgate()
        .current_dir(files.path())
        .args(["test", "robots.txt", "expect.txt"])
        .args(args)
        .output()
        .unwrap()
}

const PASSING: &str = "\
# the site's promises
allow     Googlebot   /
disallow  Googlebot   /nogoogle/page   # trailing comment
allow     Googlebot   /nogoogle/ok
disallow  mybot,CCBot /private/x
allowed   mybot       https://example.com/private/press/release#top

DISALLOW  mybot       /index.php
";

#[test]
fn all_expectations_hold() {
    let output = test(PASSING, &[]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_of(&output), "7 passed, 0 failed\n");
    assert_eq!(stderr_of(&output), "");
}

#[test]
fn verbose_lists_every_expectation() {
    let output = test(PASSING, &["--verbose"]);
    let text = stdout_of(&output);
    assert!(
        text.starts_with("ok    expect.txt:2  allow Googlebot /\n"),
        "{text}"
    );
    // An agent list is one expectation per agent.
    assert!(text.contains("ok    expect.txt:5  disallow mybot /private/x\nok    expect.txt:5  disallow CCBot /private/x\n"), "{text}");
    assert!(text.ends_with("\n7 passed, 0 failed\n"), "{text}");
}

#[test]
fn failures_quote_the_deciding_line() {
    let expectations = "\
allow     Googlebot  /nogoogle/x
disallow  mybot      /public
allow     mybot      /ok
allow     Googlebot,mybot  /private/x
";
    let output = test(expectations, &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout_of(&output),
        "\
FAIL  expect.txt:1  allow Googlebot /nogoogle/x
      but disallowed: robots.txt:2  Disallow: /nogoogle/
FAIL  expect.txt:2  disallow mybot /public
      but allowed: no rule matched
FAIL  expect.txt:4  allow mybot /private/x
      but disallowed: robots.txt:6  Disallow: /private

2 passed, 3 failed
"
    );
}

#[test]
fn json_results() {
    let output = test("allow mybot /private/x\nallow mybot /\n", &["--json"]);
    assert_eq!(output.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["robots"], "robots.txt");
    assert_eq!(json["expectations"], "expect.txt");
    assert_eq!(
        (json["passed"].as_u64(), json["failed"].as_u64()),
        (Some(1), Some(1))
    );
    let failure = &json["results"][0];
    assert_eq!(failure["line"], 1);
    assert_eq!(failure["expect"], "allow");
    assert_eq!(failure["pass"], false);
    assert_eq!(failure["allowed"], false);
    assert_eq!(failure["rule"]["text"], "Disallow: /private");
    assert_eq!(json["results"][1]["pass"], true);
}

#[test]
fn malformed_lines_are_errors_with_line_numbers() {
    let output = test(
        "allow mybot /\npermit mybot /\nallow mybot\nallow mybot example.com/x\nallow mybot,, /\n",
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout_of(&output), "", "nothing runs");
    let stderr = stderr_of(&output);
    for expected in [
        "expect.txt:2: `permit` is neither `allow` nor `disallow`",
        "expect.txt:3: expected `allow|disallow AGENT URL`, found `allow mybot`",
        "expect.txt:4: invalid URL `example.com/x`",
        "expect.txt:5: empty agent in `mybot,,`",
        "4 malformed expectation lines: nothing was tested",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in {stderr}"
        );
    }
}

#[test]
fn an_empty_expectations_file_is_an_error() {
    let output = test("# nothing yet\n\n", &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr_of(&output).contains("expect.txt: no expectations"));
}

#[test]
fn agents_that_are_not_tokens_warn_with_their_line() {
    let output = test(
        "allow mybot /\ndisallow Googlebot/2.1 /nogoogle/x\n",
        &["--one-token"],
    );
    // Read as one token, `Googlebot/2.1` gets the `*` group, which allows
    // /nogoogle/x.
    assert_eq!(output.status.code(), Some(1));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("crawlgate: warning: expect.txt:2: `Googlebot/2.1` is not a product token"),
        "{stderr}"
    );
    // Read as the crawler it names (the default), it is Googlebot: no
    // warning, and its group disallows /nogoogle/x.
    let output = test("allow mybot /\ndisallow Googlebot/2.1 /nogoogle/x\n", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout_of(&output));
    assert_eq!(stderr_of(&output), "");
}

#[test]
fn expectations_from_standard_input() {
    let files = Files::new();
    files.write("robots.txt", SAMPLE);
    crawlgate()
        .current_dir(files.path())
        .args(["test", "robots.txt", "-"])
        .write_stdin("disallow mybot /private\n")
        .assert()
        .success()
        .stdout("1 passed, 0 failed\n");
    crawlgate()
        .args(["test", "-", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot both be standard input"));
}

#[test]
fn missing_files_are_input_errors() {
    let files = Files::new();
    files.write("robots.txt", SAMPLE);
    crawlgate()
        .current_dir(files.path())
        .args(["test", "robots.txt", "nope.expect"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read expectations file `nope.expect`",
        ));
    files.write("expect.txt", "allow a /\n");
    crawlgate()
        .current_dir(files.path())
        .args(["test", "nope.txt", "expect.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot read robots.txt file `nope.txt`",
        ));
    files.write("binary.expect", [0xffu8, 0xfe, b'\n']);
    crawlgate()
        .current_dir(files.path())
        .args(["test", "robots.txt", "binary.expect"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("binary.expect: not UTF-8 text"));
}

#[test]
fn profile_applies_to_every_expectation() {
    let expectations = "disallow mybot /index.php\n";
    assert_eq!(test(expectations, &[]).status.code(), Some(0));
    // The 1996 reading has no wildcards: `/*.php$` blocks nothing.
    let legacy = test(expectations, &["--profile", "legacy"]);
    assert_eq!(legacy.status.code(), Some(1));
    assert!(stdout_of(&legacy).contains("but allowed: no rule matched"));
}
