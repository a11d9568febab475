//! What every check sees: the source, its lines, the parsed model, and the
//! other readings of the file (parsed on first use).

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use memchr::{memchr, memchr2};

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::lint::LintOptions;
use crate::model::RobotsTxt;
use crate::profile::Profile;

/// A line of the source: byte range of its content (terminator excluded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SourceLine {
    pub start: usize,
    pub end: usize,
}

/// Where the field name and the value of a `field: value` line are.
#[derive(Clone, Debug)]
pub(crate) struct LineFields {
    pub key: Range<usize>,
    pub value: Range<usize>,
}

pub(crate) struct Context<'a> {
    pub source: &'a [u8],
    pub robots: &'a RobotsTxt,
    #[allow(dead_code)]
    pub options: &'a LintOptions,
    /// `lines[n - 1]` is line `n`; split on first use.
    lines: OnceCell<Vec<SourceLine>>,
    /// Whether the file is an HTML page rather than a robots.txt.
    pub html: bool,
    /// The file under each of [`Profile::ALL`], built on first use.
    readings: [OnceCell<RobotsTxt>; 3],
    /// Whether each reading is the linted model re-read (same records).
    reinterpreted: [std::cell::Cell<bool>; 3],
    audiences: OnceCell<Vec<Audience>>,
    patterns: OnceCell<Vec<PatternTable<'a>>>,
}

/// The rules of one audience by pattern (as matched), for the rules about
/// duplicates and contradictions.
pub(crate) struct PatternTable<'a> {
    /// Pattern -> the first disallow (`[0]`) and the first allow (`[1]`).
    pub first: crate::lint::hash::FastMap<&'a str, [Option<crate::model::Rule<'a>>; 2]>,
    /// Rules repeating an earlier one of the same kind: (repeat, first).
    pub repeats: Vec<(crate::model::Rule<'a>, crate::model::Rule<'a>)>,
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

/// Splits the source into lines as the parser does: CR, LF and CR LF each end
/// a line; a (prefix of a) UTF-8 BOM at the start is not part of line 1.
fn split_lines(source: &[u8]) -> Vec<SourceLine> {
    let bom = source
        .iter()
        .zip([0xEF, 0xBB, 0xBF])
        .take_while(|(a, b)| **a == *b)
        .count();
    let mut lines = Vec::with_capacity(source.len() / 24 + 1);
    let mut pos = bom;
    loop {
        match memchr2(b'\n', b'\r', &source[pos..]) {
            Some(i) => {
                let end = pos + i;
                lines.push(SourceLine { start: pos, end });
                pos = if source[end] == b'\r' && source.get(end + 1) == Some(&b'\n') {
                    end + 2
                } else {
                    end + 1
                };
            }
            None => {
                lines.push(SourceLine {
                    start: pos,
                    end: source.len(),
                });
                break;
            }
        }
    }
    lines
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
    trimmed.starts_with(b"<!doctype html")
        || trimmed.starts_with(b"<html")
        || trimmed.starts_with(b"<?xml") && memchr::memmem::find(&lower, b"<html").is_some()
        || (trimmed.starts_with(b"<") && memchr::memmem::find(&lower, b"<body").is_some())
}

impl<'a> Context<'a> {
    pub(crate) fn new(source: &'a [u8], robots: &'a RobotsTxt, options: &'a LintOptions) -> Self {
        Context {
            source,
            robots,
            options,
            lines: OnceCell::new(),
            html: looks_like_html(source),
            readings: Default::default(),
            reinterpreted: Default::default(),
            audiences: OnceCell::new(),
            patterns: OnceCell::new(),
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
        let Some(line) = self.line(n) else {
            return self.span(n, 0..0);
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
            let whole = trim_range(self.source, line.start..line.end);
            return self.span(n, whole);
        }
        self.span(n, range)
    }

    /// The field name and value of line `n`, found as the parser finds them.
    pub(crate) fn fields(&self, n: u32) -> Option<LineFields> {
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
    /// when that provably gives the same records (see [`reinterpret`]), or
    /// else a fresh parse. Built once, on first use.
    pub(crate) fn reading(&self, profile: Profile) -> &RobotsTxt {
        if profile == self.robots.profile() {
            return self.robots;
        }
        let Some(slot) = Profile::ALL.iter().position(|p| *p == profile) else {
            return self.robots;
        };
        self.readings[slot].get_or_init(|| match reinterpret(self.robots, profile) {
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
            Some(_) => can_reinterpret(self.robots, profile),
            None => false,
        }
    }

    /// The sets of crawlers that share groups, under the linted reading.
    pub(crate) fn audiences(&self) -> &[Audience] {
        self.audiences.get_or_init(|| audiences_of(self.robots))
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
                        first: crate::lint::hash::FastMap::with_capacity_and_hasher(
                            rules,
                            Default::default(),
                        ),
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

    /// A new diagnostic with the code's default severity.
    pub(crate) fn diagnostic(
        &self,
        code: Code,
        span: Span,
        message: impl Into<Cow<'static, str>>,
    ) -> Diagnostic {
        Diagnostic::new(code, span, message)
    }
}

/// The model of `robots` as `profile` reads it, without parsing again,
/// when every switch in which the two profiles differ provably changes
/// nothing at parse time: no lenient line was read (no missing colon,
/// misspelling, field-name prefix, cut long line or path without a leading
/// `/`), no rule holds an escape that decoding would change, no user-agent
/// is `*` followed by text, and the size limits agree. Everything else the profiles change
/// (wildcards, precedence, group selection, `/robots.txt`) happens when
/// deciding; any other switch in which the profiles differ forces a fresh
/// parse. `None` when a fresh parse is needed. A test checks on the corpus
/// that both ways give the same verdicts.
pub(crate) fn can_reinterpret(robots: &RobotsTxt, profile: Profile) -> bool {
    let from = robots.profile();
    // Every switch not named here must be equal, so that a switch added to
    // `Profile` later forces a fresh parse until it is judged here.
    let same_parse = Profile {
        name: profile.name,
        wildcards: profile.wildcards,
        group_selection: profile.group_selection,
        precedence: profile.precedence,
        always_allow_robots_txt: profile.always_allow_robots_txt,
        accept_typos: profile.accept_typos,
        field_name_prefix: profile.field_name_prefix,
        accept_missing_colon: profile.accept_missing_colon,
        require_leading_slash: profile.require_leading_slash,
        index_html_alias: profile.index_html_alias,
        decode_unreserved: profile.decode_unreserved,
        lenient_global_agent: profile.lenient_global_agent,
        max_line_bytes: profile.max_line_bytes,
        ..from
    };
    if same_parse != profile
        || profile.index_html_alias && !from.index_html_alias
        || robots.diagnostics().iter().any(|d| {
            matches!(
                d.code,
                Code::MissingColon
                    | Code::MisspelledField
                    | Code::FieldNamePrefix
                    | Code::LineTooLong
                    | Code::PathNotAbsolute
            )
        })
    {
        return false;
    }
    if profile.require_leading_slash != from.require_leading_slash
        && robots
            .rules()
            .any(|r| !r.is_empty() && !r.pattern().starts_with('/'))
    {
        return false;
    }
    if profile.decode_unreserved != from.decode_unreserved
        && robots
            .rules()
            .any(|r| decoding_changes(r.value().as_bytes()))
    {
        return false;
    }
    if profile.lenient_global_agent != from.lenient_global_agent
        && robots
            .user_agents()
            .any(|ua| ua.value().starts_with('*') && ua.value() != "*")
    {
        return false;
    }
    true
}

/// Whether decoding escapes of unreserved characters changes a rule value:
/// it holds such an escape (`%7E`), or a stray `%` (which decoding encodes).
fn decoding_changes(value: &[u8]) -> bool {
    let hex = |b: u8| (b as char).to_digit(16);
    memchr::memchr_iter(b'%', value).any(|i| {
        let escape = (i + 2 < value.len())
            .then(|| Some(hex(value[i + 1])? * 16 + hex(value[i + 2])?))
            .flatten();
        match escape {
            Some(byte) => {
                let byte = byte as u8;
                byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
            }
            None => true,
        }
    })
}

/// [`can_reinterpret`], and the copy when it can.
pub(crate) fn reinterpret(robots: &RobotsTxt, profile: Profile) -> Option<RobotsTxt> {
    use crate::model::RULE_HAS_ALIAS;
    if !can_reinterpret(robots, profile) {
        return None;
    }
    let from = robots.profile();
    let mut copy = robots.clone();
    copy.profile = profile;
    if !profile.index_html_alias && from.index_html_alias {
        copy.aliases.clear();
        for rule in &mut copy.rules {
            rule.flags &= !RULE_HAS_ALIAS;
        }
    }
    Some(copy)
}

/// The audiences of a model under its own profile's group selection.
pub(crate) fn audiences_of(robots: &RobotsTxt) -> Vec<Audience> {
    use crate::profile::GroupSelection;
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
        _ => {
            // Tokens that obey the same groups are one audience (a list of
            // hundreds of bots in one group is one set of rules to check).
            let mut by_groups: crate::lint::hash::FastMap<&[u32], usize> = Default::default();
            for audience in &robots.audiences {
                if audience.token.len == 0 {
                    continue; // values that name no crawler (R103)
                }
                let (start, end) = audience.groups;
                let groups = &robots.audience_groups[start as usize..end as usize];
                if by_groups.contains_key(groups) {
                    continue;
                }
                by_groups.insert(groups, out.len());
                out.push(Audience {
                    label: robots.str(audience.token).to_owned(),
                    groups: groups.to_vec(),
                });
            }
            if !robots.global_groups.is_empty() {
                out.push(Audience {
                    label: "*".to_owned(),
                    groups: robots.global_groups.clone(),
                });
            }
        }
    }
    out
}

/// A crawler name that no group of the file names: it gets the `*` groups
/// (or nothing).
pub(crate) fn generic_agent(robots: &RobotsTxt) -> &'static str {
    use crate::agent::SelectionKind;
    GENERIC_AGENTS
        .iter()
        .copied()
        .find(|name| robots.select(name).kind != SelectionKind::Specific)
        .unwrap_or("Q")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_like_the_parser() {
        let lines = split_lines(b"\xEF\xBB\xBFa\nb\rc\r\nd");
        let ranges: Vec<_> = lines.iter().map(|l| l.start..l.end).collect();
        assert_eq!(ranges, [3..4, 5..6, 7..8, 10..11]);
    }

    #[test]
    fn fields_are_found_with_and_without_a_colon() {
        let source = b"User-agent : bot # c\nDisallow /x\n";
        let robots = RobotsTxt::parse(source);
        let options = LintOptions::default();
        let cx = Context::new(source, &robots, &options);
        let f = cx.fields(1).unwrap();
        assert_eq!(&source[f.key], b"User-agent");
        assert_eq!(&source[f.value], b"bot");
        let f = cx.fields(2).unwrap();
        assert_eq!(&source[f.key], b"Disallow");
        assert_eq!(&source[f.value], b"/x");
        assert_eq!(cx.value_span(2).column, 10);
    }

    /// On every corpus file, a reading obtained by [`reinterpret`] decides
    /// like a fresh parse, and the legacy group choice used to skip crawlers
    /// agrees with the legacy reading.
    #[test]
    fn reinterpreted_readings_decide_like_fresh_parses() {
        use crate::lint::inclusion::sample_paths;
        use crate::lint::rules::profiles::comparison::LegacyChoice;
        let mut compared = 0;
        for (_, body) in crawlgate_corpus::files() {
            let google = RobotsTxt::parse(&body);
            let mut agents: Vec<String> = google
                .user_agents()
                .map(|ua| ua.token().to_owned())
                .collect();
            agents.push("Googlebot".to_owned());
            agents.push("ExampleBot".to_owned());
            agents.truncate(12);
            let mut paths = vec!["/".to_owned()];
            for rule in google.rules().take(200) {
                sample_paths(rule.pattern(), &mut paths);
            }
            for profile in [Profile::RFC9309, Profile::LEGACY] {
                let fresh = RobotsTxt::parse_with(&body, profile);
                let choice = LegacyChoice::new(&fresh);
                for agent in &agents {
                    if profile == Profile::LEGACY {
                        let expected = fresh.for_agent(agent).groups().next().map(|g| g.index());
                        assert_eq!(choice.group(agent), expected, "{agent}");
                    }
                }
                let Some(copy) = reinterpret(&google, profile) else {
                    continue;
                };
                compared += 1;
                for agent in &agents {
                    let (a, b) = (copy.for_agent(agent), fresh.for_agent(agent));
                    for path in &paths {
                        assert_eq!(
                            a.decide_path(path).is_allowed(),
                            b.decide_path(path).is_allowed(),
                            "{} {agent} {path}",
                            profile.name
                        );
                    }
                }
            }
        }
        assert!(
            compared > 1000,
            "only {compared} readings were reinterpreted"
        );
    }

    #[test]
    fn html_is_recognised() {
        assert!(looks_like_html(b"\n<!DOCTYPE html>\n<html>"));
        assert!(looks_like_html(b"<html><body>Not found</body></html>"));
        assert!(!looks_like_html(b"User-agent: *\n# <html>\n"));
    }
}
