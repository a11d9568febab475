//! `R013` line-too-long: a line longer than the reference implementation reads

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::LineTooLong,
    name: "line-too-long",
    severity: Severity::Error,
    category: Category::Syntax,
    summary: "a line longer than the reference implementation reads",
    docs: r#"## What it does

Reports lines longer than 16,663 bytes, the most Google's reference parser
reads of one line.

## Why it matters

The rest of the line is ignored: a long rule is cut and matches more (or
less) than written.

## Example

```text
User-agent: *
Disallow: /aaaa…(20,000 bytes)
```

## Use instead

```text
User-agent: *
Disallow: /aaaa…(2,000 bytes)
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::LineTooLong, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(LineTooLong);
