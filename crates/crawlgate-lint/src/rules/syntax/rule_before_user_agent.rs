//! `R005` rule-before-user-agent: an allow or disallow line before any user-agent line

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::RuleBeforeUserAgent,
    name: "rule-before-user-agent",
    severity: Severity::Error,
    category: Category::Syntax,
    summary: "an allow or disallow line before any user-agent line",
    docs: r#"## What it does

Reports `Allow` and `Disallow` lines that come before the first
`User-agent` line.

## Why it matters

A rule belongs to the group of the user-agent lines above it. With none
above, every crawler ignores the rule.

## Example

```text
Disallow: /private/
User-agent: *
Disallow: /tmp/
```

## Use instead

```text
User-agent: *
Disallow: /private/
Disallow: /tmp/
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::RuleBeforeUserAgent, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(RuleBeforeUserAgent);
