//! What a verdict explains: the deciding rule, why, and which groups applied.

use crawlgate::{Profile, Reason, RobotsTxt, RuleKind, SelectionKind};

const FILE: &[u8] = b"\
User-agent: *
Disallow: /
Allow: /public/

User-agent: Googlebot
User-agent: Googlebot-Image
Disallow: /private/
Allow: /private/press/index.html

User-agent: googlebot
Disallow: /*.pdf$
";

#[test]
fn specific_groups_are_merged_and_listed() {
    let robots = RobotsTxt::parse(FILE);
    let view = robots.view("GoogleBot");
    assert_eq!(view.selection(), SelectionKind::Specific);
    let first_lines: Vec<u32> = view.groups().map(|g| g.first_line()).collect();
    assert_eq!(first_lines, vec![5, 10]);
    let verdict = view.decide("https://example.com/files/a.pdf");
    assert!(!verdict.is_allowed());
    assert_eq!(verdict.line(), Some(11));
    assert_eq!(verdict.reason(), Reason::Rule);
    assert_eq!(verdict.groups().len(), 2);
}

#[test]
fn the_star_group_applies_when_nothing_names_the_crawler() {
    let robots = RobotsTxt::parse(FILE);
    let verdict = robots.decide("Googlebot/2.1", "/public/x");
    assert_eq!(verdict.selection(), SelectionKind::Global);
    assert!(verdict.is_allowed());
    assert_eq!(verdict.rule().unwrap().kind(), RuleKind::Allow);
    assert_eq!(verdict.line(), Some(3));
    assert_eq!(
        verdict.groups().map(|g| g.first_line()).collect::<Vec<_>>(),
        vec![1]
    );
}

#[test]
fn no_group_at_all() {
    let robots = RobotsTxt::parse(b"User-agent: a\nDisallow: /\n");
    let verdict = robots.decide("b", "/x");
    assert_eq!(
        (verdict.is_allowed(), verdict.reason(), verdict.selection()),
        (true, Reason::NoGroup, SelectionKind::Nothing)
    );
    assert!(verdict.rule().is_none());
    assert_eq!(verdict.groups().len(), 0);
}

#[test]
fn index_html_alias_is_reported() {
    let robots = RobotsTxt::parse(FILE);
    let verdict = robots.decide("Googlebot", "/private/press/");
    assert!(verdict.is_allowed());
    assert!(verdict.via_index_alias());
    let rule = verdict.rule().unwrap();
    assert_eq!(
        (rule.line(), rule.value(), rule.index_alias()),
        (8, "/private/press/index.html", Some("/private/press/$"))
    );
}

#[test]
fn empty_rule_decides_nothing_but_is_reported() {
    let robots = RobotsTxt::parse(b"User-agent: *\nDisallow:\n");
    let verdict = robots.decide("x", "/anything");
    assert!(verdict.is_allowed());
    assert_eq!(verdict.reason(), Reason::EmptyRule);
    assert_eq!(verdict.line(), Some(2));
    assert_eq!(verdict.rule().unwrap().to_string(), "Disallow:");
}

#[test]
fn matching_rules_and_precedence_order() {
    let robots =
        RobotsTxt::parse(b"User-agent: *\nAllow: /a\nDisallow: /a*\nDisallow: /ab\nAllow: /abc$\n");
    let view = robots.view("x");
    let order: Vec<(u32, u32)> = view
        .rules_by_precedence()
        .iter()
        .map(|m| (m.rule.line(), m.priority))
        .collect();
    // Longest first; at equal length allow before disallow, then file order
    // (Google reports the first line of the best priority).
    assert_eq!(order, vec![(5, 5), (3, 3), (4, 3), (2, 2)]);
    let matching: Vec<u32> = view
        .matching_rules("/abc")
        .iter()
        .map(|m| m.rule.line())
        .collect();
    assert_eq!(matching, vec![5, 3, 4, 2]);
    assert_eq!(view.decide("/abc").line(), Some(5));
    assert_eq!(view.decide("/abd").line(), Some(3));
    // `/a*` is three bytes long: it beats `Allow: /a` on `/a` itself.
    assert_eq!(view.decide("/a").line(), Some(3));
    assert_eq!(view.decide("/b").line(), None);
}

#[test]
fn robots_txt_reason_in_rfc9309() {
    let robots = RobotsTxt::parse_with(b"User-agent: *\nDisallow: /\n", Profile::RFC9309);
    let verdict = robots.decide("x", "https://example.com/robots.txt");
    assert_eq!(
        (verdict.is_allowed(), verdict.reason()),
        (true, Reason::RobotsTxt)
    );
}

#[test]
fn views_are_shared_across_threads() {
    let robots = RobotsTxt::parse(FILE);
    let view = robots.view("Googlebot");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for i in 0..1000 {
                    let url = format!("/private/{i}");
                    assert!(!view.is_allowed(&url));
                    assert!(!robots.is_allowed("otherbot", &url));
                }
            });
        }
    });
}
