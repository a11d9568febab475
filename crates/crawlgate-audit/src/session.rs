//! An audit fed from memory, batch after batch: log lines or requests
//! already split into fields (Arrow batches from Python or Spark). A
//! session keeps what a run keeps between chunks (identities, Crawl-delay
//! clocks, the summary, W3C's `#Fields`), so the same lines given in
//! batches get the same rows as `crawlgate audit` gives for the file.

use std::ops::Deref;

use rayon::prelude::*;

use crate::audit::{Audit, AuditError, Out, RowSink, RunState, WorkerCache};
use crate::findings::{Row, Summary};
use crate::format::{Line, LogFormat, W3c};
use crate::input::MAX_LINE;
use crate::record::Request;

/// Lines parsed per task when a batch is parsed in parallel.
const LINES_PER_TASK: usize = 4096;

/// Lines looked at to tell a session's log format.
const DETECT_LINES: usize = 64;

/// An audit of one log given in batches (see [`Audit::session`]), over a
/// borrowed audit (`&Audit`) or a shared one (`Arc<Audit>`).
pub struct Session<A: Deref<Target = Audit> + Clone> {
    audit: A,
    state: RunState,
    format: Option<LogFormat>,
    w3c: W3c,
    /// Lines (or records) taken so far.
    taken: u64,
}

impl<A: Deref<Target = Audit> + Clone> std::fmt::Debug for Session<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("name", &self.state.names[0])
            .field("taken", &self.taken)
            .finish_non_exhaustive()
    }
}

impl Audit {
    /// A session auditing one log, named `name` in rows and messages,
    /// whose lines or records come in batches, in order.
    ///
    /// ```
    /// use crawlgate_audit::audit::{Audit, AuditOptions};
    /// use crawlgate_audit::format::LogFormat;
    /// use crawlgate_audit::identity::feeds::FeedSource;
    /// use crawlgate_audit::identity::VerifyOptions;
    /// use crawlgate_audit::output::table::Batches;
    /// use crawlgate_audit::robots::{RobotsInForce, Site};
    /// use crawlgate_answers::RobotsSource;
    /// let robots = RobotsSource::from_bytes(b"User-agent: *\nDisallow: /private/\n".to_vec());
    /// let audit = Audit::new(AuditOptions {
    ///     format: Some(LogFormat::combined()),
    ///     robots: RobotsInForce::One(Site::single("robots.txt", robots)),
    ///     profile: None,
    ///     honeypots: vec![],
    ///     trusted_proxies: Default::default(),
    ///     verify: VerifyOptions {
    ///         feeds: FeedSource::Mirror("no-feeds".into()),
    ///         dns: None,
    ///         ..VerifyOptions::default()
    ///     },
    ///     threads: 1,
    /// })
    /// .unwrap();
    /// let mut session = audit.session("memory");
    /// let mut rows = Batches::default();
    /// let line = r#"192.0.2.1 - - [27/Nov/2026:10:00:00 +0000] "GET /private/x HTTP/1.1" 200 5 "-" "curl/8""#;
    /// session.lines(&[line, "junk"], &mut rows).unwrap();
    /// session.lines(&[line], &mut rows).unwrap();
    /// assert_eq!(rows.0.iter().map(|b| b.num_rows()).sum::<usize>(), 2);
    /// let summary = session.finish();
    /// assert_eq!((summary.unreadable(), summary.files[0].lines), (1, 3));
    /// ```
    pub fn session(&self, name: impl Into<String>) -> Session<&Audit> {
        Session::new(self, name)
    }
}

impl<A: Deref<Target = Audit> + Clone> Session<A> {
    /// A session of `audit` (shared: `Arc<Audit>`) for the log `name`.
    pub fn new(audit: A, name: impl Into<String>) -> Session<A> {
        let format = audit.options().format.clone();
        Session {
            audit,
            state: RunState::new(&[name.into()]),
            format,
            w3c: W3c::default(),
            taken: 0,
        }
    }

    /// Audits the next lines of the log (without their line ends); line
    /// numbers go on from the batch before. The format is the audit's, or
    /// told from the first lines given.
    pub fn lines(&mut self, lines: &[&str], sink: &mut dyn RowSink) -> Result<(), AuditError> {
        if self.format.is_none() {
            let sample = lines[..lines.len().min(DETECT_LINES)].join("\n");
            if sample.trim().is_empty() {
                // Nothing to tell the format by yet: blank lines only.
                return self.take(lines.iter().map(|_| Err("an empty line")).collect(), sink);
            }
            let format =
                LogFormat::detect(sample.as_bytes()).map_err(|why| AuditError::Format {
                    name: self.state.names[0].clone(),
                    why,
                })?;
            self.state.summary.files[0].format = format.name().to_owned();
            self.format = Some(format);
        }
        let Some(format) = self.format.clone() else {
            unreachable!("the format was just set")
        };
        if self.state.summary.files[0].format.is_empty() {
            self.state.summary.files[0].format = format.name().to_owned();
        }
        let first = self.taken + 1;
        let shared = self.audit.clone();
        let audit: &Audit = &shared;
        let outs: Vec<Out<'_>> = if format.lines_stand_alone() {
            let parse = || {
                lines
                    .par_chunks(LINES_PER_TASK)
                    .enumerate()
                    .map_init(WorkerCache::new, |cache, (task, chunk)| {
                        let mut state = W3c::default();
                        let start = first + (task * LINES_PER_TASK) as u64;
                        chunk
                            .iter()
                            .enumerate()
                            .map(|(i, line)| {
                                audit.parse_line(cache, &format, &mut state, start + i as u64, line)
                            })
                            .collect::<Vec<_>>()
                    })
                    .flatten()
                    .collect()
            };
            audit.install(parse)
        } else {
            let mut cache = WorkerCache::new();
            lines
                .iter()
                .enumerate()
                .map(|(i, line)| {
                    audit.parse_line(&mut cache, &format, &mut self.w3c, first + i as u64, line)
                })
                .collect()
        };
        self.taken += lines.len() as u64;
        self.settle(audit, outs, sink)
    }

    /// Audits the next requests, each already split into its fields, or
    /// unreadable (with why); their line numbers go on from the batch
    /// before.
    pub fn requests<'d>(
        &mut self,
        requests: Vec<Result<Request<'d>, &'static str>>,
        sink: &mut dyn RowSink,
    ) -> Result<(), AuditError> {
        self.take(requests, sink)
    }

    fn take<'d>(
        &mut self,
        requests: Vec<Result<Request<'d>, &'static str>>,
        sink: &mut dyn RowSink,
    ) -> Result<(), AuditError> {
        let first = self.taken + 1;
        let shared = self.audit.clone();
        let audit: &Audit = &shared;
        let parse = || {
            requests
                .into_par_iter()
                .enumerate()
                .with_min_len(LINES_PER_TASK)
                .map_init(WorkerCache::new, |cache, (i, request)| {
                    let line = first + i as u64;
                    match request {
                        Ok(request) => Out::Request(audit.judge_request(cache, line, request)),
                        Err(why) => Out::Unreadable(line, why),
                    }
                })
                .collect::<Vec<_>>()
        };
        let outs = audit.install(parse);
        self.taken += outs.len() as u64;
        self.settle(audit, outs, sink)
    }

    fn settle(
        &mut self,
        audit: &Audit,
        outs: Vec<Out<'_>>,
        sink: &mut dyn RowSink,
    ) -> Result<(), AuditError> {
        audit.identify(outs.iter(), &mut self.state);
        let mut rows: Vec<Row<'_>> = Vec::with_capacity(outs.len());
        for out in &outs {
            audit.settle(0, out, &mut self.state, &mut rows);
        }
        let f = &mut self.state.summary.files[0];
        f.lines = f.lines.max(self.taken);
        sink.write(&self.state.names, &rows)?;
        Ok(())
    }

    /// The summary so far (with the feeds' states).
    pub fn summary(&self) -> Summary {
        self.audit.close(self.state.summary.clone())
    }

    /// Ends the session: its summary.
    pub fn finish(self) -> Summary {
        self.audit.close(self.state.summary)
    }
}

impl Audit {
    /// One line of a log, read and judged (before its identity is known).
    fn parse_line<'a, 'r: 'a>(
        &'r self,
        cache: &mut WorkerCache<'a, 'r>,
        format: &LogFormat,
        w3c: &mut W3c,
        number: u64,
        line: &'a str,
    ) -> Out<'a> {
        if line.len() > MAX_LINE {
            return Out::Unreadable(number, "longer than 64 KiB");
        }
        match crate::format::read_line(format, w3c, line.as_bytes()) {
            Line::Unreadable(why) => Out::Unreadable(number, why),
            Line::Directive => Out::Directive,
            Line::Request(request) => Out::Request(self.judge_request(cache, number, request)),
        }
    }
}
