//! A lint run: the file parsed, every rule's check, the findings in order.

use crawlgate::Code::{FileTooLarge, NulByte};
use crawlgate::{RobotsTxt, Severity};

use crate::audit;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::options::LintOptions;
use crate::report::LintReport;
use crate::rule::{Category, Check};
use crate::rules::{rule_info, RULES};

/// Lints robots.txt bytes.
///
/// ```
/// use crawlgate_lint::{lint, Code, LintOptions};
///
/// let report = lint(b"User-agent: *\nDisallow: /tmp\nDisallow: /tmp\n", &LintOptions::default());
/// let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
/// assert_eq!(codes, [Code::DuplicateRule]);
/// assert_eq!(report.diagnostics[0].span.line, 3);
/// ```
pub fn lint(source: &[u8], options: &LintOptions) -> LintReport {
    let robots = RobotsTxt::parse_with(source, options.profile);
    lint_parsed(source, &robots, options)
}

/// Lints a file already parsed from `source` (with `options.profile`).
pub fn lint_parsed(source: &[u8], robots: &RobotsTxt, options: &LintOptions) -> LintReport {
    lint_parsed_sharing(source, robots, &[], options)
}

/// [`lint_parsed`], given readings of `source` under other profiles that
/// the caller parsed already (each `RobotsTxt::parse_with(source, its
/// profile)`, as a survey does for the crawlers read by their operators'
/// parsers): the checks comparing readings use them instead of parsing
/// the file again. The report is the one [`lint_parsed`] gives.
///
/// ```
/// use crawlgate::{Profile, RobotsTxt};
/// use crawlgate_lint::{lint_parsed, lint_parsed_sharing, LintOptions};
///
/// let source = b"User-agent: *\nDisallow: /a\n\nClean-param: ref /\n";
/// let robots = RobotsTxt::parse(source);
/// let yandex = RobotsTxt::parse_with(source, Profile::YANDEX);
/// let options = LintOptions::default();
/// let shared = lint_parsed_sharing(source, &robots, &[&yandex], &options);
/// assert_eq!(shared.diagnostics, lint_parsed(source, &robots, &options).diagnostics);
/// ```
pub fn lint_parsed_sharing(
    source: &[u8],
    robots: &RobotsTxt,
    readings: &[&RobotsTxt],
    options: &LintOptions,
) -> LintReport {
    let cx = Context::sharing(source, robots, readings);
    let mut diagnostics = findings(&cx, options);
    for d in &mut diagnostics {
        // One line per span: a span running past its line (the part of a file
        // past the size limit) is cut at the line's end.
        if let Some(line) = cx.line(d.span.line)
            && d.span.bytes.end > line.end
            && d.span.bytes.start <= line.end
        {
            d.span.bytes.end = line.end.max(d.span.bytes.start);
        }
    }
    // Rules report in their own order; the output is by place, then code
    // (findings equal in all three keep a deterministic order).
    diagnostics.sort_unstable_by_key(|d| (d.span.line, d.span.column, d.code));
    let audit = options
        .audit
        .then(|| audit::audit_with(robots, options.audit_reading));
    LintReport {
        profile: robots.profile(),
        diagnostics,
        audit,
        stats: robots.stats().clone(),
    }
}

/// The code and severity of each finding [`lint_parsed_sharing`] reports,
/// in no particular order, for a caller that only counts them (a survey):
/// the findings are not placed, worded or given fixes, which some checks
/// spend more on than on finding them.
///
/// ```
/// use crawlgate::{RobotsTxt, Severity};
/// use crawlgate_lint::{lint_findings_sharing, Code, LintOptions};
///
/// let source = b"User-agent: *\nDisallow: *.pdf\nDisallow: /tmp\nDisallow: /tmp\n";
/// let robots = RobotsTxt::parse(source);
/// let mut found = lint_findings_sharing(source, &robots, &[], &LintOptions::default());
/// found.sort_by_key(|&(code, _)| code);
/// assert_eq!(found, [(Code::LeadingWildcard, Severity::Info), (Code::DuplicateRule, Severity::Info)]);
/// ```
pub fn lint_findings_sharing(
    source: &[u8],
    robots: &RobotsTxt,
    readings: &[&RobotsTxt],
    options: &LintOptions,
) -> Vec<(Code, Severity)> {
    let mut cx = Context::sharing(source, robots, readings);
    cx.counting = true;
    findings(&cx, options)
        .into_iter()
        .map(|d| (d.code, d.severity))
        .collect()
}

/// Every rule's findings on the file, in the rules' order, those a file
/// that is no robots.txt makes noise dropped.
fn findings(cx: &Context<'_>, options: &LintOptions) -> Vec<Diagnostic> {
    let robots = cx.robots;
    let mut diagnostics = Vec::new();
    for rule in RULES {
        let skipped = match rule.code {
            Code::Rfc9309Differs | Code::BingDiffers | Code::YandexDiffers => {
                !options.compare_profiles
            }
            Code::LegacyDiffers => !options.compare_legacy,
            _ => false,
        };
        if skipped {
            continue;
        }
        match rule.check {
            Check::Own(check) => check(cx, &mut diagnostics),
            Check::PassOn(left) => diagnostics.extend(
                robots
                    .diagnostics()
                    .iter()
                    .filter(|d| Code::Parse(d.code) == rule.code)
                    .filter(|d| !left.is_some_and(|left| left(cx, d)))
                    .map(crate::diagnostic::from_parser),
            ),
        }
    }
    if cx.html || cx.binary || cx.utf16 {
        // Not a robots.txt (or not one crawlers can read): the file-level
        // finding says so once (`R016` says "UTF-16"); what each line of
        // markup or bytes would be as robots.txt is noise.
        let kept = if cx.utf16 {
            Code::Parse(NulByte)
        } else {
            Code::Parse(FileTooLarge)
        };
        diagnostics.retain(|d| {
            rule_info(d.code).is_none_or(|rule| rule.category != Category::Syntax)
                || matches!(
                    d.code,
                    Code::HtmlPage | Code::BinaryFile | Code::Parse(FileTooLarge)
                )
                || d.code == kept
        });
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::Profile;

    /// The allowances that keep pathological files linear never run out on
    /// real files: on them, every check is complete.
    #[test]
    fn no_corpus_file_exhausts_an_allowance() {
        for (name, body) in crawlgate_corpus::files() {
            for profile in Profile::ALL {
                crate::budget::ran_out::take();
                lint(&body, &LintOptions::everything().with_profile(profile));
                assert!(
                    !crate::budget::ran_out::take(),
                    "{name} ({}) ran out of an allowance",
                    profile.name
                );
            }
        }
    }

    /// Counting finds what linting finds, code for code and severity for
    /// severity, on every corpus file under every profile.
    #[test]
    fn counted_findings_are_the_reported_ones() {
        let key = |found: &mut Vec<(Code, Severity)>| {
            found.sort();
        };
        let mut total = 0;
        for (name, body) in crawlgate_corpus::files() {
            for profile in Profile::ALL {
                let options = LintOptions::default().with_profile(profile);
                let robots = RobotsTxt::parse_with(&body, profile);
                let mut reported: Vec<(Code, Severity)> = lint_parsed(&body, &robots, &options)
                    .diagnostics
                    .iter()
                    .map(|d| (d.code, d.severity))
                    .collect();
                let mut counted = lint_findings_sharing(&body, &robots, &[], &options);
                key(&mut reported);
                key(&mut counted);
                assert_eq!(counted, reported, "{name} ({})", profile.name);
                total += counted.len();
            }
        }
        assert!(total > 10_000, "{total} findings");
    }

    #[test]
    fn spans_stay_on_their_line() {
        let mut big = b"User-agent: *\n".to_vec();
        while big.len() <= crawlgate::MAX_BYTES {
            big.extend_from_slice(b"Disallow: /some/long/path/to/fill/the/file\n");
        }
        big.extend_from_slice(b"Disallow: /lost");
        let report = lint(&big, &LintOptions::default());
        let d = report.with_code(Code::Parse(FileTooLarge)).next().unwrap();
        assert!(d.span.bytes.len() < 100, "{:?}", d.span);
        assert!(d.message.contains("allow/disallow"), "{}", d.message);
    }
}
