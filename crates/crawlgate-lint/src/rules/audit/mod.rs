//! Audit rules (`R5xx`): known crawler tokens, and what the registry says
//! of the crawlers a file names.

pub(crate) mod agent_typo;
pub(crate) mod retired_crawler;
pub(crate) mod search_crawler_in_ai_group;
