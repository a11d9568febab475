//! `render`: the canonical rendering of a parsed file is a fixed point and
//! re-parses (under the same profile) to the same decisions.

use crawlgate::{Profile, RobotsTxt};

use crate::input;

/// Renders `data` parsed under every profile, re-parses the rendering and
/// checks that it renders the same and decides the same for questions
/// derived from the file.
///
/// ```
/// crawlgate_fuzz::render::check(b"user-agent: a\ndisallow /x # no colon\nUSER-AGENT:b\nallow:/y\n");
/// ```
pub fn check(data: &[u8]) {
    for profile in Profile::ALL {
        let robots = RobotsTxt::parse_with(data, profile);
        let rendered = robots.render();
        // What a profile does not read cannot round-trip: a rendered line
        // past the line limit, or a rendering past the size limit (canonical
        // field names make a file longer).
        if rendered.len() > profile.max_bytes
            || rendered.lines().any(|l| l.len() > profile.max_line_bytes)
        {
            continue;
        }
        let again = RobotsTxt::parse_with(rendered.as_bytes(), profile);
        assert_eq!(
            again.render(),
            rendered,
            "[{profile}] the rendering is not a fixed point\noriginal: {:?}",
            String::from_utf8_lossy(data)
        );
        let sitemaps = |r: &RobotsTxt| r.sitemaps().map(|s| s.url().to_owned()).collect::<Vec<_>>();
        assert_eq!(sitemaps(&again), sitemaps(&robots), "[{profile}] sitemaps");
        for (agent, url) in input::questions(&robots) {
            same_decision(profile, &robots, &again, &agent, &url, data, &rendered);
        }
    }
}

fn same_decision(
    profile: Profile,
    robots: &RobotsTxt,
    again: &RobotsTxt,
    agent: &str,
    url: &str,
    data: &[u8],
    rendered: &str,
) {
    let before = robots.decide(agent, url);
    let after = again.decide(agent, url);
    let pattern = |v: &crawlgate::Verdict<'_>| v.rule().map(|r| (r.kind(), r.pattern().to_owned()));
    assert_eq!(
        (before.is_allowed(), before.reason(), pattern(&before)),
        (after.is_allowed(), after.reason(), pattern(&after)),
        "[{profile}] agent={agent:?} url={url:?}: the rendering decides differently\noriginal: {:?}\nrendered: {rendered:?}",
        String::from_utf8_lossy(data)
    );
}
