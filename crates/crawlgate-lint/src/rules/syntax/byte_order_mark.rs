//! `R010` byte-order-mark: a UTF-8 byte order mark at the start of the file

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::ByteOrderMark,
    name: "byte-order-mark",
    severity: Severity::Info,
    category: Category::Syntax,
    summary: "a UTF-8 byte order mark at the start of the file",
    docs: r#"## What it does

Reports a UTF-8 byte order mark (EF BB BF) before the first line.

## Why it matters

Google skips it, but a parser that does not sees a first field named
`\u{FEFF}User-agent`, which is unknown, and loses the first group's
user-agent line.

## Example

```text
<BOM>User-agent: *
Disallow: /private/
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
    from_parser(cx, Code::ByteOrderMark, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(ByteOrderMark);
