//! `R204` disallow-all: `Disallow: /` for every crawler and no crawler-specific group

use crate::context::generic_agent;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::quote_rule;
use crawlgate::SelectionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DisallowAll,
    r#"## What it does

Reports files where every crawler is disallowed from the whole site and no
group names a particular crawler.

## Why it matters

That is what a staging or development robots.txt says. Shipped to
production, it removes the site from every search engine.

## Example

```text
User-agent: *
Disallow: /
```

## Use instead

```text
User-agent: *
Disallow: /admin/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if robots.user_agents().any(|ua| !ua.is_global()) {
        return;
    }
    // Only a disallow that matches `/` itself can disallow everything.
    let matches_root = |p: &str| {
        let p = p.strip_suffix('$').unwrap_or(p);
        p.bytes().all(|b| b == b'*' || b == b'/') && p.bytes().filter(|&b| b == b'/').count() <= 1
    };
    if !robots
        .rules()
        .any(|r| !r.is_allow() && !r.is_empty() && matches_root(r.pattern()))
    {
        return;
    }
    // Two questions: cheaper asked of the rules than of a compiled matcher.
    let generic = generic_agent(robots);
    let root = robots.decide_path_uncompiled(generic, "/");
    if root.selection() != SelectionKind::Global {
        return;
    }
    if root.is_allowed()
        || robots
            .decide_path_uncompiled(generic, "/index.html")
            .is_allowed()
    {
        return;
    }
    let Some(rule) = root.rule() else {
        return;
    };
    out.push(
        cx.diagnostic(
            Code::DisallowAll,
            cx.content_span(rule.line()),
            format!(
                "every crawler is disallowed from the whole site by {}, and no group names a \
                 crawler: is this a staging robots.txt shipped to production?",
                quote_rule(&rule)
            ),
        )
        .with_fix(
            "if the site should be crawled, remove the rule (`Disallow:` alone allows everything)",
            None,
        ),
    );
}

#[cfg(test)]
crate::testing::fixture_tests!(DisallowAll);
