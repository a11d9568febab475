//! # crawlgate-audit
//!
//! Access logs against robots.txt: which crawlers came, whether they were
//! who they said, and whether they obeyed.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod audit;
pub mod findings;
pub mod format;
pub mod identity;
pub mod input;
pub mod output;
pub mod record;
pub mod records;
pub mod robots;
pub mod service;
pub mod session;
pub mod time;
