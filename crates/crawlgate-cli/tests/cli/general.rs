//! What every command shares: help with examples, completions, usage
//! errors, exit status on a closed pipe.

use predicates::prelude::*;

use crate::{crawlgate, stdout_of};

#[test]
fn every_command_has_help_with_examples() {
    for command in [
        "check",
        "explain",
        "lint",
        "report",
        "test",
        "fetch",
        "batch",
        "serve",
        "completions",
        "man",
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
        ("elvish", "edit:completion:arg-completer[crawlgate]"),
        (
            "powershell",
            "Register-ArgumentCompleter -Native -CommandName 'crawlgate'",
        ),
    ] {
        let output = crawlgate().args(["completions", shell]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout_of(&output);
        assert!(script.contains(marker), "{shell}: {script}");
        for command in [
            "check", "explain", "lint", "report", "test", "fetch", "batch", "man",
        ] {
            assert!(script.contains(command), "{shell} completes {command}");
        }
        assert!(script.contains("all-profiles"), "{shell} completes flags");
        assert!(
            script.contains("allow-link-local"),
            "{shell} completes flags"
        );
    }
    crawlgate()
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'tcsh'"));
}

#[test]
fn the_bash_completion_script_is_valid_bash() {
    let files = crate::Files::new();
    let output = crawlgate().args(["completions", "bash"]).output().unwrap();
    let script = files.write("crawlgate.bash", &output.stdout);
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("bash runs");
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    // Sourced, it registers the completion function.
    let sourced = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p crawlgate",
            script.display()
        ))
        .output()
        .expect("bash runs");
    assert!(
        String::from_utf8_lossy(&sourced.stdout).contains("_crawlgate"),
        "{}",
        String::from_utf8_lossy(&sourced.stderr)
    );
}

#[test]
fn the_man_page_renders() {
    let output = crawlgate().arg("man").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let page = stdout_of(&output);
    let title = page
        .lines()
        .find(|l| l.starts_with(".TH "))
        .expect("a .TH line");
    assert!(title.starts_with(".TH crawlgate 1 "), "{title}");
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
    ] {
        assert!(page.contains(section), "no {section} in\n{page}");
    }
    // Where man(1) is installed, it renders the page (`man -l`).
    let man = std::process::Command::new("man").arg("--version").output();
    if man.is_ok_and(|m| m.status.success()) {
        let files = crate::Files::new();
        let path = files.write("crawlgate.1", page.as_bytes());
        let rendered = std::process::Command::new("man")
            .arg("-l")
            .arg(&path)
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .expect("man runs");
        let text = String::from_utf8_lossy(&rendered.stdout);
        assert!(
            rendered.status.success(),
            "{}",
            String::from_utf8_lossy(&rendered.stderr)
        );
        assert!(
            text.contains("NAME") && text.contains("crawlgate-check"),
            "{text}"
        );
    }
    // The pages it refers to.
    let check = stdout_of(&crawlgate().args(["man", "check"]).output().unwrap());
    assert!(check.contains(".TH crawlgate-check 1 "), "{check}");
    assert!(check.contains("all\\-profiles"), "{check}");
    crawlgate()
        .args(["man", "frobnicate"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no subcommand `frobnicate`"));
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

/// The Rust blocks of the README files run as doctests (in crawlgate-fetch,
/// whose dependencies they use); a doctest also accepts bare statements,
/// which a user cannot paste into `main.rs`, so each block must be a whole
/// program.
#[test]
fn readme_rust_examples_are_whole_programs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut blocks = 0;
    for readme in [
        "README.md",
        "crates/crawlgate/README.md",
        "crates/crawlgate-fetch/README.md",
        "crates/crawlgate-cli/README.md",
        "docs/library.md",
    ] {
        let text = std::fs::read_to_string(root.join(readme)).unwrap();
        let mut parts = text.split("```");
        parts.next();
        while let (Some(block), _) = (parts.next(), parts.next()) {
            let (lang, code) = block.split_once('\n').unwrap_or((block, ""));
            if lang.trim() == "rust" {
                blocks += 1;
                assert!(
                    code.contains("fn main()"),
                    "{readme}: not a whole program:\n{code}"
                );
            }
        }
    }
    assert!(blocks >= 3, "{blocks} Rust blocks");
}
