//! `R101` merged-groups: non-rule lines between user-agent lines silently merge what look like separate groups

use crate::budget::Budget;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::{and_list, lines_phrase, quote_rule};
use crawlgate::{ExtensionKind, Group, Profile, Rule, UserAgent};
use std::cell::OnceCell;
use std::ops::Range;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::MergedGroups,
    r#"## What it does

Reports user-agent lines that are separated from the user-agent lines above
them only by non-rule lines (`Crawl-delay`, `Sitemap`, `Host`…). The message
names every crawler that ends up in the merged group and the rules they all
obey.

It also reports user-agent lines separated only by blank lines or comments
when the group disallows something (`User-agent: Googlebot`, a blank line,
`User-agent: *`, `Disallow: /`): a blank line ends nothing, so Googlebot is
disallowed everywhere, while whoever left a user-agent line without rules
above a blank line almost always meant a group of its own. A warning when
`*` is on either side (naming a crawler only to give it the `*` rules does
nothing), information between named crawlers. Consecutive user-agent lines
without a gap, the documented way to share a group, are not reported.

## Why it matters

Only an allow or disallow line ends a group. In the example, `a` was meant
to get a crawl delay and nothing else, but `a` and `*` are one group: `a` is
disallowed everywhere, and every crawler takes the first crawl delay (1 s).

## Example

```text
User-agent: a
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /
```

## Use instead

```text
User-agent: a
Crawl-delay: 1
Disallow:

User-agent: *
Crawl-delay: 30
Disallow: /
```
"#,
    check,
);

/// Longest user-agent value quoted in full.
const MAX_NAME: usize = 128;

/// Most bytes of names listed in one message; the rest are counted.
const MAX_LISTED: usize = 4096;

/// Bytes of names all the messages of a file may list, per byte of the file
/// (the corpus lists at most 53): a group of thousands of crawlers, each
/// separated from the next, would otherwise list thousands of names in each
/// of thousands of findings.
const LISTED_PER_BYTE: u64 = 64;

/// The crawlers of one group as its messages name them. Every finding of a
/// group lists the same first crawlers, so each name is formatted once,
/// when a message first lists it: a group of thousands of crawlers, each
/// separated from the next, has thousands of findings.
struct Names<'g, 'a> {
    agents: &'g [UserAgent<'a>],
    shown: Vec<OnceCell<String>>,
}

impl<'g, 'a> Names<'g, 'a> {
    fn new(agents: &'g [UserAgent<'a>]) -> Self {
        Names {
            agents,
            shown: vec![OnceCell::new(); agents.len()],
        }
    }

    /// "`bot` (line 3)", the value cut at [`MAX_NAME`] bytes.
    fn shown(&self, i: usize) -> &str {
        self.shown[i].get_or_init(|| {
            let ua = &self.agents[i];
            let value = ua.value();
            if value.len() > MAX_NAME {
                let mut end = MAX_NAME;
                while !value.is_char_boundary(end) {
                    end -= 1;
                }
                format!("`{}…` (line {})", &value[..end], ua.line())
            } else {
                format!("`{value}` (line {})", ua.line())
            }
        })
    }

    /// "`a` (line 1), `b` (line 3) and `c` (line 5)" for the crawlers
    /// `range`, or with a count of the rest once the list is long: "… and
    /// 40 more". The first name is always shown.
    fn list(&self, range: Range<usize>, budget: &Budget) -> String {
        let total = range.len();
        self.list_of(range, total, budget)
    }

    /// [`list`](Self::list) of the `total` crawlers whose indices `agents`
    /// yields, taken only as far as the list goes: a message names a few,
    /// whatever the size of the group.
    fn list_of(
        &self,
        agents: impl Iterator<Item = usize>,
        total: usize,
        budget: &Budget,
    ) -> String {
        let more: String;
        let mut listed: Vec<&str> = Vec::new();
        let mut bytes = 0;
        for i in agents {
            let shown = self.shown(i);
            bytes += shown.len() + 2;
            if !listed.is_empty() && (bytes > MAX_LISTED || !budget.spend(shown.len() + 2)) {
                more = format!("{} more", total - listed.len());
                listed.push(&more);
                break;
            }
            listed.push(shown);
        }
        and_list(&listed)
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let budget = Budget::for_file(cx.source.len(), LISTED_PER_BYTE);
    let sitemap_lines: Vec<u32> = cx.robots.sitemaps().map(|s| s.line()).collect();
    for group in cx.robots.groups() {
        let agents: Vec<UserAgent<'_>> = group.user_agents().collect();
        if agents.len() < 2 {
            continue;
        }
        let (first, last) = (agents[0].line(), agents[agents.len() - 1].line());
        let mut separators: Vec<(u32, String)> = group
            .extensions()
            .filter(|e| e.line() > first && e.line() < last)
            .map(|e| (e.line(), e.key().to_owned()))
            .collect();
        // Sitemaps are in line order: the ones inside the group's lines.
        let from = sitemap_lines.partition_point(|&l| l <= first);
        let to = sitemap_lines.partition_point(|&l| l < last);
        separators.extend(
            sitemap_lines[from..to.max(from)]
                .iter()
                .map(|&l| (l, "Sitemap".to_owned())),
        );
        separators.sort();
        // The first separator between each user-agent line and the one
        // before it, found in one sweep over both (they are in line order).
        let mut between: Vec<Option<&(u32, String)>> = vec![None; agents.len()];
        let mut next = 0;
        for i in 1..agents.len() {
            while next < separators.len() && separators[next].0 <= agents[i - 1].line() {
                next += 1;
            }
            between[i] = separators
                .get(next)
                .filter(|(line, _)| *line < agents[i].line());
        }
        // The end of each run of user-agent lines with no separator between
        // them: for `i`, the first `j > i` with a separator before it.
        let mut run_end = vec![agents.len(); agents.len() + 1];
        for i in (1..agents.len()).rev() {
            run_end[i] = if i + 1 < agents.len() && between[i + 1].is_none() {
                run_end[i + 1]
            } else {
                i + 1
            };
        }
        let shared = shared_lines(&group);
        let names = Names::new(&agents);
        // Bing's reading ends a group at a `Crawl-delay` line (in the
        // linted reading, such a line between user-agent lines means the
        // linted reading is not Bing's).
        let delays: Vec<u32> = group
            .extensions()
            .filter(|e| {
                e.kind() == ExtensionKind::CrawlDelay && e.line() > first && e.line() < last
            })
            .map(|e| e.line())
            .collect();
        // Which crawlers Bing's reading is for, and which not, by index:
        // each message then costs what it names, not the size of the group.
        let (bing_idx, other_idx): (Vec<usize>, Vec<usize>) =
            (0..agents.len()).partition(|&i| Profile::BING.reads_for(agents[i].token()));
        // Whether the group disallows anything: only then does a merge
        // across a blank line change what the crawlers above it may fetch.
        let restricts = group.rules().any(|r| !r.is_allow() && !r.is_empty());
        let mut run_start = 0;
        let mut gap_reported = false;
        for i in 1..agents.len() {
            let Some((sep_line, sep_key)) = between[i] else {
                let gap = agents[i - 1].line() + 1..agents[i].line();
                if gap.is_empty() {
                    continue;
                }
                if restricts && !gap_reported {
                    // Every crawler up to the next record line shares the group.
                    let end = (i + 1..agents.len())
                        .find(|&k| between[k].is_some())
                        .unwrap_or(agents.len());
                    let shown = (&names, end);
                    if let Some(d) = gap_finding(cx, shown, run_start, i, gap, &shared, &budget) {
                        // One finding per group: later gaps say the same.
                        out.push(d);
                        gap_reported = true;
                    }
                }
                run_start = i;
                continue;
            };
            run_start = i;
            let end = run_end[i];
            let span = cx.content_span(agents[i].line());
            let fixed = format!(
                "Disallow:\n{}",
                String::from_utf8_lossy(&cx.source[span.bytes.clone()])
            );
            // `delays` is in line order.
            let bing_ends = delays
                .get(delays.partition_point(|&l| l <= agents[i - 1].line()))
                .filter(|&&l| l < agents[i].line());
            let message = match bing_ends {
                None => format!(
                    "`{sep_key}` (line {sep_line}) does not end a group: {} share one group, \
                     so all of them {shared}",
                    names.list(0..end, &budget)
                ),
                Some(delay) => bing_message(
                    *delay,
                    (&names, end),
                    i,
                    &bing_idx[..bing_idx.partition_point(|&j| j < i)],
                    &other_idx[..other_idx.partition_point(|&j| j < i)],
                    &shared,
                    &budget,
                ),
            };
            let before = names.list(0..i, &budget);
            out.push(
                cx.diagnostic(Code::MergedGroups, span, message)
                    .with_fix(
                        format!(
                            "if {before} should not obey these rules, end its group with a rule \
                             line before line {} (`Disallow:` allows everything)",
                            agents[i].line()
                        ),
                        Some(fixed),
                    )
                    .with_verdict_change(split_change(&before, agents[i].line())),
            );
        }
    }
}

/// The blank-line trap: user-agent lines `from..at` of the group's first
/// `end` (named by `names`), then blank or comment lines (`gap`), then
/// user-agent line `at`, all one group. A blank line
/// ends nothing, but an author who leaves one after a user-agent line with
/// no rules almost always meant a group of its own (which would allow
/// everything). Said with confidence (a warning) when `*` is on either
/// side: naming a crawler only to give it the `*` rules has no purpose.
fn gap_finding(
    cx: &Context<'_>,
    (names, end): (&Names<'_, '_>, usize),
    from: usize,
    at: usize,
    gap: std::ops::Range<u32>,
    shared: &str,
    budget: &Budget,
) -> Option<Diagnostic> {
    let token = |ua: &UserAgent<'_>| {
        if ua.is_global() {
            "*".to_owned()
        } else {
            ua.token().to_ascii_lowercase()
        }
    };
    let agents = &names.agents[..end];
    let after = token(&agents[at]);
    let before = &agents[from..at];
    if before.iter().all(|ua| token(ua) == after) {
        return None; // the same crawler named twice: nothing merges
    }
    let blank = gap
        .clone()
        .filter(|&n| cx.line_bytes(n).iter().all(u8::is_ascii_whitespace))
        .count();
    let what = match (blank, gap.len()) {
        (1, 1) => format!("a blank line (line {}) does", gap.start),
        (0, 1) => format!("a comment (line {}) does", gap.start),
        (b, n) if b == n => format!("blank lines (lines {}–{}) do", gap.start, gap.end - 1),
        (0, _) => format!("comments (lines {}–{}) do", gap.start, gap.end - 1),
        _ => format!(
            "blank and comment lines (lines {}–{}) do",
            gap.start,
            gap.end - 1
        ),
    };
    let star = before.iter().chain([&agents[at]]).any(|ua| ua.is_global());
    let span = cx.content_span(agents[at].line());
    let fixed = format!(
        "Disallow:\n{}",
        String::from_utf8_lossy(&cx.source[span.bytes.clone()])
    );
    let before_names = names.list(from..at, budget);
    let mut d = cx
        .diagnostic(
            Code::MergedGroups,
            span,
            format!(
                "{what} not end a group: {} share one group, so all of them {shared}",
                names.list(from..end, budget)
            ),
        )
        .with_fix(
            format!(
                "if {before_names} should have a group of its own, end it with a rule line \
                 before line {} (`Disallow:` allows everything)",
                agents[at].line()
            ),
            Some(fixed),
        )
        .with_verdict_change(split_change(&before_names, agents[at].line()));
    if !star {
        d.severity = crawlgate::Severity::Info;
    }
    Some(d)
}

/// How the fix that ends a group with `Disallow:` changes verdicts: the
/// crawlers named before `line` stop obeying the rules after it.
fn split_change(before: &str, line: u32) -> String {
    let (verb, whose) = if before.contains(" and ") {
        ("obey", "their")
    } else {
        ("obeys", "its")
    };
    format!(
        "{before} no longer {verb} the rules that follow line {line}: {whose} group's only rule, \
         `Disallow:`, allows every URL"
    )
}

/// The message when Bing's reading ends the group at a `Crawl-delay`
/// (line `delay`) between user-agent lines `before - 1` and `before` of
/// the group's first `merged` (named by `names`, as are `bing_before` and
/// `others_before`, indices of those before the line): which
/// crawlers share the group in Google's reading, and which keep a group of
/// their own in Bing's. Bing's crawlers named before the line are left out
/// of Google's list: their own reading does not put them in the group.
fn bing_message(
    delay: u32,
    (names, merged): (&Names<'_, '_>, usize),
    before: usize,
    bing_before: &[usize],
    others_before: &[usize],
    shared: &str,
    budget: &Budget,
) -> String {
    let bing_before_count = bing_before.len();
    let bing_side = || bing_before.iter().copied();
    // Google's side: the merged crawlers but Bing's before the line.
    let google_side = || others_before.iter().copied().chain(before..merged);
    let google_count = merged - bing_before_count;
    let head = format!("`Crawl-delay` (line {delay}) ends a group for Bing but not for Google");
    let mut text = if google_count == 1 {
        format!(
            "{head}: in Google's reading the user-agent lines before it join the group of {}, \
             whose crawlers {shared}",
            names.list_of(google_side(), 1, budget)
        )
    } else {
        format!(
            "{head}: in Google's reading {} share one group, so all of them {shared}",
            names.list_of(google_side(), google_count, budget)
        )
    };
    if bing_before_count == 0 {
        text.push_str(&format!(
            "; Bing's reading keeps {} in a group of its own",
            names.list(0..before, budget)
        ));
    } else {
        text.push_str(&format!(
            "; {} {} Bing's reading, which gives {} a group of its own, without these rules",
            names.list_of(bing_side(), bing_before_count, budget),
            if bing_before_count == 1 {
                "follows"
            } else {
                "follow"
            },
            if bing_before_count == 1 { "it" } else { "them" },
        ));
    }
    text
}

/// "obey `Disallow: /` (line 5)", "obey 12 rules: `…` (line 5), … (lines 5–40)".
fn shared_lines(group: &Group<'_>) -> String {
    let rules: Vec<Rule<'_>> = group.rules().collect();
    let mut text = match rules.as_slice() {
        [] => {
            let lines: Vec<u32> = group.extensions().map(|e| e.line()).collect();
            format!("share the records on {}", lines_phrase(&lines))
        }
        [_] | [_, _] | [_, _, _] => {
            let quoted: Vec<String> = rules.iter().map(quote_rule).collect();
            format!("obey {}", and_list(&quoted))
        }
        [a, b, .., last] => format!(
            "obey its {} rules ({}, {} … up to line {})",
            rules.len(),
            quote_rule(a),
            quote_rule(b),
            last.line()
        ),
    };
    let delays: Vec<u32> = group
        .extensions()
        .filter(|e| e.crawl_delay().is_some())
        .map(|e| e.line())
        .collect();
    if delays.len() > 1 {
        text.push_str(&format!(
            ", and all take the first `Crawl-delay` (line {})",
            delays[0]
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions, Severity};
    use crawlgate::RobotsTxt;

    fn found(file: &str) -> Vec<(u32, Severity, String, Option<String>)> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::MergedGroups)
            .map(|d| {
                let fix = d.fix.as_ref().and_then(|f| f.replacement.clone());
                (d.span.line, d.severity, d.message.to_string(), fix)
            })
            .collect()
    }

    #[test]
    fn a_blank_line_after_a_crawler_is_flagged_with_a_group_of_its_own_as_fix() {
        let file = "User-agent: Googlebot\n\nUser-agent: *\nDisallow: /\n";
        // What the finding claims: Googlebot is disallowed everywhere.
        assert!(!RobotsTxt::parse(file.as_bytes()).is_allowed("Googlebot", "/"));
        let found = found(file);
        assert_eq!(found.len(), 1, "{found:?}");
        let (line, severity, message, fix) = &found[0];
        assert_eq!((*line, *severity), (3, Severity::Warning));
        assert_eq!(
            message,
            "a blank line (line 2) does not end a group: `Googlebot` (line 1) and `*` (line 3) \
             share one group, so all of them obey `Disallow: /` (line 4)"
        );
        let fix = fix.as_deref().unwrap();
        assert_eq!(fix, "Disallow:\nUser-agent: *");
        // The fix gives Googlebot a group of its own that allows everything.
        let fixed = file.replace("User-agent: *", fix);
        let robots = RobotsTxt::parse(fixed.as_bytes());
        assert!(robots.is_allowed("Googlebot", "/"));
        assert!(!robots.is_allowed("other", "/"));
    }

    #[test]
    fn the_variants_are_flagged_and_the_documented_form_is_not() {
        let comment = "User-agent: Googlebot\n# the rest\nUser-agent: *\nDisallow: /\n";
        assert!(found(comment)[0]
            .2
            .starts_with("a comment (line 2) does not end a group"));
        let several =
            "User-agent: Googlebot\nUser-agent: Bingbot\n\n\nUser-agent: *\nDisallow: /x\n";
        let f = found(several);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].2.starts_with(
                "blank lines (lines 3–4) do not end a group: `Googlebot` (line 1), `Bingbot` \
                 (line 2) and `*` (line 5)"
            ),
            "{f:?}"
        );
        let star_first = "User-agent: *\n\nUser-agent: Googlebot\nDisallow: /search\n";
        assert_eq!(found(star_first)[0].0, 3);
        assert_eq!(found(star_first)[0].1, Severity::Warning);
        // Between named crawlers the intent is less clear: information.
        let named = "User-agent: a\n\nUser-agent: b\nDisallow: /x\n";
        assert_eq!(found(named)[0].1, Severity::Info);
        for quiet in [
            "User-agent: Googlebot\nUser-agent: *\nDisallow: /\n",
            "User-agent: *\n\nUser-agent: Googlebot\nDisallow:\n",
            "User-agent: *\n\nUser-agent: *\nDisallow: /x\n",
            "User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n",
        ] {
            assert_eq!(found(quiet), [], "{quiet}");
        }
    }

    /// Every "`name` (line n)" a message lists, in order, and the count of
    /// "… and k more" if the list is cut.
    fn listed(message: &str) -> (Vec<(String, u32)>, Option<usize>) {
        let mut names = Vec::new();
        let mut rest = message;
        while let Some(start) = rest.find('`') {
            let after = &rest[start + 1..];
            let end = after.find('`').unwrap();
            let tail = &after[end + 1..];
            if let Some(line) = tail.strip_prefix(" (line ") {
                let digits = line.find(')').unwrap();
                names.push((after[..end].to_owned(), line[..digits].parse().unwrap()));
            }
            rest = tail;
        }
        let more = message.find(" more").map(|at| {
            let head = &message[..at];
            head[head.rfind(' ').unwrap() + 1..].parse().unwrap()
        });
        (names, more)
    }

    #[test]
    fn long_lists_name_each_crawler_at_its_own_line_and_count_the_rest() {
        // Hundreds of crawlers in one group, separated by sitemaps, blank
        // lines and (for Bing's reading) crawl delays: one finding each,
        // each listing the crawlers before it, cut at the message's limit.
        let mut file = String::new();
        let mut lines = vec![String::new()]; // line numbers from 1
        let mut agents_before = Vec::new();
        for i in 0..400 {
            let name = match i % 5 {
                0 => "bingbot".to_owned(),
                _ => format!("crawler-{i}-{}", "x".repeat(i % 90)),
            };
            agents_before.push(lines.len());
            lines.push(format!("User-agent: {name}"));
            match i % 4 {
                0 => lines.push("Sitemap: https://example.com/s.xml".into()),
                1 => lines.push("Crawl-delay: 1".into()),
                2 => lines.push(String::new()),
                _ => {}
            }
        }
        lines.push("Disallow: /private".into());
        for line in &lines[1..] {
            file.push_str(line);
            file.push('\n');
        }
        let found = found(&file);
        assert!(found.len() > 150, "{}", found.len());
        let mut cut = 0;
        for (line, _, message, _) in &found {
            let (names, more) = listed(message);
            assert!(!names.is_empty(), "{message}");
            // Bing's message has a list for each reading, after a `;`.
            for part in message.split("; ") {
                let (names, _) = listed(part);
                // The separators and the shared rule are quoted too.
                let crawlers = names
                    .iter()
                    .filter(|(name, _)| !matches!(name.as_str(), "Sitemap" | "Crawl-delay"))
                    .filter(|(name, _)| !name.starts_with("Disallow"));
                let mut last = 0;
                for (name, at) in crawlers {
                    // Each crawler once, in file order…
                    assert!(*at > last, "{message}");
                    last = *at;
                    // …and the crawler named is the one on that line.
                    assert_eq!(
                        lines[*at as usize].strip_prefix("User-agent: "),
                        Some(name.as_str()),
                        "line {at} in: {message}"
                    );
                    assert!(agents_before.contains(&(*at as usize)));
                }
            }
            if let Some(more) = more {
                cut += 1;
                // Those counted are crawlers of the group not named.
                assert!(more > 0 && more < 400, "{message}");
            }
            assert!(*line as usize <= lines.len());
        }
        // Past the first few dozen, lists are cut.
        assert!(cut > 150, "{cut} of {} cut", found.len());
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(MergedGroups);
