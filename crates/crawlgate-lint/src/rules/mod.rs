//! The rules, one file each, grouped by category, and their registry.

pub(crate) mod audit;
pub(crate) mod extensions;
pub(crate) mod grouping;
pub(crate) mod path_rules;
pub(crate) mod profiles;
pub(crate) mod syntax;

use crate::diagnostic::Code;
use crate::rule::RuleInfo;

/// Every lint rule, in code order. The parser's findings (`R002`–`R006`,
/// `R010`–`R016`) are rules too: passed on as they are, or with a more
/// precise message.
pub static RULES: &[&RuleInfo] = &[
    &syntax::unknown_field::RULE,
    &syntax::parser_findings::MISSING_COLON,
    &syntax::parser_findings::MISSPELLED_FIELD,
    &syntax::parser_findings::FIELD_NAME_PREFIX,
    &syntax::parser_findings::RULE_BEFORE_USER_AGENT,
    &syntax::path_not_absolute::RULE,
    &syntax::dollar_not_at_end::RULE,
    &syntax::leading_wildcard::RULE,
    &syntax::relative_sitemap::RULE,
    &syntax::parser_findings::BYTE_ORDER_MARK,
    &syntax::parser_findings::INVALID_UTF8,
    &syntax::parser_findings::CR_LINE_ENDINGS,
    &syntax::parser_findings::LINE_TOO_LONG,
    &syntax::file_too_large::RULE,
    &syntax::parser_findings::INVALID_LINE,
    &syntax::nul_byte::RULE,
    &syntax::html_page::RULE,
    &syntax::binary_file::RULE,
    &grouping::merged_groups::RULE,
    &grouping::repeated_group::RULE,
    &grouping::agent_not_product_token::RULE,
    &grouping::empty_group::RULE,
    &grouping::drops_star_rules::RULE,
    &grouping::yandex_split_group::RULE,
    &path_rules::duplicate_rule::RULE,
    &path_rules::shadowed_rule::RULE,
    &path_rules::contradictory_rules::RULE,
    &path_rules::disallow_all::RULE,
    &path_rules::disallowed_sitemap::RULE,
    &path_rules::blocked_resources::RULE,
    &path_rules::public_secret::RULE,
    &path_rules::not_url_text::RULE,
    &extensions::crawl_delay_ignored::RULE,
    &extensions::crawl_delay_range::RULE,
    &extensions::invalid_crawl_delay::RULE,
    &extensions::invalid_request_rate::RULE,
    &extensions::invalid_visit_time::RULE,
    &extensions::invalid_content_usage::RULE,
    &extensions::unknown_content_usage_key::RULE,
    &extensions::invalid_content_signal::RULE,
    &extensions::unknown_content_signal_key::RULE,
    &extensions::noindex_line::RULE,
    &extensions::extension_outside_group::RULE,
    &extensions::host_line::RULE,
    &extensions::conflicting_preferences::RULE,
    &extensions::repeated_preference_key::RULE,
    &extensions::moot_preference::RULE,
    &extensions::invalid_license::RULE,
    &extensions::invalid_clean_param::RULE,
    &profiles::rfc9309_differs::RULE,
    &profiles::legacy_differs::RULE,
    &profiles::bing_differs::RULE,
    &profiles::yandex_differs::RULE,
    &audit::agent_typo::RULE,
    &audit::search_crawler_in_ai_group::RULE,
    &audit::retired_crawler::RULE,
];

/// The rule with this code.
pub fn rule_info(code: Code) -> Option<&'static RuleInfo> {
    RULES.iter().copied().find(|rule| rule.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_code_has_exactly_one_rule_in_code_order() {
        let codes: Vec<Code> = RULES.iter().map(|r| r.code).collect();
        assert_eq!(
            codes,
            Code::ALL,
            "RULES must list every code once, in code order"
        );
        let names: HashSet<&str> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), RULES.len());
    }

    #[test]
    fn every_rule_is_documented_and_has_both_fixtures() {
        for rule in RULES {
            for section in [
                "## What it does",
                "## Why it matters",
                "## Example",
                "## Use instead",
            ] {
                assert!(rule.docs.contains(section), "{} lacks {section}", rule.code);
            }
            assert!(!rule.summary.is_empty());
            for which in ["fires", "clean"] {
                let path = crate::testing::fixture_path(rule.code, which);
                assert!(std::path::Path::new(&path).is_file(), "missing {path}");
            }
        }
    }
}
