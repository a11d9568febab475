//! `R202` shadowed-rule: a rule that can never decide: a longer or equal rule of the other kind always wins

use crate::budget::Budget;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::inclusion::Glob;
use crate::prefixes::Prefixes;
use crate::rule::RuleInfo;
use crate::wording::quote_rule;
use crawlgate::Precedence;
use crawlgate::Rule;
use rustc_hash::FxHashMap;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::ShadowedRule,
    r#"## What it does

Reports an allow or disallow rule for which it can be proved that every URL
it matches is also matched by a rule of the other kind that wins: one at least
as long (longest match; an allow wins a tie) or, in the legacy reading, one
that comes first. Only proved cases are reported: a shorter prefix such as
`Disallow: /a` next to `Allow: /a/b` is not shadowing, each decides some
URLs.

## Why it matters

The rule looks as if it did something, and does nothing: `Disallow:
/*.php` next to `Allow: /*.php*` never disallows a single URL.

## Example

```text
User-agent: *
Disallow: /*.php
Allow: /*.php*
```

## Use instead

```text
User-agent: *
Disallow: /*.php
Allow: /public/*.php
```
"#,
    check,
);

/// The literal part of a pattern before its first wildcard (with wildcards
/// on; the whole pattern without them).
fn literal_prefix(pattern: &str, wildcards: bool) -> &str {
    if !wildcards {
        return if pattern == "*" { "" } else { pattern };
    }
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    &body[..body.find('*').unwrap_or(body.len())]
}

/// A rule that may shadow others: a wildcard or anchored pattern (a plain
/// prefix only ever includes a pattern it is a prefix of, which is never
/// longer than itself).
struct Shadower<'a> {
    rule: Rule<'a>,
    pattern: &'a str,
    priority: usize,
    /// Built when first compared: most shadowers never are.
    glob: std::cell::OnceCell<Option<Glob>>,
    prefix: &'a str,
    literals: usize,
}

/// How many bytes of a wildcard pattern are literal (neither `*` nor the
/// final `$`): a pattern can only include one with at least as many, as
/// each of its literal bytes matches one of the other's.
fn literal_count(pattern: &str) -> usize {
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    body.bytes().filter(|&b| b != b'*').count()
}

impl Shadower<'_> {
    fn includes(&self, other: &Glob, wildcards: bool, budget: &Budget) -> bool {
        self.glob
            .get_or_init(|| Glob::new(self.pattern, wildcards))
            .as_ref()
            .is_some_and(|glob| glob.includes(other, budget))
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    let profile = cx.profile();
    let wildcards = profile.wildcards;
    let longest = profile.precedence == Precedence::LongestMatch;
    let audiences = cx.audiences();
    // Proving inclusions is the costly part: thousands of wildcard rules
    // could each be compared with thousands of others. A proof that does
    // not fit in the allowance is not made, and the rule is not reported.
    let budget = Budget::for_file(cx.source.len(), 256);
    // Per audience: shadowed rule index -> the rule that always wins.
    let mut shadowed: Vec<FxHashMap<usize, Rule<'_>>> = Vec::with_capacity(audiences.len());
    for audience in audiences {
        let mut found: FxHashMap<usize, Rule<'_>> = FxHashMap::default();
        let rules = || {
            audience
                .groups
                .iter()
                .filter_map(|&g| robots.group(g as usize))
                .flat_map(|g| g.rules())
                .filter(|r| !r.is_empty())
        };
        if longest {
            let shadowers: Vec<Shadower<'_>> = rules()
                .filter(|r| {
                    let p = r.pattern();
                    wildcards && (p.contains('*') || p.ends_with('$'))
                })
                .map(|r| Shadower {
                    rule: r,
                    pattern: r.pattern(),
                    priority: r.pattern().len(),
                    glob: std::cell::OnceCell::new(),
                    prefix: literal_prefix(r.pattern(), wildcards),
                    literals: literal_count(r.pattern()),
                })
                .collect();
            // Longest first: the search for a winner stops at the first one
            // too short.
            // By kind, longest first: the search for a winner looks at the
            // other kind only and stops at the first one too short.
            let (mut allows, mut disallows): (Vec<Shadower<'_>>, Vec<Shadower<'_>>) =
                shadowers.into_iter().partition(|s| s.rule.is_allow());
            allows.sort_by_key(|s| std::cmp::Reverse(s.priority));
            disallows.sort_by_key(|s| std::cmp::Reverse(s.priority));
            if !allows.is_empty() || !disallows.is_empty() {
                for a in rules() {
                    let others = if a.is_allow() { &disallows } else { &allows };
                    if others.is_empty() || a.is_allow() && a.index_alias().is_some() {
                        continue;
                    }
                    let a_pattern = a.pattern();
                    let a_prefix = literal_prefix(a_pattern, wildcards);
                    // An allow wins a tie: a disallow must be longer to beat it.
                    let needed = a_pattern.len() + usize::from(a.is_allow());
                    let a_literals = literal_count(a_pattern);
                    if budget.exhausted() {
                        break;
                    }
                    let mut candidates =
                        others
                            .iter()
                            .take_while(|b| b.priority >= needed)
                            .filter(|b| {
                                budget.spend(1 + b.prefix.len())
                                    && b.literals <= a_literals
                                    && a_prefix.starts_with(b.prefix)
                                    && b.pattern != a_pattern
                            });
                    // Most rules have no candidate: build their glob only
                    // when one is left to check.
                    let Some(first) = candidates.next() else {
                        continue;
                    };
                    let Some(a_glob) = Glob::new(a.pattern(), wildcards) else {
                        continue;
                    };
                    let winner = std::iter::once(first)
                        .chain(candidates)
                        .find(|b| b.includes(&a_glob, wildcards, &budget));
                    if let Some(b) = winner {
                        found.insert(a.index(), b.rule);
                    }
                }
            }
        } else {
            // Legacy: first match wins; an earlier rule of the other kind
            // whose pattern is a prefix (or `*`) shadows.
            let patterns = Prefixes::new(rules().map(|r| r.pattern().as_bytes()).collect());
            let mut earliest: Vec<[Option<Rule<'_>>; 2]> = vec![[None; 2]; patterns.len()];
            for r in rules() {
                if let Some(i) = patterns.find(r.pattern().as_bytes()) {
                    earliest[i][usize::from(r.is_allow())].get_or_insert(r);
                }
            }
            let star = patterns.find(b"*");
            for a in rules() {
                let other = usize::from(!a.is_allow());
                let earlier = |i: usize| earliest[i][other].filter(|b| b.index() < a.index());
                let mut winner = star.and_then(earlier);
                if winner.is_none() && a.pattern().starts_with('/') {
                    // The shortest pattern that is a proper prefix of this
                    // one and holds an earlier rule of the other kind.
                    if let Some(i) = patterns.find(a.pattern().as_bytes()) {
                        winner = patterns.ancestors(i).filter_map(earlier).last();
                    }
                }
                if let Some(b) = winner {
                    found.insert(a.index(), b);
                }
            }
        }
        shadowed.push(found);
    }
    // A rule can never decide when it is shadowed for every audience that
    // holds its group.
    let all_rules: Vec<Rule<'_>> = robots.rules().collect();
    let mut audiences_of_group: Vec<Vec<usize>> = vec![Vec::new(); robots.groups().len()];
    for (k, audience) in audiences.iter().enumerate() {
        for &g in &audience.groups {
            if let Some(list) = audiences_of_group.get_mut(g as usize) {
                list.push(k);
            }
        }
    }
    let mut candidates: Vec<usize> = shadowed.iter().flat_map(|m| m.keys().copied()).collect();
    candidates.sort_unstable();
    candidates.dedup();
    let mut found: Vec<(Rule<'_>, (Rule<'_>, String))> = Vec::new();
    for index in candidates {
        let Some(rule) = all_rules.get(index) else {
            continue;
        };
        let Some(group) = rule.group() else {
            continue;
        };
        let mut by = None;
        let all =
            audiences_of_group[group.index()]
                .iter()
                .all(|&k| match shadowed[k].get(&index) {
                    Some(winner) => {
                        by.get_or_insert((*winner, audiences[k].label.clone()));
                        true
                    }
                    None => false,
                });
        if let (true, Some(by)) = (all, by) {
            found.push((*rule, by));
        }
    }
    for (rule, (by, label)) in found {
        let why = if !longest {
            "which comes first and wins"
        } else if rule.is_allow() {
            "which is longer and wins"
        } else {
            "which is at least as long and wins (an allow wins a tie)"
        };
        out.push(
            cx.diagnostic(
                Code::ShadowedRule,
                cx.content_span(rule.line()),
                format!(
                    "{} can never decide for `{label}`: every URL it matches is also matched by \
                     {}, {why}",
                    quote_rule(&rule),
                    quote_rule(&by)
                ),
            )
            .with_fix(
                "remove the rule, or make the other one narrower so that it stops covering it",
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(ShadowedRule);
