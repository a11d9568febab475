//! `R011` invalid-utf8: bytes that are not valid UTF-8

use crate::diagnostic::{Code, Diagnostic};
use crate::rules::from_parser;
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::InvalidUtf8,
    name: "invalid-utf8",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "bytes that are not valid UTF-8",
    docs: r#"## What it does

Reports the first invalid UTF-8 byte of each line.

## Why it matters

robots.txt is UTF-8. A Latin-1 `é` in a rule is %-encoded byte for byte
(`%E9`), while browsers and crawlers send `%C3%A9` for the same character, so
the rule never matches the URL it names.

## Example

```text
User-agent: *
Disallow: /caf<E9>/
```

## Use instead

```text
User-agent: *
Disallow: /caf%C3%A9/
```
"#,
    check,
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    from_parser(cx, Code::InvalidUtf8, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidUtf8);
