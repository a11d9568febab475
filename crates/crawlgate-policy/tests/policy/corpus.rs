//! `--merge` on real files: a share of the corpus of 4,231 real
//! robots.txt files, each merged with `--search allow --ai-train deny`.
//! No verdict changes for the search crawlers or for the crawlers the
//! policy does not name (the crawler reading, on `/` and a path of every
//! rule); the AI crawlers are shut out (the crawler reading, and Google's
//! matcher for each token); the linter finds nothing new to warn of.

use std::collections::HashMap;

use crawlgate::RobotsTxt;
use crawlgate_policy::{merge, PolicyError};

use crate::bar::{bar_policy, AI_TRAINING};
use crate::support::reference_allowed;

/// One file in this many is merged (about 210 of the corpus).
const STEP: usize = 20;

fn sample_path(pattern: &str) -> String {
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    let path = pattern.replace('*', "x");
    if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    }
}

fn warning_codes(file: &[u8]) -> HashMap<String, usize> {
    let report = crawlgate_lint::lint(file, &crawlgate_lint::LintOptions::default());
    let mut codes = HashMap::new();
    for d in &report.diagnostics {
        if d.severity >= crawlgate::Severity::Warning {
            *codes.entry(d.code.as_str().to_owned()).or_default() += 1;
        }
    }
    codes
}

#[test]
fn merging_into_real_files_changes_only_what_the_policy_says() {
    let policy = bar_policy();
    let mut merged_files = 0;
    let mut refused = Vec::new();
    for (name, body) in crawlgate_corpus::files().into_iter().step_by(STEP) {
        let written = match merge(&policy, &body) {
            Ok(written) => written,
            Err(PolicyError::Merge(why)) => {
                refused.push(format!("{name}: {why}"));
                continue;
            }
            Err(other) => panic!("{name}: {other}"),
        };
        merged_files += 1;
        let after_bytes = &written.robots_txt;
        let before = RobotsTxt::parse(&body);
        let after = RobotsTxt::parse(after_bytes);
        let mut paths = vec!["/".to_owned()];
        paths.extend(before.rules().take(200).map(|r| sample_path(r.pattern())));
        for intent in &written.intents {
            let crawler = intent.crawler;
            if !crawler.runs() || crawler.ignores_robots_txt() {
                continue;
            }
            let (old, new) = (before.view(crawler), after.view(crawler));
            // A crawler whose name is no product token (AI2Bot) obeys `*`,
            // which a merge keeps: its verdicts are the site's.
            if intent.denied() && crawler.name_is_token() {
                assert!(!new.is_allowed("/"), "{name}: {} may fetch /", crawler.name);
            } else {
                for path in &paths {
                    assert_eq!(
                        old.is_allowed(path),
                        new.is_allowed(path),
                        "{name}: {} on {path}",
                        crawler.name
                    );
                }
            }
        }
        // A crawler no group names, before and after.
        for path in &paths {
            assert_eq!(
                before.view("SomeNewBot").is_allowed(path),
                after.view("SomeNewBot").is_allowed(path),
                "{name}: another crawler on {path}"
            );
        }
        for token in AI_TRAINING {
            assert!(
                !reference_allowed(after_bytes, token, "/"),
                "{name}: {token}"
            );
        }
        let (old, new) = (warning_codes(&body), warning_codes(after_bytes));
        for (code, count) in &new {
            assert!(
                old.get(code).copied().unwrap_or(0) >= *count,
                "{name}: new {code} warnings: {old:?} → {new:?}\n{}",
                written.diff.as_deref().unwrap_or("")
            );
        }
        assert!(written
            .diff
            .as_deref()
            .is_some_and(|d| d.contains("+# BEGIN crawlgate policy")));
    }
    assert!(
        merged_files >= 180,
        "{merged_files} merged; refused: {refused:#?}"
    );
    // Only pages that are no robots.txt at all are refused (HTML pages
    // and binaries, which the corpus keeps as sites served them).
    for why in &refused {
        assert!(
            why.contains("is an HTML page") || why.contains("is binary"),
            "{why}"
        );
    }
}
