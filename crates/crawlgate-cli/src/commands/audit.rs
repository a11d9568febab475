//! `crawlgate audit`: access logs against robots.txt, with the
//! `crawlgate-audit` library: which crawlers came, whether they were who
//! they said, whether they obeyed.

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate::Profile;
use crawlgate_answers::net::{Prefix, PrefixSet};
use crawlgate_answers::RobotsSource;
use crawlgate_audit::audit::{Audit, AuditOptions, NoRows, RowSink};
use crawlgate_audit::format::{LogFormat, FORMAT_NAMES};
use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::identity::VerifyOptions;
use crawlgate_audit::input::LogSource;
use crawlgate_audit::output::deny::{self, DenyFormat};
use crawlgate_audit::output::table::{TableKind, TableWriter, Tables};
use crawlgate_audit::output::{html, text};
use crawlgate_audit::robots::{self, RobotsInForce, Site};
use crawlgate_audit::service::{self, ServiceOptions};

use crate::load::fetch::{fetch_all, parse_seconds, warn_fetch, FetchOptions};
use crate::output::{shown, warn};
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate audit access.log --robots robots.txt --honeypot /trap/ -o requests.parquet --deny-list deny.txt
  crawlgate audit access.log.*.gz --robots https://example.com/robots.txt -o report.html
  crawlgate audit - --format cloudflare --robots-dir sites/ < logpush.jsonl
  crawlgate audit u_ex*.log --format w3c --robots-versions versions/ -o rows.csv
  crawlgate audit access.log --robots-service http://127.0.0.1:8080 --origin https://example.com -o rows.jsonl
  crawlgate audit access.log --format nginx --log-format '$remote_addr [$time_iso8601] \"$request\" $status \"$http_user_agent\"' --robots robots.txt
  crawlgate audit access.log --robots robots.txt --ip-ranges mirror/ --resolver 127.0.0.1:5353 --dns-timeout 2

Each request's User-Agent is matched to a crawler of the registry (a
browser or an unknown agent is `unidentified`) and its identity verified:
`verified` (the address is in a feed its operator publishes, or its reverse
DNS is in the operator's domain and resolves back), `spoofed` (the operator
documents a method and the address fails it), `unverifiable` (no method),
`unknown` (a lookup failed or timed out and no feed decides). Each request
is judged as `crawlgate check --agent <its User-Agent> <its URL>` judges
it (each crawler by its operator's rules: Bing's crawlers by the bing
profile, Yandex's robots by yandex, others by google, unless --profile
names one for all); a crawler that obeys robots.txt fetching a disallowed URL is a
violation (never /robots.txt itself, never a user-triggered fetcher, never
a spoofed request; a fetch within 24 hours of a change of robots.txt is
reported apart). Crawlers whose operators say they wait the Crawl-delay
(Bingbot, not Googlebot) are checked for it across their addresses.

LOG is a file (plain, gzip or zstd) or `-` for standard input; --format
auto tells combined, common, vhost_combined, JSON (Cloudflare's Logpush
fields too) and W3C/IIS logs from their first lines. --output's extension
picks what is written: .parquet, .csv or .jsonl (one row per readable
line), .html (the report with charts), .json (the summary). The deny list
holds every spoofing address and every honeypot visitor that named no
crawler, never a verified crawler.

--robots-service reads the versions of --origin's robots.txt that
`crawlgate serve` at that URL recorded (the last 30 days), each in force
from the time the service fetched it. The service is yours, so loopback
and private addresses are reached (link-local ones with
--allow-link-local); at most 1,000 versions and 256 MiB are read, each
answer within --timeout.

Feeds are read from --ip-ranges (a folder laid out as DIR/<host>/<path>
of the feeds' addresses, or an http(s) URL of such a mirror), or fetched
from their operators and kept in --feed-cache for a day.

Exit status: 0 the audit ran (whatever it found), 2 usage or input error.";

/// Arguments of `crawlgate audit`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["robots", "robots_versions", "robots_dir", "robots_service"]))]
pub struct Args {
    /// Access logs: files (plain, .gz, .zst) or `-` for standard input.
    #[arg(value_name = "LOG", required = true)]
    pub logs: Vec<String>,

    /// The robots.txt in force: a file, or an http(s) URL (fetched as Google does).
    #[arg(long, value_name = "FILE|URL")]
    pub robots: Option<String>,

    /// A folder of dated versions of the robots.txt, each named by the time it came into force (2026-11-27T10-00-00Z.txt): each request is judged by the version in force at its time.
    #[arg(long, value_name = "DIR")]
    pub robots_versions: Option<PathBuf>,

    /// A folder of one robots.txt per host (DIR/example.com, DIR/example.com.txt, or a folder DIR/example.com/ of dated versions): each request is judged by its host's.
    #[arg(long, value_name = "DIR")]
    pub robots_dir: Option<PathBuf>,

    /// The versions `crawlgate serve` recorded of --origin's robots.txt (its version store, the last 30 days), from the service at this URL (http://HOST:PORT; loopback and private addresses are reached: the service is yours): each request is judged by the version in force at its time.
    #[arg(long, value_name = "URL", requires = "origin")]
    pub robots_service: Option<String>,

    /// The site whose versions --robots-service reads (https://example.com).
    #[arg(long, value_name = "URL")]
    pub origin: Option<String>,

    /// How to read robots.txt: google, rfc9309, legacy, bing or yandex, for every crawler. By default, each crawler by its operator's own parser's reading (bing for Bing's crawlers, yandex for Yandex's robots, else google), as `crawlgate check` reads it.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<Profile>,

    /// The log format: auto, combined, common, vhost_combined, nginx, apache, json, cloudflare or w3c.
    #[arg(
        long,
        default_value = "auto",
        value_name = "NAME",
        help_heading = "Logs"
    )]
    pub format: String,

    /// The nginx `log_format` or Apache `LogFormat` string, with --format nginx or apache.
    #[arg(long, value_name = "STRING", help_heading = "Logs")]
    pub log_format: Option<String>,

    /// JSON field names, with --format json or cloudflare: `ip=client.ip,ua=agent,url=uri,time=ts,status=code,host=vhost,xff=forwarded`.
    #[arg(long, value_name = "PART=FIELD,...", help_heading = "Logs")]
    pub json_fields: Option<String>,

    /// A proxy (address or CIDR) whose X-Forwarded-For header is believed; repeatable. Other clients' headers are ignored.
    #[arg(long, value_name = "CIDR", help_heading = "Logs")]
    pub trusted_proxy: Vec<String>,

    /// A honeypot path (a Disallow'd URL linked nowhere): requests whose path starts with it are honeypot hits; repeatable.
    #[arg(long, value_name = "PATH", help_heading = "Findings")]
    pub honeypot: Vec<String>,

    /// Where the operators' IP feeds are read: a folder laid out as DIR/<host>/<path> of their addresses, or an http(s) URL of such a mirror. By default they are fetched from the operators.
    #[arg(long, value_name = "DIR|URL", help_heading = "Verification")]
    pub ip_ranges: Option<String>,

    /// Where fetched feeds are kept for a day (default: ~/.cache/crawlgate/ip-ranges).
    #[arg(long, value_name = "DIR", help_heading = "Verification")]
    pub feed_cache: Option<PathBuf>,

    /// The DNS server asked for reverse and forward lookups (default: the system's).
    #[arg(long, value_name = "IP:PORT", help_heading = "Verification")]
    pub resolver: Option<SocketAddr>,

    /// Seconds one DNS query may wait.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_seconds, help_heading = "Verification")]
    pub dns_timeout: Duration,

    /// DNS lookups made at a time.
    #[arg(long, value_name = "N", default_value = "64", value_parser = clap::value_parser!(u16).range(1..=1024), help_heading = "Verification")]
    pub dns_concurrency: u16,

    /// Ask no DNS: crawlers verified only by DNS are `unknown`.
    #[arg(long, help_heading = "Verification")]
    pub no_dns: bool,

    /// Write rows (.parquet, .csv, .jsonl), the report (.html) or the summary (.json); repeatable.
    #[arg(short, long, value_name = "FILE", help_heading = "Output")]
    pub output: Vec<PathBuf>,

    /// Write a deny list: the spoofing addresses and the honeypot visitors that named no crawler.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub deny_list: Option<PathBuf>,

    /// The deny list's syntax: plain (one address per line), nginx, apache or nftables.
    #[arg(long, value_name = "FORMAT", default_value = "plain", value_parser = clap::builder::PossibleValuesParser::new(DenyFormat::NAMES), help_heading = "Output")]
    pub deny_format: String,

    /// Print the summary as JSON.
    #[arg(long, help_heading = "Output")]
    pub json: bool,

    /// Parsing threads (0: one per core).
    #[arg(long, value_name = "N", default_value = "0")]
    pub threads: usize,

    #[command(flatten, next_help_heading = "Fetching (robots.txt by URL, feeds)")]
    pub fetch: FetchOptions,
}

enum Output {
    Table(PathBuf, TableKind),
    Html(PathBuf),
    Json(PathBuf),
}

fn outputs(paths: &[PathBuf]) -> anyhow::Result<Vec<Output>> {
    let mut out = Vec::new();
    for path in paths {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        let output = match (TableKind::of(path), extension.as_deref()) {
            (Some(kind), _) => Output::Table(path.clone(), kind),
            (None, Some("html" | "htm")) => Output::Html(path.clone()),
            (None, Some("json")) => Output::Json(path.clone()),
            _ => bail!(
                "--output {}: the extension says what to write: .parquet, .csv or .jsonl (rows), .html (report), .json (summary)",
                shown(&path.display().to_string(), 200)
            ),
        };
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !parent.is_dir() {
            bail!(
                "--output {}: the folder {} does not exist",
                shown(&path.display().to_string(), 200),
                shown(&parent.display().to_string(), 200)
            );
        }
        out.push(output);
    }
    Ok(out)
}

fn log_sources(logs: &[String]) -> anyhow::Result<Vec<LogSource>> {
    if logs.iter().filter(|l| *l == "-").count() > 1 {
        bail!("standard input (`-`) can be read once");
    }
    logs.iter()
        .map(|log| {
            let source = LogSource::from_arg(log);
            if let LogSource::File(path) = &source {
                let named = shown(log, 200);
                let meta = std::fs::metadata(path)
                    .with_context(|| format!("cannot read the log {named}"))?;
                if meta.is_dir() {
                    bail!("{named} is a folder: give the log files (e.g. {named}/access.log*)");
                }
            }
            Ok(source)
        })
        .collect()
}

fn load_robots(args: &Args) -> anyhow::Result<RobotsInForce> {
    if args.origin.is_some() && args.robots_service.is_none() {
        bail!("--origin names the site whose versions --robots-service reads: give --robots-service too");
    }
    if let Some(dir) = &args.robots_dir {
        return Ok(robots::read_per_host(dir)?);
    }
    if let Some(dir) = &args.robots_versions {
        return Ok(RobotsInForce::One(robots::read_versions(dir)?));
    }
    if let (Some(url), Some(origin)) = (&args.robots_service, &args.origin) {
        let options = ServiceOptions {
            timeout: args.fetch.timeout,
            allow_link_local: args.fetch.allow_link_local,
            user_agent: args.fetch.user_agent.clone(),
            ..ServiceOptions::default()
        };
        let read =
            service::read_versions_blocking(url, origin, &options).context("--robots-service")?;
        for warning in &read.warnings {
            warn(warning);
        }
        return Ok(RobotsInForce::One(read.site));
    }
    let arg = args.robots.as_deref().unwrap_or_default();
    if arg.starts_with("http://") || arg.starts_with("https://") {
        crate::target::check_urls([&arg.to_owned()])?;
        let mut reports = fetch_all(&args.fetch, &[arg])?;
        let report = reports.pop().context("no fetch was made")?;
        warn_fetch(&report);
        // The fetch outcome, read again under each crawler's profile.
        return Ok(RobotsInForce::One(Site::single(
            report.robots_url.clone(),
            RobotsSource::fetched(report.entry.outcome.clone()),
        )));
    }
    let path = Path::new(arg);
    let named = shown(arg, 200);
    if path.is_dir() {
        bail!("--robots {named} is a folder: give --robots-versions {named} for dated versions, or --robots-dir {named} for one file per host");
    }
    let robots = robots::read_file(path).map_err(|e| match e {
        robots::RobotsError::Io { source, .. } => {
            anyhow::anyhow!("cannot read the robots.txt {named}: {source}")
        }
        other => other.into(),
    })?;
    Ok(RobotsInForce::One(Site::single(arg, robots)))
}

fn options(args: &Args) -> anyhow::Result<AuditOptions> {
    let format = match args.format.as_str() {
        "auto" if args.log_format.is_some() => bail!("--log-format needs --format nginx or apache"),
        "auto" => None,
        name => Some(
            LogFormat::named(
                name,
                args.log_format.as_deref(),
                args.json_fields.as_deref(),
            )
            .map_err(anyhow::Error::msg)?,
        ),
    };
    if args.json_fields.is_some() && !matches!(args.format.as_str(), "json" | "cloudflare") {
        bail!(
            "--json-fields needs --format json or cloudflare (one of {})",
            FORMAT_NAMES.join(", ")
        );
    }
    for path in &args.honeypot {
        if !path.starts_with('/') {
            bail!(
                "--honeypot {}: a honeypot is a path starting with `/` (/trap/)",
                shown(path, 200)
            );
        }
    }
    let trusted_proxies: PrefixSet = args
        .trusted_proxy
        .iter()
        .map(|p| {
            p.parse::<Prefix>()
                .map_err(|e| anyhow::anyhow!("--trusted-proxy: {e}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .collect();
    let feeds = match &args.ip_ranges {
        Some(arg) => {
            let source = FeedSource::from_arg(arg);
            if let FeedSource::Mirror(dir) = &source
                && !dir.is_dir()
            {
                bail!(
                    "--ip-ranges {}: not a folder (a mirror laid out as DIR/<host>/<path>, or an http(s) URL of one)",
                    shown(arg, 200)
                );
            }
            source
        }
        None => FeedSource::Live {
            cache: args.feed_cache.clone().or_else(FeedSource::default_cache),
        },
    };
    let dns = (!args.no_dns).then(|| DnsConfig {
        server: args.resolver,
        timeout: args.dns_timeout,
        concurrency: usize::from(args.dns_concurrency),
    });
    if args.no_dns && args.resolver.is_some() {
        bail!("--resolver and --no-dns contradict each other");
    }
    Ok(AuditOptions {
        format,
        robots: load_robots(args)?,
        profile: args.profile,
        honeypots: args.honeypot.clone(),
        trusted_proxies,
        verify: VerifyOptions {
            feeds,
            allow_private: args.fetch.allow_private,
            dns,
            feed_timeout: args.fetch.timeout,
        },
        threads: args.threads,
    })
}

/// Runs `crawlgate audit`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let sources = log_sources(&args.logs)?;
    let outputs = outputs(&args.output)?;
    let deny_format = DenyFormat::named(&args.deny_format).context("unknown deny format")?;
    let audit = Audit::new(options(&args)?)?;
    let mut tables = Tables::default();
    for output in &outputs {
        if let Output::Table(path, kind) = output {
            tables.0.push(TableWriter::create(path, *kind)?);
        }
    }
    let summary = {
        let sink: &mut dyn RowSink = if tables.0.is_empty() {
            &mut NoRows
        } else {
            &mut tables
        };
        audit.run(&sources, sink)?
    };
    tables.finish().context("cannot finish writing the rows")?;
    let mut written = Vec::new();
    for output in &outputs {
        match output {
            Output::Table(path, _) => written.push(path.display().to_string()),
            Output::Html(path) => {
                let page = html::render(&summary, &args.honeypot);
                write_whole(path, page.as_bytes())?;
                written.push(path.display().to_string());
            }
            Output::Json(path) => {
                let json = serde_json::to_vec_pretty(&summary)?;
                write_whole(path, &json)?;
                written.push(path.display().to_string());
            }
        }
    }
    let mut deny_info = None;
    if let Some(path) = &args.deny_list {
        let entries = summary.deny_list();
        write_whole(path, deny::render(&entries, deny_format).as_bytes())?;
        deny_info = Some((path.display().to_string(), entries.len()));
    }
    for warning in &summary.warnings {
        warn(warning);
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &summary)?;
        writeln!(stdout)?;
    } else {
        let mut printed = summary.clone();
        // Warnings went to standard error already.
        printed.warnings.clear();
        let options = text::TextOptions {
            honeypots: args.honeypot.clone(),
            deny_list: deny_info,
            outputs: written,
            top: 5,
        };
        stdout.write_all(text::render(&printed, &options).as_bytes())?;
    }
    Ok(Status::Success)
}

/// Writes a file whole: a temporary file beside it, renamed when done.
fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .context("no file name")?
        .to_string_lossy()
        .into_owned();
    let temporary = path.with_file_name(format!(".{name}.partial"));
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::rename(&temporary, path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
