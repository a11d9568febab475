//! `parse`: any bytes parse under every profile without panicking, the
//! model's parts are readable, and its heap stays proportional to the
//! input.

use crawlgate::{Profile, RobotsTxt};

/// Heap bytes a parsed model may hold per input byte. The densest input is
/// a file of two-byte lines (`\xFF\n`) each reported as one finding of a
/// few dozen bytes; real files stay under 3.
pub const PARSED_HEAP_PER_BYTE: usize = 24;

/// Heap bytes per input byte once the diagnostics' messages are written:
/// each finding then also holds a sentence (and a fix) quoting its line.
pub const WRITTEN_HEAP_PER_BYTE: usize = 96;

/// Heap a model of a tiny input may hold whatever its length: a finding
/// and its message for a one-byte file.
pub const HEAP_FLOOR: usize = 1024;

/// Parses `data` under every profile and checks the model.
///
/// ```
/// crawlgate_fuzz::parse::check(b"\xEF\xBB\xBFUser-agent: *\rDisallow: /\0x\r");
/// ```
pub fn check(data: &[u8]) {
    for profile in Profile::ALL {
        let robots = RobotsTxt::parse_with(data, profile);
        let parsed = robots.heap_size();
        assert!(
            parsed <= PARSED_HEAP_PER_BYTE * data.len() + HEAP_FLOOR,
            "[{profile}] parsed heap {parsed} bytes for {} input bytes ({:?})",
            data.len(),
            robots.heap_parts()
        );
        walk(&robots, data.len());
        let written = robots.heap_size();
        assert!(
            written <= WRITTEN_HEAP_PER_BYTE * data.len() + HEAP_FLOOR,
            "[{profile}] heap with written diagnostics {written} bytes for {} input bytes ({:?})",
            data.len(),
            robots.heap_parts()
        );
    }
}

/// Reads every part of the model, checking what must hold whatever the
/// input: diagnostics point inside it, line numbers are 1-based and within
/// the file, and each item knows its group.
fn walk(robots: &RobotsTxt, len: usize) {
    // A file of `len` bytes has at most `len + 1` lines.
    let max_line = u32::try_from(len + 1).unwrap_or(u32::MAX);
    let line_ok = |line: u32| (1..=max_line).contains(&line);
    for d in robots.diagnostics() {
        assert!(
            d.span.bytes.start <= d.span.bytes.end && d.span.bytes.end <= len,
            "{} span {:?} outside the {len}-byte input",
            d.code,
            d.span
        );
        assert!(line_ok(d.span.line) && d.span.column >= 1, "{d:?}");
        assert!(!d.message.is_empty(), "{} has no message", d.code);
        let _ = d.to_string();
    }
    for group in robots.groups() {
        assert!(group.first_line() <= group.last_line());
        assert!(line_ok(group.first_line()) && line_ok(group.last_line()));
        assert!(group.user_agents().len() >= 1, "a group without user-agent");
        for agent in group.user_agents() {
            assert!(line_ok(agent.line()));
            assert_eq!(agent.group().index(), group.index());
        }
        for rule in group.rules() {
            assert!(line_ok(rule.line()));
            assert_eq!(rule.group().map(|g| g.index()), Some(group.index()));
            let _ = (rule.to_string(), rule.value(), rule.index_alias());
        }
        for extension in group.extensions() {
            assert!(line_ok(extension.line()));
            let _ = (extension.crawl_delay(), extension.request_rate());
            let _ = (extension.visit_time(), extension.content_signal());
            if let Some(usage) = extension.content_usage() {
                let _ = usage.entries();
            }
        }
        let _ = (
            group.crawl_delay(),
            group.request_rate(),
            group.visit_time(),
        );
        let _ = (group.content_signal(), group.content_usage().count());
    }
    for rule in robots.ignored_rules() {
        assert!(line_ok(rule.line()));
    }
    for extension in robots.file_extensions() {
        assert!(line_ok(extension.line()));
    }
    for sitemap in robots.sitemaps() {
        assert!(line_ok(sitemap.line()));
        let _ = sitemap.url();
    }
    let stats = robots.stats();
    assert_eq!(stats.input_bytes, len);
    assert!(
        stats.parsed_bytes <= len.min(robots.profile().max_bytes),
        "{stats:?}"
    );
    assert!(stats.lines <= max_line, "{stats:?}");
    // Only the size limit leaves bytes unread.
    assert_eq!(
        stats.truncated(),
        len > robots.profile().max_bytes,
        "{stats:?}"
    );
}
