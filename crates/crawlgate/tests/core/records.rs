//! Extension records (docs/behaviour.md, RFC 9309 §2.2.4) and parse diagnostics, through the public API.

use crawlgate::{Code, ExtensionKind, Preference, Profile, RobotsTxt, Severity};

#[test]
fn sitemaps_any_number_anywhere_any_host() {
    let robots = RobotsTxt::parse(
        b"Sitemap: https://a.example/one.xml\n\
          User-agent: *\n\
          Sitemap: https://cdn.other.example/two.xml\n\
          Disallow: /x\n\
          User-agent: b\n\
          Disallow: /y\n\
          sitemap: relative.xml\n",
    );
    let sitemaps: Vec<_> = robots.sitemaps().map(|s| (s.line(), s.url())).collect();
    assert_eq!(
        sitemaps,
        vec![
            (1, "https://a.example/one.xml"),
            (3, "https://cdn.other.example/two.xml"),
            (7, "relative.xml")
        ]
    );
    // Sitemaps are file-wide: every crawler sees all of them.
    assert_eq!(robots.view("b").sitemaps().len(), 3);
    // And they do not end a group: `b` is still one group with `/y`.
    assert_eq!(robots.groups().len(), 2);
}

#[test]
fn crawl_delay_per_group_with_decimals() {
    let robots = RobotsTxt::parse(
        b"User-agent: bingbot\nCrawl-delay: 0.5\nDisallow: /x\n\n\
          User-agent: *\nCrawl-delay: ten\nCrawl-delay: 10\nDisallow:\n",
    );
    let bing = robots.view("bingbot").crawl_delay().unwrap();
    assert_eq!((bing.seconds, bing.line), (0.5, 2));
    assert_eq!(bing.duration().as_millis(), 500);
    // The invalid value is skipped; the first valid one counts.
    let other = robots.view("otherbot").crawl_delay().unwrap();
    assert_eq!((other.seconds, other.line), (10.0, 7));
    let records: Vec<_> = robots
        .extensions()
        .map(|e| (e.kind(), e.value(), e.line()))
        .collect();
    assert_eq!(records[1], (ExtensionKind::CrawlDelay, "ten", 6));
}

#[test]
fn crawl_delay_of_merged_groups_is_the_first() {
    // The merged-groups trap (docs/behaviour.md): `a` shares the `*` group, and sees both delays.
    let robots = RobotsTxt::parse(
        b"User-agent: a\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n",
    );
    assert_eq!(robots.view("a").crawl_delay().unwrap().seconds, 1.0);
    assert_eq!(robots.view("z").crawl_delay().unwrap().seconds, 1.0);
    assert_eq!(robots.groups().next().unwrap().extensions().len(), 2);
}

#[test]
fn request_rate_and_visit_time() {
    let robots = RobotsTxt::parse(
        b"User-agent: *\nRequest-rate: 1/10m 0800-1700\nVisit-time: 2300-0500\nDisallow:\n\
          User-agent: b\nRequest-rate: 0/5\nRequest-rate: 3/1h\nVisit-time: 25:00-01:00\nDisallow:\n",
    );
    let star = robots.view("any");
    let rate = star.request_rate().unwrap();
    assert_eq!(
        (rate.requests, rate.period_seconds, rate.line),
        (1, 600.0, 2)
    );
    let window = rate.window.unwrap();
    assert_eq!((window.from.hour, window.to.hour), (8, 17));
    assert_eq!(rate.interval().as_secs(), 600);
    let visit = star.visit_time().unwrap();
    assert!(visit.contains(23 * 60 + 30) && visit.contains(60) && !visit.contains(12 * 60));
    let b = robots.view("b");
    let rate = b.request_rate().unwrap();
    assert_eq!(
        (rate.requests, rate.period_seconds, rate.line),
        (3, 3600.0, 7)
    );
    assert!(b.visit_time().is_none(), "25:00 is not a time of day");
}

#[test]
fn host_clean_param_and_unknown_fields_are_kept_with_lines() {
    let robots = RobotsTxt::parse(
        b"Host: www.example.com\nUser-agent: Yandex\nClean-param: ref /articles/\nNoindex: /old\nX-Whatever: 1\nDisallow: /tmp\n",
    );
    let file: Vec<_> = robots
        .file_extensions()
        .map(|e| (e.kind(), e.key(), e.line()))
        .collect();
    assert_eq!(file, vec![(ExtensionKind::Host, "Host", 1)]);
    let group = robots.groups().next().unwrap();
    let kinds: Vec<_> = group
        .extensions()
        .map(|e| (e.kind(), e.key(), e.value(), e.line()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (
                ExtensionKind::CleanParam,
                "Clean-param",
                "ref /articles/",
                3
            ),
            (ExtensionKind::Unknown, "Noindex", "/old", 4),
            (ExtensionKind::Unknown, "X-Whatever", "1", 5),
        ]
    );
    assert!(group.extensions().all(|e| e.group().unwrap().index() == 0));
}

#[test]
fn content_usage_applies_by_longest_path_and_only_where_allowed() {
    let robots = RobotsTxt::parse(
        b"User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n\
          Content-Usage: /blog/private/ train-ai=n\nDisallow: /admin\n",
    );
    let view = robots.view("anybot");
    let at = |url| view.content_usage(url).map(|u| (u.line, u.get("train-ai")));
    assert_eq!(at("/"), Some((2, Some(Preference::Disallowed))));
    assert_eq!(at("/blog/post"), Some((3, Some(Preference::Allowed))));
    assert_eq!(
        at("/blog/private/x"),
        Some((4, Some(Preference::Disallowed)))
    );
    assert_eq!(at("/admin/x"), None);
    assert_eq!(
        view.content_usage("/").unwrap().get("search"),
        Some(Preference::Allowed)
    );
    assert_eq!(view.content_usage_records().len(), 3);
}

#[test]
fn content_usage_and_signal_syntax_errors_are_visible() {
    let robots = RobotsTxt::parse(
        b"User-agent: *\nContent-Usage: Train-AI=no\nContent-Signal: search=yes, ai-train=no,\nAllow: /\n",
    );
    let view = robots.view("x");
    let usage = &view.content_usage_records()[0];
    assert!(usage.entries().is_err());
    assert_eq!(usage.get("train-ai"), None);
    let signal = view.content_signal().unwrap();
    assert_eq!(signal.entries().unwrap_err().message, "trailing `,`");
}

fn codes(robots: &RobotsTxt) -> Vec<(Code, u32)> {
    robots
        .diagnostics()
        .iter()
        .map(|d| (d.code, d.span.line))
        .collect()
}

#[test]
fn parse_diagnostics_name_the_line_and_span() {
    let body = b"\xEF\xBB\xBFDisallow: /early\nUser-agent *\nDissallow: /a\nDisallowed: /b\nDisallow: fish/\n<html>\nDisallow: /\xff\nDisallow: /n\0ul\rAllow: /cr\n";
    let robots = RobotsTxt::parse(body);
    let found = codes(&robots);
    for expected in [
        (Code::ByteOrderMark, 1),
        (Code::RuleBeforeUserAgent, 1),
        (Code::MissingColon, 2),
        (Code::MisspelledField, 3),
        (Code::FieldNamePrefix, 4),
        (Code::PathNotAbsolute, 5),
        (Code::InvalidLine, 6),
        (Code::InvalidUtf8, 7),
        (Code::NulByte, 8),
        (Code::CrLineEndings, 8),
    ] {
        assert!(
            found.contains(&expected),
            "{expected:?} missing from {found:?}"
        );
    }
    let missing_colon = robots
        .diagnostics()
        .iter()
        .find(|d| d.code == Code::MissingColon)
        .unwrap();
    assert_eq!(&body[missing_colon.span.bytes.clone()], b"User-agent *");
    assert_eq!(missing_colon.span.column, 1);
    assert_eq!(
        missing_colon.fix.as_ref().unwrap().replacement.as_deref(),
        Some("User-agent: *")
    );
    let typo = robots
        .diagnostics()
        .iter()
        .find(|d| d.code == Code::MisspelledField)
        .unwrap();
    assert_eq!(&body[typo.span.bytes.clone()], b"Dissallow");
    assert_eq!(typo.severity, Severity::Warning);
}

#[test]
fn strict_profiles_report_what_they_ignore() {
    let body = b"User-agent *\nUser-agent: a\nDisallow *.png\nDisallow: *.gif\n";
    let rfc = RobotsTxt::parse_with(body, Profile::RFC9309);
    assert!(codes(&rfc).contains(&(Code::MissingColon, 1)));
    assert!(codes(&rfc).contains(&(Code::PathNotAbsolute, 4)));
    assert_eq!(rfc.rules().len(), 0);
    let google = RobotsTxt::parse(body);
    assert_eq!(google.rules().len(), 2);
}
