//! `crawlgate survey` on the WARC the tests build from the corpus (the
//! issue's bar), checked host by host against `crawlgate check` (local
//! files, and statuses and redirects served for real on loopback); killed
//! halfway (SIGTERM, SIGINT, SIGKILL) it leaves earlier outputs intact and
//! `--resume` gives the uninterrupted table; `survey report` reads tables.

#[path = "../../../crawlgate-survey/tests/support/warc.rs"]
mod warc_writer;

#[path = "../../../crawlgate-survey/tests/support/bar.rs"]
mod bar_warc;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crawlgate_testserver::{Reply, TestServer};
use serde_json::Value;

use crate::{corpus, crawlgate, stderr_of, Files};
use bar_warc::{Answer, BarWarc};

/// Crawlers whose readings differ (Googlebot-Image falls back to
/// Googlebot, AdsBot-Google ignores `*`, Bingbot to msnbot) beside plain
/// tokens and `*`.
const CRAWLERS: [&str; 7] = [
    "GPTBot",
    "Googlebot-Image",
    "AdsBot-Google",
    "Bingbot",
    "CCBot",
    "Googlebot",
    "*",
];

fn rows_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn column(token: &str) -> String {
    if token == "*" {
        "star".to_owned()
    } else {
        token.to_ascii_lowercase().replace('-', "_")
    }
}

/// `crawlgate check ROBOTS / --agent TOKEN --json` (its default, the
/// crawler reading): whether `/` is allowed.
fn check(robots: &str, token: &str, allow_private: bool) -> bool {
    check_json(robots, token, allow_private)["results"][0]["allowed"]
        .as_bool()
        .unwrap()
}

/// The group a survey's `group_X` names for `check --json`'s `choice.kind`
/// (no `choice`: the one-token selection of `*`).
fn group_word(json: &Value) -> &'static str {
    match json["results"][0]["choice"]["kind"].as_str() {
        Some("own") => "named",
        Some("fallback") => "fallback",
        Some("*") | None => "star",
        Some("none") => "none",
        Some("ignores-robots-txt") => "ignored",
        Some(other) => panic!("choice {other}"),
    }
}

/// `crawlgate check ROBOTS / --agent TOKEN --json`'s output.
fn check_json(robots: &str, token: &str, allow_private: bool) -> Value {
    let mut command = crawlgate();
    command.args(["check", robots, "/", "--agent", token, "--json"]);
    if allow_private {
        command.arg("--allow-private");
    }
    let output = command.output().unwrap();
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{robots}: {}",
        stderr_of(&output)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Runs `jobs` on four threads.
fn in_parallel<T: Send>(jobs: Vec<T>, run: impl Fn(T) + Sync) {
    let jobs = std::sync::Mutex::new(jobs);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let Some(job) = jobs.lock().unwrap().pop() else {
                    return;
                };
                run(job);
            });
        }
    });
}

#[test]
fn every_host_answers_as_crawlgate_check_does() {
    let files = Files::new();
    let names = crawlgate_corpus::names();
    let bar = BarWarc::build(&corpus(), &names, 1);
    let warc = files.write("bar.warc.gz", &bar.bytes);
    let out = files.path().join("rows.jsonl");
    let mut command = crawlgate();
    command
        .arg("survey")
        .arg(&warc)
        .arg("-o")
        .arg(&out)
        .arg("-q");
    for token in CRAWLERS {
        command.args(["--crawler", token]);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    assert_eq!(stderr_of(&output), "", "quiet");
    let rows = rows_of(&out);

    // Every record accounted for: rows, repeated captures, skips.
    let answered: Vec<&Value> = rows.iter().filter(|r| r["error"].is_null()).collect();
    let errors = rows.len() - answered.len();
    assert_eq!(errors as u64, bar.damaged);
    let captures: u64 = answered
        .iter()
        .map(|r| r["captures"].as_u64().unwrap())
        .sum();
    assert_eq!(captures + errors as u64 + bar.skipped, bar.records);
    // One row per host.
    let by_host: BTreeMap<&str, &Value> = answered
        .iter()
        .map(|r| (r["host"].as_str().unwrap(), *r))
        .collect();
    assert_eq!(by_host.len(), answered.len(), "a host twice");
    assert_eq!(by_host.len(), bar.hosts.len());

    // The files that answer, as `crawlgate check` reads them.
    let bodies = files.path().join("bodies");
    std::fs::create_dir(&bodies).unwrap();
    let mut jobs = Vec::new();
    for (i, (host, expect)) in bar.hosts.iter().enumerate() {
        let row = by_host[host.as_str()];
        assert_eq!(row["captures"], expect.captures, "{host}");
        if let Answer::File(body) = &expect.answer {
            let file = bodies.join(host);
            std::fs::write(&file, body).unwrap();
            let tokens: &[&str] = if i % 10 == 0 || host.starts_with("prefs") {
                &CRAWLERS
            } else {
                &CRAWLERS[..1]
            };
            for token in tokens {
                jobs.push((host.clone(), file.clone(), *token));
            }
        }
    }
    assert!(jobs.len() > 4000);
    let mismatches = std::sync::Mutex::new(Vec::new());
    let stated = std::sync::Mutex::new(0);
    in_parallel(jobs, |(host, file, token)| {
        let json = check_json(file.to_str().unwrap(), token, false);
        let row = by_host[host.as_str()];
        let allowed = json["results"][0]["allowed"].as_bool().unwrap();
        let expected = if allowed { "allowed" } else { "disallowed" };
        let shown = (
            &row[format!("root_{}", column(token))],
            &row[format!("group_{}", column(token))],
        );
        if shown.0 != expected || (token != "*" && shown.1 != group_word(&json)) {
            mismatches.lock().unwrap().push(format!(
                "{host} {token}: survey {} {}, check {expected} {}",
                shown.0,
                shown.1,
                group_word(&json)
            ));
        }
        // The AI-use preferences for `/`: the JSON `check` gives (null
        // when none applies).
        let prefs = &row[format!("prefs_{}", column(token))];
        let prefs: Value = prefs
            .as_str()
            .map_or(Value::Null, |text| serde_json::from_str(text).unwrap());
        // Absent from `check`'s answer when none applies.
        let given = &json["results"][0]["preferences"];
        if &prefs != given {
            mismatches.lock().unwrap().push(format!(
                "{host} {token}: survey prefs {prefs}, check {given}"
            ));
        }
        if !prefs.is_null() {
            *stated.lock().unwrap() += 1;
        }
    });
    let mismatches = mismatches.into_inner().unwrap();
    assert!(mismatches.is_empty(), "{mismatches:#?}");
    let stated = stated.into_inner().unwrap();
    assert!(stated >= 20, "preferences stated {stated} times");

    // Search Console's counts, as `crawlgate report --json` gives them, on
    // every 50th file.
    let mut reported = 0;
    for (host, expect) in bar.hosts.iter().step_by(50) {
        if !matches!(expect.answer, Answer::File(_)) {
            continue;
        }
        let output = crawlgate()
            .args(["report", "--json"])
            .arg(bodies.join(host))
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        let unknown = json["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["kind"] == "unknown")
            .count();
        let row = by_host[host.as_str()];
        assert_eq!(row["sc_valid"], json["valid_directives"], "{host}");
        assert_eq!(row["sc_unused"], json["unused_directives"], "{host}");
        assert_eq!(row["sc_unknown"], unknown, "{host}");
        reported += 1;
    }
    assert!(reported > 50, "{reported}");

    // The statuses and a redirect loop, served for real: `crawlgate check`
    // fetches them. No 5xx is a robots.txt block.
    let mut served: Vec<(String, Reply)> = bar
        .statuses
        .iter()
        .map(|(host, status)| {
            (
                host.clone(),
                Reply::text(*status, "User-agent: *\nDisallow: /\n"),
            )
        })
        .collect();
    served.push(("ping.example".into(), Reply::redirect(301, "/robots.txt")));
    for (host, reply) in served {
        let server = TestServer::start([("/robots.txt", reply)]);
        let row = by_host[host.as_str()];
        for token in ["GPTBot", "Googlebot"] {
            let allowed = check(&server.url("/"), token, true);
            let c = column(token);
            let expected = if allowed { "allowed" } else { "disallowed" };
            assert_eq!(row[format!("root_{c}")], expected, "{host} {token}");
            let cause = row[format!("cause_{c}")].as_str().unwrap();
            assert!(
                !cause.starts_with("blocked"),
                "{host}: an outage is no block"
            );
            if !allowed {
                assert_eq!(cause, "unreachable", "{host}");
            }
        }
    }
    // A redirect whose target the input does not hold gives no answer.
    for k in 0..3 {
        let row = by_host[format!("nowhere{k}.example").as_str()];
        assert_eq!(
            (row["root_gptbot"].clone(), row["cause_gptbot"].clone()),
            (Value::Null, "redirected".into())
        );
    }
}

/// A WARC of `copies` copies of the corpus, in `files`.
fn big_warc(files: &Files, copies: usize) -> PathBuf {
    let names = crawlgate_corpus::names();
    let bar = BarWarc::build(&corpus(), &names, copies);
    files.write("big.warc.gz", &bar.bytes)
}

fn survey_command(files: &Files, warc: &Path, stem: &str) -> std::process::Command {
    // A shell that starts the tests in the background (`… &`, as CI runners
    // and nohup do) starts them with SIGINT ignored, and children inherit
    // that: `env --default-signal` gives the survey the SIGINT a terminal's
    // Ctrl-C meets.
    let mut command = std::process::Command::new("env");
    command
        .arg("--default-signal=INT")
        .arg(assert_cmd::cargo::cargo_bin("crawlgate"))
        .current_dir(files.path())
        .arg("survey")
        .arg(warc)
        .args([
            "-o",
            &format!("{stem}.jsonl"),
            "-o",
            &format!("{stem}.html"),
        ])
        .args(["--crawler", "GPTBot", "--crawler", "*", "--path", "/news/"])
        .args([
            "--checkpoint",
            "1000",
            "--no-progress",
            "-q",
            "--threads",
            "2",
        ]);
    command
}

#[test]
fn a_killed_survey_leaves_earlier_outputs_and_resumes_to_the_same_table() {
    let files = Files::new();
    let warc = big_warc(&files, 3);
    let bytes = std::fs::read(&warc).unwrap();
    let status = survey_command(&files, &warc, "whole").status().unwrap();
    assert!(status.success());
    let whole = std::fs::read(files.path().join("whole.jsonl")).unwrap();
    assert!(rows_of(&files.path().join("whole.jsonl")).len() > 12_000);

    for signal in ["TERM", "INT", "KILL"] {
        let stem = format!("out-{signal}");
        // What a survey before wrote at these paths.
        let earlier_table = b"{\"host\":\"earlier.example\"}\n".to_vec();
        let earlier_page = b"<!DOCTYPE html><p>the earlier report</p>".to_vec();
        let manifest = files
            .path()
            .join(format!(".{stem}.jsonl.crawlgate-work/manifest.json"));
        files.write(&format!("{stem}.jsonl"), &earlier_table);
        files.write(&format!("{stem}.html"), &earlier_page);
        // The signal must land after a checkpoint and before the end of the
        // run, whatever the machine's load: the survey reads the WARC from a
        // pipe at the WARC's own path, which holds the first half of it and
        // stays open, so the survey waits for the rest until it is killed.
        let whole_warc = warc.with_extension("real");
        std::fs::rename(&warc, &whole_warc).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&warc)
            .status()
            .unwrap();
        assert!(made.success(), "mkfifo");
        let (close, closed) = std::sync::mpsc::channel::<()>();
        let writer = {
            let (pipe, half) = (warc.clone(), bytes.len() / 2);
            let bytes = bytes.clone();
            std::thread::spawn(move || {
                use std::io::Write;
                // Opening blocks until the survey opens the pipe to read.
                let mut pipe = std::fs::OpenOptions::new().write(true).open(pipe).unwrap();
                // The survey dies while this may still be writing: a broken
                // pipe then is expected.
                let _ = pipe.write_all(&bytes[..half]);
                let _ = closed.recv();
            })
        };
        let mut child = survey_command(&files, &warc, &stem)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !manifest.exists() {
            if let Some(status) = child.try_wait().unwrap() {
                panic!("{signal}: the survey ended before its first checkpoint: {status:?}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "no checkpoint in 300 s"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let killed = std::process::Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(
            !status.success(),
            "{signal}: the survey read past the pipe's end"
        );
        close.send(()).unwrap();
        writer.join().unwrap();
        std::fs::remove_file(&warc).unwrap();
        std::fs::rename(&whole_warc, &warc).unwrap();

        assert_eq!(
            std::fs::read(files.path().join(format!("{stem}.jsonl"))).unwrap(),
            earlier_table,
            "{signal}"
        );
        assert_eq!(
            std::fs::read(files.path().join(format!("{stem}.html"))).unwrap(),
            earlier_page,
            "{signal}"
        );

        let output = survey_command(&files, &warc, &stem)
            .arg("--resume")
            .output()
            .unwrap();
        assert!(output.status.success(), "{signal}: {}", stderr_of(&output));
        let resumed = std::fs::read(files.path().join(format!("{stem}.jsonl"))).unwrap();
        assert!(
            resumed == whole,
            "{signal}: the resumed table differs from the uninterrupted one"
        );
        assert!(!manifest.exists());
        let page = std::fs::read_to_string(files.path().join(format!("{stem}.html"))).unwrap();
        assert!(page.contains("data-figure=\"records\""), "{signal}");
    }
}

#[test]
fn reports_are_made_from_tables() {
    let files = Files::new();
    let mut warc = warc_writer::WarcFile::new(true);
    warc.response(&warc_writer::Response::ok(
        "a.example",
        "User-agent: GPTBot\nDisallow: /\n",
    ))
    .response(&warc_writer::Response::status("b.example", 503, ""));
    let warc = files.write("now.warc.gz", &warc.bytes);
    let output = crawlgate()
        .current_dir(files.path())
        .arg("survey")
        .arg(&warc)
        .args(["-o", "now.parquet", "-o", "now.json", "--no-progress"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let ran: Value =
        serde_json::from_str(&std::fs::read_to_string(files.path().join("now.json")).unwrap())
            .unwrap();
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "survey",
            "report",
            "now.parquet",
            "-o",
            "report.html",
            "-o",
            "report.json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("survey report: now (2 sites)"),
        "{}",
        stderr_of(&output)
    );
    let mut read: Value =
        serde_json::from_str(&std::fs::read_to_string(files.path().join("report.json")).unwrap())
            .unwrap();
    read["snapshots"][0]["summary"]["accounting"] =
        ran["snapshots"][0]["summary"]["accounting"].clone();
    assert_eq!(read, ran);
    let summary = &ran["snapshots"][0]["summary"];
    assert_eq!(
        (summary["unreachable"].clone(), summary["chosen"].clone()),
        (1.into(), 1.into())
    );
}

#[test]
fn usage_errors_are_clear() {
    let files = Files::new();
    let table = files.write(
        "sites.jsonl",
        "{\"host\":\"a.example\",\"robots_txt\":\"\"}\n",
    );
    files.write("long.paths", format!("{}\n", "a".repeat(70_000)));
    let long_path = format!("/{}", "a".repeat(70_000));
    let cases: [(&[&str], &str); 12] = [
        (&["survey", "-o", "x.parquet"], "nothing to survey"),
        (
            &["survey", "sites.txt", "-o", "x.parquet"],
            "cannot read sites.txt",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.txt"],
            "name it .parquet, .csv, .jsonl, .html or .json",
        ),
        (
            &[
                "survey",
                "sites.jsonl",
                "-o",
                "x.csv",
                "--crawler",
                "GPTBot/1.0",
            ],
            "not a product token",
        ),
        (
            &[
                "survey",
                "sites.jsonl",
                "-o",
                "x.csv",
                "--compare",
                "missing.parquet",
            ],
            "cannot read the earlier survey",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.csv", "--path", "news"],
            "does not start with `/`",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.csv", "--path", &long_path],
            "too long",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.csv", "--resume"],
            "nothing to resume",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.csv", "--checkpoint", "0"],
            "--checkpoint",
        ),
        (
            &["survey", "long.paths", "-o", "x.csv"],
            "longer than 8192 bytes",
        ),
        (&["survey", "report", "-o", "r.html"], "TABLE"),
        (
            &["survey", "report", "sites.jsonl", "-o", "r.csv"],
            ".html (the report) or .json",
        ),
    ];
    for (args, message) in cases {
        let output = crawlgate()
            .current_dir(files.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{:.80?}", args);
        assert!(
            stderr_of(&output).contains(message),
            "{:.80?}: {}",
            args,
            stderr_of(&output)
        );
    }
    let unknown = files.write("notes.txt", "x");
    let output = crawlgate()
        .arg("survey")
        .arg(&unknown)
        .args(["-o", "x.csv"])
        .current_dir(files.path())
        .output()
        .unwrap();
    assert!(
        stderr_of(&output).contains("cannot tell what"),
        "{}",
        stderr_of(&output)
    );
    // A good run says what it wrote.
    let output = crawlgate()
        .current_dir(files.path())
        .arg("survey")
        .arg(&table)
        .args(["-o", "out.csv", "--no-progress"])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(
        stderr_of(&output).contains("survey: 1 sites (0 error rows, 0 unreachable); 1 records: 1 rows, 0 repeated captures, 0 skipped"),
        "{}",
        stderr_of(&output)
    );
    let csv = std::fs::read_to_string(files.path().join("out.csv")).unwrap();
    assert!(csv.starts_with("host,source,offset,error,url,captured,captures,status,"));
}

/// Under `--profile bing` the whole file is read as Bing reads it: the group
/// of Bingbot and Googlebot ends at the `Crawl-delay` line, so the file that
/// blocks both under Google's reading leaves them free.
#[test]
fn the_bing_reading_answers_bingbot_by_its_own_group() {
    let files = Files::new();
    let body = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";
    let line = serde_json::json!({"host": "shop.example", "robots_txt": body});
    files.write("sites.jsonl", format!("{line}\n"));
    let cause_of = |profile: &str| {
        let out = format!("{profile}.jsonl");
        let output = crawlgate()
            .current_dir(files.path())
            .args(["survey", "sites.jsonl", "-o", &out, "--no-progress"])
            .args(["--crawler", "Bingbot", "--crawler", "Googlebot"])
            .args(["--profile", profile])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr_of(&output));
        let rows = rows_of(&files.path().join(&out));
        assert_eq!(rows.len(), 1);
        (
            rows[0]["cause_bingbot"].as_str().unwrap().to_owned(),
            rows[0]["cause_googlebot"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(
        cause_of("google"),
        ("blocked_by_name".into(), "blocked_by_name".into())
    );
    assert_eq!(cause_of("bing"), ("allowed".into(), "allowed".into()));
}
