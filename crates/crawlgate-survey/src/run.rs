//! Running a survey: inputs read on one thread, sites classified on every
//! core, rows written in order as they come.
//!
//! Memory is bounded whatever the number of sites: captures travel in
//! chunks of at most [`CHUNK_SITES`] sites or [`CHUNK_BYTES`] of bodies,
//! and at most four chunks are alive at once (one being read, two waiting,
//! one being classified and written); a Parquet writer buffers at most
//! [`ROW_GROUP_ROWS`](crate::output::ROW_GROUP_ROWS) rows; the summary is
//! of fixed size. Only `--compare` grows with the sites: the earlier
//! survey's hosts (see [`compare`](crate::compare)).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use crate::capture::{Capture, Payload};
use crate::compare::{Baseline, BaselineError};
use crate::input::{Flow, Input};
use crate::output::{record_batch, schema, OutputError, OutputFormat, TableWriter};
use crate::report::{self, ReportInfo};
use crate::summary::Summary;
use crate::survey::Survey;

/// Sites per chunk.
pub const CHUNK_SITES: usize = 512;

/// Body bytes per chunk: a chunk is closed once it holds this much.
pub const CHUNK_BYTES: usize = 16 << 20;

/// Where a survey's results go.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Tables to write (Parquet, CSV, JSON lines) and the HTML report, by
    /// path; the format is the extension's.
    pub outputs: Vec<PathBuf>,
    /// An earlier survey's Parquet table to compare with.
    pub compare: Option<PathBuf>,
    /// Threads classifying sites (all cores when `None`).
    pub threads: Option<usize>,
}

/// How far a survey is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Rows written.
    pub sites: u64,
    /// Bytes of input read (files' sizes; sites fetched for a site list).
    pub bytes: u64,
}

/// Why a survey stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SurveyError {
    /// An output has an extension the survey does not write.
    #[error("cannot tell what to write to {0}: name it .parquet, .csv, .jsonl or .html")]
    UnknownOutput(PathBuf),
    /// Writing a table failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The earlier survey cannot be read.
    #[error(transparent)]
    Baseline(#[from] BaselineError),
    /// Writing the report failed.
    #[error("cannot write the report {path}: {source}")]
    Report {
        /// The report's path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}

/// A chunk of captures and the input bytes read when it closed.
pub(crate) struct Chunk {
    pub(crate) captures: Vec<Capture>,
    pub(crate) bytes: u64,
}

fn body_bytes(capture: &Capture) -> usize {
    match &capture.payload {
        Payload::File { body, .. } => body.len(),
        Payload::Http { response, .. } => response.body.len(),
        Payload::Fetched(report) => report.rules().heap_size(),
        Payload::Error(why) => why.len(),
    }
}

/// Runs a survey of `inputs` as `plan` says and returns its figures;
/// `progress` is called after each chunk of rows is written.
///
/// ```
/// use crawlgate_survey::{input::Input, run, CrawlerSet, Plan, Survey};
///
/// let dir = tempfile::tempdir()?;
/// let sites = dir.path().join("sites");
/// std::fs::create_dir(&sites)?;
/// std::fs::write(sites.join("a.example"), "User-agent: GPTBot\nDisallow: /\n")?;
/// std::fs::write(sites.join("b.example"), "User-agent: *\nDisallow: /private\n")?;
/// let table = dir.path().join("survey.parquet");
/// let plan = Plan { outputs: vec![table.clone(), dir.path().join("report.html")], ..Plan::default() };
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot", "*"])?);
/// let summary = run(&survey, &[Input::Folder(sites)], &plan, &|_| {})?;
/// assert_eq!((summary.rows, summary.crawlers[0].classes[0]), (2, 1));
/// assert!(table.exists());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(
    survey: &Survey,
    inputs: &[Input],
    plan: &Plan,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Summary, SurveyError> {
    let started = Instant::now();
    let generated = crawlgate_fetch::format_time(std::time::SystemTime::now());
    let table_schema = schema(survey.crawlers());
    let mut tables = Vec::new();
    let mut html = None;
    for path in &plan.outputs {
        match OutputFormat::of(path) {
            Some(OutputFormat::Html) => html = Some(path.clone()),
            Some(format) => tables.push(TableWriter::create(path, format, &table_schema)?),
            None => return Err(SurveyError::UnknownOutput(path.clone())),
        }
    }
    let mut baseline = plan
        .compare
        .as_deref()
        .map(|path| Baseline::load(path, survey.crawlers()))
        .transpose()?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = plan.threads {
        builder = builder.num_threads(threads.max(1));
    }
    let pool = builder
        .build()
        .map_err(|e| SurveyError::Threads(e.to_string()))?;
    let mut summary = Summary::new(survey.crawlers());

    std::thread::scope(|scope| -> Result<(), SurveyError> {
        let (sender, receiver) = mpsc::sync_channel::<Chunk>(2);
        scope.spawn(move || read_inputs(inputs, &sender));
        let mut done = Progress::default();
        for chunk in receiver {
            let rows: Vec<_> = pool.install(|| {
                chunk
                    .captures
                    .into_par_iter()
                    .map(|capture| survey.observe(capture))
                    .collect()
            });
            if !tables.is_empty() {
                let batch = record_batch(&rows, survey.crawlers(), &table_schema).map_err(|e| {
                    OutputError::Encode {
                        path: tables[0].path().to_owned(),
                        message: e.to_string(),
                    }
                })?;
                for table in &mut tables {
                    table.write(&batch)?;
                }
            }
            for row in &rows {
                summary.add(row);
                if let Some(baseline) = &mut baseline {
                    baseline.add(row);
                }
            }
            done.sites += rows.len() as u64;
            done.bytes = chunk.bytes;
            progress(done);
        }
        Ok(())
    })?;

    for table in tables {
        table.finish()?;
    }
    summary.comparison = baseline.map(Baseline::finish);
    if let Some(path) = html {
        let info = ReportInfo {
            inputs: inputs
                .iter()
                .map(|i| i.path().display().to_string())
                .collect(),
            generated,
            profile: survey.profile().name.to_owned(),
            seconds: started.elapsed().as_secs_f64(),
        };
        write_report(&path, &report::render(&summary, &info))?;
    }
    Ok(summary)
}

fn write_report(path: &Path, page: &str) -> Result<(), SurveyError> {
    std::fs::write(path, page).map_err(|source| SurveyError::Report {
        path: path.to_owned(),
        source,
    })
}

/// Reads every input into chunks; stops when the receiver is gone.
pub(crate) fn read_inputs(inputs: &[Input], sender: &mpsc::SyncSender<Chunk>) {
    let mut chunk = Chunk {
        captures: Vec::with_capacity(CHUNK_SITES),
        bytes: 0,
    };
    let mut chunk_bytes = 0;
    let mut before = 0u64;
    for input in inputs {
        let mut read = 0u64;
        let mut stopped = false;
        input.read(&mut |capture, bytes| {
            read = bytes;
            chunk_bytes += body_bytes(&capture);
            chunk.captures.push(capture);
            if chunk.captures.len() >= CHUNK_SITES || chunk_bytes >= CHUNK_BYTES {
                chunk.bytes = before + read;
                let full = std::mem::replace(
                    &mut chunk,
                    Chunk {
                        captures: Vec::with_capacity(CHUNK_SITES),
                        bytes: 0,
                    },
                );
                chunk_bytes = 0;
                if sender.send(full).is_err() {
                    stopped = true;
                    return Flow::Stop;
                }
            }
            Flow::Continue
        });
        if stopped {
            return;
        }
        before += input.size().bytes.unwrap_or(read);
    }
    if !chunk.captures.is_empty() {
        chunk.bytes = before;
        let _ = sender.send(chunk);
    }
}
