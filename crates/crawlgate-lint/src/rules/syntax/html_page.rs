//! `R017` html-page: the file is an HTML page, not a robots.txt

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::HtmlPage,
    r#"## What it does

Reports files that start like an HTML document (`<!DOCTYPE html>`,
`<html>`).

## Why it matters

A server that answers `/robots.txt` with an error or home page and status
200 hands crawlers HTML. They read it as robots.txt anyway and find no valid
lines (or a few by accident), so they may crawl everything.

## Example

```text
<!DOCTYPE html>
<html><body>Page not found</body></html>
```

## Use instead

```text
User-agent: *
Disallow:
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if !cx.html {
        return;
    }
    let valid =
        cx.robots.user_agents().len() + cx.robots.rules().len() + cx.robots.sitemaps().len();
    let first = (1..=cx.lines().len() as u32)
        .find(|&n| cx.line_bytes(n).iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(1);
    let consequence = if valid == 0 {
        "none, so they may crawl everything".to_owned()
    } else {
        format!("only {valid} user-agent, rule or sitemap line(s) by accident")
    };
    out.push(
        cx.diagnostic(
            Code::HtmlPage,
            cx.content_span(first),
            format!(
                "this is an HTML page, not a robots.txt: crawlers read it as robots.txt anyway \
                 and find {consequence}"
            ),
        )
        .with_fix(
            "serve a plain-text robots.txt at /robots.txt (or a 404 when there is none)",
            None,
        ),
    );
}

#[cfg(test)]
crate::testing::fixture_tests!(HtmlPage);
