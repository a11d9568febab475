//! `R002` missing-colon: a line without a colon, read as `field value` by Google only

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::MissingColon,
    name: "missing-colon",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a line without a colon, read as `field value` by Google only",
    docs: r#"## What it does

Reports `field value` lines that have no colon. Google reads a line with
exactly two whitespace-separated words as `field: value`; RFC 9309 parsers and
older crawlers ignore it.

## Why it matters

The line means something to Google and nothing to Bing, Yandex or a
strict parser, so crawlers disagree on what the file says.

## Example

```text
User-agent: *
Disallow /private/
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
    from_parser(cx, Code::MissingColon, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(MissingColon);
