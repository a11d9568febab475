//! `R317` invalid-clean-param: a `Clean-param` line Yandex's parser drops

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::{CleanParam, ExtensionKind};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidCleanParam,
    r#"## What it does

Reports `Clean-param` lines that Yandex's parser drops: parameters holding
anything but letters, digits and `+-=_&%[]{}():.` (or `&&`), a path holding
anything but letters, digits and `.-/*_,;:%`, an empty value, or a value
longer than 503 bytes.

## Why it matters

`Clean-param: p0&p1 /path` tells Yandex that these query parameters do not
change the pages under the path, so it crawls one copy of them. A line it
drops does nothing: Yandex keeps crawling every variant. Only Yandex reads
the directive, and it never changes what may be crawled.

## Example

```text
User-agent: Yandex
Clean-param: utm_source, utm_medium /blog/
```

## Use instead

```text
User-agent: Yandex
Clean-param: utm_source&utm_medium /blog/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.html {
        return;
    }
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::CleanParam {
            continue;
        }
        let Err(why) = CleanParam::parse(ext.value(), ext.line()) else {
            continue;
        };
        out.push(
            cx.diagnostic(
                Code::InvalidCleanParam,
                cx.value_span(ext.line()),
                format!("Yandex's parser drops this `Clean-param`: {why}"),
            )
            .with_fix(
                "write the parameters joined by `&`, then a space and the path prefix \
                 (`Clean-param: ref&sid /forum/`)",
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidCleanParam);
