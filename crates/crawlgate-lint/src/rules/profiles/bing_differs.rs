//! `R403` bing-differs: Bing's reading decides a URL differently from Google's for a Bing crawler

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::rules::profiles::comparison::compare;
use crawlgate::Profile;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::BingDiffers,
    r#"## What it does

Like `R401`, for Bing's reading (`--profile bing`) and Bing's crawlers
(`bingbot`, `adidxbot`, `bingpreview`, `msnbot`): the ones the file names,
and Bingbot in any case. Bing matches rules as Google does, but reads a
`Crawl-delay` line as a member of its group: a `User-agent` line after it
starts a new group, where Google keeps adding crawlers to the same group.

## Why it matters

A site checked only against Google's reading can give Bingbot a different
answer: in the example, Google puts Bingbot, Googlebot and `*` in one group
(all disallowed), while Bing gives Bingbot a group of its own with a delay
and no rules (allowed everywhere).

## Example

```text
User-agent: Bingbot
User-agent: Googlebot
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /
```

## Use instead

End each group with a rule, so that both readings see the same groups:

```text
User-agent: Bingbot
User-agent: Googlebot
Crawl-delay: 1
Disallow:

User-agent: *
Crawl-delay: 30
Disallow: /
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    compare(cx, Profile::BING, Code::BingDiffers, out);
}

#[cfg(test)]
crate::testing::fixture_tests!(BingDiffers);
