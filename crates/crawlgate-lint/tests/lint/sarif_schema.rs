//! The SARIF output validates against the official SARIF 2.1.0 JSON schema
//! (`testdata/sarif/`), for every rule's fixtures (each fixture alone, and
//! all of them in one log) and for files whose findings carry fixes,
//! non-ASCII text and odd paths.

use crawlgate_lint::{lint, render, LintOptions, LintReport, RULES};
use crawlgate_test_support::lint_fixtures;
use serde_json::Value;

fn testdata(path: &str) -> String {
    format!("{}/../../testdata/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn validator() -> jsonschema::Validator {
    let path = testdata("sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft4::new(&schema).expect("the schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, sarif: &str) {
    let log: Value = serde_json::from_str(sarif).unwrap_or_else(|e| panic!("{what}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

fn lint_file(bytes: &[u8]) -> LintReport {
    lint(bytes, &LintOptions::everything().with_audit(false))
}

#[test]
fn the_schema_rejects_what_it_must() {
    // The test would prove nothing if the validator accepted anything.
    let validator = validator();
    let bad = r#"{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}"#;
    assert!(!validator.is_valid(&serde_json::from_str::<Value>(bad).unwrap()));
    let wrong_level = r#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}"#;
    assert!(!validator.is_valid(&serde_json::from_str::<Value>(wrong_level).unwrap()));
}

#[test]
fn every_fixture_renders_valid_sarif() {
    let validator = validator();
    let mut sources = Vec::new();
    for rule in RULES {
        for which in ["fires", "clean"] {
            let bytes = lint_fixtures::read(rule.code.as_str(), which);
            sources.push((format!("lint/{} {which}/robots.txt", rule.code), bytes));
        }
    }
    let reports: Vec<LintReport> = sources.iter().map(|(_, b)| lint_file(b)).collect();
    let files: Vec<render::LintedFile<'_>> = sources
        .iter()
        .zip(&reports)
        .map(|((path, source), report)| render::LintedFile {
            path,
            source,
            report,
        })
        .collect();
    for file in &files {
        assert_valid(&validator, file.path, &render::sarif(&[*file]));
    }
    let all = render::sarif(&files);
    assert_valid(&validator, "every fixture in one log", &all);
    // Fixes with a replacement were rendered and validated.
    assert!(all.contains("\"insertedContent\""));
    assert!(render::sarif(&[]).contains("\"results\":[]"));
    assert_valid(&validator, "no file", &render::sarif(&[]));
}

#[test]
fn odd_bytes_and_paths_render_valid_sarif() {
    let validator = validator();
    let mut source = "\u{feff}User-agent: *\r\nDisallow: /caf\u{e9}/\u{1F600}\r\nDisallow: /caf\u{e9}/\u{1F600}\nDissallow: /\0x\nAllow: *.css\n"
        .as_bytes()
        .to_vec();
    source.extend_from_slice(b"\xff\xfe Crawl-delay: 99999\n");
    let report = lint_file(&source);
    assert!(report.diagnostics.len() >= 4, "{:#?}", report.diagnostics);
    let file = render::LintedFile {
        path: "dir with space\\r\u{e9}sum\u{e9}/robots.txt",
        source: &source,
        report: &report,
    };
    assert_valid(&validator, "odd file", &render::sarif(&[file]));
}
