//! `crawlgate_robots.search_console_report(body)`: Search Console's view of
//! a file, every line classified exactly as Google's reporting library
//! does (`crawlgate::SearchConsoleReport`), as the dictionary `crawlgate
//! report --json` writes, less what only the command adds (the fetch, and
//! beside each flagged line Google's words, other crawlers' reading and
//! the linter's findings: `lint()` gives those).

use crawlgate::{LineKind, RobotsTxt, SearchConsoleReport, MAX_BYTES};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::input::body_bytes;

/// The bytes reported, as `crawlgate report` reads them: 4 MiB (eight
/// times what crawlers parse, so that what lies past their limit is
/// shown).
pub const REPORT_READ_LIMIT: usize = 8 * MAX_BYTES;

/// Search Console's view of `body` (bytes as served, or str): `{"bytes",
/// "lines_total", "valid_directives", "unused_directives", "flagged",
/// "kinds", "lines": [{"line", "kind", "tag", "typo", "missing_colon",
/// "too_long", "has_comment", "key", "known_as", "text", "flagged",
/// "past_size_limit"}]}`, one entry per line. The GIL is released while
/// classifying.
#[pyfunction]
pub fn search_console_report<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let body = body_bytes(body, "search_console_report() body")?;
    let bytes = body.as_bytes();
    let bytes = &bytes[..bytes.len().min(REPORT_READ_LIMIT)];
    let (report, read_limit) = py.detach(|| {
        let read_limit = RobotsTxt::parse(bytes).stats().parsed_bytes;
        (SearchConsoleReport::of(bytes), read_limit)
    });
    let lines = PyList::empty(py);
    for line in report.lines() {
        let item = PyDict::new(py);
        item.set_item("line", line.number)?;
        item.set_item("kind", line.kind.as_str())?;
        item.set_item("tag", line.tag().as_str())?;
        item.set_item("typo", line.typo)?;
        item.set_item("missing_colon", line.missing_colon)?;
        item.set_item("too_long", line.too_long)?;
        item.set_item("has_comment", line.has_comment)?;
        let key = line
            .key
            .as_ref()
            .map(|k| String::from_utf8_lossy(&bytes[k.bytes.clone()]).into_owned());
        item.set_item("key", key)?;
        item.set_item("known_as", line.known_as)?;
        item.set_item(
            "text",
            String::from_utf8_lossy(&bytes[line.bytes.clone()]).as_ref(),
        )?;
        item.set_item("flagged", line.is_flagged())?;
        item.set_item("past_size_limit", line.bytes.end > read_limit)?;
        lines.append(item)?;
    }
    let kinds = PyDict::new(py);
    for kind in LineKind::ALL {
        kinds.set_item(kind.as_str(), report.count(kind))?;
    }
    let dict = PyDict::new(py);
    dict.set_item("bytes", bytes.len())?;
    dict.set_item("lines_total", report.lines().len())?;
    dict.set_item("valid_directives", report.valid_directives())?;
    dict.set_item("unused_directives", report.unused_directives())?;
    dict.set_item("flagged", report.flagged().count())?;
    dict.set_item("kinds", kinds)?;
    dict.set_item("lines", lines)?;
    Ok(dict)
}
