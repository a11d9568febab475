//! The parser's findings that the linter passes on as they are, one rule
//! each (`R002`–`R005`, `R010`–`R013`, `R015`): the parser's code, message
//! and fix, with the rule's documentation (in `parser_findings/`, one
//! Markdown file per rule). The linter runs them together
//! in one pass over the parser's findings. (`R006`, `R014` and `R016` say
//! more than the parser does and have rules of their own.)

use crawlgate::Code::{
    ByteOrderMark, CrLineEndings, FieldNamePrefix, InvalidLine, InvalidUtf8, LineTooLong,
    MissingColon, MisspelledField, RuleBeforeUserAgent,
};

use crate::context::Context;
use crate::rule::RuleInfo;

/// `R002` missing-colon: a line without a colon, read as `field value` by Google only
pub(crate) static MISSING_COLON: RuleInfo = RuleInfo::passed_on(
    MissingColon,
    include_str!("parser_findings/missing_colon.md"),
    None,
);

/// `R003` misspelled-field: a misspelled field name that only lenient crawlers accept
pub(crate) static MISSPELLED_FIELD: RuleInfo = RuleInfo::passed_on(
    MisspelledField,
    include_str!("parser_findings/misspelled_field.md"),
    None,
);

/// `R004` field-name-prefix: a field name recognised only by its prefix (`Disallowed:`)
pub(crate) static FIELD_NAME_PREFIX: RuleInfo = RuleInfo::passed_on(
    FieldNamePrefix,
    include_str!("parser_findings/field_name_prefix.md"),
    Some(explained_by_relative_sitemap),
);

/// `R005` rule-before-user-agent: an allow or disallow line before any user-agent line
pub(crate) static RULE_BEFORE_USER_AGENT: RuleInfo = RuleInfo::passed_on(
    RuleBeforeUserAgent,
    include_str!("parser_findings/rule_before_user_agent.md"),
    None,
);

/// `R010` byte-order-mark: a UTF-8 byte order mark at the start of the file
pub(crate) static BYTE_ORDER_MARK: RuleInfo = RuleInfo::passed_on(
    ByteOrderMark,
    include_str!("parser_findings/byte_order_mark.md"),
    None,
);

/// `R011` invalid-utf8: bytes that are not valid UTF-8
pub(crate) static INVALID_UTF8: RuleInfo = RuleInfo::passed_on(
    InvalidUtf8,
    include_str!("parser_findings/invalid_utf8.md"),
    None,
);

/// `R012` cr-line-endings: lines ended by a bare carriage return (old Mac style)
pub(crate) static CR_LINE_ENDINGS: RuleInfo = RuleInfo::passed_on(
    CrLineEndings,
    include_str!("parser_findings/cr_line_endings.md"),
    None,
);

/// `R013` line-too-long: a line longer than the reference implementation reads
pub(crate) static LINE_TOO_LONG: RuleInfo = RuleInfo::passed_on(
    LineTooLong,
    include_str!("parser_findings/line_too_long.md"),
    None,
);

/// `R015` invalid-line: a line that is neither empty, a comment, nor `field: value`
pub(crate) static INVALID_LINE: RuleInfo = RuleInfo::passed_on(
    InvalidLine,
    include_str!("parser_findings/invalid_line.md"),
    None,
);

/// `Sitemap http://…` (a missing colon, read as the field `Sitemap http`
/// by prefix) is explained by `R009`, which says what was meant.
fn explained_by_relative_sitemap(cx: &Context<'_>, found: &crawlgate::Diagnostic) -> bool {
    let key = String::from_utf8_lossy(&cx.source[found.span.bytes.clone()]).to_ascii_lowercase();
    key.starts_with("sitemap") && (key.ends_with(" http") || key.ends_with(" https"))
}

#[cfg(test)]
mod fixture_tests {
    use crawlgate::Code;

    #[test]
    fn each_fires_on_its_fixture_and_not_on_its_clean_one() {
        for code in [
            Code::MissingColon,
            Code::MisspelledField,
            Code::FieldNamePrefix,
            Code::RuleBeforeUserAgent,
            Code::ByteOrderMark,
            Code::InvalidUtf8,
            Code::CrLineEndings,
            Code::LineTooLong,
            Code::InvalidLine,
        ] {
            crate::testing::assert_fires(code.into());
            crate::testing::assert_clean(code.into());
        }
    }
}
