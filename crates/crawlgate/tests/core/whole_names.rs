//! Crawlers whose names are no product token (`AI2Bot`, `Crawl4AI`,
//! `img2dataset`): the crawler reading compares the whole name, as Google's
//! library compares a crawler's name, so a group naming a shorter token
//! (`Ai2Bot-Dolma` read as `Ai`, `Crawl`) never binds them.

use crawlgate::registry::{self, CrawlerKind};
use crawlgate::{is_product_token, ChoiceKind, Reading, RobotsTxt, Who};

/// The crawler reading and the one-token reading of `name` on `file`, at
/// `/`.
fn both(file: &str, name: &str) -> (bool, bool) {
    let robots = RobotsTxt::parse(file.as_bytes());
    (
        robots.is_allowed(Who::crawler(name), "/"),
        robots.is_allowed(Who::read(name, Reading::OneToken), "/"),
    )
}

#[test]
fn groups_of_shortened_tokens_do_not_bind_whole_names() {
    let cases = [
        ("Ai2Bot-Dolma", "AI2Bot"),
        ("AI", "AI2Bot"),
        ("Ai", "Ai2Bot-Dolma"),
        ("Crawl", "Crawl4AI"),
        ("img", "img2dataset"),
        ("Channel", "Channel3Bot"),
        ("bigsur", "bigsur.ai"),
        ("ChatGPT", "ChatGPT Agent"),
    ];
    for (line, name) in cases {
        let file = format!("User-agent: {line}\nDisallow: /\n");
        assert_eq!(both(&file, name), (true, true), "{file:?} for {name}");
        let robots = RobotsTxt::parse(file.as_bytes());
        let choice = robots.view(Who::crawler(name)).group_choice();
        assert_eq!(choice.kind(), ChoiceKind::NoGroup, "{name}");
        assert_eq!(choice.crawler().map(|c| c.token), Some(name));
    }
    // With a `*` group, that group decides, in both readings.
    let file = "User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n";
    assert_eq!(both(file, "AI2Bot"), (true, true));
    let robots = RobotsTxt::parse(file.as_bytes());
    let choice = robots.view(Who::crawler("AI2Bot")).group_choice();
    assert_eq!(choice.kind(), ChoiceKind::Star);
    assert!(
        choice
            .to_string()
            .contains("a line naming AI2Bot is read as `AI`"),
        "{choice}"
    );
}

/// Google's library cuts a `User-agent` line at its first character
/// outside `[A-Za-z_-]` and compares the crawler's name as given: a line
/// `AI2Bot` reads `AI`, which a crawler named `AI2Bot` never equals, so
/// even a group written for it does not bind it. A crawler called `AI`
/// obeys that group.
#[test]
fn a_line_naming_a_whole_name_is_read_as_googles_library_reads_it() {
    let file = "User-agent: AI2Bot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    assert_eq!(both(file, "AI2Bot"), (true, true));
    let robots = RobotsTxt::parse(file.as_bytes());
    assert!(!robots.is_allowed("AI", "/"));
    assert_eq!(
        robots.view(Who::crawler("AI2Bot")).group_choice().kind(),
        ChoiceKind::Star
    );
    // The once-through reading of the bytes agrees.
    assert!(crawlgate::decide_once(file.as_bytes(), "AI2Bot", "/").is_allowed());
}

/// Every crawler of the registry asked by its own name finds a group
/// naming its whole token when a line can name it (its name is a product
/// token); one whose name is no product token finds none, as in Google's
/// library, and both readings agree on it.
#[test]
fn each_crawler_finds_the_group_naming_its_whole_token() {
    let mut unnameable = Vec::new();
    for crawler in registry::crawlers() {
        let file = format!(
            "User-agent: {}\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            crawler.token
        );
        let robots = RobotsTxt::parse(file.as_bytes());
        let view = robots.view(crawler);
        let choice = view.group_choice();
        if crawler.ignores_robots_txt() {
            assert_eq!(
                choice.kind(),
                ChoiceKind::IgnoresRobotsTxt,
                "{}",
                crawler.name
            );
            continue;
        }
        if is_product_token(crawler.token) {
            let want = match crawler.kind {
                CrawlerKind::ControlToken => ChoiceKind::ControlToken,
                _ => ChoiceKind::Own,
            };
            assert_eq!(choice.kind(), want, "{}", crawler.name);
            assert_eq!(choice.group_kind(), ChoiceKind::Own, "{}", crawler.name);
            assert_eq!(choice.token(), Some(crawler.token), "{}", crawler.name);
            assert!(!view.is_allowed("/"), "{}", crawler.name);
        } else {
            unnameable.push(crawler.name);
            assert_eq!(choice.group_kind(), ChoiceKind::Star, "{}", crawler.name);
            assert!(view.is_allowed("/"), "{}", crawler.name);
            assert!(robots.is_allowed(crawler.token, "/"), "{}", crawler.name);
        }
    }
    assert_eq!(unnameable.len(), 15, "{unnameable:?}");
}

/// A control token that only reaches a group through its fallback says so:
/// YandexAdditional under a lone `Yandex` group.
#[test]
fn a_control_tokens_fallback_is_a_fallback() {
    let robots = RobotsTxt::parse(b"User-agent: Yandex\nDisallow: /\n");
    let choice = robots.view(Who::crawler("YandexAdditional")).group_choice();
    assert_eq!(
        (choice.kind(), choice.group_kind(), choice.token()),
        (
            ChoiceKind::ControlToken,
            ChoiceKind::Fallback,
            Some("Yandex")
        )
    );
    let robots = RobotsTxt::parse(b"User-agent: YandexAdditional\nDisallow: /\n");
    let choice = robots.view(Who::crawler("YandexAdditional")).group_choice();
    assert_eq!(choice.group_kind(), ChoiceKind::Own);
    let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
    let choice = robots.view(Who::crawler("YandexAdditional")).group_choice();
    assert_eq!(choice.group_kind(), ChoiceKind::Star);
}
