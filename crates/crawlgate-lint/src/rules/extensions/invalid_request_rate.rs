//! `R304` invalid-request-rate: a malformed `Request-rate` value

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::ExtensionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidRequestRate,
    r#"## What it does

Reports `Request-rate` values that are not `<pages>/<period>[s|m|h|d]`,
optionally followed by a `HHMM-HHMM` window.

## Why it matters

Crawlers that read the field ignore a value they cannot parse.

## Example

```text
User-agent: *
Request-rate: 1 per 5 seconds
```

## Use instead

```text
User-agent: *
Request-rate: 1/5s
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::RequestRate || ext.request_rate().is_some() {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::InvalidRequestRate,
                cx.value_span(ext.line()),
                format!(
                    "`{}` is not a request rate (`<pages>/<period>`, e.g. `1/5s` or `10/1m`, \
                     optionally with a `0800-1700` window): crawlers ignore it",
                    ext.value()
                ),
            )
            .with_fix("write e.g. `Request-rate: 1/5s`", None),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidRequestRate);
