//! The audit itself: logs in, rows and a summary out, streaming.
//!
//! One thread reads (and decompresses) the logs into chunks of whole
//! lines; chunks are parsed, identified and judged on every core; the
//! addresses they claim are verified (feeds read once, DNS asked once per
//! address, many at a time); then each line, in order, gets its findings
//! (violations, Crawl-delay breaches, honeypots) and goes to the summary
//! and the row sink. Memory holds a few chunks and what is kept per
//! address and crawler, whatever the size of the logs.

use std::collections::HashSet;
use std::io;
use std::net::IpAddr;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

use crawlgate::registry::{self, Crawler, CrawlerKind, Obeys};
use crawlgate::Profile;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::findings::{FeedSummary, FileSummary, Row, Summary};
use crate::format::{Line, LogFormat, W3c};
use crate::identity::{IdentityState, Verifier, VerifyOptions};
use crate::input::{lines, Chunk, Chunks, LogSource, MAX_LINE};
use crate::record::Request;
use crate::robots::{Judge, Judged, RobotsInForce, Site};
use crate::time::Millis;
use crawlgate_answers::net::PrefixSet;

/// What an audit is asked.
#[derive(Debug)]
pub struct AuditOptions {
    /// The log format; `None`: told from each log's first lines.
    pub format: Option<LogFormat>,
    /// The robots.txt in force.
    pub robots: RobotsInForce,
    /// The profile every file is read by; `None`: each crawler's file is
    /// read by its operator's parser's profile, as `crawlgate check` reads
    /// it when no `--profile` is given (Bing's crawlers by `bing`, Yandex's
    /// robots by `yandex`, any other agent by `google`).
    pub profile: Option<Profile>,
    /// Honeypot paths: a request whose path starts with one is a honeypot
    /// hit.
    pub honeypots: Vec<String>,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: PrefixSet,
    /// How identities are verified.
    pub verify: VerifyOptions,
    /// Parsing threads (0: one per core).
    pub threads: usize,
}

/// Why an audit could not run.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A log could not be opened or read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// A log's format could not be told.
    #[error("{name}: cannot tell the log format: {why}")]
    Format {
        /// The log.
        name: String,
        /// Why.
        why: String,
    },
    /// The verifier could not start.
    #[error("{0}")]
    Setup(String),
}

/// Where rows go (a table writer; nothing, for a summary alone).
pub trait RowSink {
    /// Takes rows, in order; `files` names the logs by index.
    fn write(&mut self, files: &[String], rows: &[Row<'_>]) -> io::Result<()>;
}

/// A sink that keeps nothing.
#[derive(Debug, Default)]
pub struct NoRows;

impl RowSink for NoRows {
    fn write(&mut self, _: &[String], _: &[Row<'_>]) -> io::Result<()> {
        Ok(())
    }
}

/// The index of a crawler of the registry (from its address in the
/// registry's slice: no search).
fn crawler_index(crawler: &Crawler) -> u32 {
    let all = registry::crawlers();
    let offset = (crawler as *const Crawler as usize).wrapping_sub(all.as_ptr() as usize);
    let index = offset / std::mem::size_of::<Crawler>().max(1);
    if index < all.len() && std::ptr::eq(&all[index], crawler) {
        index as u32
    } else {
        u32::MAX
    }
}

/// The client of a request: the address that connected, or, when that is
/// a trusted proxy, the right-most address of `X-Forwarded-For` that is
/// not one.
///
/// ```
/// use crawlgate_audit::audit::client_ip;
/// use crawlgate_answers::net::PrefixSet;
/// let proxies: PrefixSet = ["10.0.0.0/8".parse().unwrap()].into_iter().collect();
/// let ip = |s: &str| s.parse().unwrap();
/// assert_eq!(client_ip(ip("10.0.0.1"), Some("66.249.66.1, 10.0.0.2"), &proxies), ip("66.249.66.1"));
/// // Not from a trusted proxy: the header is anyone's to write.
/// assert_eq!(client_ip(ip("203.0.113.5"), Some("66.249.66.1"), &proxies), ip("203.0.113.5"));
/// ```
pub fn client_ip(remote: IpAddr, forwarded_for: Option<&str>, trusted: &PrefixSet) -> IpAddr {
    if trusted.is_empty() || !trusted.contains(remote) {
        return remote;
    }
    let Some(header) = forwarded_for else {
        return remote;
    };
    let mut client = remote;
    for hop in header.rsplit(',') {
        match crate::format::parse_forwarded_hop(hop) {
            Some(ip) => {
                client = ip;
                if !trusted.contains(ip) {
                    return ip;
                }
            }
            None => return client,
        }
    }
    client
}

/// One request, parsed and judged (before its identity is known).
pub(crate) struct Parsed<'a> {
    line: u64,
    request: Request<'a>,
    client: IpAddr,
    crawler: Option<&'static Crawler>,
    judged: Option<Judged>,
    version: Option<&'a str>,
    recent_change: bool,
    crawl_delay: Option<f64>,
    /// The site, for Crawl-delay per site.
    site: usize,
    honeypot: bool,
}

// Requests are most lines: kept inline, not boxed one by one.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Out<'a> {
    Request(Parsed<'a>),
    Unreadable(u64, &'static str),
    Directive,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Claim<'a> {
    Crawler(u32),
    Agent(&'a str),
}

/// What a worker keeps while it parses: crawlers by User-Agent, judges by
/// site, version and agent.
pub(crate) struct WorkerCache<'a, 'r> {
    agents: FxHashMap<&'a str, Option<&'static Crawler>>,
    judges: FxHashMap<(usize, usize, Claim<'a>), Judge<'r>>,
}

impl<'a, 'r> WorkerCache<'a, 'r> {
    pub(crate) fn new() -> Self {
        WorkerCache {
            agents: FxHashMap::default(),
            judges: FxHashMap::default(),
        }
    }

    fn crawler(&mut self, agent: &'a str) -> Option<&'static Crawler> {
        if let Some(found) = self.agents.get(agent) {
            return *found;
        }
        let found = if agent.is_empty() {
            None
        } else {
            registry::identify(agent)
        };
        if self.agents.len() > 100_000 {
            self.agents.clear();
        }
        self.agents.insert(agent, found);
        found
    }

    #[allow(clippy::too_many_arguments)]
    fn judge(
        &mut self,
        site: &'r Site,
        version: usize,
        claim: Claim<'a>,
        agent: &str,
        profile: Option<Profile>,
        url: &str,
    ) -> (Judged, Option<f64>) {
        let key = (site as *const Site as usize, version, claim);
        if self.judges.len() > 10_000 {
            self.judges.clear();
        }
        let judge = self
            .judges
            .entry(key)
            .or_insert_with(|| Judge::new(&site.all()[version].robots, agent, profile));
        (judge.judge(url), judge.crawl_delay().map(|(s, _)| s))
    }
}

/// An audit, ready to run.
pub struct Audit {
    options: AuditOptions,
    runtime: tokio::runtime::Runtime,
    verifier: Verifier,
    pool: Option<rayon::ThreadPool>,
}

impl std::fmt::Debug for Audit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Audit")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// Chunks in flight per parsing thread.
const CHUNKS_PER_THREAD: usize = 2;

impl Audit {
    /// Gets an audit ready: starts the runtime its lookups run on and the
    /// verifier.
    pub fn new(options: AuditOptions) -> Result<Audit, AuditError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| AuditError::Setup(format!("cannot start the network runtime: {e}")))?;
        let verifier = {
            let _inside = runtime.enter();
            Verifier::new(options.verify.clone()).map_err(AuditError::Setup)?
        };
        let pool = match options.threads {
            0 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| AuditError::Setup(e.to_string()))?,
            ),
        };
        Ok(Audit {
            options,
            runtime,
            verifier,
            pool,
        })
    }

    /// The verifier and its caches.
    pub fn verifier(&self) -> &Verifier {
        &self.verifier
    }

    /// The options.
    pub fn options(&self) -> &AuditOptions {
        &self.options
    }

    /// Runs `work` on the audit's threads.
    pub(crate) fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    fn threads(&self) -> usize {
        match &self.pool {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    /// Reads the logs, in order, and audits every line.
    pub fn run(
        &self,
        sources: &[LogSource],
        sink: &mut dyn RowSink,
    ) -> Result<Summary, AuditError> {
        let names: Vec<String> = sources.iter().map(LogSource::name).collect();
        let batch_size = (self.threads() * CHUNKS_PER_THREAD).max(2);
        let (sender, receiver) = sync_channel::<Message>(batch_size * 2);
        let owned: Vec<LogSource> = sources.to_vec();
        let reader = std::thread::Builder::new()
            .name("crawlgate-audit-reader".into())
            .spawn(move || read_all(&owned, &sender))
            .map_err(AuditError::Io)?;
        let mut state = RunState::new(&names);
        let result = self.consume(&receiver, batch_size, &mut state, sink);
        drop(receiver);
        let _ = reader.join();
        result?;
        Ok(self.close(state.summary))
    }

    /// The summary of a run, with the feeds' states and their warnings.
    pub(crate) fn close(&self, mut summary: Summary) -> Summary {
        summary.feeds = self
            .verifier
            .feeds()
            .into_iter()
            .map(|(url, state)| match state {
                Ok(feed) => FeedSummary {
                    url: url.to_owned(),
                    error: None,
                    prefixes: feed.prefixes.len(),
                    creation_time: feed.creation_time.clone(),
                    read_from: Some(feed.read_from.clone()),
                },
                Err(why) => FeedSummary {
                    url: url.to_owned(),
                    error: Some(why),
                    prefixes: 0,
                    creation_time: None,
                    read_from: None,
                },
            })
            .collect();
        summary.feeds.sort_by(|a, b| a.url.cmp(&b.url));
        for feed in &summary.feeds {
            if let Some(error) = &feed.error {
                summary.warnings.push(error.clone());
            }
        }
        summary
    }

    fn consume(
        &self,
        receiver: &Receiver<Message>,
        batch_size: usize,
        state: &mut RunState,
        sink: &mut dyn RowSink,
    ) -> Result<(), AuditError> {
        let mut batch: Vec<(usize, Chunk)> = Vec::with_capacity(batch_size);
        loop {
            match receiver.recv() {
                Ok(Message::Chunk(file, chunk)) => {
                    if state.formats[file].is_none()
                        && let Chunk::Lines { data, .. } = &chunk
                    {
                        let format = match &self.options.format {
                            Some(format) => format.clone(),
                            None => LogFormat::detect(data).map_err(|why| AuditError::Format {
                                name: state.names[file].clone(),
                                why,
                            })?,
                        };
                        state.summary.files[file].format = format.name().to_owned();
                        state.formats[file] = Some(format);
                    }
                    batch.push((file, chunk));
                    if batch.len() >= batch_size {
                        self.process(&batch, state, sink)?;
                        batch.clear();
                    }
                }
                Ok(Message::Failed(file, error)) => {
                    let lines = state.summary.files[file].lines;
                    let name = &state.names[file];
                    state.summary.warnings.push(format!(
                        "{name}: reading stopped after line {lines}: {error}"
                    ));
                }
                Ok(Message::CannotOpen(error)) => return Err(AuditError::Io(error)),
                Err(_) => {
                    if !batch.is_empty() {
                        self.process(&batch, state, sink)?;
                    }
                    return Ok(());
                }
            }
        }
    }

    fn process<'b>(
        &'b self,
        batch: &'b [(usize, Chunk)],
        state: &mut RunState,
        sink: &mut dyn RowSink,
    ) -> Result<(), AuditError> {
        let formats = &state.formats;
        let stand_alone = batch.iter().all(|(file, _)| {
            formats[*file]
                .as_ref()
                .is_none_or(LogFormat::lines_stand_alone)
        });
        let outs: Vec<Vec<Out<'b>>> = if stand_alone {
            let work = || {
                batch
                    .par_iter()
                    .map_init(WorkerCache::new, |cache, (file, chunk)| {
                        self.parse_chunk(cache, chunk, formats[*file].as_ref(), None)
                    })
                    .collect()
            };
            match &self.pool {
                Some(pool) => pool.install(work),
                None => work(),
            }
        } else {
            let mut cache = WorkerCache::new();
            let mut outs = Vec::with_capacity(batch.len());
            for (file, chunk) in batch {
                let format = state.formats[*file].as_ref();
                outs.push(self.parse_chunk(&mut cache, chunk, format, Some(&mut state.w3c[*file])));
            }
            outs
        };
        self.identify(outs.iter().flatten(), state);
        // Findings, in order.
        let mut rows: Vec<Row<'_>> = Vec::with_capacity(outs.iter().map(Vec::len).sum());
        for ((file, chunk), outs) in batch.iter().zip(&outs) {
            let summary_file = &mut state.summary.files[*file];
            match chunk {
                Chunk::TooLong { line, bytes } => {
                    summary_file.lines = summary_file.lines.max(*line);
                    summary_file.unreadable(
                        *line,
                        &format!("longer than {} KiB ({bytes} bytes)", MAX_LINE / 1024),
                    );
                    continue;
                }
                Chunk::Lines { .. } => {}
            }
            for out in outs {
                self.settle(*file, out, state, &mut rows);
            }
            // Trailing lines with no request still count as lines read.
            if let Chunk::Lines { first_line, data } = chunk {
                let last = first_line + lines(0, data).count() as u64;
                let f = &mut state.summary.files[*file];
                f.lines = f.lines.max(last.saturating_sub(1));
            }
        }
        sink.write(&state.names, &rows)?;
        Ok(())
    }

    /// Verifies every new (address, crawler) claimed by `outs`, all at once.
    pub(crate) fn identify<'o, 'a: 'o>(
        &self,
        outs: impl Iterator<Item = &'o Out<'a>>,
        state: &mut RunState,
    ) {
        let mut claims: Vec<(IpAddr, &'static Crawler)> = Vec::new();
        let mut seen: HashSet<(IpAddr, u32)> = HashSet::new();
        for out in outs {
            if let Out::Request(p) = out
                && let Some(crawler) = p.crawler
            {
                let key = (p.client, crawler_index(crawler));
                if !state.identities.contains_key(&key) && seen.insert(key) {
                    claims.push((p.client, crawler));
                }
            }
        }
        if claims.is_empty() {
            return;
        }
        self.runtime.block_on(self.verifier.prepare(&claims));
        let feeds = self.verifier.feeds();
        for (ip, crawler) in &claims {
            let identity = self.verifier.identity(*ip, crawler, &feeds);
            state.identities.insert(
                (*ip, crawler_index(crawler)),
                (identity.state, identity.why),
            );
        }
    }

    /// Counts one parsed line of `file` in the summary; a request gets its
    /// findings and becomes a row.
    pub(crate) fn settle<'a>(
        &self,
        file: usize,
        out: &'a Out<'a>,
        state: &mut RunState,
        rows: &mut Vec<Row<'a>>,
    ) {
        match out {
            Out::Unreadable(line, why) => {
                let f = &mut state.summary.files[file];
                f.lines = f.lines.max(*line);
                f.unreadable(*line, why);
            }
            Out::Directive => state.summary.files[file].directives += 1,
            Out::Request(p) => {
                let f = &mut state.summary.files[file];
                f.lines = f.lines.max(p.line);
                f.requests += 1;
                let row = self.findings(file, p, state);
                state.summary.add(&row);
                rows.push(row);
            }
        }
    }

    fn findings<'a>(&self, file: usize, p: &'a Parsed<'a>, state: &mut RunState) -> Row<'a> {
        let (identity, identity_why) = match p.crawler {
            Some(crawler) => match state.identities.get(&(p.client, crawler_index(crawler))) {
                Some((state, why)) => (Some(*state), Some(Arc::clone(why))),
                None => (Some(IdentityState::Unknown), None),
            },
            None => (None, None),
        };
        let spoofed = identity == Some(IdentityState::Spoofed);
        let url = p.request.target.as_deref();
        let is_robots_txt = url.is_some_and(|u| crawlgate::path_of(u) == "/robots.txt");
        let obeying = p
            .crawler
            .is_some_and(|c| c.obeys == Obeys::Yes && c.kind == CrawlerKind::Crawler);
        let disallowed = p.judged.is_some_and(|j| !j.allowed);
        let violation = obeying && disallowed && !spoofed && !is_robots_txt && !p.recent_change;
        let recent_change = obeying && disallowed && !spoofed && !is_robots_txt && p.recent_change;
        let mut breach = false;
        if let (Some(crawler), Some(delay), Some(time)) = (p.crawler, p.crawl_delay, p.request.time)
            && !spoofed
            && delay > 0.0
            && crawler.reads_crawl_delay.is_some()
        {
            state.summary.note_crawl_delay(crawler, delay);
            let key = (p.site, crawler_index(crawler));
            if let Some(last) = state.last_fetch.get(&key) {
                let gap = (time - *last).abs();
                breach = (gap as f64) < delay * 1000.0;
            }
            let last = state.last_fetch.entry(key).or_insert(time);
            *last = (*last).max(time);
        }
        Row {
            file,
            line: p.line,
            time: p.request.time,
            ip: p.client,
            user_agent: &p.request.user_agent,
            crawler: p.crawler,
            identity,
            identity_why,
            host: p.request.host.as_deref(),
            url,
            status: p.request.status,
            judged: p.judged,
            robots_version: p.version,
            violation,
            recent_change,
            crawl_delay_breach: breach,
            honeypot: p.honeypot,
            user_triggered: p
                .crawler
                .is_some_and(|c| c.kind == CrawlerKind::UserTriggered),
        }
    }

    fn parse_chunk<'a, 'r: 'a>(
        &'r self,
        cache: &mut WorkerCache<'a, 'r>,
        chunk: &'a Chunk,
        format: Option<&LogFormat>,
        mut w3c: Option<&mut W3c>,
    ) -> Vec<Out<'a>> {
        let Chunk::Lines { first_line, data } = chunk else {
            return Vec::new();
        };
        let Some(format) = format else {
            return Vec::new();
        };
        let mut outs = Vec::with_capacity(data.len() / 150 + 1);
        let mut fallback = W3c::default();
        for (number, bytes) in lines(*first_line, data) {
            if bytes.len() > MAX_LINE {
                outs.push(Out::Unreadable(number, "longer than 64 KiB"));
                continue;
            }
            let state = match w3c.as_deref_mut() {
                Some(state) => state,
                None => &mut fallback,
            };
            match crate::format::read_line(format, state, bytes) {
                Line::Unreadable(why) => outs.push(Out::Unreadable(number, why)),
                Line::Directive => outs.push(Out::Directive),
                Line::Request(request) => {
                    outs.push(Out::Request(self.judge_request(cache, number, request)))
                }
            }
        }
        outs
    }

    pub(crate) fn judge_request<'a, 'r: 'a>(
        &'r self,
        cache: &mut WorkerCache<'a, 'r>,
        line: u64,
        request: Request<'a>,
    ) -> Parsed<'a> {
        let client = client_ip(
            request.ip,
            request.forwarded_for.as_deref(),
            &self.options.trusted_proxies,
        );
        // The agent and URL borrow the line when they can; an unescaped
        // copy is judged but not cached by its text.
        let agent: &str = &request.user_agent;
        let crawler = match &request.user_agent {
            std::borrow::Cow::Borrowed(a) => cache.crawler(a),
            std::borrow::Cow::Owned(a) => {
                if a.is_empty() {
                    None
                } else {
                    registry::identify(a)
                }
            }
        };
        let honeypot = request.path().is_some_and(|path| {
            self.options
                .honeypots
                .iter()
                .any(|h| path.starts_with(h.as_str()))
        });
        let mut parsed = Parsed {
            line,
            client,
            crawler,
            judged: None,
            version: None,
            recent_change: false,
            crawl_delay: None,
            site: 0,
            honeypot,
            request: Request::new(client),
        };
        let site = self.options.robots.site(request.host.as_deref());
        if let (Some(site), Some(url)) = (site, request.target.as_deref())
            && let Some(in_force) = site.at(request.time)
        {
            let agent_name = crawler.map_or(agent, |c| c.name);
            // A crawler's judges are cached by crawler, an agent's by its
            // text as the line holds it; an agent unescaped into a copy
            // of its own is judged afresh.
            let claim = match (crawler, &request.user_agent) {
                (Some(c), _) => Some(Claim::Crawler(crawler_index(c))),
                (None, std::borrow::Cow::Borrowed(a)) => Some(Claim::Agent(a)),
                (None, std::borrow::Cow::Owned(_)) => None,
            };
            let profile = self.options.profile;
            let mut judge_at = |index: usize| match claim {
                Some(claim) => cache.judge(site, index, claim, agent_name, profile, url),
                None => {
                    let judge = Judge::new(&site.all()[index].robots, agent_name, profile);
                    (judge.judge(url), judge.crawl_delay().map(|(s, _)| s))
                }
            };
            let (judged, crawl_delay) = judge_at(in_force.index);
            parsed.judged = Some(judged);
            parsed.crawl_delay = crawl_delay;
            parsed.version = Some(site.all()[in_force.index].label.as_str());
            parsed.site = site as *const Site as usize;
            if in_force.recent_change && !judged.allowed {
                parsed.recent_change = judge_at(in_force.index - 1).0.allowed;
            }
        }
        parsed.request = request;
        parsed
    }
}

/// What the reading thread sends.
enum Message {
    Chunk(usize, Chunk),
    Failed(usize, io::Error),
    CannotOpen(io::Error),
}

/// Reads every log in order into chunks (on its own thread).
fn read_all(sources: &[LogSource], sender: &std::sync::mpsc::SyncSender<Message>) {
    for (i, source) in sources.iter().enumerate() {
        let reader = match source.open() {
            Ok(reader) => reader,
            Err(error) => {
                let _ = sender.send(Message::CannotOpen(error));
                return;
            }
        };
        for chunk in Chunks::new(reader) {
            let (message, failed) = match chunk {
                Ok(chunk) => (Message::Chunk(i, chunk), false),
                Err(error) => (Message::Failed(i, error), true),
            };
            if sender.send(message).is_err() {
                return;
            }
            if failed {
                break;
            }
        }
    }
}

/// What a run keeps between batches.
pub(crate) struct RunState {
    pub(crate) names: Vec<String>,
    formats: Vec<Option<LogFormat>>,
    w3c: Vec<W3c>,
    pub(crate) summary: Summary,
    /// Identities by (address, crawler).
    identities: FxHashMap<(IpAddr, u32), (IdentityState, Arc<str>)>,
    /// The last fetch of each (site, crawler), for Crawl-delay.
    last_fetch: FxHashMap<(usize, u32), Millis>,
}

impl RunState {
    pub(crate) fn new(names: &[String]) -> RunState {
        RunState {
            names: names.to_vec(),
            formats: vec![None; names.len()],
            w3c: vec![W3c::default(); names.len()],
            summary: Summary {
                files: names
                    .iter()
                    .map(|name| FileSummary {
                        name: name.clone(),
                        ..FileSummary::default()
                    })
                    .collect(),
                ..Summary::default()
            },
            identities: FxHashMap::default(),
            last_fetch: FxHashMap::default(),
        }
    }
}
