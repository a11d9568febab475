//! `R008` leading-wildcard: a rule path starting with `*`: Google and Bing accept it, strict parsers do not

use crate::diagnostic::{Code, Diagnostic};
use crate::{Category, Context, RuleInfo};
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::LeadingWildcard,
    name: "leading-wildcard",
    severity: Severity::Warning,
    category: Category::Syntax,
    summary: "a rule path starting with `*`: Google and Bing accept it, strict parsers do not",
    docs: r#"## What it does

Reports rule values that start with `*` instead of `/`.

## Why it matters

Google and Bing read `Disallow: *.pdf` as `/*.pdf`. RFC 9309 requires a
leading `/` and strict parsers drop the line; legacy parsers without wildcards
take the `*` literally and match nothing.

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
};

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.profile().require_leading_slash {
        return; // the parser already reports it as R006
    }
    for rule in cx.robots.rules() {
        let value = rule.value();
        if !value.starts_with('*') {
            continue;
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
            ", and legacy parsers read the `*` literally and match nothing"
        };
        let span = cx.value_span(rule.line());
        out.push(
            cx.diagnostic(
                Code::LeadingWildcard,
                span,
                format!(
                    "`{value}` starts with `*`, not `/`: Google and Bing read it as `{fixed}`, \
                     RFC 9309 parsers ignore the line{legacy}"
                ),
            )
            .with_fix(format!("write `{}: {fixed}`", rule.kind()), Some(fixed)),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(LeadingWildcard);
