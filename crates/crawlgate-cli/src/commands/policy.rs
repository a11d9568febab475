//! `crawlgate policy`: the robots.txt that says what the site owner means
//! (search engines in, AI training out…), proven for every crawler of the
//! registry before it is written; `--merge` into the site's own file; the
//! server rules for the crawlers robots.txt cannot stop. The work is the
//! `crawlgate-policy` crate's; this reads the inputs and writes the files.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate_policy::{merge, write, Access, Policy, PolicyError, Purpose, Written};
use serde_json::json;

use crawlgate_audit::identity::feeds::FeedSource;

use crate::load::input::{read_path, Special};
use crate::load::ip_ranges::load_ranges;
use crate::output::{note, warn};
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate policy --search allow --ai-train deny -o robots.txt
  crawlgate policy --search allow --ai-train deny -o robots.txt --nginx block.conf
  crawlgate policy POLICY.toml -o robots.txt --apache block.conf
  crawlgate policy --ai-train deny -o robots.txt --ip-ranges mirror/ --haproxy block.cfg  # by address too
  crawlgate policy --ai-train deny --merge robots.txt             # the diff
  crawlgate policy --ai-train deny --merge robots.txt --in-place  # robots.txt.bak kept
  crawlgate policy --ai-train deny --user-fetch allow --crawler 'ChatGPT-User=deny'
  crawlgate policy --search allow --ai-train deny --explain       # crawler × purpose × verdict
  crawlgate policy --ai-use deny --private /admin/ --honeypot /trap/ --crawl-delay 5 \\
      --sitemap https://example.com/sitemap.xml --license https://example.com/license.xml

Purposes (each `allow` or `deny`): search, ai-train, ai-use (AI search,
answers and assistants fed from a crawl), user-fetch (fetches a person asks
for), archive, ads, seo, link-preview, other. `allow` blocks nothing beyond
the site's own rules; `deny` shuts the crawlers out (`Disallow: /`) and
states the preference (`Content-Usage`, vocabulary draft 08;
`Content-Signal`). An unstated purpose keeps what the site's rules say.

The file is written only when it is proven: the linter finds nothing (new)
to warn of, Search Console's report flags nothing (new), and for every
crawler of the registry `crawlgate check` gives the verdict the policy
means. With --merge, no verdict changes for the crawlers the policy does not
change; crawlgate's groups sit between `# BEGIN crawlgate policy` and
`# END crawlgate policy`, which the next merge replaces.

--ip-ranges (a mirror of the operators' IP-range feeds, as `crawlgate audit`
reads it) or --fetch-ip-ranges makes the server rules also answer 403 to the
ranges published for the denied crawlers, whatever User-Agent a request
sends; a range that a crawler the policy lets in shares is never denied
(nginx: --nginx-http FILE writes the `geo` block for http {}).

Standard output: the file (no -o, or `-o -`); with --merge, the diff; with
--explain, the table; with --json, everything as one object.

Exit status: 0 written (or shown); 1 the file would not say what the policy
means (not written); 2 usage or input error (a bad policy, crawlers that
share a token and the policy wants apart, a file that is no robots.txt, an
IP-range feed that does not read).";

/// The most bytes of a POLICY.toml read.
const POLICY_LIMIT: usize = 1 << 20;

/// The most bytes of a file to merge into read (Google reads 500 KiB).
const EXISTING_LIMIT: usize = 8 * crawlgate::MAX_BYTES;

/// Arguments of `crawlgate policy`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// A POLICY.toml; the flags add to it and override it.
    #[arg(value_name = "POLICY.toml")]
    pub policy: Option<PathBuf>,

    /// Search engines.
    #[arg(long, value_name = "allow|deny")]
    pub search: Option<Access>,
    /// AI training (and the control tokens that govern it).
    #[arg(long, value_name = "allow|deny")]
    pub ai_train: Option<Access>,
    /// AI search, answers and assistants fed from a crawl.
    #[arg(long, value_name = "allow|deny")]
    pub ai_use: Option<Access>,
    /// Fetches a person asks for (an assistant fetching a page for its user).
    #[arg(long, value_name = "allow|deny")]
    pub user_fetch: Option<Access>,
    /// Web archives and site copiers.
    #[arg(long, value_name = "allow|deny")]
    pub archive: Option<Access>,
    /// Ad crawlers.
    #[arg(long, value_name = "allow|deny")]
    pub ads: Option<Access>,
    /// SEO tools.
    #[arg(long, value_name = "allow|deny")]
    pub seo: Option<Access>,
    /// Link previews.
    #[arg(long, value_name = "allow|deny")]
    pub link_preview: Option<Access>,
    /// Every other crawler of the registry.
    #[arg(long, value_name = "allow|deny")]
    pub other: Option<Access>,

    /// One crawler's access, over its purpose's (repeatable).
    #[arg(long = "crawler", value_name = "NAME=allow|deny", value_parser = parse_crawler)]
    pub crawlers: Vec<(String, Access)>,
    /// A path no crawler may fetch (repeatable).
    #[arg(long, value_name = "PATH")]
    pub private: Vec<String>,
    /// A path every crawler is told not to fetch; a fetch shows one that ignores robots.txt.
    #[arg(long, value_name = "PATH")]
    pub honeypot: Option<String>,
    /// Seconds between requests, for the crawlers that read Crawl-delay (1–30).
    #[arg(long, value_name = "SECONDS")]
    pub crawl_delay: Option<f64>,
    /// A sitemap URL (repeatable).
    #[arg(long = "sitemap", value_name = "URL")]
    pub sitemaps: Vec<String>,
    /// The URL of the site's licence (RSL 1.0 `License:`).
    #[arg(long, value_name = "URL")]
    pub license: Option<String>,

    /// Merge the policy into this robots.txt instead of writing a new one.
    #[arg(long, value_name = "EXISTING")]
    pub merge: Option<PathBuf>,
    /// Write the merged file over EXISTING, keeping it as EXISTING.bak.
    #[arg(long, requires = "merge", conflicts_with = "output")]
    pub in_place: bool,
    /// Where to write the robots.txt (`-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Print the table crawler × purpose × verdict.
    #[arg(long)]
    pub explain: bool,
    /// Print everything as one JSON object.
    #[arg(long, conflicts_with = "explain")]
    pub json: bool,

    /// Write nginx rules (a snippet to include inside `server {}`).
    #[arg(long, value_name = "FILE")]
    pub nginx: Option<PathBuf>,
    /// Write Apache httpd rules (mod_rewrite).
    #[arg(long, value_name = "FILE")]
    pub apache: Option<PathBuf>,
    /// Write Caddy rules (a snippet to import in a site block).
    #[arg(long, value_name = "FILE")]
    pub caddy: Option<PathBuf>,
    /// Write HAProxy rules (lines for a frontend section).
    #[arg(long, value_name = "FILE")]
    pub haproxy: Option<PathBuf>,
    /// Write nginx's `geo` block of the denied address ranges, for http {} (with --nginx and --ip-ranges or --fetch-ip-ranges).
    #[arg(long, value_name = "FILE")]
    pub nginx_http: Option<PathBuf>,

    /// Also deny by address: the server rules answer 403 to the IP ranges the operators publish for the denied crawlers, read from a mirror (a folder laid out as DIR/<host>/<path> of the feeds' addresses, or an http(s) URL of one).
    #[arg(long, value_name = "DIR|URL", conflicts_with = "fetch_ip_ranges")]
    pub ip_ranges: Option<String>,
    /// Also deny by address, with the ranges fetched from the operators (kept a day in ~/.cache/crawlgate/ip-ranges).
    #[arg(long)]
    pub fetch_ip_ranges: bool,
}

/// `NAME=allow|deny`.
fn parse_crawler(text: &str) -> Result<(String, Access), String> {
    let (name, access) = text
        .rsplit_once('=')
        .ok_or("write NAME=allow or NAME=deny")?;
    if name.trim().is_empty() {
        return Err("the crawler's name is empty".to_owned());
    }
    Ok((name.trim().to_owned(), access.trim().parse()?))
}

/// The policy the arguments say: the file's, then the flags over it.
fn policy_of(args: &Args) -> anyhow::Result<Policy> {
    let mut policy = match &args.policy {
        Some(path) => {
            let input = read_path(path, POLICY_LIMIT, Special::Refuse)
                .with_context(|| format!("cannot read {}", path.display()))?;
            if input.bytes.len() > POLICY_LIMIT {
                bail!("{} is over 1 MiB: no policy is that long", path.display());
            }
            let text = String::from_utf8(input.bytes)
                .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))?;
            Policy::from_toml(&text).with_context(|| format!("in {}", path.display()))?
        }
        None => Policy::new(),
    };
    let flags = [
        (Purpose::Search, args.search),
        (Purpose::AiTrain, args.ai_train),
        (Purpose::AiUse, args.ai_use),
        (Purpose::UserFetch, args.user_fetch),
        (Purpose::Archive, args.archive),
        (Purpose::Ads, args.ads),
        (Purpose::Seo, args.seo),
        (Purpose::LinkPreview, args.link_preview),
        (Purpose::Other, args.other),
    ];
    for (purpose, access) in flags {
        if let Some(access) = access {
            policy = policy.with(purpose, access);
        }
    }
    for (name, access) in &args.crawlers {
        policy = policy.with_crawler(name, *access);
    }
    policy.private.extend(args.private.iter().cloned());
    if args.honeypot.is_some() {
        policy.honeypot.clone_from(&args.honeypot);
    }
    if args.crawl_delay.is_some() {
        policy.crawl_delay = args.crawl_delay;
    }
    policy.sitemaps.extend(args.sitemaps.iter().cloned());
    if args.license.is_some() {
        policy.license.clone_from(&args.license);
    }
    policy.validate()?;
    Ok(policy)
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed
/// over it, so a reader never sees half a file.
fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .with_context(|| format!("{} names no file", path.display()))?;
    let temporary = dir.join(format!(".{}.crawlgate-tmp", name.to_string_lossy()));
    std::fs::write(&temporary, bytes)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

fn names_of(crawlers: &[&crawlgate::registry::Crawler]) -> String {
    crawlers
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The JSON `--json` prints.
fn json_of(written: &Written) -> serde_json::Value {
    let proof = &written.proof;
    let names = |crawlers: &[&crawlgate::registry::Crawler]| -> Vec<&str> {
        crawlers.iter().map(|c| c.name).collect()
    };
    json!({
        "robots_txt": written.text(),
        "diff": written.diff,
        "notes": written.notes,
        "proof": {
            "holds": proof.holds(),
            "failures": proof.failures,
            "lint": proof.lint,
            "lint_infos": proof.lint_infos,
            "search_console": proof.search_console,
            "verdicts": proof.verdicts,
        },
        "crawlers": written.explain_rows(),
        "server": {
            "denied": names(&written.server.denied),
            "private_for": names(&written.server.private_for),
            "private_paths": written.server.private_paths,
            "unmatched": written.server.unmatched.iter().map(|(c, why)| json!({"crawler": c.name, "why": why})).collect::<Vec<_>>(),
            "denied_ranges": written.server.denied_ranges.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "denied_by_address": names(&written.server.denied_by_address),
            "shared_ranges": written.server.shared_ranges,
        },
    })
}

/// Where `--ip-ranges` / `--fetch-ip-ranges` read the feeds, checked
/// before anything is written.
fn ranges_source(args: &Args) -> anyhow::Result<Option<FeedSource>> {
    let source = match (&args.ip_ranges, args.fetch_ip_ranges) {
        (Some(arg), _) => {
            let source = FeedSource::from_arg(arg);
            if let FeedSource::Mirror(dir) = &source
                && !dir.is_dir()
            {
                let shown: String = arg.chars().take(200).collect();
                bail!(
                    "--ip-ranges {shown}: not a folder (a mirror laid out as DIR/<host>/<path>, or \
                     an http(s) URL of one)"
                );
            }
            Some(source)
        }
        (None, true) => Some(FeedSource::Live {
            cache: FeedSource::default_cache(),
        }),
        (None, false) => None,
    };
    let servers = [&args.nginx, &args.apache, &args.caddy, &args.haproxy];
    if source.is_some() && servers.iter().all(|p| p.is_none()) {
        bail!(
            "--ip-ranges and --fetch-ip-ranges shape the server rules: name one with --nginx, \
             --apache, --caddy or --haproxy"
        );
    }
    if source.is_none() && args.nginx_http.is_some() {
        bail!("--nginx-http writes the denied address ranges: it needs --ip-ranges or --fetch-ip-ranges");
    }
    if source.is_some() && args.nginx.is_some() && args.nginx_http.is_none() {
        bail!(
            "with address ranges, nginx needs a `geo` block in http {{}}: name its file with \
             --nginx-http FILE"
        );
    }
    Ok(source)
}

/// Runs `crawlgate policy`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let policy = policy_of(&args)?;
    let ranges_from = ranges_source(&args)?;
    let result = match &args.merge {
        Some(path) => {
            let input = read_path(
                path,
                EXISTING_LIMIT,
                Special::Read {
                    timeout: Duration::from_secs(10),
                },
            )
            .with_context(|| format!("cannot read {}", path.display()))?;
            if input.bytes.len() > EXISTING_LIMIT {
                bail!(
                    "{} is over {} bytes, eight times what crawlers read: not a robots.txt to merge into",
                    path.display(),
                    EXISTING_LIMIT
                );
            }
            merge(&policy, &input.bytes).map(|w| (w, Some(input.bytes)))
        }
        None => write(&policy).map(|w| (w, None)),
    };
    let (written, existing) = match result {
        Ok(done) => done,
        Err(PolicyError::Unproven(failures)) => {
            let error = PolicyError::Unproven(failures);
            let _ = writeln!(std::io::stderr(), "crawlgate: error: {error}");
            return Ok(Status::Failure);
        }
        Err(error) => return Err(error.into()),
    };
    let written = match &ranges_from {
        Some(source) => written.with_ip_ranges(&load_ranges(source)?)?,
        None => written,
    };
    let mut stdout = std::io::stdout().lock();
    let to_stdout = args.output.as_deref() == Some(Path::new("-"));
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &json_of(&written))?;
        writeln!(stdout)?;
    } else if args.explain {
        stdout.write_all(written.explain().as_bytes())?;
    } else if to_stdout || (args.output.is_none() && args.merge.is_none()) {
        stdout.write_all(&written.robots_txt)?;
    } else if let Some(diff) = &written.diff {
        if diff.is_empty() {
            note("the file already says what the policy means: nothing to change");
        }
        stdout.write_all(diff.as_bytes())?;
    }
    stdout.flush()?;
    drop(stdout);
    let proof = &written.proof;
    let rows = proof.rows.len();
    let summary = format!(
        "proven for the {rows} crawlers of the registry: {} verdicts checked, the linter and \
         Search Console's report find nothing {}to flag",
        proof.verdicts,
        if existing.is_some() { "new " } else { "" }
    );
    if let Some(path) = args.output.as_deref().filter(|p| *p != Path::new("-")) {
        write_file(path, &written.robots_txt)?;
        note(&format!("wrote {}: {summary}", path.display()));
    } else if args.in_place {
        let path = args.merge.as_deref().expect("--in-place requires --merge");
        let backup = PathBuf::from(format!("{}.bak", path.display()));
        let original = existing.as_deref().unwrap_or_default();
        write_file(&backup, original)?;
        write_file(path, &written.robots_txt)?;
        note(&format!(
            "wrote {} (the file before is {}): {summary}",
            path.display(),
            backup.display()
        ));
    } else {
        note(&summary);
    }
    type Writer = fn(&crawlgate_policy::ServerRules) -> String;
    let servers: [(&Option<PathBuf>, &str, Writer); 4] = [
        (&args.nginx, "nginx", |r| r.nginx()),
        (&args.apache, "Apache", |r| r.apache()),
        (&args.caddy, "Caddy", |r| r.caddy()),
        (&args.haproxy, "HAProxy", |r| r.haproxy()),
    ];
    for (path, server, rules) in servers {
        if let Some(path) = path {
            write_file(path, rules(&written.server).as_bytes())?;
            note(&format!(
                "wrote {} ({server}): 403 to {} crawler(s) the policy denies{}",
                path.display(),
                written.server.denied.len(),
                if written.server.private_for.is_empty() || written.server.private_paths.is_empty()
                {
                    String::new()
                } else {
                    format!(
                        ", and on the private paths to {} that ignore robots.txt",
                        written.server.private_for.len()
                    )
                }
            ));
        }
    }
    if !written.server.denied_ranges.is_empty() {
        note(&format!(
            "the server rules also answer 403 to {} address range(s) published for {}, whatever \
             User-Agent a request sends (/robots.txt still served)",
            written.server.denied_ranges.len(),
            names_of(&written.server.denied_by_address)
        ));
    }
    if let (Some(path), Some(geo)) = (&args.nginx_http, written.server.nginx_http()) {
        write_file(path, geo.as_bytes())?;
        note(&format!(
            "wrote {} (nginx, for http {{}}): 403 by address to {} range(s) of {}",
            path.display(),
            written.server.denied_ranges.len(),
            names_of(&written.server.denied_by_address)
        ));
    } else if let Some(path) = &args.nginx_http {
        // No range to deny: a geo block that denies none keeps the
        // server snippet's variable defined.
        write_file(
            path,
            b"# crawlgate policy: no address range to deny.\ngeo $crawlgate_denied_address {\n    default 0;\n}\n",
        )?;
        note(&format!(
            "wrote {} (nginx, for http {{}}): no address range to deny",
            path.display()
        ));
    }
    for text in &written.notes {
        note(&format!("note: {text}"));
    }
    let unmatched: Vec<&str> = written
        .server
        .unmatched
        .iter()
        .map(|(c, _)| c.name)
        .collect();
    let any_server = [&args.nginx, &args.apache, &args.caddy, &args.haproxy]
        .iter()
        .any(|p| p.is_some());
    if any_server && !unmatched.is_empty() {
        warn(&format!(
            "no server rule for {}: their names are too plain to find in a User-Agent header \
             without finding other clients (robots.txt still denies them)",
            unmatched.join(", ")
        ));
    }
    Ok(Status::Success)
}
