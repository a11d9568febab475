//! Whether Yandex's reading of a file provably gives `R106`
//! (yandex-split-group) and `R404` (yandex-differs) nothing to report,
//! decided from Google's reading and the bytes alone. Parsing a file
//! Yandex's way costs half as much again as Google's parse, and nearly
//! every file needs neither finding: only the others are parsed again.
//!
//! The file must, in Google's reading:
//!
//! - have each group's user-agent lines on consecutive lines. `R106`
//!   needs two user-agent lines of one Google group with only blank or
//!   comment lines between them, so it has nothing to report. Yandex's
//!   parser starts a group at a user-agent line after a blank line or
//!   after any record other than a user-agent line; Google's after a rule
//!   (so Yandex's parser starts one there too). With no gap inside a
//!   run, the two readings have the same groups, over the same lines;
//! - have no line only Google reads (a missing colon, a misspelled or
//!   prefixed field name, a cut long line, a part past the size limit),
//!   no NUL, vertical tab, form feed or bare CR, and be UTF-8: then both
//!   parsers read the same records from the same lines, cut and trimmed
//!   alike. (A rule whose path starts with neither `/` nor `*` is a rule
//!   line to both: Google's reading keeps it but it matches no URL,
//!   Yandex's parser drops it);
//! - never name one of Yandex's robots: no user-agent line (the same
//!   lines and values in both readings, here) holds text that could (a
//!   registry token or fallback of a crawler read by Yandex's parser, or
//!   the required prefix of one of its robots, in any case). Then `R404`
//!   compares YandexBot alone, which both readings give the `*` group
//!   (Yandex's parser takes `*` for a robot no group names; Google's
//!   crawler reading too);
//! - have at most one `*` group, named by `*` exactly (Yandex's `*` robot
//!   can lose an earlier `*` group to a longer user-agent line after a
//!   later `*`; Google's reads `* x` as `*`), whose rules both readings
//!   match alike and weigh in the same order wherever an allow meets a
//!   disallow (see [`group_decides_alike`]): every URL is decided alike;
//! - be small enough that Yandex's parser cannot pass its storage limit
//!   ([`YANDEX_MAX_STORED`]): a record stores at most two bytes per byte
//!   of its line (a `Clean-param` doubles); a robot stores the records of
//!   the groups naming it, and `*` also every sitemap, `Host` and
//!   `Clean-param` line, twice over (the parser gives them back to it
//!   when a longer name empties its buffer); only `*` and the other
//!   engines' robots of Yandex's table store anything here (see
//!   [`stored_bound`]).
//!
//! A test lints every corpus file, and generated files built from the
//! constructs above, with and without this shortcut.

use std::sync::LazyLock;

use crawlgate::{registry, Code, Group, Profile, Rule, YANDEX_MAX_STORED};

use crate::context::Context;
use crate::rules::profiles::pattern_facts::{may_overlap, restart_alike};

/// Whether `R106` and `R404` can be left out for `cx`: Yandex's reading
/// provably gives them nothing (see the module). Decided once per file.
pub(crate) fn reads_alike(cx: &Context<'_>) -> bool {
    #[cfg(test)]
    if tests::SHORTCUT_OFF.get() {
        return false;
    }
    *cx.yandex_alike.get_or_init(|| decide(cx))
}

/// What can name Yandex's robots, and the other robots of its parser's
/// table, lowercased.
struct Names {
    /// Text every name of a Yandex robot holds, in either reading.
    yandex: Vec<Vec<u8>>,
    /// The other robots of the table (other engines' crawlers).
    others: Vec<&'static registry::Robot>,
}

fn names() -> &'static Names {
    static NAMES: LazyLock<Names> = LazyLock::new(|| {
        let yandex_profile =
            |token: &str| registry::find(token).is_some_and(|c| c.profile == Some(Profile::YANDEX));
        let mut yandex: Vec<Vec<u8>> = registry::crawlers()
            .iter()
            .filter(|c| c.profile == Some(Profile::YANDEX))
            .flat_map(|c| c.tokens())
            .filter(|t| *t != "*")
            .map(|t| t.to_ascii_lowercase().into_bytes())
            .collect();
        let mut others = Vec::new();
        for robot in registry::robots(Profile::YANDEX.name) {
            if yandex_profile(robot.token()) {
                yandex.push(robot.prefix.to_ascii_lowercase().into_bytes());
            } else {
                others.push(robot);
            }
        }
        // A name holding another is found through it.
        yandex.sort_by_key(Vec::len);
        let mut kept: Vec<Vec<u8>> = Vec::new();
        for name in yandex {
            if !kept.iter().any(|k| holds(&name, k)) {
                kept.push(name);
            }
        }
        Names {
            yandex: kept,
            others,
        }
    });
    &NAMES
}

/// Whether `hay` holds `needle` (lowercase), in any case. An empty needle
/// is held by everything.
fn holds(hay: &[u8], needle: &[u8]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), hay).any(|i| {
        hay.get(i..i + needle.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(needle))
    })
}

/// Most pairs of rules of the `*` group weighed against each other; past
/// it, the file is parsed.
const MAX_PAIRS: usize = 1 << 12;

/// Whether Yandex's parser decides every path as Google's reading does by
/// the rules of `group`: each matched alike (see [`alike_weights`]), and
/// no allow and disallow that may match one path (one's literal start is
/// a prefix of the other's) ranking differently by the two readings'
/// weights (Google's counts every byte, Yandex's leaves out `*` and a
/// final `$`). Where the heaviest matching allow (Google's) outweighs
/// every matching disallow, it does by Yandex's weights too, and the
/// other way round; ties allow in both.
///
/// An empty `Disallow:` allows everything in both, but Yandex reads it as
/// `Allow: /`, which weighs 1 and matches every path: an allow that only
/// Yandex's reading has, and beats a disallow that weighs 1 (`Disallow:
/// /`) there only.
fn group_decides_alike(group: &Group<'_>) -> bool {
    // Rules weighing the same in both readings (plain prefixes, nearly
    // all), by kind, and the others with both weights; each with its
    // literal start.
    let mut plain: [Vec<(i64, &[u8])>; 2] = Default::default();
    let mut wild: [Vec<([i64; 2], &[u8])>; 2] = Default::default();
    for rule in group.rules() {
        let kind = usize::from(!rule.is_allow());
        if kind == 1 && rule.is_empty() {
            // Google's weighs nothing, Yandex's `Allow: /` 1.
            wild[0].push(([0, 1], b""));
            continue;
        }
        let pattern = rule.pattern();
        if !pattern.starts_with(['/', '*']) && !pattern.is_empty() {
            // Matches no URL in Google's reading; Yandex's parser drops it.
            continue;
        }
        let Some((weights, start)) = alike_weights(&rule, pattern) else {
            return false;
        };
        if weights[0] == weights[1] {
            plain[kind].push((weights[0], start));
        } else {
            wild[kind].push((weights, start));
        }
    }
    // Plain rules alone weigh alike in both readings.
    if wild[0].is_empty() && wild[1].is_empty() {
        return true;
    }
    if wild[0].len().saturating_mul(wild[1].len()) > MAX_PAIRS {
        return false;
    }
    // Sorted by weight where a rule of the other kind is weighed against
    // them.
    for (list, other) in plain.iter_mut().zip([&wild[1], &wild[0]]) {
        if !other.is_empty() {
            list.sort_unstable_by_key(|&(weight, _)| weight);
        }
    }
    let mut pairs = 0usize;
    let mut apart = |a: &[u8], b: &[u8]| {
        pairs += 1;
        pairs > MAX_PAIRS || may_overlap(a, b)
    };
    // A plain rule weighs `p` in both: against an allow weighed `w` (in
    // the two readings), a disallow wins in one reading only when
    // `low < p <= high`; against a disallow, an allow when
    // `low <= p < high`.
    for &(w, start) in &wild[0] {
        let (low, high) = (w[0].min(w[1]), w[0].max(w[1]));
        let list = &plain[1];
        let range =
            list.partition_point(|&(p, _)| p <= low)..list.partition_point(|&(p, _)| p <= high);
        if list[range].iter().any(|&(_, other)| apart(start, other)) {
            return false;
        }
    }
    for &(w, start) in &wild[1] {
        let (low, high) = (w[0].min(w[1]), w[0].max(w[1]));
        let list = &plain[0];
        let range =
            list.partition_point(|&(p, _)| p < low)..list.partition_point(|&(p, _)| p < high);
        if list[range].iter().any(|&(_, other)| apart(start, other)) {
            return false;
        }
    }
    for &(a, a_start) in &wild[0] {
        for &(d, d_start) in &wild[1] {
            if (a[0] >= d[0]) != (a[1] >= d[1]) && apart(a_start, d_start) {
                return false;
            }
        }
    }
    pairs <= MAX_PAIRS
}

/// Google's and Yandex's weights of a rule both readings have and match
/// on the same paths, and what every path it matches starts with; or
/// `None`. A value starting with `/`, or `*` alone, or starting with `*`
/// and holding more than stars and `$` (Yandex's parser stores `**` and
/// `*$` empty, and then loses the record after them), read as written,
/// without `%` or bytes outside ASCII, with no `index.html` alias, whose
/// `*` Yandex's parser (which never goes back) matches as Google's does.
fn alike_weights<'a>(rule: &Rule<'a>, pattern: &'a str) -> Option<([i64; 2], &'a [u8])> {
    // Google's reading changes a value only to encode bytes outside ASCII
    // and to write escapes' hex in uppercase (it decodes none): a pattern
    // without `%` is the value as written.
    const _: () = assert!(!Profile::GOOGLE.decode_unreserved && !Profile::GOOGLE.requote);
    let bytes = pattern.as_bytes();
    if !bytes.is_ascii() || rule.is_allow() && rule.index_alias().is_some() {
        return None;
    }
    if bytes == b"*" {
        // Every path, weighing 1 in both (Yandex's parser stores `/*`).
        return Some(([1, 1], b""));
    }
    let Some(special) = memchr::memchr3(b'*', b'$', b'%', bytes) else {
        // A plain prefix (nearly every rule): its length in both.
        let weight = bytes.len() as i64;
        return bytes.starts_with(b"/").then_some(([weight, weight], bytes));
    };
    let (mut stars, mut dollars) = (0usize, 0usize);
    for &b in &bytes[special..] {
        stars += usize::from(b == b'*');
        dollars += usize::from(b == b'$');
    }
    let start_alike = match bytes.first() {
        Some(b'/') => true,
        Some(b'*') => stars + dollars < bytes.len(),
        _ => false,
    };
    if !start_alike
        || memchr::memchr(b'%', &bytes[special..]).is_some()
        || dollars > 1
        || dollars == 1 && !pattern.ends_with('$')
        || !restart_alike(pattern)
    {
        return None;
    }
    let weights = [
        i64::from(Profile::GOOGLE.precedence.weight(bytes)),
        i64::from(Profile::YANDEX.precedence.weight(bytes)),
    ];
    // What every path it matches starts with: up to its first `*` or `$`.
    let start = if bytes[0] == b'/' {
        &bytes[..special]
    } else {
        b""
    };
    Some((weights, start))
}

fn decide(cx: &Context<'_>) -> bool {
    let (source, google) = (cx.source, cx.robots);
    if google.profile() != Profile::GOOGLE {
        return false;
    }
    let lines_alike = google.diagnostics().iter().all(|d| {
        matches!(
            d.code,
            Code::RuleBeforeUserAgent
                | Code::ByteOrderMark
                | Code::InvalidLine
                | Code::PathNotAbsolute
        )
    });
    if !lines_alike {
        return false;
    }
    let names = names();
    let mut star_group = None;
    for group in google.groups() {
        let mut previous: Option<u32> = None;
        for ua in group.user_agents() {
            let value = ua.value();
            if previous.is_some_and(|line| ua.line() != line + 1) || ua.is_global() && value != "*"
            {
                return false;
            }
            if names
                .yandex
                .iter()
                .any(|name| holds(value.as_bytes(), name))
            {
                return false;
            }
            previous = Some(ua.line());
        }
        if group.is_global() && star_group.replace(group).is_some() {
            return false;
        }
    }
    let bare_cr = memchr::memchr_iter(b'\r', source).any(|i| source.get(i + 1) != Some(&b'\n'));
    if bare_cr || memchr::memchr3(0, 0x0B, 0x0C, source).is_some() {
        return false;
    }
    if star_group.is_some_and(|group| !group_decides_alike(&group)) {
        return false;
    }
    // Small files: `*` and every other robot of the table storing up to
    // four bytes per byte of the file (and their headers), one record
    // written past the largest, and room to spare.
    let len = source.len();
    let fits = |robots: usize| {
        robots
            .saturating_mul(len.saturating_mul(4).saturating_add(8))
            .saturating_add(len)
            .saturating_add(1024)
            <= YANDEX_MAX_STORED
    };
    fits(1 + names.others.len()) || stored_bound(cx)
}

/// Whether Yandex's parser provably stays within its storage limit, from
/// the groups (the same lines in both readings, here) and what each robot
/// takes: a record stores at most two bytes per byte of its line; a robot
/// takes the records of the groups naming it, each group at most all the
/// lines up to the next one; `*` also takes every sitemap, `Host` and
/// `Clean-param` line (as extensions and sitemaps of Google's reading:
/// the same lines, here) twice, as the parser gives them back to it when
/// a longer name empties its buffer.
fn stored_bound(cx: &Context<'_>) -> bool {
    let google = cx.robots;
    let names = names();
    let line_bytes = |n: u32| cx.line(n).map_or(0, |l| l.end - l.start + 2);
    let start_of = |n: u32| cx.line(n).map_or(cx.source.len(), |l| l.start);
    // Per robot of the table (`*` first): an upper bound of its buffer.
    let mut buffers = vec![0usize; 1 + names.others.len()];
    let groups: Vec<Group<'_>> = google.groups().collect();
    let mut largest = 0usize;
    for (i, group) in groups.iter().enumerate() {
        let end = groups
            .get(i + 1)
            .map_or(cx.source.len(), |next| start_of(next.first_line()));
        let span = end.saturating_sub(start_of(group.first_line())) + 2;
        largest = largest.max(span);
        let mut named = vec![false; buffers.len()];
        for ua in group.user_agents() {
            named[0] |= ua.value() == "*";
            for (slot, robot) in named[1..].iter_mut().zip(&names.others) {
                *slot |= robot.named_by(ua.value());
            }
        }
        for (buffer, named) in buffers.iter_mut().zip(named) {
            if named {
                *buffer = buffer.saturating_add(span.saturating_mul(2));
            }
        }
    }
    let file_wide: usize = google
        .sitemaps()
        .map(|s| line_bytes(s.line()))
        .chain(google.extensions().map(|e| line_bytes(e.line())))
        .sum();
    largest = largest.max(file_wide);
    buffers[0] = buffers[0].saturating_add(file_wide.saturating_mul(4));
    let total = buffers
        .iter()
        .fold(0usize, |sum, b| sum.saturating_add(b.saturating_add(8)));
    total.saturating_add(largest).saturating_add(1024) <= YANDEX_MAX_STORED
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{lint_findings_sharing, lint_parsed, LintOptions};
    use crawlgate::{Reading, RobotsTxt, Who};
    use crawlgate_test_support::Rng;
    use std::cell::Cell;

    thread_local! {
        /// Turns the shortcut off on this thread: the linter then parses
        /// every file Yandex's way.
        pub(crate) static SHORTCUT_OFF: Cell<bool> = const { Cell::new(false) };
    }

    fn without_shortcut<T>(f: impl FnOnce() -> T) -> T {
        SHORTCUT_OFF.set(true);
        let out = f();
        SHORTCUT_OFF.set(false);
        out
    }

    /// The findings, full and counted, with and without the shortcut;
    /// whether the shortcut was taken.
    fn same_findings(name: &str, body: &[u8]) -> bool {
        let options = LintOptions::everything();
        let robots = RobotsTxt::parse(body);
        let with = lint_parsed(body, &robots, &options);
        let without = without_shortcut(|| lint_parsed(body, &robots, &options));
        assert_eq!(
            format!("{:?}", with.diagnostics),
            format!("{:?}", without.diagnostics),
            "{name}"
        );
        let counted = |found: &mut Vec<_>| found.sort();
        let defaults = LintOptions::default();
        let mut with = lint_findings_sharing(body, &robots, &[], &defaults);
        let mut without = without_shortcut(|| lint_findings_sharing(body, &robots, &[], &defaults));
        counted(&mut with);
        counted(&mut without);
        assert_eq!(with, without, "{name}");
        decide(&Context::sharing(body, &robots, &[]))
    }

    /// Where the shortcut is taken, every crawler of the registry that
    /// Yandex's parser reads decides every sample path in Yandex's reading
    /// as Google's crawler reading decides it, and neither check finds
    /// anything the slow way.
    fn readings_alike(name: &str, body: &[u8]) {
        let google = RobotsTxt::parse(body);
        let yandex = RobotsTxt::parse_with(body, Profile::YANDEX);
        assert_eq!(yandex.stored_rules_limit(), None, "{name}");
        let mut paths = vec!["/".to_owned(), "/x".to_owned()];
        for rule in google.rules().chain(yandex.rules()).take(300) {
            let pattern = rule.pattern();
            paths.push(pattern.to_owned());
            paths.push(format!("{pattern}x"));
            let body = pattern.strip_suffix('$').unwrap_or(pattern);
            paths.push(body.replace('*', "x"));
            paths.push(body.replace('*', ""));
            paths.push(body.replace('*', "/q/"));
            if let Some(shorter) = pattern.get(..pattern.len().saturating_sub(1)) {
                paths.push(shorter.to_owned());
            }
        }
        for crawler in registry::crawlers() {
            if crawler.profile != Some(Profile::YANDEX) {
                continue;
            }
            let who = Who::read(crawler.token, Reading::Crawler);
            let (ours, theirs) = (google.view(who), yandex.view(who));
            for path in &paths {
                // The comparison asks paths as crawlers send them.
                if !path.starts_with('/') || path.contains('%') || path == "/robots.txt" {
                    continue;
                }
                assert_eq!(
                    ours.decide_path(path).is_allowed(),
                    theirs.decide_path(path).is_allowed(),
                    "{name}: {} {path}",
                    crawler.token
                );
            }
        }
        let report = without_shortcut(|| lint_parsed(body, &google, &LintOptions::everything()));
        assert!(
            !report.diagnostics.iter().any(|d| matches!(
                d.code,
                crate::Code::YandexSplitGroup | crate::Code::YandexDiffers
            )),
            "{name}"
        );
    }

    #[test]
    fn the_shortcut_changes_no_finding_on_the_corpus() {
        let (mut files, mut taken) = (0, 0);
        for (name, body) in crawlgate_corpus::files() {
            files += 1;
            if same_findings(&name, &body) {
                taken += 1;
                readings_alike(&name, &body);
            }
        }
        // Most files need neither check: the shortcut is what saves.
        assert!(taken * 2 > files, "{taken} of {files} files");
    }

    /// Files made of the constructs the two parsers read differently.
    #[test]
    fn the_shortcut_changes_no_finding_on_generated_files() {
        const LINES: &[&str] = &[
            "User-agent: *",
            "User-agent: * x",
            "user-agent:*",
            "User-agent: Googlebot",
            "User-agent: Yandex",
            "User-agent: YandexBot/3.0",
            "User-agent: yandeximages",
            "User-agent: Slurp",
            "User-agent: Baiduspider",
            "User-agent: Other",
            "User-agent *",
            "Useragent: *",
            "Disallow: /",
            "Disallow: /a",
            "Disallow: /a/b",
            "Disallow:",
            "Allow:",
            "Allow: /a",
            "Allow: /a/b/",
            "Allow: /a/index.html",
            "Disallow: /*.pdf$",
            "Allow: /*.css$",
            "Allow: /abcd",
            "Disallow: /**bcd",
            "Disallow: /ab*",
            "Allow: /a*b$",
            "Disallow: /*?",
            "Allow: /*?page=",
            "Allow: /a/*/c",
            "Disallow: *",
            "Disallow: /$",
            "Allow: /$",
            "Disallow: /a*b",
            "Disallow: a",
            "Disallow: *a",
            "Disallow: /%7Ea",
            "Disallow: /é",
            "Disallow /b",
            "Dissallow: /b",
            "Crawl-delay: 2",
            "Sitemap: https://example.com/s.xml",
            "Clean-param: ref /a",
            "Host: example.com",
            "Unknown: x",
            "nonsense",
            "# comment",
            "",
            "  ",
            "Disallow: /b # yandex",
            "\u{b}User-agent: *",
        ];
        const ENDS: &[&str] = &["\n", "\n", "\n", "\r\n", "\r"];
        let mut rng = Rng::new(0x5EED_1ADE);
        let mut taken = 0;
        for round in 0..3000 {
            let mut body = String::new();
            if rng.chance(3) {
                body.push('\u{feff}');
            }
            let ends: &[&str] = if rng.chance(80) { &ENDS[..3] } else { ENDS };
            for _ in 0..1 + rng.below(12) {
                body.push_str(rng.pick(LINES));
                body.push_str(rng.pick(ends));
            }
            let name = format!("round {round}: {body:?}");
            if same_findings(&name, body.as_bytes()) {
                taken += 1;
                readings_alike(&name, body.as_bytes());
            }
        }
        assert!(taken > 100, "{taken} generated files took the shortcut");
    }

    /// Large files near Yandex's storage limit: the shortcut is taken for
    /// some, and never for one where Yandex's parser passes the limit.
    #[test]
    fn the_storage_bound_holds() {
        let fill = |body: &mut String, kib: usize, line: &dyn Fn(usize) -> String| {
            let end = body.len() + kib * 1024;
            let mut i = 0;
            while body.len() < end {
                body.push_str(&line(i));
                i += 1;
            }
        };
        let (mut taken, mut passed) = (0, 0);
        for star_kib in [40, 120, 200, 260] {
            for (google_kib, params_kib, sitemaps_kib) in [
                (0, 0, 0),
                (0, 0, 60),
                (0, 60, 0),
                (100, 0, 0),
                (240, 0, 0),
                (0, 120, 40),
            ] {
                let mut body = String::new();
                fill(&mut body, sitemaps_kib, &|i| {
                    format!("Sitemap: https://example.com/sitemap-{i}.xml\n")
                });
                // A longer name after `*` empties its buffer once.
                body.push_str("User-agent: *\nUser-agent: Googlebot-News\n");
                fill(&mut body, star_kib, &|i| {
                    format!("Disallow: /private/{i}/\n")
                });
                fill(&mut body, params_kib, &|i| {
                    format!("Clean-param: ref{i} /a/\n")
                });
                if google_kib > 0 {
                    body.push_str("User-agent: Googlebot\n");
                    fill(&mut body, google_kib, &|i| {
                        format!("Disallow: /google/{i}/\n")
                    });
                }
                let bytes = body.as_bytes();
                let yandex = RobotsTxt::parse_with(bytes, Profile::YANDEX);
                passed += usize::from(yandex.stored_rules_limit().is_some());
                let robots = RobotsTxt::parse(bytes);
                if decide(&Context::sharing(bytes, &robots, &[])) {
                    taken += 1;
                    let sizes = (star_kib, google_kib, params_kib, sitemaps_kib);
                    assert_eq!(yandex.stored_rules_limit(), None, "{sizes:?}");
                }
            }
        }
        // One group for three robots of Yandex's table (names of one
        // length: a longer one would empty the others' buffers), then a
        // rule more for each: three distinct buffers of the group's rules.
        let mut body = String::new();
        let names = ["Google", "msnbot", "Baidus"];
        for name in names {
            body.push_str(&format!("User-agent: {name}\n"));
        }
        fill(&mut body, 300, &|i| {
            format!("Disallow: /a-rather-longer-path/{i}/\n")
        });
        for name in names {
            body.push_str(&format!("User-agent: {name}\nDisallow: /{name}\n"));
        }
        let bytes = body.as_bytes();
        let yandex = RobotsTxt::parse_with(bytes, Profile::YANDEX);
        passed += usize::from(yandex.stored_rules_limit().is_some());
        let robots = RobotsTxt::parse(bytes);
        assert!(!decide(&Context::sharing(bytes, &robots, &[])));
        assert!(
            taken >= 4 && passed >= 1,
            "{taken} taken, {passed} past the limit"
        );
    }

    #[test]
    fn what_stops_the_shortcut() {
        let alike = |body: &str| {
            let robots = RobotsTxt::parse(body.as_bytes());
            decide(&Context::sharing(body.as_bytes(), &robots, &[]))
        };
        assert!(alike("User-agent: *\nDisallow: /a\nAllow: /a/b\n"));
        assert!(alike("User-agent: Googlebot\nDisallow: /*x$\n"));
        // A user-agent line split off by a blank line (`R106`'s case).
        assert!(!alike("User-agent: a\n\nUser-agent: *\nDisallow: /a\n"));
        // Yandex named (a comment does not name it).
        assert!(!alike("User-agent: Yandex\nDisallow: /a\n"));
        assert!(!alike(
            "User-agent: *\nUser-agent: yadirectfetcher\nDisallow: /a\n"
        ));
        assert!(alike("User-agent: *\nDisallow: /a # not for YANDEX\n"));
        assert!(alike(
            "User-agent: *\nDisallow: *.pdf$\nUser-agent: a\nDisallow: x\n"
        ));
        // Rules Yandex weighs or reads otherwise.
        assert!(alike("User-agent: *\nDisallow: x\nDisallow: *\n"));
        assert!(!alike("User-agent: *\nDisallow: **\n"));
        assert!(alike("User-agent: *\nDisallow: /*a\n"));
        assert!(!alike("User-agent: *\nAllow: /abcd\nDisallow: /**bcd\n"));
        assert!(!alike("User-agent: *\nDisallow: /*aab\n"));
        assert!(!alike("User-agent: *\nDisallow:\nDisallow: /\n"));
        assert!(alike("User-agent: *\nDisallow:\n"));
        assert!(!alike("User-agent: *\nDisallow: /%7E\n"));
        // Two `*` groups, a line only Google reads, a bare CR.
        assert!(!alike(
            "User-agent: *\nDisallow: /a\nUser-agent: *\nDisallow: /b\n"
        ));
        assert!(!alike("User-agent: *\nDisallow /a\n"));
        assert!(!alike("User-agent: *\rDisallow: /a\r"));
        // Too large for the storage bound to hold.
        let mut big = "User-agent: *\n".to_owned();
        while big.len() < YANDEX_MAX_STORED / 2 {
            big.push_str("Disallow: /a-long-enough-path\n");
        }
        assert!(!alike(&big));
    }
}
