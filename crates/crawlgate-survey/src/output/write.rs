//! The table files: Parquet, CSV or JSON lines by the name's extension,
//! each written under a temporary name beside its path and renamed onto
//! it once complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::basic::Compression;
use parquet::file::properties::{EnabledStatistics, WriterProperties};

use super::{parquet_table, schema};

/// Rows per Parquet row group: the writer buffers at most this many rows.
pub const ROW_GROUP_ROWS: usize = 65_536;

/// What a file written by a survey holds, by its name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// `.parquet`: the table, compressed (Snappy).
    Parquet,
    /// `.csv`: the table with a header line.
    Csv,
    /// `.jsonl` or `.ndjson`: one JSON object per row, nulls written.
    JsonLines,
    /// `.html`: the report.
    Html,
    /// `.json`: the summary, the report's figures as JSON.
    Summary,
}

impl OutputFormat {
    /// The format a file name asks for.
    ///
    /// ```
    /// use crawlgate_survey::OutputFormat;
    /// assert_eq!(OutputFormat::of("out/survey.parquet".as_ref()), Some(OutputFormat::Parquet));
    /// assert_eq!(OutputFormat::of("report.HTML".as_ref()), Some(OutputFormat::Html));
    /// assert_eq!(OutputFormat::of("rows.txt".as_ref()), None);
    /// ```
    pub fn of(path: &Path) -> Option<OutputFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match extension.as_str() {
            "parquet" => OutputFormat::Parquet,
            "csv" => OutputFormat::Csv,
            "jsonl" | "ndjson" => OutputFormat::JsonLines,
            "html" | "htm" => OutputFormat::Html,
            "json" => OutputFormat::Summary,
            _ => return None,
        })
    }
}

/// Why an output cannot be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// Creating or writing the file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The table could not be encoded.
    #[error("cannot write {path}: {message}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

enum Encoder {
    Parquet(parquet_table::ParquetTable),
    // Boxed: a CSV writer is about twice the size of the others.
    Csv(Box<arrow_csv::Writer<BufWriter<File>>>),
    JsonLines(arrow_json::LineDelimitedWriter<BufWriter<File>>),
}

/// The temporary name a file is written under before it is renamed onto
/// `path`: hidden, beside it (a rename within one folder is atomic).
pub fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.crawlgate-partial"))
}

/// Writes `bytes` to `path` through a temporary file renamed onto it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = partial_path(path);
    let result = File::create(&partial).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    match result.and_then(|()| std::fs::rename(&partial, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// A table file being written (under its [temporary name](partial_path)
/// until [`finish`](TableWriter::finish)).
pub struct TableWriter {
    path: PathBuf,
    partial: PathBuf,
    encoder: Encoder,
}

impl std::fmt::Debug for TableWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableWriter")
            .field("path", &self.path)
            .finish()
    }
}

impl TableWriter {
    /// Starts the file at `path` in `format` (a table format), with Parquet
    /// row groups of at most `row_group` rows.
    pub fn create(
        path: &Path,
        format: OutputFormat,
        schema: &SchemaRef,
    ) -> Result<TableWriter, OutputError> {
        TableWriter::with_row_groups(path, format, schema, ROW_GROUP_ROWS)
    }

    /// [`create`](TableWriter::create) with another row group size.
    pub fn with_row_groups(
        path: &Path,
        format: OutputFormat,
        schema: &SchemaRef,
        row_group: usize,
    ) -> Result<TableWriter, OutputError> {
        let io = |source| OutputError::Io {
            path: path.to_owned(),
            source,
        };
        let partial = partial_path(path);
        let file = File::create(&partial).map_err(io)?;
        let encoder = match format {
            OutputFormat::Parquet => {
                let mut properties = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(row_group.max(1)));
                for column in schema::verdict_word_columns(schema) {
                    properties = properties
                        .set_column_statistics_enabled(column.into(), EnabledStatistics::None);
                }
                let properties = properties.build();
                Encoder::Parquet(
                    parquet_table::ParquetTable::create(
                        file,
                        schema.clone(),
                        properties,
                        row_group,
                    )
                    .map_err(|e| OutputError::Encode {
                        path: path.to_owned(),
                        message: e.to_string(),
                    })?,
                )
            }
            OutputFormat::Csv => {
                Encoder::Csv(Box::new(arrow_csv::Writer::new(BufWriter::new(file))))
            }
            OutputFormat::JsonLines => Encoder::JsonLines(
                arrow_json::WriterBuilder::new()
                    .with_explicit_nulls(true)
                    .build::<_, arrow_json::writer::LineDelimited>(BufWriter::new(file)),
            ),
            OutputFormat::Html | OutputFormat::Summary => {
                let _ = std::fs::remove_file(&partial);
                return Err(OutputError::Encode {
                    path: path.to_owned(),
                    message: "a report or summary is not a table".to_owned(),
                });
            }
        };
        Ok(TableWriter {
            path: path.to_owned(),
            partial,
            encoder,
        })
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one batch of rows (a Parquet table's columns encoded on the
    /// rayon pool the caller runs in).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), OutputError> {
        let result = match &mut self.encoder {
            Encoder::Parquet(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::Csv(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::JsonLines(w) => w.write(batch).map_err(|e| e.to_string()),
        };
        result.map_err(|message| self.encode_error(message))
    }

    /// Finishes the file (the Parquet footer, buffered bytes), makes it
    /// durable and renames it onto its path.
    pub fn finish(self) -> Result<(), OutputError> {
        let TableWriter {
            path,
            partial,
            encoder,
        } = self;
        let file = match encoder {
            Encoder::Parquet(w) => w.into_inner().map_err(|e| e.to_string()),
            Encoder::Csv(w) => (*w).into_inner().into_inner().map_err(|e| e.to_string()),
            Encoder::JsonLines(mut w) => w
                .finish()
                .map_err(|e| e.to_string())
                .and_then(|()| w.into_inner().into_inner().map_err(|e| e.to_string())),
        };
        let result = file
            .and_then(|file| file.sync_all().map_err(|e| e.to_string()))
            .and_then(|()| std::fs::rename(&partial, &path).map_err(|e| e.to_string()));
        result.map_err(|message| {
            let _ = std::fs::remove_file(&partial);
            OutputError::Encode { path, message }
        })
    }

    /// Gives up the file: the temporary one is removed, the path untouched.
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.partial);
    }

    fn encode_error(&self, message: String) -> OutputError {
        OutputError::Encode {
            path: self.path.clone(),
            message,
        }
    }
}
