//! `R302` crawl-delay-range: a crawl delay outside Bing's 1–30 seconds

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::CrawlDelayRange,
    r#"## What it does

Reports valid `Crawl-delay` values below 1 or above 30 seconds in the
groups Bing reads (`0`, no delay, is left alone).

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
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut bing: Option<rustc_hash::FxHashSet<usize>> = None;
    for ext in cx.robots.extensions() {
        let Some(delay) = ext.crawl_delay() else {
            continue;
        };
        let s = delay.seconds;
        // 0 asks for no delay, which is what crawlers do without the line.
        if s == 0.0 || (1.0..=30.0).contains(&s) {
            continue;
        }
        let bing =
            bing.get_or_insert_with(|| cx.robots.groups_of("bingbot").map(|g| g.index()).collect());
        if !ext.group().is_some_and(|g| bing.contains(&g.index())) {
            continue; // a group Bing does not read
        }
        let (message, fixed) = if s < 1.0 {
            (
                format!("a crawl delay of {s} s is below the 1–30 s that Bing accepts"),
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
