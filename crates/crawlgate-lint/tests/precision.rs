//! Precision: real robots.txt files from the corpus, each with the findings
//! a person judged right for it, line by line (`testdata/lint/precision/`:
//! `NAME.robots.txt` and `NAME.expected`). The linter must report exactly
//! those: a false positive and a missed finding both fail.
//!
//! An expected file holds one finding a line, `LINE SEVERITY CODE`, then
//! optionally `# why`; other lines starting with `#` are notes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crawlgate_lint::{lint, LintOptions};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/lint/precision")
}

/// `(line, severity, code)` of each finding, as written in the expected
/// file or rendered from a report.
type Finding = (u32, String, String);

fn expected(path: &Path) -> BTreeSet<Finding> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [n, severity, code] = parts[..] else {
            panic!("{path:?}:{}: expected `LINE SEVERITY CODE`", i + 1);
        };
        let n: u32 = n
            .parse()
            .unwrap_or_else(|e| panic!("{path:?}:{}: {e}", i + 1));
        assert!(
            out.insert((n, severity.to_owned(), code.to_owned())),
            "{path:?}:{}: listed twice",
            i + 1
        );
    }
    out
}

#[test]
fn judged_files_get_exactly_the_judged_findings() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("testdata/lint/precision")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".robots.txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "{} judged files", files.len());
    let mut failures = Vec::new();
    let mut judged = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".robots.txt");
        let bytes = std::fs::read(file).unwrap();
        let report = lint(&bytes, &LintOptions::default());
        let found: BTreeSet<Finding> = report
            .diagnostics
            .iter()
            .map(|d| (d.span.line, d.severity.to_string(), d.code.to_string()))
            .collect();
        let want = expected(&dir().join(format!("{stem}.expected")));
        judged += want.len();
        for extra in found.difference(&want) {
            let d = report
                .diagnostics
                .iter()
                .find(|d| (d.span.line, d.code.to_string()) == (extra.0, extra.2.clone()))
                .unwrap();
            failures.push(format!(
                "{stem}: unexpected {} {} {}: {}",
                extra.0, extra.1, extra.2, d.message
            ));
        }
        for missed in want.difference(&found) {
            failures.push(format!(
                "{stem}: missing {} {} {}",
                missed.0, missed.1, missed.2
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(judged >= 100, "{judged} judged findings");
}
