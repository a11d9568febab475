//! `search_console`: Search Console's line view of any bytes never panics,
//! has one entry per physical line, and agrees with the parser's model on
//! what both read (the lines, the user-agent and sitemap lines).

use crawlgate::{LineKind, RobotsTxt, SearchConsoleReport};

/// Classifies `data` and checks the report against itself and the model.
///
/// ```
/// crawlgate_fuzz::search_console::check(b"\xEF\xBBuseragent *\r\nsite-map x\rnoindex: /\0#");
/// ```
pub fn check(data: &[u8]) {
    let report = SearchConsoleReport::of(data);
    let mut end = 0;
    let (mut valid, mut unused) = (0, 0);
    for (i, line) in report.lines().iter().enumerate() {
        assert_eq!(line.number as usize, i + 1, "numbered in order");
        assert!(
            end <= line.bytes.start && line.bytes.start <= line.bytes.end,
            "line {} at {:?} after {end}",
            line.number,
            line.bytes
        );
        assert!(line.bytes.end <= data.len());
        end = line.bytes.end;
        match (&line.key, line.kind.is_directive()) {
            (Some(key), true) => assert!(
                line.bytes.start <= key.bytes.start && key.bytes.end <= line.bytes.end,
                "key {:?} outside line {:?}",
                key.bytes,
                line.bytes
            ),
            (None, false) => {}
            (key, _) => panic!("line {}: {:?} with key {key:?}", line.number, line.kind),
        }
        match line.kind {
            LineKind::Unused | LineKind::Unknown => unused += 1,
            kind if kind.is_directive() => valid += 1,
            _ => {}
        }
    }
    assert_eq!(report.valid_directives(), valid);
    assert_eq!(report.unused_directives(), unused);
    // The model reads the same lines, up to its size limit.
    let robots = RobotsTxt::parse(data);
    if !robots.stats().truncated() {
        assert_eq!(report.lines().len(), robots.stats().lines as usize);
        let count = |kind| report.lines().iter().filter(|l| l.kind == kind).count();
        assert_eq!(count(LineKind::Sitemap), robots.sitemaps().len());
        let agents: usize = robots.groups().map(|g| g.user_agents().len()).sum();
        assert_eq!(count(LineKind::UserAgent), agents);
    }
}
