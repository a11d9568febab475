//! `decide_once` (streaming, no model) gives exactly the model's answers.

use crate::common;

use crawlgate::{decide_once_with, Profile, RobotsTxt};
use crawlgate_test_support::Rng;

fn same(bytes: &[u8], profile: Profile, agent: &str, url: &str) -> Result<(), String> {
    let robots = RobotsTxt::parse_with(bytes, profile);
    let model = robots.decide(agent, url);
    let once = decide_once_with(bytes, profile, agent, url);
    let model_rule = model.rule().map(|r| (r.kind(), r.value().to_owned()));
    let once_rule = once.rule().map(|(k, v)| (k, v.into_owned()));
    if (
        model.is_allowed(),
        model.reason(),
        model.line(),
        model_rule,
        model.via_index_alias(),
    ) == (
        once.is_allowed(),
        once.reason(),
        once.line(),
        once_rule,
        once.via_index_alias(),
    ) {
        Ok(())
    } else {
        Err(format!(
            "[{}] agent={agent:?} url={url:?}\nmodel: {model:?}\nonce:  {once:?}\n{:?}",
            profile.name,
            String::from_utf8_lossy(bytes)
        ))
    }
}

#[test]
fn generated_files_agree_with_the_model() {
    let mut rng = Rng::new(77);
    let mut failures = Vec::new();
    for _ in 0..30_000 {
        let (bytes, patterns) = common::gen_robots(&mut rng);
        let url = common::gen_url(&mut rng, &patterns);
        let agent = rng.pick(common::AGENTS);
        for profile in Profile::ALL {
            if let Err(e) = same(&bytes, profile, agent, &url) {
                failures.push(e);
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
fn corpus_files_agree_with_the_model() {
    let mut rng = Rng::new(78);
    let mut checks = 0;
    for (name, bytes) in common::corpus_files() {
        let robots = RobotsTxt::parse(&bytes);
        let urls = common::corpus_urls(&name, &robots, 5, &mut rng);
        let mut agents: Vec<String> = robots
            .user_agents()
            .map(|u| u.token().to_owned())
            .take(2)
            .collect();
        agents.push("crawlgatebot".into());
        for agent in &agents {
            for url in &urls {
                checks += 1;
                if let Err(e) = same(&bytes, Profile::GOOGLE, agent, url) {
                    panic!("{name}: {e}");
                }
            }
        }
    }
    assert!(checks > 50_000, "{checks}");
}
