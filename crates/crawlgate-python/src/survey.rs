//! `crawlgate_robots._crawlgate.survey_*`: the rows of `crawlgate survey` (one per
//! site, a class per crawler) as Arrow, computed by `crawlgate-survey` with
//! the GIL released.

use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_pyarrow::{PyArrowType, Table};
use arrow_schema::Schema;
use crawlgate_survey::batch::{survey_batch, survey_inputs, BatchError};
use crawlgate_survey::input::Input;
use crawlgate_survey::output::schema;
use crawlgate_survey::{CrawlerSet, Survey};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

/// The survey of `crawlers` (product tokens or `*`), or of the default set
/// (Googlebot, Bingbot, the table's AI crawlers and `*`) when `None`.
fn survey_of(crawlers: Option<Vec<String>>) -> PyResult<Survey> {
    let set = match crawlers {
        None => CrawlerSet::default_set(),
        Some(tokens) => CrawlerSet::from_tokens(tokens.iter().map(String::as_str))
            .map_err(|err| PyValueError::new_err(err.to_string()))?,
    };
    Ok(Survey::new(set))
}

fn value_error(err: BatchError) -> PyErr {
    PyValueError::new_err(err.to_string())
}

/// The schema of the survey's rows for these crawlers: the columns
/// `crawlgate survey` writes to Parquet.
#[pyfunction]
#[pyo3(signature = (crawlers = None))]
pub fn survey_schema(crawlers: Option<Vec<String>>) -> PyResult<PyArrowType<Schema>> {
    let survey = survey_of(crawlers)?;
    Ok(PyArrowType(
        schema(survey.crawlers(), survey.paths(), survey.profile().name)
            .as_ref()
            .clone(),
    ))
}

/// Classifies a `pyarrow.RecordBatch` of captures (`host`, `robots_txt`,
/// and optionally `status`, `content_type`, `source`): one survey row per
/// input row, in order.
#[pyfunction]
#[pyo3(signature = (batch, crawlers = None))]
pub fn survey_record_batch(
    py: Python<'_>,
    batch: PyArrowType<RecordBatch>,
    crawlers: Option<Vec<String>>,
) -> PyResult<PyArrowType<RecordBatch>> {
    let survey = survey_of(crawlers)?;
    let rows = py
        .detach(|| survey_batch(&batch.0, &survey))
        .map_err(value_error)?;
    Ok(PyArrowType(rows))
}

/// Surveys files as `crawlgate survey` reads them (WARC files, folders of
/// files named by host, JSON-lines or CSV tables, told apart by name; WARC
/// files by `s3://` or `https://` URL, and `*.paths.gz` listings of them,
/// through object storage with the `AWS_*` variables) and returns the rows
/// as a `pyarrow.Table`. A path that cannot be opened, or a listing that
/// cannot be read, is an `OSError`; a damaged record (or a WARC URL that
/// cannot be read) is an error row.
#[pyfunction]
#[pyo3(signature = (paths, crawlers = None))]
pub fn survey_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    crawlers: Option<Vec<String>>,
) -> PyResult<PyArrowType<Table>> {
    let survey = survey_of(crawlers)?;
    // A listing is read here (its URLs are the inputs), so the GIL is
    // released for that too.
    let inputs = py
        .detach(|| {
            paths
                .iter()
                .map(|p| match p.to_str() {
                    Some(argument) => Input::resolve(argument, None),
                    None => Input::detect(p).map(|input| vec![input]),
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|err| PyOSError::new_err(err.to_string()))?
        .concat();
    let mut batches = Vec::new();
    py.detach(|| {
        survey_inputs(&inputs, &survey, &mut |batch| {
            batches.push(batch);
            Ok::<_, BatchError>(())
        })
    })
    .map_err(value_error)?;
    Table::try_new(
        batches,
        schema(survey.crawlers(), survey.paths(), survey.profile().name),
    )
    .map(PyArrowType)
    .map_err(|err| PyValueError::new_err(err.to_string()))
}
