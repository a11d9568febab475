//! Runs every case in `testdata/conformance/*.toml` (see the README there)
//! under each profile it names, and reports all failures together.
//! `CRAWLGATE_TEST=substring` runs only the matching `file/name` cases.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use crawlgate::{AgentView, CompiledRobotsTxt, Profile, RobotsTxt, Verdict, Who};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    spec: String,
    #[serde(default)]
    profiles: Option<Vec<String>>,
    #[serde(default)]
    robots: Option<String>,
    #[serde(default)]
    robots_b64: Option<String>,
    agent: String,
    url: String,
    allowed: bool,
    #[serde(default)]
    line: Option<u32>,
    #[serde(default)]
    urls: Vec<(String, bool, Option<u32>)>,
    /// `crawler` for the crawler reading (`Who::crawler`); the one-token
    /// reading (a token) by default.
    #[serde(default)]
    reading: Option<String>,
    /// The documentation line a crawler-reading case follows.
    #[serde(default)]
    cites: Option<String>,
    /// How the groups were chosen (`ChoiceKind::as_str`).
    #[serde(default)]
    choice: Option<String>,
    /// The token whose groups decided (`*` for the `*` groups).
    #[serde(default)]
    token: Option<String>,
    /// The line of the crawl delay the crawler obeys; 0 = none.
    #[serde(default)]
    crawl_delay_line: Option<u32>,
}

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/conformance")
}

#[test]
fn conformance() {
    let filter = std::env::var("CRAWLGATE_TEST").unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(testdata())
        .expect("testdata/conformance exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        let cases: CaseFile =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut names = std::collections::HashSet::new();
        for case in cases.case {
            let full = format!("{stem}/{}", case.name);
            assert!(
                names.insert(case.name.clone()),
                "duplicate case name {full}"
            );
            assert!(
                case.spec.starts_with('§'),
                "{full}: spec must cite a SPEC section"
            );
            if !full.contains(&filter) {
                continue;
            }
            let bytes = match (&case.robots, &case.robots_b64) {
                (Some(text), None) => text.as_bytes().to_vec(),
                (None, Some(b64)) => base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .unwrap_or_else(|e| panic!("{full}: bad base64: {e}")),
                _ => panic!("{full}: give exactly one of robots, robots_b64"),
            };
            let profiles = case
                .profiles
                .clone()
                .unwrap_or_else(|| vec!["google".into()]);
            let crawler_reading = match case.reading.as_deref() {
                None | Some("one-token") => false,
                Some("crawler") => true,
                Some(other) => panic!("{full}: unknown reading {other:?}"),
            };
            assert!(
                !crawler_reading || case.cites.as_deref().is_some_and(|c| c.len() > 20),
                "{full}: a crawler-reading case cites the documentation line it follows"
            );
            fn view<'r>(robots: &'r RobotsTxt, agent: &str, crawler: bool) -> AgentView<'r> {
                if crawler {
                    robots.view(Who::crawler(agent))
                } else {
                    robots.view(agent)
                }
            }
            let mut expectations = vec![(case.url.clone(), case.allowed, case.line)];
            expectations.extend(case.urls.iter().cloned());
            for profile_name in &profiles {
                let profile = Profile::named(profile_name)
                    .unwrap_or_else(|| panic!("{full}: unknown profile {profile_name}"));
                let robots = RobotsTxt::parse_with(&bytes, profile);
                let kept = CompiledRobotsTxt::new(robots.clone());
                let choice = view(&robots, &case.agent, crawler_reading).group_choice();
                let got = (
                    choice.kind().as_str().to_owned(),
                    choice.token().map(str::to_owned),
                );
                let want_choice = case.choice.clone().unwrap_or_else(|| got.0.clone());
                let want_token = case.token.clone().or_else(|| got.1.clone());
                if got != (want_choice.clone(), want_token.clone()) {
                    failures.push(format!(
                        "{full} [{profile_name}] agent={:?}: expected choice {want_choice} token {want_token:?}, got {got:?} ({choice})",
                        case.agent
                    ));
                }
                if let Some(want) = case.crawl_delay_line {
                    let got = view(&robots, &case.agent, crawler_reading)
                        .crawl_delay()
                        .map_or(0, |d| d.line);
                    if got != want {
                        failures.push(format!(
                            "{full} [{profile_name}] agent={:?}: expected crawl delay at line {want}, got {got}",
                            case.agent
                        ));
                    }
                }
                for (url, allowed, line) in &expectations {
                    checked += 1;
                    // Every lookup: the first question of a fresh model
                    // (rules tried uncompiled), a compiled view, and a
                    // kept file's shared rules.
                    let first = RobotsTxt::parse_with(&bytes, profile);
                    let (scanned, shared): (Verdict<'_>, Verdict<'_>) = if crawler_reading {
                        (
                            first.decide(Who::crawler(&case.agent), url),
                            kept.decide(Who::crawler(&case.agent), url),
                        )
                    } else {
                        (
                            first.decide(&case.agent, url),
                            kept.decide(&case.agent, url),
                        )
                    };
                    let verdict = view(&robots, &case.agent, crawler_reading).decide(url);
                    for other in [scanned, shared] {
                        if (other.is_allowed(), other.line())
                            != (verdict.is_allowed(), verdict.line())
                        {
                            failures.push(format!(
                                "{full} [{profile_name}] agent={:?} url={url:?}: {other:?} differs from the compiled view's {verdict:?}",
                                case.agent
                            ));
                        }
                    }
                    let got_line = verdict.line().unwrap_or(0);
                    let line_ok = line.is_none_or(|l| l == got_line);
                    if verdict.is_allowed() != *allowed || !line_ok {
                        failures.push(format!(
                            "{full} [{profile_name}] agent={:?} url={url:?}: expected allowed={allowed} line={line:?}, got allowed={} line={got_line} ({:?})",
                            case.agent,
                            verdict.is_allowed(),
                            verdict
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if filter.is_empty() {
        assert!(checked > 200, "only {checked} checks ran");
    }
}
