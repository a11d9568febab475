//! `R012` cr-line-endings: lines ended by a bare carriage return (old Mac style)

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::CrLineEndings,
    name: "cr-line-endings",
    severity: Severity::Info,
    category: Category::Syntax,
    summary: "lines ended by a bare carriage return (old Mac style)",
    docs: r#"## What it does

Reports files with lines that end with a lone CR.

## Why it matters

Google reads CR as a line end; parsers that split on LF only see the whole
file as one long line and read at most its first field.

## Example

```text
User-agent: *<CR>Disallow: /private/<CR>
```

## Use instead

```text
User-agent: *<LF>Disallow: /private/<LF>
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::CrLineEndings, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(CrLineEndings);
