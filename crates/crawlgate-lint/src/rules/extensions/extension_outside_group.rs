//! `R311` extension-outside-group: a group-member extension (crawl-delay…) before any user-agent line

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::ExtensionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::ExtensionOutsideGroup,
    r#"## What it does

Reports `Crawl-delay`, `Request-rate`, `Visit-time`, `Content-Usage` and
`Content-Signal` lines that come before the first `User-agent` line.

## Why it matters

These fields belong to the group of the user-agent lines above them. With
none above, crawlers ignore them.

## Example

```text
Crawl-delay: 10
User-agent: *
Disallow: /tmp/
```

## Use instead

```text
User-agent: *
Crawl-delay: 10
Disallow: /tmp/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.file_extensions() {
        let member = matches!(
            ext.kind(),
            ExtensionKind::CrawlDelay
                | ExtensionKind::RequestRate
                | ExtensionKind::VisitTime
                | ExtensionKind::ContentUsage
                | ExtensionKind::ContentSignal
        );
        if !member {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::ExtensionOutsideGroup,
                cx.content_span(ext.line()),
                format!(
                    "`{}` before any User-agent line belongs to no group: crawlers ignore it",
                    ext.key()
                ),
            )
            .with_fix("move it into the group it is meant for", None),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(ExtensionOutsideGroup);
