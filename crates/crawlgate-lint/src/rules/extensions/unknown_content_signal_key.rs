//! `R309` unknown-content-signal-key: a `Content-Signal` key outside the convention

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::spans::offset_in;
use crate::spelling::closest;
use crawlgate::extension::CONTENT_SIGNAL_KEYS;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::UnknownContentSignalKey,
    r#"## What it does

Reports `Content-Signal` keys other than `search`, `ai-input` and
`ai-train`.

## Why it matters

Unknown keys are ignored, so the signal the line seems to send is not
sent.

## Example

```text
User-agent: *
Content-Signal: ai-training=no
```

## Use instead

```text
User-agent: *
Content-Signal: ai-train=no
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        let Some(signal) = ext.content_signal() else {
            continue;
        };
        let Ok(entries) = signal.entries() else {
            continue;
        };
        for entry in entries {
            if CONTENT_SIGNAL_KEYS.contains(&entry.key) {
                continue;
            }
            let hint = closest(entry.key, CONTENT_SIGNAL_KEYS.iter().copied(), 3);
            let offset = offset_in(signal.value, entry.key).unwrap_or(0);
            let d = cx.diagnostic(
                Code::UnknownContentSignalKey,
                cx.value_part_span(ext.line(), offset, entry.key.len()),
                match hint {
                    Some(known) => format!(
                        "`{}` is not a Content-Signal key (`search`, `ai-input`, `ai-train`): it \
                         is ignored; did you mean `{known}`?",
                        entry.key
                    ),
                    None => format!(
                        "`{}` is not a Content-Signal key (`search`, `ai-input`, `ai-train`): it \
                         is ignored",
                        entry.key
                    ),
                },
            );
            out.push(match hint {
                Some(known) => d.with_fix(format!("write `{known}`"), Some(known.to_owned())),
                None => d,
            });
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(UnknownContentSignalKey);
