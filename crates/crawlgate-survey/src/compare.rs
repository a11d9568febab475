//! Two surveys side by side: per crawler, the sites (by host) that started
//! or stopped blocking it fully since an earlier survey's Parquet table.
//!
//! The earlier table is held as one entry per host: the host and one bit
//! per crawler (blocked or not), about `host length + 40 + crawlers / 8`
//! bytes per site. Hosts are matched exactly; error rows on either side
//! are left out; a host listed twice counts once (its first row in the new
//! survey, its last in the old).

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::{Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ProjectionMask;
use rustc_hash::FxHashMap;

use crate::classify::Class;
use crate::crawlers::CrawlerSet;
use crate::row::SiteRow;

/// One crawler's change between the two surveys, over the hosts both hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlerChange {
    /// Its product token.
    pub token: String,
    /// Whether the earlier survey had its column.
    pub compared: bool,
    /// Hosts that blocked it in the earlier survey.
    pub before: u64,
    /// Hosts that block it now.
    pub after: u64,
    /// Hosts that block it now and did not.
    pub started: u64,
    /// Hosts that blocked it and do not now.
    pub stopped: u64,
}

/// The change since an earlier survey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The earlier survey's table.
    pub earlier: PathBuf,
    /// Hosts answered in both surveys.
    pub matched: u64,
    /// Hosts answered only now.
    pub only_new: u64,
    /// Hosts answered only in the earlier survey.
    pub only_old: u64,
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

struct Entry {
    blocked: Box<[u64]>,
    seen: bool,
}

/// An earlier survey, loaded for comparison, and the change counted so far.
pub struct Baseline {
    entries: FxHashMap<Box<str>, Entry>,
    comparison: Comparison,
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
    /// Loads the hosts and blocked crawlers of an earlier survey's Parquet
    /// table (one written by a survey, or by Spark with its schema), for the
    /// crawlers of `crawlers` (matched by column).
    pub fn load(path: &Path, crawlers: &CrawlerSet) -> Result<Baseline, BaselineError> {
        let fail = |message: String| BaselineError {
            path: path.to_owned(),
            message,
        };
        let file = File::open(path).map_err(|e| fail(e.to_string()))?;
        let builder =
            ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| fail(e.to_string()))?;
        let schema = builder.schema().clone();
        let index_of = |name: &str| schema.index_of(name).ok();
        let host = index_of("host")
            .ok_or_else(|| fail("no `host` column: not a survey table".to_owned()))?;
        let error = index_of("error");
        let columns: Vec<Option<usize>> = crawlers
            .iter()
            .map(|c| index_of(&c.class_column()))
            .collect();
        let mut wanted: Vec<usize> = [Some(host), error]
            .into_iter()
            .chain(columns.iter().copied())
            .flatten()
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mask = ProjectionMask::roots(builder.parquet_schema(), wanted.iter().copied());
        let reader = builder
            .with_projection(mask)
            .build()
            .map_err(|e| fail(e.to_string()))?;
        // Column positions inside the projected batches.
        let projected = |i: usize| wanted.iter().position(|&w| w == i);
        let mut entries = FxHashMap::default();
        for batch in reader {
            let batch = batch.map_err(|e| fail(e.to_string()))?;
            let strings = |i: usize| -> Result<StringArray, BaselineError> {
                let column = batch.column(projected(i).expect("projected"));
                arrow_cast_utf8(column.as_ref())
                    .ok_or_else(|| fail(format!("column {} is not text", schema.field(i).name())))
            };
            let hosts = strings(host)?;
            let errors = error.map(strings).transpose()?;
            let classes: Vec<Option<StringArray>> = columns
                .iter()
                .map(|c| c.map(strings).transpose())
                .collect::<Result<_, _>>()?;
            for row in 0..batch.num_rows() {
                if hosts.is_null(row) || errors.as_ref().is_some_and(|e| !e.is_null(row)) {
                    continue;
                }
                let mut blocked = vec![0u64; words(columns.len())].into_boxed_slice();
                for (i, column) in classes.iter().enumerate() {
                    let is_blocked = column.as_ref().is_some_and(|c| {
                        !c.is_null(row) && c.value(row) == Class::Blocked.as_str()
                    });
                    blocked[i / 64] |= u64::from(is_blocked) << (i % 64);
                }
                entries.insert(
                    Box::from(hosts.value(row)),
                    Entry {
                        blocked,
                        seen: false,
                    },
                );
            }
        }
        let comparison = Comparison {
            earlier: path.to_owned(),
            matched: 0,
            only_new: 0,
            only_old: 0,
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
        self.comparison.matched += 1;
        for (i, (change, now)) in self
            .comparison
            .crawlers
            .iter_mut()
            .zip(&row.crawlers)
            .enumerate()
        {
            if !change.compared {
                continue;
            }
            let (was, is) = (bit(&entry.blocked, i), now.class == Class::Blocked);
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

/// A text column as a `StringArray` (Spark may write large strings or
/// views; those are converted).
fn arrow_cast_utf8(column: &dyn Array) -> Option<StringArray> {
    if let Some(strings) = column.as_string_opt::<i32>() {
        return Some(strings.clone());
    }
    if let Some(large) = column.as_string_opt::<i64>() {
        return Some(large.iter().collect());
    }
    column
        .as_string_view_opt()
        .map(|view| view.iter().collect())
}
