//! The survey table as Arrow: one schema for Parquet, CSV and JSON lines
//! (and for Python and Spark), rows turned into record batches, and record
//! batches (written by a survey, or by Spark with its schema) read back
//! into rows.
//!
//! Only types every reader has (no unsigned integers, no dictionaries, no
//! maps), so Spark writes the same schema from Python. The columns, in
//! order (every one nullable but `source` and `captures`):
//!
//! | column | type | what |
//! |---|---|---|
//! | `host` | text | the site (lowercase, punycode, `:port` when not the default) |
//! | `source` | text | where the row came from: `file`, `file:line`, `file@offset`, URL |
//! | `offset` | int64 | the byte offset of its WARC record (or gzip member) or table line |
//! | `error` | text | why the input gave no answer: the row is an error row |
//! | `url` | text | the URL captured |
//! | `captured` | text | when (`WARC-Date`, or the time of a live fetch) |
//! | `captures` | int32 | captures of this host in the input (the row is the latest) |
//! | `status` | int32 | the HTTP status of this capture |
//! | `fetch_class` | text | that status as Common Crawl classifies it ([`FetchClass`](crate::taxonomy::FetchClass)) |
//! | `cc_class` | text | the host as Common Crawl's statistics count it ([`HostClass`](crate::taxonomy::HostClass)) |
//! | `outcome` | text | `full_allow`, `full_disallow` or `conditional`, for the capture that answered |
//! | `reason` | text | why (`fetched`, `not_found`, `server_error`, `redirects_not_followed`) |
//! | `content_type`, `payload_type` | text | the answering body's `Content-Type` and identified type |
//! | `location` | text | the `Location` of a redirect |
//! | `followed` | text | the URL of the capture that answered, when a redirect was followed |
//! | `size` | int64 | body bytes; `over_limit`: over 500 KiB; `html`: HTML served |
//! | `groups`, `rules`, `sitemaps` | int32 | counts in the file |
//! | `crawl_delay`, `content_usage`, `content_signal` | | what the `*` groups say |
//! | `licenses` | int32 | `License:` lines (RSL 1.0) in the file |
//! | `sc_valid`, `sc_unused`, `sc_unknown` | int32 | Search Console's counts: valid directives, unused directives (unknown keys included, as Google counts them), unknown lines ([`crawlgate::SearchConsoleReport`]) |
//! | `lint_errors`, `lint_warnings`, `lint_infos`, `lint_rNNN` | int32 | the linter's findings |
//!
//! then, per crawler `X` (its [column stem](crate::SurveyedCrawler::column)):
//! `root_X` (`allowed` / `disallowed`: may it fetch `/`, as it would act;
//! null when the input gives no answer), `cause_X` (a
//! [`Cause`](crate::verdict::Cause)), `group_X` (`named`, `fallback`,
//! `star`, `none`), `line_X` (the line deciding `/`), `path_X_N`
//! (`allowed` / `disallowed` for the Nth `--path`), `prefs_X` and
//! `prefs_X_N` (the AI-use preferences X is given for `/` and the Nth
//! `--path`: the JSON of `crawlgate check --json`'s `preferences`, null
//! when none applies; see [`preferences`](crate::preferences)).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
};
#[cfg(feature = "files")]
use arrow_array::{
    cast::AsArray,
    types::{Float64Type, Int64Type},
    Array,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

use crate::crawlers::CrawlerSet;
use crate::findings::{self, LintCounts};
#[cfg(feature = "files")]
use crate::row::{outcome_of_word, reason_of_word};
use crate::row::{outcome_word, reason_word, SiteRow};
use crate::taxonomy::{FetchClass, HostClass};
use crate::verdict::{Cause, CrawlerVerdict, GroupKind};

/// The version of the table's layout, kept in the schema's metadata.
pub const SCHEMA_VERSION: &str = "3";

/// Metadata key: the layout version.
pub const META_VERSION: &str = "crawlgate.survey.version";
/// Metadata key: the crawlers, as a JSON array of `{token, column}`.
pub const META_CRAWLERS: &str = "crawlgate.survey.crawlers";
/// Metadata key: the paths asked about, as a JSON array.
pub const META_PATHS: &str = "crawlgate.survey.paths";
/// Metadata key: the reading (profile) files were parsed with.
pub const META_PROFILE: &str = "crawlgate.survey.profile";
/// Metadata key: the crawler table's version.
pub const META_TABLE: &str = "crawlgate.crawler_table";

/// The columns before the lint codes' counts, with their types.
const LEADING: [(&str, DataType); 32] = [
    ("host", DataType::Utf8),
    ("source", DataType::Utf8),
    ("offset", DataType::Int64),
    ("error", DataType::Utf8),
    ("url", DataType::Utf8),
    ("captured", DataType::Utf8),
    ("captures", DataType::Int32),
    ("status", DataType::Int32),
    ("fetch_class", DataType::Utf8),
    ("cc_class", DataType::Utf8),
    ("outcome", DataType::Utf8),
    ("reason", DataType::Utf8),
    ("content_type", DataType::Utf8),
    ("payload_type", DataType::Utf8),
    ("location", DataType::Utf8),
    ("followed", DataType::Utf8),
    ("size", DataType::Int64),
    ("over_limit", DataType::Boolean),
    ("html", DataType::Boolean),
    ("groups", DataType::Int32),
    ("rules", DataType::Int32),
    ("sitemaps", DataType::Int32),
    ("crawl_delay", DataType::Float64),
    ("content_usage", DataType::Utf8),
    ("content_signal", DataType::Utf8),
    ("licenses", DataType::Int32),
    ("sc_valid", DataType::Int32),
    ("sc_unused", DataType::Int32),
    ("sc_unknown", DataType::Int32),
    ("lint_errors", DataType::Int32),
    ("lint_warnings", DataType::Int32),
    ("lint_infos", DataType::Int32),
];

#[cfg(feature = "files")]
/// What a survey's table holds besides the site columns: its crawlers and
/// paths, and the reading it was made under, when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The crawlers, in column order.
    pub crawlers: CrawlerSet,
    /// The paths asked about besides `/` (`path 1` … when a table does not
    /// say).
    pub paths: Vec<String>,
    /// The profile, when the table says.
    pub profile: Option<String>,
}

/// The word of a verdict (`allowed` / `disallowed`).
pub fn verdict_word(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// The table's schema for a set of crawlers and paths: the site columns,
/// one `lint_rNNN` count per lint code, then each crawler's columns.
///
/// ```
/// use crawlgate_survey::{output::schema, CrawlerSet};
/// let schema = schema(&CrawlerSet::from_tokens(["GPTBot"]).unwrap(), &["/news/".to_owned()], "google");
/// let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
/// assert_eq!(&names[..4], ["host", "source", "offset", "error"]);
/// assert!(names.contains(&"lint_r017"));
/// assert_eq!(
///     &names[names.len() - 7..],
///     ["root_gptbot", "cause_gptbot", "group_gptbot", "line_gptbot", "path_gptbot_1", "prefs_gptbot", "prefs_gptbot_1"]
/// );
/// ```
pub fn schema(crawlers: &CrawlerSet, paths: &[String], profile: &str) -> SchemaRef {
    let mut fields: Vec<Field> = LEADING
        .iter()
        .map(|(name, kind)| {
            Field::new(*name, kind.clone(), !matches!(*name, "source" | "captures"))
        })
        .collect();
    fields.extend(
        findings::codes()
            .iter()
            .map(|code| Field::new(findings::column(*code), DataType::Int32, true)),
    );
    for crawler in crawlers.iter() {
        fields.push(Field::new(crawler.root_column(), DataType::Utf8, true));
        fields.push(Field::new(crawler.cause_column(), DataType::Utf8, true));
        fields.push(Field::new(crawler.group_column(), DataType::Utf8, true));
        fields.push(Field::new(crawler.line_column(), DataType::Int32, true));
        for n in 1..=paths.len() {
            fields.push(Field::new(crawler.path_column(n), DataType::Utf8, true));
        }
        fields.push(Field::new(crawler.prefs_column(), DataType::Utf8, true));
        for n in 1..=paths.len() {
            fields.push(Field::new(
                crawler.path_prefs_column(n),
                DataType::Utf8,
                true,
            ));
        }
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
            META_PATHS.to_owned(),
            serde_json::to_string(paths).unwrap_or_default(),
        ),
        (META_PROFILE.to_owned(), profile.to_owned()),
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

fn int64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The rows as one record batch of `schema` (made by [`schema`] for the
/// rows' crawlers and paths).
pub fn record_batch(rows: &[SiteRow], schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    let refs: Vec<&SiteRow> = rows.iter().collect();
    record_batch_of(&refs, schema)
}

/// [`record_batch`] of rows held elsewhere.
fn record_batch_of(rows: &[&SiteRow], schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
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
    let long = |get: &dyn Fn(&SiteRow) -> Option<i64>| -> ArrayRef {
        let mut b = Int64Builder::with_capacity(n);
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
    let mut delay = Float64Builder::with_capacity(n);
    for row in rows {
        delay.append_option(row.crawl_delay);
    }
    let reasons: Vec<Option<String>> = rows.iter().map(|r| r.reason.map(reason_word)).collect();
    let mut columns: Vec<ArrayRef> = vec![
        text(&|r| r.host.as_deref()),
        text(&|r| Some(r.source.as_str())),
        long(&|r| r.offset.map(int64)),
        text(&|r| r.error.as_deref()),
        text(&|r| r.url.as_deref()),
        text(&|r| r.captured.as_deref()),
        int(&|r| Some(int32(r.captures))),
        int(&|r| r.status.map(i32::from)),
        text(&|r| r.fetch_class.map(FetchClass::as_str)),
        text(&|r| r.cc_class.map(HostClass::as_str)),
        text(&|r| r.outcome.map(outcome_word)),
        {
            let mut b = StringBuilder::with_capacity(n, n * 8);
            for word in &reasons {
                b.append_option(word.as_deref());
            }
            Arc::new(b.finish())
        },
        text(&|r| r.content_type.as_deref()),
        text(&|r| r.payload_type.as_deref()),
        text(&|r| r.location.as_deref()),
        text(&|r| r.followed.as_deref()),
        long(&|r| r.size.map(int64)),
        boolean(&|r| r.over_limit),
        boolean(&|r| r.html),
        int(&|r| r.groups.map(int32)),
        int(&|r| r.rules.map(int32)),
        int(&|r| r.sitemaps.map(int32)),
        Arc::new(delay.finish()),
        text(&|r| r.content_usage.as_deref()),
        text(&|r| r.content_signal.as_deref()),
        int(&|r| r.licenses.map(int32)),
        int(&|r| r.sc_valid.map(int32)),
        int(&|r| r.sc_unused.map(int32)),
        int(&|r| r.sc_unknown.map(int32)),
        lint(&|l| l.errors),
        lint(&|l| l.warnings),
        lint(&|l| l.infos),
    ];
    for i in 0..findings::codes().len() {
        columns.push(lint(&|l| l.by_code.get(i).copied().unwrap_or(0)));
    }
    let crawlers = crawler_count(schema);
    let paths = schema
        .fields()
        .iter()
        .filter(|f| f.name().starts_with("path_"))
        .count()
        / crawlers.max(1);
    // Row by row, each row's verdicts in turn: a row's verdicts lie side by
    // side, where a pass over every row per column read each row's
    // verdicts once per column (800 of them) from far apart.
    let mut verdicts: Vec<VerdictColumns> = (0..crawlers)
        .map(|_| VerdictColumns::new(n, paths))
        .collect();
    for row in rows {
        for (i, columns) in verdicts.iter_mut().enumerate() {
            columns.append(row.crawlers.get(i));
        }
    }
    for crawler in verdicts {
        crawler.finish_into(&mut columns);
    }
    RecordBatch::try_new(schema.clone(), columns)
}

/// The columns of one crawler's verdicts, being built: `root_X`,
/// `cause_X`, `group_X`, `line_X`, `path_X_N`, `prefs_X`, `prefs_X_N`.
struct VerdictColumns {
    root: StringBuilder,
    cause: StringBuilder,
    group: StringBuilder,
    line: Int32Builder,
    paths: Vec<StringBuilder>,
    prefs: StringBuilder,
    path_prefs: Vec<StringBuilder>,
}

impl VerdictColumns {
    /// Room for `rows` rows and `paths` paths.
    fn new(rows: usize, paths: usize) -> VerdictColumns {
        let text = || StringBuilder::with_capacity(rows, rows * 8);
        VerdictColumns {
            root: text(),
            cause: text(),
            group: text(),
            line: Int32Builder::with_capacity(rows),
            paths: (0..paths).map(|_| text()).collect(),
            prefs: text(),
            path_prefs: (0..paths).map(|_| text()).collect(),
        }
    }

    /// A row's verdict (None: the row has none for this crawler).
    fn append(&mut self, verdict: Option<&CrawlerVerdict>) {
        self.root
            .append_option(verdict.and_then(|c| c.root).map(verdict_word));
        self.cause
            .append_option(verdict.and_then(|c| c.cause).map(Cause::as_str));
        self.group
            .append_option(verdict.and_then(|c| c.group).map(GroupKind::as_str));
        self.line
            .append_option(verdict.and_then(|c| c.line).map(int32));
        for (p, column) in self.paths.iter_mut().enumerate() {
            column.append_option(
                verdict
                    .and_then(|c| c.paths.get(p))
                    .copied()
                    .map(verdict_word),
            );
        }
        self.prefs
            .append_option(verdict.and_then(|c| c.prefs.as_deref()));
        for (p, column) in self.path_prefs.iter_mut().enumerate() {
            column.append_option(
                verdict
                    .and_then(|c| c.path_prefs.get(p))
                    .and_then(|v| v.as_deref()),
            );
        }
    }

    /// The columns, in the schema's order.
    fn finish_into(mut self, columns: &mut Vec<ArrayRef>) {
        columns.push(Arc::new(self.root.finish()));
        columns.push(Arc::new(self.cause.finish()));
        columns.push(Arc::new(self.group.finish()));
        columns.push(Arc::new(self.line.finish()));
        for mut path in self.paths {
            columns.push(Arc::new(path.finish()));
        }
        columns.push(Arc::new(self.prefs.finish()));
        for mut prefs in self.path_prefs {
            columns.push(Arc::new(prefs.finish()));
        }
    }
}

#[cfg(feature = "files")]
/// The crawlers' columns of verdict words in a table with this module's
/// layout: `root_X`, `cause_X`, `group_X` and `path_X_N`.
///
/// A Parquet table keeps no statistics for them. Their few words
/// (`allowed`, `disallowed`, `star` …) give every row group of 65,536
/// sites, and every page, the same minimum and maximum, which lets a
/// reader skip none, while finding them costs two comparisons a value:
/// about 4% of a survey of the corpus WARC (docs/survey.md). The
/// preference columns (`prefs_X`) keep theirs: most sites have none, so
/// their null counts can skip whole pages.
pub(crate) fn verdict_word_columns(schema: &Schema) -> impl Iterator<Item = &str> {
    let site_columns = LEADING.len() + findings::codes().len();
    schema
        .fields()
        .iter()
        .skip(site_columns)
        .filter(|f| f.data_type() == &DataType::Utf8 && !f.name().starts_with("prefs_"))
        .map(|f| f.name().as_str())
}

/// The crawlers of a schema: its `cause_*` columns.
fn crawler_count(schema: &Schema) -> usize {
    schema
        .fields()
        .iter()
        .filter(|f| f.name().starts_with("cause_"))
        .count()
}

#[cfg(feature = "files")]
impl Layout {
    /// The layout of a table's schema: its crawlers (from its `cause_X`
    /// columns, named by the schema's metadata when it has any), its
    /// paths, its profile.
    pub fn of(schema: &Schema) -> Result<Layout, String> {
        if schema.index_of("host").is_err() || schema.index_of("source").is_err() {
            return Err("no `host` and `source` columns: not a survey table".to_owned());
        }
        let stems: Vec<String> = schema
            .fields()
            .iter()
            .filter_map(|f| f.name().strip_prefix("cause_").map(str::to_owned))
            .collect();
        if stems.is_empty() {
            return Err(
                "no `cause_X` column: not a survey table of this version (made before crawlgate 0.2?)"
                    .to_owned(),
            );
        }
        let metadata = schema.metadata();
        let tokens: Vec<(String, String)> = metadata
            .get(META_CRAWLERS)
            .and_then(|json| serde_json::from_str::<Vec<serde_json::Value>>(json).ok())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| {
                Some((
                    v.get("token")?.as_str()?.to_owned(),
                    v.get("column")?.as_str()?.to_owned(),
                ))
            })
            .collect();
        let first = &stems[0];
        let count = (1..)
            .take_while(|n| schema.index_of(&format!("path_{first}_{n}")).is_ok())
            .count();
        let paths = metadata
            .get(META_PATHS)
            .and_then(|json| serde_json::from_str::<Vec<String>>(json).ok())
            .filter(|paths| paths.len() == count)
            .unwrap_or_else(|| (1..=count).map(|n| format!("path {n}")).collect());
        Ok(Layout {
            crawlers: CrawlerSet::from_columns(&stems, &tokens),
            paths,
            profile: metadata.get(META_PROFILE).cloned(),
        })
    }

    /// The schema of a table of this layout.
    pub fn schema(&self) -> SchemaRef {
        schema(
            &self.crawlers,
            &self.paths,
            self.profile.as_deref().unwrap_or(""),
        )
    }
}

#[cfg(feature = "files")]
/// A column of a batch, by name (through `index`, the batch's columns by
/// name), cast to `kind` (Spark may write large strings, string views or
/// 64-bit integers).
fn column(
    batch: &RecordBatch,
    index: &HashMap<&str, usize>,
    name: &str,
    kind: &DataType,
) -> Result<Option<ArrayRef>, String> {
    let Some(array) = index.get(name).map(|&i| batch.column(i)) else {
        return Ok(None);
    };
    if array.data_type() == kind {
        return Ok(Some(array.clone()));
    }
    arrow_cast::cast(array, kind)
        .map(Some)
        .map_err(|e| format!("column `{name}` is {}: {e}", array.data_type()))
}

#[cfg(feature = "files")]
/// Values of one text column.
struct Texts(Option<ArrayRef>);

#[cfg(feature = "files")]
impl Texts {
    fn get(&self, row: usize) -> Option<&str> {
        let array = self.0.as_ref()?;
        (!array.is_null(row)).then(|| array.as_string::<i32>().value(row))
    }

    fn owned(&self, row: usize) -> Option<String> {
        self.get(row).map(str::to_owned)
    }
}

#[cfg(feature = "files")]
/// Values of one integer column (read as 64 bits).
struct Ints(Option<ArrayRef>);

#[cfg(feature = "files")]
impl Ints {
    fn get(&self, row: usize) -> Option<i64> {
        let array = self.0.as_ref()?;
        (!array.is_null(row)).then(|| array.as_primitive::<Int64Type>().value(row))
    }

    fn u32(&self, row: usize) -> Option<u32> {
        self.get(row)
            .map(|v| u32::try_from(v.max(0)).unwrap_or(u32::MAX))
    }
}

#[cfg(feature = "files")]
/// The rows of a batch with `layout`'s columns (written by a survey, or by
/// Spark with its schema): the inverse of [`record_batch`]. A value that
/// is not a word of its column is an error.
pub fn rows_of_batch(batch: &RecordBatch, layout: &Layout) -> Result<Vec<SiteRow>, String> {
    let schema = batch.schema();
    let index: HashMap<&str, usize> = schema
        .fields()
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name().as_str(), i))
        .collect();
    let text = |name: &str| column(batch, &index, name, &DataType::Utf8).map(Texts);
    let int = |name: &str| column(batch, &index, name, &DataType::Int64).map(Ints);
    let boolean = |name: &str| column(batch, &index, name, &DataType::Boolean);
    let host = text("host")?;
    let source = text("source")?;
    let offset = int("offset")?;
    let error = text("error")?;
    let url = text("url")?;
    let captured = text("captured")?;
    let captures = int("captures")?;
    let status = int("status")?;
    let fetch_class = text("fetch_class")?;
    let cc_class = text("cc_class")?;
    let outcome = text("outcome")?;
    let reason = text("reason")?;
    let content_type = text("content_type")?;
    let payload_type = text("payload_type")?;
    let location = text("location")?;
    let followed = text("followed")?;
    let size = int("size")?;
    let over_limit = boolean("over_limit")?;
    let html = boolean("html")?;
    let groups = int("groups")?;
    let rules = int("rules")?;
    let sitemaps = int("sitemaps")?;
    let crawl_delay = column(batch, &index, "crawl_delay", &DataType::Float64)?;
    let content_usage = text("content_usage")?;
    let content_signal = text("content_signal")?;
    let licenses = int("licenses")?;
    let sc_valid = int("sc_valid")?;
    let sc_unused = int("sc_unused")?;
    let sc_unknown = int("sc_unknown")?;
    let lint_errors = int("lint_errors")?;
    let lint_warnings = int("lint_warnings")?;
    let lint_infos = int("lint_infos")?;
    let codes: Vec<Ints> = findings::codes()
        .iter()
        .map(|code| int(&findings::column(*code)))
        .collect::<Result<_, _>>()?;
    struct CrawlerColumns {
        root: Texts,
        cause: Texts,
        group: Texts,
        line: Ints,
        paths: Vec<Texts>,
        prefs: Texts,
        path_prefs: Vec<Texts>,
    }
    let crawlers: Vec<CrawlerColumns> = layout
        .crawlers
        .iter()
        .map(|c| {
            Ok(CrawlerColumns {
                root: text(&c.root_column())?,
                cause: text(&c.cause_column())?,
                group: text(&c.group_column())?,
                line: int(&c.line_column())?,
                paths: (1..=layout.paths.len())
                    .map(|n| text(&c.path_column(n)))
                    .collect::<Result<_, _>>()?,
                // Absent from tables made before layout 3: null.
                prefs: text(&c.prefs_column())?,
                path_prefs: (1..=layout.paths.len())
                    .map(|n| text(&c.path_prefs_column(n)))
                    .collect::<Result<_, _>>()?,
            })
        })
        .collect::<Result<_, String>>()?;
    let flag = |array: &Option<ArrayRef>, row: usize| {
        array
            .as_ref()
            .filter(|a| !a.is_null(row))
            .map(|a| a.as_boolean().value(row))
    };
    let word = |value: Option<&str>, column: &str, parse: &dyn Fn(&str) -> bool| match value {
        Some(v) if !parse(v) => Err(format!(
            "`{}` is not a value of column `{column}`",
            crate::capture::shown(v)
        )),
        _ => Ok(()),
    };
    let verdict = |value: Option<&str>, column: &str| -> Result<Option<bool>, String> {
        match value {
            None => Ok(None),
            Some("allowed") => Ok(Some(true)),
            Some("disallowed") => Ok(Some(false)),
            Some(other) => Err(format!(
                "`{}` is not a value of column `{column}` (allowed or disallowed)",
                crate::capture::shown(other)
            )),
        }
    };
    let mut rows = Vec::with_capacity(batch.num_rows());
    for i in 0..batch.num_rows() {
        word(fetch_class.get(i), "fetch_class", &|w| {
            FetchClass::from_word(w).is_some()
        })?;
        word(cc_class.get(i), "cc_class", &|w| {
            HostClass::from_word(w).is_some()
        })?;
        word(outcome.get(i), "outcome", &|w| outcome_of_word(w).is_some())?;
        word(reason.get(i), "reason", &|w| reason_of_word(w).is_some())?;
        let lint = lint_errors.get(i).map(|errors| LintCounts {
            errors: u32::try_from(errors.max(0)).unwrap_or(u32::MAX),
            warnings: lint_warnings.u32(i).unwrap_or(0),
            infos: lint_infos.u32(i).unwrap_or(0),
            by_code: codes.iter().map(|c| c.u32(i).unwrap_or(0)).collect(),
        });
        let mut verdicts = Vec::with_capacity(crawlers.len());
        let has_error = error.get(i).is_some();
        for (c, crawler) in crawlers.iter().zip(layout.crawlers.iter()) {
            let cause = c.cause.get(i);
            word(cause, &crawler.cause_column(), &|w| {
                Cause::from_word(w).is_some()
            })?;
            let group = c.group.get(i);
            word(group, &crawler.group_column(), &|w| {
                GroupKind::from_word(w).is_some()
            })?;
            let paths = c
                .paths
                .iter()
                .enumerate()
                .filter_map(|(n, p)| verdict(p.get(i), &crawler.path_column(n + 1)).transpose())
                .collect::<Result<Vec<bool>, String>>()?;
            if has_error && cause.is_none() {
                continue;
            }
            // As long as `paths`: none when the input gave no answer.
            let path_prefs = c
                .path_prefs
                .iter()
                .take(paths.len())
                .map(|p| p.owned(i))
                .collect();
            verdicts.push(CrawlerVerdict {
                root: verdict(c.root.get(i), &crawler.root_column())?,
                cause: cause.and_then(Cause::from_word),
                group: group.and_then(GroupKind::from_word),
                line: c.line.u32(i),
                paths,
                prefs: c.prefs.owned(i),
                path_prefs,
            });
        }
        rows.push(SiteRow {
            host: host.owned(i),
            source: source.owned(i).unwrap_or_default(),
            offset: offset.get(i).map(|v| u64::try_from(v).unwrap_or(0)),
            error: error.owned(i),
            url: url.owned(i),
            captured: captured.owned(i),
            captures: captures.u32(i).unwrap_or(1),
            status: status.get(i).and_then(|s| u16::try_from(s).ok()),
            fetch_class: fetch_class.get(i).and_then(FetchClass::from_word),
            cc_class: cc_class.get(i).and_then(HostClass::from_word),
            outcome: outcome.get(i).and_then(outcome_of_word),
            reason: reason.get(i).and_then(reason_of_word),
            content_type: content_type.owned(i),
            payload_type: payload_type.owned(i),
            location: location.owned(i),
            followed: followed.owned(i),
            size: size.get(i).map(|v| u64::try_from(v).unwrap_or(0)),
            over_limit: flag(&over_limit, i),
            html: flag(&html, i),
            groups: groups.u32(i),
            rules: rules.u32(i),
            sitemaps: sitemaps.u32(i),
            crawl_delay: crawl_delay
                .as_ref()
                .filter(|a| !a.is_null(i))
                .map(|a| a.as_primitive::<Float64Type>().value(i)),
            content_usage: content_usage.owned(i),
            content_signal: content_signal.owned(i),
            licenses: licenses.u32(i),
            sc_valid: sc_valid.u32(i),
            sc_unused: sc_unused.u32(i),
            sc_unknown: sc_unknown.u32(i),
            lint,
            crawlers: verdicts,
        });
    }
    Ok(rows)
}

// Each test reads its rows back, which takes the `files` feature.
#[cfg(all(test, feature = "files"))]
mod tests {
    use super::*;
    use crate::taxonomy::HostClass;

    fn sample() -> (CrawlerSet, Vec<String>, Vec<SiteRow>) {
        let crawlers = CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap();
        let paths = vec!["/news/".to_owned()];
        let good = SiteRow {
            host: Some("a.example".into()),
            source: "a@0".into(),
            offset: Some(0),
            url: Some("https://a.example/robots.txt".into()),
            captured: Some("2026-11-01T00:00:00Z".into()),
            captures: 2,
            status: Some(200),
            fetch_class: Some(FetchClass::Success),
            cc_class: Some(HostClass::RobotsTxtWithRules),
            outcome: Some(crawlgate_answers::OutcomeKind::Conditional),
            reason: Some(crawlgate_answers::OutcomeReason::Fetched),
            size: Some(12),
            over_limit: Some(false),
            html: Some(false),
            groups: Some(1),
            rules: Some(1),
            sitemaps: Some(0),
            crawl_delay: Some(2.5),
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
                CrawlerVerdict {
                    root: Some(false),
                    cause: Some(Cause::BlockedByName),
                    group: Some(GroupKind::Named),
                    line: Some(2),
                    paths: vec![false],
                    prefs: None,
                    path_prefs: vec![None],
                },
                CrawlerVerdict {
                    root: Some(true),
                    cause: Some(Cause::Allowed),
                    group: Some(GroupKind::None),
                    line: None,
                    paths: vec![true],
                    prefs: Some(r#"{"train_ai":"disallowed"}"#.to_owned()),
                    path_prefs: vec![Some(r#"{"search":"allowed"}"#.to_owned())],
                },
            ],
            ..SiteRow::default()
        };
        let redirect = SiteRow {
            host: Some("b.example".into()),
            source: "b@9".into(),
            captures: 1,
            status: Some(301),
            crawlers: vec![CrawlerVerdict::unanswered(Cause::Redirected); 2],
            ..SiteRow::default()
        };
        let mut bad = SiteRow::error(Some("c.example".into()), "c@3".into(), "broken".into());
        bad.offset = Some(3);
        (crawlers, paths, vec![good, redirect, bad])
    }

    #[test]
    fn rows_fill_every_column_and_read_back_the_same() {
        let (crawlers, paths, rows) = sample();
        let schema = schema(&crawlers, &paths, "google");
        let batch = record_batch(&rows, &schema).unwrap();
        assert_eq!(batch.num_rows(), 3);
        let text = |name: &str| {
            batch
                .column_by_name(name)
                .unwrap()
                .as_string::<i32>()
                .clone()
        };
        assert_eq!(text("root_gptbot").value(0), "disallowed");
        assert_eq!(text("cause_gptbot").value(0), "blocked_by_name");
        assert_eq!(text("group_star").value(0), "none");
        assert_eq!(text("path_gptbot_1").value(0), "disallowed");
        assert_eq!(text("prefs_star").value(0), r#"{"train_ai":"disallowed"}"#);
        assert_eq!(text("prefs_star_1").value(0), r#"{"search":"allowed"}"#);
        assert!(text("prefs_gptbot").is_null(0) && text("prefs_gptbot_1").is_null(0));
        assert!(text("root_gptbot").is_null(1) && text("root_gptbot").is_null(2));
        assert_eq!(text("cause_gptbot").value(1), "redirected");
        assert_eq!(text("error").value(2), "broken");
        let layout = Layout::of(&schema).unwrap();
        assert_eq!(layout.crawlers, crawlers);
        assert_eq!(layout.paths, paths);
        assert_eq!(layout.profile.as_deref(), Some("google"));
        assert_eq!(rows_of_batch(&batch, &layout).unwrap(), rows);
        assert_eq!(
            schema.metadata()[META_CRAWLERS],
            r#"[{"column":"gptbot","token":"GPTBot"},{"column":"star","token":"*"}]"#
        );
    }

    #[test]
    fn tables_without_metadata_or_with_other_types_read_the_same() {
        let (crawlers, paths, rows) = sample();
        let schema = schema(&crawlers, &paths, "google");
        let batch = record_batch(&rows, &schema).unwrap();
        // As Spark writes it: no metadata, 64-bit integers, large strings.
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .map(|f| {
                let kind = match f.data_type() {
                    DataType::Int32 => DataType::Int64,
                    DataType::Utf8 => DataType::LargeUtf8,
                    other => other.clone(),
                };
                Field::new(f.name(), kind, true)
            })
            .collect();
        let columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .zip(&fields)
            .map(|(c, f)| arrow_cast::cast(c, f.data_type()).unwrap())
            .collect();
        let spark = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
        let layout = Layout::of(&spark.schema()).unwrap();
        assert_eq!(
            layout.crawlers, crawlers,
            "tokens found in the crawler table"
        );
        assert_eq!(layout.paths, ["path 1"]);
        assert_eq!(rows_of_batch(&spark, &layout).unwrap(), rows);
    }

    #[test]
    fn foreign_values_and_tables_are_errors() {
        let (crawlers, paths, mut rows) = sample();
        let schema = schema(&crawlers, &paths, "google");
        let mut batch = record_batch(&rows, &schema).unwrap();
        let layout = Layout::of(&schema).unwrap();
        rows.truncate(1);
        batch = batch.slice(0, 1);
        let index = schema.index_of("cause_gptbot").unwrap();
        let mut columns = batch.columns().to_vec();
        columns[index] = Arc::new(arrow_array::StringArray::from(vec!["blocked"]));
        let bad = RecordBatch::try_new(schema.clone(), columns).unwrap();
        let error = rows_of_batch(&bad, &layout).unwrap_err();
        assert!(
            error.contains("`blocked` is not a value of column `cause_gptbot`"),
            "{error}"
        );
        let other = Schema::new(vec![Field::new("x", DataType::Utf8, true)]);
        assert!(Layout::of(&other)
            .unwrap_err()
            .contains("not a survey table"));
    }
}
