//! `R004` field-name-prefix: a field name recognised only by its prefix (`Disallowed:`)

use crate::diagnostic::{Code, Diagnostic};
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::FieldNamePrefix,
    name: "field-name-prefix",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a field name recognised only by its prefix (`Disallowed:`)",
    docs: r#"## What it does

Reports field names that are longer than a known name and start with it,
such as `Disallowed` or `User-agents`. Google recognises fields by prefix.

## Why it matters

Only Google's reading accepts them; every other crawler ignores the line.

## Example

```text
User-agent: *
Disallowed: /private/
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
    for d in cx.robots.diagnostics() {
        if d.code != crawlgate::Code::FieldNamePrefix {
            continue;
        }
        // `Sitemap http://…` (a missing colon) is explained by R009.
        let key = String::from_utf8_lossy(&cx.source[d.span.bytes.clone()]).to_ascii_lowercase();
        if key.starts_with("sitemap") && (key.ends_with(" http") || key.ends_with(" https")) {
            continue;
        }
        out.push(Diagnostic::from_parser(Code::FieldNamePrefix, d));
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(FieldNamePrefix);
