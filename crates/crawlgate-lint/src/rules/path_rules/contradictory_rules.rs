//! `R203` contradictory-rules: an allow and a disallow with the same path for the same crawlers

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::quote_rule;
use crawlgate::Rule;
use rustc_hash::FxHashSet;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::ContradictoryRules,
    r#"## What it does

Reports an `Allow` and a `Disallow` with the same path in one group (or in
groups that are merged).

## Why it matters

Google and RFC 9309 crawlers resolve the tie in favour of the allow, so the
disallow does nothing; legacy crawlers obey whichever line comes first. The
file says both things at once.

## Example

```text
User-agent: *
Disallow: /search
Allow: /search
```

## Use instead

```text
User-agent: *
Disallow: /search
Allow: /search/about
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut reported = FxHashSet::default();
    for (audience, table) in cx.audiences().iter().zip(cx.pattern_tables()) {
        let mut pairs: Vec<(Rule<'_>, Rule<'_>)> = table
            .first
            .values()
            .filter_map(|[d, a]| Some(((*a)?, (*d)?)))
            .collect();
        pairs.sort_by_key(|(a, d)| a.line().max(d.line()));
        for (allow, disallow) in pairs {
            if !reported.insert((allow.index(), disallow.index())) {
                continue;
            }
            let (first, later) = if allow.line() < disallow.line() {
                (allow, disallow)
            } else {
                (disallow, allow)
            };
            out.push(
                cx.diagnostic(
                    Code::ContradictoryRules,
                    cx.content_span(later.line()),
                    format!(
                        "{} and {} contradict each other for `{}`: Google and RFC 9309 crawlers \
                         let the allow win, legacy crawlers obey the first one (line {})",
                        quote_rule(&later),
                        quote_rule(&first),
                        audience.label,
                        first.line()
                    ),
                )
                .with_fix("keep only the line that is meant", None),
            );
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(ContradictoryRules);
