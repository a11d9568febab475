//! The lab: a combined log with known truth, feeds from a mirror (a folder,
//! then a loopback HTTP server), a real DNS server on loopback with
//! forged, double and silent PTR records. Identity, verdict and violation
//! right on every line; unreadable lines counted; Crawl-delay breaches for
//! Bingbot and none for Googlebot; the deny list exact.

use std::collections::BTreeSet;
use std::time::Instant;

use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_test_support::access_log::Lab;
use crawlgate_testserver::{Reply, TestServer};

use crate::support::{dns_server, on_disk, options, run, Kept};

fn check_rows(lab: &Lab, rows: &[Kept]) {
    let readable: Vec<(usize, &crawlgate_test_support::access_log::Truth)> = lab
        .truth
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.unreadable)
        .collect();
    assert_eq!(rows.len(), readable.len());
    for (row, (index, truth)) in rows.iter().zip(readable) {
        let at = format!("line {}: {row:?}", index + 1);
        assert_eq!(row.line, index as u64 + 1, "{at}");
        assert_eq!(Some(row.ip), truth.ip, "{at}");
        assert_eq!(row.user_agent, truth.user_agent, "{at}");
        assert_eq!(row.url.as_deref(), Some(truth.url.as_str()), "{at}");
        assert_eq!(row.crawler, truth.crawler, "{at}");
        assert_eq!(row.identity, truth.identity, "{at}");
        assert_eq!(row.allowed, truth.allowed, "{at}");
        assert_eq!(row.rule_line, truth.rule_line, "{at}");
        assert_eq!(row.violation, truth.violation, "{at}");
        assert_eq!(row.honeypot, truth.honeypot, "{at}");
        assert_eq!(row.breach, truth.crawl_delay_breach, "{at}");
    }
}

#[test]
fn every_line_right_with_a_mirror_folder_and_loopback_dns() {
    let lab = Lab::generate(6_000, 38);
    let disk = on_disk(&lab);
    let dns = dns_server(&lab);
    let started = Instant::now();
    let (summary, rows) = run(
        options(
            lab.robots_txt,
            FeedSource::Mirror(disk.mirror.clone()),
            Some(&dns),
        ),
        &[&disk.log],
    );
    // The silent PTR costs one timeout (1 s), once.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    check_rows(&lab, &rows);
    let unreadable = lab.truth.iter().filter(|t| t.unreadable).count() as u64;
    assert_eq!(summary.unreadable(), unreadable);
    assert_eq!(summary.files[0].lines, 6_000);
    assert_eq!(summary.files[0].format, "combined");
    let deny: BTreeSet<_> = summary.deny_list().into_iter().map(|(ip, _)| ip).collect();
    assert_eq!(deny, lab.deny);
    let bing = &summary.crawlers["Bingbot"];
    assert!(bing.crawl_delay_breaches > 0);
    assert_eq!(bing.crawl_delay, Some(5.0));
    let google = &summary.crawlers["Googlebot"];
    assert_eq!(google.crawl_delay_breaches, 0);
    assert_eq!(google.crawl_delay, None);
    // Each address was asked once (the silent one too), whatever the
    // number of its requests.
    assert!(dns.queries() < 40, "{} DNS queries", dns.queries());
    assert!(summary.warnings.is_empty(), "{:?}", summary.warnings);
    // The reasons say what happened.
    let why = |ip: &str| {
        rows.iter()
            .find(|r| r.ip.to_string() == ip)
            .unwrap()
            .identity_why
            .clone()
            .unwrap()
    };
    assert!(
        why("203.0.113.10").contains("has no address record: a forged PTR"),
        "{}",
        why("203.0.113.10")
    );
    assert!(
        why("203.0.113.13").contains("does not resolve back"),
        "{}",
        why("203.0.113.13")
    );
    assert!(
        why("203.0.113.11").contains("timed out"),
        "{}",
        why("203.0.113.11")
    );
    assert!(
        why("66.249.90.8").contains("crawl-66-249-90-8.googlebot.com"),
        "{}",
        why("66.249.90.8")
    );
    assert!(
        why("66.249.64.1").contains("common-crawlers.json"),
        "{}",
        why("66.249.64.1")
    );
}

#[test]
fn feeds_from_a_loopback_http_mirror() {
    let lab = Lab::generate(1_500, 7);
    let disk = on_disk(&lab);
    let routes: Vec<(String, Reply)> = lab
        .feeds
        .iter()
        .map(|(url, body)| {
            (
                format!("/mirror/{}", url.strip_prefix("https://").unwrap()),
                Reply::ok(body),
            )
        })
        .collect();
    let server = TestServer::start(routes.iter().map(|(p, r)| (p.as_str(), r.clone())));
    let dns = dns_server(&lab);
    let feeds = FeedSource::from_arg(&server.url("/mirror/"));
    let (summary, rows) = run(options(lab.robots_txt, feeds, Some(&dns)), &[&disk.log]);
    check_rows(&lab, &rows);
    // Each feed fetched once; the old Google address never.
    assert_eq!(
        server.hits("/mirror/developers.google.com/static/crawling/ipranges/common-crawlers.json"),
        1
    );
    assert_eq!(
        server.hits("/mirror/developers.google.com/static/search/apis/ipranges/googlebot.json"),
        0
    );
    assert!(
        summary.feeds.iter().all(|f| f.error.is_none()),
        "{:?}",
        summary.feeds
    );
}

#[test]
fn no_dns_leaves_dns_only_crawlers_unknown() {
    let lab = Lab::generate(1_000, 3);
    let disk = on_disk(&lab);
    let (_, rows) = run(
        options(
            lab.robots_txt,
            FeedSource::Mirror(disk.mirror.clone()),
            None,
        ),
        &[&disk.log],
    );
    for row in &rows {
        let feed_verified = row
            .identity_why
            .as_deref()
            .is_some_and(|w| w.contains(".json") && row.identity == Some("verified"));
        match row.crawler {
            Some("YandexBot") => assert_eq!(row.identity, Some("unknown"), "{row:?}"),
            Some("Googlebot") if !feed_verified => {
                assert_eq!(row.identity, Some("unknown"), "{row:?}")
            }
            Some("GPTBot") if row.ip.to_string() == "198.51.100.20" => {
                assert_eq!(row.identity, Some("spoofed"))
            }
            _ => {}
        }
    }
}
