//! `lint`: linting any bytes never panics, whatever the profile, and every
//! output format renders; the JSON and SARIF outputs are valid JSON.

use crawlgate::Profile;
use crawlgate_lint::{lint, render, LintOptions};

/// Lints `data` with every rule on (both profile comparisons and the crawler
/// audit) under every profile, and renders the report in every format.
///
/// ```
/// crawlgate_fuzz::lint::check(b"User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n");
/// ```
pub fn check(data: &[u8]) {
    for profile in Profile::ALL {
        let report = lint(data, &LintOptions::everything().with_profile(profile));
        for d in &report.diagnostics {
            assert!(
                d.span.bytes.start <= d.span.bytes.end && d.span.bytes.end <= data.len(),
                "[{profile}] {} span {:?} outside the {}-byte input",
                d.code,
                d.span,
                data.len()
            );
            assert!(d.span.line >= 1 && d.span.column >= 1, "{d:?}");
        }
        for color in [false, true] {
            let _ = render::human(&report, data, "robots.txt", color);
            if let Some(audit) = &report.audit {
                let _ = render::audit_table(audit, color);
            }
        }
        let _ = render::summary(&report, "robots.txt");
        let file = render::LintedFile {
            path: "robots.txt",
            source: data,
            report: &report,
        };
        valid_json(&render::json(&[file]), profile, "JSON");
        valid_json(&render::sarif(&[file]), profile, "SARIF");
        if let Some(audit) = &report.audit {
            valid_json(&render::audit_json(audit), profile, "audit JSON");
        }
    }
}

/// Panics unless `text` is one JSON value: parsed in full and thrown away as it
/// goes (a `Value` tree of every report, built only to be dropped, was most
/// of the replay test's time).
fn valid_json(text: &str, profile: Profile, format: &str) {
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
        panic!("[{profile}] the {format} output is not valid JSON ({e}): {text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_json_takes_one_whole_value() {
        valid_json(
            r#"{"a": ["\u00e9\n", 1.5e3, null, {"b": true}]}"#,
            Profile::GOOGLE,
            "test",
        );
    }

    #[test]
    fn valid_json_refuses_what_a_json_reader_would() {
        for bad in [
            r#"{"a": "\q"}"#,
            r#"{"a": "\u12"}"#,
            "{\"a\": \"tab\there\"}",
            r#"{"a": 1} trailing"#,
            r#"{"a": [1, 2}"#,
            r#"{"a": 01}"#,
            "",
        ] {
            let refused = std::panic::catch_unwind(|| valid_json(bad, Profile::GOOGLE, "test"));
            assert!(refused.is_err(), "{bad:?} was taken as JSON");
        }
    }
}
