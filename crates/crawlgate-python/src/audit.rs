//! `crawlgate_robots.Auditor`: `crawlgate audit` over Arrow batches of log
//! records (whole lines, or columns of fields), batch after batch, so that
//! Spark's `mapInArrow` runs it over a cluster's logs. The rows are the
//! CLI's table (the Parquet columns), from the same code.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int32Type, Int64Type, TimestampMicrosecondType, TimestampMillisecondType, UInt16Type,
    UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray};
use arrow_pyarrow::PyArrowType;
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use crawlgate_answers::net::{Prefix, PrefixSet};
use crawlgate_answers::RobotsSource;
use crawlgate_audit::audit::{Audit, AuditOptions};
use crawlgate_audit::format::{JsonFields, LogFormat};
use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::identity::VerifyOptions;
use crawlgate_audit::output::table::{schema, OneBatch};
use crawlgate_audit::records::{lines, Columns};
use crawlgate_audit::robots::{RobotsInForce, Site};
use crawlgate_audit::session::Session;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::input::profile_named;

/// The longest robots.txt taken (the size Google reads: 500 KiB).
const MAX_ROBOTS_TXT: usize = 500 * 1024;

/// An audit of one log fed in Arrow batches, in order (its identities,
/// Crawl-delay clocks and summary kept between batches).
#[pyclass(name = "Auditor", module = "crawlgate_robots._crawlgate")]
pub struct PyAuditor {
    session: Mutex<Session<Arc<Audit>>>,
    fields: Option<JsonFields>,
}

fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

#[pymethods]
impl PyAuditor {
    /// `robots_txt`: the robots.txt in force (text); `log_format`: the
    /// format of the lines (`combined`, `common`, `vhost_combined`,
    /// `nginx`/`apache` with `custom`, `w3c`; `None`: told from the first
    /// lines), or of records in columns (`json`, with `fields` such as
    /// `"ip=client,ua=agent"`, or `cloudflare` for Logpush's names);
    /// `name` names the log in the rows, `robots_name` the robots.txt in
    /// deciding lines (`robots.txt:3`) and the `robots_version` column;
    /// `profile` reads the file by one profile for every crawler (`None`:
    /// each crawler by its operator's reading, as `crawlgate audit`).
    #[new]
    #[pyo3(signature = (
        robots_txt, *, name = "<arrow>", robots_name = "robots.txt", log_format = None, custom = None, fields = None,
        profile = None, honeypots = Vec::new(), trusted_proxies = Vec::new(),
        ip_ranges = None, feed_cache = None, resolver = None, dns_timeout = 5.0, no_dns = false,
        dns_concurrency = 64, allow_private = false, threads = 0,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        robots_txt: &str,
        name: &str,
        robots_name: &str,
        log_format: Option<&str>,
        custom: Option<&str>,
        fields: Option<&str>,
        profile: Option<&str>,
        honeypots: Vec<String>,
        trusted_proxies: Vec<String>,
        ip_ranges: Option<String>,
        feed_cache: Option<String>,
        resolver: Option<&str>,
        dns_timeout: f64,
        no_dns: bool,
        dns_concurrency: usize,
        allow_private: bool,
        threads: usize,
    ) -> PyResult<PyAuditor> {
        if robots_txt.len() > MAX_ROBOTS_TXT {
            return Err(value_error(format!(
                "robots_txt is {} bytes: more than the {MAX_ROBOTS_TXT} a crawler reads",
                robots_txt.len()
            )));
        }
        // None: each crawler by its operator's reading, as the CLI.
        let profile = profile.map(profile_named).transpose()?;
        let format = log_format
            .map(|name| LogFormat::named(name, custom, fields))
            .transpose()
            .map_err(value_error)?;
        let record_fields = match &format {
            Some(LogFormat::Json { fields, .. }) => Some(fields.clone()),
            _ if fields.is_some() => {
                return Err(value_error(
                    "fields is for log_format=\"json\" or \"cloudflare\"",
                ));
            }
            _ => None,
        };
        for honeypot in &honeypots {
            if !honeypot.starts_with('/') {
                return Err(value_error(format!(
                    "honeypot {honeypot:.200} is not a path (it starts with /)"
                )));
            }
        }
        let trusted_proxies: PrefixSet = trusted_proxies
            .iter()
            .map(|p| {
                p.parse::<Prefix>()
                    .map_err(|e| value_error(format!("trusted_proxies: {e}")))
            })
            .collect::<PyResult<Vec<_>>>()?
            .into_iter()
            .collect();
        if !(dns_timeout.is_finite() && dns_timeout > 0.0 && dns_timeout <= 60.0) {
            return Err(value_error(
                "dns_timeout is seconds: more than 0, at most 60",
            ));
        }
        if !(1..=1024).contains(&dns_concurrency) {
            return Err(value_error("dns_concurrency is 1 to 1024"));
        }
        if no_dns && resolver.is_some() {
            return Err(value_error("resolver and no_dns contradict each other"));
        }
        let server = resolver
            .map(|r| {
                r.parse::<SocketAddr>().map_err(|_| {
                    value_error(format!("resolver {r:.100} is not IP:PORT (127.0.0.1:53)"))
                })
            })
            .transpose()?;
        let feeds = match ip_ranges {
            Some(arg) => {
                let source = FeedSource::from_arg(&arg);
                if let FeedSource::Mirror(dir) = &source
                    && !dir.is_dir()
                {
                    return Err(value_error(format!(
                        "ip_ranges {arg:.200}: not a folder (a mirror laid out as DIR/<host>/<path>, or an http(s) URL of one)"
                    )));
                }
                source
            }
            None => FeedSource::Live {
                cache: feed_cache
                    .map(Into::into)
                    .or_else(FeedSource::default_cache),
            },
        };
        let options = AuditOptions {
            format,
            robots: RobotsInForce::One(Site::single(
                robots_name,
                RobotsSource::from_bytes(robots_txt.as_bytes().to_vec()),
            )),
            profile,
            honeypots,
            trusted_proxies,
            verify: VerifyOptions {
                feeds,
                allow_private,
                dns: (!no_dns).then(|| DnsConfig {
                    server,
                    timeout: Duration::from_secs_f64(dns_timeout),
                    concurrency: dns_concurrency,
                }),
                feed_timeout: Duration::from_secs(30),
            },
            threads,
        };
        let audit = Audit::new(options).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(PyAuditor {
            session: Mutex::new(Session::new(Arc::new(audit), name)),
            fields: record_fields,
        })
    }

    /// Audits the next batch: whole log lines in the text column `column`
    /// (Spark's `spark.read.text` names it `value`), or, when `log_format`
    /// is `json` or `cloudflare`, records in columns named like its
    /// fields. One row out per readable line, in the CLI's table's columns;
    /// unreadable lines are counted in `summary()`. `plain=True` gives
    /// text for the dictionary columns and signed integers (what Spark
    /// takes: see `audit_schema(plain=True)`).
    #[pyo3(signature = (batch, column = "value", *, plain = false))]
    fn audit(
        &self,
        py: Python<'_>,
        batch: PyArrowType<RecordBatch>,
        column: &str,
        plain: bool,
    ) -> PyResult<PyArrowType<RecordBatch>> {
        let batch = batch.0;
        let out = py.detach(|| -> Result<RecordBatch, String> {
            let mut session = self
                .session
                .lock()
                .map_err(|_| "the auditor failed earlier".to_owned())?;
            let mut rows = OneBatch::default();
            match &self.fields {
                Some(fields) => {
                    let columns = Columns::of(&batch, fields)?;
                    session
                        .requests(columns.requests(), &mut rows)
                        .map_err(|e| e.to_string())?;
                }
                None => {
                    let text = lines(&batch, column)?;
                    let texts: Vec<&str> = text.iter().map(Option::unwrap_or_default).collect();
                    session
                        .lines(&texts, &mut rows)
                        .map_err(|e| e.to_string())?;
                }
            }
            let rows = rows.finish().map_err(|e| e.to_string())?;
            if plain {
                to_plain(&rows)
            } else {
                Ok(rows)
            }
        });
        out.map(PyArrowType).map_err(value_error)
    }

    /// The summary so far, as `crawlgate audit --json` prints it (a dict).
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let summary = py.detach(|| {
            self.session
                .lock()
                .map(|s| s.summary())
                .map_err(|_| "the auditor failed earlier".to_owned())
        });
        let summary = summary.map_err(PyRuntimeError::new_err)?;
        let text =
            serde_json::to_string(&summary).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The deny list so far: `(address, why)` pairs: spoofing addresses and
    /// honeypot visitors that named no crawler, never a verified crawler.
    fn deny_list(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        let summary = py.detach(|| self.session.lock().map(|s| s.summary()).map_err(|_| ()));
        let summary = summary.map_err(|_| PyRuntimeError::new_err("the auditor failed earlier"))?;
        Ok(summary
            .deny_list()
            .into_iter()
            .map(|(ip, why)| (ip.to_string(), why))
            .collect())
    }
}

/// The schema of the rows `Auditor.audit` returns (the CLI's table);
/// `plain=True`: with text for dictionaries and signed integers.
#[pyfunction]
#[pyo3(signature = (*, plain = false))]
pub fn audit_schema(plain: bool) -> PyArrowType<Schema> {
    let schema = schema();
    PyArrowType(if plain {
        plain_schema(&schema)
    } else {
        schema.as_ref().clone()
    })
}

/// A type Spark takes for `data_type`: text for a dictionary of text, a
/// signed integer wide enough for an unsigned one, microseconds for a
/// time.
fn plain_type(data_type: &DataType) -> DataType {
    match data_type {
        DataType::Dictionary(_, value) => value.as_ref().clone(),
        DataType::UInt8 | DataType::UInt16 => DataType::Int32,
        DataType::UInt32 | DataType::UInt64 => DataType::Int64,
        // Spark's timestamps are microseconds.
        DataType::Timestamp(_, zone) => DataType::Timestamp(TimeUnit::Microsecond, zone.clone()),
        other => other.clone(),
    }
}

fn plain_schema(schema: &Schema) -> Schema {
    Schema::new(
        schema
            .fields()
            .iter()
            .map(|f| Field::new(f.name(), plain_type(f.data_type()), f.is_nullable()))
            .collect::<Vec<_>>(),
    )
}

fn to_plain(batch: &RecordBatch) -> Result<RecordBatch, String> {
    let columns = batch
        .columns()
        .iter()
        .map(plain_column)
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(Arc::new(plain_schema(&batch.schema())), columns)
        .map_err(|e| e.to_string())
}

/// A column of the audit's table in its [`plain_type`], the values Arrow's
/// cast gives (a value out of the signed type's range is null; none of
/// the table's is), built here rather than by arrow-cast, which the wheel
/// then does without.
fn plain_column(column: &ArrayRef) -> Result<ArrayRef, String> {
    Ok(match column.data_type() {
        DataType::Dictionary(key, value)
            if **key == DataType::Int32 && **value == DataType::Utf8 =>
        {
            let dictionary = column.as_dictionary::<Int32Type>();
            let values = dictionary.values().as_string::<i32>();
            let text: StringArray = dictionary
                .keys_iter()
                .map(|k| {
                    k.filter(|&k| k < values.len() && values.is_valid(k))
                        .map(|k| values.value(k))
                })
                .collect();
            Arc::new(text)
        }
        DataType::UInt8 => Arc::new(
            column
                .as_primitive::<UInt8Type>()
                .unary::<_, Int32Type>(i32::from),
        ),
        DataType::UInt16 => Arc::new(
            column
                .as_primitive::<UInt16Type>()
                .unary::<_, Int32Type>(i32::from),
        ),
        DataType::UInt32 => Arc::new(
            column
                .as_primitive::<UInt32Type>()
                .unary::<_, Int64Type>(i64::from),
        ),
        DataType::UInt64 => Arc::new(
            column
                .as_primitive::<UInt64Type>()
                .unary_opt::<_, Int64Type>(|v| i64::try_from(v).ok()),
        ),
        DataType::Timestamp(TimeUnit::Millisecond, zone) => Arc::new(
            column
                .as_primitive::<TimestampMillisecondType>()
                .unary_opt::<_, TimestampMicrosecondType>(|ms| ms.checked_mul(1000))
                .with_timezone_opt(zone.clone()),
        ),
        other if plain_type(other) == *other => column.clone(),
        other => return Err(format!("the audit's table has no {other} column")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain columns are what Arrow's cast made of them: the audit of
    /// a few lines (a verified crawler, an unknown one, unreadable lines,
    /// an IPv6 address), and a column past the signed range.
    #[test]
    fn plain_columns_are_what_the_cast_gives() {
        let robots = RobotsSource::from_bytes(b"User-agent: *\nDisallow: /private/\n".to_vec());
        let audit = Audit::new(AuditOptions {
            format: Some(LogFormat::combined()),
            robots: RobotsInForce::One(Site::single("robots.txt", robots)),
            profile: None,
            honeypots: vec!["/trap/".into()],
            trusted_proxies: PrefixSet::default(),
            verify: VerifyOptions {
                feeds: FeedSource::Mirror("no-feeds".into()),
                dns: None,
                ..VerifyOptions::default()
            },
            threads: 1,
        })
        .unwrap();
        let line = |ip: &str, url: &str, agent: &str| {
            format!(
                r#"{ip} - - [27/Nov/2026:10:00:00 +0000] "GET {url} HTTP/1.1" 200 5 "-" "{agent}""#
            )
        };
        let lines = [
            line("66.249.66.1", "/private/x", "Googlebot/2.1"),
            "junk".to_owned(),
            line("2001:db8::1", "/trap/a", "curl/8"),
            line("192.0.2.1", "/", "Mozilla/5.0 (compatible; bingbot/2.0)"),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut session = audit.session("access.log");
        let mut rows = OneBatch::default();
        session.lines(&lines, &mut rows).unwrap();
        session.lines(&lines[..1], &mut rows).unwrap();
        let rows = rows.finish().unwrap();
        assert_eq!(rows.num_rows(), 4);
        let plain = to_plain(&rows).unwrap();
        for (column, plain) in rows.columns().iter().zip(plain.columns()) {
            let cast = arrow_cast::cast(column, &plain_type(column.data_type())).unwrap();
            assert_eq!(plain.as_ref(), cast.as_ref(), "{}", column.data_type());
        }
        let unsigned: ArrayRef = Arc::new(arrow_array::UInt64Array::from(vec![
            Some(u64::MAX),
            None,
            Some(7),
        ]));
        let cast = arrow_cast::cast(&unsigned, &DataType::Int64).unwrap();
        assert_eq!(plain_column(&unsigned).unwrap().as_ref(), cast.as_ref());
    }
}
