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
