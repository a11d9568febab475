//! The survey's group words (`named`, `fallback`, `star`, `none`,
//! `ignored`) as docs/survey.md defines them, for control tokens too: a
//! control token reaching a group only through a fallback (YandexAdditional
//! under a lone `Yandex` group) says `fallback`, as its crawler does.

use crawlgate::registry::{self, CrawlerKind};
use crawlgate::RobotsTxt;
use crawlgate_survey::verdict::{crawler_view, GroupKind, Reader};
use crawlgate_survey::CrawlerSet;

#[test]
fn a_control_token_under_its_fallbacks_group_says_fallback() {
    let robots = RobotsTxt::parse(b"User-agent: Yandex\nDisallow: /\n");
    let reader = Reader::new(&robots, &[]);
    for name in ["YandexAdditional", "YandexAdditionalBot"] {
        assert_eq!(
            reader.verdict(name).group,
            Some(GroupKind::Fallback),
            "{name}"
        );
    }
    let cases: [(&[u8], &str, GroupKind); 4] = [
        (
            b"User-agent: YandexAdditional\nDisallow: /\n",
            "YandexAdditional",
            GroupKind::Named,
        ),
        (
            b"User-agent: *\nDisallow: /\n",
            "YandexAdditional",
            GroupKind::Star,
        ),
        (
            b"User-agent: Google-Extended\nDisallow: /\n",
            "Google-Extended",
            GroupKind::Named,
        ),
        (
            b"User-agent: Googlebot\nDisallow: /\n",
            "Google-Extended",
            GroupKind::None,
        ),
    ];
    for (file, name, want) in cases {
        let robots = RobotsTxt::parse(file);
        assert_eq!(crawler_view(&robots, name).1, want, "{name} on {file:?}");
    }
    // The columns are the crawlers' whole names.
    let set = CrawlerSet::from_tokens(["YandexAdditional", "Crawl4AI"]).unwrap();
    let columns: Vec<String> = set.iter().map(|c| c.group_column()).collect();
    assert_eq!(columns, ["group_yandexadditional", "group_crawl4ai"]);
}

/// On the corpus, every crawler's group word follows from the tokens the
/// file names: `named` when a group names its own token, `fallback` when
/// none does but one names a token it falls back to, `star` or `none`
/// otherwise; YandexAdditional says `fallback` in exactly the files that
/// bind it only through `User-agent: Yandex` (133 of them).
#[test]
fn group_words_on_the_corpus_follow_the_tokens_named() {
    let crawlers: Vec<_> = registry::crawlers()
        .iter()
        .filter(|c| !c.ignores_robots_txt())
        .collect();
    let mut yandex_fallback = 0;
    let mut control_words = 0;
    for (name, bytes) in crawlgate_corpus::files() {
        let robots = RobotsTxt::parse(&bytes);
        let named: Vec<String> = robots
            .tokens()
            .map(|(t, _)| t.to_ascii_lowercase())
            .collect();
        let names = |t: &str| named.contains(&t.to_ascii_lowercase());
        for crawler in &crawlers {
            let word = crawler_view(&robots, crawler.name).1;
            let want = if names(crawler.token) {
                GroupKind::Named
            } else if crawler.fallbacks.iter().any(|f| names(f)) {
                GroupKind::Fallback
            } else if word == GroupKind::Star {
                GroupKind::Star
            } else {
                GroupKind::None
            };
            assert_eq!(word, want, "{} in {name}", crawler.name);
            if crawler.kind == CrawlerKind::ControlToken && want != GroupKind::None {
                control_words += 1;
            }
        }
        if crawler_view(&robots, "YandexAdditional").1 == GroupKind::Fallback {
            yandex_fallback += 1;
            assert!(names("Yandex") && !names("YandexAdditional"), "{name}");
            assert_eq!(
                crawler_view(&robots, "YandexAdditionalBot").1,
                GroupKind::Fallback,
                "{name}"
            );
        }
    }
    assert_eq!(yandex_fallback, 133);
    assert!(control_words > 1000, "{control_words}");
}
