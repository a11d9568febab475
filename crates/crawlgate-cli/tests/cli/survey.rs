//! `crawlgate survey` on WARC files built from the corpus, checked row by
//! row against `crawlgate explain` (the files) and `crawlgate check` (the
//! statuses, served for real on loopback).

#[path = "../../../crawlgate-survey/tests/support/warc.rs"]
mod warc_writer;

use crawlgate::RobotsTxt;
use crawlgate_survey::Classifier;
use crawlgate_testserver::{Reply, TestServer};
use serde_json::Value;

use crate::{corpus, crawlgate, stderr_of, Files};
use warc_writer::{gzip, response_record, Response, WarcFile};

const CRAWLERS: [&str; 4] = ["GPTBot", "CCBot", "Googlebot", "*"];

/// Corpus files that name AI crawlers, and some that do not.
fn sample() -> Vec<String> {
    let names = crawlgate_corpus::names();
    let mut naming: Vec<String> = names
        .iter()
        .filter(|name| {
            let body = std::fs::read(corpus().join(name)).unwrap();
            let text = String::from_utf8_lossy(&body).to_ascii_lowercase();
            text.contains("gptbot") || text.contains("ccbot")
        })
        .take(25)
        .cloned()
        .collect();
    assert!(
        naming.len() >= 10,
        "the corpus names AI crawlers in {} files",
        naming.len()
    );
    naming.extend(names.iter().step_by(300).cloned());
    naming.sort();
    naming.dedup();
    naming
}

fn rows_of(path: &std::path::Path) -> Vec<Value> {
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

/// The class and `/` line of `token` as `crawlgate explain` reads the file:
/// named or not, and its verdicts on `/` and the probe paths.
fn explained(file: &std::path::Path, token: &str, probes: &[String]) -> (String, Option<u64>) {
    let output = crawlgate()
        .arg("explain")
        .arg(file)
        .args(["--agent", token, "--json"])
        .args(probes)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let urls = json["urls"].as_array().unwrap();
    assert_eq!(urls.len(), probes.len());
    let line = urls[0]["rule"]["line"].as_u64();
    let named = match json["selection"].as_str().unwrap() {
        "specific" => true,
        "global" => token == "*",
        _ => false,
    };
    if !named {
        return ("unmentioned".to_owned(), line);
    }
    let disallowed = urls.iter().filter(|u| u["allowed"] == false).count();
    let class = if disallowed == urls.len() {
        "blocked"
    } else if disallowed == 0 {
        "allowed"
    } else {
        "partial"
    };
    (class.to_owned(), line)
}

#[test]
fn rows_agree_with_explain_and_check() {
    let files = Files::new();
    let names = sample();
    let mut warc = WarcFile::new(true);
    for name in &names {
        let body = std::fs::read(corpus().join(name)).unwrap();
        warc.response(&Response::ok(name, body));
        if name == &names[names.len() / 2] {
            // A member cut short, and bytes that are no member, midway.
            let cut = response_record(&Response::ok("cut.example", "User-agent: *\n"));
            warc.raw(&gzip(&cut)[..30]).raw(b"garbage between members");
        }
    }
    let statuses = [
        (503u16, "down.example"),
        (429, "busy.example"),
        (404, "gone.example"),
        (401, "locked.example"),
    ];
    for (status, host) in statuses {
        warc.response(&Response::status(host, status, "User-agent: *\nAllow: /\n"));
    }
    let warc_path = files.write("sample.warc.gz", &warc.bytes);
    let out = files.path().join("rows.jsonl");
    let mut command = crawlgate();
    command
        .arg("survey")
        .arg(&warc_path)
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

    // Every capture is a row; the damage makes error rows, and nothing
    // after it is lost.
    let good: Vec<&Value> = rows.iter().filter(|r| r["error"].is_null()).collect();
    assert_eq!(good.len(), names.len() + statuses.len());
    let errors: Vec<&str> = rows.iter().filter_map(|r| r["error"].as_str()).collect();
    assert!(!errors.is_empty() && errors.len() <= 2, "{errors:?}");

    for name in &names {
        let row = good
            .iter()
            .find(|r| r["host"] == name.as_str())
            .unwrap_or_else(|| panic!("{name}"));
        let file = corpus().join(name);
        let probes = Classifier::new(&RobotsTxt::parse(&std::fs::read(&file).unwrap()))
            .probe_paths()
            .to_vec();
        for token in CRAWLERS {
            let (class, line) = explained(&file, token, &probes);
            let c = column(token);
            assert_eq!(row[format!("class_{c}")], class.as_str(), "{name} {token}");
            assert_eq!(row[format!("line_{c}")].as_u64(), line, "{name} {token}");
        }
    }

    // The statuses, served for real: `crawlgate check` fetches them.
    for (status, host) in statuses {
        let server = TestServer::start([(
            "/robots.txt",
            Reply::text(status, "User-agent: *\nAllow: /\n"),
        )]);
        let row = good.iter().find(|r| r["host"] == host).unwrap();
        for token in ["GPTBot", "Googlebot"] {
            let output = crawlgate()
                .arg("check")
                .arg(server.url("/"))
                .args(["--agent", token, "--json", "--allow-private"])
                .output()
                .unwrap();
            let json: Value = serde_json::from_slice(&output.stdout).unwrap();
            let result = &json["results"][0];
            let expected = match (
                result["allowed"].as_bool().unwrap(),
                result["basis"].as_str().unwrap(),
            ) {
                (false, "full_disallow") => "blocked",
                (true, "full_allow") => "unmentioned",
                other => panic!("{status}: {other:?}"),
            };
            assert_eq!(
                row[format!("class_{}", column(token))],
                expected,
                "{host} {token}"
            );
            assert_eq!(row["status"], status);
        }
    }
}

#[test]
fn usage_errors_are_clear() {
    let files = Files::new();
    let table = files.write(
        "sites.jsonl",
        "{\"host\":\"a.example\",\"robots_txt\":\"\"}\n",
    );
    let cases: [(&[&str], &str); 5] = [
        (&["survey", "-o", "x.parquet"], "nothing to survey"),
        (
            &["survey", "sites.txt", "-o", "x.parquet"],
            "cannot read sites.txt",
        ),
        (
            &["survey", "sites.jsonl", "-o", "x.txt"],
            "name it .parquet, .csv, .jsonl or .html",
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
    ];
    for (args, message) in cases {
        let output = crawlgate()
            .current_dir(files.path())
            .args(args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr_of(&output).contains(message),
            "{args:?}: {}",
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
        stderr_of(&output).contains("survey: 1 sites (0 error rows)"),
        "{}",
        stderr_of(&output)
    );
    let csv = std::fs::read_to_string(files.path().join("out.csv")).unwrap();
    assert!(csv.starts_with("host,source,error,status,outcome,"));
}

/// Under `--profile bing` the whole file is read as Bing reads it: the group
/// of Bingbot and Googlebot ends at the `Crawl-delay` line, so the file that
/// blocks both under Google's reading leaves them free.
#[test]
fn the_bing_reading_classifies_bingbot_by_its_own_group() {
    let files = Files::new();
    let body = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";
    let line = serde_json::json!({"host": "shop.example", "robots_txt": body});
    files.write("sites.jsonl", format!("{line}\n"));
    let class_of = |profile: &str| {
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
            rows[0]["class_bingbot"].as_str().unwrap().to_owned(),
            rows[0]["class_googlebot"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(class_of("google"), ("blocked".into(), "blocked".into()));
    assert_eq!(class_of("bing"), ("allowed".into(), "allowed".into()));
}
