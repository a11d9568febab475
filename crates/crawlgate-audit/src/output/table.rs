//! The rows as a table: Parquet, CSV or JSON lines (by the file's
//! extension), one row per readable line, written to a temporary file and
//! renamed when complete.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, StringBuilder, StringDictionaryBuilder, TimestampMillisecondBuilder,
    UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

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

/// The columns, in order.
///
/// ```
/// let schema = crawlgate_audit::output::table::schema();
/// let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(&names[..6], ["file", "line", "time", "ip", "user_agent", "crawler"]);
/// ```
pub fn schema() -> SchemaRef {
    let dict = || DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    Arc::new(Schema::new(vec![
        Field::new("file", dict(), false),
        Field::new("line", DataType::UInt64, false),
        Field::new(
            "time",
            DataType::Timestamp(TimeUnit::Millisecond, Some("+00:00".into())),
            true,
        ),
        Field::new("ip", DataType::Utf8, false),
        Field::new("user_agent", DataType::Utf8, false),
        Field::new("crawler", dict(), true),
        Field::new("identity", dict(), true),
        Field::new("identity_reason", DataType::Utf8, true),
        Field::new("host", DataType::Utf8, true),
        Field::new("url", DataType::Utf8, true),
        Field::new("status", DataType::UInt16, true),
        Field::new("allowed", DataType::Boolean, true),
        Field::new("basis", dict(), true),
        Field::new("rule_line", DataType::UInt32, true),
        Field::new("robots_version", dict(), true),
        Field::new("violation", DataType::Boolean, false),
        Field::new("recent_change", DataType::Boolean, false),
        Field::new("crawl_delay_breach", DataType::Boolean, false),
        Field::new("honeypot", DataType::Boolean, false),
        Field::new("user_triggered", DataType::Boolean, false),
    ]))
}

/// Rows as one Arrow batch.
pub fn batch(files: &[String], rows: &[Row<'_>]) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let n = rows.len();
    let mut file = StringDictionaryBuilder::<Int32Type>::new();
    let mut line = UInt64Builder::with_capacity(n);
    let mut time = TimestampMillisecondBuilder::with_capacity(n).with_timezone("+00:00");
    let mut ip = StringBuilder::with_capacity(n, n * 16);
    let mut user_agent = StringBuilder::with_capacity(n, n * 100);
    let mut crawler = StringDictionaryBuilder::<Int32Type>::new();
    let mut identity = StringDictionaryBuilder::<Int32Type>::new();
    let mut identity_reason = StringBuilder::with_capacity(n, n * 40);
    let mut host = StringBuilder::with_capacity(n, n * 12);
    let mut url = StringBuilder::with_capacity(n, n * 40);
    let mut status = UInt16Builder::with_capacity(n);
    let mut allowed = BooleanBuilder::with_capacity(n);
    let mut basis = StringDictionaryBuilder::<Int32Type>::new();
    let mut rule_line = UInt32Builder::with_capacity(n);
    let mut version = StringDictionaryBuilder::<Int32Type>::new();
    let mut violation = BooleanBuilder::with_capacity(n);
    let mut recent_change = BooleanBuilder::with_capacity(n);
    let mut breach = BooleanBuilder::with_capacity(n);
    let mut honeypot = BooleanBuilder::with_capacity(n);
    let mut user_triggered = BooleanBuilder::with_capacity(n);
    let mut ip_text = String::with_capacity(40);
    for row in rows {
        file.append_value(files.get(row.file).map_or("", String::as_str));
        line.append_value(row.line);
        time.append_option(row.time);
        ip_text.clear();
        use std::fmt::Write as _;
        let _ = write!(ip_text, "{}", row.ip);
        ip.append_value(&ip_text);
        user_agent.append_value(row.user_agent);
        crawler.append_option(row.crawler.map(|c| c.name));
        identity.append_option(row.identity.map(|i| i.as_str()));
        identity_reason.append_option(row.identity_why.as_deref());
        host.append_option(row.host);
        url.append_option(row.url);
        status.append_option(row.status);
        allowed.append_option(row.judged.map(|j| j.allowed));
        basis.append_option(row.judged.map(|j| j.basis.as_str()));
        rule_line.append_option(row.judged.and_then(|j| j.rule_line));
        version.append_option(row.robots_version);
        violation.append_value(row.violation);
        recent_change.append_value(row.recent_change);
        breach.append_value(row.crawl_delay_breach);
        honeypot.append_value(row.honeypot);
        user_triggered.append_value(row.user_triggered);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(file.finish()),
        Arc::new(line.finish()),
        Arc::new(time.finish()),
        Arc::new(ip.finish()),
        Arc::new(user_agent.finish()),
        Arc::new(crawler.finish()),
        Arc::new(identity.finish()),
        Arc::new(identity_reason.finish()),
        Arc::new(host.finish()),
        Arc::new(url.finish()),
        Arc::new(status.finish()),
        Arc::new(allowed.finish()),
        Arc::new(basis.finish()),
        Arc::new(rule_line.finish()),
        Arc::new(version.finish()),
        Arc::new(violation.finish()),
        Arc::new(recent_change.finish()),
        Arc::new(breach.finish()),
        Arc::new(honeypot.finish()),
        Arc::new(user_triggered.finish()),
    ];
    RecordBatch::try_new(schema(), columns)
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

/// A sink that keeps the rows as Arrow batches, one per write (for callers
/// that want the table in memory: Python, Spark).
#[derive(Debug, Default)]
pub struct Batches(pub Vec<RecordBatch>);

impl RowSink for Batches {
    fn write(&mut self, files: &[String], rows: &[Row<'_>]) -> io::Result<()> {
        self.0.push(batch(files, rows).map_err(io::Error::other)?);
        Ok(())
    }
}
