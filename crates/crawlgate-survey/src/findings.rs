//! The linter's findings on a site's file, counted: by severity and by
//! code.

use crawlgate::{Profile, RobotsTxt, Severity};
use crawlgate_lint::Code;
use crawlgate_lint::{lint_findings_sharing, LintOptions};

/// Every code a row counts, in column order.
pub fn codes() -> &'static [Code] {
    Code::ALL
}

/// How many findings of each kind the linter reports on a file (with the
/// options of `crawlgate lint`: the file's profile, Google's reading
/// compared with RFC 9309's).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LintCounts {
    /// Findings of severity error.
    pub errors: u32,
    /// Findings of severity warning.
    pub warnings: u32,
    /// Findings of severity info.
    pub infos: u32,
    /// Findings per code, in the order of [`codes`].
    pub by_code: Vec<u32>,
}

impl LintCounts {
    /// Lints `body`, already parsed as `robots`.
    pub fn of(body: &[u8], robots: &RobotsTxt, profile: Profile) -> LintCounts {
        LintCounts::sharing(body, robots, &[], profile)
    }

    /// [`of`](LintCounts::of), with readings of `body` under other
    /// profiles already parsed (the survey's, for the crawlers read by their
    /// operators' parsers), which the linter then need not parse again.
    pub(crate) fn sharing(
        body: &[u8],
        robots: &RobotsTxt,
        readings: &[&RobotsTxt],
        profile: Profile,
    ) -> LintCounts {
        let found = lint_findings_sharing(
            body,
            robots,
            readings,
            &LintOptions::default().with_profile(profile),
        );
        let mut counts = LintCounts {
            by_code: vec![0; codes().len()],
            ..LintCounts::default()
        };
        for (code, severity) in found {
            match severity {
                Severity::Error => counts.errors += 1,
                Severity::Warning => counts.warnings += 1,
                Severity::Info => counts.infos += 1,
            }
            if let Some(i) = codes().iter().position(|c| *c == code) {
                counts.by_code[i] += 1;
            }
        }
        counts
    }

    /// The count of one code.
    pub fn count(&self, code: Code) -> u32 {
        codes()
            .iter()
            .position(|c| *c == code)
            .and_then(|i| self.by_code.get(i).copied())
            .unwrap_or(0)
    }
}

/// The column of a code's count (`lint_r017`).
pub fn column(code: Code) -> String {
    format!("lint_{}", code.as_str().to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_are_counted_by_severity_and_code() {
        let body = b"User-agent: *\nDissallow: /x\nDisallow: private\n";
        let robots = RobotsTxt::parse(body);
        let counts = LintCounts::of(body, &robots, Profile::GOOGLE);
        assert_eq!(counts.count(crawlgate::Code::MisspelledField.into()), 1);
        assert_eq!(counts.count(crawlgate::Code::PathNotAbsolute.into()), 1);
        assert_eq!(
            counts.errors + counts.warnings + counts.infos,
            counts.by_code.iter().sum::<u32>()
        );
        assert!(counts.errors >= 1 && counts.warnings >= 1);
        // An HTML page is reported once, without its lines' findings.
        let page =
            b"<!DOCTYPE html>\n<html><body>nope</body></html>\nUser-agent: *\nDissallow: /x\n";
        let counts = LintCounts::of(page, &RobotsTxt::parse(page), Profile::GOOGLE);
        assert_eq!(counts.count(Code::HtmlPage), 1);
        assert_eq!(counts.count(crawlgate::Code::MisspelledField.into()), 0);
        assert_eq!(column(Code::HtmlPage), "lint_r017");
    }
}
