//! Each crawler judged by the reading `crawlgate check` gives it: bingbot
//! by Bing's rules, YandexBot by Yandex's, Googlebot and unknown agents by
//! Google's, unless a profile is named; for one file, a fetched file,
//! dated versions and one file per host.

use std::path::Path;
use std::time::SystemTime;

use crawlgate::{Profile, Reading, Who};
use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, RobotsSource};
use crawlgate_audit::format::LogFormat;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::robots::{self, RobotsInForce, Site};
use crawlgate_test_support::readings::{combined_line, AGENTS, EARLIER, LATER, URLS};

use crate::support::{options, run, Kept};

/// `check`'s verdict (allowed, deciding line) on `url` for `agent` under
/// `source`, by the profile `profile_for` gives.
fn check(
    source: &RobotsSource,
    agent: &str,
    named: Option<Profile>,
    url: &str,
) -> (bool, Option<u32>) {
    let profile = Reading::Crawler.profile_for(agent, named);
    let verdict = source.read(profile).decide(Who::crawler(agent), url);
    (verdict.allowed, verdict.line())
}

/// A log of every agent fetching every URL, once per time.
fn log(times: &[&str], host: Option<&str>) -> String {
    let mut text = String::new();
    for time in times {
        for agent in AGENTS {
            for url in URLS {
                if let Some(host) = host {
                    text.push_str(host);
                    text.push_str(":443 ");
                }
                text.push_str(&combined_line("192.0.2.7", time, url, agent));
                text.push('\n');
            }
        }
    }
    text
}

fn audit(
    dir: &Path,
    text: &str,
    format: LogFormat,
    robots: RobotsInForce,
    named: Option<Profile>,
) -> Vec<Kept> {
    let path = dir.join(format!("access-{}.log", text.len()));
    std::fs::write(&path, text).unwrap();
    let mut options = options("", FeedSource::Mirror(dir.join("none")), None);
    options.format = Some(format);
    options.robots = robots;
    options.profile = named;
    let (summary, rows) = run(options, &[&path]);
    assert_eq!(summary.unreadable(), 0);
    assert_eq!(rows.len(), text.lines().count());
    rows
}

/// Every row's verdict is `check`'s on the source `expected` gives for it;
/// returns how many differ from Google's reading of that source.
fn assert_checks(
    rows: &[Kept],
    named: Option<Profile>,
    expected: impl Fn(&Kept) -> (&'static str, RobotsSource),
) -> usize {
    let mut differ = 0;
    for row in rows {
        let (label, source) = expected(row);
        let (agent, url) = (row.user_agent.as_str(), row.url.as_deref().unwrap());
        let want = check(&source, agent, named, url);
        assert_eq!(
            (row.allowed, row.rule_line),
            (Some(want.0), want.1),
            "line {}: {agent} {url} ({label})",
            row.line
        );
        assert!(
            row.robots_version
                .as_deref()
                .is_some_and(|v| v.contains(label)),
            "line {}: judged by {:?}, not {label}",
            row.line,
            row.robots_version
        );
        differ += usize::from(check(&source, agent, Some(Profile::GOOGLE), url) != want);
    }
    differ
}

#[test]
fn one_file_and_a_fetched_one_each_crawler_by_its_reading() {
    let dir = tempfile::tempdir().unwrap();
    let text = log(&["27/Nov/2026:10:00:00 +0000"], None);
    let bytes = || RobotsSource::from_bytes(EARLIER.as_bytes().to_vec());
    let fetched = || {
        let result = FetchResult::Response(HttpResponse::new(200).with_body(EARLIER));
        let (outcome, _) = FetchPolicy::default().apply(&result, None, SystemTime::now());
        RobotsSource::fetched(outcome)
    };
    for (name, source) in [
        ("robots.txt", bytes as fn() -> RobotsSource),
        ("https://example.com/robots.txt", fetched),
    ] {
        let rows = audit(
            dir.path(),
            &text,
            LogFormat::combined(),
            RobotsInForce::One(Site::single(name, source())),
            None,
        );
        // bingbot on /shared and /no-colon, YandexBot on /no-colon.
        assert_eq!(assert_checks(&rows, None, |_| (name_of(name), source())), 3);
        let bingbot = |url: &str| {
            rows.iter()
                .find(|r| r.user_agent == AGENTS[0] && r.url.as_deref() == Some(url))
                .unwrap()
                .clone()
        };
        // Bing's reading: bingbot's group has no rules, so no violation.
        let shared = bingbot("/shared/page");
        assert_eq!((shared.allowed, shared.violation), (Some(true), false));
        // Named: every crawler by it.
        let google = audit(
            dir.path(),
            &text,
            LogFormat::combined(),
            RobotsInForce::One(Site::single(name, source())),
            Some(Profile::GOOGLE),
        );
        assert_eq!(
            assert_checks(&google, Some(Profile::GOOGLE), |_| (
                name_of(name),
                source()
            )),
            0
        );
        assert_eq!(
            google.iter().filter(|r| r.allowed == Some(false)).count(),
            8
        );
    }
}

fn name_of(name: &str) -> &'static str {
    if name.starts_with("https:") {
        "https://example.com/robots.txt"
    } else {
        "robots.txt"
    }
}

#[test]
fn dated_versions_and_one_file_per_host_each_crawler_by_its_reading() {
    let dir = tempfile::tempdir().unwrap();
    let versions = dir.path().join("versions");
    std::fs::create_dir(&versions).unwrap();
    std::fs::write(versions.join("2026-11-20T00-00-00Z.txt"), EARLIER).unwrap();
    std::fs::write(versions.join("2026-11-25T00-00-00Z.txt"), LATER).unwrap();
    // Before the change, and two days after it (past the grace).
    let times = ["22/Nov/2026:10:00:00 +0000", "27/Nov/2026:10:00:00 +0000"];
    let by_time = |row: &Kept| {
        if row.time.unwrap() < 1_795_564_800_000 {
            (
                "2026-11-20T00-00-00Z.txt",
                RobotsSource::from_bytes(EARLIER.into()),
            )
        } else {
            (
                "2026-11-25T00-00-00Z.txt",
                RobotsSource::from_bytes(LATER.into()),
            )
        }
    };
    let rows = audit(
        dir.path(),
        &log(&times, None),
        LogFormat::combined(),
        RobotsInForce::One(robots::read_versions(&versions).unwrap()),
        None,
    );
    // 3 in the earlier version; bingbot on /shared and /later, YandexBot on
    // /no-colon in the later.
    assert_eq!(assert_checks(&rows, None, by_time), 6);

    // One file per host: a.test one file, b.test the dated versions.
    let sites = dir.path().join("sites");
    std::fs::create_dir_all(sites.join("b.test")).unwrap();
    std::fs::write(sites.join("a.test.txt"), LATER).unwrap();
    for name in ["2026-11-20T00-00-00Z.txt", "2026-11-25T00-00-00Z.txt"] {
        std::fs::copy(versions.join(name), sites.join("b.test").join(name)).unwrap();
    }
    let text = log(&times, Some("a.test")) + &log(&times, Some("b.test"));
    let rows = audit(
        dir.path(),
        &text,
        LogFormat::named("vhost_combined", None, None).unwrap(),
        robots::read_per_host(&sites).unwrap(),
        None,
    );
    let by_host = |row: &Kept| match row.host.as_deref() {
        Some(h) if h.starts_with("a.test") => {
            ("a.test.txt", RobotsSource::from_bytes(LATER.into()))
        }
        _ => by_time(row),
    };
    assert_eq!(assert_checks(&rows, None, by_host), 6 + 3 + 3);
    let named = audit(
        dir.path(),
        &text,
        LogFormat::named("vhost_combined", None, None).unwrap(),
        robots::read_per_host(&sites).unwrap(),
        Some(Profile::YANDEX),
    );
    assert!(assert_checks(&named, Some(Profile::YANDEX), by_host) > 0);
}
