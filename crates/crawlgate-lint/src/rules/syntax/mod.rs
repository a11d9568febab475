//! Syntax rules (`R0xx`): how lines are read.

pub(crate) mod byte_order_mark;
pub(crate) mod cr_line_endings;
pub(crate) mod dollar_not_at_end;
pub(crate) mod field_name_prefix;
pub(crate) mod file_too_large;
pub(crate) mod html_page;
pub(crate) mod invalid_line;
pub(crate) mod invalid_utf8;
pub(crate) mod leading_wildcard;
pub(crate) mod line_too_long;
pub(crate) mod missing_colon;
pub(crate) mod misspelled_field;
pub(crate) mod nul_byte;
pub(crate) mod path_not_absolute;
pub(crate) mod relative_sitemap;
pub(crate) mod rule_before_user_agent;
pub(crate) mod unknown_field;
