//! `crawlgate survey`: who may crawl what across many sites, with the
//! `crawlgate-survey` library.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context as _};
use crawlgate::Profile;
use crawlgate_survey::input::{Input, LiveOptions};
use crawlgate_survey::{CrawlerSet, Plan, Progress, Survey};

use crate::load::fetch::FetchOptions;

const EXAMPLES: &str = "\
Examples:
  crawlgate survey corpus/ -o survey.parquet -o report.html
  crawlgate survey CC-MAIN-*-robotstxt-*.warc.gz -o survey.parquet --compare last-month.parquet -o report.html
  crawlgate survey sites.jsonl -o rows.csv --crawler GPTBot --crawler CCBot --crawler '*'
  crawlgate survey --fetch sites.txt --concurrency 32 -o live.parquet

INPUT is a folder of robots.txt files named by host (example.com or
example.com.txt), a WARC file (.warc or .warc.gz: its response records for
/robots.txt, HTTP status and headers included), or a table (.jsonl or .csv)
with the columns host and robots_txt (or robots_txt_b64), and optionally
status and content_type. --fetch FILE lists sites (a host or URL per line)
whose robots.txt is fetched live.

Each row is one site: status, outcome (a 5xx means everything disallowed, a
404 everything allowed), size, HTML served, lint counts by code, sitemaps,
crawl-delay, Content-Usage and Content-Signal, and for each crawler a class
(blocked, partial, allowed, unmentioned) with the line deciding `/`. What
cannot be read is an error row with the reason. --output's extension picks
the format: .parquet, .csv, .jsonl, or .html for the report.

Exit status: 0 the survey was written (error rows included), 2 usage or
output error.";

/// Arguments of `crawlgate survey`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Folders, WARC files (.warc, .warc.gz) and tables (.jsonl, .csv) to survey.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// A list of sites (a host or URL per line) to fetch live.
    #[arg(long, value_name = "FILE")]
    pub fetch: Vec<PathBuf>,

    /// Where to write: .parquet, .csv, .jsonl tables, .html report (repeatable).
    #[arg(short, long, value_name = "PATH", required = true)]
    pub output: Vec<PathBuf>,

    /// An earlier survey's Parquet table: the report shows which sites started or stopped blocking each crawler.
    #[arg(long, value_name = "PARQUET")]
    pub compare: Option<PathBuf>,

    /// A crawler to classify (repeatable; `*` for the `*` groups). Default: Googlebot, Bingbot, the AI crawlers of the crawler table, and `*`.
    #[arg(long, value_name = "TOKEN", conflicts_with = "all_crawlers")]
    pub crawler: Vec<String>,

    /// Classify every crawler of the crawler table.
    #[arg(long)]
    pub all_crawlers: bool,

    /// How to read robots.txt: google (default), rfc9309, legacy or bing.
    #[arg(long, default_value = "google")]
    pub profile: Profile,

    /// Threads classifying sites (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Fetches at once with --fetch.
    #[arg(long, value_name = "N", default_value = "16")]
    pub concurrency: usize,

    /// Never draw a progress bar (one is drawn when standard error is a terminal).
    #[arg(long)]
    pub no_progress: bool,

    /// Print no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    #[command(flatten, next_help_heading = "Fetching (with --fetch)")]
    pub fetch_options: FetchOptions,
}

/// Runs `crawlgate survey`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.inputs.is_empty() && args.fetch.is_empty() {
        bail!("nothing to survey: give a folder, WARC file or table, or --fetch SITES");
    }
    let crawlers = if args.all_crawlers {
        CrawlerSet::all_known()
    } else if args.crawler.is_empty() {
        CrawlerSet::default_set()
    } else {
        CrawlerSet::from_tokens(args.crawler.iter().map(String::as_str))?
    };
    let mut inputs = Vec::new();
    for path in &args.inputs {
        inputs.push(Input::detect(path)?);
    }
    let mut live = LiveOptions::default();
    live.concurrency = args.concurrency.max(1);
    live.user_agent = args.fetch_options.user_agent.clone();
    live.timeout = args.fetch_options.timeout;
    live.allow_private = args.fetch_options.allow_private;
    live.allow_link_local = args.fetch_options.allow_link_local;
    for path in &args.fetch {
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        inputs.push(Input::Sites(path.clone(), live.clone()));
    }
    let plan = Plan {
        outputs: args.output.clone(),
        compare: args.compare.clone(),
        threads: args.threads,
    };
    let survey = Survey::new(crawlers).with_profile(args.profile);
    let bar = (!args.no_progress && std::io::stderr().is_terminal()).then(|| progress_bar(&inputs));
    let started = Instant::now();
    let summary = crawlgate_survey::run(&survey, &inputs, &plan, &|done: Progress| {
        if let Some((bar, by_sites)) = &bar {
            bar.set_position(if *by_sites { done.sites } else { done.bytes });
            bar.set_message(format!("{} sites", done.sites));
        }
    })?;
    if let Some((bar, _)) = bar {
        bar.finish_and_clear();
    }
    if !args.quiet {
        let written: Vec<String> = args
            .output
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        crate::output::note(&format!(
            "survey: {} sites ({} error rows) in {:.1} s; wrote {}",
            summary.rows,
            summary.errors,
            started.elapsed().as_secs_f64(),
            written.join(", ")
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// A bar over sites when every input can count them, else over bytes.
fn progress_bar(inputs: &[Input]) -> (indicatif::ProgressBar, bool) {
    let sizes: Vec<_> = inputs.iter().map(Input::size).collect();
    let sites: Option<u64> = sizes.iter().map(|s| s.sites).sum();
    let bytes: Option<u64> = sizes.iter().map(|s| s.bytes).sum();
    let (length, by_sites, template) = match (sites, bytes) {
        (Some(sites), _) => (
            sites,
            true,
            "{spinner} {pos}/{len} sites {bar:40} {per_sec} eta {eta}",
        ),
        (None, Some(bytes)) => (
            bytes,
            false,
            "{spinner} {bytes}/{total_bytes} {bar:40} {msg} eta {eta}",
        ),
        (None, None) => (0, true, "{spinner} {pos} sites {per_sec}"),
    };
    let bar = indicatif::ProgressBar::new(length);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("valid template"));
    (bar, by_sites)
}
