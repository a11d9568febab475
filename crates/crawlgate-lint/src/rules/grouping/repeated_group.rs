//! `R102` repeated-group: several groups name the same crawler

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::lines_phrase;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;
use crawlgate::{Group, UserAgent};
use rustc_hash::FxHashMap;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::RepeatedGroup,
    name: "repeated-group",
    severity: Severity::Warning,
    category: Category::Grouping,
    summary: "several groups name the same crawler",
    docs: r#"## What it does

Reports every group after the first that names a crawler (or `*`) already
named by an earlier group.

## Why it matters

Google and RFC 9309 crawlers merge all groups naming them, but older
crawlers obey only the first (or the last) one, so the rules of the other
groups are lost for them.

## Example

```text
User-agent: Googlebot
Disallow: /a/

User-agent: *
Disallow: /b/

User-agent: Googlebot
Disallow: /c/
```

## Use instead

```text
User-agent: Googlebot
Disallow: /a/
Disallow: /c/

User-agent: *
Disallow: /b/
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if cx.audiences().iter().all(|a| a.groups.len() < 2) {
        return;
    }
    // The first user-agent line naming each token (`*` for the global ones)
    // in each group that repeats another, so that a group is not searched
    // once per audience.
    let mut repeating = vec![false; robots.groups().len()];
    for audience in cx.audiences().iter().filter(|a| a.groups.len() > 1) {
        for &g in &audience.groups[1..] {
            if let Some(slot) = repeating.get_mut(g as usize) {
                *slot = true;
            }
        }
    }
    let mut naming: FxHashMap<(usize, String), UserAgent<'_>> = FxHashMap::default();
    for ua in robots.user_agents() {
        if !repeating[ua.group().index()] {
            continue;
        }
        let name = if ua.is_global() {
            "*".to_owned()
        } else {
            ua.token().to_ascii_lowercase()
        };
        naming.entry((ua.group().index(), name)).or_insert(ua);
    }
    for audience in cx.audiences() {
        if audience.groups.len() < 2 {
            continue;
        }
        let groups: Vec<Group<'_>> = audience
            .groups
            .iter()
            .filter_map(|&g| robots.group(g as usize))
            .collect();
        let first_lines: Vec<u32> = groups.iter().map(|g| g.first_line()).collect();
        let label = &audience.label;
        let key = label.to_ascii_lowercase();
        let starting_on = lines_phrase(&first_lines);
        for group in &groups[1..] {
            let Some(ua) = naming.get(&(group.index(), key.clone())) else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    Code::RepeatedGroup,
                    cx.content_span(ua.line()),
                    format!(
                        "`{label}` already has a group at line {}: Google and RFC 9309 crawlers \
                         merge the {} groups (starting on {}), older crawlers obey only one of \
                         them",
                        first_lines[0],
                        groups.len(),
                        starting_on
                    ),
                )
                .with_fix("merge the groups into one", None),
            );
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(RepeatedGroup);
