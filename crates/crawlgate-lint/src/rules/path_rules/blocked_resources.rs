//! `R206` blocked-resources: CSS or JavaScript disallowed for Googlebot

use crate::budget::{Budget, LookupCost};
use crate::diagnostic::{Code, Diagnostic};
use crate::inclusion::sample_paths;
use crate::rules::quote_rule;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::BlockedResources,
    name: "blocked-resources",
    severity: Severity::Warning,
    category: Category::Rules,
    summary: "CSS or JavaScript disallowed for Googlebot",
    docs: r#"## What it does

Reports disallow rules that visibly target stylesheets or scripts (their
pattern names `.css` or `.js`) and that decide such a URL for Googlebot.

## Why it matters

Google renders pages the way a browser does. Without their CSS and
JavaScript, pages can look broken, empty or not mobile-friendly to it.

## Example

```text
User-agent: *
Disallow: /*.js$
```

## Use instead

```text
User-agent: *
Disallow: /*.json$
```
"#,
    check,
};

/// Whether a pattern names `.css` or `.js`.
fn mentions_css_or_js(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    memchr::memchr_iter(b'.', bytes).any(|i| {
        let rest = &bytes[i + 1..];
        rest.starts_with(b"css") || rest.starts_with(b"js")
    })
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let visible = |r: &crawlgate::Rule<'_>| !r.is_allow() && mentions_css_or_js(r.pattern());
    if !cx.robots.rules().any(|r| visible(&r)) {
        return; // nothing to compile a view for
    }
    let view = cx.robots.for_agent("Googlebot");
    // One lookup per rule could be quadratic when thousands of rules share
    // their first bytes: lookups are paid from an allowance.
    let lookup = std::cell::OnceCell::new();
    let budget = Budget::for_file(cx.source.len(), 64);
    let mut samples = Vec::new();
    for group in view.groups() {
        for rule in group.rules() {
            let pattern = rule.pattern();
            if rule.is_allow() || !mentions_css_or_js(pattern) {
                continue;
            }
            samples.clear();
            sample_paths(pattern, &mut samples);
            let blocked = samples.iter().find(|path| {
                let resource = [".css", ".js"]
                    .iter()
                    .any(|ext| path.ends_with(ext) || path.contains(&format!("{ext}?")));
                let cost =
                    || LookupCost::new(view.groups().flat_map(|g| g.rules()).map(|r| r.pattern()));
                if !resource || !budget.spend(lookup.get_or_init(cost).of(path)) {
                    return false;
                }
                let verdict = view.decide_path(path);
                !verdict.is_allowed() && verdict.rule().is_some_and(|r| r.index() == rule.index())
            });
            let Some(path) = blocked else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    Code::BlockedResources,
                    cx.content_span(rule.line()),
                    format!(
                        "Googlebot may not fetch `{path}` ({} decides): Google renders pages \
                         with their CSS and JavaScript, pages that need this file may look \
                         broken or empty to it",
                        quote_rule(&rule)
                    ),
                )
                .with_fix(
                    "remove the rule, or allow the stylesheets and scripts pages need",
                    None,
                ),
            );
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(BlockedResources);
