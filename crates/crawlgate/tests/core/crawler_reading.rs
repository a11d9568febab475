//! `CrawlerRobotsTxt` (the file read for one crawler, as a stream) gives
//! exactly the whole file's view of that crawler: verdicts, deciding lines,
//! the groups chosen and their rules, the extension records a crawler acts
//! on, and the sitemaps.

use crate::common;

use crawlgate::{AgentView, CrawlerRobotsTxt, ExtensionKind, Profile, RobotsTxt, Who};
use crawlgate_test_support::Rng;

/// What a crawler reads off its view, apart from verdicts.
fn reading(view: &AgentView<'_>) -> String {
    let mut out = format!("{:?} {:?}\n", view.selection(), view.group_choice().kind());
    for group in view.groups() {
        out.push_str(&format!("group {}:", group.index()));
        for agent in group.user_agents() {
            out.push_str(&format!(" {:?}@{}", agent.value(), agent.line()));
        }
        out.push('\n');
        for rule in group.rules() {
            out.push_str(&format!(
                "  {:?} {:?} {:?} @{}\n",
                rule.kind(),
                rule.value(),
                rule.pattern(),
                rule.line()
            ));
        }
        for extension in group.extensions() {
            // The crawler's reading keeps the records crawlers act on.
            if extension.kind() != ExtensionKind::Unknown {
                out.push_str(&format!(
                    "  {:?} {:?} @{}\n",
                    extension.kind(),
                    extension.value(),
                    extension.line()
                ));
            }
        }
    }
    out.push_str(&format!(
        "{:?} {:?} {:?} {:?}\n",
        view.crawl_delay(),
        view.request_rate(),
        view.visit_time(),
        view.content_signal()
    ));
    for sitemap in view.sitemaps() {
        out.push_str(&format!("sitemap {:?}@{}\n", sitemap.url(), sitemap.line()));
    }
    out
}

fn same(bytes: &[u8], profile: Profile, who: Who<'_>, urls: &[&str]) -> Result<(), String> {
    let whole = RobotsTxt::parse_with(bytes, profile);
    let model = whole.view(who);
    let kept = CrawlerRobotsTxt::parse_with(bytes, profile, who);
    let view = kept.view();
    let report = |what: String| {
        Err(format!(
            "[{}] {who:?}: {what}\n{:?}",
            profile.name,
            String::from_utf8_lossy(bytes)
        ))
    };
    let (expected, got) = (reading(&model), reading(&view));
    if expected != got {
        return report(format!("whole file:\n{expected}crawler's reading:\n{got}"));
    }
    for url in urls {
        let (a, b) = (model.decide(url), kept.decide(url));
        let rule = |v: &crawlgate::Verdict<'_>| v.rule().map(|r| (r.kind(), r.value().to_owned()));
        let a_key = (
            a.is_allowed(),
            a.reason(),
            a.line(),
            rule(&a),
            a.via_index_alias(),
        );
        let b_key = (
            b.is_allowed(),
            b.reason(),
            b.line(),
            rule(&b),
            b.via_index_alias(),
        );
        if a_key != b_key {
            return report(format!(
                "{url:?}: whole file {a_key:?}, crawler's reading {b_key:?}"
            ));
        }
    }
    Ok(())
}

#[test]
fn generated_files_read_as_the_whole_file_does() {
    let mut rng = Rng::new(91);
    let mut failures = Vec::new();
    for _ in 0..20_000 {
        let (bytes, patterns) = common::gen_robots(&mut rng);
        let urls: Vec<String> = (0..3)
            .map(|_| common::gen_url(&mut rng, &patterns))
            .collect();
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        let agent = rng.pick(common::AGENTS);
        for profile in Profile::ALL {
            for who in [Who::token(agent), Who::crawler(agent)] {
                if let Err(e) = same(&bytes, profile, who, &urls) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements, first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn corpus_files_read_as_the_whole_file_does() {
    let mut rng = Rng::new(92);
    let mut checks = 0;
    for (name, bytes) in common::corpus_files() {
        let robots = RobotsTxt::parse(&bytes);
        let urls = common::corpus_urls(&name, &robots, 4, &mut rng);
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        // A token the file names, one it does not, and crawlers read by
        // their operators' rules (fallback tokens, Bing's reading).
        let named: Vec<String> = robots
            .user_agents()
            .map(|u| u.token().to_owned())
            .filter(|t| !t.is_empty())
            .take(1)
            .collect();
        let mut whos: Vec<(Who<'_>, Profile)> = named
            .iter()
            .map(|t| (Who::token(t), Profile::GOOGLE))
            .collect();
        whos.push((Who::token("crawlgatebot"), Profile::GOOGLE));
        for name in ["Googlebot-Image", "Applebot", "GPTBot"] {
            whos.push((Who::crawler(name), Profile::GOOGLE));
        }
        let bingbot = Who::crawler("bingbot");
        whos.push((bingbot, bingbot.profile()));
        for (who, profile) in whos {
            checks += urls.len();
            if let Err(e) = same(&bytes, profile, who, &urls) {
                panic!("{name}: {e}");
            }
        }
    }
    assert!(checks > 100_000, "{checks}");
}

#[test]
fn only_the_crawlers_groups_keep_their_rules() {
    let body = b"User-agent: a\nDisallow: /a\nCrawl-delay: 5\n\nUser-agent: b\nUser-agent: *\nDisallow: /star\n\nUser-agent: c\nDisallow: /c\nSitemap: https://example.com/s.xml\n";
    let robots = CrawlerRobotsTxt::parse(body, "c");
    let read = robots.view().robots();
    // Every group and user-agent line is kept: group numbers are the file's.
    assert_eq!(read.groups().len(), 3);
    assert_eq!(read.user_agents().count(), 4);
    // The `*` group (shared with b) and c's keep their rules; a's are gone.
    let rules: Vec<&str> = read.rules().map(|r| r.value()).collect();
    assert_eq!(rules, ["/star", "/c"]);
    assert_eq!(read.extensions().count(), 0);
    // A sitemap in a skipped group is the file's.
    let sitemaps: Vec<&str> = robots.view().sitemaps().map(|s| s.url()).collect();
    assert_eq!(sitemaps, ["https://example.com/s.xml"]);
    assert!(read.diagnostics().is_empty());
    assert!(!robots.is_allowed("/c/x"));
    assert!(robots.is_allowed("/a/x"));
    assert_eq!(
        robots.decide("/c/x").groups().next().map(|g| g.index()),
        Some(2)
    );
}
