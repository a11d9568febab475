//! `R307` unknown-content-usage-key: a `Content-Usage` key outside the vocabulary

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::spans::offset_in;
use crate::spelling::closest;
use crawlgate::extension::{retired_content_usage_label, CONTENT_USAGE_KEYS};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::UnknownContentUsageKey,
    r#"## What it does

Reports `Content-Usage` keys other than those of the AI-preferences
vocabulary (`train-ai`, `search`): a warning for categories of earlier
drafts (`train-genai`, `bots`, `ai-use`…, with the current label when one
took their meaning) and near misses of a known key; information for other
keys, which may be extensions.

## Why it matters

Crawlers that follow the vocabulary draft ignore keys they do not know, so
the preference the line seems to state is not expressed. The vocabulary
shrank between drafts: of the categories of 2025 only `train-ai` and
`search` remain.

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
        // Once per line: the value is checked as UTF-8 each time it is read.
        let value = ext.value();
        for entry in entries {
            if CONTENT_USAGE_KEYS.contains(&entry.key) {
                continue;
            }
            let offset = offset_in(value, entry.key).unwrap_or(0);
            let span = cx.value_part_span(ext.line(), offset, entry.key.len());
            let key = entry.key;
            let d = if let Some((drafts, now)) = retired_content_usage_label(key) {
                let meaning = match now {
                    Some(now) => format!("; what it meant is now `{now}`"),
                    None => "; the vocabulary has no category for it now".to_owned(),
                };
                let d = cx.diagnostic(
                    Code::UnknownContentUsageKey,
                    span,
                    format!(
                        "`{key}` was a category of earlier drafts of the vocabulary ({drafts}) and \
                         is gone: crawlers that follow the current draft ignore it{meaning}"
                    ),
                );
                match now {
                    Some(now) => d.with_fix(format!("write `{now}`"), Some(now.to_owned())),
                    None => d.with_fix(
                        "remove it, or say it with `Allow`/`Disallow` for the crawlers concerned",
                        None,
                    ),
                }
            } else if let Some(known) = closest(key, CONTENT_USAGE_KEYS.iter().copied(), 3)
                .or(key.contains("train").then_some("train-ai"))
            {
                cx.diagnostic(
                    Code::UnknownContentUsageKey,
                    span,
                    format!(
                        "`{key}` is not in the vocabulary (`train-ai`, `search`): crawlers ignore \
                         it; did you mean `{known}`?"
                    ),
                )
                .with_fix(format!("write `{known}`"), Some(known.to_owned()))
            } else {
                // Unknown labels are allowed (extensions): kept, and said
                // with less weight.
                let mut d = cx.diagnostic(
                    Code::UnknownContentUsageKey,
                    span,
                    format!(
                        "`{key}` is not in the vocabulary (`train-ai`, `search`): crawlers that \
                         do not know it as an extension ignore it"
                    ),
                );
                d.severity = Severity::Info;
                d
            };
            out.push(d);
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(UnknownContentUsageKey);
