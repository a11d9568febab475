//! Search Console's robots.txt report as every front end writes it: the
//! counts and one entry per line, the fields of `crawlgate report --json`,
//! the service's `/v1/report` and Python's `search_console_report`.

use std::collections::BTreeMap;

use crawlgate::{LineKind, ReportedLine, SearchConsoleReport};
use serde::Serialize;

/// The counts of the report: bytes, lines, directives Google uses and does
/// not use, lines flagged, and lines of each kind.
///
/// ```
/// use crawlgate::SearchConsoleReport;
/// use crawlgate_answers::ReportCounts;
///
/// let body = b"User-agent: *\nDisalow: /tmp\nCrawl-delay: 5\n";
/// let counts = ReportCounts::of(&SearchConsoleReport::of(body), body.len());
/// assert_eq!((counts.lines_total, counts.valid_directives, counts.flagged), (4, 2, 2));
/// assert_eq!((counts.kinds["disallow"], counts.kinds["sitemap"]), (1, 0));
/// assert!(serde_json::to_string(&counts).unwrap().starts_with(
///     r#"{"bytes":43,"lines_total":4,"valid_directives":2,"unused_directives":1,"flagged":2,"kinds":{"allow":0,"#
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportCounts {
    /// Bytes classified.
    pub bytes: usize,
    /// Lines in the file.
    pub lines_total: usize,
    /// Lines with a key Google uses (user-agent, allow, disallow, sitemap).
    pub valid_directives: u32,
    /// Lines with a key Google does not use (unused or unknown).
    pub unused_directives: u32,
    /// Lines the report flags (typo, missing colon, too long, unused,
    /// unknown, invalid).
    pub flagged: usize,
    /// How many lines of each kind (every kind, zeros included).
    pub kinds: BTreeMap<&'static str, usize>,
}

impl ReportCounts {
    /// The counts of `report`, made of `bytes` bytes.
    pub fn of(report: &SearchConsoleReport, bytes: usize) -> ReportCounts {
        ReportCounts {
            bytes,
            lines_total: report.lines().len(),
            valid_directives: report.valid_directives(),
            unused_directives: report.unused_directives(),
            flagged: report.flagged().count(),
            kinds: LineKind::ALL
                .iter()
                .map(|&kind| (kind.as_str(), report.count(kind)))
                .collect(),
        }
    }
}

/// One line, as Google's reporting library classifies it.
///
/// ```
/// use crawlgate::SearchConsoleReport;
/// use crawlgate_answers::ReportLine;
///
/// let body = b"Disallow /p\n";
/// let report = SearchConsoleReport::of(body);
/// let line = ReportLine::new(&report.lines()[0], body, body.len());
/// assert_eq!((line.kind, line.missing_colon, line.key.as_deref()), ("disallow", true, Some("Disallow")));
/// assert_eq!(
///     serde_json::to_string(&line).unwrap(),
///     r#"{"line":1,"kind":"disallow","tag":"disallow","typo":false,"missing_colon":true,"too_long":false,"has_comment":false,"key":"Disallow","known_as":"disallow","text":"Disallow /p","flagged":true,"past_size_limit":false}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReportLine {
    /// Its number (from 1).
    pub line: u32,
    /// `user-agent`, `allow`, `disallow`, `sitemap`, `unused`, `unknown`,
    /// `empty`, `comment` or `invalid`.
    #[cfg_attr(feature = "openapi", schema(example = "disallow"))]
    pub kind: &'static str,
    /// Google's tag: the kind, with empty, comment and invalid lines
    /// `unknown`.
    pub tag: &'static str,
    /// A misspelled key Google accepts (`Disalow`).
    pub typo: bool,
    /// No colon after the key (`Disallow /p`), accepted by Google.
    pub missing_colon: bool,
    /// Over 2,083 × 8 bytes: Google reads no further on it.
    pub too_long: bool,
    /// A `#` comment after the content.
    pub has_comment: bool,
    /// The key as written.
    pub key: Option<String>,
    /// The key as Google knows it (lowercase), if it does.
    pub known_as: Option<&'static str>,
    /// The line as written (invalid UTF-8 replaced).
    pub text: String,
    /// Whether the report flags it.
    pub flagged: bool,
    /// Past the 500 KiB crawlers read: Search Console's fetch would not
    /// have it.
    pub past_size_limit: bool,
}

impl ReportLine {
    /// `line` of the file `bytes`, of which crawlers read the first
    /// `read_limit` bytes (`RobotsTxt::stats().parsed_bytes`).
    pub fn new(line: &ReportedLine, bytes: &[u8], read_limit: usize) -> ReportLine {
        let text = |range: std::ops::Range<usize>| {
            String::from_utf8_lossy(bytes.get(range).unwrap_or_default()).into_owned()
        };
        ReportLine {
            line: line.number,
            kind: line.kind.as_str(),
            tag: line.tag().as_str(),
            typo: line.typo,
            missing_colon: line.missing_colon,
            too_long: line.too_long,
            has_comment: line.has_comment,
            key: line.key.as_ref().map(|k| text(k.bytes.clone())),
            known_as: line.known_as,
            text: text(line.bytes.clone()),
            flagged: line.is_flagged(),
            past_size_limit: line.bytes.end > read_limit,
        }
    }

    /// Every line of `report` on `bytes` (or, with `only_flagged`, the
    /// flagged ones), in order.
    pub fn all(
        report: &SearchConsoleReport,
        bytes: &[u8],
        read_limit: usize,
        only_flagged: bool,
    ) -> Vec<ReportLine> {
        report
            .lines()
            .iter()
            .filter(|l| !only_flagged || l.is_flagged())
            .map(|l| ReportLine::new(l, bytes, read_limit))
            .collect()
    }
}
