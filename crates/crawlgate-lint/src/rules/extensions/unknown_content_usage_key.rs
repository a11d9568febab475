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

Reports `Content-Usage` keys other than the three labels of the
AI-preferences vocabulary (draft-ietf-aipref-vocab-08: `train-ai`,
`ai-use`, `search`): a warning for near misses of a label (`ai-train`,
`Content-Signal`'s `ai-input`); information for labels of earlier drafts
(`train-genai`, `bots`…), naming the draft they came from and the current
label when one took their meaning, and for other keys, which may be
extensions.

## Why it matters

Crawlers that follow the vocabulary draft ignore keys they do not know, so
the preference the line seems to state is not expressed. The vocabulary
changed between drafts: draft 08 has AI Training (`train-ai`), AI Use
(`ai-use`, input to a generative model that the user did not supply) and
Search (`search`, which overrides the other two inside a search
application).

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

/// Keys of other conventions written in a `Content-Usage` line, with the
/// vocabulary label closest in meaning: the Content Signals Policy's
/// `ai-train` and `ai-input` (answers grounded in the page, the draft's
/// AI Use).
const OTHER_CONVENTIONS: &[(&str, &str)] = &[("ai-train", "train-ai"), ("ai-input", "ai-use")];

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let labels = "`train-ai`, `ai-use`, `search`";
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
                // Older labels are unknown keys now, which crawlers ignore
                // as the draft requires: worth knowing, not an error.
                let meaning = match now {
                    Some(now) => format!("; what it meant is `{now}` now"),
                    None => "; draft 08 has no category for it".to_owned(),
                };
                let mut d = cx.diagnostic(
                    Code::UnknownContentUsageKey,
                    span,
                    format!(
                        "`{key}` is a label of draft {drafts} of the AI-preferences vocabulary, \
                         not of draft 08 ({labels}): crawlers ignore it{meaning}"
                    ),
                );
                d.severity = Severity::Info;
                match now {
                    Some(now) => d.with_fix(format!("write `{now}`"), Some(now.to_owned())),
                    None => d.with_fix(
                        "remove it, or say it with `Allow`/`Disallow` for the crawlers concerned",
                        None,
                    ),
                }
            } else if let Some(known) = OTHER_CONVENTIONS
                .iter()
                .find(|(other, _)| *other == key)
                .map(|&(_, label)| label)
                .or_else(|| closest(key, CONTENT_USAGE_KEYS.iter().copied(), 3))
                .or(key.contains("train").then_some("train-ai"))
            {
                cx.diagnostic(
                    Code::UnknownContentUsageKey,
                    span,
                    format!(
                        "`{key}` is not in the vocabulary ({labels}): crawlers ignore it; did \
                         you mean `{known}`?"
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
                        "`{key}` is not in the vocabulary ({labels}): crawlers that do not know \
                         it as an extension ignore it"
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
mod tests {
    use crate::{lint, Code, LintOptions, Severity};

    fn found(value: &str) -> Vec<(Severity, String)> {
        let file = format!("User-agent: *\nContent-Usage: {value}\nDisallow:\n");
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::UnknownContentUsageKey)
            .map(|d| (d.severity, d.message.to_string()))
            .collect()
    }

    #[test]
    fn draft_08_has_three_labels() {
        assert_eq!(found("train-ai=n, ai-use=n, search=y"), []);
    }

    #[test]
    fn earlier_labels_are_information_naming_their_draft() {
        let found = found("train-genai=n, bots=n");
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|(s, _)| *s == Severity::Info), "{found:?}");
        assert!(
            found[0]
                .1
                .starts_with("`train-genai` is a label of draft 02–03")
                && found[0].1.ends_with("what it meant is `train-ai` now"),
            "{}",
            found[0].1
        );
        assert!(found[1].1.contains("draft 03–04"), "{}", found[1].1);
    }

    #[test]
    fn near_misses_and_other_conventions_are_warnings() {
        for (key, label) in [
            ("ai-train", "train-ai"),
            ("ai-input", "ai-use"),
            ("serch", "search"),
        ] {
            let found = found(&format!("{key}=n"));
            assert_eq!(found.len(), 1, "{key}");
            assert_eq!(found[0].0, Severity::Warning, "{key}");
            assert!(
                found[0].1.ends_with(&format!("did you mean `{label}`?")),
                "{}",
                found[0].1
            );
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(UnknownContentUsageKey);
