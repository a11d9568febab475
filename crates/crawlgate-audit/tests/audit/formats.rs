//! The same requests in every log format the audit reads give the same
//! rows: nginx and Apache format strings, JSON lines, Cloudflare Logpush,
//! W3C/IIS (its #Fields changing mid-file), gzip and zstd, standard input
//! aside; `--format auto` tells each.

use std::io::Write as _;

use crawlgate_audit::format::LogFormat;
use crawlgate_audit::time::format_rfc3339;
use crawlgate_test_support::access_log::{Lab, Truth, START};

use crate::support::{run_text, Kept};

fn requests(lab: &Lab) -> Vec<(u64, &Truth)> {
    lab.truth
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.unreadable)
        .map(|(i, t)| ((START + (i / 2) as i64) as u64 * 1000, t))
        .collect()
}

/// What must be equal whatever the format: address, agent, URL, time,
/// verdict, deciding line, violation, honeypot, breach, crawler.
type Essence = (
    String,
    String,
    Option<String>,
    Option<i64>,
    Option<bool>,
    Option<u32>,
    bool,
    bool,
    bool,
    Option<&'static str>,
);

/// What must be equal whatever the format.
fn essence(rows: &[Kept]) -> Vec<Essence> {
    rows.iter()
        .map(|r| {
            (
                r.ip.to_string(),
                r.user_agent.clone(),
                r.url.clone(),
                r.time,
                r.allowed,
                r.rule_line,
                r.violation,
                r.honeypot,
                r.breach,
                r.crawler,
            )
        })
        .collect()
}

fn status(t: &Truth) -> u16 {
    if t.allowed == Some(true) {
        200
    } else {
        403
    }
}

#[test]
fn every_format_gives_the_same_rows() {
    let lab = Lab::generate(800, 5);
    let requests = requests(&lab);
    let combined: String = lab
        .log
        .lines()
        .filter(|l| l.contains("\" "))
        .map(|l| format!("{l}\n"))
        .collect();
    let (_, reference) = run_text(&combined, None, lab.robots_txt);
    assert_eq!(reference.len(), requests.len());
    let expected = essence(&reference);

    let nginx_format =
        r#"$remote_addr [$time_iso8601] "$request" $status "$http_user_agent" $host"#;
    let nginx: String = requests
        .iter()
        .map(|(ms, t)| {
            format!(
                "{} [{}] \"GET {} HTTP/1.1\" {} \"{}\" example.com\n",
                t.ip.unwrap(),
                format_rfc3339(*ms as i64).replace('Z', "+00:00"),
                t.url,
                status(t),
                t.user_agent.replace('"', "\\x22")
            )
        })
        .collect();
    let format = LogFormat::named("nginx", Some(nginx_format), None).unwrap();
    let (_, rows) = run_text(&nginx, Some(format), lab.robots_txt);
    assert_eq!(essence(&rows), expected, "nginx");
    assert!(rows
        .iter()
        .all(|r| r.host.as_deref() == Some("example.com")));

    let apache_format = r#"%a %{sec}t "%m %U%q %H" %>s "%{User-Agent}i""#;
    let apache: String = requests
        .iter()
        .map(|(ms, t)| {
            let (path, query) = match t.url.split_once('?') {
                Some((p, q)) => (p.to_owned(), format!("?{q}")),
                None => (t.url.clone(), String::new()),
            };
            format!(
                "{} {} \"GET {path}{query} HTTP/1.1\" {} \"{}\"\n",
                t.ip.unwrap(),
                ms / 1000,
                status(t),
                t.user_agent
            )
        })
        .collect();
    let format = LogFormat::named("apache", Some(apache_format), None).unwrap();
    assert_eq!(
        essence(&run_text(&apache, Some(format), lab.robots_txt).1),
        expected,
        "apache"
    );

    let json: String = requests
        .iter()
        .map(|(ms, t)| {
            serde_json::json!({
                "remote_addr": t.ip.unwrap().to_string(),
                "time": format_rfc3339(*ms as i64),
                "request": format!("GET {} HTTP/1.1", t.url),
                "status": status(t),
                "http_user_agent": t.user_agent,
            })
            .to_string()
                + "\n"
        })
        .collect();
    let (summary, rows) = run_text(&json, None, lab.robots_txt);
    assert_eq!(summary.files[0].format, "json");
    assert_eq!(essence(&rows), expected, "json");

    let cloudflare: String = requests
        .iter()
        .map(|(ms, t)| {
            serde_json::json!({
                "ClientIP": t.ip.unwrap().to_string(),
                "ClientRequestHost": "example.com",
                "ClientRequestURI": t.url,
                "ClientRequestUserAgent": t.user_agent,
                "EdgeResponseStatus": status(t),
                "EdgeStartTimestamp": ms * 1_000_000,
            })
            .to_string()
                + "\n"
        })
        .collect();
    let (summary, rows) = run_text(&cloudflare, None, lab.robots_txt);
    assert_eq!(summary.files[0].format, "cloudflare");
    assert_eq!(essence(&rows), expected, "cloudflare");

    // W3C: the fields change order halfway; `+` for the agent's spaces.
    let mut w3c = String::from("#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status cs(User-Agent)\n");
    let half = requests.len() / 2;
    for (i, (ms, t)) in requests.iter().enumerate() {
        let when = format_rfc3339(*ms as i64);
        let (date, time) = (&when[..10], &when[11..19]);
        let (stem, query) = t.url.split_once('?').unwrap_or((&t.url, "-"));
        let agent = t.user_agent.replace(' ', "+");
        if i == half {
            w3c.push_str(
                "#Fields: c-ip date time cs(User-Agent) cs-uri-stem cs-uri-query sc-status\n",
            );
        }
        if i < half {
            w3c.push_str(&format!(
                "{date} {time} {} GET {stem} {query} {} {agent}\n",
                t.ip.unwrap(),
                status(t)
            ));
        } else {
            w3c.push_str(&format!(
                "{} {date} {time} {agent} {stem} {query} {}\n",
                t.ip.unwrap(),
                status(t)
            ));
        }
    }
    let (summary, rows) = run_text(&w3c, None, lab.robots_txt);
    assert_eq!(summary.files[0].format, "w3c");
    assert_eq!(summary.files[0].directives, 4);
    assert_eq!(summary.unreadable(), 0);
    // IIS writes an agent's spaces as `+`, so a `+` of the agent reads as a
    // space: lossy in the format itself; nothing else changes.
    let mut expected_w3c = expected.clone();
    expected_w3c
        .iter_mut()
        .for_each(|e| e.1 = e.1.replace('+', " "));
    assert_eq!(essence(&rows), expected_w3c, "w3c");
    // Line numbers count the directive lines.
    assert_eq!(rows[0].line, 4);
}

#[test]
fn compressed_logs_read_as_plain_ones() {
    let lab = Lab::generate(400, 9);
    let (_, plain) = run_text(&lab.log, None, lab.robots_txt);
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("access.log.gz");
    let mut encoder = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::fast(),
    );
    encoder.write_all(lab.log.as_bytes()).unwrap();
    encoder.finish().unwrap();
    let zst = dir.path().join("access.log.zst");
    std::fs::write(&zst, zstd::encode_all(lab.log.as_bytes(), 3).unwrap()).unwrap();
    let options = || {
        crate::support::options(
            lab.robots_txt,
            crawlgate_audit::identity::feeds::FeedSource::Mirror(dir.path().join("none")),
            None,
        )
    };
    let (summary, rows) = crate::support::run(options(), &[&gz, &zst]);
    assert_eq!(summary.files.len(), 2);
    assert_eq!(rows.len(), plain.len() * 2);
    assert_eq!(essence(&rows[..plain.len()]), essence(&plain));
    // Crawl-delay is measured across the logs (rotated parts of one log):
    // the second's first fetches follow the first's last.
    let without_breach = |rows: &[Kept]| {
        let mut rows = rows.to_vec();
        rows.iter_mut().for_each(|r| r.breach = false);
        essence(&rows)
    };
    assert_eq!(without_breach(&rows[plain.len()..]), without_breach(&plain));
    assert!(rows[plain.len()..].iter().all(|r| r.file == 1));
}
