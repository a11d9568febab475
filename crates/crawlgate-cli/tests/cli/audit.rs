//! `crawlgate audit`: the hidden lab's exact command line on a log with
//! known truth (feeds from a mirror folder, a real DNS server on loopback
//! with forged, double and silent PTR records), its verdicts equal to
//! `crawlgate check`'s, every output, and bad arguments.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, TimestampMillisecondType, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use crawlgate_test_support::access_log::Lab;
use crawlgate_testserver::dns::{DnsServer, Zone};
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files};

fn lab_files(lab: &Lab) -> (Files, DnsServer) {
    let files = Files::new();
    files.write("access.log", &lab.log);
    files.write("robots.txt", lab.robots_txt);
    lab.write_mirror(&files.path().join("ip-ranges")).unwrap();
    let mut zone = Zone::new();
    for (ip, name) in &lab.dns.ptr {
        zone = zone.ptr(*ip, name);
    }
    for (name, ip) in &lab.dns.a {
        zone = zone.a(name, *ip);
    }
    for ip in &lab.dns.silent {
        zone = zone.silent_ptr(*ip);
    }
    (files, DnsServer::start(zone))
}

/// One row of the Parquet table.
#[derive(Debug)]
struct Row {
    line: u64,
    time: Option<i64>,
    ip: String,
    user_agent: String,
    url: Option<String>,
    crawler: Option<String>,
    identity: Option<String>,
    allowed: Option<bool>,
    rule_line: Option<u32>,
    violation: bool,
    breach: bool,
    honeypot: bool,
}

fn dictionary(batch: &RecordBatch, name: &str, i: usize) -> Option<String> {
    let column = batch
        .column_by_name(name)
        .unwrap()
        .as_dictionary::<Int32Type>();
    if column.is_null(i) {
        return None;
    }
    let values = column.values().as_string::<i32>();
    Some(values.value(column.keys().value(i) as usize).to_owned())
}

fn read_parquet(path: &Path) -> Vec<Row> {
    let file = std::fs::File::open(path).unwrap();
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let text = |name: &str, i: usize| {
            let column = batch.column_by_name(name).unwrap().as_string::<i32>();
            (!column.is_null(i)).then(|| column.value(i).to_owned())
        };
        let flag = |name: &str, i: usize| {
            let column = batch.column_by_name(name).unwrap().as_boolean();
            (!column.is_null(i)).then(|| column.value(i))
        };
        let lines = batch
            .column_by_name("line")
            .unwrap()
            .as_primitive::<UInt64Type>();
        let times = batch
            .column_by_name("time")
            .unwrap()
            .as_primitive::<TimestampMillisecondType>();
        let rule_lines = batch
            .column_by_name("rule_line")
            .unwrap()
            .as_primitive::<UInt32Type>();
        for i in 0..batch.num_rows() {
            rows.push(Row {
                line: lines.value(i),
                time: (!times.is_null(i)).then(|| times.value(i)),
                ip: text("ip", i).unwrap(),
                user_agent: text("user_agent", i).unwrap(),
                url: text("url", i),
                crawler: dictionary(&batch, "crawler", i),
                identity: dictionary(&batch, "identity", i),
                allowed: flag("allowed", i),
                rule_line: (!rule_lines.is_null(i)).then(|| rule_lines.value(i)),
                violation: flag("violation", i).unwrap(),
                breach: flag("crawl_delay_breach", i).unwrap(),
                honeypot: flag("honeypot", i).unwrap(),
            });
        }
    }
    rows
}

/// The command the hidden lab runs, exactly; every line right.
#[test]
fn the_lab_command_line_is_right_on_every_line() {
    let lab = Lab::generate(20_000, 38);
    let (files, dns) = lab_files(&lab);
    let resolver = format!("127.0.0.1:{}", dns.addr().port());
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "audit",
            "access.log",
            "--robots",
            "robots.txt",
            "--ip-ranges",
            "ip-ranges",
            "--resolver",
            &resolver,
        ])
        .args([
            "--dns-timeout",
            "2",
            "--honeypot",
            "/trap/",
            "-o",
            "requests.parquet",
            "--deny-list",
            "deny.txt",
        ])
        .output()
        .unwrap();
    let summary = stdout_of(&output);
    assert!(output.status.success(), "{summary}{}", stderr_of(&output));
    assert_eq!(stderr_of(&output), "");

    let rows = read_parquet(&files.path().join("requests.parquet"));
    let readable: Vec<(usize, _)> = lab
        .truth
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.unreadable)
        .collect();
    assert_eq!(rows.len(), readable.len());
    for (row, (index, truth)) in rows.iter().zip(readable) {
        let at = format!("line {}: {row:?}", index + 1);
        assert_eq!(row.line, index as u64 + 1, "{at}");
        assert_eq!(Some(row.ip.parse::<IpAddr>().unwrap()), truth.ip, "{at}");
        assert_eq!(row.user_agent, truth.user_agent, "{at}");
        assert_eq!(row.url.as_deref(), Some(truth.url.as_str()), "{at}");
        assert_eq!(row.crawler.as_deref(), truth.crawler, "{at}");
        assert_eq!(row.identity.as_deref(), truth.identity, "{at}");
        assert_eq!(row.allowed, truth.allowed, "{at}");
        assert_eq!(row.rule_line, truth.rule_line, "{at}");
        assert_eq!(row.violation, truth.violation, "{at}");
        assert_eq!(row.honeypot, truth.honeypot, "{at}");
        assert_eq!(row.breach, truth.crawl_delay_breach, "{at}");
        assert!(row.time.is_some(), "{at}");
    }

    let unreadable = lab.truth.iter().filter(|t| t.unreadable).count();
    assert!(
        summary.contains(&format!(
            "\nUnreadable lines: {unreadable} (first: access.log lines 501, 1498, "
        )),
        "{summary}"
    );
    let bing = summary
        .lines()
        .skip_while(|l| !l.starts_with("  Bingbot "))
        .nth(1)
        .unwrap();
    let bing_breaches = lab
        .truth
        .iter()
        .filter(|t| t.crawler == Some("Bingbot") && t.crawl_delay_breach)
        .count();
    assert!(bing_breaches > 0);
    assert!(
        bing.contains(&format!("Crawl-delay 5 s: {bing_breaches} breaches")),
        "{bing}"
    );
    let google = summary
        .lines()
        .skip_while(|l| !l.starts_with("  Googlebot "))
        .nth(1)
        .unwrap();
    assert!(!google.contains("Crawl-delay"), "{google}");

    let deny = std::fs::read_to_string(files.path().join("deny.txt")).unwrap();
    let listed: BTreeSet<IpAddr> = deny
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(listed, lab.deny);
}

/// The audit's verdict on each request is `crawlgate check`'s for its
/// User-Agent and URL.
#[test]
fn verdicts_are_checks() {
    let lab = Lab::generate(3_000, 5);
    let files = Files::new();
    files.write("access.log", &lab.log);
    files.write("robots.txt", lab.robots_txt);
    std::fs::create_dir(files.path().join("none")).unwrap();
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "audit",
            "access.log",
            "--robots",
            "robots.txt",
            "--ip-ranges",
            "none",
            "--no-dns",
            "-o",
            "rows.jsonl",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let rows: Vec<Value> = std::fs::read_to_string(files.path().join("rows.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut by_agent: BTreeMap<String, BTreeMap<String, (bool, Option<u64>)>> = BTreeMap::new();
    for row in &rows {
        by_agent
            .entry(row["user_agent"].as_str().unwrap().to_owned())
            .or_default()
            .insert(
                row["url"].as_str().unwrap().to_owned(),
                (row["allowed"].as_bool().unwrap(), row["rule_line"].as_u64()),
            );
    }
    assert!(by_agent.len() >= 8);
    for (agent, urls) in &by_agent {
        let urls: Vec<(&String, &(bool, Option<u64>))> = urls.iter().take(60).collect();
        let output = crawlgate()
            .current_dir(files.path())
            .args(["check", "robots.txt", "--agent", agent, "--json"])
            .args(urls.iter().map(|(u, _)| u.as_str()))
            .output()
            .unwrap();
        let checked: Value = serde_json::from_slice(&output.stdout).unwrap();
        let results = checked["results"]
            .as_array()
            .unwrap_or_else(|| panic!("{checked}"));
        assert_eq!(results.len(), urls.len());
        for ((url, (allowed, line)), result) in urls.iter().zip(results) {
            let verdict = result;
            assert_eq!(
                verdict["allowed"].as_bool(),
                Some(*allowed),
                "{agent} {url}: {result}"
            );
            assert_eq!(
                verdict["rule"]["line"].as_u64(),
                *line,
                "{agent} {url}: {result}"
            );
        }
    }
}

#[test]
fn every_output_and_standard_input() {
    let lab = Lab::generate(1_200, 9);
    let files = Files::new();
    files.write("robots.txt", lab.robots_txt);
    std::fs::create_dir(files.path().join("none")).unwrap();
    let output = crawlgate()
        .current_dir(files.path())
        .args([
            "audit",
            "-",
            "--robots",
            "robots.txt",
            "--ip-ranges",
            "none",
            "--no-dns",
            "--honeypot",
            "/trap/",
        ])
        .args([
            "-o",
            "rows.csv",
            "-o",
            "rows.jsonl",
            "-o",
            "report.html",
            "-o",
            "summary.json",
        ])
        .args(["--deny-list", "deny.conf", "--deny-format", "nginx"])
        .write_stdin(lab.log.clone())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let readable = lab.truth.iter().filter(|t| !t.unreadable).count();
    let csv = std::fs::read_to_string(files.path().join("rows.csv")).unwrap();
    assert_eq!(csv.lines().count(), readable + 1);
    assert!(
        csv.starts_with("file,line,time,ip,user_agent,crawler,identity,"),
        "{}",
        &csv[..200]
    );
    let jsonl = std::fs::read_to_string(files.path().join("rows.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), readable);
    let first: Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["file"], "<stdin>");
    let html = std::fs::read_to_string(files.path().join("report.html")).unwrap();
    assert!(
        html.contains("<svg")
            && html.contains("Violations by path")
            && html.contains("Verified and spoofed")
    );
    assert!(
        !html.contains("<script") && !html.contains("http://") && !html.contains("src="),
        "self-contained"
    );
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(files.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["requests"].as_u64(), Some(readable as u64));
    let deny = std::fs::read_to_string(files.path().join("deny.conf")).unwrap();
    assert!(
        deny.lines()
            .skip(1)
            .all(|l| l.starts_with("deny ") && l.contains(';')),
        "{deny}"
    );
    // `--json` prints the summary as JSON.
    let json = crawlgate()
        .current_dir(files.path())
        .args([
            "audit",
            "-",
            "--robots",
            "robots.txt",
            "--ip-ranges",
            "none",
            "--no-dns",
            "--json",
        ])
        .write_stdin(lab.log.clone())
        .output()
        .unwrap();
    let printed: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(printed["requests"], summary["requests"]);
}

#[test]
fn bad_arguments_say_what_was_wrong_and_exit_2() {
    let files = Files::new();
    files.write(
        "access.log",
        "1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"ua\"\n",
    );
    files.write("robots.txt", "User-agent: *\n");
    let long = "x".repeat(70_000);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["access.log"], "--robots"),
        (
            vec!["missing.log", "--robots", "robots.txt"],
            "cannot read the log missing.log",
        ),
        (
            vec!["access.log", "--robots", "missing.txt"],
            "cannot read the robots.txt missing.txt",
        ),
        (
            vec!["access.log", "--robots", "robots.txt", "--honeypot", "trap"],
            "a path starting with `/`",
        ),
        (
            vec!["access.log", "--robots", "robots.txt", "--format", "syslog"],
            "unknown log format `syslog`",
        ),
        (
            vec!["access.log", "--robots", "robots.txt", "--format", "nginx"],
            "--log-format",
        ),
        (
            vec!["access.log", "--robots", "robots.txt", "-o", "rows.xlsx"],
            "the extension says what to write",
        ),
        (
            vec![
                "access.log",
                "--robots",
                "robots.txt",
                "--deny-format",
                "iptables",
            ],
            "iptables",
        ),
        (
            vec![
                "access.log",
                "--robots",
                "robots.txt",
                "--trusted-proxy",
                "10.0.0.0/33",
            ],
            "not an IP prefix",
        ),
        (
            vec![
                "access.log",
                "--robots",
                "robots.txt",
                "--no-dns",
                "--resolver",
                "127.0.0.1:53",
            ],
            "contradict",
        ),
        (
            vec!["access.log", "--robots", "robots.txt", "--dns-timeout", "0"],
            "number of seconds",
        ),
        (
            vec![
                "access.log",
                "--robots",
                "robots.txt",
                "--ip-ranges",
                "nowhere",
            ],
            "not a folder",
        ),
        (
            vec!["access.log", "--robots", &long],
            "cannot read the robots.txt",
        ),
        (vec![&long, "--robots", "robots.txt"], "cannot read the log"),
        (
            vec!["-", "-", "--robots", "robots.txt"],
            "standard input (`-`) can be read once",
        ),
    ];
    for (args, says) in cases {
        let output = crawlgate()
            .current_dir(files.path())
            .arg("audit")
            .args(&args)
            .output()
            .unwrap();
        let error = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {error}");
        assert!(
            error.contains(says),
            "{:?}: {error}",
            &args
                .iter()
                .map(|a| &a[..a.len().min(40)])
                .collect::<Vec<_>>()
        );
        assert!(
            error.len() < 2_000,
            "the message is bounded: {} bytes",
            error.len()
        );
    }
}
