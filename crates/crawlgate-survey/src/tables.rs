//! Reports from tables already written: a survey's Parquet file, or a
//! Spark output folder of part files in its schema, one per snapshot.
//! The figures come from the rows alone, so a table gives the report its
//! survey gave (without the input accounting, which only a run knows).
//!
//! With several snapshots (oldest first) the report shows the last one,
//! trends over all of them (a line per crawler), and the change since the
//! one before it.

use std::path::{Path, PathBuf};

use crate::compare::Baseline;
use crate::output::{write_atomically, OutputFormat, ReadError, TableSource};
use crate::report::{self, ReportInfo, Snapshot};
use crate::run::snapshot_label;
use crate::summary::Summary;

/// Why a report cannot be made from tables.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablesError {
    /// No table given.
    #[error("no survey table to report on: give a Parquet file or a Spark output folder")]
    NoTable,
    /// An output that is no report or summary.
    #[error("cannot write {0} from tables: name it .html (the report) or .json (the summary)")]
    UnknownOutput(PathBuf),
    /// A table cannot be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// An output cannot be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// Its path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The snapshots of `tables` (oldest first), the last one compared with
/// the one before it.
///
/// ```
/// use crawlgate_survey::{input::Input, run, tables, CrawlerSet, Plan, Survey};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.example"), "User-agent: GPTBot\nDisallow: /\n")?;
/// let table = dir.path().join("now.parquet");
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot"])?);
/// let plan = Plan { outputs: vec![table.clone()], ..Plan::default() };
/// let ran = run(&survey, &[Input::Folder(dir.path().to_owned())], &plan, &|_| {})?;
/// let snapshots = tables::snapshots(&[table])?;
/// assert_eq!(snapshots[0].label, "now");
/// assert_eq!(snapshots[0].summary.crawlers, ran.crawlers);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn snapshots(tables: &[PathBuf]) -> Result<Vec<Snapshot>, TablesError> {
    if tables.is_empty() {
        return Err(TablesError::NoTable);
    }
    let sources = tables
        .iter()
        .map(|t| TableSource::open(t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut snapshots = Vec::with_capacity(sources.len());
    for (i, source) in sources.iter().enumerate() {
        let layout = source.layout();
        let mut summary = Summary::new(&layout.crawlers, &layout.paths);
        let mut baseline = match i.checked_sub(1) {
            Some(before) if i + 1 == sources.len() => {
                Some(Baseline::from_table(&sources[before], &layout.crawlers)?)
            }
            _ => None,
        };
        source.for_each_rows(&mut |rows| {
            for row in &rows {
                summary.add(row);
                if let Some(baseline) = &mut baseline {
                    baseline.add(row);
                }
            }
            Ok::<(), ReadError>(())
        })?;
        summary.comparison = baseline.map(Baseline::finish);
        snapshots.push(Snapshot {
            label: snapshot_label(source.path()),
            summary,
        });
    }
    Ok(snapshots)
}

/// Writes the report (`.html`) and the summary (`.json`) of `tables` to
/// `outputs`; returns the snapshots.
pub fn report(tables: &[PathBuf], outputs: &[PathBuf]) -> Result<Vec<Snapshot>, TablesError> {
    for path in outputs {
        if !matches!(
            OutputFormat::of(path),
            Some(OutputFormat::Html | OutputFormat::Summary)
        ) {
            return Err(TablesError::UnknownOutput(path.clone()));
        }
    }
    let snapshots = snapshots(tables)?;
    let profile = tables
        .last()
        .and_then(|t| TableSource::open(t).ok())
        .and_then(|s| s.layout().profile.clone())
        .unwrap_or_default();
    let info = ReportInfo {
        inputs: tables.iter().map(|t| t.display().to_string()).collect(),
        generated: crawlgate_answers::time::rfc3339(std::time::SystemTime::now()),
        profile,
        seconds: None,
    };
    for path in outputs {
        let text = match OutputFormat::of(path) {
            Some(OutputFormat::Html) => report::render(&snapshots, &info),
            _ => report::summary_json(&snapshots),
        };
        write_atomically(path, text.as_bytes()).map_err(|source| TablesError::Write {
            path: path.clone(),
            source,
        })?;
    }
    Ok(snapshots)
}

/// Whether `path` looks like a survey table (a `.parquet` file or a
/// folder), for telling tables from inputs.
pub fn is_table(path: &Path) -> bool {
    path.is_dir() || OutputFormat::of(path) == Some(OutputFormat::Parquet)
}
