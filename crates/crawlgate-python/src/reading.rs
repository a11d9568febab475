//! How a name is read (`reading="crawler"`, the default, or
//! `"one-token"`), and the views and verdicts each reading gives.

use crawlgate::{AgentView, CompiledRobotsTxt, RobotsTxt, Verdict};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// How the package reads the name of a crawler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameReading {
    /// The crawler reading: the registry's rules for a crawler it knows
    /// (its own token, then its fallbacks, `*` only if it obeys it); any
    /// other name is one token.
    Crawler,
    /// Google's library's reading: the groups naming the token, else `*`.
    OneToken,
}

impl NameReading {
    /// `crawler` or `one-token`, as the CLI's JSON names them.
    pub fn as_str(self) -> &'static str {
        match self {
            NameReading::Crawler => "crawler",
            NameReading::OneToken => "one-token",
        }
    }

    /// The view of `name` in `robots` under this reading.
    pub fn view<'r>(self, robots: &'r CompiledRobotsTxt, name: &str) -> AgentView<'r> {
        match self {
            NameReading::Crawler => robots.for_crawler(name),
            NameReading::OneToken => robots.for_agent(name),
        }
    }

    /// The view of `name` in an uncompiled `robots` under this reading.
    pub fn view_of<'r>(self, robots: &'r RobotsTxt, name: &str) -> AgentView<'r> {
        match self {
            NameReading::Crawler => robots.for_crawler(name),
            NameReading::OneToken => robots.for_agent(name),
        }
    }

    /// One question of an uncompiled `robots`, under this reading.
    pub fn decide<'r>(self, robots: &'r RobotsTxt, name: &str, url: &str) -> Verdict<'r> {
        match self {
            NameReading::Crawler => robots.decide_for_crawler(name, url),
            NameReading::OneToken => robots.decide(name, url),
        }
    }
}

/// The `reading=` argument: `crawler` or `one-token`.
pub fn reading_named(name: &str) -> PyResult<NameReading> {
    match name {
        "crawler" => Ok(NameReading::Crawler),
        "one-token" => Ok(NameReading::OneToken),
        other => Err(PyValueError::new_err(format!(
            "unknown reading {other:?}: expected \"crawler\" (the registry's rules for the crawler named, the default) or \"one-token\" (Google's library's reading of one product token)"
        ))),
    }
}
