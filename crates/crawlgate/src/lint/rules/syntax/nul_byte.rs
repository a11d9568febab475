//! `R016` nul-byte: a NUL byte, which ends the content of its line

#[allow(unused_imports)]
use crate::diagnostic::{Code, Diagnostic, Severity};
#[allow(unused_imports)]
use crate::lint::rules::*;
use crate::lint::{Category, Context, RuleInfo};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::NulByte,
    name: "nul-byte",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a NUL byte, which ends the content of its line",
    docs: r#"## What it does

Reports NUL bytes.

## Why it matters

Google's reference parser works on C strings: the rest of the line after a
NUL is ignored. A UTF-16 file is full of them.

## Example

```text
User-agent: *
Disallow: /a<NUL>/b
```

## Use instead

```text
User-agent: *
Disallow: /a/b
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::NulByte, out);
}

#[cfg(test)]
crate::lint::testing::fixture_tests!(NulByte);
