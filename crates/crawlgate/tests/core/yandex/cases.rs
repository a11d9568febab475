//! The hand-written cases of `testdata/yandex/cases.toml`: one or more per
//! behaviour of Yandex's parser, each answer checked with that parser.
//! Every case is asked by the robot's name (one token), by the crawler
//! reading, and through a kept `CompiledRobotsTxt`.

use base64::Engine;
use crawlgate::Who;
use crawlgate::{CompiledRobotsTxt, Profile, RobotsTxt};
use serde::Deserialize;

#[derive(Deserialize)]
struct Cases {
    case: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    behaviour: String,
    robots: Option<String>,
    robots_b64: Option<String>,
    urls: Vec<(String, String, bool)>,
}

pub(crate) fn bytes_of(text: &Option<String>, b64: &Option<String>) -> Vec<u8> {
    match (text, b64) {
        (Some(text), None) => text.as_bytes().to_vec(),
        (None, Some(b64)) => base64::engine::general_purpose::STANDARD
            .decode(b64)
            .expect("base64"),
        _ => panic!("a case has `robots` or `robots_b64`"),
    }
}

#[test]
fn hand_written_cases_of_each_behaviour() {
    let path = crawlgate_corpus::repository_root().join("testdata/yandex/cases.toml");
    let text = std::fs::read_to_string(&path).expect("cases.toml");
    let cases: Cases = toml::from_str(&text).expect("cases.toml reads");
    assert!(cases.case.len() >= 25, "{}", cases.case.len());
    let mut failures = Vec::new();
    let mut asked = 0;
    for case in &cases.case {
        assert!(!case.behaviour.is_empty(), "{}", case.name);
        let bytes = bytes_of(&case.robots, &case.robots_b64);
        let robots = RobotsTxt::parse_with(&bytes, Profile::YANDEX);
        let kept = CompiledRobotsTxt::new(RobotsTxt::parse_with(&bytes, Profile::YANDEX));
        for (robot, url, allowed) in &case.urls {
            asked += 1;
            let got = [
                robots.decide(robot, url).is_allowed(),
                robots.decide(Who::crawler(robot), url).is_allowed(),
                kept.view(robot).is_allowed(url),
            ];
            if got != [*allowed; 3] {
                failures.push(format!(
                    "{} ({}): {robot} {url:?} should be {}, is {got:?}",
                    case.name, case.behaviour, allowed
                ));
            }
        }
    }
    assert!(asked > 70, "{asked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Yandex's parser refuses a robot whose rules are only disallows, one of
/// them `/`, whatever string it is asked about, one without a leading `/`
/// too (`""`, `abc`): that rule decides, and `matching_rules` lists it
/// first although its pattern does not match the string. With an allow
/// beside it, nothing matches such a string and it is allowed.
#[test]
fn a_disallow_all_robot_is_refused_strings_without_a_slash_by_that_rule() {
    let body = b"User-agent: a\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";
    let robots = RobotsTxt::parse_with(body, Profile::YANDEX);
    for url in ["", "abc"] {
        for agent in ["a", "mybot"] {
            let view = robots.view(agent);
            let verdict = view.decide(url);
            assert!(!verdict.is_allowed(), "{agent} {url:?}");
            assert_eq!(verdict.line(), Some(5), "{agent} {url:?}");
            let matching = view.matching_rules(url);
            assert_eq!(
                matching.iter().map(|m| m.rule.line()).collect::<Vec<_>>(),
                [5],
                "{agent} {url:?}"
            );
        }
    }

    let body = b"User-agent: *\nAllow: /a\nDisallow: /\n";
    let robots = RobotsTxt::parse_with(body, Profile::YANDEX);
    let view = robots.view("mybot");
    assert!(view.decide("").is_allowed());
    assert!(view.matching_rules("").is_empty());
    assert!(!view.decide("/").is_allowed());
}
