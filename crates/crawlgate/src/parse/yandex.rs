//! The model as Yandex's parser reads the bytes ([`Profile::yandex_records`]):
//! its lines, its records, its groups, and (for
//! [`GroupSelection::RobotPrefix`]) what it stores for each robot.
//!
//! Lines end at CR or LF (a CR right after a CR starts the next line
//! instead of ending an empty one); a UTF-8 byte order mark opens the first
//! line only; `#` and NUL end a line's content. A line is a record when it
//! holds a colon: the field is the text before it, lowercased and trimmed,
//! and only `user-agent`, `allow`, `disallow`, `sitemap`, `host`,
//! `clean-param` and `crawl-delay` mean anything. A user-agent line starts
//! a new group after a blank line or after any other record. Lines are
//! numbered as the other readings number them (CR, LF and CR LF each end
//! one), so every reading points at the same lines.
//!
//! [`Profile::yandex_records`]: crate::Profile::yandex_records
//! [`GroupSelection::RobotPrefix`]: crate::GroupSelection::RobotPrefix

use memchr::memchr;

use super::lines::{self, Line};
use super::split;
use super::{trim, Builder, Record};
use crate::diagnostic::Span;
use crate::extension::ExtensionKind;
use crate::model::{
    AgentRecord, ExtensionRecord, GroupRecord, InputStats, RobotsTxt, RuleRecord, SitemapRecord,
    Str, What, RULE_ALLOW, RULE_EMPTY_ALLOWS, RULE_HAS_ORIGINAL,
};
use crate::profile::GroupSelection;
use crate::token::token_len;
use crate::yandex::{checks, clean_param, robots, store};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Yandex's lines: where each one's content lies in the input, with the
/// number and start of the line as the other readings count lines.
///
/// They are the other readings' lines ([`lines::Lines`], one search for
/// the line ends and comments) but for one way of Yandex's parser: the
/// byte after a CR always opens the next line, so of a CR CR the second
/// ends nothing, and the empty line between them is no line.
struct YandexLines<'a> {
    lines: lines::Lines<'a>,
    len: usize,
    /// The line given last ended with a bare CR.
    after_bare_cr: bool,
    /// The line before was taken into the next one (so that one is a line
    /// even when it is empty at the end of the input).
    after_taken: bool,
}

impl<'a> YandexLines<'a> {
    fn new(input: &'a [u8]) -> Self {
        YandexLines {
            lines: lines::Lines::new(input, 0, usize::MAX, true),
            len: input.len(),
            after_bare_cr: false,
            after_taken: false,
        }
    }
}

impl<'a> Iterator for YandexLines<'a> {
    /// A line: its number (as the other readings count lines), its
    /// content's range in the input (terminator excluded), and where its
    /// comment starts (its first `#`, or the end).
    type Item = (u32, usize, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let line = self.lines.next()?;
            let empty = line.bytes.is_empty();
            if empty && line.bare_cr && self.after_bare_cr {
                // The second CR of a CR CR: it opens the next line.
                self.after_bare_cr = false;
                self.after_taken = true;
                continue;
            }
            // The input's end after a line end is no line, unless a CR
            // opened it.
            if empty && line.start == self.len && !self.after_taken {
                return None;
            }
            self.after_taken = false;
            let mut start = line.start;
            if empty && self.after_bare_cr && !line.bare_cr && start < self.len {
                // The CR of a CR LF right after a CR: Yandex's line starts
                // past it (it is empty either way).
                start += 1;
            }
            self.after_bare_cr = line.bare_cr;
            let end = start + line.bytes.len();
            return Some((line.number, start, end, start + line.comment));
        }
    }
}

/// C's `isspace`.
fn is_space(b: u8) -> bool {
    super::is_space(b)
}

/// The record types Yandex's parser knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    UserAgent,
    Allow,
    Disallow,
    Host,
    Sitemap,
    CleanParam,
    CrawlDelay,
    Unknown,
}

impl Type {
    /// The type of a field name, in any case (compared without a
    /// lowercase copy: one per line cost more than the comparison).
    fn of(field: &[u8]) -> Type {
        let candidates: &[(&[u8], Type)] = match field.len() {
            4 => &[(b"host", Type::Host)],
            5 => &[(b"allow", Type::Allow)],
            7 => &[(b"sitemap", Type::Sitemap)],
            8 => &[(b"disallow", Type::Disallow)],
            10 => &[(b"user-agent", Type::UserAgent)],
            11 => &[
                (b"clean-param", Type::CleanParam),
                (b"crawl-delay", Type::CrawlDelay),
            ],
            _ => &[],
        };
        candidates
            .iter()
            .find(|(name, _)| field.eq_ignore_ascii_case(name))
            .map_or(Type::Unknown, |&(_, kind)| kind)
    }
}

impl<'a> Builder<'a> {
    /// Reads the whole input as Yandex's parser does.
    pub(super) fn run_yandex(mut self) -> RobotsTxt {
        let whole = self.input;
        let input = &whole[..lines::limited_len(whole, self.profile.max_bytes)];
        self.has_nul = memchr(0, input).is_some();
        if simdutf8::basic::from_utf8(input).is_err() {
            let mut offset = 0;
            for chunk in input.utf8_chunks() {
                offset += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    self.invalid_utf8.push(offset);
                    offset += chunk.invalid().len();
                }
            }
        }
        let table = robots::table(self.profile.name);
        let mut store = store::Store::new(table);
        let mut previous = Type::UserAgent;
        let mut blank = false;
        let mut seen_record = false;
        let mut seen_user_agent = false;
        let mut had_bom = false;
        let mut line_count = 0;
        // A user-agent value lowercased, in a buffer kept between lines.
        let mut lower = Vec::new();
        for (index, (number, mut start, end, comment)) in YandexLines::new(input).enumerate() {
            line_count = number;
            if index == 0 && input[start..end].starts_with(BOM) {
                had_bom = true;
                self.note(
                    Span {
                        line: 1,
                        bytes: start..start + BOM.len(),
                        column: 1,
                    },
                    What::ByteOrderMark,
                );
                start += BOM.len();
            }
            let bytes = &input[start..end];
            let comment = comment - start;
            let line = Line {
                number,
                start,
                bytes,
                cut: 0,
                bare_cr: false,
                comment,
            };
            let lossy = !self.invalid_utf8.is_empty() && self.check_utf8(&line);
            let mut content = &bytes[..comment];
            if self.has_nul
                && let Some(nul) = memchr(0, bytes)
            {
                let span = self.span(&line, start + nul, start + nul + 1);
                self.note(span, What::NulByte);
                content = &content[..nul.min(content.len())];
            }
            let Some(colon) = split::find_either(content, b':', b':') else {
                if content.iter().all(|&b| is_space(b)) {
                    blank |= seen_record;
                } else {
                    self.note_invalid(&line, trim(content));
                }
                continue;
            };
            seen_record = true;
            let key = trim(&content[..colon]);
            let value = trim(&content[colon + 1..]);
            let kind = Type::of(key);
            if kind != Type::Unknown {
                self.flush_invalid();
            }
            let new_group = previous != Type::UserAgent || blank;
            previous = kind;
            blank = false;
            let record = Record {
                line,
                key,
                value,
                lossy,
            };
            match kind {
                Type::UserAgent => {
                    seen_user_agent = true;
                    self.yandex_user_agent(&record, new_group, &mut store, &mut lower);
                }
                Type::Allow | Type::Disallow if !seen_user_agent => {
                    let allow = kind == Type::Allow;
                    self.yandex_orphan_rule(&record, allow);
                }
                Type::Allow | Type::Disallow => {
                    self.yandex_rule(&record, kind == Type::Allow, &mut store)
                }
                Type::Sitemap => {
                    let url = self.push_text(value, lossy);
                    self.sitemaps.push(SitemapRecord { url, line: number });
                    if checks::sitemap(value) {
                        store.file_wide(b'S', value, number);
                    }
                }
                Type::Host | Type::CleanParam | Type::CrawlDelay | Type::Unknown => {
                    self.yandex_extension(&record, kind);
                    match kind {
                        Type::Host => {
                            let lower = value.to_ascii_lowercase();
                            if checks::host(&lower) {
                                store.file_wide(b'H', &lower, number);
                            }
                        }
                        Type::CleanParam => {
                            if let Some(stored) = clean_param::stored(value) {
                                store.file_wide(b'P', &stored, number);
                            }
                        }
                        Type::CrawlDelay => store.crawl_delay(value, number),
                        _ => {}
                    }
                }
            }
        }
        self.flush_invalid();
        if input.len() < whole.len() {
            let span = Span {
                line: line_count + 1,
                bytes: input.len()..whole.len(),
                column: 1,
            };
            self.note(span, What::FileTooLarge);
        }
        let stats = InputStats {
            input_bytes: whole.len(),
            parsed_bytes: input.len(),
            lines: line_count,
            had_bom,
            had_invalid_utf8: !self.invalid_utf8.is_empty(),
        };
        let select_robots = self.profile.group_selection == GroupSelection::RobotPrefix;
        let mut robots = self.finish(stats);
        if select_robots {
            robots.robot_table = Some(Box::new(store.finish()));
        }
        robots
    }

    fn yandex_user_agent(
        &mut self,
        record: &Record<'_>,
        new_group: bool,
        store: &mut store::Store,
        lower: &mut Vec<u8>,
    ) {
        if self.groups.is_empty() || new_group {
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
            store.new_group();
        }
        let value = record.value;
        lower.clear();
        lower.extend(value.iter().map(u8::to_ascii_lowercase));
        let global = lower == b"*";
        let token_len = if global { 0 } else { token_len(value) as u32 };
        let agent = self.agents.len() as u32;
        let text = self.push_text(value, record.lossy);
        self.agents.push(AgentRecord {
            value: text,
            line: record.line.number,
            token_len,
            global,
        });
        let group = self.groups.len() as u32 - 1;
        if let Some(last) = self.groups.last_mut() {
            last.agents.end = self.agents.len() as u32;
        }
        store.user_agent(lower, agent, group, record.line.number);
    }

    /// A rule before any user-agent line: kept, in no group (every robot
    /// ignores it).
    fn yandex_orphan_rule(&mut self, record: &Record<'_>, allow: bool) {
        let pattern = self.push_raw(record.value);
        self.rules.push(RuleRecord {
            pattern,
            line: record.line.number,
            flags: if allow { RULE_ALLOW } else { 0 },
        });
        self.keep_original(record);
        self.orphan_rules += 1;
        let span = self.span_of(&record.line, trim(record.line.bytes));
        self.note(span, What::RuleBeforeUserAgent { allow });
    }

    /// A rule of the current group: dropped when its value starts with
    /// neither `/` nor `*`; `Allow:` empty is dropped, `Disallow:` empty
    /// reads as `Allow: /`.
    fn yandex_rule(&mut self, record: &Record<'_>, allow: bool, store: &mut store::Store) {
        let value = record.value;
        if value.first().is_some_and(|&b| b != b'/' && b != b'*') {
            let span = self.span_of(&record.line, value);
            let value = self.push_text(value, true);
            self.note(span, What::PathNotAbsolute { value, allow });
            return;
        }
        if value.is_empty() && allow {
            return;
        }
        let index = self.rules.len() as u32;
        let (pattern, flags) = if value.is_empty() {
            let pattern = self.push_ascii(b"/");
            let original = self.push_ascii(b"");
            self.originals.push((index, original));
            (pattern, RULE_HAS_ORIGINAL | RULE_EMPTY_ALLOWS)
        } else {
            let pattern = self.push_raw(value);
            let flags = if allow { RULE_ALLOW } else { 0 };
            (pattern, flags | self.keep_original_at(index, record))
        };
        self.rules.push(RuleRecord {
            pattern,
            line: record.line.number,
            flags,
        });
        if let Some(group) = self.groups.last_mut() {
            group.rules.end = self.rules.len() as u32;
        }
        if !store.takes_records() {
            return;
        }
        let (stored, allows) = if value.is_empty() {
            (&b"/"[..], true)
        } else {
            (value, allow)
        };
        store.for_current(
            &store::Record::rule(index, stored, allows),
            record.line.number,
        );
    }

    /// Any other record: in the current group, or before every group.
    fn yandex_extension(&mut self, record: &Record<'_>, kind: Type) {
        let kind = match kind {
            Type::Host => ExtensionKind::Host,
            Type::CleanParam => ExtensionKind::CleanParam,
            Type::CrawlDelay => ExtensionKind::CrawlDelay,
            _ => ExtensionKind::from_field(&String::from_utf8_lossy(record.key)),
        };
        let key = self.push_text(record.key, record.lossy);
        let value = self.push_text(record.value, record.lossy);
        self.extensions.push(ExtensionRecord {
            kind,
            key,
            value,
            line: record.line.number,
        });
        match self.groups.last_mut() {
            Some(group) => group.extensions.end = self.extensions.len() as u32,
            None => self.file_extensions += 1,
        }
    }

    /// A rule's value as written, byte for byte: Yandex compares bytes, so
    /// a value that is not UTF-8 is matched as it is (and shown through
    /// its original).
    fn push_raw(&mut self, bytes: &[u8]) -> Str {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(bytes);
        Str {
            start,
            len: bytes.len() as u32,
        }
    }

    /// For a value that is not UTF-8, a readable copy as its original.
    fn keep_original(&mut self, record: &Record<'_>) {
        let index = self.rules.len() as u32 - 1;
        let flags = self.keep_original_at(index, record);
        if let Some(rule) = self.rules.last_mut() {
            rule.flags |= flags;
        }
    }

    fn keep_original_at(&mut self, index: u32, record: &Record<'_>) -> u8 {
        // A line with no invalid sequence in it is UTF-8, and so is a value
        // cut from it at ASCII bytes: only a lossy line is checked again.
        if !record.lossy || std::str::from_utf8(record.value).is_ok() {
            return 0;
        }
        let original = self.push_text(record.value, true);
        self.originals.push((index, original));
        RULE_HAS_ORIGINAL
    }
}

#[cfg(test)]
mod tests {
    use super::YandexLines;
    use crawlgate_test_support::Rng;

    fn lines(input: &[u8]) -> Vec<(u32, &[u8])> {
        YandexLines::new(input)
            .map(|(number, start, end, _)| (number, &input[start..end]))
            .collect()
    }

    #[test]
    fn lines_end_as_the_parser_ends_them() {
        assert_eq!(lines(b"a\nb"), [(1, &b"a"[..]), (2, b"b")]);
        assert_eq!(lines(b"a\r\nb\r\n"), [(1, &b"a"[..]), (2, b"b")]);
        assert_eq!(lines(b"a\n\nb\n"), [(1, &b"a"[..]), (2, b""), (3, b"b")]);
        // CR CR: the second CR opens the next line; no empty line between.
        assert_eq!(lines(b"a\r\rb"), [(1, &b"a"[..]), (3, b"b")]);
        assert_eq!(lines(b"a\r\r\rb"), [(1, &b"a"[..]), (3, b""), (4, b"b")]);
        assert_eq!(lines(b"a\r\r\nb"), [(1, &b"a"[..]), (2, b""), (3, b"b")]);
        assert_eq!(lines(b"a\rb\r"), [(1, &b"a"[..]), (2, b"b")]);
        // A CR CR at the end opens one more, empty line.
        assert_eq!(lines(b"a\r\r"), [(1, &b"a"[..]), (3, b"")]);
        assert_eq!(lines(b"\r\r"), [(1, &b""[..]), (3, b"")]);
        assert_eq!(lines(b""), []);
        assert_eq!(lines(b"\n"), [(1, &b""[..])]);
    }

    /// Yandex's parser's way of cutting lines, a byte at a time: a CR or
    /// LF ends a line, and the byte after a CR opens the next one (an LF
    /// there is skipped, a CR is whitespace that ends nothing).
    fn bytewise(input: &[u8]) -> Vec<(u32, usize, usize)> {
        let ends_before = |to: usize| {
            (0..to)
                .filter(|&i| {
                    input[i] == b'\n' || (input[i] == b'\r' && input.get(i + 1) != Some(&b'\n'))
                })
                .count() as u32
        };
        let mut out = Vec::new();
        let (mut pos, mut after_cr) = (0, false);
        loop {
            let mut start = pos;
            let mut opened = false;
            if after_cr {
                let Some(&c) = input.get(pos) else { break };
                pos += 1;
                if c == b'\n' {
                    start = pos;
                } else {
                    opened = true;
                }
            }
            let end = match input[pos..].iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(at) => {
                    after_cr = input[pos + at] == b'\r';
                    let end = pos + at;
                    pos = end + 1;
                    end
                }
                None if !opened && pos == input.len() => break,
                None => {
                    pos = input.len();
                    input.len()
                }
            };
            if start < end && input[start] == b'\r' {
                start += 1;
            }
            out.push((ends_before(start) + 1, start, end));
        }
        out
    }

    #[test]
    fn lines_are_the_parsers_on_any_mix_of_line_ends() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for round in 0..20_000 {
            let len = 1 + round % 150;
            let input: Vec<u8> = (0..len).map(|_| rng.pick(b"\n\r\r#a ")).collect();
            let ours: Vec<(u32, usize, usize)> = YandexLines::new(&input)
                .map(|(number, start, end, comment)| {
                    let hash = input[start..end].iter().position(|&b| b == b'#');
                    assert_eq!(comment - start, hash.unwrap_or(end - start), "{input:?}");
                    (number, start, end)
                })
                .collect();
            assert_eq!(ours, bytewise(&input), "{input:?}");
        }
    }
}
