//! Path rules (`R2xx`): what the allow and disallow lines decide.

pub(crate) mod blocked_resources;
pub(crate) mod contradictory_rules;
pub(crate) mod disallow_all;
pub(crate) mod disallowed_sitemap;
pub(crate) mod duplicate_rule;
pub(crate) mod public_secret;
pub(crate) mod shadowed_rule;
