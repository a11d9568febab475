//! The rules, one file each, grouped by category, and the pieces of wording
//! they share.

pub(crate) mod audit;
pub(crate) mod extensions;
pub(crate) mod grouping;
pub(crate) mod path_rules;
pub(crate) mod profiles;
pub(crate) mod syntax;

use crawlgate::{Reason, Rule, Verdict};

use crate::diagnostic::{Code, Diagnostic};
use crate::{Context, RuleInfo};

/// Every rule, in code order.
pub(crate) static ALL: &[&RuleInfo] = &[
    &syntax::unknown_field::RULE,
    &syntax::missing_colon::RULE,
    &syntax::misspelled_field::RULE,
    &syntax::field_name_prefix::RULE,
    &syntax::rule_before_user_agent::RULE,
    &syntax::path_not_absolute::RULE,
    &syntax::dollar_not_at_end::RULE,
    &syntax::leading_wildcard::RULE,
    &syntax::relative_sitemap::RULE,
    &syntax::byte_order_mark::RULE,
    &syntax::invalid_utf8::RULE,
    &syntax::cr_line_endings::RULE,
    &syntax::line_too_long::RULE,
    &syntax::file_too_large::RULE,
    &syntax::invalid_line::RULE,
    &syntax::nul_byte::RULE,
    &syntax::html_page::RULE,
    &grouping::merged_groups::RULE,
    &grouping::repeated_group::RULE,
    &grouping::agent_not_product_token::RULE,
    &grouping::empty_group::RULE,
    &path_rules::duplicate_rule::RULE,
    &path_rules::shadowed_rule::RULE,
    &path_rules::contradictory_rules::RULE,
    &path_rules::disallow_all::RULE,
    &path_rules::disallowed_sitemap::RULE,
    &path_rules::blocked_resources::RULE,
    &path_rules::public_secret::RULE,
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
    &profiles::rfc9309_differs::RULE,
    &profiles::legacy_differs::RULE,
    &audit::agent_typo::RULE,
];

/// Passes on what the parser reported under the same code.
pub(crate) fn from_parser(cx: &Context<'_>, code: Code, out: &mut Vec<Diagnostic>) {
    out.extend(
        cx.robots
            .diagnostics()
            .iter()
            .filter(|d| d.code.as_str() == code.as_str())
            .map(|d| Diagnostic::from_parser(code, d)),
    );
}

/// Where `part`, a slice of `whole`, starts in it.
pub(crate) fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let offset = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (offset + part.len() <= whole.len()).then_some(offset)
}

/// "`Disallow: /x` (line 3)".
pub(crate) fn quote_rule(rule: &Rule<'_>) -> String {
    format!("`{rule}` (line {})", rule.line())
}

/// "line 3", "lines 3 and 5", "lines 3, 5 and 9".
pub(crate) fn lines_phrase(lines: &[u32]) -> String {
    /// Beyond this many, the rest are counted, not listed.
    const LISTED: usize = 8;
    match lines {
        [] => "no line".to_owned(),
        [one] => format!("line {one}"),
        [init @ .., last] if lines.len() <= LISTED => {
            let init: Vec<String> = init.iter().map(u32::to_string).collect();
            format!("lines {} and {last}", init.join(", "))
        }
        _ => {
            let shown: Vec<String> = lines[..LISTED].iter().map(u32::to_string).collect();
            format!(
                "lines {} and {} more",
                shown.join(", "),
                lines.len() - LISTED
            )
        }
    }
}

/// "`a`, `b` and `c`".
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What a verdict says, with its reason: "disallows it (`Disallow: /` on
/// line 3)", "allows it (no rule matches)".
/// With `plural`, "allow it" / "disallow it".
pub(crate) fn describe_verdict(verdict: &Verdict<'_>, plural: bool) -> String {
    let outcome = match (verdict.is_allowed(), plural) {
        (true, false) => "allows it",
        (false, false) => "disallows it",
        (true, true) => "allow it",
        (false, true) => "disallow it",
    };
    let why = match (verdict.reason(), verdict.rule()) {
        (Reason::Rule, Some(rule)) if verdict.via_index_alias() => {
            format!("{} through its `index.html` alias", quote_rule(&rule))
        }
        (Reason::Rule, Some(rule)) => quote_rule(&rule),
        (Reason::EmptyRule, Some(rule)) => format!("the empty {}", quote_rule(&rule)),
        (Reason::NoGroup, _) => "no group applies".to_owned(),
        (Reason::RobotsTxt, _) => "`/robots.txt` is always allowed".to_owned(),
        _ => "no rule matches".to_owned(),
    };
    format!("{outcome} ({why})")
}
