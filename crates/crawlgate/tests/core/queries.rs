//! The ways of asking: `RobotsTxt::decide` (one question, nothing kept),
//! `AgentView` (many questions: its first ones answered by trying the rules,
//! later ones by the rules it compiles), `CompiledRobotsTxt` (rules compiled
//! once per set of groups, shared by every crawler obeying them), and
//! `decide_once` (straight from the bytes) all give the same answers,
//! whatever was asked before.

use crate::common;

use common::{gen_robots, gen_url, AGENTS};
use crawlgate::{decide_once_with, path_of, CompiledRobotsTxt, Profile, RobotsTxt, Verdict};
use crawlgate_test_support::Rng;

/// Everything a verdict says.
fn facts(v: &Verdict<'_>) -> (bool, Option<u32>, crawlgate::Reason, bool, Vec<usize>) {
    (
        v.is_allowed(),
        v.line(),
        v.reason(),
        v.via_index_alias(),
        v.groups().map(|g| g.index()).collect(),
    )
}

const PROFILES: [Profile; 3] = [Profile::GOOGLE, Profile::RFC9309, Profile::LEGACY];

#[test]
fn decide_answers_the_same_on_every_call() {
    let body = b"User-agent: Googlebot\nDisallow: /private\nAllow: /private/press\n\n\
                 User-agent: *\nDisallow: /*.pdf$\nAllow: /dir/index.html\n";
    let robots = RobotsTxt::parse(body);
    let questions = [
        ("Googlebot", "https://example.com/private/x"),
        ("Googlebot", "/private/press/today"),
        ("otherbot", "https://example.com/a/b.pdf"),
        ("otherbot", "/dir/"),
        ("otherbot", "/page"),
    ];
    // What a freshly parsed file says to each question asked first.
    let first: Vec<_> = questions
        .iter()
        .map(|(agent, url)| facts(&RobotsTxt::parse(body).decide(agent, url)))
        .collect();
    assert_eq!(
        first.iter().map(|f| f.0).collect::<Vec<_>>(),
        [false, true, false, true, true]
    );
    // The same file asked them again and again, agents interleaved.
    for round in 0..100 {
        for (i, (agent, url)) in questions.iter().enumerate() {
            assert_eq!(
                facts(&robots.decide(agent, url)),
                first[i],
                "round {round}: {agent} {url}"
            );
        }
    }
}

#[test]
fn a_view_answers_the_same_before_and_after_compiling_its_rules() {
    let mut rng = Rng::new(0x5EED_F1A2);
    let mut compared = 0;
    for _ in 0..3_000 {
        let (body, patterns) = gen_robots(&mut rng);
        let urls: Vec<String> = (0..8).map(|_| gen_url(&mut rng, &patterns)).collect();
        let agent = rng.pick(AGENTS);
        for profile in PROFILES {
            let robots = RobotsTxt::parse_with(&body, profile);
            // A view asked the same URLs twice over: the first answers come
            // from trying the rules, the later ones from the compiled rules.
            let view = robots.view(agent);
            let eager = robots.view(agent);
            let compiled = eager.rules_by_precedence().len();
            for url in urls.iter().chain(&urls) {
                let expected = facts(&robots.decide(agent, url));
                assert_eq!(
                    facts(&view.decide(url)),
                    expected,
                    "{} {agent:?} {url:?} in {:?}",
                    profile.name,
                    String::from_utf8_lossy(&body)
                );
                assert_eq!(facts(&eager.decide(url)), expected);
                // The compiled winner is the first of the matching rules.
                let matching = eager.matching_rules(url);
                if let (Some(rule), Some(first)) = (view.decide(url).rule(), matching.first()) {
                    assert_eq!(rule.index(), first.rule.index(), "{url:?}");
                }
                compared += 1;
            }
            assert_eq!(eager.rules_by_precedence().len(), compiled);
        }
    }
    assert_eq!(compared, 3_000 * 3 * 16);
}

#[test]
fn a_kept_file_answers_every_crawler_as_the_file_does() {
    let mut rng = Rng::new(0xC0_4B11ED);
    let mut compared = 0;
    for _ in 0..1_500 {
        let (body, patterns) = gen_robots(&mut rng);
        let urls: Vec<String> = (0..6).map(|_| gen_url(&mut rng, &patterns)).collect();
        for profile in PROFILES {
            let robots = RobotsTxt::parse_with(&body, profile);
            let kept = CompiledRobotsTxt::new(robots.clone());
            // Crawlers interleaved, each URL asked several times: crawlers
            // sharing groups share compiled rules, compiled midway through.
            for url in urls.iter().chain(&urls).chain(&urls) {
                for agent in AGENTS {
                    let expected = facts(&robots.decide(agent, url));
                    assert_eq!(
                        facts(&kept.decide(agent, url)),
                        expected,
                        "{} {agent:?} {url:?} in {:?}",
                        profile.name,
                        String::from_utf8_lossy(&body)
                    );
                    assert_eq!(kept.is_allowed(agent, url), expected.0);
                    assert_eq!(facts(&kept.view(agent).decide(url)), expected);
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 1_500 * 3 * 18 * AGENTS.len());
}

#[test]
fn views_of_the_corpus_agree_with_decide_and_decide_once() {
    let mut rng = Rng::new(7);
    for (name, bytes) in common::corpus_files().iter().step_by(3) {
        let robots = RobotsTxt::parse(bytes);
        let agent = rng.pick(&["googlebot", "bingbot", "crawlgatebot"]);
        let view = robots.view(agent);
        let mut urls = vec![format!("https://{name}/"), format!("https://{name}/x?y")];
        for rule in robots.rules().take(12) {
            let path = rule.pattern().replace('*', "q").replace('$', "");
            urls.push(format!("https://{name}/{}", path.trim_start_matches('/')));
            urls.push(format!("https://{name}{}#f", path));
        }
        for url in urls.iter().chain(&urls) {
            let answer = view.decide(url);
            assert_eq!(
                facts(&answer),
                facts(&robots.decide(agent, url)),
                "{name} {url}"
            );
            let once = decide_once_with(bytes, Profile::GOOGLE, agent, url);
            assert_eq!(answer.is_allowed(), once.is_allowed(), "{name} {url}");
            assert_eq!(answer.line(), once.line(), "{name} {url}");
        }
    }
}

#[test]
fn absolute_urls_are_decided_by_their_path() {
    let mut rng = Rng::new(0x0AB5_107E);
    let hosts = [
        "https://example.com",
        "http://EXAMPLE.com:8080",
        "https://user:pw@host.example",
        "//example.com",
        "example.com",
        "http://h",
    ];
    for _ in 0..2_000 {
        let (body, patterns) = gen_robots(&mut rng);
        let robots = RobotsTxt::parse(&body);
        let agent = rng.pick(AGENTS);
        let view = robots.view(agent);
        for _ in 0..6 {
            let url = gen_url(&mut rng, &patterns);
            let path = path_of(&url).into_owned();
            let absolute = format!("{}{}", rng.pick(&hosts), path);
            let by_url = facts(&view.decide(&absolute));
            assert_eq!(by_url, facts(&view.decide_path(&path)), "{absolute:?}");
            assert_eq!(by_url, facts(&robots.decide(agent, &absolute)));
        }
    }
}
