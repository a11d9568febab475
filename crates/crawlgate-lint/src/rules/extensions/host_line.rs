//! `R312` host-line: a `Host:` line, which only Yandex read and no longer does

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::ExtensionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::HostLine,
    r#"## What it does

Reports `Host:` lines.

## Why it matters

`Host:` named a site's main mirror for Yandex, the only crawler that read it;
Yandex retired it in 2018 in favour of permanent redirects. Google, Bing and
RFC 9309 never read it, so no crawler picks the main host from it.

## Example

```text
User-agent: *
Disallow: /search
Host: www.example.com
```

## Use instead

```text
User-agent: *
Disallow: /search
```

and a permanent (301) redirect from the other hosts to `www.example.com`.
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::Host {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::HostLine,
                cx.key_span(ext.line()),
                format!(
                    "`Host: {}` was read only by Yandex, which retired it in 2018: no crawler \
                     takes the main host from it",
                    ext.value()
                ),
            )
            .with_fix(
                "redirect the other hosts to the main one (301) and remove the line",
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(HostLine);
