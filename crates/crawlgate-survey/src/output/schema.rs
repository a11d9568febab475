//! The survey table as Arrow: one schema for Parquet, CSV and JSON lines
//! (and for Python and Spark), and rows turned into record batches.
//!
//! Only types every reader has (no unsigned integers, no dictionaries, no
//! maps), so Spark writes the same schema from Python.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::crawlers::CrawlerSet;
use crate::findings::{self, LintCounts};
use crate::row::{outcome_word, reason_word, SiteRow};

/// The version of the table's layout, kept in the schema's metadata.
pub const SCHEMA_VERSION: &str = "1";

/// Metadata key: the layout version.
pub const META_VERSION: &str = "crawlgate.survey.version";
/// Metadata key: the crawlers, as a JSON array of `{token, column}`.
pub const META_CRAWLERS: &str = "crawlgate.survey.crawlers";
/// Metadata key: the crawler table's version.
pub const META_TABLE: &str = "crawlgate.crawler_table";

/// The columns before the lint counts, with their types.
const LEADING: [(&str, DataType); 19] = [
    ("host", DataType::Utf8),
    ("source", DataType::Utf8),
    ("error", DataType::Utf8),
    ("status", DataType::Int32),
    ("outcome", DataType::Utf8),
    ("reason", DataType::Utf8),
    ("content_type", DataType::Utf8),
    ("location", DataType::Utf8),
    ("size", DataType::Int64),
    ("over_limit", DataType::Boolean),
    ("html", DataType::Boolean),
    ("groups", DataType::Int32),
    ("sitemaps", DataType::Int32),
    ("crawl_delay", DataType::Float64),
    ("content_usage", DataType::Utf8),
    ("content_signal", DataType::Utf8),
    ("lint_errors", DataType::Int32),
    ("lint_warnings", DataType::Int32),
    ("lint_infos", DataType::Int32),
];

/// The table's schema for a set of crawlers: the site's columns, one
/// `lint_rNNN` count per lint code, then `class_X` and `line_X` per
/// crawler. Every column is nullable except `source`.
///
/// ```
/// use crawlgate_survey::{output::schema, CrawlerSet};
/// let schema = schema(&CrawlerSet::from_tokens(["GPTBot"]).unwrap());
/// let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(&names[..3], ["host", "source", "error"]);
/// assert!(names.contains(&"lint_r017"));
/// assert_eq!(&names[names.len() - 2..], ["class_gptbot", "line_gptbot"]);
/// ```
pub fn schema(crawlers: &CrawlerSet) -> SchemaRef {
    let mut fields: Vec<Field> = LEADING
        .iter()
        .map(|(name, kind)| Field::new(*name, kind.clone(), *name != "source"))
        .collect();
    fields.extend(
        findings::codes()
            .iter()
            .map(|code| Field::new(findings::column(*code), DataType::Int32, true)),
    );
    for crawler in crawlers.iter() {
        fields.push(Field::new(crawler.class_column(), DataType::Utf8, true));
        fields.push(Field::new(crawler.line_column(), DataType::Int32, true));
    }
    let listed: Vec<serde_json::Value> = crawlers
        .iter()
        .map(|c| serde_json::json!({"token": c.token, "column": c.column}))
        .collect();
    let metadata = HashMap::from([
        (META_VERSION.to_owned(), SCHEMA_VERSION.to_owned()),
        (
            META_CRAWLERS.to_owned(),
            serde_json::Value::Array(listed).to_string(),
        ),
        (
            META_TABLE.to_owned(),
            crawlgate_lint::audit::table_version().to_owned(),
        ),
    ]);
    Arc::new(Schema::new_with_metadata(fields, metadata))
}

fn int32(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// The rows as one record batch of [`schema`] (`crawlers` must be the
/// survey's).
pub fn record_batch(
    rows: &[SiteRow],
    crawlers: &CrawlerSet,
    schema: &SchemaRef,
) -> Result<RecordBatch, ArrowError> {
    let n = rows.len();
    let text = |get: &dyn Fn(&SiteRow) -> Option<&str>| -> ArrayRef {
        let mut b = StringBuilder::with_capacity(n, n * 8);
        for row in rows {
            b.append_option(get(row));
        }
        Arc::new(b.finish())
    };
    let int = |get: &dyn Fn(&SiteRow) -> Option<i32>| -> ArrayRef {
        let mut b = Int32Builder::with_capacity(n);
        for row in rows {
            b.append_option(get(row));
        }
        Arc::new(b.finish())
    };
    let boolean = |get: &dyn Fn(&SiteRow) -> Option<bool>| -> ArrayRef {
        let mut b = BooleanBuilder::with_capacity(n);
        for row in rows {
            b.append_option(get(row));
        }
        Arc::new(b.finish())
    };
    let lint = |get: &dyn Fn(&LintCounts) -> u32| -> ArrayRef {
        int(&|r| r.lint.as_ref().map(|l| int32(get(l))))
    };
    let mut size = Int64Builder::with_capacity(n);
    let mut delay = Float64Builder::with_capacity(n);
    for row in rows {
        size.append_option(row.size.map(|s| i64::try_from(s).unwrap_or(i64::MAX)));
        delay.append_option(row.crawl_delay);
    }
    let mut columns: Vec<ArrayRef> = vec![
        text(&|r| r.host.as_deref()),
        text(&|r| Some(r.source.as_str())),
        text(&|r| r.error.as_deref()),
        int(&|r| r.status.map(i32::from)),
        text(&|r| r.outcome.map(outcome_word)),
        {
            let words: Vec<Option<String>> =
                rows.iter().map(|r| r.reason.map(reason_word)).collect();
            let mut b = StringBuilder::with_capacity(n, n * 8);
            for word in &words {
                b.append_option(word.as_deref());
            }
            Arc::new(b.finish())
        },
        text(&|r| r.content_type.as_deref()),
        text(&|r| r.location.as_deref()),
        Arc::new(size.finish()),
        boolean(&|r| r.over_limit),
        boolean(&|r| r.html),
        int(&|r| r.groups.map(int32)),
        int(&|r| r.sitemaps.map(int32)),
        Arc::new(delay.finish()),
        text(&|r| r.content_usage.as_deref()),
        text(&|r| r.content_signal.as_deref()),
        lint(&|l| l.errors),
        lint(&|l| l.warnings),
        lint(&|l| l.infos),
    ];
    for i in 0..findings::codes().len() {
        columns.push(lint(&|l| l.by_code.get(i).copied().unwrap_or(0)));
    }
    for i in 0..crawlers.len() {
        columns.push(text(&|r| r.crawlers.get(i).map(|c| c.class.as_str())));
        columns.push(int(&|r| r.crawlers.get(i).and_then(|c| c.line).map(int32)));
    }
    RecordBatch::try_new(schema.clone(), columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{Class, Classification};
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int32Type;
    use arrow_array::Array;

    #[test]
    fn rows_fill_every_column_and_error_rows_leave_nulls() {
        let crawlers = CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap();
        let schema = schema(&crawlers);
        let good = SiteRow {
            host: Some("a.example".into()),
            source: "a".into(),
            status: Some(200),
            lint: Some(LintCounts {
                errors: 1,
                by_code: {
                    let mut v = vec![0; findings::codes().len()];
                    v[0] = 1;
                    v
                },
                ..LintCounts::default()
            }),
            crawlers: vec![
                Classification {
                    class: Class::Blocked,
                    line: Some(2),
                },
                Classification {
                    class: Class::Unmentioned,
                    line: None,
                },
            ],
            ..SiteRow::default()
        };
        let bad = SiteRow::error(None, "b".into(), "broken".into());
        let batch = record_batch(&[good, bad], &crawlers, &schema).unwrap();
        assert_eq!(batch.num_rows(), 2);
        let class = batch
            .column_by_name("class_gptbot")
            .unwrap()
            .as_string::<i32>();
        assert_eq!((class.value(0), class.is_null(1)), ("blocked", true));
        let line = batch
            .column_by_name("line_gptbot")
            .unwrap()
            .as_primitive::<Int32Type>();
        assert_eq!((line.value(0), line.is_null(1)), (2, true));
        let first_code = findings::column(findings::codes()[0]);
        let count = batch
            .column_by_name(&first_code)
            .unwrap()
            .as_primitive::<Int32Type>();
        assert_eq!((count.value(0), count.is_null(1)), (1, true));
        let error = batch.column_by_name("error").unwrap().as_string::<i32>();
        assert_eq!(error.value(1), "broken");
        assert_eq!(
            schema.metadata()[META_CRAWLERS],
            r#"[{"column":"gptbot","token":"GPTBot"},{"column":"star","token":"*"}]"#
        );
    }
}
