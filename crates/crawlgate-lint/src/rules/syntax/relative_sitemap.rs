//! `R009` relative-sitemap: a `Sitemap:` value that is not an absolute http(s) URL

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::RelativeSitemap,
    r#"## What it does

Reports `Sitemap:` lines whose value is not an absolute `http://` or
`https://` URL.

## Why it matters

Sitemaps in robots.txt must be given as full URLs (they may be on another
host). Google and Bing ignore `Sitemap: /sitemap.xml`.

## Example

```text
Sitemap: /sitemap.xml
```

## Use instead

```text
Sitemap: https://example.com/sitemap.xml
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for sitemap in cx.robots.sitemaps() {
        let url = sitemap.url();
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            continue;
        }
        let span = cx.value_span(sitemap.line());
        let key = cx
            .fields(sitemap.line())
            .map(|f| String::from_utf8_lossy(&cx.source[f.key]).to_ascii_lowercase())
            .unwrap_or_default();
        let scheme = ["http", "https"]
            .into_iter()
            .find(|s| key.ends_with(&format!(" {s}")));
        let d = if let (Some(scheme), true) = (scheme, url.starts_with("//")) {
            let fixed = format!("Sitemap: {scheme}:{url}");
            cx.diagnostic(
                Code::RelativeSitemap,
                cx.content_span(sitemap.line()),
                format!(
                    "the colon after `Sitemap` is missing: Google reads the field name as \
                     `{key}` and the URL as `{url}`, which is not absolute, and ignores it"
                ),
            )
            .with_fix(format!("write `{fixed}`"), Some(fixed))
        } else if url.starts_with("//") {
            cx.diagnostic(
                Code::RelativeSitemap,
                span,
                format!(
                    "`{url}` has no scheme: Google and Bing only read absolute sitemap URLs and \
                     ignore this line"
                ),
            )
            .with_fix(
                "write the full URL, with `https:`",
                Some(format!("https:{url}")),
            )
        } else if url.is_empty() {
            cx.diagnostic(
                Code::RelativeSitemap,
                span,
                "empty `Sitemap:` line: it names no sitemap",
            )
            .with_fix("remove the line or give the sitemap's full URL", None)
        } else if url.starts_with('/') {
            cx.diagnostic(
                Code::RelativeSitemap,
                span,
                format!(
                    "`{url}` is a relative URL: Google and Bing only read absolute sitemap URLs \
                     (`https://example.com{url}`) and ignore this line"
                ),
            )
            .with_fix("write the full URL, with scheme and host", None)
        } else {
            let host = url.split('/').next().unwrap_or("");
            let host_like = url
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~/:?=&%".contains(&b))
                && host.contains('.')
                && ![".xml", ".gz", ".txt", ".php", ".html"]
                    .iter()
                    .any(|ext| host.to_ascii_lowercase().ends_with(ext));
            let d = cx.diagnostic(
                Code::RelativeSitemap,
                span,
                format!("`{url}` is not an absolute http(s) URL: Google and Bing ignore this line"),
            );
            if host_like {
                let fixed = format!("https://{url}");
                d.with_fix(format!("add the scheme: `{fixed}`"), Some(fixed))
            } else {
                d.with_fix("write the full URL, with scheme and host", None)
            }
        };
        out.push(d);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(RelativeSitemap);
