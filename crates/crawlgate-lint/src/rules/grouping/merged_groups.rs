//! `R101` merged-groups: non-rule lines between user-agent lines silently merge what look like separate groups

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::{and_list, lines_phrase, quote_rule};
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;
use crawlgate::{Group, Rule, UserAgent};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::MergedGroups,
    name: "merged-groups",
    severity: Severity::Warning,
    category: Category::Grouping,
    summary:
        "non-rule lines between user-agent lines silently merge what look like separate groups",
    docs: r#"## What it does

Reports user-agent lines that are separated from the user-agent lines above
them only by non-rule lines (`Crawl-delay`, `Sitemap`, `Host`…). The message
names every crawler that ends up in the merged group and the rules they all
obey.

## Why it matters

Only an allow or disallow line ends a group. In the example, `a` was meant
to get a crawl delay and nothing else, but `a` and `*` are one group: `a` is
disallowed everywhere, and every crawler takes the first crawl delay (1 s).

## Example

```text
User-agent: a
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /
```

## Use instead

```text
User-agent: a
Crawl-delay: 1
Disallow:

User-agent: *
Crawl-delay: 30
Disallow: /
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for group in cx.robots.groups() {
        let agents: Vec<UserAgent<'_>> = group.user_agents().collect();
        if agents.len() < 2 {
            continue;
        }
        let (first, last) = (agents[0].line(), agents[agents.len() - 1].line());
        let mut separators: Vec<(u32, String)> = group
            .extensions()
            .filter(|e| e.line() > first && e.line() < last)
            .map(|e| (e.line(), e.key().to_owned()))
            .collect();
        separators.extend(
            cx.robots
                .sitemaps()
                .filter(|s| s.line() > first && s.line() < last)
                .map(|s| (s.line(), "Sitemap".to_owned())),
        );
        if separators.is_empty() {
            continue;
        }
        separators.sort();
        let separator_between = |a: u32, b: u32| separators.iter().find(|(l, _)| *l > a && *l < b);
        let name = |ua: &UserAgent<'_>| format!("`{}` (line {})", ua.value(), ua.line());
        let shared = shared_lines(&group);
        for i in 1..agents.len() {
            let Some((sep_line, sep_key)) =
                separator_between(agents[i - 1].line(), agents[i].line())
            else {
                continue;
            };
            let mut end = i + 1;
            while end < agents.len()
                && separator_between(agents[end - 1].line(), agents[end].line()).is_none()
            {
                end += 1;
            }
            let before: Vec<String> = agents[..i].iter().map(name).collect();
            let everyone: Vec<String> = agents[..end].iter().map(name).collect();
            let span = cx.content_span(agents[i].line());
            let fixed = format!(
                "Disallow:\n{}",
                String::from_utf8_lossy(&cx.source[span.bytes.clone()])
            );
            out.push(
                cx.diagnostic(
                    Code::MergedGroups,
                    span,
                    format!(
                        "`{sep_key}` (line {sep_line}) does not end a group: {} share one group, \
                         so all of them {shared}",
                        and_list(&everyone)
                    ),
                )
                .with_fix(
                    format!(
                        "if {} should not obey these rules, end its group with a rule line before \
                         line {} (`Disallow:` allows everything)",
                        and_list(&before),
                        agents[i].line()
                    ),
                    Some(fixed),
                ),
            );
        }
    }
}

/// "obey `Disallow: /` (line 5)", "obey 12 rules: `…` (line 5), … (lines 5–40)".
fn shared_lines(group: &Group<'_>) -> String {
    let rules: Vec<Rule<'_>> = group.rules().collect();
    let mut text = match rules.as_slice() {
        [] => {
            let lines: Vec<u32> = group.extensions().map(|e| e.line()).collect();
            format!("share the records on {}", lines_phrase(&lines))
        }
        [_] | [_, _] | [_, _, _] => {
            let quoted: Vec<String> = rules.iter().map(quote_rule).collect();
            format!("obey {}", and_list(&quoted))
        }
        [a, b, .., last] => format!(
            "obey its {} rules ({}, {} … up to line {})",
            rules.len(),
            quote_rule(a),
            quote_rule(b),
            last.line()
        ),
    };
    let delays: Vec<u32> = group
        .extensions()
        .filter(|e| e.crawl_delay().is_some())
        .map(|e| e.line())
        .collect();
    if delays.len() > 1 {
        text.push_str(&format!(
            ", and all take the first `Crawl-delay` (line {})",
            delays[0]
        ));
    }
    text
}

#[cfg(test)]
crate::testing::fixture_tests!(MergedGroups);
