//! Running a survey: inputs read on one thread, sites classified on every
//! core, rows sorted into runs on disk at checkpoints, then merged into
//! one row per host and written.
//!
//! Memory is bounded whatever the number of sites: captures travel in
//! chunks of at most [`CHUNK_SITES`](crate::CHUNK_SITES) sites or
//! [`CHUNK_BYTES`](crate::CHUNK_BYTES) of bodies,
//! at most five chunks alive at once (one filling, two queued, two
//! classified: one finishing while the next starts); at most
//! [`Plan::checkpoint`] rows wait in memory before they are sorted into a run file (on a thread of
//! its own, while the next rows gather: twice that at most); the merge
//! reads at most [`FAN_IN`] runs at a time, one block of each, and hands
//! the table at most seven batches of `WRITE_ROWS` rows at once (one
//! filling, two queued as rows, one made into columns, two queued as
//! columns, one encoded); the summary is of fixed size. What grows with
//! the sites: with `--compare`, the earlier survey's hosts (see
//! [`compare`](crate::compare)); when redirects cross hosts, the rows of
//! the hosts they lead to (see [`merge`]).
//!
//! Every output is written under a temporary name and renamed when whole,
//! so a survey killed at any moment (SIGINT, SIGTERM, SIGKILL) leaves the
//! files that were at those paths before untouched; `Plan::resume`
//! continues from the last checkpoint and gives the table an
//! uninterrupted run gives (see [`checkpoint`](crate::checkpoint)).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use crate::checkpoint::{write_run, CheckpointError, Counts, Keyed, RunReader, RunWriter, WorkDir};
use crate::chunks::{read_inputs, Chunk, Position};
use crate::compare::{Baseline, BaselineError};
use crate::input::{Input, Item, Resume, Skip};
use crate::merge::{resolve_group, target_host, Answers, Merged, Source};
use crate::output::{
    record_batch, schema, write_atomically, OutputError, OutputFormat, TableWriter,
};
use crate::report::{self, ReportInfo, Snapshot};
use crate::summary::{Accounting, Summary};
use crate::survey::Survey;

/// Rows held in memory before they are sorted into a run on disk (the
/// default of [`Plan::checkpoint`]).
pub const CHECKPOINT_ROWS: usize = 4096;

/// The most runs merged at once; more are merged in rounds.
pub const FAN_IN: usize = 128;

/// Rows per batch written to the outputs.
const WRITE_ROWS: usize = 1024;

/// Where a survey's results go, and how it runs.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Tables to write (Parquet, CSV, JSON lines), the HTML report and the
    /// JSON summary, by path; the format is the extension's.
    pub outputs: Vec<PathBuf>,
    /// An earlier survey's table (a Parquet file or a Spark output folder)
    /// to compare with.
    pub compare: Option<PathBuf>,
    /// Threads classifying sites (all cores when `None`).
    pub threads: Option<usize>,
    /// Continue the unfinished survey of these outputs from its last
    /// checkpoint.
    pub resume: bool,
    /// Rows between checkpoints (at least 1).
    pub checkpoint: usize,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan {
            outputs: Vec::new(),
            compare: None,
            threads: None,
            resume: false,
            checkpoint: CHECKPOINT_ROWS,
        }
    }
}

/// How far a survey is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Captures classified.
    pub sites: u64,
    /// Bytes of input read (files' sizes; sites fetched for a site list).
    pub bytes: u64,
}

/// Why a survey stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SurveyError {
    /// An output has an extension the survey does not write.
    #[error("cannot tell what to write to {0}: name it .parquet, .csv, .jsonl, .html or .json")]
    UnknownOutput(PathBuf),
    /// Writing a table failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The earlier survey cannot be read.
    #[error(transparent)]
    Baseline(#[from] BaselineError),
    /// The work folder cannot be used (or `--resume` cannot resume).
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// Writing the report or summary failed.
    #[error("cannot write {path}: {source}")]
    Report {
        /// Its path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
}

/// What a survey asks, for telling whether a stopped one can be resumed.
fn signature(survey: &Survey, inputs: &[Input]) -> String {
    serde_json::json!({
        "inputs": inputs.iter().map(Input::name).collect::<Vec<_>>(),
        "crawlers": survey.crawlers().iter().map(|c| c.token.clone()).collect::<Vec<_>>(),
        "paths": survey.paths(),
        "profile": survey.profile().name,
        "readings": survey.readings(),
    })
    .to_string()
}

/// Runs a survey of `inputs` as `plan` says and returns its figures;
/// `progress` is called after each chunk of captures is classified.
///
/// ```
/// use crawlgate_survey::{input::Input, run, CrawlerSet, Plan, Survey};
/// use crawlgate_survey::verdict::Cause;
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
/// assert_eq!((summary.rows, summary.crawlers[0].count(Cause::BlockedByName)), (2, 1));
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
    let generated = crawlgate_answers::time::rfc3339(std::time::SystemTime::now());
    for path in &plan.outputs {
        if OutputFormat::of(path).is_none() {
            return Err(SurveyError::UnknownOutput(path.clone()));
        }
    }
    let work = match plan.outputs.first() {
        Some(first) => WorkDir::beside(first),
        None => WorkDir::beside(
            &std::env::temp_dir().join(format!("crawlgate-survey-{}", std::process::id())),
        ),
    };
    let signature = signature(survey, inputs);
    let (mut position, mut runs, mut counts, complete) = if plan.resume {
        let manifest = work.resume(&signature)?;
        (
            manifest.position,
            manifest.runs,
            manifest.counts,
            manifest.complete,
        )
    } else {
        work.start()?;
        (Position::default(), Vec::new(), Counts::default(), false)
    };
    let baseline = plan
        .compare
        .as_deref()
        .map(|path| Baseline::load(path, survey.crawlers()))
        .transpose()?;
    let table_schema = schema(survey.crawlers(), survey.paths(), survey.profile().name);
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = plan.threads {
        pool = pool.num_threads(threads.max(1));
    }
    let pool = pool
        .build()
        .map_err(|e| SurveyError::Threads(e.to_string()))?;

    // Read and classify, sorting rows into runs at checkpoints.
    let mut held: Vec<Keyed> = Vec::new();
    if !complete {
        let checkpoint = plan.checkpoint.max(1);
        std::thread::scope(|scope| -> Result<(), SurveyError> {
            let (sender, receiver) = mpsc::sync_channel::<Chunk>(2);
            let start = position;
            scope.spawn(move || read_inputs(inputs, start, &sender));
            let mut done = Progress {
                sites: counts.captures,
                bytes: 0,
            };
            // The run being sorted and written while the next sites are
            // classified.
            let mut writing: Option<Writing<'_>> = None;
            // Each chunk is classified as a job of the pool, and landed in
            // input order once the next chunk is given to the pool: a worker
            // done with its share of a chunk starts the next one while the
            // other finishes the chunk's last sites, where waiting for the
            // whole chunk left it idle.
            pool.in_place_scope(|jobs| -> Result<(), SurveyError> {
                let start = |chunk: Chunk| {
                    let mut captures = Vec::with_capacity(chunk.entries.len());
                    let mut skipped = Vec::new();
                    for entry in chunk.entries {
                        match entry.item {
                            Item::Capture(capture) => {
                                captures.push((entry.input, entry.ordinal, capture));
                            }
                            Item::Skipped(why) => skipped.push(why),
                        }
                    }
                    let (send_rows, rows) = mpsc::sync_channel(1);
                    jobs.spawn(move |_| {
                        let observed: Vec<Keyed> = captures
                            .into_par_iter()
                            .map(|(input, ordinal, capture)| {
                                Keyed::new(survey.observe(capture), input, ordinal)
                            })
                            .collect();
                        // No one receives only when the survey stopped on
                        // an error.
                        let _ = send_rows.send(observed);
                    });
                    Classifying {
                        rows,
                        skipped,
                        bytes: chunk.bytes,
                        resume_after: chunk.resume_after,
                    }
                };
                // Takes a chunk's rows; false when its job panicked, which
                // the scope passes on.
                let mut land_rows = |chunk: Classifying| -> Result<bool, SurveyError> {
                    let Ok(observed) = chunk.rows.recv() else {
                        return Ok(false);
                    };
                    // Counted as the chunk lands, so a checkpoint's counts
                    // are those of the input up to its position.
                    counts.items += observed.len() as u64;
                    counts.captures += observed.len() as u64;
                    for why in chunk.skipped {
                        counts.skip(why);
                    }
                    counts.redirects += observed
                        .iter()
                        .filter(|k| k.row.is_unresolved_redirect())
                        .count() as u64;
                    done.sites += observed.len() as u64;
                    done.bytes = chunk.bytes;
                    held.extend(observed);
                    progress(done);
                    if writing.as_ref().is_some_and(|w| w.handle.is_finished()) {
                        // Resume from the newest whole run.
                        land(writing.take(), &work, &signature, &mut runs)?;
                    }
                    if let Some(after) = chunk.resume_after {
                        position = after;
                        if held.len() >= checkpoint {
                            land(writing.take(), &work, &signature, &mut runs)?;
                            let mut rows = std::mem::take(&mut held);
                            let name = run_name(next_run_number(&runs));
                            let path = work.run_path(&name);
                            let handle = scope.spawn(move || {
                                rows.sort();
                                write_run(&path, &rows).map(|()| name)
                            });
                            writing = Some(Writing {
                                handle,
                                position,
                                counts: counts.clone(),
                            });
                        }
                    }
                    Ok(true)
                };
                let mut classifying = None;
                for chunk in receiver {
                    if let Some(before) = classifying.replace(start(chunk))
                        && !land_rows(before)?
                    {
                        return Ok(());
                    }
                }
                if let Some(last) = classifying {
                    land_rows(last)?;
                }
                Ok(())
            })?;
            land(writing, &work, &signature, &mut runs)
        })?;
        if !runs.is_empty() {
            // Everything read: the last run, so a survey killed while
            // merging resumes with the merge.
            flush_run(&work, &mut held, &mut runs)?;
            position = Position {
                input: inputs.len(),
                resume: Resume::default(),
            };
            work.save(&signature, position, true, &runs, &counts)?;
        }
    }

    // Fewer runs than can be read at once.
    while runs.len() > FAN_IN {
        let mut merged_runs = Vec::new();
        for group in runs.chunks(FAN_IN) {
            let sources = group
                .iter()
                .map(|name| RunReader::open(&work.run_path(name)).map(|r| Source::Run(Box::new(r))))
                .collect::<Result<Vec<_>, _>>()?;
            let mut merged = Merged::new(sources)?;
            let name = run_name(next_run_number(&runs) + merged_runs.len());
            let mut writer = RunWriter::create(&work.run_path(&name))?;
            while let Some(row) = merged.next_row()? {
                writer.push(&row)?;
            }
            writer.finish()?;
            merged_runs.push(name);
        }
        let old = std::mem::replace(&mut runs, merged_runs);
        work.save(&signature, position, true, &runs, &counts)?;
        for name in old {
            let _ = std::fs::remove_file(work.run_path(&name));
        }
    }
    held.sort();
    let sources = |held: &[Keyed]| -> Result<Vec<Source>, SurveyError> {
        let mut sources = vec![Source::Memory(Vec::from(held).into_iter())];
        for name in &runs {
            sources.push(Source::Run(Box::new(RunReader::open(
                &work.run_path(name),
            )?)));
        }
        Ok(sources)
    };
    let paths = survey.paths().len();

    // Redirects to other hosts: find the hosts, keep their rows.
    let mut answers = Answers::default();
    let mut targets = rustc_hash::FxHashSet::default();
    if counts.redirects > 0 {
        let mut merged = Merged::new(sources(&held)?)?;
        while let Some(group) = merged.next_group()? {
            if let Some(host) = target_host(&resolve_group(group, paths)) {
                targets.insert(host);
            }
        }
    }
    if !targets.is_empty() {
        let mut merged = Merged::new(sources(&held)?)?;
        while let Some(group) = merged.next_group()? {
            let host = group[0].host().map(str::to_owned);
            if let Some(host) = host.filter(|h| targets.contains(h)) {
                answers.keep(host, resolve_group(group, paths));
            }
        }
    }

    // The table.
    let mut tables = Vec::new();
    for path in &plan.outputs {
        match OutputFormat::of(path) {
            Some(OutputFormat::Html | OutputFormat::Summary) => {}
            Some(format) => match TableWriter::create(path, format, &table_schema) {
                Ok(writer) => tables.push(writer),
                Err(e) => {
                    tables.into_iter().for_each(TableWriter::abandon);
                    return Err(e.into());
                }
            },
            None => unreachable!("checked above"),
        }
    }
    let mut summary = Summary::new(survey.crawlers(), survey.paths());
    let mut baseline = baseline;
    // Rows are merged and counted on this thread, made into columns on a
    // second and encoded from a third (on the survey's threads): on one
    // thread, columns and encoding took longer than the merge.
    let written = std::thread::scope(|scope| -> Result<(), SurveyError> {
        let (sender, receiver) = mpsc::sync_channel::<Vec<crate::row::SiteRow>>(2);
        let (to_writer, batches) = mpsc::sync_channel::<arrow_array::RecordBatch>(2);
        let first_table = tables.first().map(|t| t.path().to_owned());
        let tables = &mut tables;
        let table_schema = &table_schema;
        let builder = scope.spawn(move || -> Result<(), SurveyError> {
            let Some(path) = first_table else {
                // No table to write: the rows are only counted.
                return Ok(());
            };
            for rows in receiver {
                if rows.is_empty() {
                    continue;
                }
                let batch = record_batch(&rows, table_schema).map_err(|e| OutputError::Encode {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
                drop(rows);
                if to_writer.send(batch).is_err() {
                    // The writer stopped on an error: it says which.
                    return Ok(());
                }
            }
            Ok(())
        });
        let pool = &pool;
        let writer = scope.spawn(move || -> Result<(), SurveyError> {
            for batch in batches {
                for table in tables.iter_mut() {
                    // Columns are encoded on the survey's threads, idle
                    // once the sites are classified.
                    pool.install(|| table.write(&batch))?;
                }
            }
            Ok(())
        });
        let merged = (|| -> Result<(), SurveyError> {
            let mut merged = Merged::new(sources(&held)?)?;
            let mut batch = Vec::with_capacity(WRITE_ROWS);
            while let Some(group) = merged.next_group()? {
                let resolved = resolve_group(group, paths);
                let mut row = resolved.row;
                if let Some((target, hops)) = resolved.elsewhere {
                    answers.follow(&mut row, target, hops, paths);
                }
                summary.add(&row);
                if let Some(baseline) = &mut baseline {
                    baseline.add(&row);
                }
                batch.push(row);
                if batch.len() == WRITE_ROWS {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(WRITE_ROWS));
                    if sender.send(full).is_err() {
                        // The writer stopped on an error: it says which.
                        return Ok(());
                    }
                }
            }
            let _ = sender.send(batch);
            Ok(())
        })();
        drop(sender);
        let built = builder
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let wrote = writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        merged.and(built).and(wrote)
    });
    if let Err(e) = written {
        tables.into_iter().for_each(TableWriter::abandon);
        return Err(e);
    }
    for table in tables {
        pool.install(|| table.finish())?;
    }
    summary.accounting = Some(Accounting::of(&counts, &summary));
    summary.comparison = baseline.map(Baseline::finish);
    let snapshots = [Snapshot {
        label: plan
            .outputs
            .first()
            .map(|p| snapshot_label(p))
            .unwrap_or_else(|| "survey".to_owned()),
        summary,
    }];
    let info = ReportInfo {
        inputs: inputs.iter().map(Input::name).collect(),
        generated,
        profile: survey.readings(),
        seconds: Some(started.elapsed().as_secs_f64()),
    };
    for path in &plan.outputs {
        let text = match OutputFormat::of(path) {
            Some(OutputFormat::Html) => report::render(&snapshots, &info),
            Some(OutputFormat::Summary) => report::summary_json(&snapshots),
            _ => continue,
        };
        write_atomically(path, text.as_bytes()).map_err(|source| SurveyError::Report {
            path: path.clone(),
            source,
        })?;
    }
    work.remove()?;
    let [snapshot] = snapshots;
    Ok(snapshot.summary)
}

/// A table's name without its extensions (`2026-11.parquet` → `2026-11`),
/// the label of its snapshot in a report.
pub fn snapshot_label(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    name.split('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(&name)
        .to_owned()
}

/// The file name of run `number`.
fn run_name(number: usize) -> String {
    format!("run-{number:06}.run")
}

fn next_run_number(runs: &[String]) -> usize {
    runs.iter()
        .filter_map(|name| {
            name.strip_prefix("run-")?
                .strip_suffix(".run")?
                .parse::<usize>()
                .ok()
        })
        .max()
        .map_or(0, |n| n + 1)
}

/// A chunk given to the pool: its rows to come, and where the input
/// stands after it.
struct Classifying {
    rows: mpsc::Receiver<Vec<Keyed>>,
    /// Why the chunk's other items were skipped.
    skipped: Vec<Skip>,
    bytes: u64,
    resume_after: Option<Position>,
}

/// A run being written on its own thread, and where the inputs were when
/// its rows had been read.
struct Writing<'scope> {
    handle: std::thread::ScopedJoinHandle<'scope, Result<String, CheckpointError>>,
    position: Position,
    counts: Counts,
}

/// Waits for the run being written, then names it in the manifest.
fn land(
    writing: Option<Writing<'_>>,
    work: &WorkDir,
    signature: &str,
    runs: &mut Vec<String>,
) -> Result<(), SurveyError> {
    let Some(writing) = writing else {
        return Ok(());
    };
    let name = writing
        .handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    runs.push(name);
    work.save(signature, writing.position, false, runs, &writing.counts)?;
    Ok(())
}

/// Sorts the rows held and writes them as the next run.
fn flush_run(
    work: &WorkDir,
    held: &mut Vec<Keyed>,
    runs: &mut Vec<String>,
) -> Result<(), SurveyError> {
    if held.is_empty() {
        return Ok(());
    }
    held.sort();
    let name = run_name(next_run_number(runs));
    write_run(&work.run_path(&name), held)?;
    runs.push(name);
    held.clear();
    Ok(())
}
