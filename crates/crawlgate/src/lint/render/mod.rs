//! Renderings of lint reports: rustc-style text for people ([`human`]), a JSON
//! array for scripts ([`json`]) and SARIF 2.1.0 for code-scanning in CI
//! ([`sarif`]).
//!
//! ```
//! use crawlgate::lint::{lint, render, LintOptions};
//!
//! let source = b"User-agent: *\nDisallow: private/\n";
//! let report = lint(source, &LintOptions::default());
//! let text = render::human(&report, source, "robots.txt", false);
//! assert!(text.starts_with("robots.txt:2:11: error[R006]: "));
//! assert!(text.contains("2 | Disallow: private/\n  |           ^^^^^^^^\n"));
//! let file = render::LintedFile { path: "robots.txt", source, report: &report };
//! assert!(render::json(&[file]).contains("\"code\":\"R006\""));
//! ```

mod human;
mod json;
mod sarif;

pub use human::{audit_table, human, summary};
pub use json::{audit_json, json};
pub use sarif::sarif;

use crate::lint::LintReport;

/// One linted file, as the renderers of several files take it.
#[derive(Clone, Copy, Debug)]
pub struct LintedFile<'a> {
    /// The name to show (`robots.txt`, `site/robots.txt`).
    pub path: &'a str,
    /// The bytes that were linted.
    pub source: &'a [u8],
    /// The report.
    pub report: &'a LintReport,
}

/// The 1-based line `n` of `source` (terminator excluded), split as the
/// parser splits lines; `None` past the end.
pub(crate) fn source_line(source: &[u8], n: u32) -> Option<(usize, &[u8])> {
    let bom = source
        .iter()
        .zip([0xEF, 0xBB, 0xBF])
        .take_while(|(a, b)| **a == *b)
        .count();
    let mut start = bom;
    let mut line = 1;
    loop {
        let rest = &source[start..];
        let end = memchr::memchr2(b'\n', b'\r', rest);
        if line == n {
            return Some((start, &rest[..end.unwrap_or(rest.len())]));
        }
        let end = end?;
        start += end
            + if rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
        line += 1;
    }
}
