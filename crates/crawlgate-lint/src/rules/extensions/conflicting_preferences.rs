//! `R313` conflicting-preferences: usage preferences for the same path and
//! crawlers that disagree

use crawlgate::extension::{CONTENT_SIGNAL_KEYS, CONTENT_USAGE_KEYS};
use crawlgate::{ContentSignal, ContentUsage, Preference};
use rustc_hash::FxHashSet;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::lines_phrase;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::ConflictingPreferences,
    r#"## What it does

Reports two `Content-Usage` lines with the same path (or both without one)
in the groups of the same crawlers that give a category opposite
preferences (`train-ai=y` and `train-ai=n`), and two `Content-Signal`
lines for the same crawlers that disagree on a signal.

## Why it matters

The IETF attachment draft applies both `Content-Usage` lines and, for each
category, the most restrictive preference wins: the opposite of an
Allow/Disallow tie, where the more permissive rule wins. A file that says
both was probably edited in two places; what crawlers read is the `n`.
For `Content-Signal` no rule says which line counts: crawlers may read
either (crawlgate reads the first).

## Example

```text
User-agent: *
Content-Usage: /blog/ train-ai=y
Content-Usage: /blog/ train-ai=n
```

## Use instead

```text
User-agent: *
Content-Usage: /blog/ train-ai=n
```
"#,
    check,
);

/// The scope of a record: its path as written, `/` when it has none.
fn scope<'a>(usage: &ContentUsage<'a>) -> &'a str {
    usage.path.unwrap_or("/")
}

fn word(preference: Preference) -> &'static str {
    match preference {
        Preference::Allowed => "y",
        Preference::Disallowed => "n",
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if !robots
        .extensions()
        .any(|e| e.content_usage().is_some() || e.content_signal().is_some())
    {
        return;
    }
    // A pair of lines is reported once, whichever crawlers share it.
    let mut reported: FxHashSet<(u32, u32, &str)> = FxHashSet::default();
    for audience in cx.audiences() {
        let groups: Vec<_> = audience
            .groups
            .iter()
            .filter_map(|&g| robots.group(g as usize))
            .collect();
        let mut usages: Vec<ContentUsage<'_>> =
            groups.iter().flat_map(|g| g.content_usage()).collect();
        usages.sort_by_key(|u| (scope(u), u.line));
        for same in usages.chunk_by(|a, b| scope(a) == scope(b)) {
            for &key in CONTENT_USAGE_KEYS {
                let said: Vec<(u32, Preference)> = same
                    .iter()
                    .filter_map(|u| u.get(key).map(|p| (u.line, p)))
                    .collect();
                let Some(&(first, first_says)) = said.first() else {
                    continue;
                };
                let Some(&(line, says)) = said.iter().find(|(_, p)| *p != first_says) else {
                    continue;
                };
                if !reported.insert((first, line, key)) {
                    continue;
                }
                let lines: Vec<u32> = said.iter().map(|&(l, _)| l).collect();
                let path = scope(&same[0]);
                out.push(
                    cx.diagnostic(
                        Code::ConflictingPreferences,
                        cx.content_span(line),
                        format!(
                            "`{key}={}` here and `{key}={}` on line {first} are both for `{path}` \
                             ({} for `{}`): where two apply to the same path the most restrictive \
                             wins, so crawlers read `{key}=n`",
                            word(says),
                            word(first_says),
                            lines_phrase(&lines),
                            audience.label
                        ),
                    )
                    .with_fix(format!("keep one preference for `{key}` on `{path}`"), None),
                );
            }
        }
        let signals: Vec<ContentSignal<'_>> = groups
            .iter()
            .flat_map(|g| g.extensions())
            .filter_map(|e| e.content_signal())
            .collect();
        let Some(first) = signals.first() else {
            continue;
        };
        for later in &signals[1..] {
            for &key in CONTENT_SIGNAL_KEYS {
                let (Some(a), Some(b)) = (first.get(key), later.get(key)) else {
                    continue;
                };
                if a == b || !reported.insert((first.line, later.line, key)) {
                    continue;
                }
                let yes_no = |v: bool| if v { "yes" } else { "no" };
                out.push(
                    cx.diagnostic(
                        Code::ConflictingPreferences,
                        cx.content_span(later.line),
                        format!(
                            "`{key}={}` here and `{key}={}` on line {} are both for `{}`: no rule \
                             says which `Content-Signal` line counts, crawlers may read either \
                             (crawlgate reads the first)",
                            yes_no(b),
                            yes_no(a),
                            first.line,
                            audience.label
                        ),
                    )
                    .with_fix("keep one `Content-Signal` line per group", None),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    fn found(file: &str) -> Vec<(u32, String)> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::ConflictingPreferences)
            .map(|d| (d.span.line, d.message.to_string()))
            .collect()
    }

    #[test]
    fn same_path_opposite_preferences_are_reported_once() {
        let file = "User-agent: *\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /blog/ train-ai=n\n\
                    Content-Usage: /news/ train-ai=y\nContent-Usage: train-ai=n\nContent-Usage: / search=y\n";
        let found = found(file);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(
            found[0].1.ends_with("so crawlers read `train-ai=n`"),
            "{}",
            found[0].1
        );
        // Without a path and with `/`: the same scope.
        let found =
            self::found("User-agent: *\nContent-Usage: search=n\nContent-Usage: / search=y\n");
        assert_eq!(found.len(), 1);
        // Different crawlers may say different things.
        let apart = "User-agent: a\nContent-Usage: train-ai=y\nDisallow:\n\n\
                     User-agent: b\nContent-Usage: train-ai=n\nDisallow:\n";
        assert_eq!(self::found(apart), []);
    }

    #[test]
    fn content_signals_that_disagree_are_reported() {
        let file = "User-agent: *\nContent-Signal: ai-train=no\nContent-Signal: ai-train=yes, search=yes\n";
        let found = found(file);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, 3);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(ConflictingPreferences);
