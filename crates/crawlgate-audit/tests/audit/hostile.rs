//! Bad input gets a clear word and nothing is lost: garbage, binary junk,
//! a 1 MB line, 70,000-character URLs and agents, 100,000 lines, a log out
//! of time order, feeds that are not JSON or hold no prefixes, a DNS
//! server that never answers (a bounded wait); and time linear in the log.

use std::net::UdpSocket;
use std::time::{Duration, Instant};

use crawlgate_audit::audit::{Audit, NoRows};
use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::input::LogSource;
use crawlgate_test_support::access_log::{clf_time, Lab, START};

use crate::support::{options, run, run_text};

fn line(ip: &str, t: i64, url: &str, ua: &str) -> String {
    format!(
        "{ip} - - [{}] \"GET {url} HTTP/1.1\" 200 10 \"-\" \"{ua}\"\n",
        clf_time(t)
    )
}

#[test]
fn junk_is_counted_with_its_line_numbers() {
    let mut log = line("192.0.2.1", START, "/a", "curl/8");
    log.push_str(&"x".repeat(1 << 20));
    log.push('\n');
    log.push_str("\u{0}\u{1}\u{2}\n");
    log.push_str(&format!(
        "{}\n",
        String::from_utf8_lossy(&[0xff, 0xfe, 0x41])
    ));
    log.push_str(&line(
        "192.0.2.2",
        START + 1,
        &format!("/{}", "u".repeat(70_000)),
        "curl/8",
    ));
    log.push_str(&line("192.0.2.3", START + 2, "/b", &"A".repeat(70_000)));
    log.push_str(&line(
        "192.0.2.4",
        START + 3,
        &format!("/{}", "v".repeat(60_000)),
        "curl/8",
    ));
    log.push_str(
        "host.example - - [20/Nov/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"\n",
    );
    log.push_str(&line(
        "192.0.2.5",
        START + 4,
        "/c",
        "Mozilla/5.0 (compatible; Googlebot/2.1)",
    ));
    let (summary, rows) = run_text(&log, None, "User-agent: *\nDisallow: /c\n");
    let file = &summary.files[0];
    assert_eq!(file.lines, 9);
    assert_eq!(rows.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 7, 9]);
    assert_eq!(file.unreadable, 6);
    let numbers: Vec<u64> = file.first_unreadable.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, [2, 3, 4, 5, 6, 8]);
    assert!(
        file.first_unreadable[0]
            .1
            .contains("longer than 64 KiB (1048576 bytes)"),
        "{:?}",
        file.first_unreadable
    );
    assert!(
        file.first_unreadable[5].1.contains("not an IP address"),
        "{:?}",
        file.first_unreadable
    );
    // The 60,000-character URL is judged like any other.
    assert_eq!(rows[1].allowed, Some(true));
    assert_eq!(rows[2].allowed, Some(false));
}

#[test]
fn a_hundred_thousand_lines_and_out_of_order_times() {
    let mut log = String::with_capacity(100_000 * 90);
    for i in 0..100_000i64 {
        // Every 1000th line goes back in time.
        let t = if i % 1000 == 999 { START } else { START + i };
        if i % 10_000 == 5 {
            log.push_str("not a log line\n");
        } else {
            log.push_str(&line(
                "198.51.100.7",
                t,
                &format!("/p{}", i % 97),
                "Mozilla/5.0 (compatible; bingbot/2.0)",
            ));
        }
    }
    let (summary, rows) = run_text(&log, None, "User-agent: *\nCrawl-delay: 3\nDisallow: /p1\n");
    assert_eq!(rows.len() as u64 + summary.unreadable(), 100_000);
    assert_eq!(summary.unreadable(), 10);
    assert_eq!(summary.out_of_order, 100);
    // No feed was available (the mirror is empty): Bing is not proved.
    assert_eq!(summary.crawlers["Bingbot"].unknown, rows.len() as u64);
    assert!(
        summary.warnings.iter().any(|w| w.contains("bingbot.json")),
        "{:?}",
        summary.warnings
    );
}

#[test]
fn feeds_that_are_not_feeds_are_errors() {
    let lab = Lab::generate(300, 11);
    let disk = crate::support::on_disk(&lab);
    let common = disk
        .mirror
        .join("developers.google.com/static/crawling/ipranges/common-crawlers.json");
    // The shape of Google's old address since 2026-04-07: no prefixes.
    std::fs::write(&common, r#"{"creationTime":"2026-04-07T00:00:00.000000"}"#).unwrap();
    std::fs::write(
        disk.mirror.join("www.bing.com/toolbox/bingbot.json"),
        "<html>not json",
    )
    .unwrap();
    let (summary, rows) = run(
        options(
            lab.robots_txt,
            FeedSource::Mirror(disk.mirror.clone()),
            None,
        ),
        &[&disk.log],
    );
    let warnings = summary.warnings.join("\n");
    assert!(
        warnings.contains("common-crawlers.json") && warnings.contains("has no `prefixes`"),
        "{warnings}"
    );
    assert!(
        warnings.contains("bingbot.json") && warnings.contains("is not JSON"),
        "{warnings}"
    );
    // Never an empty list: nobody is verified or spoofed by those feeds.
    for row in rows
        .iter()
        .filter(|r| matches!(r.crawler, Some("Googlebot" | "Bingbot")))
    {
        assert_eq!(row.identity, Some("unknown"), "{row:?}");
    }
}

#[test]
fn a_dns_server_that_never_answers_costs_a_bounded_wait() {
    // A UDP socket nobody reads: queries vanish.
    let hole = UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut log = String::new();
    for i in 0..40 {
        log.push_str(&line(
            &format!("203.0.113.{}", i + 1),
            START + i,
            "/",
            "Mozilla/5.0 (compatible; YandexBot/3.0)",
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("access.log");
    std::fs::write(&path, &log).unwrap();
    let mut options = options(
        "User-agent: *\n",
        FeedSource::Mirror(dir.path().join("none")),
        None,
    );
    options.verify.dns = Some(DnsConfig {
        server: Some(hole.local_addr().unwrap()),
        timeout: Duration::from_millis(500),
        concurrency: 64,
    });
    let audit = Audit::new(options).unwrap();
    let started = Instant::now();
    let summary = audit.run(&[LogSource::File(path)], &mut NoRows).unwrap();
    let took = started.elapsed();
    // 40 addresses asked at once: one timeout, not forty.
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(summary.crawlers["YandexBot"].unknown, 40);
}

/// Time grows with the log, not faster: 4 times the lines take at most 6
/// times as long (sizes interleaved, the best of three each).
#[test]
fn time_is_linear_in_the_log() {
    let small = Lab::generate(20_000, 1);
    let big = Lab::generate(80_000, 1);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, lab: &Lab| {
        let path = dir.path().join(name);
        std::fs::write(&path, &lab.log).unwrap();
        path
    };
    let (small_path, big_path) = (write("small.log", &small), write("big.log", &big));
    let audit = Audit::new(options(
        small.robots_txt,
        FeedSource::Mirror(dir.path().join("none")),
        None,
    ))
    .unwrap();
    let time = |path: &std::path::Path| {
        let started = Instant::now();
        audit
            .run(&[LogSource::File(path.to_owned())], &mut NoRows)
            .unwrap();
        started.elapsed()
    };
    let (mut best_small, mut best_big) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        best_small = best_small.min(time(&small_path));
        best_big = best_big.min(time(&big_path));
    }
    assert!(best_big < best_small * 6, "{best_small:?} → {best_big:?}");
}
