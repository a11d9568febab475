//! `crawlgate audit` judges each crawler as `crawlgate check --agent UA
//! URL` does, by its operator's reading (bingbot by Bing's rules,
//! YandexBot by Yandex's) unless `--profile` names one: every row of
//! `-o rows.jsonl` against `check` and the library, for one file, dated
//! versions and one file per host.

use std::collections::BTreeMap;

use crawlgate::{Profile, Reading, Who};
use crawlgate_answers::RobotsSource;
use crawlgate_test_support::readings::{combined_line, AGENTS, EARLIER, LATER, URLS};
use serde_json::Value;

use crate::{crawlgate, stderr_of, Files};

/// Every agent fetching every URL at each time (`host:443 ` first when a
/// host is given: vhost_combined).
fn log(times: &[&str], host: Option<&str>) -> String {
    let mut text = String::new();
    for time in times {
        for agent in AGENTS {
            for url in URLS {
                if let Some(host) = host {
                    text.push_str(&format!("{host}:443 "));
                }
                text.push_str(&combined_line("192.0.2.7", time, url, agent));
                text.push('\n');
            }
        }
    }
    text
}

/// Runs `crawlgate audit` in `files` and reads its rows.
fn audit(files: &Files, args: &[&str]) -> Vec<Value> {
    let output = crawlgate()
        .current_dir(files.path())
        .arg("audit")
        .args(args)
        .args(["--ip-ranges", "none", "--no-dns", "-o", "rows.jsonl"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    std::fs::read_to_string(files.path().join("rows.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `crawlgate check FILE --agent AGENT --json URL…`: each URL's (allowed,
/// deciding line).
pub fn checked(
    files: &Files,
    file: &str,
    agent: &str,
    urls: &[&str],
    profile: Option<&str>,
) -> Vec<(Option<bool>, Option<u64>)> {
    let mut command = crawlgate();
    command
        .current_dir(files.path())
        .args(["check", file, "--agent", agent, "--json"]);
    if let Some(profile) = profile {
        command.args(["--profile", profile]);
    }
    let output = command.args(urls).output().unwrap();
    let checked: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", stderr_of(&output)));
    let results = checked["results"].as_array().unwrap();
    assert_eq!(results.len(), urls.len());
    results
        .iter()
        .map(|r| (r["allowed"].as_bool(), r["rule"]["line"].as_u64()))
        .collect()
}

/// Checks every row against `crawlgate check FILE --agent UA --json URL…`
/// (one run per file and agent) and the library, where `file_of` names
/// the file the row's request must be judged by; returns how many rows
/// Google's reading answers otherwise.
fn assert_checks(
    files: &Files,
    rows: &[Value],
    profile: Option<&str>,
    file_of: impl Fn(&Value) -> &'static str,
) -> usize {
    let named = profile.map(|p| p.parse::<Profile>().unwrap());
    let mut asked: BTreeMap<(&str, String), Vec<&Value>> = BTreeMap::new();
    for row in rows {
        let agent = row["user_agent"].as_str().unwrap().to_owned();
        asked.entry((file_of(row), agent)).or_default().push(row);
    }
    let mut differ = 0;
    for ((file, agent), rows) in &asked {
        let urls: Vec<&str> = rows.iter().map(|r| r["url"].as_str().unwrap()).collect();
        let results = checked(files, file, agent, &urls, profile);
        let source = RobotsSource::from_bytes(std::fs::read(files.path().join(file)).unwrap());
        let reading = source.read(Reading::Crawler.profile_for(agent, named));
        let google = source.read(Profile::GOOGLE);
        for (row, result) in rows.iter().zip(results) {
            let url = row["url"].as_str().unwrap();
            let said = (row["allowed"].as_bool(), row["rule_line"].as_u64());
            assert_eq!(said, result, "{file} {agent} {url}");
            let library = reading.decide(Who::crawler(agent.as_str()), url);
            assert_eq!(
                said,
                (Some(library.allowed), library.line().map(u64::from)),
                "{file} {agent} {url}"
            );
            let version = row["robots_version"].as_str().unwrap();
            assert!(version.contains(file), "{file} {url}: judged by {version}");
            let other = google.decide(Who::crawler(agent.as_str()), url);
            differ += usize::from(other.allowed != library.allowed);
        }
    }
    differ
}

#[test]
fn audit_verdicts_are_checks_under_each_crawlers_reading() {
    let files = Files::new();
    std::fs::create_dir(files.path().join("none")).unwrap();
    files.write("robots.txt", EARLIER);
    files.write("access.log", log(&["27/Nov/2026:10:00:00 +0000"], None));
    let rows = audit(&files, &["access.log", "--robots", "robots.txt"]);
    assert_eq!(rows.len(), AGENTS.len() * URLS.len());
    // bingbot on /shared and /no-colon, YandexBot on /no-colon.
    assert_eq!(assert_checks(&files, &rows, None, |_| "robots.txt"), 3);
    let bingbot_shared = rows
        .iter()
        .find(|r| r["crawler"] == "Bingbot" && r["url"] == "/shared/page")
        .unwrap_or_else(|| panic!("{rows:?}"));
    assert_eq!(bingbot_shared["allowed"], true);
    assert_eq!(bingbot_shared["violation"], false);

    // A named profile reads the file by it for every crawler.
    for profile in ["google", "yandex"] {
        let rows = audit(
            &files,
            &["access.log", "--robots", "robots.txt", "--profile", profile],
        );
        assert_checks(&files, &rows, Some(profile), |_| "robots.txt");
    }

    // Dated versions: before the change and two days after.
    std::fs::create_dir(files.path().join("versions")).unwrap();
    files.write("versions/2026-11-20T00-00-00Z.txt", EARLIER);
    files.write("versions/2026-11-25T00-00-00Z.txt", LATER);
    let times = ["22/Nov/2026:10:00:00 +0000", "27/Nov/2026:10:00:00 +0000"];
    files.write("dated.log", log(&times, None));
    let by_time = |row: &Value| {
        if row["time"].as_str().unwrap().starts_with("2026-11-22") {
            "versions/2026-11-20T00-00-00Z.txt"
        } else {
            "versions/2026-11-25T00-00-00Z.txt"
        }
    };
    let rows = audit(&files, &["dated.log", "--robots-versions", "versions"]);
    assert_eq!(assert_checks(&files, &rows, None, by_time), 6);

    // One file per host: a.test one file, b.test dated versions.
    std::fs::create_dir_all(files.path().join("sites/b.test")).unwrap();
    files.write("sites/a.test.txt", LATER);
    files.write("sites/b.test/2026-11-20T00-00-00Z.txt", EARLIER);
    files.write("sites/b.test/2026-11-25T00-00-00Z.txt", LATER);
    files.write(
        "hosts.log",
        log(&times, Some("a.test")) + &log(&times, Some("b.test")),
    );
    let rows = audit(
        &files,
        &[
            "hosts.log",
            "--format",
            "vhost_combined",
            "--robots-dir",
            "sites",
        ],
    );
    let by_host = |row: &Value| {
        let host = row["host"].as_str().unwrap();
        match (host.starts_with("a.test"), by_time(row).contains("11-20")) {
            (true, _) => "sites/a.test.txt",
            (false, true) => "sites/b.test/2026-11-20T00-00-00Z.txt",
            (false, false) => "sites/b.test/2026-11-25T00-00-00Z.txt",
        }
    };
    assert_eq!(assert_checks(&files, &rows, None, by_host), 12);
}
