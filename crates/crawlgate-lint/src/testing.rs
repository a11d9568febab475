//! Fixture helpers for the rule tests: `testdata/lint/<CODE>/fires.robots.txt`
//! must trigger the rule, `clean.robots.txt` (a near-identical file) must not;
//! so must every variant `fires-*.robots.txt` and `clean-*.robots.txt`.
//! A fixture whose first line is `# lint-profile: rfc9309` is linted with
//! that profile.

use crate::diagnostic::Code;
use crate::linter::lint;
use crate::options::LintOptions;
use crate::report::LintReport;
use crawlgate::Profile;
use crawlgate_test_support::lint_fixtures;

pub(crate) fn fixture_path(code: Code, which: &str) -> String {
    lint_fixtures::path(code.as_str(), which)
}

/// The fixture files of a code whose names start with `which`
/// (`fires.robots.txt` and its variants `fires-*.robots.txt`).
pub(crate) fn fixture_paths(code: Code, which: &str) -> Vec<String> {
    lint_fixtures::paths(code.as_str(), which)
}

pub(crate) fn lint_file(path: &str) -> (Vec<u8>, LintReport) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut options = LintOptions::everything().with_audit(false);
    if let Some(name) = lint_fixtures::profile(&bytes) {
        options.profile = Profile::named(&name).expect("a profile name");
    }
    let report = lint(&bytes, &options);
    (bytes, report)
}

pub(crate) fn assert_fires(code: Code) {
    let paths = fixture_paths(code, "fires");
    assert!(!paths.is_empty(), "{code} has no fires fixture");
    for path in paths {
        let (_, report) = lint_file(&path);
        assert!(
            report.with_code(code).count() > 0,
            "{code} does not fire on {path}; got {:#?}",
            report.diagnostics
        );
        for d in report.with_code(code) {
            assert!(!d.message.is_empty());
            assert!(d.span.line >= 1 && d.span.column >= 1, "{d:?}");
        }
    }
}

pub(crate) fn assert_clean(code: Code) {
    let paths = fixture_paths(code, "clean");
    assert!(!paths.is_empty(), "{code} has no clean fixture");
    for path in paths {
        let (_, report) = lint_file(&path);
        let found: Vec<_> = report.with_code(code).collect();
        assert!(found.is_empty(), "{code} fires on {path}: {found:#?}");
    }
}

/// The two fixture tests of a rule.
macro_rules! fixture_tests {
    ($($code:tt)+) => {
        #[cfg(test)]
        mod fixture_tests {
            #[test]
            fn fires_on_its_fixture() {
                crate::testing::assert_fires(crate::diagnostic::Code::$($code)+);
            }

            #[test]
            fn clean_fixture_stays_clean() {
                crate::testing::assert_clean(crate::diagnostic::Code::$($code)+);
            }
        }
    };
}
pub(crate) use fixture_tests;
