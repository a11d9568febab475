//! `R307` unknown-content-usage-key: a `Content-Usage` key outside the vocabulary

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::spans::offset_in;
use crate::spelling::closest;
use crawlgate::extension::CONTENT_USAGE_KEYS;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::UnknownContentUsageKey,
    r#"## What it does

Reports `Content-Usage` keys other than those of the AI-preferences
vocabulary (`train-ai`, `search`).

## Why it matters

Unknown keys are ignored, so the preference the line seems to state is
not expressed.

## Example

```text
User-agent: *
Content-Usage: ai-train=n
```

## Use instead

```text
User-agent: *
Content-Usage: train-ai=n
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        let Some(usage) = ext.content_usage() else {
            continue;
        };
        let Ok(entries) = usage.entries() else {
            continue;
        };
        for entry in entries {
            if CONTENT_USAGE_KEYS.contains(&entry.key) {
                continue;
            }
            let hint = closest(entry.key, CONTENT_USAGE_KEYS.iter().copied(), 3).or(
                if entry.key.contains("train") {
                    Some("train-ai")
                } else {
                    None
                },
            );
            let message = match hint {
                Some(known) => format!(
                    "`{}` is not a Content-Usage key (the vocabulary has `train-ai` and \
                     `search`): it is ignored; did you mean `{known}`?",
                    entry.key
                ),
                None => format!(
                    "`{}` is not a Content-Usage key (the vocabulary has `train-ai` and \
                     `search`): it is ignored",
                    entry.key
                ),
            };
            let offset = offset_in(ext.value(), entry.key).unwrap_or(0);
            let d = cx.diagnostic(
                Code::UnknownContentUsageKey,
                cx.value_part_span(ext.line(), offset, entry.key.len()),
                message,
            );
            out.push(match hint {
                Some(known) => d.with_fix(format!("write `{known}`"), Some(known.to_owned())),
                None => d,
            });
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(UnknownContentUsageKey);
