//! `R302` crawl-delay-range: a crawl delay outside Bing's 1–30 seconds

use crate::diagnostic::{Code, Diagnostic};
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::CrawlDelayRange,
    name: "crawl-delay-range",
    severity: Severity::Warning,
    category: Category::Extensions,
    summary: "a crawl delay outside Bing's 1–30 seconds",
    docs: r#"## What it does

Reports valid `Crawl-delay` values below 1 or above 30 seconds.

## Why it matters

Bing reads values from 1 to 30. Crawlers that take the value as written
fetch at most 86,400 / delay pages a day: a delay of 3600 means 24 pages a
day.

## Example

```text
User-agent: bingbot
Crawl-delay: 120
```

## Use instead

```text
User-agent: bingbot
Crawl-delay: 30
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        let Some(delay) = ext.crawl_delay() else {
            continue;
        };
        let s = delay.seconds;
        if (1.0..=30.0).contains(&s) {
            continue;
        }
        let (message, fixed) = if s < 1.0 {
            (
                format!(
                    "a crawl delay of {s} s is below the 1–30 s that Bing accepts (0 asks for no \
                     delay at all)"
                ),
                "1",
            )
        } else {
            (
                format!(
                    "a crawl delay of {s} s is above the 1–30 s that Bing accepts; crawlers that \
                     take it as written fetch at most {} page(s) a day",
                    (86_400.0 / s).floor()
                ),
                "30",
            )
        };
        out.push(
            cx.diagnostic(Code::CrawlDelayRange, cx.value_span(ext.line()), message)
                .with_fix(
                    format!("use a value from 1 to 30: `{fixed}`"),
                    Some(fixed.to_owned()),
                ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(CrawlDelayRange);
