//! `R018` binary-file: the file is binary (an image, an archive…), not a robots.txt

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::BinaryFile,
    r#"## What it does

Reports files whose first kilobyte holds NUL and other control bytes that
no text file has: an icon, an image or an archive served as `/robots.txt`.
The line-by-line findings such a file would produce are left out.

## Why it matters

Crawlers read whatever `/robots.txt` returns as robots.txt. In a binary
file they find no valid line (or a few by accident), so they may crawl
everything.

## Example

```text
(the bytes of favicon.ico)
```

## Use instead

```text
User-agent: *
Disallow:
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !cx.binary {
        return;
    }
    let span = cx.span(1, 0..cx.line(1).map_or(0, |l| l.end.min(16)));
    out.push(
        cx.diagnostic(
            Code::BinaryFile,
            span,
            "this is a binary file, not a robots.txt: crawlers read it as robots.txt anyway and \
             find no rules in it, so they may crawl everything",
        )
        .with_fix(
            "serve a plain-text robots.txt at /robots.txt (or a 404 when there is none)",
            None,
        ),
    );
}

#[cfg(test)]
crate::testing::fixture_tests!(BinaryFile);
