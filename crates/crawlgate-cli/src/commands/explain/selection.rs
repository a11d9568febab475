//! What an explanation says about group selection, for the text and the
//! JSON alike: which user-agent lines name the crawler, the records that
//! make several user-agent lines one group, the lines that name similar
//! crawlers, the `*` groups left unused, and the rules that can never match.

use crawlgate::{
    AgentView, Group, GroupSelection, RobotsTxt, Rule, RuleMatch, SelectionKind, UserAgent,
};

/// Whether the user-agent line `ua` names the crawler, as the profile
/// selects groups.
pub fn names_agent(
    ua: &UserAgent<'_>,
    agent: &str,
    selection: SelectionKind,
    robots: &RobotsTxt,
) -> bool {
    match selection {
        SelectionKind::Global => ua.is_global(),
        SelectionKind::Nothing => false,
        SelectionKind::Specific => match robots.profile().group_selection {
            GroupSelection::FirstSubstring => {
                let name = agent.split('/').next().unwrap_or("").to_lowercase();
                !ua.is_global() && name.contains(&ua.value().to_lowercase())
            }
            // Yandex: the value starts with the robot's required prefix and
            // begins its full name.
            GroupSelection::RobotPrefix => {
                !ua.is_global()
                    && robots
                        .view(agent)
                        .group_choice()
                        .robot()
                        .is_some_and(|robot| robot.named_by(ua.value()))
            }
            _ => !ua.is_global() && ua.token().eq_ignore_ascii_case(agent),
        },
    }
}

/// The name user-agent lines are compared with: the token whose groups the
/// crawler reading chose for a crawler of the registry (its own or a
/// fallback), else the name asked.
pub fn compared_name<'a>(view: &AgentView<'a>, asked: &'a str) -> &'a str {
    let choice = view.group_choice();
    if view.robots().profile().group_selection == GroupSelection::RobotPrefix {
        // Yandex's table matches values against the robot, not a token.
        return asked;
    }
    match (choice.crawler(), choice.token()) {
        (Some(_), Some(token)) if token != "*" => token,
        (Some(c), _) => c.token,
        (None, _) => asked,
    }
}

/// Records between the first and last user-agent line of a group: they do
/// not end it (docs/behaviour.md §4), which merges crawlers the author
/// meant to keep apart.
pub fn records_between(group: &Group<'_>, robots: &RobotsTxt) -> Vec<(u32, String)> {
    let lines: Vec<u32> = group.user_agents().map(|u| u.line()).collect();
    let (first, last) = (lines[0], lines[lines.len() - 1]);
    let inside = |line: u32| line > first && line < last;
    let mut records: Vec<(u32, String)> = group
        .extensions()
        .filter(|e| inside(e.line()))
        .map(|e| (e.line(), e.key().to_owned()))
        .chain(
            robots
                .sitemaps()
                .filter(|s| inside(s.line()))
                .map(|s| (s.line(), "Sitemap".to_owned())),
        )
        .collect();
    records.sort();
    records
}

/// User-agent lines for names close to the crawler's (`googlebot` for
/// `googlebot-news`): they do not apply, matching is exact (RFC 9309
/// §2.2.1).
pub fn related_agents<'a>(robots: &'a RobotsTxt, agent: &str) -> Vec<UserAgent<'a>> {
    let wanted = crawlgate::product_token(agent)
        .unwrap_or(agent)
        .to_ascii_lowercase();
    let agent = agent.to_ascii_lowercase();
    robots
        .user_agents()
        .filter(|ua| {
            let token = ua.token().to_ascii_lowercase();
            !ua.is_global()
                && !token.is_empty()
                && token != agent
                && (token == wanted || agent.starts_with(&token) || token.starts_with(&agent))
        })
        .take(5)
        .collect()
}

/// The `*` groups a crawler named by some group does not use (`*` is never
/// merged into a named crawler's rules).
pub fn unused_global_groups<'a>(view: &AgentView<'a>) -> Vec<Group<'a>> {
    let used: Vec<usize> = view.groups().map(|g| g.index()).collect();
    view.robots()
        .groups()
        .filter(|g| g.is_global() && !used.contains(&g.index()))
        .collect()
}

/// The rules of the crawler's groups missing from `by_precedence`: a path
/// that starts with neither `/` nor `*` never matches.
pub fn never_matching<'a>(view: &AgentView<'a>, by_precedence: &[RuleMatch<'a>]) -> Vec<Rule<'a>> {
    // Sorted, so each rule is looked up in log time: a file of 100,000
    // rules is explained in linear-logarithmic time, not quadratic.
    let mut tried: Vec<usize> = by_precedence.iter().map(|m| m.rule.index()).collect();
    tried.sort_unstable();
    view.groups()
        .flat_map(|g| g.rules())
        .filter(|r| tried.binary_search(&r.index()).is_err())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::Profile;

    const FILE: &str = "\
User-agent: a
Crawl-delay: 1
Sitemap: https://example.com/s.xml
User-agent: b
Disallow: /x
Disallow: x

User-agent: *
Disallow: /

User-agent: googlebot
User-agent: Googlebot-News/1.0
Allow: /
";

    fn robots(profile: Profile) -> RobotsTxt {
        RobotsTxt::parse_with(FILE.as_bytes(), profile)
    }

    fn agents(robots: &RobotsTxt) -> Vec<UserAgent<'_>> {
        robots.user_agents().collect()
    }

    #[test]
    fn user_agent_lines_name_the_crawler_by_token() {
        let google = robots(Profile::GOOGLE);
        let uas = agents(&google);
        let named = |agent: &str, selection| {
            uas.iter()
                .filter(|ua| names_agent(ua, agent, selection, &google))
                .map(|ua| ua.line())
                .collect::<Vec<_>>()
        };
        assert_eq!(named("B", SelectionKind::Specific), [4]);
        assert_eq!(named("googlebot-news", SelectionKind::Specific), [12]);
        assert_eq!(named("zz", SelectionKind::Global), [8]);
        assert!(named("zz", SelectionKind::Nothing).is_empty());
    }

    #[test]
    fn legacy_names_by_substring_of_the_crawler_name() {
        let legacy = robots(Profile::LEGACY);
        let uas = agents(&legacy);
        let lines: Vec<u32> = uas
            .iter()
            .filter(|ua| names_agent(ua, "Googlebot/2.1", SelectionKind::Specific, &legacy))
            .map(|ua| ua.line())
            .collect();
        // Any user-agent value inside the name: `b` too.
        assert_eq!(lines, [4, 11]);
    }

    #[test]
    fn records_between_user_agent_lines_are_listed_in_line_order() {
        let google = robots(Profile::GOOGLE);
        let first = google.groups().next().unwrap();
        assert_eq!(
            records_between(&first, &google),
            [(2, "Crawl-delay".to_owned()), (3, "Sitemap".to_owned())]
        );
        let star = google.groups().nth(1).unwrap();
        assert!(records_between(&star, &google).is_empty());
    }

    #[test]
    fn similar_names_are_near_misses() {
        let google = robots(Profile::GOOGLE);
        let lines = |agent| {
            related_agents(&google, agent)
                .iter()
                .map(|ua| ua.line())
                .collect::<Vec<_>>()
        };
        assert_eq!(lines("googlebot-image"), [11]);
        assert_eq!(lines("Googlebot"), [12]);
        assert_eq!(lines("bingbot"), [4]);
        assert!(lines("zz").is_empty());
    }

    #[test]
    fn unused_stars_and_rules_that_never_match() {
        let google = robots(Profile::GOOGLE);
        let view = google.view("b");
        let unused: Vec<u32> = unused_global_groups(&view)
            .iter()
            .map(|g| g.first_line())
            .collect();
        assert_eq!(unused, [8]);
        let rules = view.rules_by_precedence();
        let never: Vec<u32> = never_matching(&view, &rules)
            .iter()
            .map(|r| r.line())
            .collect();
        assert_eq!(never, [6]);
        assert!(unused_global_groups(&google.view("zz")).is_empty());
    }
}
