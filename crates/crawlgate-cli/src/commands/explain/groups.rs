//! The text of the Groups section: which user-agent lines select the
//! crawler's groups, what merges them, and why `*` is or is not used.

use std::fmt::Write as _;

use crawlgate::{
    AgentView, ChoiceKind, ExtensionKind, Group, GroupSelection, SelectionKind, UserAgent,
};

use super::selection::{
    compared_name, names_agent, records_between, related_agents, unused_global_groups,
};
use crate::output::{line_ref, pad, width, Palette};

/// `line 3` or `lines 3–7`.
pub fn lines_of(group: &Group<'_>) -> String {
    let (first, last) = (group.first_line(), group.last_line());
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}–{last}")
    }
}

/// `User-agent: VALUE`.
fn user_agent_text(ua: &UserAgent<'_>) -> String {
    format!("User-agent: {}", ua.value())
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The group-selection section.
pub fn render_groups(view: &AgentView<'_>, asked: &str, name: &str, p: Palette, out: &mut String) {
    let robots = view.robots();
    let selection = view.selection();
    let groups: Vec<Group<'_>> = view.groups().collect();
    let legacy = robots.profile().group_selection == GroupSelection::FirstSubstring;
    let _ = writeln!(out, "{}", p.heading("Groups"));
    // The crawler reading: a crawler of the registry obeys the groups of
    // the token its operator documents, said first, with its source.
    let choice = view.group_choice();
    let crawler = choice.crawler();
    let robot_table = robots.profile().group_selection == GroupSelection::RobotPrefix;
    let notable = robot_table
        || crawler.is_some_and(|c| {
            choice.kind() != ChoiceKind::Own || !c.name.eq_ignore_ascii_case(asked.trim())
        });
    if notable {
        let _ = writeln!(out, "  {}.", choice.explain(asked));
    }
    let agent = compared_name(view, asked);
    match (selection, groups.len()) {
        (SelectionKind::Nothing, _) if notable => {}
        (SelectionKind::Specific, 1) if notable => {
            let _ = writeln!(out, "  The group at {}:", lines_of(&groups[0]));
        }
        (SelectionKind::Specific, n) if notable => {
            let spans: Vec<String> = groups.iter().map(lines_of).collect();
            let _ = writeln!(
                out,
                "  {n} groups name `{agent}` ({}); they are merged into one set of rules (RFC 9309 §2.2.1):",
                list(&spans)
            );
        }
        (SelectionKind::Nothing, _) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}` and there is no `*` group: nothing is disallowed."
            );
        }
        (SelectionKind::Specific, 1) if legacy => {
            let _ = writeln!(out, "  `{agent}` obeys the group at {} (legacy reading: the first group, in file order, whose user-agent occurs in the crawler's name; no other group is read):", lines_of(&groups[0]));
        }
        (SelectionKind::Specific, 1) => {
            let _ = writeln!(
                out,
                "  `{agent}` obeys the group at {}:",
                lines_of(&groups[0])
            );
        }
        (SelectionKind::Specific, n) => {
            let spans: Vec<String> = groups.iter().map(lines_of).collect();
            let _ = writeln!(
                out,
                "  {n} groups name `{agent}` ({}); they are merged into one set of rules (RFC 9309 §2.2.1):",
                list(&spans)
            );
        }
        (SelectionKind::Global, 1) if legacy => {
            let _ = writeln!(out, "  No group's user-agent occurs in `{agent}`, so it obeys the first `*` group, at {}:", lines_of(&groups[0]));
        }
        (SelectionKind::Global, 1) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}`, so it obeys the `*` group at {}:",
                lines_of(&groups[0])
            );
        }
        (SelectionKind::Global, n) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}`, so it obeys the {n} `*` groups, merged (RFC 9309 §2.2.1):"
            );
        }
    }
    let ref_width = width(
        groups
            .iter()
            .flat_map(|g| g.user_agents())
            .map(|ua| line_ref(name, ua.line())),
    );
    let text_width = width(
        groups
            .iter()
            .flat_map(|g| g.user_agents())
            .map(|ua| user_agent_text(&ua)),
    );
    // Several groups: each under its own heading, one level deeper.
    let indent = if groups.len() > 1 { "      " } else { "    " };
    for group in &groups {
        if groups.len() > 1 {
            let _ = writeln!(out, "    group at {}", lines_of(group));
        }
        for ua in group.user_agents() {
            let names = names_agent(&ua, agent, selection, robots);
            let mut note = String::new();
            if names && ua.is_global() {
                note = "every crawler".to_owned();
            } else if names && robot_table {
                let robot = choice.robot().map_or("", |r| r.full_name);
                note = format!("names {robot}");
            } else if names && !ua.is_plain_token() && !legacy {
                note = format!("names `{}` (only the product token counts)", ua.token());
            } else if names {
                note = format!("names `{agent}`");
            }
            let text = if note.is_empty() {
                user_agent_text(&ua)
            } else {
                pad(&user_agent_text(&ua), text_width)
            };
            let _ = writeln!(
                out,
                "{indent}{}  {}{}",
                p.dim(&pad(&line_ref(name, ua.line()), ref_width)),
                text,
                if note.is_empty() {
                    String::new()
                } else {
                    format!("  {}", p.allowed(&note))
                }
            );
        }
        let agents = group.user_agents().len();
        let between = records_between(group, robots);
        if !between.is_empty() {
            let records: Vec<String> = between
                .iter()
                .map(|(line, field)| format!("{field} at line {line}"))
                .collect();
            let ender = if robots.profile().crawl_delay_in_group {
                "a rule or a Crawl-delay"
            } else {
                "a rule"
            };
            let _ = writeln!(
                out,
                "{indent}{} {}",
                p.notice("One group, not several:"),
                format_args!(
                    "the {} between these user-agent lines {} not {}, and only {ender} followed by a user-agent line ends a group (docs/behaviour.md §4). These {agents} user-agent lines share every rule of the group.",
                    list(&records),
                    if between.len() == 1 { "is" } else { "are" },
                    if between.len() == 1 { "a rule" } else { "rules" },
                )
            );
            let last_agent = group.user_agents().last().map_or(0, |ua| ua.line());
            let bing_ends = group
                .extensions()
                .find(|e| e.kind() == ExtensionKind::CrawlDelay && e.line() < last_agent);
            if let (Some(delay), false) = (bing_ends, robots.profile().crawl_delay_in_group) {
                let line = delay.line();
                let _ = writeln!(
                    out,
                    "{indent}{} Bing reads a Crawl-delay as a member of its group: for Bing the group ends at line {line} (`--profile bing`).",
                    p.notice("Bing:"),
                );
            }
        } else if agents > 1 {
            let _ = writeln!(
                out,
                "{indent}These {agents} user-agent lines share one group."
            );
        }
        if selection == SelectionKind::Specific
            && let Some(star) = group.user_agents().find(|u| u.is_global())
        {
            let _ = writeln!(
                    out,
                    "{indent}{} the `*` line ({}) is in this same group, so the rules written for every crawler apply to `{agent}` too.",
                    p.notice("Note:"),
                    line_ref(name, star.line())
                );
        }
    }
    // Why `*` is or is not used.
    if selection == SelectionKind::Specific {
        let unused: Vec<String> = unused_global_groups(view).iter().map(lines_of).collect();
        if !unused.is_empty() {
            let _ = writeln!(
                out,
                "  The `*` group ({}) is not used: a group names `{agent}`, and `*` only applies to crawlers no group names (it is never merged into theirs).",
                unused.join(", ")
            );
        }
    }
    if legacy && let Some(first) = groups.first() {
        let also: Vec<String> = robots
            .groups()
            .filter(|g| {
                g.index() != first.index()
                    && g.user_agents()
                        .any(|ua| names_agent(&ua, agent, selection, robots))
            })
            .map(|g| lines_of(&g))
            .collect();
        if !also.is_empty() {
            let _ = writeln!(
                out,
                "  Ignored by this reading, although they name it too: the groups at {}.",
                list(&also)
            );
        }
    }
    if selection != SelectionKind::Specific {
        let related = related_agents(robots, agent);
        if !related.is_empty() {
            let _ = writeln!(
                out,
                "  These lines name other crawlers, not `{agent}` (names must match exactly, RFC 9309 §2.2.1):"
            );
            for ua in related {
                let _ = writeln!(
                    out,
                    "    {}  {}",
                    p.dim(&line_ref(name, ua.line())),
                    user_agent_text(&ua)
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::{Profile, RobotsTxt};

    fn groups_text(file: &str, agent: &str, profile: Profile) -> String {
        let robots = RobotsTxt::parse_with(file.as_bytes(), profile);
        let mut out = String::new();
        render_groups(
            &robots.view(agent),
            agent,
            "r",
            Palette::new(false),
            &mut out,
        );
        out
    }

    #[test]
    fn lists_read_naturally() {
        let items = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>();
        assert_eq!(list(&items(0)), "");
        assert_eq!(list(&items(1)), "1");
        assert_eq!(list(&items(2)), "1 and 2");
        assert_eq!(list(&items(3)), "1, 2 and 3");
    }

    #[test]
    fn one_named_group() {
        let text = groups_text(
            "User-agent: a\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            "a",
            Profile::GOOGLE,
        );
        assert_eq!(
            text,
            "Groups\n  `a` obeys the group at lines 1–2:\n    r:1  User-agent: a  names `a`\n  \
             The `*` group (lines 4–5) is not used: a group names `a`, and `*` only applies to crawlers no group names (it is never merged into theirs).\n"
        );
    }

    #[test]
    fn merged_groups_cite_rfc_9309() {
        let text = groups_text(
            "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n",
            "a",
            Profile::GOOGLE,
        );
        assert!(
            text.contains("2 groups name `a` (lines 1–2 and lines 4–5); they are merged into one set of rules (RFC 9309 §2.2.1):\n    group at lines 1–2\n"),
            "{text}"
        );
    }

    #[test]
    fn records_between_user_agents_make_one_group() {
        let text = groups_text(
            "User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n",
            "a",
            Profile::GOOGLE,
        );
        assert!(text.contains("One group, not several: the Crawl-delay at line 2 between these user-agent lines is not a rule, and only a rule followed by a user-agent line ends a group (docs/behaviour.md §4). These 2 user-agent lines share every rule of the group."), "{text}");
        assert!(
            text.contains("Note: the `*` line (r:3) is in this same group"),
            "{text}"
        );
    }

    #[test]
    fn a_crawl_delay_between_user_agents_ends_the_group_for_bing() {
        let file = "User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n";
        let google = groups_text(file, "a", Profile::GOOGLE);
        assert!(
            google.contains("Bing: Bing reads a Crawl-delay as a member of its group: for Bing the group ends at line 2 (`--profile bing`)."),
            "{google}"
        );
        let bing = groups_text(file, "a", Profile::BING);
        assert!(bing.contains("`a` obeys the group at lines 1–2"), "{bing}");
        assert!(!bing.contains("One group, not several"), "{bing}");
        // A sitemap still merges the lines for Bing, and Bing says why.
        let sitemap =
            "User-agent: a\nSitemap: https://e.example/s.xml\nUser-agent: *\nDisallow: /\n";
        let bing = groups_text(sitemap, "a", Profile::BING);
        assert!(
            bing.contains(
                "only a rule or a Crawl-delay followed by a user-agent line ends a group"
            ),
            "{bing}"
        );
        assert!(!bing.contains("Bing:"), "{bing}");
    }

    #[test]
    fn no_group_and_near_misses() {
        let text = groups_text(
            "User-agent: googlebot\nDisallow: /\n",
            "googlebot-news",
            Profile::GOOGLE,
        );
        assert_eq!(
            text,
            "Groups\n  No group names `googlebot-news` and there is no `*` group: nothing is disallowed.\n  \
             These lines name other crawlers, not `googlebot-news` (names must match exactly, RFC 9309 §2.2.1):\n    r:1  User-agent: googlebot\n"
        );
    }

    #[test]
    fn several_star_groups_merge() {
        let text = groups_text(
            "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
            "x",
            Profile::GOOGLE,
        );
        assert!(
            text.contains(
                "No group names `x`, so it obeys the 2 `*` groups, merged (RFC 9309 §2.2.1):"
            ),
            "{text}"
        );
    }

    #[test]
    fn legacy_reads_the_first_group_only() {
        let file = "User-agent: bot\nDisallow: /a\n\nUser-agent: bot\nDisallow: /b\n";
        let text = groups_text(file, "bot", Profile::LEGACY);
        assert!(
            text.contains("`bot` obeys the group at lines 1–2 (legacy reading:"),
            "{text}"
        );
        assert!(
            text.contains(
                "Ignored by this reading, although they name it too: the groups at lines 4–5."
            ),
            "{text}"
        );
    }
}
