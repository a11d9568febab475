//! `R006` path-not-absolute: a rule path that does not start with `/`

use crawlgate::Code::PathNotAbsolute;
use crawlgate::RuleKind;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::fix_effect;
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::Parse(PathNotAbsolute),
    r#"## What it does

Reports rule values that start with neither `/` nor `*` (in the rfc9309
reading, neither `/`).

## Why it matters

URL paths always start with `/`, so `Disallow: private/` matches nothing in
Google's reading, although the old Google specification and some crawlers
read it as `/private/`. A full URL (`Disallow: https://example.com/cart`)
matches nothing either: a rule holds only the path, and each host has its
own robots.txt. `Allow: .js` is best written `/*.js`.

## Example

```text
User-agent: *
Disallow: private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let start = out.len();
    out.extend(cx.parser_findings(PathNotAbsolute));
    for d in &mut out[start..] {
        let Some(value) = cx.source.get(d.span.bytes.clone()) else {
            continue;
        };
        let value = String::from_utf8_lossy(value);
        let kind = d
            .fix
            .as_ref()
            .and_then(|f| f.message.strip_prefix("write `"))
            .and_then(|m| m.split(':').next())
            .unwrap_or("Disallow")
            .to_owned();
        if let Some((host, path)) = split_url(&value) {
            let what = if value.contains("//") {
                "is a full URL"
            } else {
                "starts with a host name"
            };
            d.message = format!(
                "rule path `{value}` {what}: rules hold only the path of the URLs of the host \
                 whose robots.txt this is, so it never matches"
            )
            .into();
            d.fix = Some(crawlgate::Fix {
                message: format!(
                    "if this is `{host}`'s robots.txt, write `{kind}: {path}`; rules for another \
                     host belong in that host's own /robots.txt"
                )
                .into(),
                replacement: None,
                verdict_change: None,
            });
        } else if value.starts_with(['.', '*']) {
            // `.js` and `*.js` mean "any path with `.js`", not `/.js`.
            let fixed = format!("/*{}", value.trim_start_matches('*'));
            d.fix = Some(crawlgate::Fix {
                message: format!("write `{kind}: {fixed}`").into(),
                replacement: Some(fixed),
                verdict_change: None,
            });
        }
        // The rule as written matches nothing (or is dropped): a fixed
        // value that starts with `/` makes it match, by design.
        let rule_kind = if kind.eq_ignore_ascii_case("allow") {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        };
        if let Some(fix) = &mut d.fix
            && let Some(fixed) = &fix.replacement
        {
            fix.verdict_change = Some(fix_effect::now_matches(rule_kind, fixed).into());
        }
    }
}

/// The host and the path (with query) of an absolute http(s) URL, or of a
/// value starting with a host name (`www.example.com/a`,
/// `shop.example.com*`).
fn split_url(value: &str) -> Option<(&str, String)> {
    let scheme = ["https://", "http://", "//"].iter().find(|s| {
        value
            .get(..s.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(s))
    });
    let rest = &value[scheme.map_or(0, |s| s.len())..];
    let end = rest.find(['/', '?', '*']).unwrap_or(rest.len());
    let (host, path) = rest.split_at(end);
    let named = host
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b':');
    let dots = host.bytes().filter(|&b| b == b'.').count();
    let looks_like_host = host.to_ascii_lowercase().starts_with("www.") || dots >= 2;
    if host.is_empty() || !named || (scheme.is_none() && !looks_like_host) {
        return None;
    }
    let path = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("/{path}")
    };
    Some((host, path))
}

#[cfg(test)]
mod tests {
    use super::split_url;

    #[test]
    fn hosts_are_split_from_paths() {
        let split = |v| split_url(v).map(|(h, p)| (h.to_owned(), p));
        let pair = |h: &str, p: &str| Some((h.to_owned(), p.to_owned()));
        assert_eq!(
            split("https://www.chase.com/a.pdf"),
            pair("www.chase.com", "/a.pdf")
        );
        assert_eq!(split("HTTP://example.com"), pair("example.com", "/"));
        assert_eq!(split("v6prod.akbank.com*"), pair("v6prod.akbank.com", "/*"));
        assert_eq!(split("www.example.com/x"), pair("www.example.com", "/x"));
        assert_eq!(split("index.html"), None);
        assert_eq!(split("private/"), None);
        assert_eq!(split(".js"), None);
        assert_eq!(split("ñandú/"), None);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(Parse(crawlgate::Code::PathNotAbsolute));
