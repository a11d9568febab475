//! `R306` invalid-content-usage: a malformed `Content-Usage` value

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::CONTENT_USAGE_KEYS;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidContentUsage,
    r#"## What it does

Reports `Content-Usage` lines whose preferences are not a Structured Fields
dictionary (`train-ai=n, search=y`), whose values are not `y` or `n`, or whose
path is not followed by preferences. An uppercase letter in a key is one
such line: the dictionary is case-sensitive, so `Train-AI=n` does not parse.

## Why it matters

A preference that does not parse expresses nothing: AI crawlers that read
the IETF attachment fall back to their defaults. One bad member spoils the
whole line: every category of it is unknown (vocabulary draft 08, section
6.5.1), not only the bad one.

## Example

```text
User-agent: *
Content-Usage: train-ai=no
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
        let value = ext.value();
        let offset = value.len() - usage.preferences.len();
        if usage.preferences.is_empty() {
            out.push(
                cx.diagnostic(
                    Code::InvalidContentUsage,
                    cx.value_span(ext.line()),
                    format!("`{value}` has no preferences after the path: it says nothing"),
                )
                .with_fix("add preferences, e.g. `train-ai=n`", None),
            );
            continue;
        }
        let lowercase = usage.preferences.to_ascii_lowercase();
        match usage.entries() {
            Err(_)
                if lowercase != usage.preferences
                    && crawlgate::extension::parse_dictionary(&lowercase).is_ok() =>
            {
                out.push(
                    cx.diagnostic(
                        Code::InvalidContentUsage,
                        cx.value_part_span(ext.line(), offset, usage.preferences.len()),
                        format!(
                            "`{}` has uppercase letters: the preference keys are case-sensitive, \
                             so the line does not parse and every category is unknown \
                             (vocabulary draft 08, section 6.5.1)",
                            usage.preferences
                        ),
                    )
                    .with_fix(format!("write `{lowercase}`"), Some(lowercase.clone())),
                );
            }
            Err(error) => out.push(
                cx.diagnostic(
                    Code::InvalidContentUsage,
                    cx.value_part_span(
                        ext.line(),
                        offset + error.offset.min(usage.preferences.len().saturating_sub(1)),
                        1,
                    ),
                    format!(
                        "`{}` is not a preference list ({}): crawlers ignore it",
                        usage.preferences, error.message
                    ),
                )
                .with_fix("write e.g. `Content-Usage: train-ai=n, search=y`", None),
            ),
            Ok(entries) => {
                for entry in entries {
                    if CONTENT_USAGE_KEYS.contains(&entry.key) && !matches!(entry.value, "y" | "n")
                    {
                        let fixed = match entry.value {
                            "yes" | "?1" | "1" | "true" => Some("y"),
                            "no" | "?0" | "0" | "false" => Some("n"),
                            _ => None,
                        };
                        let d = cx.diagnostic(
                            Code::InvalidContentUsage,
                            cx.value_span(ext.line()),
                            format!(
                                "`{}={}`: the preference values are `y` and `n`; crawlers ignore \
                                 any other value",
                                entry.key, entry.value
                            ),
                        );
                        out.push(match fixed {
                            Some(v) => d.with_fix(format!("write `{}={v}`", entry.key), None),
                            None => d.with_fix("use `y` or `n`", None),
                        });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    #[test]
    fn an_uppercase_key_spoils_the_whole_line() {
        let file = "User-agent: *\nContent-Usage: train-ai=n, Search=y\nDisallow:\n";
        let report = lint(file.as_bytes(), &LintOptions::default());
        let found: Vec<_> = report.with_code(Code::InvalidContentUsage).collect();
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("every category is unknown"),
            "{}",
            found[0].message
        );
        let fix = found[0].fix.as_ref().unwrap();
        assert_eq!(fix.message, "write `train-ai=n, search=y`");
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidContentUsage);
