//! The linter on the real-world corpus (found by `crawlgate-corpus`): no panic
//! on any file, valid JSON for every report, the number of findings per code
//! (a snapshot: a change in any rule shows up here for review), and the
//! findings on hand-reviewed files (one snapshot each).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crawlgate_lint::{lint, render, rule_info, Code, LintOptions};

fn corpus() -> Vec<(String, Vec<u8>)> {
    crawlgate_corpus::files()
}

/// Files whose findings were read line by line against the file and judged
/// (see the README's "Linting" section for what was fixed after reading).
const REVIEWED: &[&str] = &[
    "coolmaterial.com",
    "discovermagazine.com",
    "en.wikipedia.org",
    "globalresearch.ca",
    "mn.gov",
    "newindianexpress.com",
    "regex101.com",
    "untappd.com",
    "www.au.dk",
    "www.behindthename.com",
    "www.clemson.edu",
    "www.congress.gov",
    "www.dal.ca",
    "www.dartmouth.edu",
    "www.eliteprospects.com",
    "www.elkhabar.com",
    "www.freeimages.com",
    "www.gottabemobile.com",
    "www.jimmyjohns.com",
    "www.marutisuzuki.com",
    "www.microcenter.com",
    "www.minted.com",
    "www.modcloth.com",
    "www.monstersandcritics.com",
    "www.myvue.com",
    "www.nice.org.uk",
    "www.pingdom.com",
    "www.polyu.edu.hk",
    "www.regmovies.com",
    "www.ronaldo7.net",
    "www.shoprite.com",
    "www.sparknotes.com",
    "www.topman.com",
    "www.wmtransfer.com",
];

#[test]
fn every_file_lints_and_the_counts_per_code_are_as_reviewed() {
    let files = corpus();
    assert!(files.len() > 4000, "{} files", files.len());
    let options = LintOptions::everything();
    let mut counts: BTreeMap<Code, (usize, usize)> = BTreeMap::new();
    for (name, bytes) in &files {
        let report = lint(bytes, &options);
        assert!(
            report.audit.as_ref().is_some_and(|a| a.len() >= 100),
            "{name}"
        );
        let json = render::json(&[render::LintedFile {
            path: name,
            source: bytes,
            report: &report,
        }]);
        let parsed: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: invalid JSON: {e}"));
        assert_eq!(parsed.as_array().unwrap().len(), report.diagnostics.len());
        render::human(&report, bytes, name, true);
        let mut codes: Vec<Code> = Vec::new();
        for d in &report.diagnostics {
            assert!(d.span.line >= 1 && d.span.column >= 1, "{name}: {d:?}");
            counts.entry(d.code).or_default().0 += 1;
            if !codes.contains(&d.code) {
                codes.push(d.code);
                counts.entry(d.code).or_default().1 += 1;
            }
        }
    }
    let mut table =
        String::from("| code | name | severity | findings | files |\n|---|---|---|---:|---:|\n");
    for (code, (findings, in_files)) in &counts {
        let rule = rule_info(*code).expect("every code has a rule");
        let _ = writeln!(
            table,
            "| {code} | {} | {} | {findings} | {in_files} |",
            rule.name, rule.severity
        );
    }
    insta::assert_snapshot!("corpus_counts", table);
}

#[test]
fn reviewed_files() {
    let dir = crawlgate_corpus::dir();
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for name in REVIEWED {
            let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let report = lint(&bytes, &LintOptions::everything().with_audit(false));
            let mut text = render::human(&report, &bytes, name, false);
            text.push_str(&render::summary(&report, name));
            insta::assert_snapshot!(format!("corpus_{name}"), text);
        }
    });
}
