//! Syntax rules (`R0xx`): how lines are read.

pub(crate) mod binary_file;
pub(crate) mod dollar_not_at_end;
pub(crate) mod file_too_large;
pub(crate) mod html_page;
pub(crate) mod leading_wildcard;
pub(crate) mod nul_byte;
pub(crate) mod parser_findings;
pub(crate) mod path_not_absolute;
pub(crate) mod relative_sitemap;
pub(crate) mod unknown_field;
