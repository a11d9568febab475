//! `R501` agent-typo: a user-agent that looks like a misspelled known crawler token

#[allow(unused_imports)]
use crate::diagnostic::{Code, Diagnostic, Severity};
#[allow(unused_imports)]
use crate::lint::rules::*;
use crate::lint::{Category, Context, RuleInfo};
use crate::lint::hash::FastSet;

use crate::lint::audit::{crawlers, find};
use crate::lint::spelling::closest;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::AgentTypo,
    name: "agent-typo",
    severity: Severity::Warning,
    category: Category::Audit,
    summary: "a user-agent that looks like a misspelled known crawler token",
    docs: r#"## What it does

Compares every product token the file names with the built-in table of
known crawler tokens and reports those that are not in it but are one or two
edits away from one.

## Why it matters

A group for `Googelbot` or `GTPBot` applies to no real crawler: the crawler
that was meant gets the `*` group instead.

## Example

```text
User-agent: GTPBot
Disallow: /
```

## Use instead

```text
User-agent: GPTBot
Disallow: /
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = FastSet::default();
    for ua in cx.robots.user_agents() {
        let token = ua.token();
        if ua.is_global() || token.len() < 4 || !seen.insert(token.to_ascii_lowercase()) {
            continue;
        }
        if find(token).is_some() {
            continue;
        }
        let limit = if token.len() < 8 { 1 } else { 2 };
        let first = token.as_bytes()[0].to_ascii_lowercase();
        // A typo keeps the first letter or the length close: cheap filters
        // before the edit distance.
        let near = crawlers().iter().map(|c| c.token).filter(|known| {
            known.len().abs_diff(token.len()) <= limit
                && (known.as_bytes()[0].to_ascii_lowercase() == first
                    || known.as_bytes()[1].eq_ignore_ascii_case(&token.as_bytes()[1]))
        });
        let Some(known) = closest(token, near, limit) else {
            continue;
        };
        let crawler = find(known).expect("a token of the table");
        out.push(
            cx.diagnostic(
                Code::AgentTypo,
                cx.value_part_span(ua.line(), 0, token.len()),
                format!(
                    "`{token}` is not a known crawler token; did you mean `{known}` ({}, {})? As \
                     written, this group applies to no known crawler, and {known} gets the `*` \
                     group",
                    crawler.operator,
                    crawler.purpose.describe()
                ),
            )
            .with_fix(format!("write `{known}`"), Some(known.to_owned())),
        );
    }
}

#[cfg(test)]
crate::lint::testing::fixture_tests!(AgentTypo);
