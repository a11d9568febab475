//! `R402` legacy-differs: the legacy (1996, urllib.robotparser) reading decides a URL differently from Google's

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::rules::profiles::comparison::compare;
use crawlgate::Profile;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::LegacyDiffers,
    r#"## What it does

Like `R401`, for the legacy reading: no wildcards, plain prefixes, the
first group whose user-agent occurs in the crawler's name, the first matching
rule in file order. Off by default (it parses the file once more and
decides many more URLs): `LintOptions::with_legacy_comparison`, `crawlgate
lint --legacy`.

## Why it matters

Many small crawlers and scripts (Python's `urllib.robotparser` among them)
still read robots.txt this way: `Disallow: /*.pdf` blocks nothing for them, and
rule order decides instead of rule length.

## Example

```text
User-agent: *
Allow: /shop/cart
Disallow: /shop/
(legacy: fine; Google: fine)

User-agent: *
Disallow: /shop/
Allow: /shop/cart
(legacy: /shop/cart disallowed; Google: allowed)
```

## Use instead

```text
User-agent: *
Allow: /shop/cart
Disallow: /shop/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    compare(cx, Profile::LEGACY, Code::LegacyDiffers, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(LegacyDiffers);
