//! `crawlgate survey`: who may crawl what across many sites, with the
//! `crawlgate-survey` library; `crawlgate survey report`: the report of
//! tables already written.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::builder::TypedValueParser as _;
use crawlgate::Profile;
use crawlgate_survey::input::{Input, LiveOptions};
use crawlgate_survey::{CrawlerSet, Plan, Progress, Survey};

use crate::load::fetch::FetchOptions;

const EXAMPLES: &str = "\
Examples:
  crawlgate survey corpus/ -o survey.parquet -o report.html
  crawlgate survey CC-MAIN-*-robotstxt-*.warc.gz -o survey.parquet --path /news/ --compare last-month.parquet -o report.html
  crawlgate survey s3://commoncrawl/crawl-data/CC-MAIN-2024-10/robotstxt.paths.gz -o cc-2024-10.parquet
  crawlgate survey sites.jsonl -o rows.csv --crawler GPTBot --crawler CCBot --crawler '*'
  crawlgate survey --fetch sites.txt --concurrency 32 -o live.parquet
  crawlgate survey big.warc.gz -o big.parquet --resume     # after a stopped run
  crawlgate survey report 2025-*.parquet spark-out/ -o trends.html -o trends.json

INPUT is a folder of robots.txt files named by host (example.com or
example.com.txt), a WARC file (.warc or .warc.gz: its response records for
/robots.txt, HTTP status and headers included) as a path or an s3://,
https:// or http:// URL, a listing of WARC files (Common Crawl's
robotstxt.paths.gz; a local listing's relative paths are read against
--base), or a table (.jsonl or .csv) with the columns host and robots_txt
(or robots_txt_b64), and optionally status and content_type. --fetch FILE
lists sites (a host or URL per line) whose robots.txt is fetched live.
S3 settings come from the AWS_* variables (AWS_ENDPOINT_URL,
AWS_SKIP_SIGNATURE=true for a public bucket, AWS_ALLOW_HTTP=true …).

Each row is one host (its latest capture; the count of its captures kept;
redirects followed to the captures they lead to): status, outcome (a 5xx
means everything disallowed, a 4xx everything allowed), size, HTML served,
lint counts by code, sitemaps, crawl-delay, Content-Usage, Content-Signal,
Common Crawl's status categories, and per crawler X: root_X (may it fetch
/), cause_X (blocked_by_name, blocked_by_star, partly_blocked,
housekeeping_blocked, allowed, no_robots_txt, unreachable, redirected,
not_robots_txt), group_X (named, fallback, star, none, ignored), line_X,
and path_X_N for each --path. What cannot
be read is an error row with the reason. --output's extension picks the
format: .parquet, .csv, .jsonl, .html for the report, .json for the
summary. Outputs are written whole or not at all; a stopped survey
continues from its last checkpoint with --resume.

Exit status: 0 the survey was written (error rows included), 2 usage, input
or output error.";

const REPORT_EXAMPLES: &str = "\
Examples:
  crawlgate survey report survey.parquet -o report.html
  crawlgate survey report 2025-09.parquet 2025-10.parquet spark-out/ -o trends.html -o trends.json

TABLE is a survey's Parquet table, or a folder of Parquet part files in its
schema (a Spark output folder: _SUCCESS and hidden files are left alone).
Give several, oldest first: the report shows the last, the trend of every
crawler over all of them, and the change since the one before the last.

Exit status: 0 written, 2 usage, input or output error.";

/// Arguments of `crawlgate survey`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<SurveyCommand>,

    /// Folders, WARC files (paths or URLs), listings of WARC files (.paths.gz) and tables (.jsonl, .csv) to survey.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// A list of sites (a host or URL per line) to fetch live.
    #[arg(long, value_name = "FILE")]
    pub fetch: Vec<PathBuf>,

    /// Where to write: .parquet, .csv, .jsonl tables, .html report, .json summary (repeatable).
    #[arg(short, long, value_name = "PATH", required = true)]
    pub output: Vec<PathBuf>,

    /// A path to answer for besides / (repeatable, at most 16): columns path_X_1, path_X_2 …
    #[arg(long = "path", value_name = "PATH")]
    pub paths: Vec<String>,

    /// An earlier survey's table (a Parquet file or a Spark output folder): the report shows which sites started or stopped blocking each crawler.
    #[arg(long, value_name = "TABLE")]
    pub compare: Option<PathBuf>,

    /// A crawler to answer for (repeatable; `*` for the `*` group). Default: Googlebot, Bingbot, the AI crawlers of the crawler table, and `*`.
    #[arg(long, value_name = "TOKEN", conflicts_with = "all_crawlers")]
    pub crawler: Vec<String>,

    /// Answer for every crawler of the crawler table.
    #[arg(long)]
    pub all_crawlers: bool,

    /// How to read robots.txt: google, rfc9309, legacy, bing or yandex, for
    /// every crawler. By default google, and each crawler whose operator's
    /// reading crawlgate reproduces (Bing's crawlers, Yandex's robots) by that reading.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<Profile>,

    /// Continue the stopped survey of these outputs from its last checkpoint (same inputs, crawlers, paths and profile).
    #[arg(long)]
    pub resume: bool,

    /// Sites between checkpoints (a stopped survey loses at most this many).
    #[arg(long, value_name = "SITES", default_value_t = crawlgate_survey::CHECKPOINT_ROWS, value_parser = clap::value_parser!(u32).range(1..).map(|n| n as usize))]
    pub checkpoint: usize,

    /// What the relative paths of a local .paths.gz listing are read against (default: https://data.commoncrawl.org/).
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,

    /// Threads classifying sites (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..1025).map(|n| n as usize))]
    pub threads: Option<usize>,

    /// Fetches at once with --fetch.
    #[arg(long, value_name = "N", default_value = "16", value_parser = clap::value_parser!(u32).range(1..10001).map(|n| n as usize))]
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

/// The subcommands of `crawlgate survey`.
#[derive(clap::Subcommand, Debug)]
pub enum SurveyCommand {
    /// The HTML report and JSON summary of survey tables already written (Parquet files or Spark output folders), with trends over several.
    #[command(after_help = REPORT_EXAMPLES)]
    Report(ReportArgs),
}

/// Arguments of `crawlgate survey report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Survey tables, oldest first: Parquet files or folders of Parquet part files.
    #[arg(value_name = "TABLE", required = true)]
    pub tables: Vec<PathBuf>,

    /// Where to write: .html report, .json summary (repeatable).
    #[arg(short, long, value_name = "PATH", required = true)]
    pub output: Vec<PathBuf>,

    /// Print no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs `crawlgate survey`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(SurveyCommand::Report(report)) = args.command {
        return run_report(report);
    }
    if args.inputs.is_empty() && args.fetch.is_empty() {
        bail!("nothing to survey: give a folder, WARC file or URL, listing, or table, or --fetch SITES");
    }
    let crawlers = if args.all_crawlers {
        CrawlerSet::all_known()
    } else if args.crawler.is_empty() {
        CrawlerSet::default_set()
    } else {
        CrawlerSet::from_tokens(args.crawler.iter().map(String::as_str))?
    };
    let mut inputs = Vec::new();
    for argument in &args.inputs {
        inputs.extend(Input::resolve(argument, args.base.as_deref())?);
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
        resume: args.resume,
        checkpoint: args.checkpoint,
    };
    let survey = match args.profile {
        Some(profile) => Survey::new(crawlers).with_profile(profile),
        None => Survey::new(crawlers),
    }
    .with_paths(&args.paths)?;
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
        let accounting = summary
            .accounting
            .as_ref()
            .map(|a| {
                format!(
                    "{} records: {} rows, {} repeated captures, {} skipped; ",
                    a.records,
                    a.rows,
                    a.duplicates,
                    a.skipped_total()
                )
            })
            .unwrap_or_default();
        crate::output::note(&format!(
            "survey: {} sites ({} error rows, {} unreachable); {accounting}{:.1} s; wrote {}",
            summary.rows,
            summary.errors,
            summary.unreachable,
            started.elapsed().as_secs_f64(),
            written.join(", ")
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `crawlgate survey report`.
fn run_report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let snapshots = crawlgate_survey::tables::report(&args.tables, &args.output)?;
    if !args.quiet {
        let written: Vec<String> = args
            .output
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let rows: Vec<String> = snapshots
            .iter()
            .map(|s| format!("{} ({} sites)", s.label, s.summary.rows))
            .collect();
        crate::output::note(&format!(
            "survey report: {}; wrote {}",
            rows.join(", "),
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
