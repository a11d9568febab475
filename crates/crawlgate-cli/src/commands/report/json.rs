//! `crawlgate report --json`: one object, with an entry for every line.
//! The counts and each line's classification are the fetch crate's
//! [`ReportCounts`] and [`ReportLine`], the service's and Python's too;
//! the command adds the fetch, Google's words, other crawlers' reading and
//! the linter's findings.

use crawlgate_answers::{ReportCounts, ReportLine};
use crawlgate_fetch::FetchReport;
use serde::Serialize;

use super::notes::{elsewhere_note, google_note, Findings};
use super::reported::Reported;

/// The report.
#[derive(Serialize)]
pub struct Json<'a> {
    /// The file as given, `<stdin>`, or the robots.txt URL.
    source: &'a str,
    /// The fetch, as `crawlgate fetch --json` shows it (`null` for a file).
    fetch: Option<&'a FetchReport>,
    /// Bytes, lines, directives, flagged lines, lines of each kind.
    #[serde(flatten)]
    counts: ReportCounts,
    /// Every line (or, with `--flagged`, the flagged ones), in order.
    lines: Vec<Line<'a>>,
}

/// One line: its classification, then what the command adds.
#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    classified: ReportLine,
    /// What Google's report says, in words, for a flagged line.
    google: Option<String>,
    /// What other crawlers read in it, as crawlgate reads it for them.
    elsewhere: Option<Elsewhere>,
    /// The linter's findings on the line.
    lint: Vec<Finding<'a>>,
}

#[derive(Serialize)]
struct Elsewhere {
    /// `bing`, or `crawlgate` for crawlgate's own reading.
    reading: &'static str,
    text: String,
}

#[derive(Serialize)]
struct Finding<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    /// The line the finding starts on (a run of lines has one finding).
    line: u32,
    message: &'a str,
}

/// The JSON of a report.
pub fn to_json<'a>(r: &'a Reported<'a>) -> Json<'a> {
    let findings = Findings::new(&r.lint, r.report.lines());
    let lines = r
        .report
        .lines()
        .iter()
        .filter(|l| !r.only_flagged || l.is_flagged())
        .map(|l| Line {
            classified: ReportLine::new(l, r.bytes, r.read_limit),
            google: google_note(l, r.bytes),
            elsewhere: elsewhere_note(l, &r.readings)
                .map(|(reading, text)| Elsewhere { reading, text }),
            lint: findings
                .on(l.number)
                .iter()
                .map(|&(d, line)| Finding {
                    code: d.code.as_str(),
                    name: d.code.name(),
                    severity: d.severity.as_str(),
                    line,
                    message: &d.message,
                })
                .collect(),
        })
        .collect();
    Json {
        source: r.name,
        fetch: r.fetch,
        counts: ReportCounts::of(&r.report, r.bytes.len()),
        lines,
    }
}
