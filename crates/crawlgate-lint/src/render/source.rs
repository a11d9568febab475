//! What the renderers take: a linted file, its lines decoded one at a
//! time, and a finding's span within its line.

use crate::diagnostic::Diagnostic;
use crate::lines::{split_lines, SourceLine};
use crate::render::chars::LineChars;
use crate::report::LintReport;

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
