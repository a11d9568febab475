//! The legacy profile against the reading it emulates: Python's
//! `urllib.robotparser`, run in a `python3` subprocess, on generated files
//! aimed at the hard parts and on the real-world corpus. Every disagreement
//! must belong to a class in `testdata/differential/urllib_expected.txt`,
//! and every class there must still occur.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crawlgate::{Profile, RobotsTxt};
use crawlgate_test_support::Rng;

const SCRIPT: &str = r#"
import json, sys, urllib.robotparser
for line in sys.stdin:
    case = json.loads(line)
    parser = urllib.robotparser.RobotFileParser()
    parser.parse(case["robots"].splitlines())
    print(json.dumps([parser.can_fetch(agent, url) for agent, url in case["checks"]]), flush=False)
"#;

struct Case {
    label: String,
    text: String,
    checks: Vec<(String, String)>,
}

fn python_answers(cases: &[Case]) -> Vec<Vec<bool>> {
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is required for this test (the README's test command installs nothing else for it)");
    let mut stdin = child.stdin.take().expect("stdin");
    let input: Vec<String> = cases
        .iter()
        .map(|c| {
            let checks: Vec<[&str; 2]> = c
                .checks
                .iter()
                .map(|(a, u)| [a.as_str(), u.as_str()])
                .collect();
            serde_json::json!({ "robots": c.text, "checks": checks }).to_string()
        })
        .collect();
    let writer = std::thread::spawn(move || {
        for line in input {
            writeln!(stdin, "{line}").expect("write to python3");
        }
    });
    let answers: Vec<Vec<bool>> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("python3 output")).expect("a JSON list"))
        .collect();
    writer.join().expect("writer");
    assert!(
        child.wait().expect("python3 exits").success(),
        "python3 failed"
    );
    assert_eq!(answers.len(), cases.len(), "python3 answered every case");
    answers
}

fn classify(text: &str, agent: &str, url: &str, python: bool) -> Option<&'static str> {
    if let Some(rest) = text.strip_prefix('\u{feff}') {
        let emulated = format!("x{rest}");
        if RobotsTxt::parse_with(emulated.as_bytes(), Profile::LEGACY).is_allowed(agent, url)
            == python
        {
            return Some("bom");
        }
    }
    if text.contains('\0') {
        return Some("nul-byte");
    }
    let odd_space =
        |c: char| (c.is_whitespace() && !c.is_ascii()) || ('\u{1c}'..='\u{1f}').contains(&c);
    if text.chars().any(odd_space) || agent.chars().any(odd_space) || url.chars().any(odd_space) {
        return Some("unicode-whitespace");
    }
    None
}

#[test]
fn legacy_profile_reads_like_urllib_robotparser() {
    let mut rng = Rng::new(1996);
    let mut cases = Vec::new();
    for i in 0..20_000 {
        let (bytes, patterns) = common::gen_robots(&mut rng);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let checks = (0..3)
            .map(|_| {
                (
                    rng.pick(common::AGENTS).to_owned(),
                    common::gen_url(&mut rng, &patterns),
                )
            })
            .collect();
        cases.push(Case {
            label: format!("generated #{i}"),
            text,
            checks,
        });
    }
    for (name, bytes) in common::corpus_files().into_iter().step_by(2) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let robots = RobotsTxt::parse_with(text.as_bytes(), Profile::LEGACY);
        let mut urls = vec!["/".to_owned(), "/index.html".to_owned()];
        for rule in robots
            .rules()
            .step_by(robots.rules().len().div_ceil(4).max(1))
        {
            urls.extend(common::paths_from_pattern(rule.value(), &mut rng));
        }
        let mut agents: Vec<String> = robots
            .user_agents()
            .map(|u| u.value().to_owned())
            .take(2)
            .collect();
        agents.push("crawlgatebot/1.0".into());
        let checks = agents
            .iter()
            .flat_map(|a| urls.iter().map(move |u| (a.clone(), u.clone())))
            .collect();
        cases.push(Case {
            label: name,
            text,
            checks,
        });
    }

    let answers = python_answers(&cases);
    let expected: BTreeSet<String> = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/differential/urllib_expected.txt"),
    )
    .expect("urllib_expected.txt")
    .lines()
    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    .map(|l| {
        l.split_once(':')
            .expect("`name: reason`")
            .0
            .trim()
            .to_owned()
    })
    .collect();
    let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    let mut checks = 0;
    for (case, answers) in cases.iter().zip(&answers) {
        let robots = RobotsTxt::parse_with(case.text.as_bytes(), Profile::LEGACY);
        for ((agent, url), &python) in case.checks.iter().zip(answers) {
            checks += 1;
            if robots.is_allowed(agent, url) == python {
                continue;
            }
            match classify(&case.text, agent, url, python) {
                Some(class) => *classes.entry(class).or_default() += 1,
                None => unexplained.push(format!(
                    "{}: agent={agent:?} url={url:?} python={python}\n{:?}",
                    case.label, case.text
                )),
            }
        }
    }
    eprintln!(
        "urllib: {checks} checks, disagreements by class: {classes:?}, unexplained: {}",
        unexplained.len()
    );
    assert!(checks > 80_000, "{checks}");
    assert!(
        unexplained.is_empty(),
        "{} disagreements no class explains; first:\n{}",
        unexplained.len(),
        unexplained
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    for class in classes.keys() {
        assert!(
            expected.contains(*class),
            "class {class} is not listed with a reason"
        );
    }
    for class in &expected {
        assert!(
            classes.contains_key(class.as_str()),
            "class {class} no longer occurs: remove it"
        );
    }
}
