//! A reader that stops early (`crawlgate … | head -1`) ends every command
//! quietly with status 0, whatever the format: the output is large enough
//! to overflow the pipe, so crawlgate is still writing when the pipe closes.

use std::io::Read as _;
use std::process::{Command, Stdio};

use crawlgate_testserver::{Reply, TestServer};

use crate::Files;

/// Runs crawlgate with `args` in `dir`, reads its first line (or first
/// 4 KiB) and closes the pipe; returns the exit code and standard error.
fn read_one_line_then_close(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("crawlgate starts");
    let mut stdout = child.stdout.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8; 1];
    while first.len() < 4096 && stdout.read(&mut byte).unwrap_or(0) == 1 {
        first.push(byte[0]);
        if byte[0] == b'\n' {
            break;
        }
    }
    assert!(!first.is_empty(), "{args:?} printed nothing");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A robots.txt whose every view is large: many groups, rules, sitemaps
/// and lint findings.
fn big_robots() -> String {
    let mut text = String::from("User-agent: *\n");
    for i in 0..6000 {
        text.push_str(&format!("Disallow: /private/{i}/\nDisallow /nocolon/{i}\n"));
    }
    for i in 0..3000 {
        text.push_str(&format!("Sitemap: https://example.com/sitemap-{i}.xml\n"));
    }
    text
}

fn assert_quiet(args: &[&str], dir: &std::path::Path) {
    let (code, stderr) = read_one_line_then_close(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    assert!(
        !stderr.contains("error") && !stderr.contains("panicked"),
        "{args:?}: {stderr}"
    );
}

#[test]
fn every_command_and_format_ends_quietly_on_a_closed_pipe() {
    let files = Files::new();
    files.write("robots.txt", big_robots());
    let expectations: String = (0..6000)
        .map(|i| format!("disallow bot /private/{i}/x\n"))
        .collect();
    files.write("robots.expect", expectations);
    let urls: Vec<String> = (0..6000).map(|i| format!("/private/{i}/page")).collect();
    let url_args: Vec<&str> = urls.iter().map(String::as_str).collect();
    let dir = files.path();

    for json in [false, true] {
        let mut check = vec!["check", "robots.txt", "-a", "bot"];
        check.extend(&url_args);
        let mut explain = vec!["explain", "robots.txt", "-a", "bot"];
        explain.extend(&url_args[..500]);
        let mut test = vec!["test", "robots.txt", "robots.expect", "--verbose"];
        for command in [&mut check, &mut explain, &mut test] {
            if json {
                command.push("--json");
            }
            assert_quiet(command, dir);
        }
    }
    for format in ["human", "json", "sarif"] {
        assert_quiet(&["lint", "robots.txt", "--format", format], dir);
    }
    assert_quiet(&["completions", "bash"], dir);
    assert_quiet(&["man"], dir);
    let requests: String = (0..20_000)
        .map(|i| {
            format!("{{\"id\":{i},\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/private/{i}/x\"}}\n")
        })
        .collect();
    files.write("requests.jsonl", requests);
    assert_quiet(&["batch", "requests.jsonl"], dir);
}

#[test]
fn fetch_ends_quietly_on_a_closed_pipe() {
    let server = TestServer::start([("/robots.txt", Reply::text(200, &big_robots()))]);
    let files = Files::new();
    let url = server.url("/");
    for format in [&[][..], &["--json"][..], &["--body"][..]] {
        let mut args = vec!["fetch", url.as_str(), "--allow-private"];
        args.extend(format);
        assert_quiet(&args, files.path());
    }
}
