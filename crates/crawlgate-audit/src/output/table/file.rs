//! The rows as a table file: Parquet, CSV or JSON lines (by the file's
//! extension), written to a temporary file and renamed when complete.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::{batch, schema};
use crate::audit::RowSink;
use crate::findings::Row;

/// The table's kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Apache Parquet.
    Parquet,
    /// CSV with a header line.
    Csv,
    /// One JSON object per line.
    JsonLines,
}

impl TableKind {
    /// The kind a file name's extension asks for (`.parquet`, `.csv`,
    /// `.jsonl`/`.ndjson`), or `None`.
    pub fn of(path: &Path) -> Option<TableKind> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "parquet" => Some(TableKind::Parquet),
            "csv" => Some(TableKind::Csv),
            "jsonl" | "ndjson" => Some(TableKind::JsonLines),
            _ => None,
        }
    }
}

enum Writer {
    Parquet(ArrowWriter<File>),
    Csv(arrow_csv::Writer<BufWriter<File>>),
    Json(arrow_json::LineDelimitedWriter<BufWriter<File>>),
}

/// Writes rows to a table file.
pub struct TableWriter {
    path: PathBuf,
    temporary: PathBuf,
    writer: Option<Writer>,
}

fn other(error: impl std::fmt::Display) -> io::Error {
    io::Error::other(error.to_string())
}

impl TableWriter {
    /// Starts writing `path` (a temporary file beside it until
    /// [`finish`](Self::finish)).
    pub fn create(path: &Path, kind: TableKind) -> io::Result<TableWriter> {
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is no file name", path.display()),
            )
        })?;
        let temporary = path.with_file_name(format!(".{}.partial", name.to_string_lossy()));
        let file = File::create(&temporary).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
        })?;
        let writer = match kind {
            TableKind::Parquet => {
                let properties = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(256 * 1024))
                    .build();
                Writer::Parquet(
                    ArrowWriter::try_new(file, schema(), Some(properties)).map_err(other)?,
                )
            }
            TableKind::Csv => Writer::Csv(
                arrow_csv::WriterBuilder::new()
                    .with_header(true)
                    .build(BufWriter::new(file)),
            ),
            TableKind::JsonLines => {
                Writer::Json(arrow_json::LineDelimitedWriter::new(BufWriter::new(file)))
            }
        };
        Ok(TableWriter {
            path: path.to_owned(),
            temporary,
            writer: Some(writer),
        })
    }

    /// Completes the file and moves it into place.
    pub fn finish(mut self) -> io::Result<()> {
        match self.writer.take() {
            Some(Writer::Parquet(w)) => {
                w.close().map_err(other)?;
            }
            Some(Writer::Csv(w)) => {
                let mut inner = w.into_inner();
                io::Write::flush(&mut inner)?;
            }
            Some(Writer::Json(mut w)) => {
                w.finish().map_err(other)?;
                let mut inner = w.into_inner();
                io::Write::flush(&mut inner)?;
            }
            None => {}
        }
        std::fs::rename(&self.temporary, &self.path)
    }
}

impl Drop for TableWriter {
    fn drop(&mut self) {
        if self.writer.is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

impl RowSink for TableWriter {
    fn write(&mut self, files: &[String], rows: &[Row<'_>]) -> io::Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let batch = batch(files, rows).map_err(other)?;
        match self.writer.as_mut() {
            Some(Writer::Parquet(w)) => w.write(&batch).map_err(other),
            Some(Writer::Csv(w)) => w.write(&batch).map_err(other),
            Some(Writer::Json(w)) => w.write(&batch).map_err(other),
            None => Ok(()),
        }
    }
}

/// Several table files written at once.
#[derive(Default)]
pub struct Tables(pub Vec<TableWriter>);

impl Tables {
    /// Completes every file.
    pub fn finish(self) -> io::Result<()> {
        self.0.into_iter().try_for_each(TableWriter::finish)
    }
}

impl RowSink for Tables {
    fn write(&mut self, files: &[String], rows: &[Row<'_>]) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|s| s.write(files, rows))
    }
}
