//! What a report shows, computed once for the text and the JSON output.

use crawlgate::SearchConsoleReport;
use crawlgate_fetch::FetchReport;
use crawlgate_lint::{lint, LintOptions, LintReport};

use super::notes;

/// Everything a report shows, computed once for both outputs.
pub struct Reported<'a> {
    /// How line references name the file.
    pub name: &'a str,
    /// The fetch, when the file came from a site.
    pub fetch: Option<&'a FetchReport>,
    /// The bytes classified (none when the fetch left no body).
    pub bytes: &'a [u8],
    /// Google's reporting library's view.
    pub report: SearchConsoleReport,
    /// The linter's findings.
    pub lint: LintReport,
    /// crawlgate's readings of the file.
    pub readings: notes::Readings,
    /// Where crawlers stop reading (500 KiB, minus a line the limit cuts).
    pub read_limit: usize,
    /// Only the flagged lines are shown.
    pub only_flagged: bool,
}

impl<'a> Reported<'a> {
    /// Classifies `bytes` and gathers the explanations.
    pub fn new(
        name: &'a str,
        fetch: Option<&'a FetchReport>,
        bytes: Option<&'a [u8]>,
        only_flagged: bool,
    ) -> Reported<'a> {
        // A fetch that left no body (4xx, 5xx) has no lines to classify.
        let report = bytes.map(SearchConsoleReport::of).unwrap_or_default();
        let bytes = bytes.unwrap_or_default();
        let readings = notes::Readings::of(bytes);
        let read_limit = readings.google().stats().parsed_bytes;
        Reported {
            name,
            fetch,
            bytes,
            lint: lint(bytes, &LintOptions::default()),
            report,
            readings,
            read_limit,
            only_flagged,
        }
    }

    /// Whether any line is flagged.
    pub fn any_flagged(&self) -> bool {
        self.report.flagged().next().is_some()
    }
}
