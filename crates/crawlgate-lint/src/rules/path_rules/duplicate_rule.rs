//! `R201` duplicate-rule: the same rule twice for the same crawlers

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::quote_rule;
use rustc_hash::FxHashSet;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DuplicateRule,
    r#"## What it does

Reports an allow or disallow line that repeats an earlier one (same kind,
same path) for the same crawlers, in one group or in groups that are merged.

## Why it matters

It changes nothing, but it makes the file longer and suggests that one of
the two was meant to be something else.

## Example

```text
User-agent: *
Disallow: /tmp/
Disallow: /tmp/
```

## Use instead

```text
User-agent: *
Disallow: /tmp/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut reported = FxHashSet::default();
    for (audience, table) in cx.audiences().iter().zip(cx.pattern_tables()) {
        for (rule, first) in &table.repeats {
            if !reported.insert(rule.index()) {
                continue;
            }
            let d = if first.value() == rule.value() {
                cx.diagnostic(
                    Code::DuplicateRule,
                    cx.content_span(rule.line()),
                    format!(
                        "`{rule}` repeats {} for `{}`: it changes nothing",
                        quote_rule(first),
                        audience.label
                    ),
                )
                .with_fix("remove the line", Some(String::new()))
            } else {
                cx.diagnostic(
                    Code::DuplicateRule,
                    cx.content_span(rule.line()),
                    format!(
                        "`{rule}` is {} once non-ASCII characters are %-encoded: \
                         crawlers that encode (Google, RFC 9309) read one rule; keep \
                         both only for crawlers that compare bytes as written",
                        quote_rule(first),
                    ),
                )
            };
            out.push(d);
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(DuplicateRule);
