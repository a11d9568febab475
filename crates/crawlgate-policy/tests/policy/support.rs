//! What the tests share: a second opinion on every verdict, by Google's
//! own matching algorithm (`crawlgate_test_support::reference_matches`)
//! over the groups Google's library chooses for one product token.

use crawlgate::RobotsTxt;
use crawlgate_test_support::reference_matches;

/// Whether `token` may fetch `path` under `file`, by Google's library's
/// group choice (the one-token reading) and its matcher, literally: the
/// longest matching rule wins, allow on a tie, nothing matching allows.
pub fn reference_allowed(file: &[u8], token: &str, path: &str) -> bool {
    reference_allowed_in(&RobotsTxt::parse(file), token, path)
}

/// [`reference_allowed`] on a file parsed once.
pub fn reference_allowed_in(robots: &RobotsTxt, token: &str, path: &str) -> bool {
    let mut best: Option<(usize, bool)> = None;
    for group in robots.view(token).groups() {
        for rule in group.rules() {
            let pattern = rule.pattern();
            if pattern.is_empty() || !reference_matches(pattern.as_bytes(), path.as_bytes()) {
                continue;
            }
            let candidate = (pattern.len(), rule.is_allow());
            best = match best {
                Some((len, allow)) if len > candidate.0 || (len == candidate.0 && allow) => {
                    Some((len, allow))
                }
                _ => Some(candidate),
            };
        }
    }
    best.is_none_or(|(_, allow)| allow)
}

/// Every warning and error the linter finds in `file`.
pub fn lint_warnings(file: &[u8]) -> Vec<String> {
    let report = crawlgate_lint::lint(file, &crawlgate_lint::LintOptions::default());
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity >= crawlgate::Severity::Warning)
        .map(|d| format!("{}:{} {}", d.span.line, d.code.as_str(), d.message))
        .collect()
}
