//! Every rule's `fires` fixture, rendered for people (an insta snapshot per
//! code, in `tests/snapshots/`), as JSON (parsed back with serde_json) and as
//! SARIF 2.1.0 (checked for the structure code-scanning needs).

use crawlgate::Profile;
use crawlgate_lint::{lint, render, Code, LintOptions, LintReport, RULES};
use crawlgate_test_support::lint_fixtures;
use serde_json::Value;

fn fixture(code: Code, which: &str) -> Vec<u8> {
    lint_fixtures::read(code.as_str(), which)
}

fn lint_fixture(bytes: &[u8]) -> LintReport {
    let mut options = LintOptions::everything().with_audit(false);
    if let Some(name) = lint_fixtures::profile(bytes) {
        options = options.with_profile(Profile::named(&name).expect("a profile"));
    }
    lint(bytes, &options)
}

#[test]
fn human_rendering_of_every_fixture() {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for rule in RULES {
            let source = fixture(rule.code, "fires");
            let report = lint_fixture(&source);
            let mut text = render::human(&report, &source, "robots.txt", false);
            text.push_str(&render::summary(&report, "robots.txt"));
            insta::assert_snapshot!(format!("fixture_{}", rule.code), text);
        }
    });
}

#[test]
fn json_of_every_fixture_parses_and_carries_every_field() {
    for rule in RULES {
        for which in ["fires", "clean"] {
            let source = fixture(rule.code, which);
            let report = lint_fixture(&source);
            let json = render::json(&[render::LintedFile {
                path: "dir/robots \"x\".txt",
                source: &source,
                report: &report,
            }]);
            let value: Value = serde_json::from_str(&json)
                .unwrap_or_else(|e| panic!("{} {which}: {e}\n{json}", rule.code));
            let items = value.as_array().expect("an array");
            assert_eq!(items.len(), report.diagnostics.len());
            for (item, d) in items.iter().zip(&report.diagnostics) {
                assert_eq!(item["file"], "dir/robots \"x\".txt");
                assert_eq!(item["code"], d.code.as_str());
                assert_eq!(item["name"], d.code.name());
                assert_eq!(item["severity"], d.severity.as_str());
                assert_eq!(item["line"], d.span.line);
                assert_eq!(item["column"], d.span.column);
                assert!(item["end_column"].as_u64().unwrap() > u64::from(d.span.column));
                assert_eq!(item["message"], d.message.as_ref());
                match &d.fix {
                    Some(fix) => assert_eq!(item["fix"]["message"], fix.message.as_ref()),
                    None => assert!(item["fix"].is_null()),
                }
            }
        }
    }
}

#[test]
fn sarif_has_the_structure_code_scanning_needs() {
    let sources: Vec<(String, Vec<u8>)> = RULES
        .iter()
        .map(|r| (format!("fixtures/{}.txt", r.code), fixture(r.code, "fires")))
        .collect();
    let reports: Vec<LintReport> = sources.iter().map(|(_, s)| lint_fixture(s)).collect();
    let files: Vec<render::LintedFile<'_>> = sources
        .iter()
        .zip(&reports)
        .map(|((path, source), report)| render::LintedFile {
            path,
            source,
            report,
        })
        .collect();
    let sarif: Value = serde_json::from_str(&render::sarif(&files)).expect("valid JSON");
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "crawlgate");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), RULES.len());
    for (json, rule) in rules.iter().zip(RULES) {
        assert_eq!(json["id"], rule.code.as_str());
        assert!(json["help"]["markdown"]
            .as_str()
            .unwrap()
            .contains("## What it does"));
    }
    let results = run["results"].as_array().unwrap();
    let total: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    assert_eq!(results.len(), total);
    for result in results {
        let id = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id);
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().unwrap()));
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        assert!(location["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .starts_with("fixtures/R"));
        let region = &location["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1);
        let start = region["startColumn"].as_u64().unwrap();
        assert!(region["endColumn"].as_u64().unwrap() > start);
        if let Some(fixes) = result.get("fixes") {
            let change = &fixes[0]["artifactChanges"][0];
            assert!(change["replacements"][0]["insertedContent"]["text"].is_string());
        }
    }
}

#[test]
fn json_escapes_what_it_must() {
    let source = b"User-agent: *\nDisallow: /a\"b\\c\tz\nDisallow: /a\"b\\c\tz\n";
    let report = lint(source, &LintOptions::default());
    let json = render::json(&[render::LintedFile {
        path: "p",
        source,
        report: &report,
    }]);
    let value: Value = serde_json::from_str(&json).expect("valid JSON");
    let duplicate = value
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "R201")
        .expect("the duplicate rule is reported");
    assert!(duplicate["message"]
        .as_str()
        .unwrap()
        .contains("`Disallow: /a\"b\\c\tz`"));
}
