//! `crawlgate batch`: the JSON-lines protocol, and every way a line can be
//! wrong without stopping the run.

use base64::Engine as _;
use crawlgate::Who;
use predicates::prelude::*;
use serde_json::Value;

use crate::{crawlgate, stdout_of, Files};

/// Runs `batch` on `input` and parses each output line.
fn batch(input: &str, files: &Files) -> (Option<i32>, Vec<Value>) {
    let output = crawlgate()
        .current_dir(files.path())
        .arg("batch")
        .write_stdin(input)
        .output()
        .unwrap();
    let lines = stdout_of(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (output.status.code(), lines)
}

#[test]
fn answers_each_line_in_order() {
    let files = Files::new();
    files.write("robots.txt", "User-agent: *\nDisallow: /file\n");
    let b64 = base64::engine::general_purpose::STANDARD.encode("User-agent: *\nDisallow: /b64\n");
    let input = format!(
        "{{\"id\":1,\"robots_txt\":\"User-agent: *\\nDisallow: /x\\n\",\"user_agent\":\"bot\",\"url\":\"https://example.com/x/1\"}}\n\
         {{\"id\":\"two\",\"robots_txt_b64\":\"{b64}\",\"user_agent\":\"bot\",\"url\":\"/b64\"}}\n\
         {{\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/open\"}}\r\n"
    );
    let (code, lines) = batch(&input, &files);
    assert_eq!(code, Some(0));
    assert_eq!(
        lines,
        [
            serde_json::json!({"id": 1, "allowed": false, "line": 2, "rule": "Disallow: /x"}),
            serde_json::json!({"id": "two", "allowed": false, "line": 2, "rule": "Disallow: /b64"}),
            serde_json::json!({"allowed": true, "line": null, "rule": null}),
        ]
    );
}

#[test]
fn bad_lines_get_error_lines_and_the_run_goes_on() {
    let files = Files::new();
    let input = "\
not json
{\"id\":7,\"robots_txt_b64\":\"***\",\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":8,\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"url\":\"/\"}
{\"id\":9,\"robots_file\":\"missing.txt\",\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":10,\"user_agent\":\"bot\",\"url\":\"/\"}
{\"id\":11,\"robots_txt\":42,\"user_agent\":\"bot\",\"url\":\"/\"}

{\"id\":12,\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/\"}
";
    let (code, lines) = batch(input, &files);
    assert_eq!(code, Some(0), "bad lines do not fail the run");
    assert_eq!(lines.len(), 8, "one output line per input line");
    let error = |i: usize| lines[i]["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        error(0).starts_with("input line 1: not a valid request: "),
        "{}",
        error(0)
    );
    assert_eq!(lines[1]["id"], 7);
    assert!(
        error(1).contains("input line 2: robots_txt_b64 is not valid base64"),
        "{}",
        error(1)
    );
    assert_eq!(
        lines[2]["id"], 8,
        "the id is echoed even when a field is missing"
    );
    assert!(
        error(2).contains("give user_agent (one product token) or crawler (a crawler's name)"),
        "{}",
        error(2)
    );
    assert!(
        error(3).contains("input line 4: cannot read robots_file \"missing.txt\""),
        "{}",
        error(3)
    );
    assert!(
        error(4).contains("one of robots_txt, robots_txt_b64 or robots_file is required"),
        "{}",
        error(4)
    );
    assert!(
        error(5).contains("robots_txt must be a string"),
        "{}",
        error(5)
    );
    assert_eq!(error(6), "input line 7: empty line");
    assert_eq!(
        lines[7],
        serde_json::json!({"id": 12, "allowed": false, "line": 2, "rule": "Disallow: /"})
    );
}

#[test]
fn unreadable_robots_file_is_an_error_line() {
    let files = Files::new();
    std::fs::create_dir(files.path().join("dir.txt")).unwrap();
    let (_, lines) = batch(
        "{\"robots_file\":\"dir.txt\",\"user_agent\":\"bot\",\"url\":\"/\"}\n",
        &files,
    );
    assert!(lines[0]["error"]
        .as_str()
        .unwrap()
        .contains("cannot read robots_file \"dir.txt\""));
}

#[test]
fn profile_option() {
    let files = Files::new();
    let input = "{\"robots_txt\":\"User-agent: *\\nDisallow: /*.php$\\n\",\"user_agent\":\"bot\",\"url\":\"/a.php\"}\n";
    let output = crawlgate()
        .args(["batch", "--profile", "legacy"])
        .current_dir(files.path())
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        stdout_of(&output),
        "{\"allowed\":true,\"line\":null,\"rule\":null}\n"
    );
    crawlgate()
        .args(["batch", "--profile", "baidu"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown profile `baidu`"));
}

#[test]
fn input_file_and_missing_input_file() {
    let files = Files::new();
    let input = files.write(
        "requests.jsonl",
        "{\"robots_txt\":\"User-agent: *\\nDisallow: /\\n\",\"user_agent\":\"bot\",\"url\":\"/\"}",
    );
    crawlgate()
        .arg("batch")
        .arg(&input)
        .assert()
        .success()
        .stdout("{\"allowed\":false,\"line\":2,\"rule\":\"Disallow: /\"}\n");
    crawlgate()
        .args(["batch", "no-such.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot open no-such.jsonl"));
}

#[test]
fn a_leading_bom_and_a_null_robots_txt_are_tolerated() {
    let files = Files::new();
    files.write("robots.txt", "User-agent: *\nDisallow: /file\n");
    let input = "\u{feff}{\"id\":1,\"robots_txt\":null,\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/file\"}\n\
                 {\"id\":2,\"robots_txt\":null,\"user_agent\":\"bot\",\"url\":\"/file\"}\n";
    let (code, lines) = batch(input, &files);
    assert_eq!(code, Some(0));
    assert_eq!(
        lines[0],
        serde_json::json!({"id": 1, "allowed": false, "line": 2, "rule": "Disallow: /file"})
    );
    assert_eq!(lines[1]["id"], 2);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("one of robots_txt"));
}

/// A `crawler` is read by its operator's reading (Bing's crawlers by bing,
/// Yandex's robots by yandex) and the answer says which; `--profile` reads
/// every line by the one named; every answer equals the library's.
#[test]
fn crawlers_are_read_by_their_operators_reading_unless_a_profile_is_named() {
    use crawlgate::{Profile, Reading, RobotsTxt};
    let files = Files::new();
    let body = "User-agent: bingbot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /*.pdf$\n\n\
                User-agent: Yandex\nDisallow: /*aab\nUser-agent: YandexDirect\n\nDisallow: /x\n";
    files.write("robots.txt", body);
    let questions = [
        ("crawler", "bingbot", "/menu.pdf"),
        ("crawler", "YandexBot", "/aaab"),
        ("crawler", "YandexDirect", "/x"),
        ("crawler", "Googlebot", "/menu.pdf"),
        ("user_agent", "bingbot", "/menu.pdf"),
        ("user_agent", "YandexBot", "/aaab"),
    ];
    let input: String = questions
        .iter()
        .map(|(field, name, url)| {
            format!("{{\"robots_file\":\"robots.txt\",\"{field}\":\"{name}\",\"url\":\"{url}\"}}\n")
        })
        .collect();
    for named in [None, Some(Profile::YANDEX), Some(Profile::GOOGLE)] {
        let mut command = crawlgate();
        command
            .current_dir(files.path())
            .arg("batch")
            .arg("--quiet");
        if let Some(profile) = named {
            command.args(["--profile", profile.name]);
        }
        let output = command.write_stdin(input.clone()).output().unwrap();
        assert_eq!(output.status.code(), Some(0));
        let lines: Vec<Value> = stdout_of(&output)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), questions.len());
        for ((field, name, url), line) in questions.iter().zip(&lines) {
            let how = match *field {
                "crawler" => Reading::Crawler,
                _ => Reading::OneToken,
            };
            let profile = how.profile_for(name, named);
            let robots = RobotsTxt::parse_with(body.as_bytes(), profile);
            let verdict = robots.view(Who::read(name, how)).decide(url);
            assert_eq!(
                line["allowed"],
                verdict.is_allowed(),
                "{name} {named:?}: {line}"
            );
            if how == Reading::Crawler {
                assert_eq!(line["profile"], profile.name, "{name} {named:?}: {line}");
            }
        }
        if named.is_none() {
            // Yandex's reading where Google's would disallow.
            assert_eq!(lines[0]["profile"], "bing");
            assert_eq!(lines[0]["allowed"], true);
            assert_eq!(lines[1]["profile"], "yandex");
            assert_eq!(lines[1]["allowed"], true);
            // One token: Google's reading, and no profile to say.
            assert_eq!(lines[4]["allowed"], false);
            assert!(lines[4].get("profile").is_none());
        }
    }
}
