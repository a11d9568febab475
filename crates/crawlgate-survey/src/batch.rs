//! The survey's rows as Arrow record batches, for callers that write them
//! themselves (Python, Spark's `mapInArrow`): [`survey_inputs`] reads
//! inputs (WARC files, folders, tables) as `crawlgate survey` does;
//! [`survey_batch`] classifies captures the caller has read. Both give one
//! row per capture, in input order: deduplicating hosts and following
//! redirects across captures is the caller's (Spark's) part, as
//! `crawlgate survey`'s merge does it (see docs/survey.md).
//!
//! The input columns of [`survey_batch`], by name:
//!
//! * `host`: text: the site;
//! * `robots_txt`: binary or text: the body (at most 500 KiB of it are
//!   read; its whole length is the row's `size`);
//! * `status` (optional): integer: the HTTP status it was served with; a
//!   null or absent status reads the body as a file served with 200;
//! * `content_type` (optional): text;
//! * `source` (optional): text: where the capture came from (`row N` when
//!   absent).
//!
//! A row whose host or body is null, or whose host is no host name, is an
//! error row. Rows are classified on every core.

use std::fmt;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, Int32Type, Int64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType};
use crawlgate_answers::HttpResponse;
use rayon::prelude::*;

use crate::capture::{checked_host, Capture, Payload, BODY_LIMIT};
use crate::chunks::{read_inputs, Position};
use crate::input::Input;
use crate::input::Item;
use crate::output::{record_batch, schema};

/// The schema of a survey's rows.
fn table_schema(survey: &Survey) -> arrow_schema::SchemaRef {
    schema(survey.crawlers(), survey.paths(), survey.profile().name)
}
use crate::survey::Survey;

/// The columns a survey's batch holds, as a missing column's error names
/// them.
const SURVEY_COLUMNS: &str =
    "host: string, robots_txt: binary, and optionally status: int, content_type: string, source: string";

/// Why an Arrow batch cannot be answered: a survey's
/// ([`survey_batch`]) or the Python package's batch of questions.
#[derive(Debug)]
#[non_exhaustive]
pub enum BatchError {
    /// A required column is absent.
    MissingColumn {
        /// The column.
        column: &'static str,
        /// The columns the batch should have, with their types.
        expected: &'static str,
    },
    /// A column has a type that cannot hold its values.
    WrongType {
        /// The column.
        column: &'static str,
        /// Its type.
        found: DataType,
        /// What it may be.
        expected: &'static str,
    },
    /// The batch already has a column the answer adds.
    OutputExists {
        /// The column.
        column: &'static str,
        /// The columns the answer adds (`allowed, line and rule`).
        added: &'static str,
    },
    /// The texts of one output column exceed the 2 GiB an Arrow string
    /// column holds.
    TooLarge,
    /// The output could not be built.
    Arrow(ArrowError),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::MissingColumn { column, expected } => {
                write!(f, "the batch has no `{column}` column (expected {expected})")
            }
            BatchError::WrongType {
                column,
                found,
                expected,
            } => write!(f, "column `{column}` is {found}, expected {expected}"),
            BatchError::OutputExists { column, added } => write!(
                f,
                "the batch already has a column named `{column}`; rename it first ({added} are added)"
            ),
            BatchError::TooLarge => write!(
                f,
                "the rule texts of this batch exceed 2 GiB: split it into smaller batches"
            ),
            BatchError::Arrow(e) => write!(f, "cannot build the rows: {e}"),
        }
    }
}

impl std::error::Error for BatchError {}

/// Byte values of a text or binary column.
fn bytes_at(column: &ArrayRef, row: usize) -> Option<&[u8]> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).as_bytes(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).as_bytes(),
        DataType::Utf8View => column.as_string_view().value(row).as_bytes(),
        DataType::Binary => column.as_binary::<i32>().value(row),
        DataType::LargeBinary => column.as_binary::<i64>().value(row),
        DataType::BinaryView => column.as_binary_view().value(row),
        _ => return None,
    })
}

fn check_type(
    batch: &RecordBatch,
    name: &'static str,
    binary: bool,
    required: bool,
) -> Result<Option<ArrayRef>, BatchError> {
    let Some(column) = batch.column_by_name(name) else {
        return if required {
            Err(BatchError::MissingColumn {
                column: name,
                expected: SURVEY_COLUMNS,
            })
        } else {
            Ok(None)
        };
    };
    let text = matches!(
        column.data_type(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    );
    let bytes = matches!(
        column.data_type(),
        DataType::Binary | DataType::LargeBinary | DataType::BinaryView
    );
    if text || (binary && bytes) || *column.data_type() == DataType::Null {
        Ok(Some(column.clone()))
    } else {
        Err(BatchError::WrongType {
            column: name,
            found: column.data_type().clone(),
            expected: if binary { "binary or string" } else { "string" },
        })
    }
}

/// The status of a row, from an integer column.
fn status_at(column: &ArrayRef, row: usize) -> Option<i64> {
    if column.is_null(row) {
        return None;
    }
    match column.data_type() {
        DataType::Int16 => Some(i64::from(column.as_primitive::<Int16Type>().value(row))),
        DataType::Int32 => Some(i64::from(column.as_primitive::<Int32Type>().value(row))),
        DataType::Int64 => Some(column.as_primitive::<Int64Type>().value(row)),
        _ => None,
    }
}

fn text_at(column: Option<&ArrayRef>, row: usize) -> Option<String> {
    column
        .and_then(|c| bytes_at(c, row))
        .map(|b| String::from_utf8_lossy(b).into_owned())
}

/// The capture of one row.
fn capture(columns: &Columns, row: usize) -> Capture {
    let source = text_at(columns.source.as_ref(), row).unwrap_or_else(|| format!("row {row}"));
    let host = match text_at(Some(&columns.host), row).map(|h| checked_host(&h)) {
        Some(Ok(host)) => host,
        Some(Err(why)) => return Capture::error(None, source, why),
        None => return Capture::error(None, source, "no host"),
    };
    let Some(body) = bytes_at(&columns.body, row) else {
        return Capture::error(Some(host), source, "no robots_txt");
    };
    let size = body.len() as u64;
    let body = body[..body.len().min(BODY_LIMIT)].to_vec();
    let status = columns.status.as_ref().and_then(|c| status_at(c, row));
    let payload = match status {
        None => Payload::File { body, size },
        Some(status) => match u16::try_from(status) {
            Ok(status) => {
                let mut response = HttpResponse::new(status).with_body(body);
                response.content_type = text_at(columns.content_type.as_ref(), row);
                Payload::Http {
                    response,
                    size,
                    location: None,
                }
            }
            Err(_) => Payload::Error(format!("status {status} is not an HTTP status")),
        },
    };
    Capture::new(Some(host), source, payload)
}

struct Columns {
    host: ArrayRef,
    body: ArrayRef,
    status: Option<ArrayRef>,
    content_type: Option<ArrayRef>,
    source: Option<ArrayRef>,
}

/// Classifies every row of `batch` (see the [module](self) for its
/// columns); returns the survey's rows, in order, in its
/// [schema](crate::output::schema).
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, BinaryArray, Int32Array, RecordBatch, StringArray};
/// use arrow_array::cast::AsArray;
/// use crawlgate_survey::{batch::survey_batch, CrawlerSet, Survey};
///
/// let input = RecordBatch::try_from_iter([
///     ("host", Arc::new(StringArray::from(vec!["a.example", "b.example"])) as ArrayRef),
///     ("robots_txt", Arc::new(BinaryArray::from(vec![&b"User-agent: GPTBot\nDisallow: /\n"[..], b""])) as ArrayRef),
///     ("status", Arc::new(Int32Array::from(vec![Some(200), Some(503)])) as ArrayRef),
/// ])?;
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot"])?);
/// let rows = survey_batch(&input, &survey)?;
/// let causes = rows.column_by_name("cause_gptbot").unwrap().as_string::<i32>();
/// assert_eq!((causes.value(0), causes.value(1)), ("blocked_by_name", "unreachable"));
/// let outcomes = rows.column_by_name("outcome").unwrap().as_string::<i32>();
/// assert_eq!(outcomes.value(1), "full_disallow");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn survey_batch(batch: &RecordBatch, survey: &Survey) -> Result<RecordBatch, BatchError> {
    let host = check_type(batch, "host", false, true)?.expect("required");
    let body = check_type(batch, "robots_txt", true, true)?.expect("required");
    let status = match batch.column_by_name("status") {
        Some(c)
            if matches!(
                c.data_type(),
                DataType::Int16 | DataType::Int32 | DataType::Int64 | DataType::Null
            ) =>
        {
            Some(c.clone())
        }
        Some(c) => {
            return Err(BatchError::WrongType {
                column: "status",
                found: c.data_type().clone(),
                expected: "an integer",
            })
        }
        None => None,
    };
    let columns = Columns {
        host,
        body,
        status,
        content_type: check_type(batch, "content_type", false, false)?,
        source: check_type(batch, "source", false, false)?,
    };
    let rows: Vec<_> = (0..batch.num_rows())
        .into_par_iter()
        .map(|row| survey.observe(capture(&columns, row)))
        .collect();
    record_batch(&rows, &table_schema(survey)).map_err(BatchError::Arrow)
}

/// Reads `inputs` as `crawlgate survey` does (streaming, on one thread,
/// while the sites are classified on every core) and hands the rows to
/// `emit` as record batches in the survey's [schema](crate::output::schema),
/// in input order, at most [`CHUNK_SITES`](crate::CHUNK_SITES) rows each;
/// stops early when `emit` returns an error, and returns it.
///
/// ```
/// use crawlgate_survey::{batch::survey_inputs, input::Input, CrawlerSet, Survey};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.example"), "User-agent: *\nDisallow: /\n")?;
/// let survey = Survey::new(CrawlerSet::from_tokens(["GPTBot"])?);
/// let mut rows = 0;
/// survey_inputs(&[Input::Folder(dir.path().to_owned())], &survey, &mut |batch| {
///     rows += batch.num_rows();
///     Ok::<_, crawlgate_survey::batch::BatchError>(())
/// })?;
/// assert_eq!(rows, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn survey_inputs<E: From<BatchError>>(
    inputs: &[Input],
    survey: &Survey,
    emit: &mut dyn FnMut(RecordBatch) -> Result<(), E>,
) -> Result<(), E> {
    let table_schema = table_schema(survey);
    std::thread::scope(|scope| {
        let (sender, receiver) = std::sync::mpsc::sync_channel(2);
        scope.spawn(move || read_inputs(inputs, Position::default(), &sender));
        // Returning early drops the receiver, which stops the reader.
        for chunk in receiver {
            let captures: Vec<Capture> = chunk
                .entries
                .into_iter()
                .filter_map(|entry| match entry.item {
                    Item::Capture(capture) => Some(capture),
                    Item::Skipped(_) => None,
                })
                .collect();
            let rows: Vec<_> = captures
                .into_par_iter()
                .map(|capture| survey.observe(capture))
                .collect();
            let batch =
                record_batch(&rows, &table_schema).map_err(|e| E::from(BatchError::Arrow(e)))?;
            emit(batch)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use arrow_array::{Int64Array, LargeStringArray, StringArray};

    use crate::crawlers::CrawlerSet;

    fn survey() -> Survey {
        Survey::new(CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap())
    }

    #[test]
    fn text_bodies_sources_and_error_rows() {
        let input = RecordBatch::try_from_iter([
            (
                "host",
                Arc::new(StringArray::from(vec![
                    Some("a.example"),
                    None,
                    Some("bad host"),
                    Some("c.example"),
                ])) as ArrayRef,
            ),
            (
                "robots_txt",
                Arc::new(LargeStringArray::from(vec![
                    Some("User-agent: *\nDisallow: /\n"),
                    Some(""),
                    Some(""),
                    None,
                ])) as ArrayRef,
            ),
            (
                "status",
                Arc::new(Int64Array::from(vec![None, None, None, Some(70_000)])) as ArrayRef,
            ),
            (
                "source",
                Arc::new(StringArray::from(vec!["w@1", "w@2", "w@3", "w@4"])) as ArrayRef,
            ),
        ])
        .unwrap();
        let rows = survey_batch(&input, &survey()).unwrap();
        assert_eq!(rows.num_rows(), 4);
        let text = |name| {
            rows.column_by_name(name)
                .unwrap()
                .as_string::<i32>()
                .clone()
        };
        assert_eq!(text("cause_star").value(0), "blocked_by_star");
        assert!(rows.column_by_name("status").unwrap().is_null(0));
        let (errors, sources) = (text("error"), text("source"));
        assert!(errors.is_null(0));
        assert_eq!(errors.value(1), "no host");
        assert!(errors.value(2).starts_with("not a host name"));
        assert_eq!(errors.value(3), "no robots_txt");
        assert_eq!(sources.value(3), "w@4");
    }

    #[test]
    fn inputs_give_the_rows_of_their_captures_and_an_emit_error_stops_reading() {
        let dir = tempfile::tempdir().unwrap();
        let bodies = [
            ("a.example", "User-agent: GPTBot\nDisallow: /\n"),
            ("b.example", "User-agent: *\nDisallow: /private\n"),
            ("c.example", ""),
        ];
        for (host, body) in bodies {
            std::fs::write(dir.path().join(host), body).unwrap();
        }
        let input = [Input::Folder(dir.path().to_owned())];
        let mut batches = Vec::new();
        survey_inputs(&input, &survey(), &mut |b| {
            batches.push(b);
            Ok::<_, BatchError>(())
        })
        .unwrap();
        let given = RecordBatch::try_from_iter([
            (
                "host",
                Arc::new(StringArray::from(bodies.map(|(h, _)| h).to_vec())) as ArrayRef,
            ),
            (
                "robots_txt",
                Arc::new(StringArray::from(bodies.map(|(_, b)| b).to_vec())) as ArrayRef,
            ),
        ])
        .unwrap();
        let facts = |batches: &[RecordBatch]| {
            let mut facts = Vec::new();
            for b in batches {
                let text = |name: &str| b.column_by_name(name).unwrap().as_string::<i32>().clone();
                let (host, gptbot, star, outcome) = (
                    text("host"),
                    text("cause_gptbot"),
                    text("cause_star"),
                    text("outcome"),
                );
                for i in 0..b.num_rows() {
                    facts.push(
                        [
                            host.value(i),
                            gptbot.value(i),
                            star.value(i),
                            outcome.value(i),
                        ]
                        .map(str::to_owned),
                    );
                }
            }
            facts.sort();
            facts
        };
        let read = facts(&batches);
        assert_eq!(read.len(), 3);
        assert_eq!(read, facts(&[survey_batch(&given, &survey()).unwrap()]));
        let mut calls = 0;
        let stopped = survey_inputs(&input, &survey(), &mut |_| {
            calls += 1;
            Err(BatchError::TooLarge)
        });
        assert!(matches!(stopped, Err(BatchError::TooLarge)));
        assert_eq!(calls, 1);
    }

    #[test]
    fn missing_and_mistyped_columns_are_errors() {
        let no_body = RecordBatch::try_from_iter([(
            "host",
            Arc::new(StringArray::from(vec!["a"])) as ArrayRef,
        )])
        .unwrap();
        assert!(matches!(
            survey_batch(&no_body, &survey()),
            Err(BatchError::MissingColumn {
                column: "robots_txt",
                ..
            })
        ));
        let typed = RecordBatch::try_from_iter([
            ("host", Arc::new(StringArray::from(vec!["a"])) as ArrayRef),
            (
                "robots_txt",
                Arc::new(StringArray::from(vec![""])) as ArrayRef,
            ),
            (
                "status",
                Arc::new(StringArray::from(vec!["200"])) as ArrayRef,
            ),
        ])
        .unwrap();
        let error = survey_batch(&typed, &survey()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "column `status` is Utf8, expected an integer"
        );
    }
}
