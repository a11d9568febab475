//! Input safety: arbitrary bytes never panic, hostile patterns and huge
//! files stay linear, the size limits cut where RFC 9309 §2.5 and Google say, and the
//! canonical rendering re-parses to the same decisions.

use crate::common;

use crawlgate::{Code, Profile, RobotsTxt, MAX_BYTES};
use crawlgate_test_support::Rng;
use proptest::prelude::*;

const URLS: &[&str] = &[
    "/",
    "/a",
    "/a/b",
    "/fish.php",
    "/index.html",
    "/%E3%83%84",
    "/ツ",
    "/a$b",
    "/?q=1",
    "/x*y",
    "http://example.com/private/x",
    "/%2F",
    "/%2f",
    "/long",
];
const AGENTS: &[&str] = &[
    "FooBot",
    "foobot",
    "Googlebot",
    "*",
    "",
    "Foo Bar",
    "BarBot",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048), url in ".{0,64}", agent in ".{0,16}") {
        for profile in Profile::ALL {
            let robots = RobotsTxt::parse_with(&bytes, profile);
            let _ = robots.decide(&agent, &url);
            let view = robots.view(&agent);
            let _ = view.matching_rules(&url);
            let _ = view.content_usage(&url);
            let _ = view.crawl_delay();
            let _ = robots.render();
            for d in robots.diagnostics() {
                prop_assert!(d.span.bytes.end <= bytes.len());
                prop_assert!(d.span.line >= 1);
            }
            // The file read for one crawler gives the whole file's verdict.
            let kept = crawlgate::CrawlerRobotsTxt::parse_with(&bytes, profile, agent.as_str());
            prop_assert_eq!(kept.is_allowed(&url), robots.is_allowed(agent.as_str(), &url));
            let _ = kept.view().crawl_delay();
        }
    }

    #[test]
    fn robots_like_text_never_panics(text in "([A-Za-z -]{0,12}[: \t]{0,2}[/*$%a-z0-9é\u{a0}#]{0,12}(\r\n|\n|\r)){0,12}", url in "/[a-z*$%/é]{0,12}") {
        for profile in Profile::ALL {
            let robots = RobotsTxt::parse_with(text.as_bytes(), profile);
            for agent in AGENTS {
                let _ = robots.decide(agent, &url);
            }
        }
    }
}

/// The canonical rendering re-parses to the same decisions, for every
/// profile, on files aimed at the hard parts.
#[test]
fn render_round_trips_decisions() {
    let mut rng = Rng::new(42);
    let mut compared = 0;
    for _ in 0..3000 {
        let (bytes, patterns) = common::gen_robots(&mut rng);
        for profile in Profile::ALL {
            let robots = RobotsTxt::parse_with(&bytes, profile);
            let rendered = robots.render();
            // A rendered line longer than the profile reads cannot round-trip.
            if rendered.lines().any(|l| l.len() > profile.max_line_bytes) {
                continue;
            }
            let again = RobotsTxt::parse_with(rendered.as_bytes(), profile);
            assert_eq!(
                again.render(),
                rendered,
                "[{}] rendering is not a fixed point; original {:?}",
                profile.name,
                String::from_utf8_lossy(&bytes)
            );
            let mut urls: Vec<String> = URLS.iter().map(|u| u.to_string()).collect();
            for _ in 0..4 {
                urls.push(common::gen_url(&mut rng, &patterns));
            }
            for agent in AGENTS {
                for url in &urls {
                    compared += 1;
                    assert_eq!(
                        robots.is_allowed(agent, url),
                        again.is_allowed(agent, url),
                        "[{}] agent={agent:?} url={url:?}\noriginal: {:?}\nrendered: {rendered:?}",
                        profile.name,
                        String::from_utf8_lossy(&bytes),
                    );
                }
            }
        }
    }
    assert!(compared > 100_000, "only {compared} comparisons");
}

/// A rendering never starts with the byte 0xEF, which a re-parse would skip
/// as (part of) a byte order mark: field names kept as unknown can start
/// with it (a second BOM, U+FFFD for bytes that are not UTF-8, U+F000 to
/// U+FFFF). Found by fuzzing the rendering.
#[test]
fn rendering_a_leading_ef_byte_round_trips() {
    let inputs: &[&[u8]] = &[
        // A second BOM: `\u{feff}User-agent` is an unknown field, and `*`
        // no group; read as a BOM, `*` would share `a`'s group.
        b"\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: *\nUser-agent: a\nDisallow: /\n",
        b"\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: *\nDisallow: /\n\xEF\xBB",
        // Not UTF-8: the field name is kept as U+FFFD (EF BF BD).
        b"\xB3:",
        b"\xE7 2",
        "\u{f000}field: x\nUser-agent: a\nDisallow: /\n".as_bytes(),
        // Legacy drops the record without members; the next field comes first.
        b"User-agent: *\n\n\xCDisallow: /x\n",
    ];
    for &bytes in inputs {
        for profile in Profile::ALL {
            let robots = RobotsTxt::parse_with(bytes, profile);
            let rendered = robots.render();
            let again = RobotsTxt::parse_with(rendered.as_bytes(), profile);
            assert!(
                !again.stats().had_bom,
                "[{}] {rendered:?} starts like a byte order mark",
                profile.name
            );
            assert_eq!(again.render(), rendered, "[{}] fixed point", profile.name);
            for agent in AGENTS.iter().chain(&["a", "otherbot"]) {
                for url in URLS {
                    assert_eq!(
                        robots.is_allowed(agent, url),
                        again.is_allowed(agent, url),
                        "[{}] agent={agent:?} url={url:?} rendered {rendered:?}",
                        profile.name
                    );
                }
            }
        }
    }
    let robots = RobotsTxt::parse(inputs[0]);
    assert!(robots.is_allowed("otherbot", "/x"));
    let again = RobotsTxt::parse(robots.render().as_bytes());
    assert!(again.is_allowed("otherbot", "/x"));
    assert!(!again.is_allowed("a", "/x"));
}

#[test]
fn thirty_star_rule_against_a_100_kb_url() {
    let rule = format!("/{}b", "*a".repeat(30));
    let robots = RobotsTxt::parse(format!("User-agent: *\nDisallow: {rule}\n").as_bytes());
    let url = format!("/{}", "a".repeat(100_000));
    assert!(robots.is_allowed("bot", &url));
    assert!(!robots.is_allowed("bot", &format!("{url}b")));
    let anchored = format!("/{}b$", "*a".repeat(30));
    let robots = RobotsTxt::parse(format!("User-agent: *\nDisallow: {anchored}\n").as_bytes());
    assert!(robots.is_allowed("bot", &format!("{url}ba")));
    assert!(!robots.is_allowed("bot", &format!("{url}b")));
}

#[test]
fn five_thousand_groups() {
    let mut body = String::new();
    for i in 0..5000 {
        body.push_str(&format!(
            "User-agent: bot{}\nDisallow: /private/{i}/\n\n",
            letters(i)
        ));
    }
    body.push_str("User-agent: *\nDisallow: /\n");
    let robots = RobotsTxt::parse(body.as_bytes());
    assert_eq!(robots.groups().len(), 5001);
    assert!(!robots.is_allowed(&format!("bot{}", letters(4321)), "/private/4321/x"));
    assert!(robots.is_allowed(&format!("bot{}", letters(4321)), "/private/4320/x"));
    assert!(!robots.is_allowed("otherbot", "/anything"));
    // Read for one crawler: its group among 5,000, the others' rules skipped.
    let bot = format!("bot{}", letters(4321));
    let kept = crawlgate::CrawlerRobotsTxt::parse(body.as_bytes(), bot.as_str());
    assert!(!kept.is_allowed("/private/4321/x"));
    assert!(kept.is_allowed("/private/4320/x"));
    assert_eq!(kept.view().robots().groups().len(), 5001);
    assert_eq!(kept.view().robots().rules().len(), 2);
}

fn letters(mut n: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
        if n == 0 {
            return s;
        }
    }
}

#[test]
fn bytes_past_500_kib_are_ignored_and_a_cut_line_dropped() {
    let mut body = String::from("User-agent: *\nDisallow: /kept\n");
    while body.len() < MAX_BYTES - 40 {
        body.push_str("# filler filler filler filler filler\n");
    }
    // This line straddles the limit: it must be dropped, not read as `/cu`.
    let straddle = MAX_BYTES - body.len() - 3;
    body.push_str(&"#".repeat(straddle));
    body.push_str("\nDisallow: /cut-by-the-limit\nDisallow: /past\n");
    assert!(body.len() > MAX_BYTES);
    let robots = RobotsTxt::parse(body.as_bytes());
    assert!(!robots.is_allowed("bot", "/kept"));
    assert!(robots.is_allowed("bot", "/cu"));
    assert!(robots.is_allowed("bot", "/past"));
    assert!(robots.stats().truncated());
    assert!(robots.stats().parsed_bytes <= MAX_BYTES);
    let too_large = robots
        .diagnostics()
        .iter()
        .find(|d| d.code == Code::FileTooLarge)
        .expect("file-too-large diagnostic");
    assert_eq!(too_large.span.bytes.end, body.len());
}

#[test]
fn a_line_ending_exactly_at_the_limit_is_kept() {
    let mut body = String::from("User-agent: *\n");
    let rule = "Disallow: /edge";
    while body.len() + 38 < MAX_BYTES - rule.len() {
        body.push_str("# filler filler filler filler filler\n");
    }
    body.push_str(&"#".repeat(MAX_BYTES - rule.len() - body.len() - 1));
    body.push('\n');
    body.push_str(rule);
    assert_eq!(body.len(), MAX_BYTES);
    body.push_str("\nDisallow: /past\n");
    let robots = RobotsTxt::parse(body.as_bytes());
    assert!(!robots.is_allowed("bot", "/edge"));
    assert!(robots.is_allowed("bot", "/past"));
}

#[test]
fn five_hundred_kib_of_rules_and_a_single_500_kib_line() {
    let mut body = String::from("User-agent: *\n");
    let mut i = 0;
    while body.len() < MAX_BYTES {
        body.push_str(&format!("Disallow: /dir{i}/*.php$\n"));
        i += 1;
    }
    let robots = RobotsTxt::parse(body.as_bytes());
    assert!(robots.rules().len() > 10_000);
    assert!(!robots.is_allowed("bot", "/dir7/a.php"));
    assert!(robots.is_allowed("bot", "/dir7/a.php5"));

    let line = format!(
        "User-agent: *\nDisallow: /{}\n",
        "a*".repeat(MAX_BYTES / 2 - 20)
    );
    let robots = RobotsTxt::parse(line.as_bytes());
    // Only the first 16,663 bytes of the line are read (Google's reference).
    let rule = robots.rules().next().unwrap();
    assert_eq!("Disallow: ".len() + rule.pattern().len(), 16_663);
    assert!(robots
        .diagnostics()
        .iter()
        .any(|d| d.code == Code::LineTooLong && d.span.line == 2));
    assert!(!robots.is_allowed("bot", &format!("/{}", "a".repeat(9000))));
}

#[test]
fn long_lines_are_cut_at_16663_bytes() {
    let prefix = "Disallow: /";
    let keep = 16_663 - prefix.len();
    let line = format!("{prefix}{}/b", "a".repeat(keep));
    let robots = RobotsTxt::parse(format!("User-agent: *\n{line}\n").as_bytes());
    // The cut rule is `/aaa…a` without `/b`: it blocks `/aaa…a/c`.
    assert!(!robots.is_allowed("bot", &format!("/{}/c", "a".repeat(keep))));
    let robots = RobotsTxt::parse_with(
        format!("User-agent: *\n{line}\n").as_bytes(),
        Profile::RFC9309,
    );
    assert!(robots.is_allowed("bot", &format!("/{}/c", "a".repeat(keep))));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    /// `path_of` extracts exactly what Google's `GetPathParamsQuery` does
    /// (the robotstxt crate's port of it is literal).
    #[test]
    fn path_extraction_matches_googles(url in "[/?;:#a.]{0,12}") {
        prop_assert_eq!(crawlgate::path_of(&url), robotstxt::get_path_params_query(&url));
    }
}

/// The file read for one crawler takes what the whole file's reading takes:
/// a 70,000-character agent, line and URL, and 100,000 lines, with the
/// whole file's answers.
#[test]
fn the_crawlers_reading_takes_hostile_inputs() {
    let long = "a".repeat(70_000);
    let body =
        format!("User-agent: {long}\nDisallow: /{long}\n\nUser-agent: *\nDisallow: /private\n");
    let whole = RobotsTxt::parse(body.as_bytes());
    let urls = [
        format!("/{long}"),
        "/private/x".to_owned(),
        format!("https://example.com/{long}?{long}"),
    ];
    for agent in [long.as_str(), "mybot"] {
        let kept = crawlgate::CrawlerRobotsTxt::parse(body.as_bytes(), agent);
        for url in &urls {
            assert_eq!(
                kept.is_allowed(url),
                whole.is_allowed(agent, url),
                "{}",
                &url[..20]
            );
        }
    }
    let mut many = String::new();
    for i in 0..50_000 {
        many.push_str(&format!("User-agent: bot{}\nDisallow: /{i}/\n", letters(i)));
    }
    // 1.5 MB: read up to 500 KiB, as Google reads it, both ways.
    let whole = RobotsTxt::parse(many.as_bytes());
    for i in [10_000, 49_999] {
        let bot = format!("bot{}", letters(i));
        let kept = crawlgate::CrawlerRobotsTxt::parse(many.as_bytes(), bot.as_str());
        for url in [format!("/{i}/x"), "/1/x".to_owned(), "/".to_owned()] {
            assert_eq!(
                kept.is_allowed(&url),
                whole.is_allowed(bot.as_str(), &url),
                "{url}"
            );
        }
        assert_eq!(kept.is_allowed(&format!("/{i}/x")), i == 49_999);
    }
}
