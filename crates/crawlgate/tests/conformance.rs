//! Runs every case in `testdata/conformance/*.toml` (see the README there)
//! under each profile it names, and reports all failures together.
//! `CRAWLGATE_TEST=substring` runs only the matching `file/name` cases.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use crawlgate::{Profile, RobotsTxt};
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
            let mut expectations = vec![(case.url.clone(), case.allowed, case.line)];
            expectations.extend(case.urls.iter().cloned());
            for profile_name in &profiles {
                let profile = Profile::named(profile_name)
                    .unwrap_or_else(|| panic!("{full}: unknown profile {profile_name}"));
                let robots = RobotsTxt::parse_with(&bytes, profile);
                for (url, allowed, line) in &expectations {
                    checked += 1;
                    // Both lookups: the first question of a fresh model
                    // (rules tried uncompiled) and a compiled view.
                    let first = RobotsTxt::parse_with(&bytes, profile);
                    let scanned = first.decide(&case.agent, url);
                    let verdict = robots.for_agent(&case.agent).decide(url);
                    if (scanned.is_allowed(), scanned.line())
                        != (verdict.is_allowed(), verdict.line())
                    {
                        failures.push(format!(
                            "{full} [{profile_name}] agent={:?} url={url:?}: uncompiled {scanned:?}, compiled {verdict:?}",
                            case.agent
                        ));
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
