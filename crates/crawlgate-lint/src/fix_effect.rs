//! What applying a fix does to verdicts: the checks and the wording shared by
//! the rules whose fixes rewrite a rule's pattern.
//!
//! A fix keeps its word: either every verdict of the linted reading stays
//! as it was, or the fix says how it changes them
//! ([`Fix::verdict_change`](crawlgate::Fix::verdict_change)). A rewritten
//! pattern that matches the same paths can still change a verdict through
//! its length, which decides between an allow and a disallow that both
//! match: [`Rivals`] finds the rules it could now win or lose against.

use std::ops::RangeInclusive;

use crawlgate::{Profile, Rule, RuleKind};
use rustc_hash::FxHashMap;

use crate::context::Context;

/// A path that `pattern` matches, for wording: each `*` as `x`, a final `*`
/// and `$` dropped (`/*/.tab-` gives `/x/.tab-`).
pub(crate) fn example_path(pattern: &str) -> String {
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    let body = body.trim_end_matches('*');
    let path = body.replace('*', "x");
    if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    }
}

/// The weight of a pattern when an allow and a disallow both match, as
/// the matcher weighs it ([`Precedence::weight`](crawlgate::Precedence::weight)).
pub(crate) fn priority(profile: &Profile, pattern: &str) -> usize {
    profile.precedence.weight(pattern.as_bytes()) as usize
}

/// "disallows" or "allows".
pub(crate) fn verb(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Allow => "allows",
        RuleKind::Disallow => "disallows",
    }
}

/// The wording for a fix that makes a rule that matched nothing match:
/// "as written the rule matches no URL; fixed, it disallows `/private/`".
pub(crate) fn now_matches(kind: RuleKind, fixed: &str) -> String {
    format!(
        "as written the rule matches no URL; fixed, it {} `{}`",
        verb(kind),
        example_path(fixed)
    )
}

/// The rules of the other kind that the crawlers of a rule also obey, by
/// weight: a rewritten rule whose weight moves across one of theirs may
/// now win (or lose) where both match. Each audience's table is built once,
/// when a rule of one of its groups first asks.
pub(crate) struct Rivals<'c, 'a> {
    cx: &'c Context<'a>,
    /// For each group, the audiences whose crawlers obey it.
    audiences_of_group: Vec<Vec<usize>>,
    /// Per audience: (allow, weight) -> the first such rule.
    tables: Vec<Option<FxHashMap<(bool, usize), Rule<'a>>>>,
}

impl<'c, 'a> Rivals<'c, 'a> {
    pub(crate) fn new(cx: &'c Context<'a>) -> Self {
        let audiences = cx.audiences();
        let mut audiences_of_group = vec![Vec::new(); cx.robots.groups().len()];
        for (i, audience) in audiences.iter().enumerate() {
            for &g in &audience.groups {
                if let Some(list) = audiences_of_group.get_mut(g as usize) {
                    list.push(i);
                }
            }
        }
        Rivals {
            cx,
            audiences_of_group,
            tables: vec![None; audiences.len()],
        }
    }

    /// The first rule of the other kind, obeyed by some crawler that obeys
    /// `rule`, whose weight lies in `weights`.
    pub(crate) fn within(
        &mut self,
        rule: &Rule<'a>,
        weights: RangeInclusive<usize>,
    ) -> Option<Rule<'a>> {
        let group = rule.group()?;
        let profile = self.cx.robots.profile();
        let wanted = !rule.allows();
        let mut found: Option<Rule<'a>> = None;
        for &a in self.audiences_of_group.get(group.index())? {
            let table = self.tables[a].get_or_insert_with(|| {
                let mut table = FxHashMap::default();
                for &g in &self.cx.audiences()[a].groups {
                    let Some(group) = self.cx.robots.group(g as usize) else {
                        continue;
                    };
                    for r in group.rules() {
                        if r.is_empty() {
                            continue;
                        }
                        table
                            .entry((r.allows(), priority(&profile, r.pattern())))
                            .or_insert(r);
                    }
                }
                table
            });
            for weight in weights.clone() {
                if let Some(r) = table.get(&(wanted, weight))
                    && found.is_none_or(|f| r.line() < f.line())
                {
                    found = Some(*r);
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_and_weights() {
        assert_eq!(example_path("/*/.tab-"), "/x/.tab-");
        assert_eq!(example_path("/*.pdf$"), "/x.pdf");
        assert_eq!(example_path("/private/*"), "/private/");
        assert_eq!(example_path("private/"), "/private/");
        assert_eq!(priority(&Profile::GOOGLE, "/*.pdf$"), 7);
        assert_eq!(priority(&Profile::YANDEX, "/*.pdf$"), 5);
        assert_eq!(priority(&Profile::YANDEX, "*"), 1);
    }
}
