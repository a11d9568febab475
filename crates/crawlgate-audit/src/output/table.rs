//! The rows as a table, one row per readable line: its Arrow schema, the
//! rows as record batches, and (with the `files` feature) the table files
//! (Parquet, CSV or JSON lines, by the file's extension) written to a
//! temporary file and renamed when complete.

use std::io;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, StringBuilder, StringDictionaryBuilder, TimestampMillisecondBuilder,
    UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::types::Int32Type;
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::audit::RowSink;
use crate::findings::Row;

#[cfg(feature = "files")]
mod file;

#[cfg(feature = "files")]
pub use file::{TableKind, TableWriter, Tables};

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
    let mut columns = Columns::with_capacity(rows.len());
    columns.append(files, rows);
    columns.finish()
}

/// The table's columns being built, row after row.
struct Columns {
    file: StringDictionaryBuilder<Int32Type>,
    line: UInt64Builder,
    time: TimestampMillisecondBuilder,
    ip: StringBuilder,
    user_agent: StringBuilder,
    crawler: StringDictionaryBuilder<Int32Type>,
    identity: StringDictionaryBuilder<Int32Type>,
    identity_reason: StringBuilder,
    host: StringBuilder,
    url: StringBuilder,
    status: UInt16Builder,
    allowed: BooleanBuilder,
    basis: StringDictionaryBuilder<Int32Type>,
    rule_line: UInt32Builder,
    version: StringDictionaryBuilder<Int32Type>,
    violation: BooleanBuilder,
    recent_change: BooleanBuilder,
    breach: BooleanBuilder,
    honeypot: BooleanBuilder,
    user_triggered: BooleanBuilder,
}

impl Columns {
    fn with_capacity(n: usize) -> Columns {
        Columns {
            file: StringDictionaryBuilder::new(),
            line: UInt64Builder::with_capacity(n),
            time: TimestampMillisecondBuilder::with_capacity(n).with_timezone("+00:00"),
            ip: StringBuilder::with_capacity(n, n * 16),
            user_agent: StringBuilder::with_capacity(n, n * 100),
            crawler: StringDictionaryBuilder::new(),
            identity: StringDictionaryBuilder::new(),
            identity_reason: StringBuilder::with_capacity(n, n * 40),
            host: StringBuilder::with_capacity(n, n * 12),
            url: StringBuilder::with_capacity(n, n * 40),
            status: UInt16Builder::with_capacity(n),
            allowed: BooleanBuilder::with_capacity(n),
            basis: StringDictionaryBuilder::new(),
            rule_line: UInt32Builder::with_capacity(n),
            version: StringDictionaryBuilder::new(),
            violation: BooleanBuilder::with_capacity(n),
            recent_change: BooleanBuilder::with_capacity(n),
            breach: BooleanBuilder::with_capacity(n),
            honeypot: BooleanBuilder::with_capacity(n),
            user_triggered: BooleanBuilder::with_capacity(n),
        }
    }

    fn append(&mut self, files: &[String], rows: &[Row<'_>]) {
        use std::fmt::Write as _;
        let mut ip_text = String::with_capacity(40);
        for row in rows {
            self.file
                .append_value(files.get(row.file).map_or("", String::as_str));
            self.line.append_value(row.line);
            self.time.append_option(row.time);
            ip_text.clear();
            let _ = write!(ip_text, "{}", row.ip);
            self.ip.append_value(&ip_text);
            self.user_agent.append_value(row.user_agent);
            self.crawler.append_option(row.crawler.map(|c| c.name));
            self.identity
                .append_option(row.identity.map(|i| i.as_str()));
            self.identity_reason
                .append_option(row.identity_why.as_deref());
            self.host.append_option(row.host);
            self.url.append_option(row.url);
            self.status.append_option(row.status);
            self.allowed.append_option(row.judged.map(|j| j.allowed));
            self.basis
                .append_option(row.judged.map(|j| j.basis.as_str()));
            self.rule_line
                .append_option(row.judged.and_then(|j| j.rule_line));
            self.version.append_option(row.robots_version);
            self.violation.append_value(row.violation);
            self.recent_change.append_value(row.recent_change);
            self.breach.append_value(row.crawl_delay_breach);
            self.honeypot.append_value(row.honeypot);
            self.user_triggered.append_value(row.user_triggered);
        }
    }

    fn finish(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.time.finish()),
            Arc::new(self.ip.finish()),
            Arc::new(self.user_agent.finish()),
            Arc::new(self.crawler.finish()),
            Arc::new(self.identity.finish()),
            Arc::new(self.identity_reason.finish()),
            Arc::new(self.host.finish()),
            Arc::new(self.url.finish()),
            Arc::new(self.status.finish()),
            Arc::new(self.allowed.finish()),
            Arc::new(self.basis.finish()),
            Arc::new(self.rule_line.finish()),
            Arc::new(self.version.finish()),
            Arc::new(self.violation.finish()),
            Arc::new(self.recent_change.finish()),
            Arc::new(self.breach.finish()),
            Arc::new(self.honeypot.finish()),
            Arc::new(self.user_triggered.finish()),
        ];
        RecordBatch::try_new(schema(), columns)
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

/// A sink that builds every row it is given into one Arrow batch
/// ([`OneBatch::finish`]), its dictionaries shared by all of them: one
/// batch out per batch of lines in, as Python's `Auditor.audit` returns
/// (without concatenating batches, and the kernels that takes).
///
/// ```
/// use crawlgate_audit::output::table::OneBatch;
/// let mut rows = OneBatch::default();
/// assert_eq!(rows.finish()?.num_rows(), 0);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub struct OneBatch(Columns);

impl Default for OneBatch {
    fn default() -> OneBatch {
        OneBatch(Columns::with_capacity(0))
    }
}

impl std::fmt::Debug for OneBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use arrow_array::builder::ArrayBuilder as _;
        f.debug_struct("OneBatch")
            .field("rows", &self.0.line.len())
            .finish()
    }
}

impl OneBatch {
    /// The rows written so far, as one batch; the sink starts empty
    /// again.
    pub fn finish(&mut self) -> Result<RecordBatch, arrow_schema::ArrowError> {
        self.0.finish()
    }
}

impl RowSink for OneBatch {
    fn write(&mut self, files: &[String], rows: &[Row<'_>]) -> io::Result<()> {
        self.0.append(files, rows);
        Ok(())
    }
}
