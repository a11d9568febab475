//! Fixture helpers for the rule tests: `testdata/lint/<CODE>/fires.robots.txt`
//! must trigger the rule, `clean.robots.txt` (a near-identical file) must not.
//! A fixture whose first line is `# lint-profile: rfc9309` is linted with
//! that profile.

use crate::diagnostic::Code;
use crate::linter::lint;
use crate::options::LintOptions;
use crate::report::LintReport;
use crawlgate::Profile;

pub(crate) fn fixture_path(code: Code, which: &str) -> String {
    format!(
        "{}/../../testdata/lint/{}/{which}.robots.txt",
        env!("CARGO_MANIFEST_DIR"),
        code.as_str()
    )
}

pub(crate) fn lint_fixture(code: Code, which: &str) -> (Vec<u8>, LintReport) {
    let path = fixture_path(code, which);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut options = LintOptions::everything().with_audit(false);
    if let Some(rest) = bytes.strip_prefix(b"# lint-profile: ".as_slice()) {
        let name: String = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .map(|&b| b as char)
            .collect();
        options.profile = Profile::named(&name).expect("a profile name");
    }
    let report = lint(&bytes, &options);
    (bytes, report)
}

pub(crate) fn assert_fires(code: Code) {
    let (_, report) = lint_fixture(code, "fires");
    assert!(
        report.with_code(code).count() > 0,
        "{code} does not fire on its fixture; got {:#?}",
        report.diagnostics
    );
    for d in report.with_code(code) {
        assert!(!d.message.is_empty());
        assert!(d.span.line >= 1 && d.span.column >= 1, "{d:?}");
    }
}

pub(crate) fn assert_clean(code: Code) {
    let (_, report) = lint_fixture(code, "clean");
    let found: Vec<_> = report.with_code(code).collect();
    assert!(
        found.is_empty(),
        "{code} fires on its clean fixture: {found:#?}"
    );
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
