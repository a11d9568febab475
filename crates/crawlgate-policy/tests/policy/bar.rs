//! The bar: `--search allow --ai-train deny` gives a file that
//! lints clean, lets search engines in, shuts AI training out (by the
//! crawler reading and by Google's matcher for each token), tells any
//! other crawler `train-ai=n, search=y`, and says `ai-train=no` in a
//! `Content-Signal` line.

use crawlgate::Who;
use crawlgate::{Preference, RobotsTxt, UsageCategory};
use crawlgate_policy::{write, Access, Policy, Purpose};

use crate::support::{lint_warnings, reference_allowed};

pub fn bar_policy() -> Policy {
    Policy::new()
        .with(Purpose::Search, Access::Allow)
        .with(Purpose::AiTrain, Access::Deny)
}

pub const SEARCH: [&str; 5] = [
    "Googlebot",
    "bingbot",
    "Applebot",
    "DuckDuckBot",
    "YandexBot",
];
pub const AI_TRAINING: [&str; 7] = [
    "GPTBot",
    "ClaudeBot",
    "CCBot",
    "Google-Extended",
    "Applebot-Extended",
    "Bytespider",
    "meta-externalagent",
];

#[test]
fn search_in_ai_training_out() {
    let written = write(&bar_policy()).unwrap();
    let file = &written.robots_txt;
    assert_eq!(lint_warnings(file), Vec::<String>::new());
    let report = crawlgate_lint::lint(file, &crawlgate_lint::LintOptions::default());
    assert!(
        report.diagnostics.is_empty(),
        "not even information: {:#?}",
        report.diagnostics
    );
    let robots = RobotsTxt::parse(file);
    for name in SEARCH {
        assert!(robots.view(Who::crawler(name)).is_allowed("/"), "{name}");
        assert!(
            robots.view(Who::crawler(name)).is_allowed("/any/page"),
            "{name}"
        );
        assert!(
            reference_allowed(file, name, "/"),
            "{name} by Google's matcher"
        );
    }
    for name in AI_TRAINING {
        assert!(!robots.view(Who::crawler(name)).is_allowed("/"), "{name}");
        assert!(
            !robots.view(Who::crawler(name)).is_allowed("/any/page"),
            "{name}"
        );
        assert!(!robots.view(name).is_allowed("/"), "{name}, one token");
        assert!(
            !reference_allowed(file, name, "/"),
            "{name} by Google's matcher"
        );
        assert!(
            !reference_allowed(file, name, "/a/b.html"),
            "{name} by Google's matcher"
        );
    }
    // Any other crawler: the `*` group, train-ai=n and search=y.
    let other = robots.view("SomeNewBot");
    assert!(other.is_allowed("/"));
    let preferences = other.preferences("/").unwrap();
    assert_eq!(
        preferences.stated(UsageCategory::AiTraining),
        Some(Preference::Disallowed)
    );
    assert_eq!(
        preferences.stated(UsageCategory::Search),
        Some(Preference::Allowed)
    );
    let signal = preferences.content_signal.unwrap();
    assert_eq!(signal.get("ai-train"), Some(false));
    assert_eq!(signal.get("search"), Some(true));
    assert!(written
        .text()
        .contains("\nContent-Signal: search=yes, ai-train=no\n"));
    // Each group says what it is for, and where the registry has it from.
    assert!(written
        .text()
        .contains("# AI training: denied (Disallow: /)."));
    assert!(written.text().contains("the ai.robots.txt list"));
}

#[test]
fn every_token_the_file_names_reads_as_its_group_says() {
    let written = write(&bar_policy()).unwrap();
    let file = &written.robots_txt;
    let robots = RobotsTxt::parse(file);
    for ua in robots.user_agents() {
        let token = ua.token();
        if token.is_empty() {
            continue;
        }
        let closed = ua
            .group()
            .rules()
            .any(|r| !r.is_allow() && r.pattern() == "/");
        for path in ["/", "/page.html", "/a/b?c=d"] {
            assert_eq!(
                robots.view(token).is_allowed(path),
                !closed,
                "{token} {path}"
            );
            assert_eq!(
                reference_allowed(file, token, path),
                !closed,
                "{token} {path}"
            );
        }
    }
}

#[test]
fn every_registry_crawler_gets_the_verdict_the_policy_means() {
    let written = write(&bar_policy()).unwrap();
    let robots = RobotsTxt::parse(&written.robots_txt);
    for intent in &written.intents {
        let crawler = intent.crawler;
        if !crawler.runs() || crawler.ignores_robots_txt() {
            continue;
        }
        let allowed = robots.view(crawler).is_allowed("/");
        // A crawler whose name is no product token (AI2Bot) obeys `*`
        // whatever the policy says: no line can name it.
        let denied = intent.denied() && crawler.name_is_token();
        assert_eq!(allowed, !denied, "{}", crawler.name);
    }
    assert_eq!(
        written.proof.rows.len(),
        crawlgate::registry::crawlers().len()
    );
    assert!(written.proof.rows.iter().all(|r| r.holds));
}
