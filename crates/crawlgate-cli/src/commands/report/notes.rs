//! What is said beside a flagged line: what Google's report says of it, how
//! crawlgate reads it for other crawlers (Crawl-delay for Bing, Host for
//! Yandex…), and the linter's findings on it.

use std::collections::HashMap;

use crawlgate::{ExtensionKind, LineKind, Profile, ReportedLine, RobotsTxt, GOOGLE_MAX_LINE_BYTES};
use crawlgate_lint::{Diagnostic, LintReport};

use crate::commands::explain::{extension_note_with, FirstValid};

/// What crawlgate reads for other crawlers in the extension records of a
/// file, by line, worked out once per file (one pass over the records).
pub struct Readings {
    google: RobotsTxt,
    /// Per extension line: its kind, and whether it is in a group.
    records: HashMap<u32, (ExtensionKind, bool)>,
    /// Per Crawl-delay line that bingbot reads: what it makes of it.
    bingbot: HashMap<u32, String>,
}

impl Readings {
    /// `bytes` read as Google and as Bing read it.
    pub fn of(bytes: &[u8]) -> Readings {
        let google = RobotsTxt::parse(bytes);
        let bing = google
            .reinterpret(Profile::BING)
            .unwrap_or_else(|| RobotsTxt::parse_with(bytes, Profile::BING));
        let mut records: HashMap<u32, (ExtensionKind, bool)> = google
            .extensions()
            .map(|e| (e.line(), (e.kind(), false)))
            .collect();
        for group in google.groups() {
            for e in group.extensions() {
                records.insert(e.line(), (e.kind(), true));
            }
        }
        let view = bing.view("bingbot");
        let firsts = FirstValid::of(&view);
        let bingbot = view
            .groups()
            .flat_map(|g| g.extensions())
            .filter(|e| e.kind() == ExtensionKind::CrawlDelay)
            .map(|e| (e.line(), extension_note_with(&e, &view, &firsts)))
            .collect();
        Readings {
            google,
            records,
            bingbot,
        }
    }

    /// Google's reading (500 KiB at most, as the crawler reads).
    pub fn google(&self) -> &RobotsTxt {
        &self.google
    }
}

/// `line`'s text as written, lossily decoded: the key and value parts the
/// notes quote.
fn quoted(bytes: &[u8]) -> String {
    crate::output::shown(&String::from_utf8_lossy(bytes), 60)
}

/// What Google's report says of a flagged line, in words; `None` for a
/// line it does not flag.
pub fn google_note(line: &ReportedLine, input: &[u8]) -> Option<String> {
    if !line.is_flagged() {
        return None;
    }
    let key = line
        .key
        .as_ref()
        .map(|span| quoted(&input[span.bytes.clone()]))
        .unwrap_or_default();
    let mut parts = Vec::new();
    match line.kind {
        LineKind::Unused => parts.push(format!(
            "unused: Google recognises `{}` and does not use it",
            line.known_as.unwrap_or_default()
        )),
        LineKind::Unknown => parts.push(format!(
            "unknown: Google does not know the key `{key}`; the line is ignored"
        )),
        LineKind::Invalid => {
            parts.push("not `key: value`: Google ignores the line".to_owned());
        }
        _ => {}
    }
    if line.typo {
        parts.push(format!(
            "typo: `{key}` is a misspelling Google accepts, read as `{}`",
            line.known_as.unwrap_or_default()
        ));
    }
    if line.missing_colon {
        parts.push("no colon: Google reads the two words as `key: value`".to_owned());
    }
    if line.too_long {
        parts.push(format!(
            "too long: {} bytes, Google reads the first {GOOGLE_MAX_LINE_BYTES} and ignores the rest",
            line.bytes.len()
        ));
    }
    Some(parts.join("; "))
}

/// How crawlgate reads the line for other crawlers, when it keeps the line
/// as a record some crawler reads: which reading (`bing`, or `crawlgate`
/// for its own) and what it makes of the line.
pub fn elsewhere_note(line: &ReportedLine, readings: &Readings) -> Option<(&'static str, String)> {
    if line.kind != LineKind::Unused {
        return None;
    }
    let &(kind, in_group) = readings.records.get(&line.number)?;
    let what = match kind {
        ExtensionKind::CrawlDelay => {
            let note = match readings.bingbot.get(&line.number) {
                Some(note) => format!("bingbot: {note}"),
                None => "Bing reads Crawl-delay, but not this one: it is not in the group bingbot obeys".to_owned(),
            };
            return Some(("bing", note));
        }
        ExtensionKind::Host => "Yandex reads Host (the preferred mirror)",
        ExtensionKind::CleanParam => "Yandex reads Clean-param (URL parameters to ignore)",
        ExtensionKind::RequestRate => {
            "crawlgate reads Request-rate for the crawlers of its group (so does Python's urllib.robotparser)"
        }
        ExtensionKind::VisitTime => "crawlgate reads Visit-time for the crawlers of its group",
        ExtensionKind::ContentUsage => {
            "crawlgate reads Content-Usage as AI-usage preferences for the crawlers of its group"
        }
        ExtensionKind::ContentSignal => {
            "crawlgate reads Content-Signal as content signals for the crawlers of its group"
        }
        _ => return None,
    };
    let note = if in_group || matches!(kind, ExtensionKind::Host | ExtensionKind::CleanParam) {
        what.to_owned()
    } else {
        format!("{what}; this one is outside any group, so it applies to no crawler")
    };
    Some(("crawlgate", note))
}

/// The linter's findings by line: a finding about a run of lines (an HTML
/// page) is on every line of the run, with the line it starts on.
pub struct Findings<'a> {
    /// Per line (index `number - 1`): the findings on it.
    by_line: Vec<Vec<(&'a Diagnostic, u32)>>,
}

impl<'a> Findings<'a> {
    /// The findings of `report`, placed on the lines of `lines` their spans
    /// reach.
    pub fn new(report: &'a LintReport, lines: &[ReportedLine]) -> Findings<'a> {
        let mut by_line = vec![Vec::new(); lines.len()];
        for d in &report.diagnostics {
            let first = d.span.line.max(1) as usize;
            // The lines the span's bytes reach (at least its own).
            let end = d.span.bytes.end.max(d.span.bytes.start + 1);
            let last = lines.partition_point(|l| l.bytes.start < end).max(first);
            for on in by_line.iter_mut().take(last).skip(first - 1) {
                on.push((d, first as u32));
            }
        }
        Findings { by_line }
    }

    /// The findings on line `number`, each with the line it starts on.
    pub fn on(&self, number: u32) -> &[(&'a Diagnostic, u32)] {
        self.by_line
            .get(number as usize - 1)
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::SearchConsoleReport;

    /// Per line: its number, Google's words, and what another reading says.
    type Notes = Vec<(u32, Option<String>, Option<(&'static str, String)>)>;

    fn notes(file: &str) -> Notes {
        let report = SearchConsoleReport::of(file.as_bytes());
        let readings = Readings::of(file.as_bytes());
        report
            .lines()
            .iter()
            .map(|l| {
                (
                    l.number,
                    google_note(l, file.as_bytes()),
                    elsewhere_note(l, &readings),
                )
            })
            .collect()
    }

    #[test]
    fn crawl_delay_says_what_google_and_bing_read() {
        let file = "User-agent: bingbot\nCrawl-delay: 5\nDisallow: /x\nUser-agent: other\nCrawl-delay: 9\nDisallow: /\n";
        let notes = notes(file);
        assert_eq!(
            notes[1].1.as_deref(),
            Some("unused: Google recognises `crawl-delay` and does not use it")
        );
        assert_eq!(
            notes[1].2,
            Some((
                "bing",
                "bingbot: wait 5 s between requests (Bing reads it; Google ignores it)".to_owned()
            ))
        );
        assert!(notes[4]
            .2
            .as_ref()
            .unwrap()
            .1
            .contains("not in the group bingbot obeys"));
        assert_eq!(notes[0].1, None);
    }

    #[test]
    fn each_flag_is_said() {
        let file = "useragent *\nunicorns: yes\n<html>\nHost: example.com\n";
        let notes = notes(file);
        assert_eq!(
            notes[0].1.as_deref(),
            Some("typo: `useragent` is a misspelling Google accepts, read as `user-agent`; no colon: Google reads the two words as `key: value`")
        );
        assert_eq!(
            notes[1].1.as_deref(),
            Some("unknown: Google does not know the key `unicorns`; the line is ignored")
        );
        assert_eq!(
            notes[2].1.as_deref(),
            Some("not `key: value`: Google ignores the line")
        );
        assert_eq!(
            notes[3].2.as_ref().map(|(who, text)| (*who, text.as_str())),
            Some(("crawlgate", "Yandex reads Host (the preferred mirror)"))
        );
    }
}
