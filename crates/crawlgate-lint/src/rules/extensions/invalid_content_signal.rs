//! `R308` invalid-content-signal: a malformed `Content-Signal` value

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidContentSignal,
    r#"## What it does

Reports `Content-Signal` lines that are not a `key=value` list or whose
values are not `yes` or `no`.

## Why it matters

A signal that does not parse expresses nothing.

## Example

```text
User-agent: *
Content-Signal: search=yes ai-train=no
```

## Use instead

```text
User-agent: *
Content-Signal: search=yes, ai-train=no
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        let Some(signal) = ext.content_signal() else {
            continue;
        };
        match signal.entries() {
            Err(error) => out.push(
                cx.diagnostic(
                    Code::InvalidContentSignal,
                    cx.value_part_span(
                        ext.line(),
                        error.offset.min(signal.value.len().saturating_sub(1)),
                        1,
                    ),
                    format!(
                        "`{}` is not a signal list ({}): crawlers ignore it",
                        signal.value, error.message
                    ),
                )
                .with_fix("write e.g. `Content-Signal: search=yes, ai-train=no`", None),
            ),
            Ok(entries) => {
                for entry in entries {
                    if !matches!(entry.value, "yes" | "no") {
                        out.push(
                            cx.diagnostic(
                                Code::InvalidContentSignal,
                                cx.value_span(ext.line()),
                                format!(
                                    "`{}={}`: signal values are `yes` and `no`",
                                    entry.key, entry.value
                                ),
                            )
                            .with_fix("use `yes` or `no`", None),
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidContentSignal);
