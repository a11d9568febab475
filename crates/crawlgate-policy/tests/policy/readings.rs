//! Each crawler's own reading: the proof, `--explain`'s rows and a merge
//! read every registry crawler by the profile `crawlgate check --agent
//! NAME` reads it by (Bing's rules for bingbot, Yandex's for YandexBot),
//! checked here against `crawlgate_answers`' decide, as the CLI asks it.

use crawlgate::{registry, Profile, Reading, RobotsTxt, Who};
use crawlgate_answers::RobotsSource;
use crawlgate_policy::{merge, write, ExplainRow, Written};

use crate::bar::{bar_policy, AI_TRAINING, SEARCH};

/// A file Google and Bing read differently: Bing ends a group at a
/// `User-agent` line after `Crawl-delay`, so bingbot's group is the first
/// (no rule: everything allowed), where Google reads one group of
/// bingbot, Googlebot and `*` that disallows everything.
pub const BING_DIFFERS: &[u8] =
    b"User-agent: bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";

/// What `crawlgate check --agent NAME FILE URL` answers: the crawler
/// reading, by the profile chosen for the crawler.
fn check(file: &[u8], name: &str, url: &str) -> bool {
    let profile = Reading::Crawler.profile_for(name, None);
    RobotsSource::from_bytes(file.to_vec())
        .read(profile)
        .decide(Who::crawler(name), url)
        .allowed
}

/// Every row's verdict at `/` equals `check`'s, and its profile is the
/// one chosen for the crawler.
fn rows_agree_with_check(written: &Written) -> Vec<ExplainRow> {
    let rows = written.explain_rows();
    assert_eq!(rows.len(), written.intents.len());
    for row in &rows {
        let crawler = registry::find(&row.crawler).unwrap();
        assert_eq!(
            row.profile,
            Reading::Crawler.profile_for(crawler.name, None).name,
            "{}",
            row.crawler
        );
        assert_eq!(
            row.allowed,
            check(&written.robots_txt, crawler.name, "/"),
            "{}: the table says {}, check says otherwise",
            row.crawler,
            row.allowed
        );
    }
    rows
}

#[test]
fn the_bar_is_proven_by_each_crawlers_own_reading() {
    let written = write(&bar_policy()).unwrap();
    assert!(written.proof.holds(), "{:?}", written.proof.failures);
    let rows = rows_agree_with_check(&written);
    let row = |name: &str| rows.iter().find(|r| r.crawler == name).unwrap().clone();
    assert_eq!(row("Bingbot").profile, "bing");
    assert_eq!(row("YandexBot").profile, "yandex");
    assert_eq!(row("Googlebot").profile, "google");
    for name in SEARCH {
        assert!(check(&written.robots_txt, name, "/"), "{name}");
    }
    for name in AI_TRAINING {
        let crawler = registry::find(name).unwrap();
        if crawler.runs() {
            assert!(!check(&written.robots_txt, name, "/page"), "{name}");
        }
    }
    // The text table says which rows another profile read.
    let text = written.explain();
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_owned()
    };
    assert!(line("Bingbot ").contains("(bing)"), "{}", line("Bingbot "));
    assert!(
        line("YandexBot ").contains("(yandex)"),
        "{}",
        line("YandexBot ")
    );
    assert!(!line("Googlebot ").contains("(google)"));
}

#[test]
fn a_merge_keeps_bingbots_verdicts_as_bing_reads_them() {
    // The two readings differ on the site's file.
    let google = RobotsTxt::parse_with(BING_DIFFERS, Profile::GOOGLE);
    assert!(!google.view(Who::crawler("bingbot")).is_allowed("/page"));
    assert!(check(BING_DIFFERS, "bingbot", "/page"));
    assert!(!check(BING_DIFFERS, "Googlebot", "/page"));

    let merged = merge(&bar_policy(), BING_DIFFERS).unwrap();
    assert!(merged.proof.holds(), "{:?}", merged.proof.failures);
    let file = &merged.robots_txt;
    for url in ["/", "/page", "/private/x"] {
        assert_eq!(
            check(file, "bingbot", url),
            check(BING_DIFFERS, "bingbot", url),
            "bingbot {url}\n{}",
            merged.text()
        );
        assert_eq!(
            check(file, "Googlebot", url),
            check(BING_DIFFERS, "Googlebot", url),
            "Googlebot {url}"
        );
    }
    assert!(!check(file, "GPTBot", "/page"));
    rows_agree_with_check(&merged);
}

#[test]
fn every_crawlers_row_is_what_check_answers_on_a_merge() {
    // A site with groups for Yandex and Bing that another reading would
    // read otherwise: Yandex's parser ends a group at a blank line
    // between two user-agent lines.
    let site = b"User-agent: Yandex\n\nUser-agent: bingbot\nDisallow: /no-bing/\n\nUser-agent: *\nDisallow: /tmp/\n";
    let merged = merge(&bar_policy(), site).unwrap();
    assert!(merged.proof.holds(), "{:?}", merged.proof.failures);
    rows_agree_with_check(&merged);
    for (name, url) in [
        ("YandexBot", "/no-bing/x"),
        ("YandexBot", "/tmp/x"),
        ("bingbot", "/no-bing/x"),
        ("bingbot", "/tmp/x"),
    ] {
        assert_eq!(
            check(&merged.robots_txt, name, url),
            check(site, name, url),
            "{name} {url}"
        );
    }
}

/// A copied list that blocks Applebot (Apple's search crawler) beside the
/// AI crawlers, merged with `--search allow`: Applebot stays out (`allow`
/// keeps the site's own rules), as `check` says, and the merge says so
/// and where; crawlers the file does not name get no such note.
#[test]
fn a_merge_says_which_let_in_crawlers_the_sites_own_groups_keep_out() {
    let site = b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: Applebot\nDisallow: /\n\nUser-agent: *\nDisallow: /login\n";
    let merged = merge(&bar_policy(), site).unwrap();
    assert!(!check(&merged.robots_txt, "Applebot", "/"));
    let notes: Vec<&String> = merged
        .notes
        .iter()
        .filter(|n| n.contains("stays shut out"))
        .collect();
    assert_eq!(notes.len(), 1, "{:#?}", merged.notes);
    assert!(
        notes[0].starts_with("Applebot (") && notes[0].contains("(line 5)"),
        "{}",
        notes[0]
    );
    assert!(notes[0].contains("search allow"), "{}", notes[0]);
    for name in ["Googlebot", "bingbot"] {
        assert!(check(&merged.robots_txt, name, "/"), "{name}");
    }
}
