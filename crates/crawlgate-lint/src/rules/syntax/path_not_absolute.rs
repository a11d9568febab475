//! `R006` path-not-absolute: a rule path that does not start with `/`

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::PathNotAbsolute,
    name: "path-not-absolute",
    severity: Severity::Error,
    category: Category::Syntax,
    summary: "a rule path that does not start with `/`",
    docs: r#"## What it does

Reports rule values that start with neither `/` nor `*` (in the rfc9309
reading, neither `/`).

## Why it matters

URL paths always start with `/`, so `Disallow: private/` matches nothing in
Google's reading, although the old Google specification and some crawlers
read it as `/private/`.

## Example

```text
User-agent: *
Disallow: private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::PathNotAbsolute, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(PathNotAbsolute);
