//! `R301` crawl-delay-ignored: `Crawl-delay` for crawlers that include Googlebot, which ignores it

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::CrawlDelayIgnored,
    r#"## What it does

Reports valid `Crawl-delay` lines in groups that Googlebot obeys (its own or
`*`).

## Why it matters

Google ignores `Crawl-delay`: Googlebot adapts its rate to the server's
responses. Bing, Yandex and many smaller crawlers do wait between requests.

## Example

```text
User-agent: *
Crawl-delay: 10
```

## Use instead

```text
User-agent: bingbot
Crawl-delay: 10
Disallow:
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !cx
        .robots
        .extensions()
        .any(|e| e.kind() == crawlgate::ExtensionKind::CrawlDelay)
    {
        return;
    }
    // The groups Googlebot obeys (no compiled view needed).
    for group in cx.robots.groups_of("Googlebot") {
        for ext in group.extensions() {
            let Some(delay) = ext.crawl_delay() else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    Code::CrawlDelayIgnored,
                    cx.content_span(ext.line()),
                    format!(
                        "Google ignores `Crawl-delay`: Googlebot, which obeys this group, sets its \
                         own rate; Bing, Yandex and others wait {} s between requests",
                        delay.seconds
                    ),
                )
                .with_fix(
                    "to slow Googlebot down, answer with 429/503 when overloaded; keep the line \
                     for the crawlers that read it",
                    None,
                ),
            );
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(CrawlDelayIgnored);
