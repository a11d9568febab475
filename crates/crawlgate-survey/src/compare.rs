//! Two surveys side by side: per crawler, the hosts whose robots.txt
//! started or stopped blocking it fully since an earlier survey's table (a
//! Parquet file, or a Spark output folder of part files).
//!
//! Only robots.txt choices are compared: a host that was unreachable (or a
//! redirect left unfollowed) in either survey is not counted as starting
//! or stopping anything; hosts that became unreachable, or reachable
//! again, are counted apart. Error rows are left out on both sides.
//!
//! The earlier table is held as one entry per host: the host, whether its
//! robots.txt answered, and one bit per crawler (blocked or not), about
//! `host length + 48 + crawlers / 8` bytes per site.

use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::crawlers::CrawlerSet;
use crate::output::{ReadError, TableSource};
use crate::row::SiteRow;
use crate::verdict::Cause;

/// One crawler's change between the two surveys, over the hosts whose
/// robots.txt answered in both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrawlerChange {
    /// Its product token.
    pub token: String,
    /// Whether the earlier survey had its columns.
    pub compared: bool,
    /// Hosts whose robots.txt blocked it then.
    pub before: u64,
    /// Hosts whose robots.txt blocks it now.
    pub after: u64,
    /// Hosts that block it now and did not.
    pub started: u64,
    /// Hosts that blocked it and do not now.
    pub stopped: u64,
}

/// The change since an earlier survey.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// The earlier survey's table.
    pub earlier: PathBuf,
    /// Hosts answered in both surveys.
    pub matched: u64,
    /// Hosts whose robots.txt answered in both (the hosts compared).
    pub compared: u64,
    /// Hosts answered only now.
    pub only_new: u64,
    /// Hosts answered only in the earlier survey.
    pub only_old: u64,
    /// Hosts whose robots.txt answered then and that are unreachable now.
    pub now_unreachable: u64,
    /// Hosts unreachable then whose robots.txt answers now.
    pub reachable_again: u64,
    /// Per crawler of the new survey.
    pub crawlers: Vec<CrawlerChange>,
}

/// Why an earlier survey cannot be compared.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the earlier survey {path}: {message}")]
pub struct BaselineError {
    path: PathBuf,
    message: String,
}

impl From<ReadError> for BaselineError {
    fn from(e: ReadError) -> BaselineError {
        BaselineError {
            path: PathBuf::new(),
            message: e.to_string(),
        }
    }
}

/// What a host's row said then.
struct Entry {
    /// Its robots.txt answered (a choice), or it was unreachable.
    state: State,
    blocked: Box<[u64]>,
    seen: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Chosen,
    Unreachable,
    Other,
}

fn state_of(row: &SiteRow) -> State {
    match row.crawlers.first().and_then(|c| c.cause) {
        Some(Cause::Unreachable) => State::Unreachable,
        Some(cause) if cause.is_choice() => State::Chosen,
        _ => State::Other,
    }
}

/// An earlier survey, loaded for comparison, and the change counted so far.
pub struct Baseline {
    entries: FxHashMap<Box<str>, Entry>,
    comparison: Comparison,
    /// For each crawler of the new survey, its index in the earlier one.
    columns: Vec<Option<usize>>,
}

impl std::fmt::Debug for Baseline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Baseline")
            .field("hosts", &self.entries.len())
            .field("earlier", &self.comparison.earlier)
            .finish()
    }
}

fn words(n: usize) -> usize {
    n.div_ceil(64)
}

fn bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] >> (i % 64) & 1 == 1
}

impl Baseline {
    /// Loads the hosts and blocked crawlers of an earlier survey's table
    /// (a Parquet file or a folder of part files), for the crawlers of
    /// `crawlers` (matched by column).
    pub fn load(path: &Path, crawlers: &CrawlerSet) -> Result<Baseline, BaselineError> {
        let fail = |message: String| BaselineError {
            path: path.to_owned(),
            message,
        };
        let source = TableSource::open(path).map_err(|e| fail(e.to_string()))?;
        Baseline::from_table(&source, crawlers).map_err(|e| fail(e.to_string()))
    }

    /// [`load`](Baseline::load) from a table already opened.
    pub fn from_table(source: &TableSource, crawlers: &CrawlerSet) -> Result<Baseline, ReadError> {
        let earlier = &source.layout().crawlers;
        let columns: Vec<Option<usize>> = crawlers
            .iter()
            .map(|c| earlier.iter().position(|e| e.column == c.column))
            .collect();
        let mut entries = FxHashMap::default();
        source.for_each_rows(&mut |rows| {
            for row in rows {
                let Some(host) = row.host.as_deref().filter(|_| !row.is_error()) else {
                    continue;
                };
                let mut blocked = vec![0u64; words(columns.len())].into_boxed_slice();
                for (i, column) in columns.iter().enumerate() {
                    let is_blocked = column
                        .and_then(|c| row.crawlers.get(c))
                        .and_then(|v| v.cause)
                        .is_some_and(Cause::is_blocked);
                    blocked[i / 64] |= u64::from(is_blocked) << (i % 64);
                }
                entries.insert(
                    Box::from(host),
                    Entry {
                        state: state_of(&row),
                        blocked,
                        seen: false,
                    },
                );
            }
            Ok::<(), ReadError>(())
        })?;
        let comparison = Comparison {
            earlier: source.path().to_owned(),
            matched: 0,
            compared: 0,
            only_new: 0,
            only_old: 0,
            now_unreachable: 0,
            reachable_again: 0,
            crawlers: crawlers
                .iter()
                .zip(&columns)
                .map(|(c, column)| CrawlerChange {
                    token: c.token.clone(),
                    compared: column.is_some(),
                    before: 0,
                    after: 0,
                    started: 0,
                    stopped: 0,
                })
                .collect(),
        };
        Ok(Baseline {
            entries,
            comparison,
            columns,
        })
    }

    /// Hosts of the earlier survey.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the earlier survey answered no host.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Compares one row of the new survey.
    pub fn add(&mut self, row: &SiteRow) {
        let Some(host) = row.host.as_deref().filter(|_| !row.is_error()) else {
            return;
        };
        let Some(entry) = self.entries.get_mut(host) else {
            self.comparison.only_new += 1;
            return;
        };
        if entry.seen {
            return;
        }
        entry.seen = true;
        let c = &mut self.comparison;
        c.matched += 1;
        let now = state_of(row);
        match (entry.state, now) {
            (State::Chosen, State::Chosen) => c.compared += 1,
            (State::Chosen, State::Unreachable) => c.now_unreachable += 1,
            (State::Unreachable, State::Chosen) => c.reachable_again += 1,
            _ => {}
        }
        if (entry.state, now) != (State::Chosen, State::Chosen) {
            return;
        }
        for (i, (change, verdict)) in c.crawlers.iter_mut().zip(&row.crawlers).enumerate() {
            if self.columns[i].is_none() {
                continue;
            }
            let was = bit(&entry.blocked, i);
            let is = verdict.cause.is_some_and(Cause::is_blocked);
            change.before += u64::from(was);
            change.after += u64::from(is);
            change.started += u64::from(is && !was);
            change.stopped += u64::from(was && !is);
        }
    }

    /// The comparison, once every new row was added.
    pub fn finish(self) -> Comparison {
        let mut comparison = self.comparison;
        comparison.only_old = self.entries.values().filter(|e| !e.seen).count() as u64;
        comparison
    }
}
