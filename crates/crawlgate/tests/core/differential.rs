//! Differential test against an independent implementation: the
//! `robotstxt` crate, a Rust port of Google's C++ library.
//!
//! (a) every file of the real-world corpus × URLs derived from its own rules
//! plus random paths × several crawlers; (b) 100,000 generated cases aimed at
//! the hard parts. Every disagreement must belong to a class listed, with its
//! reason, in `testdata/differential/expected_disagreements.txt`; each class
//! is proven case by case (see `classify`), and every listed class must still
//! occur.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use common::paths_from_pattern;
use crawlgate::{Code, RobotsTxt};
use crawlgate_test_support::{reference_matches, Rng};
use robotstxt::matcher::{LongestMatchRobotsMatchStrategy, RobotsMatchStrategy};
use robotstxt::DefaultMatcher;

fn oracle_allowed(text: &str, agent: &str, url: &str) -> Option<bool> {
    catch_unwind(AssertUnwindSafe(|| {
        DefaultMatcher::default().one_agent_allowed_by_robots(text, agent, url)
    }))
    .ok()
}

fn oracle_matches(path: &str, pattern: &str) -> Option<bool> {
    catch_unwind(|| LongestMatchRobotsMatchStrategy::matches(path, pattern)).ok()
}

/// Our answer. The first question asked of a fresh model is answered by
/// trying its rules uncompiled; a view's compiled matcher must agree on
/// everything, the deciding rule included.
fn ours(text: &str, agent: &str, url: &str) -> bool {
    let robots = RobotsTxt::parse(text.as_bytes());
    let scanned = robots.decide(agent, url);
    let compiled = robots.view(agent).decide(url);
    let facts =
        |v: &crawlgate::Verdict<'_>| (v.is_allowed(), v.line(), v.reason(), v.via_index_alias());
    assert_eq!(
        facts(&scanned),
        facts(&compiled),
        "uncompiled and compiled lookups differ: agent={agent:?} url={url:?}\n{text:?}"
    );
    scanned.is_allowed()
}

/// Lines with their endings, split as the parser splits them.
fn split_lines(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                out.push((&text[start..i], "\r\n"));
                i += 2;
                start = i;
            }
            b'\r' | b'\n' => {
                out.push((&text[start..i], &text[i..i + 1]));
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    out.push((&text[start..], ""));
    out
}

/// Replaces the content of the given (1-based) lines.
fn replace_lines(text: &str, lines: &BTreeSet<u32>, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, (content, ending)) in split_lines(text).into_iter().enumerate() {
        if lines.contains(&(n as u32 + 1)) {
            out.push_str(with);
        } else {
            out.push_str(content);
        }
        out.push_str(ending);
    }
    out
}

/// Rewrites the input so that crawlgate reads it as the oracle does in one
/// respect. If crawlgate then agrees with the oracle, that quirk explains
/// the disagreement.
fn emulate(class: &str, text: &str) -> Option<String> {
    match class {
        "bom-not-skipped" => text.strip_prefix('\u{feff}').map(|rest| format!("x{rest}")),
        "non-rule-lines-end-groups" => {
            // An empty `Allow:` ends a user-agent list and decides nothing.
            let robots = RobotsTxt::parse(text.as_bytes());
            let lines: BTreeSet<u32> = robots
                .sitemaps()
                .map(|s| s.line())
                .chain(robots.extensions().map(|e| e.line()))
                .collect();
            (!lines.is_empty()).then(|| replace_lines(text, &lines, "Allow:"))
        }
        "missing-colon-after-indent" => {
            let robots = RobotsTxt::parse(text.as_bytes());
            let split = split_lines(text);
            let lines: BTreeSet<u32> = robots
                .diagnostics()
                .iter()
                .filter(|d| d.code == Code::MissingColon)
                .map(|d| d.span.line)
                .filter(|&l| {
                    split[l as usize - 1]
                        .0
                        .starts_with(|c: char| c.is_ascii_whitespace() || c == '\u{b}')
                })
                .collect();
            (!lines.is_empty()).then(|| replace_lines(text, &lines, ""))
        }
        _ => None,
    }
}

const EMULATED: &[&str] = &[
    "bom-not-skipped",
    "non-rule-lines-end-groups",
    "missing-colon-after-indent",
];

/// Names the class of one disagreement, or `None` if nothing explains it.
fn classify(text: &str, agent: &str, url: &str, oracle: bool) -> Option<String> {
    for class in EMULATED {
        if let Some(emulated) = emulate(class, text)
            && ours(&emulated, agent, url) == oracle
        {
            return Some((*class).to_owned());
        }
    }
    // The oracle's matcher against Google's algorithm, rule by rule.
    let robots = RobotsTxt::parse(text.as_bytes());
    let path = crawlgate::path_of(url);
    let matcher_differs = robots.rules().any(|rule| {
        let mut patterns = vec![rule.pattern()];
        patterns.extend(rule.index_alias());
        patterns.iter().any(|pattern| {
            oracle_matches(&path, pattern)
                .is_none_or(|o| o != reference_matches(pattern.as_bytes(), path.as_bytes()))
        })
    });
    if matcher_differs {
        return Some("oracle-matcher".into());
    }
    // The oracle's escaping of rule values against Google's (which ours is).
    let escaping_differs = robots.rules().any(|rule| {
        catch_unwind(|| robotstxt::parser::escape_pattern(rule.value()))
            .map_or(true, |escaped| escaped != rule.pattern())
    });
    if escaping_differs {
        return Some("oracle-escaping".into());
    }
    // Several quirks at once.
    let mut combined = text.to_owned();
    let mut used = Vec::new();
    for class in EMULATED {
        if let Some(emulated) = emulate(class, &combined) {
            combined = emulated;
            used.push(*class);
        }
    }
    if used.len() > 1 && ours(&combined, agent, url) == oracle {
        return Some(used[0].to_owned());
    }
    if text.contains('\0') {
        return Some("nul-byte".into());
    }
    if split_lines(text)
        .iter()
        .any(|(line, _)| line.len() > 16_663)
    {
        return Some("long-line".into());
    }
    if text.chars().any(|c| c.is_whitespace() && !c.is_ascii()) {
        return Some("unicode-whitespace".into());
    }
    None
}

#[derive(Default)]
struct Tally {
    checks: usize,
    classes: BTreeMap<String, usize>,
    unexplained: Vec<String>,
}

impl Tally {
    fn check(&mut self, label: &str, text: &str, agent: &str, url: &str) {
        self.checks += 1;
        let ours = ours(text, agent, url);
        let class = match oracle_allowed(text, agent, url) {
            None => Some("oracle-panics".to_owned()),
            Some(oracle) if oracle == ours => return,
            Some(oracle) => classify(text, agent, url, oracle),
        };
        match class {
            Some(class) => *self.classes.entry(class).or_default() += 1,
            None if self.unexplained.len() < 20 => self.unexplained.push(format!(
                "{label}: agent={agent:?} url={url:?} ours={ours}\n{text:?}"
            )),
            None => self.unexplained.push(String::new()),
        }
    }

    fn merge(&mut self, other: Tally) {
        self.checks += other.checks;
        for (class, n) in other.classes {
            *self.classes.entry(class).or_default() += n;
        }
        self.unexplained.extend(other.unexplained);
    }
}

fn expected_classes() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/differential/expected_disagreements.txt");
    std::fs::read_to_string(path)
        .expect("expected_disagreements.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, reason) = l.split_once(':').expect("`name: reason`");
            (name.trim().to_owned(), reason.trim().to_owned())
        })
        .collect()
}

fn corpus_part() -> Tally {
    let files = common::corpus_files();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunks: Vec<&[(String, Vec<u8>)]> = files.chunks(files.len().div_ceil(threads)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .into_iter()
            .enumerate()
            .map(|(t, chunk)| {
                scope.spawn(move || {
                    let mut tally = Tally::default();
                    let mut rng = Rng::new(0xC0FFEE + t as u64);
                    for (name, bytes) in chunk {
                        // The oracle takes `&str`: both sides read the same text.
                        let text = String::from_utf8_lossy(bytes).into_owned();
                        let robots = RobotsTxt::parse(text.as_bytes());
                        let mut agents: Vec<String> = robots
                            .user_agents()
                            .map(|ua| ua.token().to_owned())
                            .filter(|t| !t.is_empty())
                            .collect::<BTreeSet<_>>()
                            .into_iter()
                            .take(2)
                            .collect();
                        agents.push("Googlebot".into());
                        agents.push("crawlgatebot".into());
                        let rules: Vec<_> = robots.rules().collect();
                        let stride = rules.len().div_ceil(10).max(1);
                        let mut urls = vec!["/".to_owned(), "/index.html".to_owned()];
                        for rule in rules.iter().step_by(stride) {
                            urls.extend(paths_from_pattern(rule.pattern(), &mut rng));
                        }
                        for _ in 0..3 {
                            let segments = 1 + rng.below(3);
                            let mut path = String::new();
                            for _ in 0..segments {
                                path.push('/');
                                path.push_str(rng.pick(&[
                                    "a", "search", "wp-admin", "p?id=1", "img.png", "cart",
                                ]));
                            }
                            urls.push(format!("https://{name}{path}"));
                        }
                        for agent in &agents {
                            for url in &urls {
                                tally.check(name, &text, agent, url);
                            }
                        }
                    }
                    tally
                })
            })
            .collect();
        let mut total = Tally::default();
        for handle in handles {
            total.merge(handle.join().expect("worker finished"));
        }
        total
    })
}

fn generated_part(cases: usize) -> Tally {
    let mut tally = Tally::default();
    let mut rng = Rng::new(9309);
    for i in 0..cases {
        let (bytes, patterns) = common::gen_robots(&mut rng);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let url = common::gen_url(&mut rng, &patterns);
        let agent = rng.pick(common::AGENTS);
        tally.check(&format!("generated #{i}"), &text, agent, &url);
    }
    tally
}

#[test]
fn differential_against_robotstxt_crate() {
    // The oracle panics on some inputs; those are counted, not printed.
    std::panic::set_hook(Box::new(|_| {}));
    let expected = expected_classes();
    let corpus = corpus_part();
    let generated = generated_part(100_000);
    let _ = std::panic::take_hook();

    for (name, tally) in [("corpus", &corpus), ("generated", &generated)] {
        let disagreements: usize = tally.classes.values().sum();
        eprintln!(
            "differential/{name}: {} checks, {} agree, {} disagreements by class: {:?}",
            tally.checks,
            tally.checks - disagreements - tally.unexplained.len(),
            disagreements,
            tally.classes
        );
    }
    assert!(
        corpus.checks > 50_000,
        "corpus part too small: {}",
        corpus.checks
    );
    assert_eq!(generated.checks, 100_000);

    let mut all = Tally::default();
    all.merge(corpus);
    all.merge(generated);
    assert!(
        all.unexplained.is_empty(),
        "{} disagreements no listed class explains; first ones:\n{}",
        all.unexplained.len(),
        all.unexplained
            .iter()
            .filter(|s| !s.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
    for class in all.classes.keys() {
        assert!(
            expected.contains_key(class),
            "class {class} is not listed with a reason"
        );
    }
    for class in expected.keys() {
        assert!(
            all.classes.contains_key(class),
            "class {class} is listed but no longer occurs: remove it from expected_disagreements.txt"
        );
    }
}
