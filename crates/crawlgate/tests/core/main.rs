//! The core crate's integration tests, one binary: each file a module.

mod ai_preferences;
mod architecture;
mod bing;
mod common;
mod conformance;
mod crawler_reading;
mod differential;
mod once;
mod queries;
mod records;
mod registry;
mod robustness;
mod search_console;
mod urllib;
mod verdicts;
mod whole_names;
mod workspace;
mod yandex;
