//! `R303` invalid-crawl-delay: a `Crawl-delay` value that is not a number of seconds

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::{CrawlDelay, ExtensionKind};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidCrawlDelay,
    r#"## What it does

Reports `Crawl-delay` values that are not a plain non-negative number
(`10`, `2.5`).

## Why it matters

Crawlers that read `Crawl-delay` ignore a value such as `10s` or `ten`, or
read only its leading digits.

## Example

```text
User-agent: bingbot
Crawl-delay: 10s
```

## Use instead

```text
User-agent: bingbot
Crawl-delay: 10
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::CrawlDelay || ext.crawl_delay().is_some() {
            continue;
        }
        let value = ext.value();
        let digits: String = value
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let d = cx.diagnostic(
            Code::InvalidCrawlDelay,
            cx.value_span(ext.line()),
            format!(
                "`{value}` is not a number of seconds: crawlers ignore this crawl delay (or read \
                 only its leading digits)"
            ),
        );
        let d = if !digits.is_empty() && CrawlDelay::parse(&digits, 0).is_some() {
            d.with_fix(format!("write `{digits}`"), Some(digits))
        } else {
            d.with_fix("write the delay in seconds, e.g. `10`", None)
        };
        out.push(d);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidCrawlDelay);
