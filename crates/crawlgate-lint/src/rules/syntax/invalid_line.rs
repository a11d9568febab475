//! `R015` invalid-line: a line that is neither empty, a comment, nor `field: value`

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::InvalidLine,
    name: "invalid-line",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a line that is neither empty, a comment, nor `field: value`",
    docs: r#"## What it does

Reports lines that no crawler can read: no colon, or nothing before it.

## Why it matters

The line is ignored. It is often a rule that lost its field name or a
stray piece of another file.

## Example

```text
User-agent: *
/private/
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
    if cx.html {
        return; // one R017 says it all
    }
    from_parser(cx, Code::InvalidLine, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidLine);
