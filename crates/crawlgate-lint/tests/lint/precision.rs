//! Precision: real robots.txt files from the corpus, every finding on them
//! judged by a person who read the file (`testdata/lint/precision/`:
//! `NAME.robots.txt` and `NAME.expected`).
//!
//! An expected file holds one judged finding a line, `LINE SEVERITY CODE`,
//! then optionally a verdict word, then `# why`:
//!
//! - no word: a true finding the linter reports;
//! - `false`: a finding the linter reports that is wrong (or says more
//!   than the file supports), listed so that it is not silently accepted;
//! - `missed`: a true finding the linter does not report.
//!
//! Other lines starting with `#` are notes. The test fails when a report
//! and its judgement disagree in any way (an unjudged finding, a listed
//! finding that is no longer reported, a `missed` one that now is), and
//! when precision (true reported / reported) or recall (true reported /
//! judged true) falls under 95 %.
//!
//! A second set, `testdata/lint/traps/`, holds files written for this test
//! (not drawn from the corpus the rules were tuned on): every `trap-*` file
//! names the findings it must get (`# expect: LINE CODE`), and every
//! `clean-*` file must get none.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crawlgate_lint::{lint, LintOptions, LintReport};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/lint")
        .join(name)
}

/// `(line, severity, code)` of a finding.
type Finding = (u32, String, String);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    True,
    False,
    Missed,
}

fn judged(path: &Path) -> Vec<(Finding, Verdict)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out: Vec<(Finding, Verdict)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (entry, why) = line.split_once('#').unwrap_or((line, ""));
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let parts: Vec<&str> = entry.split_whitespace().collect();
        let (n, severity, code, verdict) = match parts[..] {
            [n, severity, code] => (n, severity, code, Verdict::True),
            [n, severity, code, "false"] => (n, severity, code, Verdict::False),
            [n, severity, code, "missed"] => (n, severity, code, Verdict::Missed),
            _ => panic!(
                "{path:?}:{}: expected `LINE SEVERITY CODE [false|missed] # why`",
                i + 1
            ),
        };
        assert!(
            !why.trim().is_empty(),
            "{path:?}:{}: every judgement says why",
            i + 1
        );
        let n: u32 = n
            .parse()
            .unwrap_or_else(|e| panic!("{path:?}:{}: {e}", i + 1));
        let finding = (n, severity.to_owned(), code.to_owned());
        assert!(
            out.iter().all(|(f, _)| *f != finding),
            "{path:?}:{}: listed twice",
            i + 1
        );
        out.push((finding, verdict));
    }
    out
}

fn findings(report: &LintReport) -> BTreeSet<Finding> {
    report
        .diagnostics
        .iter()
        .map(|d| (d.span.line, d.severity.to_string(), d.code.to_string()))
        .collect()
}

fn message(report: &LintReport, f: &Finding) -> String {
    report
        .diagnostics
        .iter()
        .find(|d| (d.span.line, d.code.to_string()) == (f.0, f.2.clone()))
        .map(|d| d.message.to_string())
        .unwrap_or_default()
}

#[test]
fn judged_files_meet_the_precision_and_recall_bar() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir("precision"))
        .expect("testdata/lint/precision")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".robots.txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{} judged files", files.len());
    let mut disagreements = Vec::new();
    let (mut true_reported, mut false_reported, mut missed) = (0usize, 0usize, 0usize);
    let mut false_listed = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".robots.txt");
        let bytes = std::fs::read(file).unwrap();
        let report = lint(&bytes, &LintOptions::default());
        let found = findings(&report);
        let judgements = judged(&dir("precision").join(format!("{stem}.expected")));
        for f in &found {
            match judgements.iter().find(|(j, _)| j == f) {
                None => disagreements.push(format!(
                    "{stem}: unjudged {} {} {}: {}",
                    f.0,
                    f.1,
                    f.2,
                    message(&report, f)
                )),
                Some((_, Verdict::True)) => true_reported += 1,
                Some((_, Verdict::False)) => {
                    false_reported += 1;
                    false_listed.push(format!("{stem}:{} {}", f.0, f.2));
                }
                Some((_, Verdict::Missed)) => disagreements.push(format!(
                    "{stem}: {} {} {} is listed as missed but is reported",
                    f.0, f.1, f.2
                )),
            }
        }
        for (f, verdict) in &judgements {
            let reported = found.contains(f);
            match verdict {
                Verdict::Missed => missed += 1,
                _ if !reported => disagreements.push(format!(
                    "{stem}: {} {} {} ({verdict:?}) is no longer reported",
                    f.0, f.1, f.2
                )),
                _ => {}
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    let reported = true_reported + false_reported;
    let judged_true = true_reported + missed;
    assert!(reported >= 100, "{reported} judged findings");
    let precision = true_reported as f64 / reported as f64;
    let recall = true_reported as f64 / judged_true as f64;
    println!(
        "{} files: {reported} findings reported, {true_reported} true, {false_reported} false \
         ({false_listed:?}); {missed} true findings missed; precision {:.1} %, recall {:.1} %",
        files.len(),
        precision * 100.0,
        recall * 100.0
    );
    assert!(precision >= 0.95, "precision {:.3}", precision);
    assert!(recall >= 0.95, "recall {:.3}", recall);
}

#[test]
fn every_trap_is_caught_and_clean_files_stay_clean() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir("traps"))
        .expect("testdata/lint/traps")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let (mut traps, mut clean) = (0, 0);
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(file).unwrap();
        let report = lint(&bytes, &LintOptions::default());
        let found: BTreeSet<(u32, String)> = report
            .diagnostics
            .iter()
            .map(|d| (d.span.line, d.code.to_string()))
            .collect();
        if name.starts_with("clean-") {
            clean += 1;
            for d in &report.diagnostics {
                failures.push(format!("{name}: {d}"));
            }
        } else if name.starts_with("trap-") {
            traps += 1;
            let text = String::from_utf8_lossy(&bytes);
            let expected: Vec<(u32, String)> = text
                .lines()
                .filter_map(|l| l.trim().strip_prefix("# expect: "))
                .map(|e| {
                    let (line, code) = e.split_once(' ').expect("`# expect: LINE CODE`");
                    (line.parse().expect("a line number"), code.trim().to_owned())
                })
                .collect();
            assert!(!expected.is_empty(), "{name} names no expected finding");
            for e in &expected {
                if !found.contains(e) {
                    failures.push(format!(
                        "{name}: trap not caught: {} {} (found {found:?})",
                        e.0, e.1
                    ));
                }
            }
        } else {
            panic!("{name}: a traps file is named trap-* or clean-*");
        }
    }
    assert!(
        traps >= 10 && clean >= 10,
        "{traps} traps, {clean} clean files"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
