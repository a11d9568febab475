//! `R208` not-url-text: a rule with a raw space or an HTML entity (`&amp;`), which URLs never hold

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::fix_effect;
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::NotUrlText,
    r#"## What it does

Reports allow and disallow rules holding a space or a tab inside their
path, or the HTML entity `&amp;`. A rule with a space is left alone when
the file also has the same rule with the space written `%20`.

## Why it matters

Rules are compared with URLs as crawlers request them. A URL carries a space
as `%20`, and Google's robots.txt library does not encode the rule's space
to match (it encodes only non-ASCII characters), so `Disallow: /sitecore
modules/` does not block `/sitecore%20modules/shell`. `&amp;` is how HTML
writes `&`: the rule matches only URLs that hold the five characters
`&amp;`, not the query the author copied from a page's source.

## Example

```text
User-agent: *
Disallow: /sitecore modules/
Disallow: /*?view=print&amp;page=
```

## Use instead

```text
User-agent: *
Disallow: /sitecore%20modules/
Disallow: /*?view=print&page=
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Rule values with an encoded space: a rule with a raw space whose
    // `%20` form is also in the file is a harmless extra line.
    let encoded: rustc_hash::FxHashSet<&str> = cx
        .robots
        .rules()
        .map(|r| r.value())
        .filter(|v| memchr::memchr(b'%', v.as_bytes()).is_some())
        .filter(|v| v.contains("%20") || v.contains("%09"))
        .collect();
    for rule in cx.robots.rules() {
        let value = rule.value();
        // Most values hold no space and no `&`: one pass rules them out.
        if memchr::memchr3(b' ', b'\t', b'&', value.as_bytes()).is_none() {
            continue;
        }
        let space = value.find([' ', '\t']);
        let entity = find_ascii_ci(value, "&amp;");
        if space.is_none() && entity.is_none() {
            continue;
        }
        let span = cx.value_span(rule.line());
        let kind = rule.kind();
        if let Some(at) = space {
            let after = value[at..].trim_start();
            let (message, fix, replacement) = if after.starts_with(['/', '*']) {
                (
                    format!(
                        "`{value}` holds a space: a URL never does (it carries a space as \
                         `%20`), so this rule matches no URL; one line holds one path"
                    ),
                    "put each path on a line of its own".to_owned(),
                    None,
                )
            } else if after.starts_with(|c: char| c.is_ascii_alphanumeric())
                && !value.contains(['{', '}', '<', '>'])
            {
                let fixed = value.replace(' ', "%20").replace('\t', "%09");
                if encoded.contains(fixed.as_str()) {
                    continue; // the file says it the right way too
                }
                (
                    format!(
                        "`{value}` holds a space, which URLs carry as `%20`: Google compares the \
                         rule with the URL as requested, so it does not match `{}`",
                        sample(&fixed)
                    ),
                    format!("write the space as `%20`: `{kind}: {fixed}`"),
                    Some(fixed),
                )
            } else {
                (
                    format!(
                        "`{value}` holds a space: a URL never does (it carries a space as \
                         `%20`), so this rule matches no URL"
                    ),
                    "remove the text after the path, or start it with `#` to make it a \
                     comment"
                        .to_owned(),
                    None,
                )
            };
            let change = replacement.as_deref().map(|fixed| {
                format!(
                    "as written the rule matches only URLs holding a raw space, which crawlers \
                     never request; fixed, it {} `{}`",
                    fix_effect::verb(kind),
                    sample(fixed)
                )
            });
            let d = cx
                .diagnostic(Code::NotUrlText, span, message)
                .with_fix(fix, replacement);
            out.push(match change {
                Some(how) => d.with_verdict_change(how),
                None => d,
            });
            continue;
        }
        let Some(at) = entity else {
            continue;
        };
        let fixed = format!("{}&{}", &value[..at], value[at + 5..].replace("&amp;", "&"));
        out.push(
            cx.diagnostic(
                Code::NotUrlText,
                span,
                format!(
                    "`{value}` holds `&amp;`, HTML's way of writing `&`: URLs hold `&` itself, so \
                     the rule matches only URLs that contain the text `&amp;`"
                ),
            )
            .with_fix(format!("write `{kind}: {fixed}`"), Some(fixed.clone()))
            .with_verdict_change(format!(
                "fixed, the rule {} `{}` instead of URLs holding the text `&amp;`",
                fix_effect::verb(kind),
                sample(&fixed)
            )),
        );
    }
}

/// A URL path the (fixed) pattern matches: stars as `x`, no end anchor.
fn sample(pattern: &str) -> String {
    pattern.trim_end_matches('$').replace('*', "x")
}

/// Where `needle` (ASCII) first occurs in `haystack`, ignoring ASCII case.
fn find_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use crawlgate::RobotsTxt;

    /// The claim the messages make, checked against the core's reading
    /// (which decides as Google's library does).
    #[test]
    fn a_raw_space_does_not_match_the_encoded_url() {
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /sitecore modules/\n");
        assert!(robots
            .decide_path_uncompiled("bot", "/sitecore%20modules/shell")
            .is_allowed());
        let fixed = RobotsTxt::parse(b"User-agent: *\nDisallow: /sitecore%20modules/\n");
        assert!(!fixed
            .decide_path_uncompiled("bot", "/sitecore%20modules/shell")
            .is_allowed());
        let entity = RobotsTxt::parse(b"User-agent: *\nDisallow: /*?a=1&amp;b=2\n");
        assert!(entity
            .decide_path_uncompiled("bot", "/x?a=1&b=2")
            .is_allowed());
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(NotUrlText);
