//! Search Console's line view: every physical line of a file classified
//! exactly as Google's reporting library (`RobotsParsingReporter` in
//! google/robotstxt, `reporting_robots.cc`), which Search Console's
//! robots.txt report is built on.
//!
//! The reporter sits on Google's parser, so lines are read here with the
//! parser's own line splitting (`parse::lines`), line splitting into key and
//! value (`parse::split`) and field names (`field`), which read lines
//! exactly as Google's parser does. Where the reporter differs from
//! crawlgate's model builder, the difference is made here, on purpose:
//!
//! * **No size limit.** Google's parser reads whatever bytes it is given;
//!   the 500 KiB limit belongs to the fetcher. The model builder stops at
//!   500 KiB; the report classifies every line.
//! * **Its own list of unused keys.** A key Google does not use is *unused*
//!   when it is one of the twelve of `kUnsupportedTags` (compared whole,
//!   ASCII case folded), else *unknown*, whatever crawlgate knows of it:
//!   `License` is a record crawlgate keeps and an unknown key to Google.
//! * **Every key Google does not use is counted** in
//!   `unused_directives`, unknown ones included (the reporter counts every
//!   `HandleUnknownAction`).
//! * **A `#` after a NUL byte is no comment.** Google's parser reads each
//!   line as a C string, so a NUL ends what it sees: the comment flags
//!   look only before the first NUL, as the line's content does.

use std::ops::Range;

use crate::diagnostic::Span;
use crate::field::{self, Field, Spelling};
use crate::parse::lines::{bom_len, Lines};
use crate::parse::split::{self, Split};
use crate::profile::{Profile, GOOGLE_MAX_LINE_BYTES};

/// The keys Google recognises and does not use (`kUnsupportedTags` of
/// `reporting_robots.cc`, google/robotstxt as of April 2026: content-signal,
/// content-usage, domain, request-rate, revisit-after and visit-time were
/// added in February 2026).
pub const UNUSED_KEYS: [&str; 12] = [
    "clean-param",
    "content-signal",
    "content-usage",
    "crawl-delay",
    "domain",
    "host",
    "noarchive",
    "nofollow",
    "noindex",
    "request-rate",
    "revisit-after",
    "visit-time",
];

crate::word_table! {
    /// Google's tag for a line (`RobotsParsedLine::RobotsTagName`): what the
    /// line's key is to Google. Empty, comment and unparseable lines are
    /// `Unknown` to Google too; [`LineKind`] tells them apart.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum ReportTag {
        /// `kUnknown`: no `key: value`, or a key Google does not recognise.
        Unknown = "unknown",
        /// `kUserAgent`.
        UserAgent = "user-agent",
        /// `kAllow`.
        Allow = "allow",
        /// `kDisallow`.
        Disallow = "disallow",
        /// `kSitemap`.
        Sitemap = "sitemap",
        /// `kUnused`: a key Google recognises and does not use ([`UNUSED_KEYS`]).
        Unused = "unused",
    }
}

/// What a line is: Google's tag, with the lines Google tags unknown without
/// a `key: value` in them told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// A user-agent line (`User-agent`, or a name Google reads as one).
    UserAgent,
    /// An allow rule.
    Allow,
    /// A disallow rule.
    Disallow,
    /// A sitemap line.
    Sitemap,
    /// `key: value` with a key Google recognises and does not use
    /// ([`UNUSED_KEYS`]): counted as an unused directive.
    Unused,
    /// `key: value` with a key Google does not recognise: tagged unknown and
    /// counted as an unused directive.
    Unknown,
    /// Nothing but whitespace (tagged unknown; Google's `is_empty`).
    Empty,
    /// Only a comment, perhaps indented (tagged unknown; Google's
    /// `is_comment`).
    Comment,
    /// Text that is not `key: value`: no key before the colon, or no colon
    /// and other than two words (tagged unknown, not counted).
    Invalid,
}

impl LineKind {
    /// Every kind, in the order reports count them.
    ///
    /// ```
    /// use crawlgate::LineKind;
    /// assert_eq!(LineKind::ALL.len(), 9);
    /// assert_eq!(LineKind::ALL[0].as_str(), "user-agent");
    /// ```
    pub const ALL: [LineKind; 9] = [
        LineKind::UserAgent,
        LineKind::Allow,
        LineKind::Disallow,
        LineKind::Sitemap,
        LineKind::Unused,
        LineKind::Unknown,
        LineKind::Empty,
        LineKind::Comment,
        LineKind::Invalid,
    ];

    /// Lowercase name: the tag's name, or `empty`, `comment`, `invalid`.
    pub fn as_str(self) -> &'static str {
        match self {
            LineKind::Empty => "empty",
            LineKind::Comment => "comment",
            LineKind::Invalid => "invalid",
            kind => kind.tag().as_str(),
        }
    }

    /// Google's tag for a line of this kind.
    pub fn tag(self) -> ReportTag {
        match self {
            LineKind::UserAgent => ReportTag::UserAgent,
            LineKind::Allow => ReportTag::Allow,
            LineKind::Disallow => ReportTag::Disallow,
            LineKind::Sitemap => ReportTag::Sitemap,
            LineKind::Unused => ReportTag::Unused,
            LineKind::Unknown | LineKind::Empty | LineKind::Comment | LineKind::Invalid => {
                ReportTag::Unknown
            }
        }
    }

    /// Whether the line is `key: value` (Google's `has_directive`).
    pub fn is_directive(self) -> bool {
        !matches!(
            self,
            LineKind::Empty | LineKind::Comment | LineKind::Invalid
        )
    }
}

/// One physical line as Google's reporting library reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportedLine {
    /// 1-based line number.
    pub number: u32,
    /// The line's bytes in the input, its terminator excluded.
    pub bytes: Range<usize>,
    /// What the line is.
    pub kind: LineKind,
    /// The key is one of the misspellings Google accepts (`useragent`,
    /// `user agent`, `dissallow`, `dissalow`, `disalow`, `diasllow`,
    /// `disallaw`, `site-map`, or a name starting with one).
    pub typo: bool,
    /// `key value` without the colon, accepted by Google as `key: value`.
    pub missing_colon: bool,
    /// Longer than Google reads (16,663 bytes, "over 2083 × 8"): the rest
    /// of the line is ignored.
    pub too_long: bool,
    /// The line holds a comment (`#`), perhaps after content.
    pub has_comment: bool,
    /// The key as written, for `key: value` lines.
    pub key: Option<Span>,
    /// The key as Google knows it, lowercase: `user-agent`, `allow`,
    /// `disallow`, `sitemap`, or one of [`UNUSED_KEYS`]; `None` for an
    /// unknown key and for lines without one.
    pub known_as: Option<&'static str>,
}

impl ReportedLine {
    /// Google's tag for the line.
    pub fn tag(&self) -> ReportTag {
        self.kind.tag()
    }

    /// Whether the library marks the line: a key Google does not use or
    /// does not know, a line that is not `key: value`, an accepted typo, a
    /// missing colon, or a line too long.
    pub fn is_flagged(&self) -> bool {
        matches!(
            self.kind,
            LineKind::Unused | LineKind::Unknown | LineKind::Invalid
        ) || self.typo
            || self.missing_colon
            || self.too_long
    }
}

/// The counts of a [`SearchConsoleReport`], from
/// [`SearchConsoleReport::counts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchConsoleCounts {
    /// Lines with a key Google uses: user-agent, allow, disallow, sitemap.
    pub valid_directives: u32,
    /// `key: value` lines whose key Google does not use: unused and unknown
    /// keys alike.
    pub unused_directives: u32,
    /// Lines of [`LineKind::Unknown`].
    pub unknown_lines: u32,
}

/// Every line of a robots.txt as Google's reporting library reports it,
/// with its counts of valid and unused directives.
///
/// ```
/// use crawlgate::{LineKind, SearchConsoleReport};
///
/// let body = b"User-agent: *\nDisalow: /tmp\nCrawl-delay: 5\nunicorns: yes\n# the end\n";
/// let report = SearchConsoleReport::of(body);
/// assert_eq!(report.valid_directives(), 2); // user-agent, disallow
/// assert_eq!(report.unused_directives(), 2); // crawl-delay, unicorns
/// let kinds: Vec<&str> = report.lines().iter().map(|l| l.kind.as_str()).collect();
/// assert_eq!(kinds, ["user-agent", "disallow", "unused", "unknown", "comment", "empty"]);
/// let typo = &report.lines()[1];
/// assert!(typo.typo && typo.kind == LineKind::Disallow);
/// assert_eq!(&body[typo.key.clone().unwrap().bytes], b"Disalow");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchConsoleReport {
    lines: Vec<ReportedLine>,
    valid_directives: u32,
    unused_directives: u32,
}

impl SearchConsoleReport {
    /// Classifies every line of `input` (all of it: no size limit, as the
    /// library has none). Linear in the input; never panics.
    pub fn of(input: &[u8]) -> SearchConsoleReport {
        let mut lines = Vec::new();
        let counts = classify_lines(input, |line| lines.push(line));
        SearchConsoleReport {
            lines,
            valid_directives: counts.valid_directives,
            unused_directives: counts.unused_directives,
        }
    }

    /// The report's counts alone, without keeping its lines: what a survey
    /// of many files needs, at no allocation.
    ///
    /// ```
    /// use crawlgate::SearchConsoleReport;
    ///
    /// let body = b"User-agent: *\nDisalow: /tmp\nCrawl-delay: 5\nunicorns: yes\n";
    /// let counts = SearchConsoleReport::counts(body);
    /// assert_eq!((counts.valid_directives, counts.unused_directives, counts.unknown_lines), (2, 2, 1));
    /// ```
    pub fn counts(input: &[u8]) -> SearchConsoleCounts {
        classify_lines(input, |_| {})
    }

    /// Every physical line, in order: line `n` is `lines()[n - 1]`.
    pub fn lines(&self) -> &[ReportedLine] {
        &self.lines
    }

    /// Lines with a key Google uses: user-agent, allow, disallow, sitemap.
    pub fn valid_directives(&self) -> u32 {
        self.valid_directives
    }

    /// `key: value` lines whose key Google does not use: unused and unknown
    /// keys alike.
    pub fn unused_directives(&self) -> u32 {
        self.unused_directives
    }

    /// The lines the library marks ([`ReportedLine::is_flagged`]).
    pub fn flagged(&self) -> impl Iterator<Item = &ReportedLine> {
        self.lines.iter().filter(|line| line.is_flagged())
    }

    /// How many lines are of `kind`.
    pub fn count(&self, kind: LineKind) -> usize {
        self.lines.iter().filter(|line| line.kind == kind).count()
    }
}

/// Classifies every line of `input` in order, handing each to `on_line`,
/// and counts them.
fn classify_lines(input: &[u8], mut on_line: impl FnMut(ReportedLine)) -> SearchConsoleCounts {
    let mut counts = SearchConsoleCounts::default();
    let bom = bom_len(input);
    let has_nul = memchr::memchr(0, input).is_some();
    for line in Lines::new(input, bom, GOOGLE_MAX_LINE_BYTES, true) {
        // What Google's parser sees of the line: up to a NUL byte.
        let seen = match has_nul {
            true => memchr::memchr(0, line.bytes).unwrap_or(line.bytes.len()),
            false => line.bytes.len(),
        };
        let before_comment = line.before_comment();
        let has_comment = before_comment.len() < seen;
        let content = &before_comment[..before_comment.len().min(seen)];
        let mut reported = ReportedLine {
            number: line.number,
            bytes: line.start..line.start + line.bytes.len() + line.cut,
            kind: LineKind::Invalid,
            typo: false,
            missing_colon: false,
            too_long: line.cut > 0,
            has_comment,
            key: None,
            known_as: None,
        };
        match split::split(content) {
            Split::Nothing if has_comment => reported.kind = LineKind::Comment,
            Split::Nothing => reported.kind = LineKind::Empty,
            Split::Invalid { .. } => {}
            Split::Record {
                key, missing_colon, ..
            } => {
                let start = key.as_ptr() as usize - input.as_ptr() as usize;
                reported.key = Some(Span {
                    line: line.number,
                    bytes: start..start + key.len(),
                    column: (start - line.start + 1) as u32,
                });
                reported.missing_colon = missing_colon;
                let (kind, known_as, typo) = classify(key);
                reported.kind = kind;
                reported.known_as = known_as;
                reported.typo = typo;
                match kind.tag() {
                    ReportTag::Unknown | ReportTag::Unused => counts.unused_directives += 1,
                    _ => counts.valid_directives += 1,
                }
            }
        }
        if reported.kind == LineKind::Unknown {
            counts.unknown_lines += 1;
        }
        on_line(reported);
    }
    counts
}

/// A key's kind, the name Google knows it by, and whether it was an
/// accepted typo: Google's `GetKeyType`, then `kUnsupportedTags`.
fn classify(key: &[u8]) -> (LineKind, Option<&'static str>, bool) {
    let (field, spelling) = field::recognise(key, &Profile::GOOGLE);
    let typo = matches!(spelling, Spelling::Typo(_));
    let known = match field {
        Field::UserAgent => Some((LineKind::UserAgent, "user-agent")),
        Field::Allow => Some((LineKind::Allow, "allow")),
        Field::Disallow => Some((LineKind::Disallow, "disallow")),
        Field::Sitemap => Some((LineKind::Sitemap, "sitemap")),
        Field::Extension(_) => None,
    };
    match known {
        Some((kind, name)) => (kind, Some(name), typo),
        None => match UNUSED_KEYS
            .iter()
            .find(|name| name.as_bytes().eq_ignore_ascii_case(key))
        {
            Some(name) => (LineKind::Unused, Some(name), false),
            None => (LineKind::Unknown, None, false),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &[u8]) -> Vec<LineKind> {
        SearchConsoleReport::of(input)
            .lines()
            .iter()
            .map(|l| l.kind)
            .collect()
    }

    #[test]
    fn a_nul_hides_the_comment_after_it() {
        use LineKind::*;
        assert_eq!(kinds(b"\0# x"), [Empty]);
        assert_eq!(kinds(b"  # x\0"), [Comment]);
        let report = SearchConsoleReport::of(b"Disallow: /a\0#b");
        assert!(!report.lines()[0].has_comment);
        assert_eq!(report.lines()[0].kind, Disallow);
    }

    #[test]
    fn every_byte_of_every_line_is_covered() {
        let input = b"\xEF\xBB\xBFa: b\r\nc\rd\n\n";
        let report = SearchConsoleReport::of(input);
        let spans: Vec<&[u8]> = report
            .lines()
            .iter()
            .map(|l| &input[l.bytes.clone()])
            .collect();
        assert_eq!(spans, [&b"a: b"[..], b"c", b"d", b"", b""]);
        let key = report.lines()[0].key.clone().unwrap();
        assert_eq!((key.line, key.column, &input[key.bytes]), (1, 1, &b"a"[..]));
    }

    #[test]
    fn unused_keys_are_matched_whole_and_case_folded() {
        for name in UNUSED_KEYS {
            let upper = name.to_ascii_uppercase();
            let report = SearchConsoleReport::of(format!("{upper}: 1").as_bytes());
            assert_eq!(report.lines()[0].kind, LineKind::Unused, "{name}");
            assert_eq!(report.lines()[0].known_as, Some(name));
        }
        assert_eq!(kinds(b"crawl-delays: 1"), [LineKind::Unknown]);
        assert_eq!(kinds(b"crawl delay: 1"), [LineKind::Unknown]);
        assert_eq!(kinds(b"license: https://e/l"), [LineKind::Unknown]);
    }
}
