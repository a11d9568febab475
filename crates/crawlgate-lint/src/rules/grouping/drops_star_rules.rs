//! `R105` drops-star-rules: a crawler with a group of its own no longer obeys the `*` rules

use crate::audit::Purpose;
use crate::budget::{Budget, LookupCost};
use crate::context::generic_agent;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::inclusion::sample_paths;
use crate::rule::RuleInfo;
use crate::wording::{and_list, quote_rule};
use crawlgate::registry::CrawlerKind;
use crawlgate::{GroupSelection, Rule, Severity};
use rustc_hash::{FxHashMap, FxHashSet};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DropsStarRules,
    r#"## What it does

Reports, for each crawler with a group of its own, the `*` disallow rules it
no longer obeys: paths the `*` group blocks that this crawler may fetch,
with the confidence the file allows. A warning when the crawler's group has
disallow rules of its own (it repeats some of the `*` rules and not others,
or repeats none). Information when the intent is probably to give the
crawler more access: a group of only `Allow` lines (Google's documented way
to do so), a group that allows everything (`Disallow:` or `Allow: /`
alone), a crawler that shares a `*` group, an ad or link-preview crawler,
a fetcher acting for a user, or a crawler that no longer runs.

Files whose `*` group disallows everything (`Disallow: /`) are left alone:
there, a crawler's own group is the exception the file grants.

## Why it matters

A crawler obeys only the most specific group naming it (RFC 9309, section
2.2.1; Google's documentation on how groups are chosen): the rules of the
`*` group do not add to its own group, they are replaced by it. A
`User-agent: Googlebot` group written to add one rule, or to allow one
folder, lets Googlebot fetch everything the `*` group keeps out.

## Example

```text
User-agent: *
Disallow: /admin/
Disallow: /cart/

User-agent: Googlebot
Allow: /cart/help/
```

## Use instead

```text
User-agent: *
Disallow: /admin/
Disallow: /cart/

User-agent: Googlebot
Disallow: /admin/
Disallow: /cart/
Allow: /cart/help/
```
"#,
    check,
);

/// Tokens for which the `*` group never applied: Google's special-case
/// crawlers (AdsBot, AdSense's Mediapartners-Google, APIs-Google) ignore it
/// (Google's documentation of its special-case crawlers), and the
/// `-Extended` tokens control the use of content, not crawling.
const NEVER_OBEY_STAR: &[&str] = &[
    "AdsBot-Google",
    "AdsBot-Google-Mobile",
    "Mediapartners-Google",
    "APIs-Google",
    "Google-Extended",
    "Applebot-Extended",
];

/// Why a crawler's own group is often meant to be more open than `*`: ad
/// and link-preview crawlers need the pages people see, fetchers for a
/// user act for that user, and retired crawlers fetch nothing any more.
fn often_apart(label: &str) -> Option<&'static str> {
    let crawler = crate::audit::find(label)?;
    if !crawler.runs() {
        return Some("it no longer crawls, so this changes nothing today");
    }
    if crawler.kind == CrawlerKind::UserTriggered {
        return Some("it fetches for a user, who often gets more access on purpose");
    }
    match crawler.purpose {
        Purpose::Ads => Some("ad crawlers often get more access on purpose"),
        Purpose::LinkPreview => Some("link-preview crawlers often get more access on purpose"),
        _ => None,
    }
}

/// Dropped rules named in a fix; one more is looked for, to say there are
/// more (counting them all would decide every `*` rule for every crawler).
const NAMED: usize = 3;

/// A `*` disallow rule with a path it decides for crawlers without a group.
struct StarRule<'a> {
    rule: Rule<'a>,
    path: String,
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if robots.profile().group_selection == GroupSelection::FirstSubstring
        || !robots
            .groups()
            .any(|g| g.is_global() && g.rules().any(|r| !r.is_allow() && !r.is_empty()))
    {
        return;
    }
    let specific = |label: &str| {
        label != "*"
            && !NEVER_OBEY_STAR
                .iter()
                .any(|t| t.eq_ignore_ascii_case(label))
    };
    if !cx.audiences().iter().any(|a| specific(&a.label)) {
        return;
    }
    let star = robots.view(generic_agent(robots));
    if !star.decide_path("/").is_allowed() {
        return; // everything is closed: the other groups are the exceptions
    }
    // Deciding each `*` rule for each crawler multiplies two sizes of the
    // file: decisions are paid from an allowance.
    let budget = Budget::for_file(cx.source.len(), 64);
    let star_cost = std::cell::OnceCell::new();
    let mut seen = FxHashSet::default();
    let mut samples = Vec::new();
    let mut star_rules = Vec::new();
    for rule in star.groups().flat_map(|g| g.rules()) {
        // Crawlers fetch /robots.txt whatever it says.
        if rule.is_allow()
            || rule.is_empty()
            || rule.pattern().starts_with("/robots.txt")
            || !seen.insert(rule.pattern())
        {
            continue;
        }
        samples.clear();
        sample_paths(rule.pattern(), &mut samples);
        if let Some(path) = samples.pop() {
            star_rules.push(StarRule { rule, path });
        }
    }
    let star_patterns: FxHashSet<&str> = star_rules.iter().map(|s| s.rule.pattern()).collect();
    // Whether the `*` group decides each rule's path with that rule (and
    // not with an allow rule), found on first use.
    let mut decides: Vec<Option<bool>> = vec![None; star_rules.len()];
    let mut naming: Option<FxHashMap<(usize, String), u32>> = None;
    let mut by_groups: Option<FxHashMap<Vec<u32>, Vec<String>>> = None;
    for audience in cx.audiences() {
        if !specific(&audience.label) {
            continue;
        }
        let rules: Vec<Rule<'_>> = audience
            .groups
            .iter()
            .filter_map(|&g| robots.group(g as usize))
            .flat_map(|g| g.rules())
            .collect();
        if rules.is_empty() {
            continue; // R104 says it
        }
        let own: FxHashSet<&str> = rules
            .iter()
            .filter(|r| !r.is_allow() && !r.is_empty())
            .map(|r| r.pattern())
            .collect();
        // `Allow: /` with no disallow allows everything on purpose, as much
        // as `Disallow:` does; narrower allow lines alone were meant to add
        // to the `*` rules.
        let allows_some = rules.iter().any(|r| r.is_allow() && !r.is_empty())
            && !rules
                .iter()
                .any(|r| r.is_allow() && matches!(r.pattern(), "/" | "/*" | "*"));
        // A group that disallows every path and allows none drops no `*`
        // rule: nothing to decide (most such groups shut a crawler out).
        let disallows_everything = rules
            .iter()
            .any(|r| !r.is_allow() && !r.is_empty() && matches!(r.pattern(), "/" | "/*" | "*"))
            && !rules.iter().any(|r| r.is_allow() || r.allows())
            && !star_rules.iter().any(|s| s.path == "/robots.txt");
        if disallows_everything {
            continue;
        }
        let view = robots.view(&audience.label);
        let cost = LookupCost::new(rules.iter().map(|r| r.pattern()));
        let mut dropped: Vec<&StarRule<'_>> = Vec::new();
        for (i, star_rule) in star_rules.iter().enumerate() {
            if own.contains(star_rule.rule.pattern()) {
                continue;
            }
            if dropped.len() > NAMED {
                break; // enough to name them and say there are more
            }
            if !budget.spend(1 + cost.of(&star_rule.path)) {
                break;
            }
            if !view.decide_path(&star_rule.path).is_allowed() {
                continue;
            }
            let star_decides = match decides[i] {
                Some(known) => known,
                None => {
                    let cost = star_cost.get_or_init(|| {
                        LookupCost::new(star.groups().flat_map(|g| g.rules()).map(|r| r.pattern()))
                    });
                    if !budget.spend(1 + cost.of(&star_rule.path)) {
                        break;
                    }
                    let verdict = star.decide_path(&star_rule.path);
                    let known = !verdict.is_allowed()
                        && verdict
                            .rule()
                            .is_some_and(|r| r.index() == star_rule.rule.index());
                    decides[i] = Some(known);
                    known
                }
            };
            if star_decides {
                dropped.push(star_rule);
            }
        }
        let Some(first) = dropped.first() else {
            continue;
        };
        let group = audience.groups[0] as usize;
        let naming = naming.get_or_insert_with(|| {
            let mut map = FxHashMap::default();
            for ua in robots.user_agents() {
                map.entry((ua.group().index(), ua.token().to_ascii_lowercase()))
                    .or_insert(ua.line());
            }
            map
        });
        let by_groups = by_groups.get_or_insert_with(|| {
            let mut map: FxHashMap<Vec<u32>, Vec<String>> = FxHashMap::default();
            for (token, groups) in robots.tokens() {
                map.entry(groups.to_vec())
                    .or_default()
                    .push(token.to_owned());
            }
            map
        });
        // Every token of the audience (crawlers that share exactly these
        // groups), in the order the file names them: the same situation
        // gets the same finding for each of them.
        let line_of = |token: &str| {
            naming
                .get(&(group, token.to_ascii_lowercase()))
                .copied()
                .or_else(|| robots.group(group).map(|g| g.first_line()))
                .unwrap_or(1)
        };
        let mut tokens: Vec<String> = by_groups
            .get(&audience.groups)
            .cloned()
            .unwrap_or_else(|| vec![audience.label.clone()]);
        tokens.retain(|t| specific(t));
        tokens.sort_by_key(|t| line_of(t));
        if tokens.is_empty() {
            continue;
        }
        let more = if dropped.len() > 1 {
            ", among other paths the `*` group disallows"
        } else {
            ""
        };
        let example = format!(
            "`{}` ({} blocks it for other crawlers){more}",
            first.path,
            quote_rule(&first.rule)
        );
        let shares_star = audience
            .groups
            .iter()
            .any(|&g| robots.group(g as usize).is_some_and(|g| g.is_global()));
        // Rules of `*` the group repeats: it was written to keep them, so
        // the ones it leaves out were probably forgotten.
        // (Counted from the group's side: each `*` pattern is listed once,
        // and going through every `*` rule for each crawler was quadratic.)
        let repeated = own
            .iter()
            .filter(|pattern| star_patterns.contains(*pattern))
            .count();
        let repeat: Vec<String> = dropped
            .iter()
            .take(NAMED)
            .map(|d| format!("`{}`", d.rule))
            .collect();
        let etc = if dropped.len() > NAMED { " …" } else { "" };
        // What the group holds decides for all its crawlers; what each
        // crawler is (an ad crawler, a retired one) for each.
        let whole_group = if shares_star {
            Some(WholeGroup::SharesStar)
        } else if own.is_empty() && allows_some {
            Some(WholeGroup::OnlyAllows)
        } else if own.is_empty() {
            Some(WholeGroup::AllowsEverything)
        } else {
            None
        };
        let mut findings: Vec<(Vec<String>, Severity, Option<&'static str>)> = Vec::new();
        if whole_group.is_some() {
            findings.push((tokens.clone(), Severity::Info, None));
        } else {
            let (apart, plain): (Vec<&String>, Vec<&String>) =
                tokens.iter().partition(|t| often_apart(t).is_some());
            if !plain.is_empty() {
                findings.push((
                    plain.into_iter().cloned().collect(),
                    Severity::Warning,
                    None,
                ));
            }
            for token in apart {
                findings.push((vec![token.clone()], Severity::Info, often_apart(token)));
            }
        }
        for (names, severity, why) in findings {
            let who = Named::new(&names);
            let message = match (whole_group, why) {
                (Some(case), _) => case.message(&who, &example),
                (None, Some(why)) => format!(
                    "{} obeys only its own group, not the `*` group: it may fetch {example} ({why})",
                    who.names
                ),
                (None, None) if repeated > 0 => format!(
                    "the group of {} repeats {repeated} of the `*` group's disallow rules but not \
                     all: {} only that group, so {} may fetch {example}",
                    who.names,
                    who.verb("it obeys", "they obey"),
                    who.pronoun()
                ),
                (None, None) => format!(
                    "{} {}, not the `*` group: {} may fetch {example}",
                    who.names,
                    who.verb("obeys only its own group", "obey only the group they share"),
                    who.pronoun()
                ),
            };
            let line = line_of(&names[0]);
            let mut d = cx
                .diagnostic(Code::DropsStarRules, cx.content_span(line), message)
                .with_fix(
                    format!(
                        "repeat in the group of {} the `*` rules {} should obey: {}{etc}",
                        who.names,
                        who.pronoun(),
                        and_list(&repeat)
                    ),
                    None,
                );
            d.severity = severity;
            out.push(d);
        }
    }
}

/// What a group holds that decides the finding for all its crawlers.
#[derive(Clone, Copy)]
enum WholeGroup {
    /// It also names `*`.
    SharesStar,
    /// Only allow lines: Google's way to give a crawler more access.
    OnlyAllows,
    /// It allows everything.
    AllowsEverything,
}

impl WholeGroup {
    fn message(self, who: &Named, example: &str) -> String {
        match self {
            WholeGroup::SharesStar => format!(
                "{} {} a `*` group but {} only that one, not the other `*` groups: {} may fetch \
                 {example}",
                who.names,
                who.verb("shares", "share"),
                who.verb("obeys", "obey"),
                who.pronoun()
            ),
            WholeGroup::OnlyAllows => format!(
                "the group of {} holds only allow lines, the documented way to give a crawler \
                 more access: it replaces the `*` group, so {} may fetch {example}; is that \
                 meant?",
                who.names,
                who.pronoun()
            ),
            WholeGroup::AllowsEverything => format!(
                "the group of {} allows everything, so {} {} not obey the `*` group: {} may \
                 fetch {example}",
                who.names,
                who.pronoun(),
                who.verb("does", "do"),
                who.pronoun()
            ),
        }
    }
}

/// The crawlers a finding names, for its sentences: "`Googlebot` and
/// `Bingbot`", singular or plural.
struct Named {
    names: String,
    plural: bool,
}

impl Named {
    /// Names beyond this many are counted.
    const LISTED: usize = 4;

    fn new(tokens: &[String]) -> Named {
        let mut quoted: Vec<String> = tokens
            .iter()
            .take(Named::LISTED)
            .map(|t| format!("`{t}`"))
            .collect();
        if tokens.len() > Named::LISTED {
            quoted.push(format!("{} others", tokens.len() - Named::LISTED));
        }
        Named {
            names: and_list(&quoted),
            plural: tokens.len() > 1,
        }
    }

    fn verb(&self, one: &'static str, many: &'static str) -> &'static str {
        if self.plural {
            many
        } else {
            one
        }
    }

    fn pronoun(&self) -> &'static str {
        self.verb("it", "they")
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions, Severity};

    fn found(file: &str) -> Vec<(u32, Severity)> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::DropsStarRules)
            .map(|d| (d.span.line, d.severity))
            .collect()
    }

    #[test]
    fn severity_follows_what_the_group_holds() {
        let star = "User-agent: *\nDisallow: /admin/\nDisallow: /cart/\n\n";
        let own = format!("{star}User-agent: Googlebot\nDisallow: /tmp/\n");
        assert_eq!(found(&own), [(5, Severity::Warning)]);
        let partial = format!("{star}User-agent: Googlebot\nDisallow: /admin/\nDisallow: /tmp/\n");
        assert_eq!(found(&partial), [(5, Severity::Warning)]);
        // Google's documented way to give one crawler more access: only
        // allow lines. A question, never an error.
        let allows = format!("{star}User-agent: Googlebot\nAllow: /cart/help/\n");
        assert_eq!(found(&allows), [(5, Severity::Info)]);
        let open = format!("{star}User-agent: Googlebot\nDisallow:\n");
        assert_eq!(found(&open), [(5, Severity::Info)]);
        let open = format!("{star}User-agent: Googlebot\nAllow: /\n");
        assert_eq!(found(&open), [(5, Severity::Info)]);
        // Ad, link-preview and retired crawlers get groups of their own
        // on purpose more often than not.
        for label in ["Twitterbot", "Googlebot-Mobile", "facebookexternalhit"] {
            let file = format!("{star}User-agent: {label}\nDisallow: /tmp/\n");
            assert_eq!(found(&file), [(5, Severity::Info)], "{label}");
        }
        // Sharing a `*` group on purpose: not a warning.
        let shared = "User-agent: Googlebot\nUser-agent: *\nDisallow: /a/\n\n\
                      User-agent: *\nDisallow: /b/\n";
        assert_eq!(found(shared), [(1, Severity::Info)]);
    }

    #[test]
    fn the_messages_say_what_the_evidence_shows() {
        let star = "User-agent: *\nDisallow: /admin/\nDisallow: /cart/\n\n";
        let partial = format!("{star}User-agent: Googlebot\nDisallow: /admin/\n");
        let report = lint(partial.as_bytes(), &LintOptions::default());
        let d = report.with_code(Code::DropsStarRules).next().unwrap();
        assert!(
            d.message.starts_with(
                "the group of `Googlebot` repeats 1 of the `*` group's disallow rules but not all"
            ),
            "{}",
            d.message
        );
        assert!(d.message.contains("may fetch `/cart/`"), "{}", d.message);
        let allows = format!("{star}User-agent: Googlebot\nAllow: /cart/help/\n");
        let report = lint(allows.as_bytes(), &LintOptions::default());
        let d = report.with_code(Code::DropsStarRules).next().unwrap();
        assert!(d.message.ends_with("is that meant?"), "{}", d.message);
    }

    #[test]
    fn repeated_or_covered_rules_are_not_dropped() {
        let star = "User-agent: *\nDisallow: /admin/\nDisallow: /cart/\n\n";
        let repeated = format!("{star}User-agent: Googlebot\nDisallow: /admin/\nDisallow: /cart\n");
        assert_eq!(found(&repeated), []);
        let closed = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /tmp/\n";
        assert_eq!(found(closed), []);
        for special in ["AdsBot-Google", "Mediapartners-Google"] {
            let file = format!("{star}User-agent: {special}\nDisallow: /tmp/\n");
            assert_eq!(found(&file), [], "{special}");
        }
    }

    /// Crawlers that share a group are in the same situation: the finding
    /// names each of them, with the confidence the evidence allows for
    /// each (the issue's Googlebot/Bingbot example named only Bingbot).
    #[test]
    fn crawlers_sharing_a_group_get_the_same_finding() {
        let star = "User-agent: *\nDisallow: /private/\n\n";
        let both =
            format!("{star}User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /cgi-bin/\n");
        let report = lint(both.as_bytes(), &LintOptions::default());
        let found: Vec<_> = report.with_code(Code::DropsStarRules).collect();
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[0].span.line, 4, "the first of them in the file");
        assert!(
            found[0]
                .message
                .starts_with("`Googlebot` and `Bingbot` obey only the group they share"),
            "{}",
            found[0].message
        );
        // Each alone: the same finding, in the singular.
        for name in ["Googlebot", "Bingbot"] {
            let alone = format!("{star}User-agent: {name}\nDisallow: /cgi-bin/\n");
            let report = lint(alone.as_bytes(), &LintOptions::default());
            let d = report.with_code(Code::DropsStarRules).next().unwrap();
            assert_eq!(d.severity, Severity::Warning, "{name}");
            assert!(
                d.message
                    .starts_with(&format!("`{name}` obeys only its own group")),
                "{}",
                d.message
            );
        }
        // An ad crawler beside them is more likely meant: information, for
        // it alone.
        let mixed = format!(
            "{star}User-agent: Googlebot\nUser-agent: AdIdxBot\nUser-agent: Bingbot\nDisallow: /cgi-bin/\n"
        );
        let report = lint(mixed.as_bytes(), &LintOptions::default());
        let found: Vec<(Severity, String)> = report
            .with_code(Code::DropsStarRules)
            .map(|d| (d.severity, d.message.to_string()))
            .collect();
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(found[0].0, Severity::Warning);
        assert!(
            found[0].1.starts_with("`Googlebot` and `Bingbot` obey"),
            "{}",
            found[0].1
        );
        assert_eq!(found[1].0, Severity::Info);
        assert!(
            found[1]
                .1
                .starts_with("`AdIdxBot` obeys only its own group"),
            "{}",
            found[1].1
        );
    }

    #[test]
    fn the_message_names_a_path_and_the_fix_the_rules() {
        let file = "User-agent: *\nDisallow: /a/\nDisallow: /b/\nDisallow: /c/\nDisallow: /d/\n\n\
                    User-agent: Googlebot\nAllow: /x/\n";
        let report = lint(file.as_bytes(), &LintOptions::default());
        let d = report.with_code(Code::DropsStarRules).next().unwrap();
        assert!(
            d.message
                .contains("may fetch `/a/` (`Disallow: /a/` (line 2)"),
            "{}",
            d.message
        );
        assert!(d.message.contains("among other paths"), "{}", d.message);
        let fix = &d.fix.as_ref().unwrap().message;
        assert!(
            fix.contains("`Disallow: /a/`, `Disallow: /b/` and `Disallow: /c/` …"),
            "{fix}"
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(DropsStarRules);
