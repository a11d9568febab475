//! Every crawler of the registry, under many policies: each purpose
//! allowed with every other denied and the reverse (new files, and
//! merged into a site's file), and each crawler named alone against the
//! rest. Either the file is written, and then
//! every running crawler that obeys robots.txt reads the verdict the
//! policy means (computed here from the registry, not taken from the
//! crate's proof), by the crawler reading and by Google's matcher for its
//! token; or the policy cannot be expressed, and the error names two
//! crawlers that answer to one token, one allowed and one denied.

use std::collections::HashMap;

use crawlgate::registry::{self, Crawler};
use crawlgate::{Profile, RobotsTxt};
use crawlgate_policy::{merge, write, Access, Policy, PolicyError, Purpose};

use crate::support::reference_allowed_in;

/// The access the policy states for a crawler, by name first, then by its
/// purpose.
fn stated(policy: &Policy, crawler: &Crawler) -> Option<Access> {
    policy
        .crawlers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(crawler.name))
        .map(|(_, access)| *access)
        .or_else(|| policy.access(Purpose::of(crawler)))
}

/// The registry's crawlers by product token (lowercase).
fn by_token() -> HashMap<String, Vec<&'static Crawler>> {
    let mut map: HashMap<String, Vec<&'static Crawler>> = HashMap::new();
    for crawler in registry::crawlers() {
        map.entry(crawler.token.to_ascii_lowercase())
            .or_default()
            .push(crawler);
    }
    map
}

/// Writes `policy` and checks it as the module says; returns whether it
/// was written (false: a conflict, checked).
fn check(policy: &Policy, tokens: &HashMap<String, Vec<&'static Crawler>>) -> bool {
    let label = policy.describe();
    let written = match write(policy) {
        Ok(written) => written,
        Err(PolicyError::TokenConflict {
            token,
            allowed,
            denied,
        }) => {
            let a = registry::find(allowed.0).unwrap();
            let d = registry::find(denied.0).unwrap();
            assert!(
                a.token.eq_ignore_ascii_case(token) && d.token.eq_ignore_ascii_case(token),
                "{label}: {} and {} do not share `{token}`",
                a.name,
                d.name
            );
            assert_eq!(stated(policy, a), Some(Access::Allow), "{label}");
            assert_eq!(stated(policy, d), Some(Access::Deny), "{label}");
            let message = write(policy).unwrap_err().to_string();
            assert!(
                message.contains(&format!("`{}`", a.name))
                    && message.contains(&format!("`{}`", d.name)),
                "{label}: {message}"
            );
            return false;
        }
        Err(other) => panic!("{label}: {other}"),
    };
    assert!(
        written.proof.holds(),
        "{label}: {:?}",
        written.proof.failures
    );
    let robots = RobotsTxt::parse(&written.robots_txt);
    for crawler in registry::crawlers() {
        if !crawler.runs() || crawler.ignores_robots_txt() {
            continue;
        }
        // Denied when the policy denies it or any crawler of its token:
        // one group names them all.
        // A crawler whose name is no product token (AI2Bot) obeys `*`:
        // no line can name it.
        let denied = crawler.name_is_token()
            && tokens[&crawler.token.to_ascii_lowercase()]
                .iter()
                .any(|c| stated(policy, c) == Some(Access::Deny));
        let view = robots.view(crawler);
        assert_eq!(view.is_allowed("/"), !denied, "{label}: {}", crawler.name);
        assert_eq!(
            reference_allowed_in(&robots, crawler.token, "/page.html"),
            !denied,
            "{label}: {} by Google's matcher",
            crawler.name
        );
        if !denied {
            assert!(
                !view.is_allowed("/private/x"),
                "{label}: {} lets in the private path",
                crawler.name
            );
        }
    }
    true
}

#[test]
fn each_purpose_against_all_the_others() {
    let tokens = by_token();
    let mut written = 0;
    for purpose in Purpose::ALL {
        for (alone, rest) in [(Access::Allow, Access::Deny), (Access::Deny, Access::Allow)] {
            // With and without a crawl delay (a group of its own for the
            // crawlers that read it).
            for delay in [None, Some(5.0)] {
                let mut policy = Policy::new().with_private("/private/");
                policy.crawl_delay = delay;
                for other in Purpose::ALL {
                    policy = policy.with(other, if other == purpose { alone } else { rest });
                }
                written += usize::from(check(&policy, &tokens));
            }
        }
    }
    // Most of them are expressible; those that are not were checked to
    // name two crawlers of one token.
    assert!(written >= 24, "{written} of 36 written");
}

#[test]
fn each_crawler_named_against_its_purpose() {
    let tokens = by_token();
    let (mut written, mut conflicts) = (0, 0);
    for crawler in registry::crawlers() {
        if !crawler.runs() {
            continue;
        }
        let purpose = Purpose::of(crawler);
        for (own, rest) in [(Access::Deny, Access::Allow), (Access::Allow, Access::Deny)] {
            let policy = Policy::new()
                .with_private("/private/")
                .with(purpose, rest)
                .with_crawler(crawler.name, own);
            if check(&policy, &tokens) {
                written += 1;
            } else {
                conflicts += 1;
            }
        }
    }
    // A conflict needs two crawlers of one token: few of the registry's.
    assert!(
        written > 10 * conflicts,
        "{written} written, {conflicts} conflicts"
    );
}

/// A site's own file with a group shared by search engines, an AI
/// crawler and a control token, a group Applebot follows (Googlebot's)
/// and one Yandex's crawlers follow.
const SITE: &str = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\n\
User-agent: bingbot\nUser-agent: GPTBot\nUser-agent: YandexAdditional\nDisallow: /cgi-bin/\n\n\
User-agent: Yandex\nDisallow: /yandex-only/\n";

#[test]
fn each_purpose_against_all_the_others_merged_into_a_site_file() {
    let tokens = by_token();
    let site = RobotsTxt::parse(SITE.as_bytes());
    let (mut written, mut restated) = (0, 0);
    for purpose in Purpose::ALL {
        for (alone, rest) in [(Access::Allow, Access::Deny), (Access::Deny, Access::Allow)] {
            let mut policy = Policy::new();
            for other in Purpose::ALL {
                policy = policy.with(other, if other == purpose { alone } else { rest });
            }
            let label = policy.describe();
            let merged = match merge(&policy, SITE.as_bytes()) {
                Ok(merged) => merged,
                // Checked by the sweep of new files: the same intents.
                Err(PolicyError::TokenConflict { .. }) => continue,
                Err(other) => panic!("{label}: {other}"),
            };
            written += 1;
            assert!(merged.proof.holds(), "{label}: {:?}", merged.proof.failures);
            // Search denied: Yandex's crawlers that followed the `Yandex`
            // group (YandexAdditionalBot, YandexPagechecker, ...), which
            // lacks `/private/`, get a copy that lacks it too, and (when the
            // count of R105 findings grows) a note says the finding is the
            // site's.
            restated += usize::from(merged.notes.iter().any(|n| {
                n.contains("R105 `Yandex") && n.contains("the site's file has this finding too")
            }));
            let robots = RobotsTxt::parse(&merged.robots_txt);
            for crawler in registry::crawlers() {
                if !crawler.runs() || crawler.ignores_robots_txt() {
                    continue;
                }
                let denied = crawler.name_is_token()
                    && tokens[&crawler.token.to_ascii_lowercase()]
                        .iter()
                        .any(|c| stated(&policy, c) == Some(Access::Deny));
                let view = robots.view(crawler);
                if denied {
                    assert!(!view.is_allowed("/"), "{label}: {}", crawler.name);
                    continue;
                }
                // Let in: every verdict the site's file gave it.
                let before = site.view(crawler);
                for path in ["/", "/private/x", "/cgi-bin/x", "/yandex-only/x"] {
                    assert_eq!(
                        view.is_allowed(path),
                        before.is_allowed(path),
                        "{label}: {} {path}",
                        crawler.name
                    );
                }
            }
        }
    }
    assert!(written >= 12, "{written} of 18 merged");
    assert!(restated > 0, "no merge restated the site's R105");
}

/// Yandex's parser lengthens the value of every robot a run of
/// `User-agent` lines has named by each later line of the run: a
/// `User-agent: Yandex` line followed in the denied search group by longer
/// names (`DuckDuckGo-Favicons-Bot`) would outweigh the
/// `User-agent: YandexPagechecker` line of the group that lets it in. The
/// writer puts `Yandex` last in its run, so Yandex's parser reads the
/// file as the policy means.
#[test]
fn a_broad_yandex_line_ends_its_run_so_yandex_reads_the_policy() {
    let mut policy = Policy::new().with_private("/private/");
    for purpose in Purpose::ALL {
        let access = if purpose == Purpose::Search {
            Access::Deny
        } else {
            Access::Allow
        };
        policy = policy.with(purpose, access);
    }
    let written = write(&policy).expect("written");
    let text = String::from_utf8_lossy(&written.robots_txt);
    let lines: Vec<&str> = text.lines().collect();
    let yandex = lines
        .iter()
        .position(|l| l.starts_with("User-agent: Yandex "))
        .expect("a `User-agent: Yandex` line");
    assert_eq!(lines[yandex + 1], "Disallow: /", "{text}");
    assert!(lines[yandex - 1].starts_with("User-agent: "), "{text}");

    let robots = RobotsTxt::parse_with(&written.robots_txt, Profile::YANDEX);
    for denied in ["YandexBot", "YandexImages"] {
        assert!(!robots.view(denied).is_allowed("/page"), "{denied}");
    }
    for kept in [
        "YandexPagechecker",
        "YandexMetrika",
        "YandexWebmaster",
        "YandexImageResizer",
    ] {
        let view = robots.view(kept);
        assert!(view.is_allowed("/page"), "{kept}\n{text}");
        assert!(!view.is_allowed("/private/x"), "{kept}");
    }
}
