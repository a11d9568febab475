//! `R003` misspelled-field: a misspelled field name that only lenient crawlers accept

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::MisspelledField,
    name: "misspelled-field",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a misspelled field name that only lenient crawlers accept",
    docs: r#"## What it does

Reports the misspellings Google accepts (`useragent`, `user agent`,
`dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`).

## Why it matters

Google reads `Dissallow: /x` as a disallow; RFC 9309 parsers and most other
crawlers ignore the line, so `/x` is crawled by them.

## Example

```text
User-agent: *
Dissallow: /private/
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
    from_parser(cx, Code::MisspelledField, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(MisspelledField);
