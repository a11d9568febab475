//! `R008` leading-wildcard: a rule path starting with `*`: Google and Bing accept it, strict parsers do not

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::fix_effect::{self, Rivals};
use crate::rule::RuleInfo;
use crate::wording::quote_rule;

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
    let mut rivals = Rivals::new(cx);
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
        if cx.counting {
            // The rewrite, the fix and its effect are only worded.
            out.push(cx.counted(Code::LeadingWildcard));
            continue;
        }
        let all_stars = value.bytes().all(|b| b == b'*');
        let rewrite = Rewrite::of(value);
        let shown = rewrite.lines.join("` and `");
        let legacy = if all_stars {
            ""
        } else {
            ", and legacy parsers read the `*` literally"
        };
        let span = cx.value_span(rule.line());
        let kind = rule.kind();
        let written: Vec<String> = rewrite
            .lines
            .iter()
            .map(|l| format!("{kind}: {l}"))
            .collect();
        let fix = format!("write `{}`", written.join("` and `"));
        let d = cx
            .diagnostic(
                Code::LeadingWildcard,
                span,
                format!(
                    "`{value}` starts with `*`, not `/`: Google and Bing read it as `{shown}`, \
                     but it is outside RFC 9309's grammar; some strict parsers drop it{legacy}"
                ),
            )
            .with_fix(fix, Some(rewrite.replacement(cx, rule.line(), kind)));
        let change = verdict_change(cx, &rule, &rewrite, &mut rivals);
        out.push(match change {
            Some(how) => d.with_verdict_change(how),
            None => d,
        });
    }
}

/// The rules, starting with `/`, that match exactly the paths a value
/// starting with `*` matches in Google's reading. There every path starts
/// with `/` and a leading `*` matches any run of bytes, so `*X` matches the
/// paths holding `X` anywhere. When `X` does not start with `/`, it can
/// only start after the path's first byte: `/*X`. When `X` is `/`, or
/// starts with `/*`, the path's own first `/` is always a place to start:
/// `X` itself. Otherwise (`*/.tab-`), `X` may start the path or come later:
/// two rules, `/.tab-` and `/*/.tab-`.
struct Rewrite {
    lines: Vec<String>,
}

impl Rewrite {
    fn of(value: &str) -> Rewrite {
        let rest = value.trim_start_matches('*');
        let lines = if rest.is_empty() {
            vec!["/".to_owned()]
        } else if !rest.starts_with('/') {
            vec![format!("/*{rest}")]
        } else if rest == "/" || rest.starts_with("/*") {
            vec![rest.to_owned()]
        } else {
            vec![rest.to_owned(), format!("/*{rest}")]
        };
        Rewrite { lines }
    }

    /// The text that replaces the value: the first rule's value, then each
    /// further rule on a line of its own, with the file's line ending.
    fn replacement(&self, cx: &Context<'_>, line: u32, kind: crawlgate::RuleKind) -> String {
        let crlf = cx
            .line(line)
            .is_some_and(|l| cx.source.get(l.end..l.end + 2) == Some(b"\r\n".as_slice()));
        let eol = if crlf { "\r\n" } else { "\n" };
        let mut out = self.lines[0].clone();
        for more in &self.lines[1..] {
            out.push_str(eol);
            out.push_str(&format!("{kind}: {more}"));
        }
        out
    }
}

/// How the rewrite changes verdicts, if it does: in a reading without
/// wildcards (where `*` is a literal byte), or where the rewritten rules
/// weigh differently from the original and a rule of the other kind for
/// the same crawlers weighs in between (an allow and a disallow that both
/// match are decided by weight, and allow wins a tie).
fn verdict_change<'a>(
    cx: &Context<'a>,
    rule: &crawlgate::Rule<'a>,
    rewrite: &Rewrite,
    rivals: &mut Rivals<'_, 'a>,
) -> Option<String> {
    let profile = cx.profile();
    let kind = rule.kind();
    if !profile.wildcards {
        return Some(format!(
            "this reading takes `*` literally: as written the rule matches no URL; fixed, it {} \
             URLs starting with `{}`",
            fix_effect::verb(kind),
            rewrite.lines[0]
        ));
    }
    let old = fix_effect::priority(&profile, rule.pattern());
    // The rewritten patterns weigh what their values do plus what the
    // original's normalisation added (percent-encoding is byte for byte).
    let grown = rule.pattern().len() as isize - rule.value().len() as isize;
    let weights: Vec<usize> = rewrite
        .lines
        .iter()
        .map(|l| fix_effect::priority(&profile, l).saturating_add_signed(grown))
        .collect();
    let low = weights.iter().copied().chain([old]).min()?;
    let high = weights.iter().copied().chain([old]).max()?;
    if low == high {
        return None;
    }
    let rival = rivals.within(rule, low..=high)?;
    let rewritten = rewrite.lines.join("` and `");
    let weights: Vec<String> = weights.iter().map(usize::to_string).collect();
    let weigh = if weights.len() == 1 {
        "weighs"
    } else {
        "weigh"
    };
    Some(format!(
        "`{rewritten}` {weigh} {} where `{rule}` weighed {old}, and {} weighs {}: where both \
         match, the heavier rule wins (allow on a tie), so the verdict may change",
        weights.join(" and "),
        quote_rule(&rival),
        fix_effect::priority(&profile, rival.pattern()),
    ))
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

#[cfg(test)]
mod rewrite_tests {
    use super::Rewrite;
    use crate::{lint, Code, LintOptions};
    use crawlgate::{Pattern, Profile};

    /// In Google's reading, `*X` and its rewrite match the same paths.
    #[test]
    fn rewrites_match_the_same_paths() {
        let paths = [
            "/",
            "/.tab-",
            "/.tab-x",
            "/a/.tab-x",
            "/a.tab-",
            "//.tab-",
            "/x.pdf",
            "/a/b.pdf",
            "/pdf",
            "/a/",
            "/a",
            "/search.html?q=1",
            "/a/search.html?q=1",
            "/a/category/b-test",
        ];
        for value in [
            "*/.tab-",
            "*.pdf",
            "**.pdf",
            "*/*.pdf",
            "*/",
            "*/$",
            "*",
            "*$",
            "*.pdf$",
            "*/search.html?*q=*$",
            "*/category/*test",
            "*a/",
        ] {
            let rewrite = Rewrite::of(value);
            for path in paths {
                let old = Pattern::for_profile(value, &Profile::GOOGLE).matches(path);
                let new = rewrite
                    .lines
                    .iter()
                    .any(|l| Pattern::for_profile(l, &Profile::GOOGLE).matches(path));
                assert_eq!(old, new, "{value} -> {:?} on {path}", rewrite.lines);
            }
        }
        assert_eq!(Rewrite::of("*/.tab-").lines, ["/.tab-", "/*/.tab-"]);
        assert_eq!(Rewrite::of("*.pdf").lines, ["/*.pdf"]);
        assert_eq!(Rewrite::of("*/*.pdf").lines, ["/*.pdf"]);
    }

    /// The issue's case: `/*/.tab-` alone would let crawlers fetch
    /// `/.tab-x`; the fix writes both rules, on the file's line ending.
    #[test]
    fn a_slash_after_the_star_gets_two_rules() {
        let report = lint(
            b"User-agent: *\r\nDisallow: */.tab-\r\n",
            &LintOptions::default(),
        );
        let d = report.with_code(Code::LeadingWildcard).next().unwrap();
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(
            fix.replacement.as_deref(),
            Some("/.tab-\r\nDisallow: /*/.tab-")
        );
        assert!(!fix.changes_verdicts(), "{fix:?}");
    }

    /// A rewrite one byte longer can now beat an allow of the old length.
    #[test]
    fn a_weight_tie_is_said() {
        let file = b"User-agent: *\nDisallow: *.pdf\nAllow: /news\n";
        let report = lint(file, &LintOptions::default());
        let fix = report
            .with_code(Code::LeadingWildcard)
            .next()
            .unwrap()
            .fix
            .clone()
            .unwrap();
        let how = fix.verdict_change.unwrap();
        assert!(how.contains("`Allow: /news` (line 3) weighs 5"), "{how}");
        let robots = |b: &[u8]| crawlgate::RobotsTxt::parse(b).is_allowed("bot", "/news/a.pdf");
        assert!(robots(file));
        assert!(!robots(b"User-agent: *\nDisallow: /*.pdf\nAllow: /news\n"));
    }
}
