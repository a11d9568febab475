//! The survey end to end: WARC files built from the corpus (damaged ones
//! too), folders, tables, live fetches and object storage in; Parquet,
//! JSON lines, the HTML report and the JSON summary out; tables read back.

#[path = "../support/warc.rs"]
mod warc_writer;

#[path = "../support/bar.rs"]
mod bar_warc;

mod architecture;
mod bad_input;
mod bar;
mod browser;
mod compare;
mod docs;
mod group_words;
mod inputs;
mod live;
mod remote;
mod tables;

use std::path::{Path, PathBuf};

use crawlgate_survey::input::Input;
use crawlgate_survey::{CrawlerSet, Plan, Summary, Survey};
use serde_json::Value;

/// Surveys `inputs` for `crawlers` into a JSON-lines table in `dir`;
/// returns the rows and the summary.
pub fn survey_rows(dir: &Path, inputs: &[Input], crawlers: &[&str]) -> (Vec<Value>, Summary) {
    let out = dir.join("rows.jsonl");
    let plan = Plan {
        outputs: vec![out.clone()],
        ..Plan::default()
    };
    let survey = Survey::new(CrawlerSet::from_tokens(crawlers.iter().copied()).unwrap());
    let summary = crawlgate_survey::run(&survey, inputs, &plan, &|_| {}).unwrap();
    let rows = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (rows, summary)
}

/// The row of `host`.
pub fn row<'a>(rows: &'a [Value], host: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["host"] == host && r["error"].is_null())
        .unwrap_or_else(|| panic!("no row for {host}"))
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}
