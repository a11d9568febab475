//! # crawlgate for Python
//!
//! The `crawlgate_robots._crawlgate` extension module behind the `crawlgate_robots`
//! Python package: the core's parser and decisions ([`robots`],
//! [`verdict`], [`extensions`]) under either reading of a crawler's name
//! ([`reading`], [`choice`], [`registry`]), the AI-usage preferences
//! ([`usage`]), Search Console's line view ([`search_console`]), both
//! serialised as every front end writes them ([`shown`]), the
//! linter ([`lint`]), the fetch policy
//! of `crawlgate-fetch` ([`policy`]), Arrow batch decisions ([`batch`],
//! [`arrow`]) and the survey's per-site rows ([`survey`]). The Python package adds the Protego drop-in, the Scrapy
//! components and `crawlgate_robots.arrow` on top, in Python, without logic of
//! their own.
//!
//! The pure-Rust part ([`batch::decide_batch`]) is usable and tested
//! without Python.

pub mod arrow;
pub mod audit;
pub mod batch;
pub mod choice;
pub mod extensions;
pub mod input;
pub mod lint;
pub mod policy;
pub mod reading;
pub mod registry;
pub mod robots;
pub mod search_console;
pub mod shown;
pub mod survey;
pub mod usage;
pub mod verdict;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::input::text_arg;

/// The crawler's product token from a full HTTP `User-Agent` header
/// (`Mozilla/5.0 (compatible; Googlebot/2.1; …)` → `Googlebot`), or `None`
/// when the header names nothing.
#[pyfunction]
fn product_token(user_agent: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let header = text_arg(user_agent, "user_agent")?;
    Ok(crawlgate::product_token(&header).map(str::to_owned))
}

/// Whether `name` is a product token (`[A-Za-z_-]+`), the form robots.txt
/// compares.
#[pyfunction]
fn is_product_token(name: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(crawlgate::is_product_token(&text_arg(name, "name")?))
}

/// The extension module.
#[pymodule]
fn _crawlgate(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<robots::PyRobotsTxt>()?;
    m.add_class::<robots::PyAgentView>()?;
    m.add_class::<verdict::PyVerdict>()?;
    m.add_class::<choice::PyGroupChoice>()?;
    m.add_class::<registry::PyCrawler>()?;
    m.add_class::<extensions::PyRequestRate>()?;
    m.add_class::<extensions::PyVisitTime>()?;
    m.add_class::<extensions::PyContentUsage>()?;
    m.add_class::<lint::PyDiagnostic>()?;
    m.add_class::<policy::PyFetchPolicy>()?;
    m.add_class::<policy::PyFetchOutcome>()?;
    m.add_class::<audit::PyAuditor>()?;
    m.add_function(wrap_pyfunction!(audit::audit_schema, m)?)?;
    m.add_function(wrap_pyfunction!(product_token, m)?)?;
    m.add_function(wrap_pyfunction!(is_product_token, m)?)?;
    m.add_function(wrap_pyfunction!(lint::lint_body, m)?)?;
    m.add_function(wrap_pyfunction!(registry::crawlers, m)?)?;
    m.add_function(wrap_pyfunction!(registry::identify_crawler, m)?)?;
    m.add_function(wrap_pyfunction!(search_console::search_console_report, m)?)?;
    m.add_function(wrap_pyfunction!(policy::robots_url, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::decide_record_batch, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::decide_table, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey_schema, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey_record_batch, m)?)?;
    m.add_function(wrap_pyfunction!(survey::survey_paths, m)?)?;
    m.add("MAX_BYTES", crawlgate::MAX_BYTES)?;
    m.add("PROFILES", PyTuple::new(m.py(), input::profile_names())?)?;
    m.add("READINGS", PyTuple::new(m.py(), ["crawler", "one-token"])?)?;
    m.add("REGISTRY_VERSION", registry::version())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
