//! `R007` dollar-not-at-end: `$` that is not the last character of a rule, so it is a literal `$`

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DollarNotAtEnd,
    r#"## What it does

Reports rule values with a `$` anywhere but at the very end (`/a$b`,
`/*.php$*`, `/*.pdf$/`), unless it starts a word, a price or a template
(`/Optus-$30SIM`, `/*$revision`, `/cgi-bin/$LCSTATE`, `/$%7Bname%7D/`):
such a `$` is part of the URLs the rule is meant for, and it matches them.

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
        let starts_a_name = rest.starts_with(|c: char| c.is_ascii_alphanumeric())
            && !value[..pos].ends_with(|c: char| c.is_ascii_alphanumeric());
        if template || starts_a_name {
            // `/Optus-$30SIM`, `/*$revision`, `/cgi-bin/$LCSTATE`,
            // `/$%7Bname%7D/`: a `$` that starts a word or a template is
            // part of real URLs, and the rule matches them as written. In
            // the middle of a word (`/a$b`, `/*.php$x`) it is a misplaced
            // end anchor.
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
mod tests {
    use crate::{lint, Code, LintOptions};
    use crawlgate::RobotsTxt;

    fn flagged(value: &str) -> bool {
        let file = format!("User-agent: *\nDisallow: {value}\n");
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::DollarNotAtEnd)
            .next()
            .is_some()
    }

    #[test]
    fn a_dollar_inside_a_word_is_an_anchor_out_of_place() {
        assert!(flagged("/a$b"));
        assert!(flagged("/*.php$x"));
        assert!(flagged("/*.pdf$/"));
        assert!(flagged("/*.php$*"));
        // What the message claims: `/a$b` blocks neither `/a` nor `/ab`.
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /a$b\n");
        assert!(robots.is_allowed("bot", "/a") && robots.is_allowed("bot", "/ab"));
        assert!(!robots.is_allowed("bot", "/a$b"));
        for literal in [
            "/*$revision",
            "/Optus-$30SIM",
            "/cgi-bin/$LCSTATE",
            "/$%7Bx%7D/",
            "/a$",
        ] {
            assert!(!flagged(literal), "{literal}");
        }
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(DollarNotAtEnd);
