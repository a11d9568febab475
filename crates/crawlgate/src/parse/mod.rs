//! Parsing: bytes → lines → records → [`RobotsTxt`].
//!
//! One pass over the input. Each line is cut at `#`, stripped, split at its
//! first colon (or, in the google profile, at whitespace when there is no
//! colon and exactly two tokens), and its field name recognised. Records go
//! into the model's flat vectors; groups are ranges of them.

mod crawler;
pub(crate) mod findings;
pub(crate) mod lines;
pub(crate) mod normalize;
mod reread;
mod scratch;
pub(crate) mod split;
mod yandex;

use std::sync::OnceLock;

use memchr::{memchr, memrchr};

use crate::diagnostic::Span;
use crate::extension::ExtensionKind;
use crate::model::{
    AgentRecord, Audience, ExtensionRecord, Finding, GroupRecord, InputStats, Misspelling,
    RobotsTxt, RuleRecord, SitemapRecord, Str, What, RULE_ALLOW, RULE_HAS_ALIAS, RULE_HAS_ORIGINAL,
};
use crate::profile::Profile;
use crate::token::{cmp_ignore_case, token_len};

use crate::field::{self, Field, Spelling};
use lines::{Line, Lines};
use split::Split;

/// ASCII whitespace as C's `isspace` sees it (space, tab, LF, VT, FF, CR).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    // Most bytes are above the space: one comparison rules them out.
    b <= b' ' && (b == b' ' || (b'\t'..=b'\r').contains(&b))
}

/// `s` without whitespace at either end.
#[inline]
pub(crate) fn trim(s: &[u8]) -> &[u8] {
    let mut s = s;
    while let [first, rest @ ..] = s
        && is_space(*first)
    {
        s = rest;
    }
    trim_end(s)
}

/// `s` without whitespace at its end.
#[inline]
pub(crate) fn trim_end(s: &[u8]) -> &[u8] {
    let mut s = s;
    while let [rest @ .., last] = s
        && is_space(*last)
    {
        s = rest;
    }
    s
}

pub(crate) fn parse(input: &[u8], profile: Profile) -> RobotsTxt {
    if profile.yandex_records {
        return Builder::new(input, profile).run_yandex();
    }
    Builder::<false>::new(input, profile).run()
}

pub(crate) use crawler::parse_for;

/// Builds the model. `FOR_CRAWLER` when reading for one crawler
/// ([`parse_for`]): no diagnostics, no unknown records, and the groups the
/// crawler does not obey lose their records; a parameter, so that reading
/// the whole file pays nothing for it.
struct Builder<'a, const FOR_CRAWLER: bool = false> {
    input: &'a [u8],
    profile: Profile,
    /// Reading for one crawler: the tokens whose groups (and `*`'s) keep
    /// their records.
    keep: &'a [&'a str],
    /// The vectors are the thread's kept ones: the model gets copies.
    kept_vectors: bool,
    /// Reading for one crawler: the current group is not the crawler's and
    /// has had its first rule, so its lines are skipped.
    skipping: bool,
    text: Vec<u8>,
    agents: Vec<AgentRecord>,
    rules: Vec<RuleRecord>,
    extensions: Vec<ExtensionRecord>,
    groups: Vec<GroupRecord>,
    sitemaps: Vec<SitemapRecord>,
    originals: Vec<(u32, Str)>,
    aliases: Vec<(u32, Str)>,
    findings: Vec<Finding>,
    /// The tokens the groups name, with their groups, to sort into audiences.
    named: Vec<(Str, u32)>,
    /// The `*` groups.
    globals: Vec<u32>,
    orphan_rules: u32,
    file_extensions: u32,
    /// The current group has members: rules (and, in urllib's reading,
    /// crawl-delay and request-rate lines; in Bing's, crawl-delay lines). A
    /// user-agent line then starts a new group.
    group_has_rules: bool,
    /// The current group still takes lines: always, once one exists, except
    /// in urllib's reading, where a blank line closes it.
    group_open: bool,
    /// Start offsets of invalid UTF-8 sequences, ascending.
    invalid_utf8: Vec<usize>,
    next_invalid: usize,
    bare_cr_lines: u32,
    first_bare_cr: Option<Span>,
    invalid_run: Option<InvalidRun>,
    /// Whether the input holds a NUL byte at all (checked once, not per line).
    has_nul: bool,
}

/// Consecutive lines that are not records (blank lines and comments in
/// between do not break a run): reported as one diagnostic, so an HTML page
/// served as robots.txt gets one finding, not one per line.
struct InvalidRun {
    first_line: u32,
    last_line: u32,
    start: usize,
    end: usize,
    column: u32,
    lines: u32,
    looks_like_html: bool,
}

/// The parts of one `field: value` line.
struct Record<'a> {
    line: Line<'a>,
    key: &'a [u8],
    value: &'a [u8],
    /// Whether values may hold invalid UTF-8 and need a lossy copy.
    lossy: bool,
}

impl<'a, const FOR_CRAWLER: bool> Builder<'a, FOR_CRAWLER> {
    fn new(input: &'a [u8], profile: Profile) -> Self {
        // Room for every byte to be kept, and for a rule every eight bytes
        // (the shortest rule line, `allow:/` and its line end, has eight):
        // no copying while the vectors grow; `finish` gives back what is
        // unused. Counting the lines would cost more than the room.
        let read = &input[..input.len().min(profile.max_bytes)];
        let lines = read.len() / 8 + 1;
        // Small files gather their records in this thread's kept vectors
        // (see `scratch`); a large one in its own, given back once shrunk.
        let kept_vectors = read.len() <= scratch::SMALL_FILE;
        let mut kept = if kept_vectors {
            scratch::Scratch::take()
        } else {
            scratch::Scratch::default()
        };
        kept.text.reserve(read.len());
        kept.rules.reserve(lines);
        Builder {
            input,
            profile,
            kept_vectors,
            keep: &[],
            skipping: false,
            text: kept.text,
            agents: kept.agents,
            rules: kept.rules,
            extensions: kept.extensions,
            groups: kept.groups,
            sitemaps: kept.sitemaps,
            originals: kept.originals,
            aliases: kept.aliases,
            findings: kept.findings,
            named: kept.named,
            globals: kept.globals,
            orphan_rules: 0,
            file_extensions: 0,
            group_has_rules: false,
            group_open: false,
            invalid_utf8: Vec::new(),
            next_invalid: 0,
            bare_cr_lines: 0,
            first_bare_cr: None,
            invalid_run: None,
            has_nul: false,
        }
    }

    fn offset_of(&self, part: &[u8]) -> usize {
        part.as_ptr() as usize - self.input.as_ptr() as usize
    }

    fn span(&self, line: &Line<'_>, start: usize, end: usize) -> Span {
        Span {
            line: line.number,
            bytes: start..end,
            column: (start - line.start + 1) as u32,
        }
    }

    fn span_of(&self, line: &Line<'_>, part: &[u8]) -> Span {
        let start = self.offset_of(part);
        self.span(line, start, start + part.len())
    }

    fn note(&mut self, span: Span, what: What) {
        if FOR_CRAWLER {
            return; // a crawler's reading keeps no diagnostics
        }
        self.findings.push(Finding { span, what });
    }

    /// Notes a line that is not a record.
    fn note_invalid(&mut self, line: &Line<'_>, body: &[u8]) {
        let start = self.offset_of(body);
        let end = start + body.len();
        let html = body.first() == Some(&b'<');
        match &mut self.invalid_run {
            Some(run) => {
                run.last_line = line.number;
                run.end = end;
                run.lines += 1;
                run.looks_like_html |= html;
            }
            None => {
                self.invalid_run = Some(InvalidRun {
                    first_line: line.number,
                    last_line: line.number,
                    start,
                    end,
                    column: (start - line.start + 1) as u32,
                    lines: 1,
                    looks_like_html: html,
                })
            }
        }
    }

    /// Reports the current run of non-record lines, if any.
    fn flush_invalid(&mut self) {
        let Some(run) = self.invalid_run.take() else {
            return;
        };
        let span = Span {
            line: run.first_line,
            bytes: run.start..run.end,
            column: run.column,
        };
        self.note(
            span,
            What::InvalidLines {
                lines: run.lines,
                last_line: run.last_line,
                html: run.looks_like_html,
            },
        );
    }

    fn run(mut self) -> RobotsTxt {
        let input = self.input;
        let parsed = lines::limited_len(input, self.profile.max_bytes);
        let bom = lines::bom_len(&input[..parsed]);
        if bom > 0 {
            let span = Span {
                line: 1,
                bytes: 0..bom,
                column: 1,
            };
            self.note(span, What::ByteOrderMark);
        }
        self.has_nul = memchr(0, &input[bom..parsed]).is_some();
        if simdutf8::basic::from_utf8(&input[bom..parsed]).is_err() {
            let mut offset = bom;
            for chunk in input[bom..parsed].utf8_chunks() {
                offset += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    self.invalid_utf8.push(offset);
                    offset += chunk.invalid().len();
                }
            }
        }
        let mut line_count = 0;
        for line in Lines::new(&input[..parsed], bom, self.profile.max_line_bytes, true) {
            line_count = line.number;
            self.line(&line);
        }
        self.flush_invalid();
        if parsed < input.len() {
            let lost_from =
                line_count + u32::from(parsed > 0 && !matches!(input[parsed - 1], b'\n' | b'\r'));
            let span = Span {
                line: lost_from.max(1),
                bytes: parsed..input.len(),
                column: 1,
            };
            self.note(span, What::FileTooLarge);
        }
        if let Some(span) = self.first_bare_cr.take() {
            let lines = self.bare_cr_lines;
            self.note(span, What::CrLineEndings { lines });
        }
        let stats = InputStats {
            input_bytes: input.len(),
            parsed_bytes: parsed,
            lines: line_count,
            had_bom: bom > 0,
            had_invalid_utf8: !self.invalid_utf8.is_empty(),
        };
        self.finish(stats)
    }

    /// Reports invalid UTF-8 in the line; returns whether there was any.
    fn check_utf8(&mut self, line: &Line<'_>) -> bool {
        let end = line.start + line.bytes.len() + line.cut;
        let mut found = None;
        while let Some(&offset) = self.invalid_utf8.get(self.next_invalid) {
            if offset >= end {
                break;
            }
            if offset >= line.start && found.is_none() {
                found = Some(offset);
            }
            self.next_invalid += 1;
        }
        if let Some(offset) = found {
            let span = self.span(line, offset, offset + 1);
            self.note(span, What::InvalidUtf8);
        }
        found.is_some()
    }

    fn line(&mut self, line: &Line<'a>) {
        if self.profile.urllib_records && line.bytes.is_empty() && line.cut == 0 {
            self.end_record();
            return;
        }
        let lossy = (!self.invalid_utf8.is_empty() && self.check_utf8(line)) || line.cut > 0;
        if line.bare_cr {
            self.bare_cr_lines += 1;
            if self.first_bare_cr.is_none() {
                let end = line.start + line.bytes.len() + line.cut;
                self.first_bare_cr = Some(self.span(line, end, end + 1));
            }
        }
        if line.cut > 0 {
            let start = line.start + line.bytes.len();
            let span = self.span(line, start, start + line.cut);
            self.note(span, What::LineTooLong);
        }
        let mut content = line.before_comment();
        if self.has_nul
            && let Some(nul) = memchr(0, line.bytes)
        {
            let start = line.start + nul;
            let span = self.span(line, start, start + 1);
            self.note(span, What::NulByte);
            content = &content[..nul.min(content.len())];
        }
        let (key, value) = match split::split(content) {
            Split::Nothing => return,
            Split::Invalid { body } => {
                self.note_invalid(line, body);
                return;
            }
            Split::Record {
                key,
                value,
                missing_colon: false,
            } => (key, value),
            Split::Record { key, value, .. } => match self.missing_colon(line, key, value) {
                Some(parts) => parts,
                None => return,
            },
        };
        let record = Record {
            line: *line,
            key,
            value,
            lossy,
        };
        self.record(&record);
    }

    /// A line without a colon that holds two tokens: Google reads it as
    /// `field: value`, stricter readings ignore it.
    fn missing_colon(
        &mut self,
        line: &Line<'_>,
        key: &'a [u8],
        value: &'a [u8],
    ) -> Option<(&'a [u8], &'a [u8])> {
        let body = &line.bytes
            [self.offset_of(key) - line.start..self.offset_of(value) - line.start + value.len()];
        let (field, _) = field::recognise(key, &self.profile);
        if matches!(field, Field::Extension(ExtensionKind::Unknown)) {
            // `<meta name=x>`: Google reads an unknown record nobody acts on.
            self.note_invalid(line, body);
            return self.profile.accept_missing_colon.then_some((key, value));
        }
        // The line as it was probably meant, `field: value`, for the message.
        let start = self.text.len() as u32;
        self.push_text(key, true);
        self.text.extend_from_slice(b": ");
        self.push_text(value, true);
        let shown = Str {
            start,
            len: self.text.len() as u32 - start,
        };
        let span = self.span_of(line, body);
        self.note(span, What::MissingColon { shown });
        self.profile.accept_missing_colon.then_some((key, value))
    }

    fn push_text(&mut self, bytes: &[u8], lossy: bool) -> Str {
        let start = self.text.len() as u32;
        if lossy && std::str::from_utf8(bytes).is_err() {
            self.text
                .extend_from_slice(String::from_utf8_lossy(bytes).as_bytes());
        } else {
            self.text.extend_from_slice(bytes);
        }
        Str {
            start,
            len: self.text.len() as u32 - start,
        }
    }

    fn push_ascii(&mut self, bytes: &[u8]) -> Str {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(bytes);
        Str {
            start,
            len: bytes.len() as u32,
        }
    }

    fn record(&mut self, record: &Record<'a>) {
        let (field, spelling) = field::recognise(record.key, &self.profile);
        // A crawler's reading notes no invalid lines, so has none to report.
        if !FOR_CRAWLER
            && (!matches!(field, Field::Extension(ExtensionKind::Unknown))
                || spelling != Spelling::Exact)
        {
            self.flush_invalid();
        }
        if spelling != Spelling::Exact {
            self.spelling_diagnostic(record, spelling);
        }
        match field {
            Field::UserAgent => self.user_agent(record),
            Field::Allow => self.rule(record, true),
            Field::Disallow => self.rule(record, false),
            Field::Sitemap => {
                let url = self.push_text(record.value, record.lossy);
                self.sitemaps.push(SitemapRecord {
                    url,
                    line: record.line.number,
                });
            }
            // A crawler's reading keeps the records it acts on.
            Field::Extension(ExtensionKind::Unknown) if FOR_CRAWLER => {}
            Field::Extension(kind) => {
                let key = self.push_text(record.key, record.lossy);
                let value = self.push_text(record.value, record.lossy);
                self.extensions.push(ExtensionRecord {
                    kind,
                    key,
                    value,
                    line: record.line.number,
                });
                match self.groups.last_mut() {
                    Some(group) if self.group_open => {
                        group.extensions.end = self.extensions.len() as u32;
                        if self.is_group_member(kind) {
                            self.group_has_rules = true;
                        }
                    }
                    // After a blank line closed the record (urllib): in no group.
                    Some(_) => {}
                    None => self.file_extensions += 1,
                }
            }
        }
    }

    /// Whether an extension line is a member of its group, as a rule is
    /// (then a user-agent line after it starts a new group): `Crawl-delay`
    /// and `Request-rate` for urllib, `Crawl-delay` for Bing.
    fn is_group_member(&self, kind: ExtensionKind) -> bool {
        match kind {
            ExtensionKind::CrawlDelay => {
                self.profile.urllib_records || self.profile.crawl_delay_in_group
            }
            ExtensionKind::RequestRate => self.profile.urllib_records,
            _ => false,
        }
    }

    fn spelling_diagnostic(&mut self, record: &Record<'_>, spelling: Spelling) {
        let (field, how) = match spelling {
            Spelling::Exact => return,
            Spelling::Prefix(field) => (field, Misspelling::Prefix),
            Spelling::Typo(field) => (field, Misspelling::Typo),
            Spelling::Rejected(field) => (field, Misspelling::Rejected),
        };
        let span = self.span_of(&record.line, record.key);
        let key = self.push_text(record.key, true);
        self.note(span, What::FieldSpelling { key, field, how });
    }

    fn user_agent(&mut self, record: &Record<'_>) {
        if self.groups.is_empty() || self.group_has_rules || !self.group_open {
            self.group_open = true;
            let (a, r, e) = (
                self.agents.len() as u32,
                self.rules.len() as u32,
                self.extensions.len() as u32,
            );
            self.groups.push(GroupRecord {
                agents: a..a,
                rules: r..r,
                extensions: e..e,
            });
            self.group_has_rules = false;
            self.skipping = false;
        }
        let value = record.value;
        let global = if self.profile.lenient_global_agent {
            value.first() == Some(&b'*') && (value.len() == 1 || is_space(value[1]))
        } else {
            value == b"*"
        };
        let token_len = if global { 0 } else { token_len(value) as u32 };
        let value = self.push_text(value, record.lossy);
        self.agents.push(AgentRecord {
            value,
            line: record.line.number,
            token_len,
            global,
        });
        if let Some(group) = self.groups.last_mut() {
            group.agents.end = self.agents.len() as u32;
        }
    }

    fn rule(&mut self, record: &Record<'_>, allow: bool) {
        let value = record.value;
        let strict = self.profile.require_leading_slash;
        let not_absolute = value
            .first()
            .is_some_and(|&first| first != b'/' && (strict || first != b'*'));
        // urllib's reading: a blank line closed the record; the rule is in no group.
        let after_blank_line = !self.groups.is_empty() && !self.group_open;
        if not_absolute && (strict || after_blank_line) {
            let span = self.span_of(&record.line, value);
            let value = self.push_text(value, true);
            self.note(span, What::PathNotAbsolute { value, allow });
            if strict {
                return;
            }
        }
        if after_blank_line {
            let span = self.span_of(&record.line, trim(record.line.bytes));
            self.note(span, What::RuleAfterBlankLine { allow });
            return;
        }
        if FOR_CRAWLER && !self.group_has_rules && self.group_left_out() {
            return;
        }
        let index = self.rules.len() as u32;
        let mut flags = if allow { RULE_ALLOW } else { 0 };
        let escapes = normalize::Escapes::of(&self.profile);
        let pattern = if escapes.may_change(value) {
            let start = self.text.len() as u32;
            let changed = escapes.normalize_into(value, &mut self.text);
            let pattern = Str {
                start,
                len: self.text.len() as u32 - start,
            };
            if changed {
                let original = self.push_text(value, true);
                self.originals.push((index, original));
                flags |= RULE_HAS_ORIGINAL;
            }
            pattern
        } else {
            self.push_ascii(value)
        };
        if allow && self.profile.index_html_alias {
            let bytes = &self.text[pattern.range()];
            if let Some(slash) = memrchr(b'/', bytes)
                && bytes[slash..].starts_with(b"/index.htm")
            {
                let mut alias = bytes[..=slash].to_vec();
                alias.push(b'$');
                let alias = self.push_ascii(&alias);
                self.aliases.push((index, alias));
                flags |= RULE_HAS_ALIAS;
            }
        }
        self.rules.push(RuleRecord {
            pattern,
            line: record.line.number,
            flags,
        });
        if not_absolute {
            // Quoted from the rule the model keeps: no second copy.
            let written = match self.originals.last() {
                Some(&(rule, original)) if rule == index => original,
                _ => pattern,
            };
            let span = self.span_of(&record.line, value);
            self.note(
                span,
                What::PathNotAbsolute {
                    value: written,
                    allow,
                },
            );
        }
        match self.groups.last_mut() {
            Some(group) => {
                group.rules.end = self.rules.len() as u32;
                self.group_has_rules = true;
            }
            None => {
                self.orphan_rules += 1;
                let span = self.span_of(&record.line, trim(record.line.bytes));
                self.note(span, What::RuleBeforeUserAgent { allow });
            }
        }
    }

    /// Reading for one crawler, at the first rule of a group: whether the
    /// group names none of the crawler's tokens, and not `*`. It then
    /// loses the records it has, and its lines are skipped up to the next
    /// group (its user-agent lines stay: they decide which groups every
    /// crawler obeys).
    fn group_left_out(&mut self) -> bool {
        let tokens = self.keep;
        let Some(group) = self.groups.last_mut() else {
            return false;
        };
        let agents = &self.agents[group.agents.start as usize..group.agents.end as usize];
        let obeyed = agents.iter().any(|agent| {
            agent.global || {
                let start = agent.value.start as usize;
                let token = &self.text[start..start + agent.token_len as usize];
                tokens
                    .iter()
                    .any(|t| token.eq_ignore_ascii_case(t.as_bytes()))
            }
        });
        if obeyed {
            return false;
        }
        self.extensions.truncate(group.extensions.start as usize);
        group.extensions.end = group.extensions.start;
        self.group_has_rules = true;
        self.skipping = true;
        true
    }

    /// urllib's reading: a blank line (or the end of the file) ends the
    /// record; one without members is dropped, as urllib drops it.
    fn end_record(&mut self) {
        if !self.group_open {
            return;
        }
        self.group_open = false;
        if !self.group_has_rules
            && let Some(group) = self.groups.pop()
        {
            self.agents.truncate(group.agents.start as usize);
            self.extensions.truncate(group.extensions.start as usize);
        }
    }

    fn finish(mut self, stats: InputStats) -> RobotsTxt {
        if self.profile.urllib_records {
            self.end_record();
        }
        // The model lives long: it keeps exact copies of the thread's kept
        // vectors (which go back for its next parse), or a large file's
        // own, shrunk where more than a few bytes are unused.
        if !self.kept_vectors {
            shrink(&mut self.text);
            shrink(&mut self.agents);
            shrink(&mut self.rules);
            shrink(&mut self.extensions);
            shrink(&mut self.groups);
            shrink(&mut self.sitemaps);
            shrink(&mut self.findings);
        }
        let text = if self.kept_vectors {
            self.text.clone()
        } else {
            std::mem::take(&mut self.text)
        };
        debug_assert!(
            self.profile.yandex_records || std::str::from_utf8(&text).is_ok(),
            "the text arena holds UTF-8"
        );
        // Audiences: the groups naming each product token, case-insensitively,
        // listed after the `*` groups in one vector (gathered in the thread's
        // kept vectors: no allocation but the model's).
        let (named, globals) = (&mut self.named, &mut self.globals);
        for (g, group) in self.groups.iter().enumerate() {
            let mut is_global = false;
            for agent in &self.agents[group.agents.start as usize..group.agents.end as usize] {
                if agent.global {
                    is_global = true;
                } else {
                    let tok = Str {
                        start: agent.value.start,
                        len: agent.token_len,
                    };
                    // A crawler's reading answers for its own tokens only.
                    let kept = !FOR_CRAWLER || {
                        let tok = &text[tok.range()];
                        self.keep
                            .iter()
                            .any(|t| tok.eq_ignore_ascii_case(t.as_bytes()))
                    };
                    if kept {
                        named.push((tok, g as u32));
                    }
                }
            }
            if is_global {
                globals.push(g as u32);
            }
        }
        let token = |s: Str| &text[s.range()];
        named.sort_by(|a, b| cmp_ignore_case(token(a.0), token(b.0)).then(a.1.cmp(&b.1)));
        let mut audiences: Vec<Audience> = Vec::new();
        let mut audience_groups: Vec<u32> = Vec::with_capacity(globals.len() + named.len());
        audience_groups.extend_from_slice(globals);
        let global_groups = (0, globals.len() as u32);
        for &(tok, group) in named.iter() {
            let same = audiences
                .last()
                .is_some_and(|a| token(a.token).eq_ignore_ascii_case(token(tok)));
            if same {
                let audience = audiences.last_mut().expect("checked above");
                if audience_groups.last() != Some(&group) {
                    audience_groups.push(group);
                    audience.groups.1 += 1;
                }
            } else {
                let start = audience_groups.len() as u32;
                audience_groups.push(group);
                audiences.push(Audience {
                    token: tok,
                    groups: (start, start + 1),
                });
            }
        }
        let mut robots = RobotsTxt {
            profile: self.profile,
            text,
            text_copy: Default::default(),
            agents: Vec::new(),
            rules: Vec::new(),
            extensions: Vec::new(),
            groups: Vec::new(),
            sitemaps: Vec::new(),
            orphan_rules: self.orphan_rules,
            file_extensions: self.file_extensions,
            originals: Vec::new(),
            aliases: Vec::new(),
            audiences,
            audience_groups,
            global_groups,
            robot_table: None,
            findings: Vec::new(),
            diagnostics: OnceLock::new(),
            stats,
        };
        if !self.kept_vectors {
            robots.agents = self.agents;
            robots.rules = self.rules;
            robots.extensions = self.extensions;
            robots.groups = self.groups;
            robots.sitemaps = self.sitemaps;
            robots.originals = self.originals;
            robots.aliases = self.aliases;
            robots.findings = self.findings;
            return robots;
        }
        robots.agents = self.agents.clone();
        robots.rules = self.rules.clone();
        robots.extensions = self.extensions.clone();
        robots.groups = self.groups.clone();
        robots.sitemaps = self.sitemaps.clone();
        robots.originals = self.originals.clone();
        robots.aliases = self.aliases.clone();
        robots.findings = self.findings.clone();
        scratch::Scratch {
            text: self.text,
            agents: self.agents,
            rules: self.rules,
            extensions: self.extensions,
            groups: self.groups,
            sitemaps: self.sitemaps,
            originals: self.originals,
            aliases: self.aliases,
            findings: self.findings,
            named: self.named,
            globals: self.globals,
        }
        .give_back();
        robots
    }
}

/// Gives back a vector's unused room when it is more than a few bytes.
fn shrink<T>(v: &mut Vec<T>) {
    if (v.capacity() - v.len()) * std::mem::size_of::<T>() > 64 {
        v.shrink_to_fit();
    }
}
