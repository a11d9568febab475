//! `crawlgate report --json`: one object, with an entry for every line.

use std::collections::BTreeMap;

use crawlgate::LineKind;
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
    /// Bytes classified.
    bytes: usize,
    /// Lines in the file.
    lines_total: usize,
    /// Lines with a key Google uses.
    valid_directives: u32,
    /// Lines with a key Google does not use (unused or unknown).
    unused_directives: u32,
    /// Lines the report flags.
    flagged: usize,
    /// How many lines of each kind.
    kinds: BTreeMap<&'static str, usize>,
    /// Every line (or, with `--flagged`, the flagged ones), in order.
    lines: Vec<Line<'a>>,
}

/// One line.
#[derive(Serialize)]
struct Line<'a> {
    line: u32,
    /// `user-agent`, `allow`, `disallow`, `sitemap`, `unused`, `unknown`,
    /// `empty`, `comment`, `invalid`.
    kind: &'static str,
    /// Google's tag: the kind, with empty, comment and invalid lines
    /// `unknown`.
    tag: &'static str,
    typo: bool,
    missing_colon: bool,
    too_long: bool,
    has_comment: bool,
    /// The key as written.
    key: Option<String>,
    /// The key as Google knows it (lowercase), if it does.
    known_as: Option<&'static str>,
    /// The line as written (invalid UTF-8 replaced).
    text: String,
    flagged: bool,
    /// Past the 500 KiB crawlers read: Search Console's fetch would not
    /// have it.
    past_size_limit: bool,
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
    let mut kinds = BTreeMap::new();
    for kind in LineKind::ALL {
        kinds.insert(kind.as_str(), 0);
    }
    for line in r.report.lines() {
        *kinds.entry(line.kind.as_str()).or_default() += 1;
    }
    let lines = r
        .report
        .lines()
        .iter()
        .filter(|l| !r.only_flagged || l.is_flagged())
        .map(|l| Line {
            line: l.number,
            kind: l.kind.as_str(),
            tag: l.tag().as_str(),
            typo: l.typo,
            missing_colon: l.missing_colon,
            too_long: l.too_long,
            has_comment: l.has_comment,
            key: l
                .key
                .as_ref()
                .map(|k| String::from_utf8_lossy(&r.bytes[k.bytes.clone()]).into_owned()),
            known_as: l.known_as,
            text: String::from_utf8_lossy(&r.bytes[l.bytes.clone()]).into_owned(),
            flagged: l.is_flagged(),
            past_size_limit: l.bytes.end > r.read_limit,
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
        bytes: r.bytes.len(),
        lines_total: r.report.lines().len(),
        valid_directives: r.report.valid_directives(),
        unused_directives: r.report.unused_directives(),
        flagged: r.report.flagged().count(),
        kinds,
        lines,
    }
}
