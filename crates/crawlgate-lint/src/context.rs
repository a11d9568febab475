//! What every check sees: the source, its lines, the parsed model, and the
//! other readings of the file (parsed on first use).

use std::borrow::Cow;
use std::cell::{Cell, OnceCell};
use std::ops::Range;

use memchr::{memchr, memchr2};

use crawlgate::{GroupSelection, Profile, RobotsTxt, Rule, SelectionKind, Span};
use rustc_hash::FxHashMap;

use crate::budget::Budget;
use crate::diagnostic::{Code, Diagnostic};
use crate::lines::{split_lines, SourceLine};

/// Where the field name and the value of a `field: value` line are.
#[derive(Clone, Debug)]
pub(crate) struct LineFields {
    pub key: Range<usize>,
    pub value: Range<usize>,
}

pub(crate) struct Context<'a> {
    pub source: &'a [u8],
    pub robots: &'a RobotsTxt,
    /// `lines[n - 1]` is line `n`; split on first use.
    lines: OnceCell<Vec<SourceLine>>,
    /// Whether the file is an HTML page rather than a robots.txt.
    pub html: bool,
    /// Whether the file is binary rather than a robots.txt.
    pub binary: bool,
    /// Whether the file is UTF-16 text (it starts with a UTF-16 byte order
    /// mark), which crawlers cannot read.
    pub utf16: bool,
    /// The file under each of [`Profile::ALL`], built on first use.
    readings: [OnceCell<RobotsTxt>; Profile::ALL.len()],
    /// Whether each reading is the linted model re-read (same records).
    reinterpreted: [std::cell::Cell<bool>; Profile::ALL.len()],
    /// Readings the caller parsed already ([`crate::lint_parsed_sharing`]),
    /// kept only where [`Context::reading`] would parse afresh.
    given: [Option<&'a RobotsTxt>; Profile::ALL.len()],
    audiences: OnceCell<Vec<Audience>>,
    patterns: OnceCell<Vec<PatternTable<'a>>>,
    /// The content and the fields of the last line they were found for: a
    /// long line with many findings is read once, not once per finding.
    last_content: Cell<Option<(u32, usize, usize)>>,
    last_fields: Cell<Option<(u32, Option<[usize; 4]>)>>,
    /// Whether only each finding's code and severity are wanted
    /// ([`crate::lint_findings_sharing`]): checks whose messages, fixes
    /// or fix effects cost more than finding what they report may then
    /// report [`Context::counted`] findings instead.
    pub counting: bool,
    /// Whether Yandex's reading provably gives its checks nothing to
    /// report ([`crate::rules::profiles::yandex_alike`]).
    pub(crate) yandex_alike: OnceCell<bool>,
}

/// The rules of one audience by pattern (as matched), for the rules about
/// duplicates and contradictions.
pub(crate) struct PatternTable<'a> {
    /// Pattern -> the first disallow (`[0]`) and the first allow (`[1]`).
    pub first: FxHashMap<&'a str, [Option<Rule<'a>>; 2]>,
    /// Rules repeating an earlier one of the same kind: (repeat, first).
    pub repeats: Vec<(Rule<'a>, Rule<'a>)>,
}

/// Crawlers that obey the same groups: the groups naming one product token
/// (tokens with the same groups are one audience, labelled with the first),
/// or the `*` groups (in the legacy reading, each group on its own).
#[derive(Clone, Debug)]
pub(crate) struct Audience {
    /// The product token as first written, or `*`.
    pub label: String,
    /// Group indices, file order.
    pub groups: Vec<u32>,
}

/// Names that no group is likely to name, for "a crawler without a group of
/// its own".
const GENERIC_AGENTS: &[&str] = &["ExampleBot", "Example-Crawler", "Q"];

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

fn trim_range(source: &[u8], mut range: Range<usize>) -> Range<usize> {
    while range.start < range.end && is_space(source[range.start]) {
        range.start += 1;
    }
    while range.end > range.start && is_space(source[range.end - 1]) {
        range.end -= 1;
    }
    range
}

fn looks_like_html(source: &[u8]) -> bool {
    let first = source
        .iter()
        .position(|&b| !is_space(b) && b != 0xEF && b != 0xBB && b != 0xBF);
    if first.is_none_or(|i| source[i] != b'<') {
        return false;
    }
    let head = &source[..source.len().min(2048)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let trimmed = lower
        .iter()
        .position(|&b| !is_space(b) && b != 0xEF && b != 0xBB && b != 0xBF)
        .map_or(&lower[..0], |i| &lower[i..]);
    // No robots.txt line starts with `<`: a file that does and names an
    // HTML element early is a page (a comment, a `<meta>` or a `<div>` may
    // come before the doctype).
    trimmed.starts_with(b"<")
        && HTML_TAGS
            .iter()
            .any(|tag| memchr::memmem::find(&lower, tag).is_some())
}

/// Elements whose presence near the start of a file starting with `<` make
/// it an HTML page.
const HTML_TAGS: &[&[u8]] = &[
    b"<!doctype html",
    b"<html",
    b"<head",
    b"<body",
    b"<meta",
    b"<title",
    b"<script",
    b"<div",
];

/// Whether the file starts with a UTF-16 byte order mark.
fn is_utf16(source: &[u8]) -> bool {
    source.starts_with(&[0xFF, 0xFE]) || source.starts_with(&[0xFE, 0xFF])
}

/// Bytes looked at to tell a binary file from text.
const BINARY_HEAD: usize = 1024;

/// Whether the file is binary (an image, an archive…): NUL or other control
/// bytes near its start, which no text holds. UTF-16 text (with its byte
/// order mark) is text in the wrong encoding, reported line by line.
fn looks_binary(source: &[u8]) -> bool {
    if is_utf16(source) {
        return false;
    }
    let head = &source[..source.len().min(BINARY_HEAD)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C))
        .count();
    control > 8 || (head.contains(&0) && control * 20 > head.len())
}

impl<'a> Context<'a> {
    /// What every check sees of `source`, parsed as `robots`, given
    /// readings of it under other profiles already parsed (each
    /// `RobotsTxt::parse_with(source, its profile)`; none at all will do):
    /// one is used where the linter would parse the file afresh (it cannot
    /// re-read the linted model), and ignored otherwise, so that every
    /// check sees the readings it sees without them.
    pub(crate) fn sharing(
        source: &'a [u8],
        robots: &'a RobotsTxt,
        readings: &[&'a RobotsTxt],
    ) -> Self {
        let mut given = [None; Profile::ALL.len()];
        for reading in readings {
            let profile = reading.profile();
            if profile == robots.profile() || robots.can_reinterpret(profile) {
                continue;
            }
            if let Some(slot) = Profile::ALL.iter().position(|p| *p == profile) {
                given[slot] = Some(*reading);
            }
        }
        Context {
            given,
            source,
            robots,
            lines: OnceCell::new(),
            html: looks_like_html(source),
            binary: looks_binary(source),
            utf16: is_utf16(source),
            readings: Default::default(),
            reinterpreted: Default::default(),
            audiences: OnceCell::new(),
            patterns: OnceCell::new(),
            last_content: Cell::new(None),
            last_fields: Cell::new(None),
            counting: false,
            yandex_alike: OnceCell::new(),
        }
    }

    /// Every line of the source (split as the parser splits them).
    pub(crate) fn lines(&self) -> &[SourceLine] {
        self.lines.get_or_init(|| split_lines(self.source))
    }

    /// The profile the file was parsed with.
    pub(crate) fn profile(&self) -> Profile {
        self.robots.profile()
    }

    /// The bytes of line `n` (terminator excluded); empty past the end.
    pub(crate) fn line_bytes(&self, n: u32) -> &'a [u8] {
        match self.line(n) {
            Some(line) => &self.source[line.start..line.end],
            None => &[],
        }
    }

    pub(crate) fn line(&self, n: u32) -> Option<SourceLine> {
        (n as usize)
            .checked_sub(1)
            .and_then(|i| self.lines().get(i).copied())
    }

    /// A span over absolute byte offsets inside line `n`.
    pub(crate) fn span(&self, n: u32, bytes: Range<usize>) -> Span {
        let start = self.line(n).map_or(0, |l| l.start);
        let column = bytes.start.saturating_sub(start) as u32 + 1;
        Span {
            line: n,
            bytes,
            column,
        }
    }

    /// The span of line `n`'s content: trimmed, without its comment.
    pub(crate) fn content_span(&self, n: u32) -> Span {
        let range = match self.last_content.get() {
            Some((m, start, end)) if m == n => start..end,
            _ => {
                let range = self.find_content(n);
                self.last_content.set(Some((n, range.start, range.end)));
                range
            }
        };
        self.span(n, range)
    }

    /// The field name and value of line `n`, found as the parser finds them.
    pub(crate) fn fields(&self, n: u32) -> Option<LineFields> {
        let found = match self.last_fields.get() {
            Some((m, found)) if m == n => found,
            _ => {
                let found = self
                    .find_fields(n)
                    .map(|f| [f.key.start, f.key.end, f.value.start, f.value.end]);
                self.last_fields.set(Some((n, found)));
                found
            }
        };
        found.map(|[a, b, c, d]| LineFields {
            key: a..b,
            value: c..d,
        })
    }

    /// Line `n`'s content: trimmed, without its comment.
    fn find_content(&self, n: u32) -> Range<usize> {
        let Some(line) = self.line(n) else {
            return 0..0;
        };
        let mut end = line.end;
        if let Some(nul) = memchr(0, &self.source[line.start..end]) {
            end = line.start + nul;
        }
        if let Some(hash) = memchr(b'#', &self.source[line.start..end]) {
            end = line.start + hash;
        }
        let range = trim_range(self.source, line.start..end);
        if range.is_empty() {
            return trim_range(self.source, line.start..line.end);
        }
        range
    }

    /// The field name and value of line `n`, found as the parser finds them.
    fn find_fields(&self, n: u32) -> Option<LineFields> {
        let line = self.line(n)?;
        let mut end = line.end;
        if let Some(nul) = memchr(0, &self.source[line.start..end]) {
            end = line.start + nul;
        }
        let content = &self.source[line.start..end];
        match memchr2(b'#', b':', content) {
            Some(colon) if content[colon] == b':' => {
                let after = line.start + colon + 1;
                let value_end =
                    memchr(b'#', &self.source[after..end]).map_or(end, |hash| after + hash);
                Some(LineFields {
                    key: trim_range(self.source, line.start..line.start + colon),
                    value: trim_range(self.source, after..value_end),
                })
            }
            other => {
                let body_end = other.map_or(end, |hash| line.start + hash);
                let body = trim_range(self.source, line.start..body_end);
                let sep = self.source[body.clone()]
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t')?;
                let key = body.start..body.start + sep;
                let value = trim_range(self.source, body.start + sep..body.end);
                Some(LineFields { key, value })
            }
        }
    }

    /// The span of line `n`'s field name (the content span when there is none).
    pub(crate) fn key_span(&self, n: u32) -> Span {
        match self.fields(n) {
            Some(f) if !f.key.is_empty() => self.span(n, f.key),
            _ => self.content_span(n),
        }
    }

    /// The span of line `n`'s value (the content span when it is empty).
    pub(crate) fn value_span(&self, n: u32) -> Span {
        match self.fields(n) {
            Some(f) if !f.value.is_empty() => self.span(n, f.value),
            _ => self.content_span(n),
        }
    }

    /// A part of line `n`'s value: `offset..offset + len` bytes into it.
    pub(crate) fn value_part_span(&self, n: u32, offset: usize, len: usize) -> Span {
        match self.fields(n) {
            Some(f) if f.value.start + offset + len <= f.value.end => {
                let start = f.value.start + offset;
                self.span(n, start..start + len)
            }
            _ => self.value_span(n),
        }
    }

    /// The same file read under `profile`: the linted model when it is the
    /// linted profile; otherwise the linted model re-read under `profile`
    /// when that provably gives the same records (see
    /// [`RobotsTxt::reinterpret`]), or else a fresh parse. Built once, on
    /// first use.
    pub(crate) fn reading(&self, profile: Profile) -> &RobotsTxt {
        if profile == self.robots.profile() {
            return self.robots;
        }
        let Some(slot) = Profile::ALL.iter().position(|p| *p == profile) else {
            return self.robots;
        };
        if let Some(given) = self.given[slot] {
            return given;
        }
        self.readings[slot].get_or_init(|| match self.robots.reinterpret(profile) {
            Some(copy) => {
                self.reinterpreted[slot].set(true);
                copy
            }
            None => RobotsTxt::parse_with(self.source, profile),
        })
    }

    /// Whether [`Context::reading`] of `profile` has the linted model's
    /// records (it was re-read, not parsed again): then only decide-time
    /// switches and `index.html` aliases can make the readings differ.
    pub(crate) fn same_records(&self, profile: Profile) -> bool {
        if profile == self.robots.profile() {
            return true;
        }
        match Profile::ALL.iter().position(|p| *p == profile) {
            Some(slot) if self.readings[slot].get().is_some() => self.reinterpreted[slot].get(),
            Some(_) => self.robots.can_reinterpret(profile),
            None => false,
        }
    }

    /// The sets of crawlers that share groups, under the linted reading.
    ///
    /// Crawler sets that share large groups could make the checks that look
    /// at every set's rules quadratic (thousands of crawlers, each with a
    /// group of its own and all in one large group): the sets are checked
    /// in order while a [`Budget`] lasts.
    pub(crate) fn audiences(&self) -> &[Audience] {
        self.audiences.get_or_init(|| {
            let robots = self.robots;
            // A unit is a rule visited: real files need two per rule at most,
            // and a rule takes ten bytes or more.
            let budget = Budget::for_file(self.source.len(), 1);
            let mut audiences = audiences_of(robots);
            let within = audiences
                .iter()
                .take_while(|audience| {
                    let rules: usize = audience
                        .groups
                        .iter()
                        .filter_map(|&g| robots.group(g as usize))
                        .map(|g| g.rules().len())
                        .sum();
                    budget.spend(rules + audience.groups.len())
                })
                .count();
            audiences.truncate(within);
            audiences
        })
    }

    /// One [`PatternTable`] per audience (same order as [`Context::audiences`]).
    pub(crate) fn pattern_tables(&self) -> &[PatternTable<'a>] {
        self.patterns.get_or_init(|| {
            let robots: &'a RobotsTxt = self.robots;
            self.audiences()
                .iter()
                .map(|audience| {
                    let rules: usize = audience
                        .groups
                        .iter()
                        .filter_map(|&g| robots.group(g as usize))
                        .map(|g| g.rules().len())
                        .sum();
                    let mut table = PatternTable {
                        first: FxHashMap::with_capacity_and_hasher(rules, Default::default()),
                        repeats: Vec::new(),
                    };
                    for &g in &audience.groups {
                        let Some(group) = robots.group(g as usize) else {
                            continue;
                        };
                        for rule in group.rules() {
                            if rule.is_empty() {
                                continue;
                            }
                            let slot = &mut table.first.entry(rule.pattern()).or_default()
                                [usize::from(rule.is_allow())];
                            match slot {
                                Some(first) => table.repeats.push((rule, *first)),
                                None => *slot = Some(rule),
                            }
                        }
                    }
                    table
                })
                .collect()
        })
    }

    /// The parser's findings of one code, as lint findings.
    pub(crate) fn parser_findings(
        &self,
        code: crawlgate::Code,
    ) -> impl Iterator<Item = Diagnostic> + use<'a> {
        self.robots
            .diagnostics()
            .iter()
            .filter(move |d| d.code == code)
            .map(crate::diagnostic::from_parser)
    }

    /// A new diagnostic with the code's default severity.
    /// A finding of `code` with its default severity and nothing else (no
    /// place, message or fix), for a linter [`counting`](Self::counting).
    pub(crate) fn counted(&self, code: Code) -> Diagnostic {
        let nowhere = Span {
            line: 0,
            bytes: 0..0,
            column: 0,
        };
        Diagnostic::new(code, nowhere, "")
    }

    pub(crate) fn diagnostic(
        &self,
        code: Code,
        span: Span,
        message: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        Diagnostic::new(code, span, message)
    }
}

/// The audiences of a model under its own profile's group selection.
pub(crate) fn audiences_of(robots: &RobotsTxt) -> Vec<Audience> {
    let mut out = Vec::new();
    match robots.profile().group_selection {
        GroupSelection::FirstSubstring => {
            for group in robots.groups() {
                let label = group
                    .user_agents()
                    .next()
                    .map(|ua| ua.value().to_owned())
                    .unwrap_or_default();
                out.push(Audience {
                    label,
                    groups: vec![group.index() as u32],
                });
            }
        }
        GroupSelection::RobotPrefix => {
            // A parser with its own table of robots (Yandex's): its robots
            // that a group names, one audience per set of groups, then `*`.
            let mut seen: FxHashMap<Vec<u32>, ()> = FxHashMap::default();
            for robot in crawlgate::registry::robots(robots.profile().name) {
                let view = robots.view(robot.full_name);
                if view.selection() != SelectionKind::Specific {
                    continue;
                }
                let groups: Vec<u32> = view.groups().map(|g| g.index() as u32).collect();
                if seen.insert(groups.clone(), ()).is_none() {
                    out.push(Audience {
                        label: robot.full_name.to_owned(),
                        groups,
                    });
                }
            }
            let star = robots.view("*");
            if star.selection() != SelectionKind::Nothing {
                out.push(Audience {
                    label: "*".to_owned(),
                    groups: star.groups().map(|g| g.index() as u32).collect(),
                });
            }
        }
        _ => {
            // Tokens that obey the same groups are one audience (a list of
            // hundreds of bots in one group is one set of rules to check).
            let mut by_groups: FxHashMap<&[u32], usize> = FxHashMap::default();
            for (token, groups) in robots.tokens() {
                if by_groups.contains_key(groups) {
                    continue;
                }
                by_groups.insert(groups, out.len());
                out.push(Audience {
                    label: token.to_owned(),
                    groups: groups.to_vec(),
                });
            }
            let global: Vec<u32> = robots
                .groups()
                .filter(|g| g.is_global())
                .map(|g| g.index() as u32)
                .collect();
            if !global.is_empty() {
                out.push(Audience {
                    label: "*".to_owned(),
                    groups: global,
                });
            }
        }
    }
    out
}

/// A crawler name that no group of the file names: it gets the `*` groups
/// (or nothing).
pub(crate) fn generic_agent(robots: &RobotsTxt) -> &'static str {
    GENERIC_AGENTS
        .iter()
        .copied()
        .find(|name| robots.selection_of(name) != SelectionKind::Specific)
        .unwrap_or("Q")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_with_and_without_a_colon() {
        let source = b"User-agent : bot # c\nDisallow /x\n";
        let robots = RobotsTxt::parse(source);
        let cx = Context::sharing(source, &robots, &[]);
        let f = cx.fields(1).unwrap();
        assert_eq!(&source[f.key], b"User-agent");
        assert_eq!(&source[f.value], b"bot");
        let f = cx.fields(2).unwrap();
        assert_eq!(&source[f.key], b"Disallow");
        assert_eq!(&source[f.value], b"/x");
        assert_eq!(cx.value_span(2).column, 10);
    }

    /// On every corpus file, the legacy group choice used to skip crawlers
    /// agrees with the legacy reading.
    #[test]
    fn legacy_choice_agrees_with_the_legacy_reading_on_the_corpus() {
        use crate::rules::profiles::legacy_choice::LegacyChoice;
        for (_, body) in crawlgate_corpus::files() {
            let legacy = RobotsTxt::parse_with(&body, Profile::LEGACY);
            let mut agents: Vec<String> = legacy
                .user_agents()
                .map(|ua| ua.token().to_owned())
                .collect();
            agents.push("Googlebot".to_owned());
            agents.push("ExampleBot".to_owned());
            agents.truncate(12);
            let names: Vec<&str> = agents.iter().map(String::as_str).collect();
            let choice = LegacyChoice::new(&legacy, &names);
            for agent in &agents {
                let expected = legacy.view(agent).groups().next().map(|g| g.index());
                assert_eq!(choice.group(agent), expected, "{agent}");
            }
        }
    }

    #[test]
    fn html_is_recognised() {
        assert!(looks_like_html(b"\n<!DOCTYPE html>\n<html>"));
        assert!(looks_like_html(b"<html><body>Not found</body></html>"));
        assert!(!looks_like_html(b"User-agent: *\n# <html>\n"));
        assert!(looks_like_html(
            b"<!-- 404 -->\n<script>location = '/';</script>"
        ));
        assert!(looks_like_html(
            b"<meta name=\"viewport\" content=\"width=device-width\">"
        ));
    }

    #[test]
    fn binary_is_recognised() {
        assert!(looks_binary(
            b"\x00\x00\x01\x00\x03\x00\x10\x10\x00\x00\x01\x00\x20\x00\x68\x04\x00\x00"
        ));
        assert!(!looks_binary(b"User-agent: *\nDisallow: /\x00x\n"));
        assert!(!looks_binary(
            b"\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00"
        ));
    }
}
