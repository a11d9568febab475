//! `R310` noindex-line: a `Noindex` (or `Nofollow`) line: no crawler supports it any more

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::NoindexLine,
    r#"## What it does

Reports `Noindex`, `Nofollow` and `Noarchive` lines.

## Why it matters

Google stopped reading `Noindex` in robots.txt on 1 September 2019 and no
other major crawler reads it: the URLs it names can still be indexed.

## Example

```text
User-agent: *
Noindex: /drafts/
```

## Use instead

```text
User-agent: *
Disallow: /drafts/
(or, to keep pages out of results: a noindex robots meta tag, crawlable)
```
"#,
    check,
);

/// Whether a field name is one of the unsupported indexing directives.
pub(crate) fn is_noindex(key: &str) -> bool {
    ["noindex", "nofollow", "noarchive"]
        .iter()
        .any(|k| k.eq_ignore_ascii_case(key))
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        if !is_noindex(ext.key()) {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::NoindexLine,
                cx.key_span(ext.line()),
                format!(
                    "`{}` in robots.txt is read by no crawler (Google stopped on 1 September \
                     2019): `{}` can still be indexed",
                    ext.key(),
                    ext.value()
                ),
            )
            .with_fix(
                "use a `noindex` robots meta tag or `X-Robots-Tag` header, on pages crawlers may \
                 fetch",
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(NoindexLine);
