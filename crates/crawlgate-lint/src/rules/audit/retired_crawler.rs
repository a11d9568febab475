//! `R503` retired-crawler: a user-agent naming a crawler that no longer runs

use rustc_hash::FxHashSet;

use crate::audit::{crawlers, find};
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::and_list;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::RetiredCrawler,
    r#"## What it does

Reports `User-agent` lines naming a crawler that no longer runs, as the
crawler registry records it (with its source): `Googlebot-Mobile`,
`MSNBot-Media`, `Teoma`… When a crawler that still runs follows groups
naming that token (Bingbot follows `msnbot` groups when none names
Bingbot), the finding says so, for then the line still decides something.

## Why it matters

A group for a crawler that no longer comes does nothing: lists of crawlers
carry such names for years, and readers believe they are handled. Where a
running crawler falls back to the old token, the rules it obeys are under
a name that hides it.

## Example

```text
User-agent: Googlebot-Mobile
Disallow: /
```

## Use instead

```text
User-agent: Googlebot
Disallow: /m/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = FxHashSet::default();
    for ua in cx.robots.user_agents() {
        let token = ua.token();
        if ua.is_global() || !seen.insert(token.to_ascii_lowercase()) {
            continue;
        }
        let Some(crawler) = crawlgate::registry::find(ua.value()).or_else(|| find(token)) else {
            continue;
        };
        let Some(source) = crawler.retired else {
            continue;
        };
        let followers: Vec<String> = crawlers()
            .iter()
            .filter(|c| c.runs() && c.fallbacks.iter().any(|f| f.eq_ignore_ascii_case(token)))
            .map(|c| format!("`{}`", c.name))
            .collect();
        let (still, fix) =
            if followers.is_empty() {
                (
                    "the line changes nothing today".to_owned(),
                    "remove the line, or name the crawler that replaced it".to_owned(),
                )
            } else {
                (
                    format!(
                    "but {} {} a group naming `{token}` when no group names {}: name {} to say so",
                    and_list(&followers),
                    if followers.len() == 1 { "follows" } else { "follow" },
                    if followers.len() == 1 { "it" } else { "them" },
                    if followers.len() == 1 { "it" } else { "them" }
                ),
                    format!(
                        "name {} beside or instead of `{token}`",
                        and_list(&followers)
                    ),
                )
            };
        out.push(
            cx.diagnostic(
                Code::RetiredCrawler,
                cx.value_span(ua.line()),
                format!(
                    "{} no longer runs ({}; {}): {still}",
                    if crawler.name.eq_ignore_ascii_case(ua.value()) {
                        format!("`{}`", ua.value())
                    } else {
                        format!("`{}` names {}, which", ua.value(), crawler.name)
                    },
                    crawler.note.split(';').next().unwrap_or(crawler.note),
                    source.title
                ),
            )
            .with_fix(fix, None),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions, Severity};

    #[test]
    fn retired_crawlers_and_those_that_follow_them() {
        let file = "User-agent: Googlebot-Mobile\nUser-agent: msnbot\nUser-agent: Googlebot\nDisallow: /\n";
        let report = lint(file.as_bytes(), &LintOptions::default());
        let found: Vec<_> = report.with_code(Code::RetiredCrawler).collect();
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(found.iter().all(|d| d.severity == Severity::Info));
        assert!(
            found[0].message.ends_with("the line changes nothing today"),
            "{}",
            found[0].message
        );
        assert!(
            found[1]
                .message
                .contains("but `Bingbot` follows a group naming `msnbot`"),
            "{}",
            found[1].message
        );
        let running = "User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /\n";
        assert_eq!(
            lint(running.as_bytes(), &LintOptions::default())
                .with_code(Code::RetiredCrawler)
                .count(),
            0
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(RetiredCrawler);
