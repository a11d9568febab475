//! `crawlgate_robots.search_console_report(body)`: Search Console's view of
//! a file, every line classified exactly as Google's reporting library
//! does (`crawlgate::SearchConsoleReport`), as the dictionary `crawlgate
//! report --json` writes, less what only the command adds (the fetch, and
//! beside each flagged line Google's words, other crawlers' reading and
//! the linter's findings: `lint()` gives those).

use crawlgate::{RobotsTxt, SearchConsoleReport, MAX_BYTES};
use crawlgate_answers::{ReportCounts, ReportLine};
use pyo3::prelude::*;
use serde::Serialize;

use crate::input::body_bytes;
use crate::shown::to_python;

/// The bytes reported, as `crawlgate report` reads them: 4 MiB (eight
/// times what crawlers parse, so that what lies past their limit is
/// shown).
pub const REPORT_READ_LIMIT: usize = 8 * MAX_BYTES;

/// Search Console's view of a file: the counts, then every line.
#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    counts: ReportCounts,
    lines: Vec<ReportLine>,
}

/// Search Console's view of `body` (bytes as served, or str): `{"bytes",
/// "lines_total", "valid_directives", "unused_directives", "flagged",
/// "kinds", "lines": [{"line", "kind", "tag", "typo", "missing_colon",
/// "too_long", "has_comment", "key", "known_as", "text", "flagged",
/// "past_size_limit"}]}`, one entry per line: `crawlgate_fetch`'s
/// `ReportCounts` and `ReportLine`, as `crawlgate report --json` writes
/// them. The GIL is released while classifying.
#[pyfunction]
pub fn search_console_report<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let body = body_bytes(body, "search_console_report() body")?;
    let bytes = body.as_bytes();
    let bytes = &bytes[..bytes.len().min(REPORT_READ_LIMIT)];
    let shown = py.detach(|| {
        let read_limit = RobotsTxt::parse(bytes).stats().parsed_bytes;
        let report = SearchConsoleReport::of(bytes);
        Report {
            counts: ReportCounts::of(&report, bytes.len()),
            lines: ReportLine::all(&report, bytes, read_limit, false),
        }
    });
    to_python(py, &shown)
}
