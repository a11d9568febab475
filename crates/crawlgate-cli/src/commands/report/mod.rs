//! `crawlgate report`: Search Console's view of a robots.txt before it is
//! deployed: every line classified exactly as Google's reporting library
//! does (the library Search Console's robots.txt report is built on), the
//! counts of valid and unused directives, and beside each line the report
//! flags, crawlgate's own explanation.

mod json;
mod notes;
mod reported;
mod text;

use std::io::{IsTerminal as _, Write as _};

use anyhow::bail;
use crawlgate_answers::OutcomeKind;

use self::reported::Reported;
use crate::commands::lint::LINT_READ_LIMIT;
use crate::load::fetch::{warn_fetch, FetchOptions};
use crate::load::source::RobotsArg;
use crate::load::{load, Sites};
use crate::output::{warn, Ui};
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
