//! Inputs that once crashed, hung or starved crawlgate: each reproducer of
//! issue 12, through the binary.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files};

/// A FIFO nobody writes to.
fn fifo(files: &Files, name: &str) -> PathBuf {
    let path = files.path().join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
    path
}

#[test]
fn a_url_longer_than_a_format_width_is_checked() {
    let files = Files::new();
    files.write("r.txt", "User-agent: *\nDisallow: /x\n");
    let long = format!("/{}", "a".repeat(65_535));
    for extra in [&[][..], &["--json"][..], &["--all-profiles"][..]] {
        let output = crawlgate()
            .current_dir(files.path())
            .args(["check", "r.txt", "--agent", "bot", &long, "/x"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
        let text = stdout_of(&output);
        assert!(text.contains(&long), "{extra:?}");
    }
    // The long URL overflows its column; the others stay aligned.
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", "r.txt", "-a", "bot", &long, "/x", "/yy"])
        .output()
        .unwrap();
    let text = stdout_of(&output);
    assert!(
        text.contains("\ndisallowed  /x   r.txt:2  Disallow: /x\n"),
        "{}",
        &text[text.len() - 200..]
    );
}

#[test]
fn an_extension_line_longer_than_a_format_width_is_explained() {
    let files = Files::new();
    for field in ["X-Foo", "Crawl-delay"] {
        let body = format!(
            "User-agent: *\nDisallow: /x\n{field}: {}\n",
            "9".repeat(70_000)
        );
        files.write("m.txt", body);
        for profile in ["google", "rfc9309", "legacy"] {
            for json in [false, true] {
                let mut command = crawlgate();
                command.current_dir(files.path()).args([
                    "explain",
                    "--profile",
                    profile,
                    "m.txt",
                    "--agent",
                    "bot",
                    "/x",
                ]);
                if json {
                    command.arg("--json");
                }
                let output = command.output().unwrap();
                assert_eq!(
                    output.status.code(),
                    Some(0),
                    "{field} {profile}: {}",
                    stderr_of(&output)
                );
            }
        }
    }
}

#[test]
fn a_request_never_reads_the_request_stream() {
    let mut input = String::from(
        "{\"id\":\"first\",\"robots_file\":\"/dev/stdin\",\"user_agent\":\"bot\",\"url\":\"/\"}\n",
    );
    for i in 0..20_000 {
        input.push_str(&format!(
            "{{\"id\":{i},\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/{i}\"}}\n"
        ));
    }
    input.push_str("{\"id\":\"last\",\"robots_file\":\"/proc/self/fd/0\",\"user_agent\":\"bot\",\"url\":\"/\"}\n");
    let output = crawlgate()
        .arg("batch")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 20_002, "one answer per request");
    for at in [0, 20_001] {
        let error = lines[at]["error"].as_str().unwrap();
        assert!(
            error.contains("it is the request stream this batch reads"),
            "{error}"
        );
    }
    assert_eq!(lines[20_000]["id"], 19_999);
    assert!(stderr_of(&output).contains("2 errors (2 robots_file not read)"));
}

/// Requests: `n` answerable ones with the robots_file `paths` among them.
fn requests_naming(paths: &[&str], n: usize) -> String {
    let mut input = String::new();
    for i in 0..n {
        input.push_str(&format!(
            "{{\"id\":{i},\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/{i}\"}}\n"
        ));
        if let Some(path) = paths.get(i) {
            input.push_str(&format!(
                "{{\"id\":\"{path}\",\"robots_file\":\"{path}\",\"user_agent\":\"bot\",\"url\":\"/\"}}\n"
            ));
        }
    }
    input
}

#[test]
fn a_request_never_reads_the_answers_into_a_file() {
    // Answers written to a regular file: `/proc/self/fd/1` is that file,
    // and reading it would read the batch's own answers back.
    let files = Files::new();
    let answers = files.path().join("answers.jsonl");
    let streams = [
        "/proc/self/fd/1",
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/2",
    ];
    let input = requests_naming(&streams, 3_000);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .arg("batch")
        .stdin(std::process::Stdio::piped())
        .stdout(std::fs::File::create(&answers).unwrap())
        .stderr(std::fs::File::create(files.path().join("summary.txt")).unwrap())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    let text = std::fs::read_to_string(&answers).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3_000 + streams.len(), "one answer per request");
    for (path, what) in streams.iter().zip([
        "the standard output this batch writes its answers to",
        "the standard output this batch writes its answers to",
        "the standard output this batch writes its answers to",
        "the standard error this batch writes its summary to",
    ]) {
        let line = lines.iter().find(|l| l["id"] == *path).unwrap();
        let error = line["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path} was read: {line}"));
        assert!(
            error.contains(&format!("cannot read robots_file \"{path}\": it is {what}")),
            "{error}"
        );
    }
}

#[test]
fn a_request_never_takes_the_answers_from_a_pipe() {
    // Answers into a pipe, pipes allowed: opening `/proc/self/fd/1` for
    // reading would take answers out of the pipe before its reader sees
    // them.
    let input = requests_naming(&["/proc/self/fd/1"], 5_000);
    let output = crawlgate()
        .args(["batch", "--allow-special-files", "--timeout", "2"])
        .write_stdin(input)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5_001, "every answer reached the pipe's reader");
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("it is the standard output this batch writes its answers to"));
    assert_eq!(lines[5_000]["id"], 4_999);
}

#[test]
fn a_request_file_read_through_standard_input_is_the_stream_too() {
    let files = Files::new();
    let requests = files.write(
        "requests.jsonl",
        "{\"robots_file\":\"/dev/stdin\",\"user_agent\":\"bot\",\"url\":\"/\"}\n",
    );
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("crawlgate"))
        .arg("batch")
        .stdin(std::fs::File::open(&requests).unwrap())
        .output()
        .unwrap();
    assert!(
        stdout_of(&output).contains("it is the request stream this batch reads"),
        "{}",
        stdout_of(&output)
    );
}

#[test]
fn batch_refuses_pipes_and_devices_unless_asked_and_never_blocks() {
    let files = Files::new();
    let pipe = fifo(&files, "robots.fifo");
    let input = format!(
        "{{\"id\":1,\"robots_file\":\"{}\",\"user_agent\":\"bot\",\"url\":\"/\"}}\n\
         {{\"id\":2,\"robots_file\":\"/dev/zero\",\"user_agent\":\"bot\",\"url\":\"/\"}}\n\
         {{\"id\":3,\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/\"}}\n",
        pipe.display()
    );
    let output = crawlgate()
        .arg("batch")
        .write_stdin(input.clone())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0]["error"]
        .as_str()
        .unwrap()
        .contains("not a regular file but a pipe (FIFO): refused"));
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("not a regular file but a device: refused"));
    assert_eq!(lines[2]["allowed"], false);

    // Asked to, it reads a device up to the limit, and gives up on a FIFO
    // with no writer after the timeout.
    let started = Instant::now();
    let output = crawlgate()
        .args(["batch", "--allow-special-files", "--timeout", "1"])
        .write_stdin(input)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(30));
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("did not end within 1 s (a FIFO with no writer?)"),
        "{}",
        lines[0]
    );
    // 500 KiB of NUL bytes: no rule, allowed.
    assert_eq!(lines[1]["allowed"], true, "{}", lines[1]);
    assert_eq!(lines[2]["allowed"], false);
}

#[test]
fn a_fifo_with_no_writer_ends_every_command_after_the_timeout() {
    let files = Files::new();
    let pipe = fifo(&files, "robots.fifo");
    files.write("robots.txt", "User-agent: *\nDisallow: /\n");
    files.write("robots.expect", "disallow bot /\n");
    let pipe = pipe.to_str().unwrap();
    for args in [
        vec!["check", pipe, "-a", "bot", "/"],
        vec!["explain", pipe, "-a", "bot"],
        vec!["lint", pipe],
        vec!["test", pipe, "robots.expect"],
        vec!["test", "robots.txt", pipe],
    ] {
        let started = Instant::now();
        crawlgate()
            .current_dir(files.path())
            .args(&args)
            .args(["--timeout", "1"])
            .timeout(Duration::from_secs(60))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "did not end within 1 s (a FIFO with no writer?)",
            ));
        assert!(started.elapsed() < Duration::from_secs(30), "{args:?}");
    }
}

#[test]
fn a_device_is_read_only_as_far_as_crawlers_read() {
    let output = crawlgate()
        .args(["check", "/dev/zero", "-a", "bot", "/"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let warnings = stderr_of(&output);
    assert!(
        warnings.contains(
            "/dev/zero: only the first 512000 bytes are read (more than that): the rest is ignored"
        ),
        "{warnings}"
    );
}

#[test]
fn a_file_past_the_limit_is_read_only_that_far() {
    let files = Files::new();
    let mut body = String::from("User-agent: *\nDisallow: /x\n");
    while body.len() < 3 * crawlgate::MAX_BYTES {
        body.push_str("# padding padding padding padding padding padding padding\n");
    }
    let size = body.len();
    files.write("big.txt", body);
    let output = crawlgate()
        .current_dir(files.path())
        .args(["check", "big.txt", "-a", "bot", "/x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr_of(&output).contains(&format!(
        "big.txt: only the first 512000 bytes are read ({size} bytes): the rest is ignored"
    )));
}

#[test]
fn a_lone_surrogate_says_what_is_wrong() {
    let input = "{\"id\":1,\"robots_txt\":\"\\ud800\",\"user_agent\":\"bot\",\"url\":\"/\"}\n\
                 {\"id\":2,\"robots_txt\":\"User-agent: *\\nDisallow: /\\udc00\\n\",\"user_agent\":\"bot\",\"url\":\"/\"}\n\
                 {\"id\":3,\"robots_txt\":\"Disallow: /\\ud83d\\ude00\",\"user_agent\":\"bot\",\"url\":\"/\"}\n";
    let output = crawlgate()
        .arg("batch")
        .write_stdin(input)
        .output()
        .unwrap();
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for line in &lines[..2] {
        let error = line["error"].as_str().unwrap();
        assert!(
            error.contains("robots_txt is not valid Unicode text (")
                && error.contains(
                    "escapes must come in pairs): send bytes that are not UTF-8 as robots_txt_b64"
                ),
            "{error}"
        );
    }
    // A pair is text.
    assert_eq!(lines[2]["allowed"], true, "{}", lines[2]);
}

#[test]
fn batch_rejects_conflicting_fields_and_sums_up() {
    let files = Files::new();
    files.write("robots.txt", "User-agent: *\nDisallow: /\n");
    let input = "\
{\"id\":1,\"robots_txt\":\"User-agent: *\\nAllow: /\\n\",\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":2,\"robots_txt\":\"x\",\"robots_txt_b64\":\"eA==\",\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":3,\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":4,\"robots_txt\":\"\",\"user_agent\":\"bot\",\"url\":\"/\"}
not json

";
    let output = crawlgate()
        .current_dir(files.path())
        .arg("batch")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "errors do not fail by default"
    );
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0]["error"],
        "input line 1: robots_txt and robots_file given together: give exactly one of robots_txt, robots_txt_b64 or robots_file"
    );
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("robots_txt and robots_txt_b64 given together"));
    assert_eq!(lines[2]["allowed"], false);
    assert_eq!(lines[3]["allowed"], true);
    assert_eq!(
        stderr_of(&output),
        "crawlgate: batch: 6 lines: 2 decisions (1 allowed, 1 disallowed), 4 errors \
         (1 not a valid request, 1 empty line, 2 conflicting fields)\n"
    );
    crawlgate()
        .current_dir(files.path())
        .args(["batch", "--fail-on-error", "--quiet"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr("");
    crawlgate()
        .current_dir(files.path())
        .args(["batch", "--fail-on-error"])
        .write_stdin("{\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/\"}\n")
        .assert()
        .code(0);
}

#[test]
fn an_overlong_request_line_gets_an_error_line() {
    let mut input = String::from("{\"id\":1,\"robots_txt\":\"");
    input.push_str(&"a".repeat(9 << 20));
    input.push_str("\",\"user_agent\":\"bot\",\"url\":\"/\"}\n");
    input.push_str("{\"id\":2,\"robots_txt\":\"\",\"user_agent\":\"bot\",\"url\":\"/\"}");
    let output = crawlgate()
        .arg("batch")
        .write_stdin(input)
        .output()
        .unwrap();
    let lines: Vec<Value> = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0]["error"],
        "input line 1: longer than 8388608 bytes: not read"
    );
    assert_eq!(lines[1]["id"], 2);
}

#[test]
fn the_batch_help_example_is_one_copyable_command_at_80_columns() {
    let output = crawlgate()
        .args(["batch", "--help"])
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    let help = stdout_of(&output);
    assert!(
        help.contains(
            "\n  echo '{\"id\":1,\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/x\"}' \\\n    | crawlgate batch\n"
        ),
        "{help}"
    );
    for line in help.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    // And it runs as printed.
    let files = Files::new();
    files.write("robots.txt", "User-agent: *\nDisallow: /x\n");
    let run = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "PATH={}:$PATH; echo '{{\"id\":1,\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/x\"}}' \\\n    | crawlgate batch",
            assert_cmd::cargo::cargo_bin("crawlgate").parent().unwrap().display()
        ))
        .current_dir(files.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "{\"id\":1,\"allowed\":false,\"line\":2,\"rule\":\"Disallow: /x\"}\n"
    );
}

#[test]
fn lint_reads_what_check_reads() {
    let files = Files::new();
    let body = "User-agent: *\nDisallow private\n";
    files.write("robots.txt", body);
    // Standard input when piped, with no file.
    let output = crawlgate()
        .current_dir(files.path())
        .args(["lint", "--format", "json"])
        .write_stdin(body)
        .output()
        .unwrap();
    let findings: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(findings[0]["file"], "<stdin>", "{findings}");
    // A site's URL, fetched with the shared fetch flags.
    let server = crawlgate_testserver::TestServer::start([(
        "/robots.txt",
        crawlgate_testserver::Reply::text(200, body),
    )]);
    let output = crawlgate()
        .args([
            "lint",
            &server.url("/"),
            "--format",
            "json",
            "--allow-private",
        ])
        .output()
        .unwrap();
    let findings: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(findings[0]["file"], server.url("/robots.txt"), "{findings}");
    crawlgate()
        .args(["lint", &server.url("/")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("pass --allow-private to allow it"));
    // `fetch` says how to see the parser's problems.
    let fetched = crawlgate()
        .args(["fetch", &server.url("/"), "--allow-private"])
        .output()
        .unwrap();
    assert!(
        stdout_of(&fetched).contains(&format!(
            "the parser reported 2 problem(s); `crawlgate lint {}` lists them",
            server.url("/robots.txt")
        )),
        "{}",
        stdout_of(&fetched)
    );
    // Any page of the site names its robots.txt; the parser's problems are
    // the findings, not a warning besides them.
    let output = crawlgate()
        .args(["lint", &server.url("/any/page"), "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(
        stdout_of(&output).contains(":2:1: warning[R002]"),
        "{}",
        stdout_of(&output)
    );
    assert_eq!(stderr_of(&output), "");
    // A site without a robots.txt has nothing to lint.
    let missing = crawlgate_testserver::TestServer::start([]);
    crawlgate()
        .args(["lint", &missing.url("/"), "--allow-private"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nothing to lint: "))
        .stderr(predicate::str::contains("HTTP 404"));
}
