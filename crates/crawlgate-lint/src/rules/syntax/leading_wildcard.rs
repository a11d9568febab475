//! `R008` leading-wildcard: a rule path starting with `*`: Google and Bing accept it, strict parsers do not

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::LeadingWildcard,
    r#"## What it does

Reports rule values that start with `*` instead of `/`, except in groups
that name only Google's or Bing's crawlers, which read them as meant.

## Why it matters

Google and Bing read `Disallow: *.pdf` as `/*.pdf`. The value is outside
RFC 9309's grammar, which starts paths with `/`: some strict parsers drop
the line (many others, such as Python's and Scrapy's, read it as Google
does), and legacy parsers without wildcards take the `*` literally and match
nothing. Where this changes a decision under the rfc9309 reading, `R401`
shows the URL.

## Example

```text
User-agent: *
Disallow: *.pdf
```

## Use instead

```text
User-agent: *
Disallow: /*.pdf
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.profile().require_leading_slash {
        return; // the parser already reports it as R006
    }
    // Whether each group names only Google or Bing crawlers, found once per
    // group (a group may hold many rules and many user-agents).
    let mut only_theirs: Vec<Option<bool>> = vec![None; cx.robots.groups().len()];
    for rule in cx.robots.rules() {
        let value = rule.value();
        if !value.starts_with('*') {
            continue;
        }
        if let Some(group) = rule.group() {
            let known = &mut only_theirs[group.index()];
            if *known.get_or_insert_with(|| only_google_or_bing(&group)) {
                continue;
            }
        }
        let all_stars = value.bytes().all(|b| b == b'*');
        let fixed = if all_stars {
            "/".to_owned()
        } else {
            format!("/{value}")
        };
        let legacy = if all_stars {
            ""
        } else {
            ", and legacy parsers read the `*` literally"
        };
        let span = cx.value_span(rule.line());
        out.push(
            cx.diagnostic(
                Code::LeadingWildcard,
                span,
                format!(
                    "`{value}` starts with `*`, not `/`: Google and Bing read it as `{fixed}`, \
                     but it is outside RFC 9309's grammar; some strict parsers drop it{legacy}"
                ),
            )
            .with_fix(format!("write `{}: {fixed}`", rule.kind()), Some(fixed)),
        );
    }
}

/// Whether every user-agent of a group names a crawler of Google or
/// Microsoft (Bing), which read a leading `*` as meant.
fn only_google_or_bing(group: &crawlgate::Group<'_>) -> bool {
    group.user_agents().all(|ua| {
        !ua.is_global()
            && crate::audit::find(ua.token())
                .is_some_and(|c| matches!(c.operator, "Google" | "Microsoft"))
    })
}

#[cfg(test)]
crate::testing::fixture_tests!(LeadingWildcard);
