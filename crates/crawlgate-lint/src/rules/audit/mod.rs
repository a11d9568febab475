//! Audit rules (`R5xx`): known crawler tokens.

pub(crate) mod agent_typo;
