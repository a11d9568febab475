//! `R305` invalid-visit-time: a malformed `Visit-time` value

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::ExtensionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidVisitTime,
    r#"## What it does

Reports `Visit-time` values that are not a UTC window `HHMM-HHMM`.

## Why it matters

Crawlers that read the field ignore a window they cannot parse and crawl
at any time.

## Example

```text
User-agent: *
Visit-time: 9am-5pm
```

## Use instead

```text
User-agent: *
Visit-time: 0900-1700
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::VisitTime || ext.visit_time().is_some() {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::InvalidVisitTime,
                cx.value_span(ext.line()),
                format!(
                    "`{}` is not a UTC window `HHMM-HHMM`: crawlers ignore it and visit at any time",
                    ext.value()
                ),
            )
            .with_fix("write e.g. `Visit-time: 0100-0500`", None),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidVisitTime);
