//! `R001` unknown-field: a field name no crawler reads, with a did-you-mean for near misses

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::extension::ExtensionKind;
use crawlgate::Severity;
use rustc_hash::FxHashSet;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::UnknownField,
    r#"## What it does

Reports lines whose field name is neither a robots.txt field (`User-agent`,
`Allow`, `Disallow`, `Sitemap`) nor a known extension (`Crawl-delay`,
`Request-rate`, `Visit-time`, `Host`, `Clean-param`, `Content-Usage`,
`Content-Signal`, `License`). A near miss of a known name is a warning with the name it
probably meant; any other unknown field is reported as information.

## Why it matters

Every crawler skips a line whose field it does not know. A misspelled
`Disalow` that Google's typo list does not cover, or `Crawldelay`, silently
does nothing.

## Example

```text
User-agent: *
Disalow: /private/
Crawldelay: 10
```

## Use instead

```text
User-agent: *
Disallow: /private/
Crawl-delay: 10
```
"#,
    check,
);

const FIELDS: &[&str] = &[
    "User-agent",
    "Allow",
    "Disallow",
    "Sitemap",
    "Crawl-delay",
    "Request-rate",
    "Visit-time",
    "Host",
    "Clean-param",
    "Content-Usage",
    "Content-Signal",
    "License",
];

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.html {
        return;
    }
    let reported: FxHashSet<u32> = cx
        .robots
        .diagnostics()
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                crawlgate::Code::MisspelledField | crawlgate::Code::FieldNamePrefix
            )
        })
        .map(|d| d.span.line)
        .collect();
    for ext in cx.robots.extensions() {
        if ext.kind() != ExtensionKind::Unknown || reported.contains(&ext.line()) {
            continue;
        }
        let key = ext.key();
        if crate::rules::extensions::noindex_line::is_noindex(key) {
            continue;
        }
        let span = cx.key_span(ext.line());
        if key.eq_ignore_ascii_case("http") || key.eq_ignore_ascii_case("https") {
            let mut d = cx
                .diagnostic(
                    Code::UnknownField,
                    cx.content_span(ext.line()),
                    format!(
                    "a URL on a line of its own is read as a field named `{key}`: every crawler \
                     ignores it (does it belong to the line above?)"
                ),
                )
                .with_fix("put `Sitemap: ` before the URL, on the same line", None);
            d.severity = Severity::Warning;
            out.push(d);
            continue;
        }
        let is_name = key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b' '));
        if !is_name {
            let mut d = cx.diagnostic(
                Code::UnknownField,
                span,
                format!("`{key}` is not a field name: every crawler ignores this line"),
            );
            d.severity = Severity::Info;
            out.push(d);
            continue;
        }
        let limit = match key.len() {
            0..=4 => 1,
            5..=8 => 2,
            _ => 3,
        };
        match crate::spelling::closest(key, FIELDS.iter().copied(), limit) {
            Some(field) => {
                let d = cx
                    .diagnostic(
                        Code::UnknownField,
                        span,
                        format!(
                            "unknown field `{key}`: every crawler ignores this line; did you \
                             mean `{field}`?"
                        ),
                    )
                    .with_fix(format!("write `{field}`"), Some(field.to_owned()));
                out.push(match read_change(cx, field) {
                    Some(how) => d.with_verdict_change(how),
                    None => d,
                });
            }
            None => {
                let mut d = cx.diagnostic(
                    Code::UnknownField,
                    span,
                    format!("unknown field `{key}`: no crawler reads it, the line is ignored"),
                );
                d.severity = Severity::Info;
                out.push(d);
            }
        }
    }
}

/// How fixing the field name changes verdicts: a rule or user-agent line
/// that was ignored is read, and in readings where a `Crawl-delay` (or
/// `Request-rate`) line belongs to its group, such a line can end one.
fn read_change(cx: &Context<'_>, field: &str) -> Option<String> {
    let profile = cx.profile();
    let is = |name: &str| field.eq_ignore_ascii_case(name);
    if is("allow") || is("disallow") || is("user-agent") {
        return Some(format!(
            "as written every crawler ignores the line; fixed, crawlers read it as `{field}`"
        ));
    }
    let groups = (profile.crawl_delay_in_group && is("crawl-delay"))
        || (profile.urllib_records && (is("crawl-delay") || is("request-rate")));
    groups.then(|| {
        format!(
            "as written the line is ignored; fixed, the {} reading counts this `{field}` line as \
             a member of its group, which can change which group the crawlers below it obey",
            profile.name
        )
    })
}

#[cfg(test)]
crate::testing::fixture_tests!(UnknownField);
