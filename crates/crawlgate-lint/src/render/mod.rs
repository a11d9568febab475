//! Renderings of lint reports: rustc-style text for people ([`human`]), a JSON
//! array for scripts ([`json`]) and SARIF 2.1.0 for code-scanning in CI
//! ([`sarif`]).
//!
//! ```
//! use crawlgate_lint::{lint, render, LintOptions};
//!
//! let source = b"User-agent: *\nDisallow: private/\n";
//! let report = lint(source, &LintOptions::default());
//! let text = render::human(&report, source, "robots.txt", false);
//! assert!(text.starts_with("robots.txt:2:11: error[R006]: "));
//! assert!(text.contains("2 | Disallow: private/\n  |           ^^^^^^^^\n"));
//! let file = render::LintedFile { path: "robots.txt", source, report: &report };
//! assert!(render::json(&[file]).contains("\"code\":\"R006\""));
//! ```

mod chars;
mod human;
mod json;
mod sarif;

pub use human::{audit_table, human, summary};
pub use json::{audit_json, json};
pub use sarif::sarif;

use chars::LineChars;

use crate::diagnostic::Diagnostic;
use crate::lines::{split_lines, SourceLine};
use crate::LintReport;

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

/// The lines of one file, and the characters of the last line asked for:
/// findings come in line order, so each line is decoded once.
pub(crate) struct SourceText<'a> {
    source: &'a [u8],
    lines: Vec<SourceLine>,
    decoded: Option<(u32, LineChars)>,
}

impl<'a> SourceText<'a> {
    pub(crate) fn new(source: &'a [u8]) -> Self {
        SourceText {
            source,
            lines: split_lines(source),
            decoded: None,
        }
    }

    /// Line `n` (1-based): where it starts, its bytes (terminator excluded)
    /// and its characters; `None` past the end.
    pub(crate) fn line(&mut self, n: u32) -> Option<(usize, &'a [u8], &LineChars)> {
        let line = *self.lines.get((n as usize).checked_sub(1)?)?;
        let bytes = &self.source[line.start..line.end];
        if self.decoded.as_ref().is_none_or(|(m, _)| *m != n) {
            self.decoded = Some((n, LineChars::new(bytes)));
        }
        let (_, chars) = self.decoded.as_ref()?;
        Some((line.start, bytes, chars))
    }
}

/// A finding's span within its line, as byte offsets into the line, cut to
/// the line.
pub(crate) fn span_in_line(d: &Diagnostic, line_start: usize, line_len: usize) -> (usize, usize) {
    let from = d.span.bytes.start.clamp(line_start, line_start + line_len) - line_start;
    let to = d
        .span
        .bytes
        .end
        .clamp(line_start + from, line_start + line_len)
        - line_start;
    (from, to)
}
