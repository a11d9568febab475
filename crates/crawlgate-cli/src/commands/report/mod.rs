//! `crawlgate report`: Search Console's view of a robots.txt before it is
//! deployed: every line classified exactly as Google's reporting library
//! does (the library Search Console's robots.txt report is built on), the
//! counts of valid and unused directives, and beside each line the report
//! flags, crawlgate's own explanation.

mod json;
mod notes;
mod text;

use std::io::{IsTerminal as _, Write as _};

use anyhow::bail;
use crawlgate::SearchConsoleReport;
use crawlgate_fetch::{FetchReport, OutcomeKind};
use crawlgate_lint::{lint, LintOptions, LintReport};

use crate::commands::lint::LINT_READ_LIMIT;
use crate::load::fetch::{warn_fetch, FetchOptions};
use crate::load::source::RobotsArg;
use crate::load::{load, Sites};
use crate::output::warn;
use crate::output::Ui;
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate report robots.txt
  crawlgate report https://example.com/             # fetched as Google does
  crawlgate report robots.txt --json
  crawlgate report - < robots.txt
  crawlgate report robots.txt --flagged             # only the lines Google marks

Every line gets its kind as Google's reporting library (google/robotstxt,
the library behind Search Console's robots.txt report) gives it: user-agent,
allow, disallow, sitemap, unused (a key Google recognises and does not use,
such as crawl-delay or noindex), unknown (a key Google does not know),
invalid (not `key: value`), empty or comment; and its flags: typo (a
misspelling Google accepts), no colon, too long (over 16,663 bytes). Then
the counts Search Console shows: valid directives (the four kinds Google
uses) and unused directives (unused and unknown keys). Each flagged line
gets crawlgate's explanation: what other crawlers read in it (Crawl-delay
for Bing) and the linter's findings.

FILE is a file, `-` for standard input, or an http(s) URL of a site (its
/robots.txt is fetched as Google does, and the fetch is shown); with no FILE,
standard input is read when it is not a terminal.

JSON: {source, fetch, bytes, lines_total, valid_directives,
unused_directives, flagged, kinds: {kind: count}, lines: [{line, kind, tag,
typo, missing_colon, too_long, has_comment, key, known_as, text, flagged,
past_size_limit, google, elsewhere, lint: [...]}]}, one entry per line.

Exit status: 0 no line flagged, 1 some line flagged (or the fetch gave full
disallow), 2 usage or input error.";

/// Arguments of `crawlgate report`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The robots.txt: a file, `-` for standard input, or an http(s) URL of
    /// a site (standard input when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub file: Option<String>,

    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,

    /// Show only the lines the report flags (with --json too).
    #[arg(long)]
    pub flagged: bool,

    #[command(flatten, next_help_heading = "Fetching (when FILE is a URL)")]
    pub fetch: FetchOptions,
}

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

/// `text` for one line of output: control characters escaped, and cut
/// after `max` characters with the length said.
pub fn shown(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push_str(&format!("… ({} characters)", text.chars().count()));
            return out;
        }
        if c.is_control() && c != '\t' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs `crawlgate report`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let file = match &args.file {
        Some(file) => file.clone(),
        None if std::io::stdin().is_terminal() => bail!(
            "no robots.txt to report on: give a file, `-` for standard input, or a site's URL (or pipe one in)"
        ),
        None => "-".to_owned(),
    };
    let arg = RobotsArg::parse(&file)?;
    let loaded = load(&arg, &[], Sites::One, &args.fetch, LINT_READ_LIMIT)?
        .sources
        .remove(0);
    if let Some(report) = loaded.fetch() {
        warn_fetch(report);
    }
    let bytes = loaded
        .bytes()
        .map(|bytes| &bytes[..bytes.len().min(LINT_READ_LIMIT)]);
    if loaded.bytes().is_some_and(|b| b.len() > LINT_READ_LIMIT) {
        warn(&format!(
            "{}: only the first {LINT_READ_LIMIT} bytes are reported",
            loaded.name
        ));
    }
    let reported = Reported::new(&loaded.name, loaded.fetch(), bytes, args.flagged);
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &json::to_json(&reported))?;
        writeln!(out)?;
    } else {
        out.write_all(text::render(&reported, ui.palette()).as_bytes())?;
    }
    out.flush()?;
    let full_disallow = loaded
        .fetch()
        .is_some_and(|f| f.outcome == OutcomeKind::FullDisallow);
    Ok(Status::all_good(!reported.any_flagged() && !full_disallow))
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn lines_are_shown_escaped_and_cut() {
        assert_eq!(shown("a\u{1b}[31mb\tc", 80), "a\\u{1b}[31mb\tc");
        assert_eq!(shown("abcdef", 3), "abc… (6 characters)");
        assert_eq!(shown("abc", 3), "abc");
    }
}
