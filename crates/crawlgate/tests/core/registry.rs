//! The crawler registry as data: every token valid, no name twice, every
//! entry with a purpose and a source, every name of the ai.robots.txt list
//! known, and each crawler read by its own rules.

use std::collections::HashSet;
use std::path::Path;

use crawlgate::registry::{self, CrawlerKind, Obeys, Purpose};
use crawlgate::{is_product_token, ChoiceKind, Reading, RobotsTxt, SelectionKind, Who};

fn ai_robots_txt_names() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/registry/ai-robots-txt-names.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// What a `User-agent` line naming `name` is read as.
fn read_as(name: &str) -> &str {
    let end = name
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))
        .unwrap_or(name.len());
    &name[..end]
}

#[test]
fn every_token_is_valid_and_every_entry_has_a_purpose_and_a_source() {
    let crawlers = registry::crawlers();
    assert!(crawlers.len() >= 230, "{} crawlers", crawlers.len());
    let sources: HashSet<&str> = registry::sources().iter().map(|s| s.key).collect();
    for c in crawlers {
        // Its own name is compared whole; it falls back to groups that
        // lines name, so to product tokens.
        assert!(c.token.eq_ignore_ascii_case(c.name), "{}", c.name);
        for token in c.fallbacks {
            assert!(is_product_token(token), "{}: `{token}`", c.name);
        }
        assert!(Purpose::ALL.contains(&c.purpose), "{}", c.name);
        assert!(sources.contains(c.source.key), "{}", c.name);
        assert!(
            !c.source.title.is_empty() && !c.checked.is_empty(),
            "{}",
            c.name
        );
        assert!(
            c.source_url().starts_with("http"),
            "{}: {}",
            c.name,
            c.source_url()
        );
        assert!(!c.operator.is_empty() && !c.note.is_empty(), "{}", c.name);
        // A fallback is never the crawler's own token.
        assert!(
            c.fallbacks.iter().all(|f| !f.eq_ignore_ascii_case(c.token)),
            "{}",
            c.name
        );
        // A control token fetches nothing, so it cannot ignore robots.txt.
        if c.kind == CrawlerKind::ControlToken {
            assert_ne!(c.obeys, Obeys::No, "{}", c.name);
        }
    }
}

#[test]
fn no_name_twice_and_no_token_twice() {
    let mut names = HashSet::new();
    let mut tokens = HashSet::new();
    for c in registry::crawlers() {
        let own: HashSet<String> = std::iter::once(c.name)
            .chain(c.aliases.iter().copied())
            .map(str::to_ascii_lowercase)
            .collect();
        for name in own {
            assert!(names.insert(name.clone()), "`{name}` names two entries");
        }
        assert!(
            tokens.insert(c.token.to_ascii_lowercase()),
            "two entries answer to `{}`",
            c.token
        );
    }
}

#[test]
fn every_name_of_the_ai_robots_txt_list_is_known() {
    let names = ai_robots_txt_names();
    assert_eq!(names.len(), 166, "the list at 738c80d has 166 names");
    let mut invalid = 0;
    for name in &names {
        let crawler = registry::find(name).unwrap_or_else(|| panic!("`{name}` is not known"));
        if !is_product_token(name) {
            invalid += 1;
            // Recorded as written, with the token its line is read as: as an
            // entry of its own, or as another name of the crawler.
            assert!(
                crawler.name == name || crawler.aliases.contains(&name.as_str()),
                "{name}"
            );
            let robots = RobotsTxt::parse(format!("User-agent: {name}\nDisallow: /\n").as_bytes());
            let named = robots.view(Who::crawler(name)).selection() == SelectionKind::Specific;
            assert_eq!(
                named,
                crawler
                    .tokens()
                    .any(|t| t.eq_ignore_ascii_case(read_as(name))),
                "{name} ({})",
                crawler.name
            );
        }
    }
    assert_eq!(invalid, 21, "the list's names that are no product token");
    // The list's 166 names are the registry's AI crawlers; a few of them
    // are search engines, link previews or tools here (Applebot,
    // GoogleOther, facebookexternalhit, Scrapy), the rest work for AI.
    let ai = registry::crawlers()
        .iter()
        .filter(|c| c.purpose.is_ai())
        .count();
    assert!(ai >= 145, "{ai} crawlers work for AI");
    let listed: HashSet<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
    let not_ai: Vec<&str> = registry::crawlers()
        .iter()
        .filter(|c| listed.contains(&c.name.to_ascii_lowercase()) && !c.purpose.is_ai())
        .map(|c| c.name)
        .collect();
    assert!(not_ai.len() <= 12, "{not_ai:?}");
}

#[test]
fn the_crawlers_the_issue_names_are_known_with_their_rules() {
    let rules = |name: &str| {
        let c = registry::find(name).unwrap_or_else(|| panic!("{name} is not known"));
        (c.tokens().collect::<Vec<_>>(), c.obeys_star, c.kind)
    };
    use CrawlerKind::*;
    assert_eq!(
        rules("Googlebot-Image"),
        (vec!["Googlebot-Image", "Googlebot"], true, Crawler)
    );
    assert_eq!(
        rules("Googlebot-Video"),
        (vec!["Googlebot-Video", "Googlebot"], true, Crawler)
    );
    assert_eq!(
        rules("Googlebot-News"),
        (vec!["Googlebot-News", "Googlebot"], true, Crawler)
    );
    for special in [
        "AdsBot-Google",
        "AdsBot-Google-Mobile",
        "Mediapartners-Google",
        "APIs-Google",
    ] {
        assert_eq!(rules(special), (vec![special], false, Crawler));
    }
    assert_eq!(
        rules("Applebot"),
        (vec!["Applebot", "Googlebot"], true, Crawler)
    );
    assert_eq!(rules("Bingbot"), (vec!["Bingbot", "msnbot"], true, Crawler));
    for control in ["Google-Extended", "Applebot-Extended"] {
        assert_eq!(rules(control).2, ControlToken, "{control}");
    }
    for user in [
        "FeedFetcher-Google",
        "Google-Read-Aloud",
        "Google-Site-Verification",
    ] {
        assert_eq!(rules(user).2, UserTriggered, "{user}");
        assert!(registry::find(user).unwrap().ignores_robots_txt(), "{user}");
    }
    for name in [
        "Googlebot",
        "Storebot-Google",
        "Google-InspectionTool",
        "GoogleOther",
        "Google-CloudVertexBot",
        "AdIdxBot",
        "MicrosoftPreview",
        "msnbot",
        "YandexBot",
        "Baiduspider",
        "DuckDuckBot",
        "CCBot",
    ] {
        assert!(registry::find(name).is_some(), "{name}");
    }
    assert!(registry::find("Bingbot")
        .unwrap()
        .star_crawl_delay
        .is_some());
}

/// Every crawler of the registry, on a file naming each of its tokens in
/// turn: the crawler reading picks the first token a group names.
#[test]
fn every_crawler_is_read_by_its_rules() {
    for c in registry::crawlers() {
        let tokens: Vec<&str> = c.tokens().collect();
        for (i, token) in tokens.iter().enumerate() {
            // No line names a name that is no product token (`AI2Bot`):
            // `whole_names` checks those.
            if !is_product_token(token) {
                continue;
            }
            // Groups for this token and every later one, and `*`.
            let mut body = String::from("User-agent: *\nDisallow: /star\n");
            for (j, t) in tokens.iter().enumerate().skip(i) {
                body.push_str(&format!("\nUser-agent: {t}\nDisallow: /t{j}\n"));
            }
            let robots = RobotsTxt::parse(body.as_bytes());
            let view = robots.view(Who::crawler(c.name));
            let choice = view.group_choice();
            assert_eq!(choice.reading(), Reading::Crawler);
            if c.ignores_robots_txt() {
                assert_eq!(choice.kind(), ChoiceKind::IgnoresRobotsTxt, "{}", c.name);
                assert!(view.is_allowed(&format!("/t{i}")), "{}", c.name);
                continue;
            }
            assert_eq!(
                choice.token(),
                Some(*token),
                "{} with groups from {token}",
                c.name
            );
            assert!(!view.is_allowed(&format!("/t{i}")), "{}", c.name);
            assert!(view.is_allowed("/star"), "{}", c.name);
        }
        // No group names any of its tokens: `*`, or nothing.
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /star\n");
        let view = robots.view(Who::crawler(c.name));
        let star_applies = c.obeys_star && !c.ignores_robots_txt();
        assert_eq!(!view.is_allowed("/star"), star_applies, "{}", c.name);
        // The one-token reading of its own token is Google's library's.
        let one = robots.view(c.token);
        assert_eq!(one.selection(), SelectionKind::Global, "{}", c.name);
        assert_eq!(one.group_choice().reading(), Reading::OneToken);
    }
}
