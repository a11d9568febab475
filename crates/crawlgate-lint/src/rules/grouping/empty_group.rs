//! `R104` empty-group: a group without rules: its crawlers may fetch everything

use crate::context::generic_agent;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::and_list;
use crawlgate::Severity;
use crawlgate::UserAgent;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::EmptyGroup,
    r#"## What it does

Reports groups that have no allow or disallow line (only the last group of
a file can), for the crawlers that have no rules anywhere else.

## Why it matters

A crawler that finds its own group obeys that group only. With no rules in
it, it may crawl everything: it does not fall back to the `*` group. A
`Crawl-delay` for Bing at the end of the file lets Bing crawl what everyone
else may not.

## Example

```text
User-agent: *
Disallow: /private/

User-agent: bingbot
Crawl-delay: 5
```

## Use instead

```text
User-agent: *
Disallow: /private/

User-agent: bingbot
Crawl-delay: 5
Disallow: /private/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    let global_disallows = robots
        .groups()
        .filter(|g| g.is_global())
        .flat_map(|g| g.rules())
        .filter(|r| !r.is_allow() && !r.is_empty())
        .count();
    let generic = generic_agent(robots);
    for group in robots.groups() {
        if group.rules().len() > 0 {
            continue;
        }
        let alone: Vec<UserAgent<'_>> = group
            .user_agents()
            .filter(|ua| {
                let name = if ua.is_global() { generic } else { ua.token() };
                !name.is_empty() && !robots.groups_of(name).any(|g| g.rules().len() > 0)
            })
            .collect();
        let Some(first) = alone.first() else {
            continue;
        };
        let names: Vec<String> = alone
            .iter()
            .map(|ua| format!("`{}` (line {})", ua.value(), ua.line()))
            .collect();
        let (message, severity) = if first.is_global() {
            (
                format!(
                    "the `*` group (line {}) has no rules: crawlers without a group of their own \
                     may crawl everything",
                    first.line()
                ),
                Severity::Info,
            )
        } else if global_disallows > 0 {
            (
                format!(
                    "{} {} a group without rules: {} may crawl everything, and {} not fall back \
                     to the `*` group's {global_disallows} disallow rule(s)",
                    and_list(&names),
                    if names.len() == 1 { "has" } else { "have" },
                    if names.len() == 1 { "it" } else { "they" },
                    if names.len() == 1 { "does" } else { "do" },
                ),
                Severity::Warning,
            )
        } else {
            (
                format!(
                    "{} {} a group without rules: {} may crawl everything",
                    and_list(&names),
                    if names.len() == 1 { "has" } else { "have" },
                    if names.len() == 1 { "it" } else { "they" },
                ),
                Severity::Info,
            )
        };
        let mut d = cx
            .diagnostic(Code::EmptyGroup, cx.content_span(first.line()), message)
            .with_fix(
                "add the rules these crawlers should obey (`Disallow:` says they may crawl \
                 everything)",
                None,
            );
        d.severity = severity;
        out.push(d);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(EmptyGroup);
