//! Log records as Arrow columns (what Spark, Polars or a Parquet export of
//! Cloudflare Logpush hold): the columns named like the JSON fields
//! ([`JsonFields`]: `ip`, `time`, `user_agent`, `url`, `host`, `status`,
//! `method`, `xff`), read into requests; or one text column of whole log
//! lines. Values are read as the JSON lines format reads them, so a record
//! and the same JSON line give the same request.

use std::borrow::Cow;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, TimestampMicrosecondType, TimestampMillisecondType,
    TimestampNanosecondType, TimestampSecondType,
};
use arrow_array::{
    Array, ArrayRef, Float64Array, RecordBatch, StringArray, TimestampMillisecondArray,
};
use arrow_schema::{DataType, TimeUnit};

use crate::format::{parse_ip, JsonFields};
use crate::record::{split_request_line, Request};
use crate::time::{parse_clf, parse_epoch, parse_iso8601, Millis};

mod text;

/// A time column: Arrow timestamps, or text and numbers read as JSON's
/// times are.
#[derive(Debug)]
enum TimeColumn {
    Millis(TimestampMillisecondArray),
    Float(Float64Array),
    Text(StringArray),
}

/// The columns of a batch that hold the parts of a request, as text.
#[derive(Debug)]
pub struct Columns {
    rows: usize,
    ip: Option<StringArray>,
    time: Option<TimeColumn>,
    user_agent: Option<StringArray>,
    url: Option<StringArray>,
    host: Option<StringArray>,
    status: Option<StringArray>,
    method: Option<StringArray>,
    forwarded_for: Option<StringArray>,
}

/// The first column of `names` that `batch` has.
fn column<'b>(batch: &'b RecordBatch, names: &[String]) -> Option<&'b ArrayRef> {
    names.iter().find_map(|name| batch.column_by_name(name))
}

fn text(array: &ArrayRef, part: &str) -> Result<StringArray, String> {
    text::text(array.as_ref()).map_err(|e| {
        format!(
            "the {part} column ({}) cannot be read as text: {e}",
            array.data_type()
        )
    })
}

/// A timestamp column in milliseconds, as Arrow's cast converts it: finer
/// units divided (towards zero), seconds multiplied (null past the range).
fn millis(array: &ArrayRef, unit: TimeUnit) -> TimestampMillisecondArray {
    match unit {
        TimeUnit::Second => array
            .as_primitive::<TimestampSecondType>()
            .unary_opt(|s| s.checked_mul(1000)),
        TimeUnit::Millisecond => array
            .as_primitive::<TimestampMillisecondType>()
            .unary(|ms| ms),
        TimeUnit::Microsecond => array
            .as_primitive::<TimestampMicrosecondType>()
            .unary(|us| us / 1000),
        TimeUnit::Nanosecond => array
            .as_primitive::<TimestampNanosecondType>()
            .unary(|ns| ns / 1_000_000),
    }
}

/// A float column as 64-bit floats (every value exact).
fn float64(array: &ArrayRef) -> Option<Float64Array> {
    Some(match array.data_type() {
        DataType::Float16 => array.as_primitive::<Float16Type>().unary(f64::from),
        DataType::Float32 => array.as_primitive::<Float32Type>().unary(f64::from),
        DataType::Float64 => array.as_primitive::<Float64Type>().clone(),
        _ => return None,
    })
}

impl Columns {
    /// Finds the columns `fields` names in `batch` (the first present of
    /// each part's names). The client address is needed; every other part
    /// may be missing.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use arrow_array::{RecordBatch, StringArray};
    /// use crawlgate_audit::format::JsonFields;
    /// use crawlgate_audit::records::Columns;
    /// let batch = RecordBatch::try_from_iter([
    ///     ("ClientIP", Arc::new(StringArray::from(vec!["66.249.66.1", "x"])) as _),
    ///     ("ClientRequestURI", Arc::new(StringArray::from(vec!["/a?b", "/"])) as _),
    /// ]).unwrap();
    /// let columns = Columns::of(&batch, &JsonFields::cloudflare()).unwrap();
    /// let requests = columns.requests();
    /// assert_eq!(requests[0].as_ref().unwrap().target.as_deref(), Some("/a?b"));
    /// assert!(requests[1].is_err());
    /// assert!(Columns::of(&batch, &JsonFields::default()).unwrap_err().contains("client address"));
    /// ```
    pub fn of(batch: &RecordBatch, fields: &JsonFields) -> Result<Columns, String> {
        let find = |names: &[String], part: &str| -> Result<Option<StringArray>, String> {
            column(batch, names).map(|a| text(a, part)).transpose()
        };
        let ip = find(&fields.ip, "client address")?;
        if ip.is_none() {
            return Err(format!(
                "no client address column (looked for {})",
                fields.ip.join(", ")
            ));
        }
        let time = match column(batch, &fields.time) {
            None => None,
            Some(array) => Some(match (array.data_type(), float64(array)) {
                (DataType::Timestamp(unit, _), _) => TimeColumn::Millis(millis(array, *unit)),
                (_, Some(floats)) => TimeColumn::Float(floats),
                _ => TimeColumn::Text(text(array, "time")?),
            }),
        };
        Ok(Columns {
            rows: batch.num_rows(),
            ip,
            time,
            user_agent: find(&fields.user_agent, "user agent")?,
            url: find(&fields.url, "url")?,
            host: find(&fields.host, "host")?,
            status: find(&fields.status, "status")?,
            method: find(&fields.method, "method")?,
            forwarded_for: find(&fields.forwarded_for, "X-Forwarded-For")?,
        })
    }

    /// Each row as a request, or why it cannot be read.
    pub fn requests(&self) -> Vec<Result<Request<'_>, &'static str>> {
        (0..self.rows).map(|row| self.request(row)).collect()
    }

    fn request(&self, row: usize) -> Result<Request<'_>, &'static str> {
        let value = |column| value(column, row);
        let ip = value(&self.ip).ok_or("no client address field")?;
        let mut request = Request::new(parse_ip(ip)?);
        if let Some(time) = self.time(row) {
            request.time = Some(time.ok_or("the time cannot be read")?);
        }
        if let Some(status) = value(&self.status) {
            request.status = Some(
                status
                    .parse::<u64>()
                    .ok()
                    .and_then(|s| u16::try_from(s).ok())
                    .filter(|s| (100..1000).contains(s))
                    .ok_or("the status is not a number")?,
            );
        }
        if let Some(url) = value(&self.url) {
            if url.contains(' ') {
                let (method, target) = split_request_line(url);
                request.method = method.map(Cow::Borrowed);
                request.target = target.map(Cow::Borrowed);
            } else if !url.is_empty() && url != "-" {
                request.target = Some(Cow::Borrowed(url));
            }
        }
        if let Some(method) = value(&self.method) {
            request.method = Some(Cow::Borrowed(method));
        }
        request.user_agent =
            Cow::Borrowed(value(&self.user_agent).filter(|u| *u != "-").unwrap_or(""));
        request.host = value(&self.host)
            .filter(|h| !h.is_empty() && *h != "-")
            .map(Cow::Borrowed);
        request.forwarded_for = value(&self.forwarded_for)
            .filter(|h| !h.is_empty() && *h != "-")
            .map(Cow::Borrowed);
        Ok(request)
    }

    /// The row's time: `None` when the column is missing or null, `Some(None)`
    /// when it cannot be read.
    fn time(&self, row: usize) -> Option<Option<Millis>> {
        match self.time.as_ref()? {
            TimeColumn::Millis(array) => array.is_valid(row).then(|| Some(array.value(row))),
            TimeColumn::Float(array) => array.is_valid(row).then(|| {
                let f = array.value(row);
                (f.is_finite() && f >= 0.0).then_some((f * 1000.0) as i64)
            }),
            TimeColumn::Text(array) => array.is_valid(row).then(|| {
                let s = array.value(row);
                parse_iso8601(s)
                    .or_else(|| parse_clf(s))
                    .or_else(|| parse_epoch(s))
            }),
        }
    }
}

fn value(column: &Option<StringArray>, row: usize) -> Option<&str> {
    column
        .as_ref()
        .filter(|c| c.is_valid(row))
        .map(|c| c.value(row))
}

/// The text column `name` of `batch` (whole log lines: Spark's
/// `spark.read.text` calls it `value`), as text.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{RecordBatch, StringArray};
/// let batch = RecordBatch::try_from_iter([
///     ("value", Arc::new(StringArray::from(vec!["a line"])) as _),
/// ]).unwrap();
/// let lines = crawlgate_audit::records::lines(&batch, "value").unwrap();
/// assert_eq!(lines.value(0), "a line");
/// assert!(crawlgate_audit::records::lines(&batch, "line").unwrap_err().contains("value"));
/// ```
pub fn lines(batch: &RecordBatch, name: &str) -> Result<StringArray, String> {
    let Some(array) = batch.column_by_name(name) else {
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        return Err(format!(
            "no column `{name}` of log lines (the batch has: {})",
            names.join(", ")
        ));
    };
    text(array, "log lines")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{
        Float16Array, Float32Array, TimestampMicrosecondArray, TimestampNanosecondArray,
        TimestampSecondArray,
    };

    use super::*;

    /// Times and floats are what Arrow's cast made of them.
    #[test]
    fn times_and_floats_are_what_the_cast_gives() {
        let values = vec![
            Some(-1_999),
            None,
            Some(0),
            Some(1_764_000_000_123),
            Some(i64::MAX),
        ];
        let arrays: Vec<(ArrayRef, TimeUnit)> = vec![
            (
                Arc::new(TimestampSecondArray::from(values.clone())),
                TimeUnit::Second,
            ),
            (
                Arc::new(TimestampMillisecondArray::from(values.clone()).with_timezone("+01:00")),
                TimeUnit::Millisecond,
            ),
            (
                Arc::new(TimestampMicrosecondArray::from(values.clone())),
                TimeUnit::Microsecond,
            ),
            (
                Arc::new(TimestampNanosecondArray::from(values).with_timezone("UTC")),
                TimeUnit::Nanosecond,
            ),
        ];
        for (array, unit) in arrays {
            let cast = arrow_cast::cast(&array, &DataType::Timestamp(TimeUnit::Millisecond, None))
                .unwrap();
            let ours = millis(&array, unit);
            let cast = cast.as_primitive::<TimestampMillisecondType>();
            assert_eq!(
                ours.iter().collect::<Vec<_>>(),
                cast.iter().collect::<Vec<_>>(),
                "{unit:?}"
            );
        }
        let floats: Vec<ArrayRef> = vec![
            Arc::new(Float32Array::from(vec![Some(1.5f32), None, Some(0.1)])),
            Arc::new(Float16Array::from(vec![
                Some(<Float16Type as arrow_array::ArrowPrimitiveType>::Native::from_f32(0.1)),
                None,
            ])),
        ];
        for array in floats {
            let cast = arrow_cast::cast(&array, &DataType::Float64).unwrap();
            assert_eq!(&float64(&array).unwrap() as &dyn Array, cast.as_ref());
        }
    }
}
