//! `R314` repeated-preference-key: a key given twice, with different values,
//! in one `Content-Usage` or `Content-Signal` line

use std::collections::HashMap;

use crawlgate::extension::DictionaryEntry;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::spans::offset_in;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::RepeatedPreferenceKey,
    r#"## What it does

Reports a key that one `Content-Usage` or `Content-Signal` line gives twice
with different values (`train-ai=y, train-ai=n`).

## Why it matters

The preferences are a Structured Fields dictionary, where a repeated key
keeps only its last value: the first one is silently dropped. The IETF
vocabulary draft warns that duplicating a key can give unexpected results;
a file that says both was probably edited without reading the whole line.

## Example

```text
User-agent: *
Content-Usage: train-ai=y, search=y, train-ai=n
```

## Use instead

```text
User-agent: *
Content-Usage: train-ai=n, search=y
```
"#,
    check,
);

/// The first key that `entries` gives again with another value: (the key,
/// the entry that counts, the value dropped).
fn repeated<'a>(entries: &[DictionaryEntry<'a>]) -> Vec<(DictionaryEntry<'a>, &'a str)> {
    // One pass for each key's last entry, one for the first earlier value
    // that differs from it: linear in the line (a line may hold thousands
    // of keys).
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (i, entry) in entries.iter().enumerate() {
        last.insert(entry.key, i);
    }
    let mut differing: HashMap<&str, &'a str> = HashMap::new();
    for entry in entries {
        if entry.value != entries[last[entry.key]].value {
            differing.entry(entry.key).or_insert(entry.value);
        }
    }
    entries
        .iter()
        .enumerate()
        .filter(|&(i, entry)| last[entry.key] == i)
        .filter_map(|(_, entry)| differing.get(entry.key).map(|&dropped| (*entry, dropped)))
        .collect()
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        let (entries, field) = if let Some(usage) = ext.content_usage() {
            (usage.entries(), "Content-Usage")
        } else if let Some(signal) = ext.content_signal() {
            (signal.entries(), "Content-Signal")
        } else {
            continue;
        };
        let Ok(entries) = entries else {
            continue; // R306 and R308 say why
        };
        // Once per line: the value is checked as UTF-8 each time it is read.
        let value = ext.value();
        for (kept, dropped) in repeated(&entries) {
            let offset = offset_in(value, kept.key).unwrap_or(0);
            out.push(
                cx.diagnostic(
                    Code::RepeatedPreferenceKey,
                    cx.value_part_span(ext.line(), offset, kept.key.len()),
                    format!(
                        "`{}` is given twice in this `{field}` line (`{}={dropped}`, then \
                         `{}={}`): only the last value counts, `{}`",
                        kept.key, kept.key, kept.key, kept.value, kept.value
                    ),
                )
                .with_fix(format!("give `{}` once", kept.key), None),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    #[test]
    fn the_last_value_is_named_and_equal_repeats_pass() {
        let file = "User-agent: *\nContent-Usage: train-ai=y, search=y, train-ai=n\n\
                    Content-Signal: search=yes, search=yes\n";
        let report = lint(file.as_bytes(), &LintOptions::default());
        let found: Vec<_> = report.with_code(Code::RepeatedPreferenceKey).collect();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].span.line, found[0].span.column), (2, 38));
        assert!(found[0]
            .message
            .ends_with("only the last value counts, `n`"));
        // What the message claims, read by the core.
        let robots = crawlgate::RobotsTxt::parse(file.as_bytes());
        assert_eq!(
            robots.view("bot").preferences("/").unwrap().train_ai,
            Some(crawlgate::Preference::Disallowed)
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(RepeatedPreferenceKey);
