//! `crawlgate_robots._crawlgate.decide_record_batch` / `decide_table`: Arrow data
//! in and out through the C data interface (no copies), decided by
//! [`crate::batch`] on all cores with the GIL released.

use arrow_array::RecordBatch;
use arrow_pyarrow::{PyArrowType, Table};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::batch::decide_batch_as;
use crate::input::profile_named;
use crate::reading::reading_named;

/// Decides every row of a `pyarrow.RecordBatch` with columns `robots_txt`,
/// `user_agent` and `url`; returns it with `allowed`, `line` and `rule`
/// appended. `reading="crawler"` (the default) reads `user_agent` as the
/// crawler a person names (the registry's rules), `"one-token"` as one
/// product token, exactly as Google's library does. Without a `profile`,
/// each row's file is read as its crawler's operator reads files (Bing's
/// crawlers by Bing's rules, Yandex's robots by Yandex's; the rest, and
/// every row in the one-token reading, by Google's), as `crawlgate check`
/// does; a named profile reads every row.
#[pyfunction]
#[pyo3(signature = (batch, profile = None, *, reading = "crawler"))]
pub fn decide_record_batch(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    profile: Option<&str>,
    reading: &str,
) -> PyResult<PyArrowType<RecordBatch>> {
    let profile = profile.map(profile_named).transpose()?;
    let reading = reading_named(reading)?;
    let out = py
        .detach(|| decide_batch_as(&batch.0, profile, reading))
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    Ok(PyArrowType(out))
}

/// Decides every row of a `pyarrow.Table` (or any object with
/// `__arrow_c_stream__`), batch by batch.
#[pyfunction]
#[pyo3(signature = (table, profile = None, *, reading = "crawler"))]
pub fn decide_table(
    py: Python<'_>,
    table: PyArrowType<Table>,
    profile: Option<&str>,
    reading: &str,
) -> PyResult<PyArrowType<Table>> {
    let profile = profile.map(profile_named).transpose()?;
    let reading = reading_named(reading)?;
    let (batches, schema) = table.0.into_inner();
    let out = py.detach(|| {
        batches
            .iter()
            .map(|batch| decide_batch_as(batch, profile, reading))
            .collect::<Result<Vec<_>, _>>()
    });
    let out = out.map_err(|err| PyValueError::new_err(err.to_string()))?;
    let schema = match out.first() {
        Some(first) => first.schema(),
        // No batches: the input schema with the output columns.
        None => decide_batch_as(&RecordBatch::new_empty(schema), profile, reading)
            .map_err(|err| PyValueError::new_err(err.to_string()))?
            .schema(),
    };
    Table::try_new(out, schema)
        .map(PyArrowType)
        .map_err(|err| PyValueError::new_err(err.to_string()))
}
