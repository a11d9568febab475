//! `R103` agent-not-product-token: a user-agent value that is not a product token (`Googlebot/2.0`, `Googlebot Image`)

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crawlgate::Severity;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::AgentNotProductToken,
    r#"## What it does

Reports user-agent values that hold more than a product token: a version
(`Googlebot/2.1`), several words (`Googlebot Image`), a `*` inside a name
(`Googlebot*`), digits (`MJ12bot`), or no token at all.

Names that their makers document with spaces (`Sogou web spider`,
`Screaming Frog SEO Spider`) are reported as information only: those
crawlers look for them as written, and the first word still names them.

## Why it matters

Crawlers match only the product token: the leading run of letters, `-` and
`_`. `Googlebot Image` names Googlebot (web search), not Googlebot-Image, and
legacy parsers that compare the whole value match nothing at all.

## Example

```text
User-agent: Googlebot Image
Disallow: /photos/
```

## Use instead

```text
User-agent: Googlebot-Image
Disallow: /photos/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for ua in cx.robots.user_agents() {
        if ua.is_plain_token() {
            continue;
        }
        let value = ua.value();
        let token = ua.token();
        let span = cx.value_span(ua.line());
        if ua.is_global() {
            out.push(
                cx.diagnostic(
                    Code::AgentNotProductToken,
                    span,
                    format!(
                        "Google reads `{value}` as `*` (every crawler); RFC 9309 parsers read a \
                         crawler name that matches no crawler"
                    ),
                )
                .with_fix("write `*` alone", Some("*".to_owned())),
            );
            continue;
        }
        let has_digit = value.bytes().any(|b| b.is_ascii_digit());
        let word = value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if has_digit && word {
            let reading = if token.is_empty() {
                "matches no crawler with it".to_owned()
            } else {
                format!(
                    "reads it as `{token}`, so under Google's library a crawler named \
                     `{value}` does not obey this group (it obeys `*`)"
                )
            };
            let mut d = cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "`{value}` holds a digit, which RFC 9309 product tokens cannot: Google's \
                     parser {reading}; crawlers that compare the whole name still find it"
                ),
            );
            d.severity = Severity::Info;
            out.push(d);
            continue;
        }
        // A crawler whose documented name is no product token
        // (`bigsur.ai`, `ChatGPT Agent`): no spelling names it under
        // Google's library, so there is no fix to offer.
        if let Some(crawler) = crawlgate::registry::find_token(value)
            && !crawlgate::is_product_token(crawler.token)
        {
            let mut d = cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "`{value}` is the whole name of the crawler {}, which is no product token: \
                     Google's parser reads it as `{token}`, so under Google's library {} does \
                     not obey this group (it obeys `*`); crawlers that compare the whole name \
                     still find it",
                    crawler.name, crawler.name
                ),
            );
            d.severity = Severity::Info;
            out.push(d);
            continue;
        }
        if token.is_empty() {
            let message = if value.is_empty() {
                "empty user-agent: this group applies to no crawler".to_owned()
            } else {
                format!(
                    "`{value}` names no crawler: a product token starts with a letter, `-` or \
                     `_`, so this group applies to no one"
                )
            };
            out.push(cx.diagnostic(Code::AgentNotProductToken, span, message));
            continue;
        }
        let rest = &value[token.len()..];
        let next = rest.chars().next().unwrap_or(' ');
        let d = if next.is_ascii_digit()
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            let mut d = cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "`{value}` holds a digit, which RFC 9309 product tokens cannot: Google's \
                     parser reads it as `{token}`, so under Google's library a crawler named \
                     `{value}` does not obey this group (it obeys `*`); crawlers that compare \
                     the whole name still find it"
                ),
            );
            d.severity = Severity::Info;
            d
        } else if next == '/' {
            cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "the version in `{value}` is not part of the name: Google and RFC 9309 \
                     parsers match `{token}` (any version), legacy parsers compare the whole \
                     value and match nothing"
                ),
            )
            .with_fix(format!("write `{token}`"), Some(token.to_owned()))
        } else if (next == ' ' || next == '\t') && is_documented_with_spaces(value) {
            let mut d = cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "`{value}` is the name its maker documents, spaces included; Google and RFC \
                     9309 parsers read only `{token}`, which still names this crawler"
                ),
            );
            d.severity = Severity::Info;
            d
        } else if next == ' ' || next == '\t' {
            let dashed: String = value.split_whitespace().collect::<Vec<_>>().join("-");
            match crate::audit::find(&dashed) {
                Some(known) => cx
                    .diagnostic(
                        Code::AgentNotProductToken,
                        span,
                        format!(
                            "`{value}` names `{token}`, not `{}`: only the first word counts, so \
                             this group applies to `{token}`",
                            known.token
                        ),
                    )
                    .with_fix(
                        format!("write `{}`", known.token),
                        Some(known.token.to_owned()),
                    ),
                None => cx
                    .diagnostic(
                        Code::AgentNotProductToken,
                        span,
                        format!(
                            "`{value}` names `{token}`: only the first word counts, so this group \
                             applies to any crawler named `{token}`"
                        ),
                    )
                    .with_fix(format!("write `{token}`"), Some(token.to_owned())),
            }
        } else {
            let star = if value.contains('*') {
                " (`*` is no wildcard here)"
            } else {
                ""
            };
            cx.diagnostic(
                Code::AgentNotProductToken,
                span,
                format!(
                    "`{value}` is read as `{token}`: only the leading letters, `-` and `_` name a \
                     crawler{star}"
                ),
            )
            .with_fix(format!("write `{token}`"), Some(token.to_owned()))
        };
        out.push(d);
    }
}

/// Crawler names whose makers document them, for robots.txt, with spaces.
const DOCUMENTED_WITH_SPACES: &[&str] = &[
    "Sogou web spider",
    "Sogou inst spider",
    "Sogou News Spider",
    "Sogou Orion spider",
    "Sogou Pic Spider",
    "Sogou Video Spider",
    "Screaming Frog SEO Spider",
];

/// Whether `value` is one of [`DOCUMENTED_WITH_SPACES`] (any case, any run
/// of spaces).
fn is_documented_with_spaces(value: &str) -> bool {
    // Word by word, without case (and without a lowercase copy per word:
    // this runs for every user-agent line).
    DOCUMENTED_WITH_SPACES.iter().any(|name| {
        let mut words = value.split_whitespace();
        name.split(' ').all(|part| {
            words
                .next()
                .is_some_and(|word| word.eq_ignore_ascii_case(part))
        }) && words.next().is_none()
    })
}

#[cfg(test)]
crate::testing::fixture_tests!(AgentNotProductToken);

#[cfg(test)]
mod whole_names {
    use crate::{lint, Code, LintOptions, Severity};

    #[test]
    fn documented_names_with_spaces_match_word_by_word_in_any_case() {
        use super::is_documented_with_spaces as documented;
        assert!(documented("Sogou web spider"));
        assert!(documented("  sogou   WEB\tSpider "));
        assert!(documented("screaming frog SEO spider"));
        assert!(!documented("Sogou web"));
        assert!(!documented("Sogou web spider 2"));
        assert!(!documented("Sogou webspider"));
        assert!(!documented(""));
    }

    /// `bigsur.ai` and `ChatGPT Agent` are crawlers' documented names: a
    /// note that Google's library cannot name them, and no fix (writing
    /// `bigsur` or `ChatGPT` would name them no better).
    #[test]
    fn documented_names_that_are_no_tokens_get_a_note_and_no_fix() {
        for (file, name) in [
            (&b"User-agent: bigsur.ai\nDisallow: /\n"[..], "bigsur.ai"),
            (b"User-agent: ChatGPT Agent\nDisallow: /\n", "ChatGPT Agent"),
        ] {
            let report = lint(file, &LintOptions::default());
            let found: Vec<_> = report.with_code(Code::AgentNotProductToken).collect();
            assert_eq!(found.len(), 1, "{name}: {found:#?}");
            assert_eq!(found[0].severity, Severity::Info, "{name}");
            assert!(found[0].fix.is_none(), "{name}: {:?}", found[0].fix);
            assert!(
                found[0].message.contains("whole name"),
                "{}",
                found[0].message
            );
        }
        // A name the registry does not document keeps the fix.
        let report = lint(
            b"User-agent: example.bot\nDisallow: /\n",
            &LintOptions::default(),
        );
        let found: Vec<_> = report.with_code(Code::AgentNotProductToken).collect();
        assert_eq!(
            found[0].fix.as_ref().and_then(|f| f.replacement.as_deref()),
            Some("example")
        );
    }
}
