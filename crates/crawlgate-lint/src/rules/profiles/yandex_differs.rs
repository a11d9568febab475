//! `R404` yandex-differs: Yandex's parser decides a URL differently from Google's reading for a Yandex robot

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::rules::profiles::comparison::compare;
use crate::rules::profiles::yandex_alike;
use crawlgate::Profile;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::YandexDiffers,
    r#"## What it does

Like `R401`, for Yandex's reading (`--profile yandex`, Yandex's own parser)
and Yandex's robots: the ones the file names, and YandexBot in any case,
each read as the crawler reading reads it in both (YandexBot follows a
`Yandex` group in Google's reading too). Yandex's parser measures a rule
without its `*` and final `$`, reads an empty `Disallow:` as `Allow: /`,
never lets `*` go back, compares URLs without percent-encoding, and takes
the group with the longest matching value.

## Why it matters

A site checked only against Google's reading can give Yandex's robots
another answer. In the example, Google counts the stars of `/**bcd` and
disallows `/abcd`; Yandex measures `/bcd` without them, so `Allow: /abcd` is
longer and wins.

## Example

```text
User-agent: Yandex
Allow: /abcd
Disallow: /**bcd
```

## Use instead

```text
User-agent: Yandex
Allow: /abcd
Disallow: /*bcd
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Most files: provably nothing to find, without Yandex's parse.
    if yandex_alike::reads_alike(cx) {
        return;
    }
    compare(cx, Profile::YANDEX, Code::YandexDiffers, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(YandexDiffers);
