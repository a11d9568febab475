//! `R316` invalid-license: a `License:` value that is not an absolute URL

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::InvalidLicense,
    r#"## What it does

Reports `License:` lines (RSL 1.0) whose value is not an absolute `http://`
or `https://` URL with a host: empty, a path, a host without a scheme, or a
value with spaces.

## Why it matters

RSL asks for the licence's full URL, with scheme and host (it may be on
another host); like a relative sitemap, a relative one names no document a
crawler can fetch, so the licence terms are never found.

## Example

```text
License: /license.xml

User-agent: *
Allow: /
```

## Use instead

```text
License: https://example.com/license.xml

User-agent: *
Allow: /
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for license in cx.robots.licenses() {
        if license.is_absolute() {
            continue;
        }
        let url = license.url;
        let span = cx.value_span(license.line);
        let host_first = url.split('/').next().is_some_and(|h| {
            h.contains('.')
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.".contains(&b))
        }) && !url.contains(' ');
        let d = if url.is_empty() {
            cx.diagnostic(
                Code::InvalidLicense,
                span,
                "empty `License:` line: it names no licence",
            )
            .with_fix("remove the line or give the licence's full URL", None)
        } else if host_first {
            let fixed = format!("https://{url}");
            cx.diagnostic(
                Code::InvalidLicense,
                span,
                format!("`{url}` has no scheme: RSL asks for the licence's full URL"),
            )
            .with_fix(format!("write `{fixed}`"), Some(fixed))
        } else {
            cx.diagnostic(
                Code::InvalidLicense,
                span,
                format!(
                    "`{url}` is not an absolute URL: RSL asks for the licence's full URL, with \
                     scheme and host, so crawlers cannot find the licence"
                ),
            )
            .with_fix("write the full URL, with scheme and host", None)
        };
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    #[test]
    fn relative_and_schemeless_licences_are_reported() {
        let file = "License: /license.xml\nLicense: example.com/license.xml\n\
                    License: https://cdn.example.net/rsl.xml\nUser-agent: *\nLicense:\nAllow: /\n";
        let report = lint(file.as_bytes(), &LintOptions::default());
        let found: Vec<_> = report.with_code(Code::InvalidLicense).collect();
        let lines: Vec<u32> = found.iter().map(|d| d.span.line).collect();
        assert_eq!(lines, [1, 2, 5]);
        assert_eq!(
            found[1].fix.as_ref().unwrap().replacement.as_deref(),
            Some("https://example.com/license.xml")
        );
        // A License line is a known field: no R001.
        assert_eq!(report.with_code(Code::UnknownField).count(), 0);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(InvalidLicense);
