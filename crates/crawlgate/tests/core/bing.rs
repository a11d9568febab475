//! The bing profile: Google's matching with Bing's group boundaries
//! (`Crawl-delay` is a group member) and Bing's crawl-delay range.

use crawlgate::{decide_once_with, Profile, RobotsTxt, SelectionKind};

/// The example: Google merges lines 1–4 into one group; Bing ends
/// Bingbot's group at its `Crawl-delay`.
const EXAMPLE: &[u8] = b"User-agent: Bingbot\n\
User-agent: Googlebot\n\
Crawl-delay: 1\n\
User-agent: *\n\
Crawl-delay: 30\n\
Disallow: /\n";

fn group_lines(robots: &RobotsTxt, agent: &str) -> Vec<u32> {
    robots.groups_of(agent).map(|g| g.first_line()).collect()
}

#[test]
fn the_example_reads_differently() {
    let google = RobotsTxt::parse_with(EXAMPLE, Profile::GOOGLE);
    let bing = RobotsTxt::parse_with(EXAMPLE, Profile::BING);
    assert_eq!(google.groups().len(), 1);
    assert_eq!(bing.groups().len(), 2);
    for agent in ["Bingbot", "Googlebot"] {
        assert!(!google.is_allowed(agent, "/page"), "{agent}");
        assert!(bing.is_allowed(agent, "/page"), "{agent}");
        assert_eq!(group_lines(&bing, agent), [1]);
    }
    // A crawler without a group of its own gets `*` in both readings.
    assert!(!bing.is_allowed("otherbot", "/page"));
    assert_eq!(group_lines(&bing, "otherbot"), [4]);
    let delay = bing.view("bingbot").crawl_delay().unwrap();
    assert_eq!((delay.seconds, delay.line), (1.0, 3));
    assert_eq!(bing.view("otherbot").crawl_delay().unwrap().line, 5);
    // Google's reading: one group, the first delay for everyone.
    assert_eq!(google.view("bingbot").crawl_delay().unwrap().line, 3);
}

#[test]
fn blank_lines_and_comments_between_the_lines_change_nothing() {
    let variants: [&[u8]; 3] = [
        b"User-agent: Bingbot\n\nUser-agent: Googlebot\n\nCrawl-delay: 1\n\n\
          User-agent: *\nCrawl-delay: 30\nDisallow: /\n",
        b"User-agent: Bingbot # Bing\n# Google too\nUser-agent: Googlebot\n\
          Crawl-delay: 1 # seconds\n# everyone else\nUser-agent: *\nDisallow: /\n",
        b"USER-AGENT: Bingbot\r\nuser-agent: Googlebot\r\ncrawl-delay: 1\r\n\r\n\
          User-agent: *\r\nDisallow: /\r\n",
    ];
    for body in variants {
        let text = String::from_utf8_lossy(body);
        let google = RobotsTxt::parse_with(body, Profile::GOOGLE);
        let bing = RobotsTxt::parse_with(body, Profile::BING);
        assert!(!google.is_allowed("bingbot", "/page"), "{text}");
        assert!(bing.is_allowed("bingbot", "/page"), "{text}");
        assert!(bing.is_allowed("googlebot", "/page"), "{text}");
        assert!(!bing.is_allowed("otherbot", "/page"), "{text}");
    }
}

/// Only `Crawl-delay` is a group member for Bing: the other extension
/// lines, which Bing does not document reading, end nothing, as for Google.
#[test]
fn other_extension_lines_do_not_end_a_group() {
    for line in [
        "Request-rate: 1/5",
        "Visit-time: 0600-0845",
        "Host: example.com",
        "Clean-param: ref /",
        "Content-Usage: train-ai=n",
        "Content-Signal: search=yes",
        "Sitemap: https://example.com/sitemap.xml",
        "Noindex: /x",
        "X-Unknown: 1",
    ] {
        let body = format!("User-agent: Bingbot\n{line}\nUser-agent: *\nDisallow: /\n");
        let bing = RobotsTxt::parse_with(body.as_bytes(), Profile::BING);
        assert_eq!(bing.groups().len(), 1, "{line}");
        assert!(!bing.is_allowed("bingbot", "/page"), "{line}");
    }
}

#[test]
fn a_misspelled_crawl_delay_google_accepts_is_a_member_too() {
    // Google's reading recognises field names by prefix; Bing's profile
    // shares that leniency, so `Crawl-delays` is a crawl delay here.
    let body = b"User-agent: Bingbot\nCrawl-delays: 2\nUser-agent: *\nDisallow: /\n";
    let bing = RobotsTxt::parse_with(body, Profile::BING);
    let google = RobotsTxt::parse_with(body, Profile::GOOGLE);
    let kind = google.extensions().next().unwrap().kind();
    let split = kind == crawlgate::ExtensionKind::CrawlDelay;
    assert_eq!(bing.groups().len(), if split { 2 } else { 1 });
    assert_eq!(bing.is_allowed("bingbot", "/page"), split);
}

#[test]
fn a_crawl_delay_after_rules_or_at_the_end_changes_nothing() {
    let body = b"User-agent: Bingbot\nDisallow: /private\nCrawl-delay: 5\n\
                 User-agent: *\nDisallow: /\nCrawl-delay: 10\n";
    let google = RobotsTxt::parse_with(body, Profile::GOOGLE);
    let bing = RobotsTxt::parse_with(body, Profile::BING);
    assert_eq!(google.groups().len(), 2);
    assert_eq!(bing.groups().len(), 2);
    for path in ["/", "/private", "/x"] {
        for agent in ["bingbot", "otherbot"] {
            assert_eq!(
                google.is_allowed(agent, path),
                bing.is_allowed(agent, path),
                "{agent} {path}"
            );
        }
    }
    // Before any user-agent line, a crawl delay belongs to no group.
    let before = b"Crawl-delay: 5\nUser-agent: Bingbot\nUser-agent: *\nDisallow: /\n";
    let bing = RobotsTxt::parse_with(before, Profile::BING);
    assert_eq!(bing.groups().len(), 1);
    assert!(!bing.is_allowed("bingbot", "/"));
    assert_eq!(bing.view("bingbot").crawl_delay(), None);
}

#[test]
fn a_group_that_only_sets_a_delay_has_no_rules() {
    // Bingbot has a group (its own), with a delay and no rules: it may
    // fetch everything, and does not fall back to `*`.
    let bing = RobotsTxt::parse_with(EXAMPLE, Profile::BING);
    let view = bing.view("bingbot");
    assert_eq!(view.selection(), SelectionKind::Specific);
    assert_eq!(view.groups().map(|g| g.rules().len()).sum::<usize>(), 0);
}

#[test]
fn crawl_delays_outside_one_to_thirty_seconds_are_no_delay() {
    for (value, bing_reads) in [
        ("0", None),
        ("0.5", None),
        ("1", Some(1.0)),
        ("2.5", Some(2.5)),
        ("30", Some(30.0)),
        ("30.5", None),
        ("120", None),
        ("ten", None),
    ] {
        let body = format!("User-agent: bingbot\nCrawl-delay: {value}\nDisallow: /x\n");
        let bing = RobotsTxt::parse_with(body.as_bytes(), Profile::BING);
        let google = RobotsTxt::parse_with(body.as_bytes(), Profile::GOOGLE);
        let seconds = |r: &RobotsTxt| r.view("bingbot").crawl_delay().map(|d| d.seconds);
        assert_eq!(seconds(&bing), bing_reads, "{value}");
        // The record itself is kept as written in every reading.
        assert_eq!(bing.extensions().next().unwrap().value(), value);
        if bing_reads.is_some() {
            assert_eq!(seconds(&google), bing_reads, "{value}");
        }
    }
}

#[test]
fn the_profile_is_named_bing() {
    assert_eq!(Profile::named("bing"), Some(Profile::BING));
    assert_eq!(" BING ".parse::<Profile>(), Ok(Profile::BING));
    assert_eq!(Profile::BING.to_string(), "bing");
    assert!(Profile::ALL.contains(&Profile::BING));
    for token in ["bingbot", "AdIdxBot", "BingPreview", "msnbot"] {
        assert!(Profile::BING.reads_for(token), "{token}");
    }
    assert!(!Profile::BING.reads_for("Googlebot"));
    assert!(!Profile::GOOGLE.reads_for("bingbot"));
    let error = "baidu".parse::<Profile>().unwrap_err().to_string();
    assert!(error.contains("bing"), "{error}");
}

#[test]
fn streaming_decisions_see_the_same_groups() {
    let robots = RobotsTxt::parse_with(EXAMPLE, Profile::BING);
    for agent in ["bingbot", "googlebot", "otherbot"] {
        for path in ["/", "/page"] {
            let model = robots.decide(agent, path);
            let once = decide_once_with(EXAMPLE, Profile::BING, agent, path);
            assert_eq!(model.is_allowed(), once.is_allowed(), "{agent} {path}");
            assert_eq!(model.line(), once.line(), "{agent} {path}");
        }
    }
}

#[test]
fn reinterpreting_between_google_and_bing_needs_the_same_groups() {
    let google = RobotsTxt::parse_with(EXAMPLE, Profile::GOOGLE);
    assert!(!google.can_reinterpret(Profile::BING));
    let bing = RobotsTxt::parse_with(EXAMPLE, Profile::BING);
    assert!(!bing.can_reinterpret(Profile::GOOGLE));
    // A delay after the rules changes no group: the model can be re-read.
    let plain = b"User-agent: bingbot\nDisallow: /x\nCrawl-delay: 5\nUser-agent: *\nDisallow: /\n";
    let google = RobotsTxt::parse_with(plain, Profile::GOOGLE);
    let copy = google.reinterpret(Profile::BING).unwrap();
    assert_eq!(copy.profile(), Profile::BING);
    assert!(copy.is_allowed("bingbot", "/y"));
    let bing = RobotsTxt::parse_with(plain, Profile::BING);
    assert!(bing.can_reinterpret(Profile::GOOGLE));
}

/// On every corpus file, the bing model re-read as Google's (and back)
/// only when the groups are provably the same, and then it decides like a
/// fresh parse.
#[test]
fn corpus_reinterpretations_match_fresh_parses() {
    let mut reread = 0;
    for (name, body) in crawlgate_corpus::files() {
        let google = RobotsTxt::parse_with(&body, Profile::GOOGLE);
        let bing = RobotsTxt::parse_with(&body, Profile::BING);
        let same_groups = google.groups().len() == bing.groups().len()
            && google
                .groups()
                .zip(bing.groups())
                .all(|(a, b)| a.first_line() == b.first_line());
        if let Some(copy) = google.reinterpret(Profile::BING) {
            reread += 1;
            assert!(same_groups, "{name}");
            assert_eq!(copy.groups().len(), bing.groups().len(), "{name}");
        }
        if bing.can_reinterpret(Profile::GOOGLE) {
            assert!(same_groups, "{name}");
        }
    }
    assert!(reread > 3000, "only {reread} files re-read");
}

/// Paths built from a crawler's rules in either reading: each pattern with
/// `*` read as `x`, without its `$`, plus `/`.
fn sample_paths(views: [&crawlgate::AgentView<'_>; 2]) -> Vec<String> {
    let mut paths = vec!["/".to_owned()];
    for view in views {
        for rule in view.groups().flat_map(|g| g.rules()) {
            let body = rule.pattern().strip_suffix('$').unwrap_or(rule.pattern());
            let path = body.replace('*', "x");
            if !path.is_empty() {
                paths.push(if path.starts_with('/') {
                    path
                } else {
                    format!("/{path}")
                });
            }
        }
    }
    paths
}

/// The files of the corpus where Google's and Bing's readings decide some
/// URL built from the crawler's rules differently: for Bingbot, and for a
/// crawler no group names (the `*` groups). The counts are the project's
/// record of how often the difference matters (see docs/behaviour.md §9).
#[test]
fn corpus_files_read_differently_by_bing() {
    let (mut files, mut split, mut bingbot, mut global, mut either) = (0, 0, 0, 0, 0);
    for (_, body) in crawlgate_corpus::files() {
        files += 1;
        let google = RobotsTxt::parse_with(&body, Profile::GOOGLE);
        let bing = RobotsTxt::parse_with(&body, Profile::BING);
        let same_groups = google.groups().len() == bing.groups().len();
        if same_groups {
            continue; // same groups, same matching: nothing can differ
        }
        split += 1;
        let differs = |agent: &str| {
            let (a, b) = (google.view(agent), bing.view(agent));
            sample_paths([&a, &b])
                .iter()
                .any(|p| a.decide_path(p).is_allowed() != b.decide_path(p).is_allowed())
        };
        let for_bingbot = differs("bingbot");
        let for_global = differs("crawlgate-unnamed-crawler");
        bingbot += usize::from(for_bingbot);
        global += usize::from(for_global);
        either += usize::from(for_bingbot || for_global);
    }
    println!(
        "{files} files; {split} grouped differently; verdicts differ: \
         {bingbot} for Bingbot, {global} for `*`-group crawlers, {either} for either"
    );
    assert_eq!(files, 4231);
    assert_eq!((split, bingbot, global, either), (159, 31, 4, 32));
}

/// In the crawler reading, Bing's crawlers are read by Bing's rules unless
/// a profile is named; as one token, by Google's.
#[test]
fn bings_crawlers_are_read_by_bing_by_default() {
    use crawlgate::Reading;
    let body = b"User-agent: bingbot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /*.pdf$\n";
    for name in ["bingbot", "msnbot", "AdIdxBot", "BingPreview"] {
        let profile = Reading::Crawler.profile_for(name, None);
        assert_eq!(profile, Profile::BING, "{name}");
        let named = Reading::Crawler.profile_for(name, Some(Profile::GOOGLE));
        assert_eq!(named, Profile::GOOGLE, "{name}");
        assert_eq!(Reading::OneToken.profile_for(name, None), Profile::GOOGLE);
    }
    let own = RobotsTxt::parse_with(body, Reading::Crawler.profile_for("bingbot", None));
    assert!(own.is_allowed("bingbot", "/files/menu.pdf"));
    let google = RobotsTxt::parse_with(body, Profile::GOOGLE);
    assert!(!google.is_allowed("bingbot", "/files/menu.pdf"));
}
