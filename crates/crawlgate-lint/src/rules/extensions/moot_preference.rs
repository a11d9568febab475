//! `R315` moot-preference: a `Content-Usage` line for paths its crawlers
//! may not fetch, where no preference applies

use crawlgate::{ContentUsage, Group, Rule};

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::{and_list, quote_rule};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::MootPreference,
    r#"## What it does

Reports `Content-Usage` lines whose path every crawler of their group may
not fetch anyway: a disallow rule covers the whole path (`Disallow: /`, or a
folder above the line's path) and no allow rule opens any part of it.

## Why it matters

Usage preferences apply only to what a crawler may fetch (IETF attachment
draft): a preference for disallowed paths is never read. It is harmless,
but it suggests the file does not do what its author thinks, for example a
`Content-Usage: train-ai=n` that was meant for a folder AI crawlers may
fetch.

## Example

```text
User-agent: GPTBot
Disallow: /
Content-Usage: train-ai=n
```

## Use instead

```text
User-agent: GPTBot
Disallow: /
```
"#,
    check,
);

/// The literal head of a pattern: up to its first `*` or `$`.
fn head(pattern: &str) -> &str {
    &pattern[..pattern.find(['*', '$']).unwrap_or(pattern.len())]
}

/// The disallow rule that keeps the crawlers of `rules` out of every path
/// starting with `scope`, if one does: a literal disallow that `scope`
/// starts with, and no allow rule as long that could match under `scope`.
fn closing_rule<'a>(rules: &[Rule<'a>], scope: &str) -> Option<Rule<'a>> {
    let closing = rules
        .iter()
        .filter(|r| !r.is_allow() && !r.is_empty())
        .filter(|r| head(r.pattern()) == r.pattern() && scope.starts_with(r.pattern()))
        .max_by_key(|r| r.pattern().len())?;
    let opened = rules.iter().any(|r| {
        let allow = head(r.pattern());
        r.is_allow()
            && !r.is_empty()
            && r.pattern().len() >= closing.pattern().len()
            && (allow.starts_with(scope) || scope.starts_with(allow))
    });
    (!opened).then_some(*closing)
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if !robots.extensions().any(|e| e.content_usage().is_some()) {
        return;
    }
    for group in robots.groups() {
        let usages: Vec<ContentUsage<'_>> = group.content_usage().collect();
        if usages.is_empty() {
            continue;
        }
        // The crawlers the group concerns: every audience that obeys it.
        let audiences: Vec<(&str, Vec<Rule<'_>>)> = cx
            .audiences()
            .iter()
            .filter(|a| a.groups.contains(&(group.index() as u32)))
            .map(|a| {
                let rules = a
                    .groups
                    .iter()
                    .filter_map(|&g| robots.group(g as usize))
                    .flat_map(|g: Group<'_>| g.rules())
                    .collect();
                (a.label.as_str(), rules)
            })
            .collect();
        if audiences.is_empty() {
            continue;
        }
        for usage in &usages {
            let scope = usage.path.unwrap_or("/");
            let closed: Option<Vec<Rule<'_>>> = audiences
                .iter()
                .map(|(_, rules)| closing_rule(rules, scope))
                .collect();
            let Some(closed) = closed else {
                continue;
            };
            let who: Vec<String> = audiences.iter().map(|(l, _)| format!("`{l}`")).collect();
            let mut why: Vec<String> = closed.iter().map(quote_rule).collect();
            why.dedup();
            out.push(
                cx.diagnostic(
                    Code::MootPreference,
                    cx.content_span(usage.line),
                    format!(
                        "no preference on this line ever applies: {} keeps {} out of `{scope}`, \
                         and preferences apply only to what a crawler may fetch",
                        and_list(&why),
                        and_list(&who)
                    ),
                )
                .with_fix(
                    "remove the line, or allow the crawlers to fetch the path if the preference \
                     is meant for them",
                    None,
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    fn lines(file: &str) -> Vec<u32> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::MootPreference)
            .map(|d| d.span.line)
            .collect()
    }

    #[test]
    fn only_preferences_on_closed_paths_are_reported() {
        assert_eq!(
            lines("User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\n"),
            [3]
        );
        let folder = "User-agent: *\nDisallow: /private/\nContent-Usage: /private/x/ train-ai=n\n\
                      Content-Usage: /public/ train-ai=n\n";
        assert_eq!(lines(folder), [3]);
        // An allow rule opens part of it: the preference can apply.
        let opened = "User-agent: *\nDisallow: /private/\nAllow: /private/x/ok\n\
                      Content-Usage: /private/x/ train-ai=n\n";
        assert_eq!(lines(opened), Vec::<u32>::new());
        // The core agrees: no preference for a closed path, one for an open one.
        let robots = crawlgate::RobotsTxt::parse(folder.as_bytes());
        assert!(robots.view("bot").preferences("/private/x/1").is_none());
        // A group shared with crawlers that may fetch: not moot.
        let shared =
            "User-agent: GPTBot\nUser-agent: *\nDisallow: /a/\nContent-Usage: train-ai=n\n";
        assert_eq!(lines(shared), Vec::<u32>::new());
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(MootPreference);
