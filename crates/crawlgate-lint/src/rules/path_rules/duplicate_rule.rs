//! `R201` duplicate-rule: the same rule twice for the same crawlers

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::quote_rule;
use crawlgate::Rule;
use rustc_hash::{FxHashMap, FxHashSet};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DuplicateRule,
    r#"## What it does

Reports an allow or disallow line that repeats an earlier one (same kind,
same path) for the same crawlers, in one group or in groups that are merged.

## Why it matters

It changes nothing, but it makes the file longer and suggests that one of
the two was meant to be something else.

## Example

```text
User-agent: *
Disallow: /tmp/
Disallow: /tmp/
```

## Use instead

```text
User-agent: *
Disallow: /tmp/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let audiences = cx.audiences();
    let tables = cx.pattern_tables();
    // For each rule, the audiences in which it repeats an earlier one.
    let mut repeated_in: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (a, table) in tables.iter().enumerate() {
        for (rule, _) in &table.repeats {
            repeated_in.entry(rule.index()).or_default().push(a);
        }
    }
    let mut reported = FxHashSet::default();
    for (audience, table) in audiences.iter().zip(tables) {
        for (rule, first) in &table.repeats {
            if !reported.insert(rule.index()) {
                continue;
            }
            if let (Some(earlier), Some(group)) = (first.group(), rule.group())
                && earlier.index() != group.index()
                && named_apart(&earlier, &group)
            {
                continue;
            }
            if cx.counting {
                // Who needs the copy, and the fix, are only worded.
                out.push(cx.counted(Code::DuplicateRule));
                continue;
            }
            let d = if first.value() == rule.value() {
                // Crawlers that obey the line but have no other copy of it.
                let needs_it = rule.group().and_then(|group| {
                    let g = group.index() as u32;
                    let copies = &repeated_in[&rule.index()];
                    audiences
                        .iter()
                        .enumerate()
                        .find(|(a, other)| other.groups.contains(&g) && !copies.contains(a))
                        .map(|(_, other)| other.label.clone())
                });
                let message = match &needs_it {
                    None => format!(
                        "`{rule}` repeats {} for `{}`: it changes nothing",
                        quote_rule(first),
                        audience.label
                    ),
                    Some(other) => format!(
                        "`{rule}` repeats {} for `{}`, but `{other}` obeys only this copy",
                        quote_rule(first),
                        audience.label
                    ),
                };
                let d = cx.diagnostic(Code::DuplicateRule, cx.content_span(rule.line()), message);
                match removal(cx, rule, needs_it.as_deref()) {
                    Ok(()) => d.with_fix("remove the line", Some(String::new())),
                    Err(advice) => d.with_fix(advice, None),
                }
            } else {
                cx.diagnostic(
                    Code::DuplicateRule,
                    cx.content_span(rule.line()),
                    format!(
                        "`{rule}` is {} once non-ASCII characters are %-encoded: \
                         crawlers that encode (Google, RFC 9309) read one rule; keep \
                         both only for crawlers that compare bytes as written",
                        quote_rule(first),
                    ),
                )
            };
            out.push(d);
        }
    }
}

/// Whether `group` names a crawler that `earlier` does not name whole,
/// with a name Google's parser cuts at a digit (`Ai2Bot-Dolma` read as
/// `Ai`, the token of `AI2Bot`'s group): under Google's library the two
/// groups merge, but crawlers that compare the whole name (R103) keep them
/// apart, so for them this copy is no repeat and removing it would let them in.
fn named_apart(earlier: &crawlgate::Group<'_>, group: &crawlgate::Group<'_>) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    group.user_agents().any(|agent| {
        let name = agent.value();
        name.len() != agent.token().len()
            && name.bytes().any(|b| b.is_ascii_digit())
            && name.bytes().all(word)
            && !earlier
                .user_agents()
                .any(|other| other.value().eq_ignore_ascii_case(name))
    })
}

/// Whether emptying the line keeps every verdict: every crawler that obeys
/// it has the earlier copy, the group keeps a rule line to end it or the
/// next group it would join changes nothing ([`joins_harmlessly`]), and a
/// blank line does not end a record in this reading. Otherwise, what to do
/// instead.
fn removal(cx: &Context<'_>, rule: &Rule<'_>, needs_it: Option<&str>) -> Result<(), String> {
    if let Some(other) = needs_it {
        return Err(format!(
            "remove it only if `{other}` should not obey it; otherwise leave it"
        ));
    }
    if let Some(group) = rule.group()
        && group.rules().len() < 2
        && !joins_harmlessly(cx, &group)
    {
        return Err(format!(
            "remove the line with the user-agent lines of its group (line {}): without a rule \
             they would join the next group",
            group.first_line()
        ));
    }
    if cx.profile().urllib_records {
        return Err(
            "delete the whole line: in this reading a blank line left in its place ends the \
             group"
                .to_owned(),
        );
    }
    Ok(())
}

/// Whether the user-agent lines of `group`, left without a rule, would
/// join the next group without changing what any crawler obeys: every
/// crawler that obeys `group` already obeys the next one (`Java/1.6.0_04`
/// and `Java/1.6.0_05` are both `Java`), or there is no next group. In
/// Yandex's reading the blank line left behind ends the group instead.
fn joins_harmlessly(cx: &Context<'_>, group: &crawlgate::Group<'_>) -> bool {
    if cx.profile().yandex_records {
        return false;
    }
    let Some(next) = cx.robots.group(group.index() + 1) else {
        return true;
    };
    let (this, next) = (group.index() as u32, next.index() as u32);
    cx.audiences()
        .iter()
        .filter(|a| a.groups.contains(&this))
        .all(|a| a.groups.contains(&next))
}

#[cfg(test)]
crate::testing::fixture_tests!(DuplicateRule);

#[cfg(test)]
mod removal_tests {
    use crate::{lint, Code, LintOptions};

    fn fix_of(file: &[u8]) -> crawlgate::Fix {
        let report = lint(file, &LintOptions::default());
        let d = report.with_code(Code::DuplicateRule).next().unwrap();
        d.fix.clone().unwrap()
    }

    #[test]
    fn a_repeat_in_one_group_is_removed() {
        let fix = fix_of(b"User-agent: *\nDisallow: /a\nDisallow: /a\n");
        assert_eq!(fix.replacement.as_deref(), Some(""));
    }

    /// Emptied, line 7 would leave `User-agent: *` (line 6) to join
    /// Googlebot's group: `*` would obey `Disallow: /search/`.
    #[test]
    fn a_group_left_without_rules_is_not_merged() {
        let file = b"User-agent: *\nDisallow: /wp-admin/\n\n\n\nUser-agent: *\nDisallow: /wp-admin/\n\nUser-agent: Googlebot\nDisallow: /search/\n";
        let fix = fix_of(file);
        assert_eq!(fix.replacement, None);
        assert!(fix.message.contains("line 6"), "{}", fix.message);
    }

    /// Google's parser reads both names as `AI`; a crawler that compares
    /// whole names obeys only its own group, so neither rule repeats.
    #[test]
    fn names_cut_at_a_digit_are_not_repeats() {
        let file = b"User-agent: AI2Bot\nDisallow: /\nUser-agent: Ai2Bot-Dolma\nDisallow: /\n";
        let report = lint(file, &LintOptions::default());
        assert_eq!(report.with_code(Code::DuplicateRule).count(), 0);
        // The same name again is a repeat.
        let file = b"User-agent: AI2Bot\nDisallow: /\nUser-agent: ai2bot\nDisallow: /\n";
        let report = lint(file, &LintOptions::default());
        assert_eq!(report.with_code(Code::DuplicateRule).count(), 1);
    }

    /// Line 6 repeats line 2 for Googlebot, but `*` has only line 6.
    #[test]
    fn a_line_another_crawler_needs_is_kept() {
        let file = b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nUser-agent: Googlebot\nDisallow: /a\nDisallow: /b\n";
        let fix = fix_of(file);
        assert_eq!(fix.replacement, None);
        assert!(fix.message.contains("`*`"), "{}", fix.message);
    }
}
