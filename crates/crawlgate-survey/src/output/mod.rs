//! Where rows go: Parquet, CSV and JSON-lines tables of one schema, written
//! batch by batch as the survey goes.

mod schema;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

pub use schema::{record_batch, schema, META_CRAWLERS, META_TABLE, META_VERSION, SCHEMA_VERSION};

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
    Parquet(ArrowWriter<File>),
    Csv(arrow_csv::Writer<BufWriter<File>>),
    JsonLines(arrow_json::LineDelimitedWriter<BufWriter<File>>),
}

/// A table file being written.
pub struct TableWriter {
    path: PathBuf,
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
    /// Creates the file at `path` in `format` (not [`OutputFormat::Html`]).
    pub fn create(
        path: &Path,
        format: OutputFormat,
        schema: &SchemaRef,
    ) -> Result<TableWriter, OutputError> {
        let io = |source| OutputError::Io {
            path: path.to_owned(),
            source,
        };
        let file = File::create(path).map_err(io)?;
        let encoder = match format {
            OutputFormat::Parquet => {
                let properties = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
                    .build();
                Encoder::Parquet(
                    ArrowWriter::try_new(file, schema.clone(), Some(properties)).map_err(|e| {
                        OutputError::Encode {
                            path: path.to_owned(),
                            message: e.to_string(),
                        }
                    })?,
                )
            }
            OutputFormat::Csv => Encoder::Csv(arrow_csv::Writer::new(BufWriter::new(file))),
            OutputFormat::JsonLines => Encoder::JsonLines(
                arrow_json::WriterBuilder::new()
                    .with_explicit_nulls(true)
                    .build::<_, arrow_json::writer::LineDelimited>(BufWriter::new(file)),
            ),
            OutputFormat::Html => {
                return Err(OutputError::Encode {
                    path: path.to_owned(),
                    message: "an HTML report is not a table".to_owned(),
                })
            }
        };
        Ok(TableWriter {
            path: path.to_owned(),
            encoder,
        })
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one batch of rows.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), OutputError> {
        let result = match &mut self.encoder {
            Encoder::Parquet(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::Csv(w) => w.write(batch).map_err(|e| e.to_string()),
            Encoder::JsonLines(w) => w.write(batch).map_err(|e| e.to_string()),
        };
        result.map_err(|message| self.encode_error(message))
    }

    /// Finishes the file (the Parquet footer, buffered bytes).
    pub fn finish(self) -> Result<(), OutputError> {
        let path = self.path;
        let result = match self.encoder {
            Encoder::Parquet(w) => w.close().map(drop).map_err(|e| e.to_string()),
            Encoder::Csv(w) => w.into_inner().flush().map_err(|e| e.to_string()),
            Encoder::JsonLines(mut w) => w
                .finish()
                .map_err(|e| e.to_string())
                .and_then(|()| w.into_inner().flush().map_err(|e| e.to_string())),
        };
        result.map_err(|message| OutputError::Encode { path, message })
    }

    fn encode_error(&self, message: String) -> OutputError {
        OutputError::Encode {
            path: self.path.clone(),
            message,
        }
    }
}
