//! Survey tables read back: a Parquet file, or a folder of Parquet part
//! files as Spark writes them (`part-00000-….parquet`, in partition
//! subfolders too; `_SUCCESS`, `.crc` and other hidden files left alone).

use std::fs::File;
use std::path::{Path, PathBuf};

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::schema::{rows_of_batch, Layout};
use crate::row::SiteRow;

/// Rows decoded at a time.
const BATCH_ROWS: usize = 1024;

/// Why a table cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read the survey table {path}: {message}")]
pub struct ReadError {
    path: PathBuf,
    message: String,
}

impl ReadError {
    fn new(path: &Path, message: impl std::fmt::Display) -> ReadError {
        ReadError {
            path: path.to_owned(),
            message: message.to_string(),
        }
    }
}

/// A survey table on disk: one Parquet file, or a folder of part files of
/// one layout.
#[derive(Clone, Debug)]
pub struct TableSource {
    path: PathBuf,
    files: Vec<PathBuf>,
    layout: Layout,
}

/// The Parquet files of a folder, in path order, skipping hidden ones and
/// those starting with `_` (Spark's markers).
fn part_files(folder: &Path, into: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(folder)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            part_files(&entry.path(), into)?;
        } else if name.ends_with(".parquet") {
            into.push(entry.path());
        }
    }
    Ok(())
}

fn layout_of(file: &Path) -> Result<Layout, ReadError> {
    let opened = File::open(file).map_err(|e| ReadError::new(file, e))?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(opened).map_err(|e| ReadError::new(file, e))?;
    Layout::of(builder.schema()).map_err(|e| ReadError::new(file, e))
}

impl TableSource {
    /// Opens the table at `path` (a file or a folder of part files); every
    /// part must have the columns of the first.
    pub fn open(path: &Path) -> Result<TableSource, ReadError> {
        let metadata = std::fs::metadata(path).map_err(|e| ReadError::new(path, e))?;
        let files = if metadata.is_dir() {
            let mut files = Vec::new();
            part_files(path, &mut files).map_err(|e| ReadError::new(path, e))?;
            if files.is_empty() {
                return Err(ReadError::new(path, "the folder holds no .parquet file"));
            }
            files
        } else {
            vec![path.to_owned()]
        };
        let layout = layout_of(&files[0])?;
        for file in &files[1..] {
            let other = layout_of(file)?;
            let stems = |l: &Layout| {
                l.crawlers
                    .iter()
                    .map(|c| c.column.clone())
                    .collect::<Vec<_>>()
            };
            if stems(&other) != stems(&layout) || other.paths.len() != layout.paths.len() {
                return Err(ReadError::new(
                    file,
                    format!(
                        "its crawler or path columns differ from those of {}",
                        files[0].display()
                    ),
                ));
            }
        }
        Ok(TableSource {
            path: path.to_owned(),
            files,
            layout,
        })
    }

    /// The path given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The Parquet files read.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Its crawlers, paths and reading.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Hands the rows to `each`, a batch at a time, in file order; stops at
    /// the first error of `each`.
    pub fn for_each_rows<E: From<ReadError>>(
        &self,
        each: &mut dyn FnMut(Vec<SiteRow>) -> Result<(), E>,
    ) -> Result<(), E> {
        for file in &self.files {
            let opened = File::open(file).map_err(|e| ReadError::new(file, e))?;
            let reader = ParquetRecordBatchReaderBuilder::try_new(opened)
                .map_err(|e| ReadError::new(file, e))?
                .with_batch_size(BATCH_ROWS)
                .build()
                .map_err(|e| ReadError::new(file, e))?;
            for batch in reader {
                let batch = batch.map_err(|e| ReadError::new(file, e))?;
                let rows =
                    rows_of_batch(&batch, &self.layout).map_err(|e| ReadError::new(file, e))?;
                each(rows)?;
            }
        }
        Ok(())
    }

    /// Every row (for tests and small tables: a table's rows all at once).
    pub fn rows(&self) -> Result<Vec<SiteRow>, ReadError> {
        let mut all = Vec::new();
        self.for_each_rows(&mut |rows| {
            all.extend(rows);
            Ok::<(), ReadError>(())
        })?;
        Ok(all)
    }
}
