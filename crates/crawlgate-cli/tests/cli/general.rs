//! What every command shares: help with examples, completions, usage
//! errors, exit status on a closed pipe.

use predicates::prelude::*;

use crate::{crawlgate, stdout_of};

#[test]
fn every_command_has_help_with_examples() {
    for command in [
        "check",
        "explain",
        "test",
        "fetch",
        "batch",
        "serve",
        "completions",
    ] {
        let output = crawlgate().args([command, "--help"]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{command}");
        let text = stdout_of(&output);
        assert!(text.contains("Examples:\n  "), "{command} --help:\n{text}");
        assert!(
            text.contains(&format!("crawlgate {command} ")),
            "{command} --help:\n{text}"
        );
    }
    crawlgate()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit status:"))
        .stdout(predicate::str::contains("NO_COLOR"));
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "_crawlgate()"),
        ("zsh", "#compdef crawlgate"),
        ("fish", "complete -c crawlgate"),
    ] {
        let output = crawlgate().args(["completions", shell]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout_of(&output);
        assert!(script.contains(marker), "{shell}: {script}");
        for command in ["check", "explain", "test", "fetch", "batch"] {
            assert!(script.contains(command), "{shell} completes {command}");
        }
        assert!(script.contains("all-profiles"), "{shell} completes flags");
    }
    crawlgate()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'tcsh'"));
}

#[test]
fn usage_errors_exit_2() {
    crawlgate().assert().code(2);
    crawlgate().arg("frobnicate").assert().code(2);
    crawlgate()
        .args([
            "check",
            "--color",
            "sometimes",
            "robots.txt",
            "-a",
            "x",
            "/",
        ])
        .assert()
        .code(2);
}

#[test]
fn version() {
    crawlgate()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("crawlgate "));
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    // Many answers into a reader that stops at once (`crawlgate … | head -0`).
    let line = "{\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/\"}\n";
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The write fails once crawlgate has exited; that is fine.
    let _ = stdin.write_all(line.repeat(20_000).as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
}
