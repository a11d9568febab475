//! `R401` rfc9309-differs: the rfc9309 reading decides a URL differently from Google's

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::rules::profiles::comparison::compare;
use crawlgate::Profile;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::Rfc9309Differs,
    r#"## What it does

Decides concrete URLs (derived from the file's own rules) for every crawler
the file names, plus Googlebot and a crawler without a group, under Google's
reading and under RFC 9309's strict one, and reports each line where they
disagree, with the crawler and URL that show it.

## Why it matters

Google accepts typos, lines without colons, paths starting with `*` and
more (each reported by its own rule, which this one does not repeat), and
reads `Allow: /dir/index.html` as also allowing `/dir/`; RFC 9309 parsers (and
the many crawlers that follow the RFC) do not. The same file then allows a URL
for some crawlers and disallows it for others.

## Example

```text
User-agent: *
Disallow: /shop/
Allow: /shop/index.html
```

Google also allows `/shop/` (an `index.html` rule allows its directory);
RFC 9309 crawlers disallow it.

## Use instead

```text
User-agent: *
Disallow: /shop/
Allow: /shop/$
Allow: /shop/index.html
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    compare(cx, Profile::RFC9309, Code::Rfc9309Differs, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(Rfc9309Differs);
