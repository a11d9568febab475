//! A list of sites whose robots.txt is fetched live, through the fetch
//! crate: its client (redirects, timeouts, the 500 KiB bound), its address
//! policy (no private, loopback or link-local address unless allowed) and
//! its politeness schedule (one origin listed twice is not fetched twice in
//! the same second), a bounded number of fetches at a time.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate_answers::Origin;
use crawlgate_fetch::{Fetcher, MemoryCache, Pacing, PolitenessConfig, Schedule};
use futures_util::stream::{self, StreamExt};

use crate::capture::{host_of, shown, Capture, Payload};
use crate::input::lines::read_line;
use crate::input::Flow;

/// The longest line of a site list read.
const MAX_LINE: usize = 8 << 10;

/// How sites are fetched.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LiveOptions {
    /// Fetches at once (at least 1).
    pub concurrency: usize,
    /// The `User-Agent` header sent.
    pub user_agent: String,
    /// The time allowed for one fetch, redirects and body included.
    pub timeout: Duration,
    /// Allow loopback, private and other non-public addresses.
    pub allow_private: bool,
    /// Allow link-local addresses and cloud metadata services.
    pub allow_link_local: bool,
}

impl Default for LiveOptions {
    fn default() -> Self {
        LiveOptions {
            concurrency: 16,
            user_agent: crawlgate_fetch::DEFAULT_USER_AGENT.to_owned(),
            timeout: Duration::from_secs(30),
            allow_private: false,
            allow_link_local: false,
        }
    }
}

/// The URL a line of a site list names: itself when it has a scheme, else
/// `https://LINE/`.
fn site_url(line: &str) -> String {
    if line.contains("://") {
        line.to_owned()
    } else {
        format!("https://{line}/")
    }
}

/// Whether a line names a site (not blank, not a `#` comment).
fn names_a_site(line: &[u8]) -> bool {
    let line = line.trim_ascii();
    !line.is_empty() && !line.starts_with(b"#")
}

/// How many sites a list names.
pub(crate) fn count(path: &Path) -> Option<u64> {
    let mut reader = BufReader::new(File::open(path).ok()?);
    let mut line = Vec::new();
    let mut sites = 0;
    loop {
        let read = read_line(&mut reader, &mut line, MAX_LINE).ok()?;
        if read.taken == 0 {
            return Some(sites);
        }
        sites += u64::from(names_a_site(&line));
    }
}

/// The lines of a site list naming sites, with their numbers; an error
/// (unreadable, over-long line) is an `Err` with the reason.
fn site_lines(path: &Path) -> impl Iterator<Item = (u64, Result<String, String>)> + use<> {
    let mut reader = File::open(path)
        .map(BufReader::new)
        .map_err(|e| e.to_string());
    let mut number = 0u64;
    let mut line = Vec::new();
    std::iter::from_fn(move || loop {
        let input = match &mut reader {
            Ok(input) => input,
            Err(why) if number == 0 => {
                number += 1;
                return Some((number, Err(format!("cannot open the site list: {why}"))));
            }
            Err(_) => return None,
        };
        number += 1;
        match read_line(input, &mut line, MAX_LINE) {
            Ok(read) if read.taken == 0 => return None,
            Ok(read) if read.cut => {
                return Some((number, Err(format!("line longer than {MAX_LINE} bytes"))))
            }
            Ok(_) if !names_a_site(&line) => continue,
            Ok(_) => match std::str::from_utf8(line.trim_ascii()) {
                Ok(text) => return Some((number, Ok(text.to_owned()))),
                Err(_) => return Some((number, Err("not UTF-8 text".to_owned()))),
            },
            Err(e) => {
                reader = Err(e.to_string());
                return Some((
                    number,
                    Err(format!("cannot read the site list further: {e}")),
                ));
            }
        }
    })
}

/// Fetches the sites of the list in order, passing over the first `skip`
/// (already surveyed by a stopped survey) without fetching them; captures
/// come in list order (fetches overlap, answers wait for the ones before
/// them).
pub(crate) fn read(
    path: &Path,
    options: &LiveOptions,
    skip: u64,
    emit: &mut dyn FnMut(Capture, u64) -> Flow,
) {
    let name = path.display().to_string();
    let mut builder = Fetcher::builder()
        .user_agent(&options.user_agent)
        .timeout(options.timeout)
        .connect_timeout(options.timeout.min(Duration::from_secs(10)))
        // Each site is fetched once: keep little.
        .cache(Arc::new(MemoryCache::new(1024, 16 << 20)));
    if options.allow_private {
        builder = builder.allow_non_public_addresses();
    }
    if options.allow_link_local {
        builder = builder.allow_link_local_addresses();
    }
    let fetcher = match builder.build() {
        Ok(fetcher) => fetcher,
        Err(e) => {
            emit(
                Capture::error(None, name, format!("cannot start fetching: {e}")),
                0,
            );
            return;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            emit(
                Capture::error(None, name, format!("cannot start the network runtime: {e}")),
                0,
            );
            return;
        }
    };
    let politeness = PolitenessConfig::default();
    let schedule = Schedule::new(politeness.max_origins);
    let pacing = Pacing::unrestricted(&politeness);
    runtime.block_on(async {
        let fetches =
            stream::iter(site_lines(path).skip(usize::try_from(skip).unwrap_or(usize::MAX)))
                .map(|(number, line)| {
                    let source = format!("{name}:{number}");
                    let (fetcher, schedule) = (&fetcher, &schedule);
                    async move {
                        match line {
                            Ok(site) => fetch_site(fetcher, schedule, &pacing, &site, source).await,
                            Err(why) => Capture::error(None, source, why),
                        }
                    }
                })
                .buffered(options.concurrency.max(1));
        futures_util::pin_mut!(fetches);
        let mut done = skip;
        while let Some(capture) = fetches.next().await {
            done += 1;
            if emit(capture, done) == Flow::Stop {
                return;
            }
        }
    });
}

async fn fetch_site(
    fetcher: &Fetcher,
    schedule: &Schedule,
    pacing: &Pacing,
    site: &str,
    source: String,
) -> Capture {
    let url = site_url(site);
    let origin = match Origin::from_url(&url) {
        Ok(origin) => origin,
        Err(e) => return Capture::error(None, source, format!("{}: {e}", shown(site))),
    };
    let host = host_of(&origin);
    let now = SystemTime::now();
    let at = schedule.reserve(&origin, pacing, now);
    if let Ok(wait) = at.duration_since(now) {
        tokio::time::sleep(wait).await;
    }
    match fetcher.fetch(&url).await {
        Ok(report) => {
            let mut capture = Capture::new(
                Some(host),
                report.robots_url.clone(),
                Payload::Fetched(Box::new(report)),
            );
            capture.url = Some(origin.robots_url().to_string());
            capture.date = Some(crawlgate_answers::time::rfc3339(now));
            capture
        }
        Err(e) => Capture::error(Some(host), origin.robots_url().to_string(), e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_lists_name_hosts_or_urls() {
        assert_eq!(site_url("example.com"), "https://example.com/");
        assert_eq!(
            site_url("http://example.com:8080/x"),
            "http://example.com:8080/x"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sites.txt");
        std::fs::write(
            &path,
            format!(
                "a.example\n\n# comment\n{}\nb.example\n",
                "x".repeat(MAX_LINE + 1)
            ),
        )
        .unwrap();
        assert_eq!(count(&path), Some(3));
        let lines: Vec<(u64, Result<String, String>)> = site_lines(&path).collect();
        assert_eq!(lines[0], (1, Ok("a.example".to_owned())));
        assert!(matches!(&lines[1], (4, Err(why)) if why.contains("longer")));
        assert_eq!(lines[2], (5, Ok("b.example".to_owned())));
        let missing: Vec<_> = site_lines(&dir.path().join("none")).collect();
        assert!(matches!(&missing[..], [(1, Err(why))] if why.contains("cannot open")));
    }
}
