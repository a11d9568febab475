//! Extension rules (`R3xx`): crawl-delay, request-rate, visit-time,
//! content-usage, content-signal, license, noindex.

pub(crate) mod conflicting_preferences;
pub(crate) mod crawl_delay_ignored;
pub(crate) mod crawl_delay_range;
pub(crate) mod extension_outside_group;
pub(crate) mod host_line;
pub(crate) mod invalid_clean_param;
pub(crate) mod invalid_content_signal;
pub(crate) mod invalid_content_usage;
pub(crate) mod invalid_crawl_delay;
pub(crate) mod invalid_license;
pub(crate) mod invalid_request_rate;
pub(crate) mod invalid_visit_time;
pub(crate) mod moot_preference;
pub(crate) mod noindex_line;
pub(crate) mod repeated_preference_key;
pub(crate) mod unknown_content_signal_key;
pub(crate) mod unknown_content_usage_key;
