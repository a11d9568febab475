//! POLICY.toml: every field read, round trips, and clear errors.

use crawlgate::Who;
use crawlgate_policy::{write, Access, Policy, PolicyError, Purpose};

const FULL: &str = r#"
search = "allow"
ai-train = "deny"
ai-use = "deny"
user-fetch = "allow"
seo = "deny"
private = ["/admin/", "/*.pdf$"]
honeypot = "/trap/"
crawl-delay = 5
sitemaps = ["https://example.com/sitemap.xml"]
license = "https://example.com/license.xml"

[crawlers]
AhrefsBot = "allow"
AI2Bot-DeepResearchEval = "deny"
"#;

#[test]
fn every_field_reads_and_round_trips() {
    let policy = Policy::from_toml(FULL).unwrap();
    assert_eq!(policy.access(Purpose::AiUse), Some(Access::Deny));
    assert_eq!(policy.access(Purpose::Ads), None);
    assert_eq!(policy.private, ["/admin/", "/*.pdf$"]);
    assert_eq!(policy.honeypot.as_deref(), Some("/trap/"));
    assert_eq!(policy.crawl_delay, Some(5.0));
    assert_eq!(
        policy.crawlers,
        [
            ("AI2Bot-DeepResearchEval".to_owned(), Access::Deny),
            ("AhrefsBot".to_owned(), Access::Allow)
        ]
    );
    assert_eq!(Policy::from_toml(&policy.to_toml()).unwrap(), policy);
    // The file it writes says each part.
    let written = write(&policy).unwrap();
    let text = written.text();
    for line in [
        "License: https://example.com/license.xml",
        "Disallow: /admin/",
        "Disallow: /*.pdf$",
        "Disallow: /trap/",
        "Crawl-delay: 5",
        "Content-Usage: train-ai=n, ai-use=n, search=y",
        "Content-Signal: search=yes, ai-input=no, ai-train=no",
        "Sitemap: https://example.com/sitemap.xml",
        "User-agent: AhrefsSiteAudit",
    ] {
        assert!(text.contains(&format!("\n{line}")), "{line}\n{text}");
    }
    // AhrefsBot is named allowed: it keeps the rules for everyone (and
    // reads the crawl delay); its sibling audit crawler is shut out.
    let robots = crawlgate::RobotsTxt::parse(&written.robots_txt);
    assert!(robots.view(Who::crawler("AhrefsBot")).is_allowed("/"));
    assert!(!robots
        .view(Who::crawler("AhrefsBot"))
        .is_allowed("/admin/x"));
    assert!(!robots.view(Who::crawler("AhrefsSiteAudit")).is_allowed("/"));
    // Bing reads the crawl delay; Google is told nothing it ignores.
    assert_eq!(
        robots
            .view(Who::crawler("bingbot"))
            .crawl_delay()
            .unwrap()
            .seconds,
        5.0
    );
    assert!(robots
        .view(Who::crawler("Googlebot"))
        .crawl_delay()
        .is_none());
}

#[test]
fn mistakes_are_said() {
    let cases = [
        ("ai-training = \"deny\"\n", "ai-training"),
        ("search = \"yes\"\n", "yes"),
        ("private = \"/admin/\"\n", "private"),
        ("private = [\"admin/\"]\n", "a path starts with `/`"),
        ("private = [\"/a b/\"]\n", "no spaces"),
        ("honeypot = \"/\"\n", "whole site"),
        ("crawl-delay = 90\n", "outside 1–30"),
        ("sitemaps = [\"/sitemap.xml\"]\n", "not an absolute"),
        ("license = \"https://example.com/l#x\"\n", "not an absolute"),
        ("[crawlers]\nGPTBott = \"deny\"\n", "did you mean `GPTBot`?"),
        ("search = \n", "policy file does not read"),
    ];
    for (text, says) in cases {
        let error = Policy::from_toml(text).unwrap_err().to_string();
        assert!(error.contains(says), "{text:?}: {error}");
    }
    assert!(matches!(
        Policy::from_toml("[crawlers]\nnobody-knows-me = \"deny\"\n"),
        Err(PolicyError::UnknownCrawler {
            suggestion: None,
            ..
        })
    ));
}

#[test]
fn crawlers_whose_name_is_no_token_are_not_named_and_a_note_says_why() {
    // AI2Bot (AI training) and AI2Bot-DeepResearchEval (a fetch for a
    // user) are compared by their whole names: no token joins them, so a
    // policy may deny one and allow the other.
    let ai2 = crawlgate::registry::find("AI2Bot").unwrap();
    let eval = crawlgate::registry::find("AI2Bot-DeepResearchEval").unwrap();
    assert!(!ai2.token.eq_ignore_ascii_case(eval.token));
    let policy = Policy::new()
        .with(Purpose::AiTrain, Access::Deny)
        .with(Purpose::UserFetch, Access::Allow);
    let written = write(&policy).unwrap();
    let text = String::from_utf8(written.robots_txt.clone()).unwrap();
    // No `User-agent` line can name them under Google's reading (a line
    // naming AI2Bot is read as `AI`), so none is written for them.
    for name in ["AI2Bot", "Ai2Bot-Dolma", "img2dataset", "Datenbank Crawler"] {
        assert!(
            !text
                .lines()
                .any(|l| l.starts_with(&format!("User-agent: {name}"))),
            "{name} in\n{text}"
        );
        assert!(
            written
                .notes
                .iter()
                .any(|n| n.starts_with(&format!("{name} is no product token"))),
            "{name}: {:?}",
            written.notes
        );
    }
    assert!(written
        .notes
        .iter()
        .any(|n| n.contains("reads a line naming it as `AI`")));
    // They obey `*`, as Google's library reads them; named crawlers are
    // shut out.
    let robots = crawlgate::RobotsTxt::parse(&written.robots_txt);
    assert!(robots.view(Who::crawler("AI2Bot")).is_allowed("/"));
    assert!(robots
        .view(Who::crawler("AI2Bot-DeepResearchEval"))
        .is_allowed("/"));
    assert!(!robots.view(Who::crawler("GPTBot")).is_allowed("/"));
    assert!(!written
        .notes
        .iter()
        .any(|n| n.contains("denied with AI2Bot")));
}
