//! `R007` dollar-not-at-end: `$` that is not the last character of a rule, so it is a literal `$`

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DollarNotAtEnd,
    r#"## What it does

Reports rule values with a `$` anywhere but at the very end, unless a
letter, digit or `{` (`%7B`) follows it (`/Optus-$30SIM`, `/*$revision`,
`/$%7Bname%7D/`): such a `$` is
part of the URLs the rule is meant for, and it matches them.

## Why it matters

Only a `$` at the end anchors the pattern. Anywhere else it is an ordinary
character, so `/*.php$*` or `/a$b` match only URLs that contain a `$`, which is
almost never what was meant.

## Example

```text
User-agent: *
Disallow: /*.php$*
```

## Use instead

```text
User-agent: *
Disallow: /*.php$
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !cx.profile().wildcards {
        return;
    }
    for rule in cx.robots.rules() {
        let value = rule.value();
        let Some(pos) = value.find('$') else {
            continue;
        };
        if pos + 1 == value.len() {
            continue;
        }
        let rest = &value[pos + 1..];
        let template =
            rest.starts_with('{') || rest.get(..3).is_some_and(|t| t.eq_ignore_ascii_case("%7B"));
        if template || rest.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            // `/Optus-$30SIM`, `/*$revision`, `/$%7Bname%7D/`: a `$` inside a
            // word or before a template is part of real URLs, and the rule
            // matches them as written.
            continue;
        }
        let span = cx.value_part_span(rule.line(), pos, 1);
        let d = cx.diagnostic(
            Code::DollarNotAtEnd,
            span,
            format!(
                "the `$` in `{value}` is not at the end, so it is a literal `$`: the rule only \
                 matches URLs that contain one"
            ),
        );
        let d = if rest.bytes().all(|b| b == b'*') {
            let fixed = value[..=pos].to_owned();
            d.with_fix(
                format!("end the pattern with the `$`: `{fixed}`"),
                Some(fixed),
            )
        } else {
            d.with_fix("move the `$` to the end of the pattern, or remove it", None)
        };
        out.push(d);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(DollarNotAtEnd);
