//! Lints every file of the real-world corpus and prints how often each code
//! fires (every rule on), as a Markdown table, with the time spent parsing
//! and linting.
//!
//! ```text
//! cargo run --release -p crawlgate-lint --example lint_corpus [-- DIR]
//! ```
//!
//! `DIR` defaults to the corpus found by `crawlgate-corpus`. With
//! `LINT_CORPUS_SHOW=R105,R206` (or `all`) it prints every finding of those
//! codes with the options of `crawlgate lint` (`file:line: severity[code]
//! message`), for reading them, instead of the table.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crawlgate::RobotsTxt;
use crawlgate_lint::{lint, rule_info, Code, LintOptions};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| crawlgate_corpus::dir().to_string_lossy().into_owned());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus at {dir}: {e}"))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| !p.to_string_lossy().ends_with(".expected"))
        .collect();
    files.sort();
    let bodies: Vec<Vec<u8>> = files
        .iter()
        .map(|p| std::fs::read(p).expect("a readable file"))
        .collect();
    let bytes: usize = bodies.iter().map(Vec::len).sum();
    let options = LintOptions::default();
    if let Ok(show) = std::env::var("LINT_CORPUS_SHOW") {
        let codes: Vec<Code> = show.split(',').filter_map(Code::lookup).collect();
        for (path, body) in files.iter().zip(&bodies) {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let report = lint(body, &LintOptions::everything().with_audit(false));
            for d in report
                .diagnostics
                .iter()
                .filter(|d| codes.contains(&d.code))
            {
                println!(
                    "{name}:{}: {}[{}] {}",
                    d.span.line, d.severity, d.code, d.message
                );
            }
        }
        return;
    }
    let everything = LintOptions::everything().with_audit(false);
    let mut counts: BTreeMap<Code, (usize, usize)> = BTreeMap::new();
    let mut parse_time = Duration::ZERO;
    let mut lint_time = Duration::ZERO;
    let mut full_time = Duration::ZERO;
    for _ in 0..3 {
        let start = Instant::now();
        for body in &bodies {
            std::hint::black_box(RobotsTxt::parse(body));
        }
        parse_time += start.elapsed();
        let start = Instant::now();
        for body in &bodies {
            std::hint::black_box(lint(body, &options));
        }
        lint_time += start.elapsed();
        let start = Instant::now();
        for body in &bodies {
            std::hint::black_box(lint(body, &everything));
        }
        full_time += start.elapsed();
    }
    for body in &bodies {
        let report = lint(body, &everything);
        let mut seen = std::collections::HashSet::new();
        for d in &report.diagnostics {
            let entry = counts.entry(d.code).or_default();
            entry.0 += 1;
            if seen.insert(d.code) {
                entry.1 += 1;
            }
        }
    }
    println!(
        "{} files, {:.1} MB: parse {:.1} ms, lint {:.1} ms ({:.2}x), lint with the legacy \
         comparison {:.1} ms ({:.2}x)\n",
        bodies.len(),
        bytes as f64 / 1e6,
        parse_time.as_secs_f64() * 1000.0 / 3.0,
        lint_time.as_secs_f64() * 1000.0 / 3.0,
        lint_time.as_secs_f64() / parse_time.as_secs_f64(),
        full_time.as_secs_f64() * 1000.0 / 3.0,
        full_time.as_secs_f64() / parse_time.as_secs_f64()
    );
    println!("| code | name | severity | findings | files |");
    println!("|---|---|---|---:|---:|");
    for (code, (findings, in_files)) in counts {
        let rule = rule_info(code).expect("every code has a rule");
        println!(
            "| {code} | {} | {} | {findings} | {in_files} |",
            rule.name, rule.severity
        );
    }
}
