//! The parsed model: [`RobotsTxt`] and the borrowed views of its parts.
//!
//! Everything a file holds lives in one owned string (the arena) addressed by
//! `u32` offsets, plus a few flat vectors of small fixed-size records. Groups
//! are contiguous ranges of those vectors, because a group's user-agent lines,
//! rules and extension records all follow each other in the file. This keeps
//! the heap of a parsed file close to the size of the file itself.

use std::fmt;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::diagnostic::{Diagnostic, Span};
use crate::extension::{
    ContentSignal, ContentUsage, CrawlDelay, ExtensionKind, RequestRate, VisitTime,
};
use crate::field::Field;
use crate::profile::Profile;

/// A string in the arena: offset and length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Str {
    pub start: u32,
    pub len: u32,
}

impl Str {
    pub(crate) fn range(self) -> Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

crate::word_table! {
    /// Whether a rule allows or disallows.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum RuleKind {
        /// An `allow` line.
        Allow = "Allow",
        /// A `disallow` line.
        Disallow = "Disallow",
    }
}

pub(crate) const RULE_ALLOW: u8 = 1;
pub(crate) const RULE_HAS_ORIGINAL: u8 = 2;
pub(crate) const RULE_HAS_ALIAS: u8 = 4;
/// Yandex: an empty `Disallow:`, read as `Allow: /` (its pattern is `/`,
/// its original the empty value).
pub(crate) const RULE_EMPTY_ALLOWS: u8 = 8;

#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleRecord {
    /// The normalised pattern.
    pub pattern: Str,
    pub line: u32,
    pub flags: u8,
}

impl RuleRecord {
    pub(crate) fn kind(&self) -> RuleKind {
        if self.flags & RULE_ALLOW != 0 {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct AgentRecord {
    /// The value as written (whitespace stripped).
    pub value: Str,
    pub line: u32,
    /// Length of the product token at the start of `value`.
    pub token_len: u32,
    pub global: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct GroupRecord {
    pub agents: Range<u32>,
    pub rules: Range<u32>,
    pub extensions: Range<u32>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtensionRecord {
    pub kind: ExtensionKind,
    pub key: Str,
    pub value: Str,
    pub line: u32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct SitemapRecord {
    pub url: Str,
    pub line: u32,
}

/// The crawlers sharing one set of groups: every group that names one
/// product token (compared case-insensitively).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Audience {
    /// The token as first written, in the arena.
    pub token: Str,
    /// Range into `audience_groups`.
    pub groups: (u32, u32),
}

/// Facts about the input as a whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputStats {
    /// Bytes given to the parser.
    pub input_bytes: usize,
    /// Bytes actually read (at most the profile's limit, without a cut last line).
    pub parsed_bytes: usize,
    /// Lines read (CR, LF and CR LF each end one line).
    pub lines: u32,
    /// Whether a UTF-8 byte order mark was skipped.
    pub had_bom: bool,
    /// Whether some bytes are not valid UTF-8.
    pub had_invalid_utf8: bool,
}

impl InputStats {
    /// Whether bytes past the size limit were ignored.
    pub fn truncated(&self) -> bool {
        self.parsed_bytes < self.input_bytes
    }
}

/// One parse finding: where, and what (with the data its message needs).
#[derive(Clone, Debug)]
pub(crate) struct Finding {
    pub span: Span,
    pub what: What,
}

/// The kinds of parse finding. Text they quote (a field name, a rule path)
/// lives in the model's string arena.
#[derive(Clone, Copy, Debug)]
pub(crate) enum What {
    ByteOrderMark,
    InvalidUtf8,
    /// The span covers the bytes past the line limit.
    LineTooLong,
    NulByte,
    /// A run of non-record lines from `span.line` to `last_line`.
    InvalidLines {
        lines: u32,
        last_line: u32,
        html: bool,
    },
    /// The span covers the bytes past the file limit.
    FileTooLarge,
    /// The span is the first bare CR.
    CrLineEndings {
        lines: u32,
    },
    /// `shown` is the line as `field: value`.
    MissingColon {
        shown: Str,
    },
    /// A field name read as `field` although not spelt as it.
    FieldSpelling {
        key: Str,
        field: Field,
        how: Misspelling,
    },
    PathNotAbsolute {
        value: Str,
        allow: bool,
    },
    /// urllib's reading: a blank line closed the record before this rule.
    RuleAfterBlankLine {
        allow: bool,
    },
    RuleBeforeUserAgent {
        allow: bool,
    },
}

/// How a field name differs from the canonical one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Misspelling {
    /// Longer, starting with the canonical name: Google reads it.
    Prefix,
    /// A misspelling this reading accepts.
    Typo,
    /// A misspelling this reading ignores (lenient readings accept it).
    Rejected,
}

/// A parsed robots.txt file.
///
/// Built by [`RobotsTxt::parse`] (which never fails and never panics, whatever
/// the bytes), queried through [`RobotsTxt::decide`] (one question) or a
/// per-crawler [`AgentView`](crate::AgentView) from [`RobotsTxt::view`]
/// (many). It is plain data, the file's records and nothing built by
/// queries, and `Send + Sync`: share one parse among threads.
///
/// ```
/// use crawlgate::RobotsTxt;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /private\nSitemap: https://example.com/sitemap.xml\n");
/// assert!(!robots.is_allowed("mybot", "https://example.com/private/page"));
/// assert_eq!(robots.groups().len(), 1);
/// assert_eq!(robots.sitemaps().next().unwrap().url(), "https://example.com/sitemap.xml");
/// ```
#[derive(Clone)]
pub struct RobotsTxt {
    pub(crate) profile: Profile,
    /// The values of the file's lines back to back (normalised where rules
    /// need it), which every record points into. Valid UTF-8 by
    /// construction: the parser only cuts validated input at ASCII bytes,
    /// and writes ASCII or replacement characters itself; Yandex's reading
    /// alone keeps a rule's bytes as written (with a readable original when
    /// they are not UTF-8). Parsing skips a pass over it all: pieces are
    /// checked when asked for as `&str` ([`TextCopy`]).
    pub(crate) text: Vec<u8>,
    pub(crate) text_copy: TextCopy,
    pub(crate) agents: Vec<AgentRecord>,
    pub(crate) rules: Vec<RuleRecord>,
    pub(crate) extensions: Vec<ExtensionRecord>,
    pub(crate) groups: Vec<GroupRecord>,
    pub(crate) sitemaps: Vec<SitemapRecord>,
    /// Rules before any user-agent line (ignored): `rules[..orphan_rules]`.
    pub(crate) orphan_rules: u32,
    /// Extension records before any user-agent line: `extensions[..file_extensions]`.
    pub(crate) file_extensions: u32,
    /// Value as written, for rules whose normalised pattern differs.
    pub(crate) originals: Vec<(u32, Str)>,
    /// Google's `index.html` alias pattern for allow rules that have one.
    pub(crate) aliases: Vec<(u32, Str)>,
    pub(crate) audiences: Vec<Audience>,
    pub(crate) audience_groups: Vec<u32>,
    /// Range into `audience_groups`: the `*` groups.
    pub(crate) global_groups: (u32, u32),
    /// Under [`GroupSelection::RobotPrefix`](crate::GroupSelection::RobotPrefix):
    /// what Yandex's parser stored for each robot of its table.
    pub(crate) robot_table: Option<Box<crate::yandex::table::RobotTable>>,
    /// What the parser noticed, compactly; written out as `diagnostics`
    /// on first request.
    pub(crate) findings: Vec<Finding>,
    pub(crate) diagnostics: OnceLock<Vec<Diagnostic>>,
    pub(crate) stats: InputStats,
}

/// The text arena as a `str`, for a model whose pieces are asked for as
/// `&str` many times (the linter reads each rule's pattern dozens of
/// times). Pieces are checked for UTF-8 one by one until the bytes checked
/// reach the arena's length; then the arena is checked and copied
/// once, and later pieces are sliced from the copy. A model asked for a
/// few pieces (a crawler's verdicts) never holds the copy.
#[derive(Debug, Default)]
pub(crate) struct TextCopy {
    /// The copy, or `None` when the arena is not UTF-8 (Yandex's reading
    /// of bytes that are not): then every piece is checked on its own.
    copy: OnceLock<Option<Box<str>>>,
    /// Bytes checked piece by piece so far. A heuristic: a lost update
    /// between threads only delays the copy.
    checked: AtomicUsize,
}

impl Clone for TextCopy {
    fn clone(&self) -> Self {
        TextCopy {
            copy: self.copy.clone(),
            checked: AtomicUsize::new(self.checked.load(Ordering::Relaxed)),
        }
    }
}

impl TextCopy {
    /// The heap bytes of the copy, if made.
    fn heap_size(&self) -> usize {
        self.copy
            .get()
            .map_or(0, |t| t.as_ref().map_or(0, |t| t.len()))
    }
}

impl fmt::Debug for RobotsTxt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RobotsTxt")
            .field("profile", &self.profile.name)
            .field("groups", &self.groups().collect::<Vec<_>>())
            .field("sitemaps", &self.sitemaps().collect::<Vec<_>>())
            .field("diagnostics", &self.findings.len())
            .finish()
    }
}

impl RobotsTxt {
    /// The `*` groups, in file order.
    pub(crate) fn global_group_list(&self) -> &[u32] {
        let (start, end) = self.global_groups;
        &self.audience_groups[start as usize..end as usize]
    }

    /// One piece checked on its own: for a piece read once per answer on
    /// a crawler's path (its own name), which never needs the copy.
    pub(crate) fn str_alone(&self, s: Str) -> &str {
        std::str::from_utf8(&self.text[s.range()]).unwrap_or("\u{FFFD}")
    }

    /// A piece of the text: checked on its own, or sliced from the copy
    /// once the pieces checked have cost as much as the text ([`TextCopy`]).
    pub(crate) fn str(&self, s: Str) -> &str {
        let copy = &self.text_copy;
        let whole = match copy.copy.get() {
            Some(whole) => whole,
            None => {
                let checked = copy.checked.load(Ordering::Relaxed) + s.len as usize;
                if checked <= self.text.len() {
                    copy.checked.store(checked, Ordering::Relaxed);
                    return self.str_alone(s);
                }
                copy.copy
                    .get_or_init(|| simdutf8::basic::from_utf8(&self.text).ok().map(Box::from))
            }
        };
        // A piece cut inside a character is no text: the same `U+FFFD` as
        // checking its bytes alone gives.
        whole
            .as_deref()
            .and_then(|text| text.get(s.range()))
            .unwrap_or_else(|| self.str_alone(s))
    }

    /// The profile this file was parsed with.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The groups, in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'_>> + '_ {
        (0..self.groups.len() as u32).map(move |index| Group {
            robots: self,
            index,
        })
    }

    /// The group at `index` (file order), if there is one.
    pub fn group(&self, index: usize) -> Option<Group<'_>> {
        (index < self.groups.len()).then_some(Group {
            robots: self,
            index: index as u32,
        })
    }

    /// Every `Sitemap:` line, in file order. Sitemaps belong to no group.
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = Sitemap<'_>> + '_ {
        self.sitemaps.iter().map(move |record| Sitemap {
            robots: self,
            record,
        })
    }

    /// Allow and disallow lines that came before any user-agent line. Every
    /// crawler ignores them.
    pub fn ignored_rules(&self) -> impl ExactSizeIterator<Item = Rule<'_>> + '_ {
        (0..self.orphan_rules).map(move |index| Rule {
            robots: self,
            index,
        })
    }

    /// Extension records (crawl-delay, host, unknown fields…) that came before
    /// any user-agent line.
    pub fn file_extensions(&self) -> impl ExactSizeIterator<Item = Extension<'_>> + '_ {
        (0..self.file_extensions).map(move |index| Extension::new(self, index))
    }

    /// Every extension record in file order, in groups or not.
    pub fn extensions(&self) -> impl ExactSizeIterator<Item = Extension<'_>> + '_ {
        (0..self.extensions.len() as u32).map(move |index| Extension::new(self, index))
    }

    /// Every user-agent line in file order.
    pub fn user_agents(&self) -> impl ExactSizeIterator<Item = UserAgent<'_>> + '_ {
        (0..self.agents.len() as u32).map(move |index| UserAgent {
            robots: self,
            index,
        })
    }

    /// Every rule (allow/disallow line) in file order, ignored ones included.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = Rule<'_>> + '_ {
        (0..self.rules.len() as u32).map(move |index| Rule {
            robots: self,
            index,
        })
    }

    /// Size and encoding facts about the input.
    pub fn stats(&self) -> &InputStats {
        &self.stats
    }

    /// The heap bytes this model holds: right after parsing, plus the
    /// written diagnostics once [`diagnostics`](Self::diagnostics) has been
    /// called. (Compiled rules belong to the views that build them.)
    ///
    /// ```
    /// let mut body = String::from("User-agent: *\n");
    /// for i in 0..100 {
    ///     body.push_str(&format!("Disallow: /private/{i}/\n"));
    /// }
    /// let robots = crawlgate::RobotsTxt::parse(body.as_bytes());
    /// assert!(robots.heap_size() <= 2 * body.len());
    /// ```
    pub fn heap_size(&self) -> usize {
        self.heap_parts().iter().map(|&(_, bytes)| bytes).sum()
    }

    /// [`heap_size`](Self::heap_size) by part: `(name, bytes)`.
    pub fn heap_parts(&self) -> [(&'static str, usize); 9] {
        use std::borrow::Cow;
        use std::mem::size_of;
        let owned = |text: &Cow<'static, str>| match text {
            Cow::Owned(s) => s.capacity(),
            Cow::Borrowed(_) => 0,
        };
        let written = self.diagnostics.get().map_or(&[][..], Vec::as_slice);
        let messages = std::mem::size_of_val(written)
            + written
                .iter()
                .map(|d| {
                    owned(&d.message)
                        + d.fix.as_ref().map_or(0, |f| {
                            owned(&f.message) + f.replacement.as_ref().map_or(0, String::capacity)
                        })
                })
                .sum::<usize>();
        [
            ("text", self.text.capacity() + self.text_copy.heap_size()),
            ("agents", self.agents.capacity() * size_of::<AgentRecord>()),
            ("rules", self.rules.capacity() * size_of::<RuleRecord>()),
            (
                "extensions",
                self.extensions.capacity() * size_of::<ExtensionRecord>(),
            ),
            ("groups", self.groups.capacity() * size_of::<GroupRecord>()),
            (
                "sitemaps",
                self.sitemaps.capacity() * size_of::<SitemapRecord>(),
            ),
            (
                "indexes",
                (self.originals.capacity() + self.aliases.capacity()) * size_of::<(u32, Str)>()
                    + self.audiences.capacity() * size_of::<Audience>()
                    + self.audience_groups.capacity() * 4
                    + self.robot_table.as_ref().map_or(0, |t| t.heap_size()),
            ),
            (
                "diagnostics",
                self.findings.capacity() * size_of::<Finding>(),
            ),
            ("messages", messages),
        ]
    }

    pub(crate) fn original_of(&self, rule: u32) -> Option<Str> {
        self.originals
            .binary_search_by_key(&rule, |&(r, _)| r)
            .ok()
            .map(|i| self.originals[i].1)
    }

    pub(crate) fn alias_of(&self, rule: u32) -> Option<Str> {
        self.aliases
            .binary_search_by_key(&rule, |&(r, _)| r)
            .ok()
            .map(|i| self.aliases[i].1)
    }
}

/// One group: one or more user-agent lines and the rules and extension
/// records after them, up to the next user-agent line that follows a rule.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    pub(crate) robots: &'a RobotsTxt,
    pub(crate) index: u32,
}

impl<'a> Group<'a> {
    fn record(&self) -> &'a GroupRecord {
        &self.robots.groups[self.index as usize]
    }

    /// Position of the group in the file (0-based).
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// The user-agent lines that open the group.
    pub fn user_agents(&self) -> impl ExactSizeIterator<Item = UserAgent<'a>> + use<'a> {
        let robots = self.robots;
        self.record()
            .agents
            .clone()
            .map(move |index| UserAgent { robots, index })
    }

    /// The group's allow and disallow lines, in file order.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = Rule<'a>> + use<'a> {
        let robots = self.robots;
        self.record()
            .rules
            .clone()
            .map(move |index| Rule { robots, index })
    }

    /// The group's extension records (crawl-delay, request-rate, unknown
    /// fields…), in file order.
    pub fn extensions(&self) -> impl ExactSizeIterator<Item = Extension<'a>> + use<'a> {
        let robots = self.robots;
        self.record()
            .extensions
            .clone()
            .map(move |index| Extension::new(robots, index))
    }

    /// Whether the group names every crawler (`User-agent: *`).
    pub fn is_global(&self) -> bool {
        self.user_agents().any(|agent| agent.is_global())
    }

    /// The line of the group's first user-agent line.
    pub fn first_line(&self) -> u32 {
        self.robots.agents[self.record().agents.start as usize].line
    }

    /// The line of the group's last record.
    pub fn last_line(&self) -> u32 {
        let record = self.record();
        let mut last = self.robots.agents[record.agents.end as usize - 1].line;
        if record.rules.end > record.rules.start {
            last = last.max(self.robots.rules[record.rules.end as usize - 1].line);
        }
        if record.extensions.end > record.extensions.start {
            last = last.max(self.robots.extensions[record.extensions.end as usize - 1].line);
        }
        last
    }

    /// The first valid `Crawl-delay` of the group, when the profile obeys
    /// its value ([`Profile::obeys_crawl_delay`]: Bing reads 1–30 s only).
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let body = b"User-agent: *\nCrawl-delay: 60\n";
    /// let group = |profile| RobotsTxt::parse_with(body, profile).groups().next().unwrap().crawl_delay();
    /// assert_eq!(group(Profile::GOOGLE).unwrap().seconds, 60.0);
    /// assert_eq!(group(Profile::BING), None);
    /// ```
    pub fn crawl_delay(&self) -> Option<CrawlDelay> {
        let profile = self.robots.profile;
        self.extensions()
            .find_map(|e| e.crawl_delay())
            .filter(|d| profile.obeys_crawl_delay(d.seconds))
    }

    /// The first valid `Request-rate` of the group.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.extensions().find_map(|e| e.request_rate())
    }

    /// The first valid `Visit-time` of the group.
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.extensions().find_map(|e| e.visit_time())
    }

    /// Every `Content-Usage` record of the group.
    pub fn content_usage(&self) -> impl Iterator<Item = ContentUsage<'a>> + use<'a> {
        self.extensions().filter_map(|e| e.content_usage())
    }

    /// The first `Content-Signal` record of the group.
    pub fn content_signal(&self) -> Option<ContentSignal<'a>> {
        self.extensions().find_map(|e| e.content_signal())
    }
}

impl fmt::Debug for Group<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("index", &self.index)
            .field("user_agents", &self.user_agents().collect::<Vec<_>>())
            .field("rules", &self.rules().collect::<Vec<_>>())
            .field("extensions", &self.extensions().collect::<Vec<_>>())
            .finish()
    }
}

/// One `user-agent` line.
#[derive(Clone, Copy)]
pub struct UserAgent<'a> {
    pub(crate) robots: &'a RobotsTxt,
    pub(crate) index: u32,
}

impl<'a> UserAgent<'a> {
    fn record(&self) -> &'a AgentRecord {
        &self.robots.agents[self.index as usize]
    }

    /// The value as written (whitespace around it removed).
    pub fn value(&self) -> &'a str {
        self.robots.str(self.record().value)
    }

    /// The product token the value names: its leading run of `[A-Za-z_-]`
    /// (`Googlebot/2.1` names `Googlebot`, `Googlebot Image` names
    /// `Googlebot`). Empty for `*`.
    pub fn token(&self) -> &'a str {
        let record = self.record();
        &self.value()[..record.token_len as usize]
    }

    /// Whether the line names every crawler (`*`).
    pub fn is_global(&self) -> bool {
        self.record().global
    }

    /// Whether the value is exactly `*` or a product token (no version, no
    /// spaces).
    ///
    /// ```
    /// let robots = crawlgate::RobotsTxt::parse(b"User-agent: Googlebot\nUser-agent: Googlebot/2.1\nUser-agent: *\n");
    /// let plain: Vec<bool> = robots.user_agents().map(|ua| ua.is_plain_token()).collect();
    /// assert_eq!(plain, [true, false, true]);
    /// ```
    pub fn is_plain_token(&self) -> bool {
        if self.is_global() {
            self.value() == "*"
        } else {
            crate::token::is_product_token(self.value())
        }
    }

    /// 1-based line number.
    pub fn line(&self) -> u32 {
        self.record().line
    }

    /// The group this line opens.
    pub fn group(&self) -> Group<'a> {
        let index = self
            .robots
            .groups
            .partition_point(|g| g.agents.end <= self.index) as u32;
        Group {
            robots: self.robots,
            index,
        }
    }
}

impl fmt::Debug for UserAgent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: User-agent: {}", self.line(), self.value())
    }
}

/// One allow or disallow line.
#[derive(Clone, Copy)]
pub struct Rule<'a> {
    pub(crate) robots: &'a RobotsTxt,
    pub(crate) index: u32,
}

impl<'a> Rule<'a> {
    fn record(&self) -> &'a RuleRecord {
        &self.robots.rules[self.index as usize]
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        self.record().kind()
    }

    /// Whether this is an allow rule.
    pub fn is_allow(&self) -> bool {
        self.kind() == RuleKind::Allow
    }

    /// The path pattern as matched: non-ASCII bytes percent-encoded and
    /// percent escapes in uppercase hex (and, in the rfc9309 profile,
    /// escapes of unreserved characters decoded).
    pub fn pattern(&self) -> &'a str {
        self.robots.str(self.record().pattern)
    }

    /// The value as written in the file (whitespace around it removed).
    pub fn value(&self) -> &'a str {
        let record = self.record();
        if record.flags & RULE_HAS_ORIGINAL != 0
            && let Some(original) = self.robots.original_of(self.index)
        {
            return self.robots.str(original);
        }
        self.robots.str(record.pattern)
    }

    /// Whether the value is empty (`Disallow:` alone): such a rule matches
    /// nothing and allows everything (Yandex reads it as `Allow: /`).
    pub fn is_empty(&self) -> bool {
        self.record().pattern.len == 0 || self.record().flags & RULE_EMPTY_ALLOWS != 0
    }

    /// Whether the reading takes this rule as an allow: an `Allow` line, or
    /// (Yandex) an empty `Disallow:`.
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let robots = RobotsTxt::parse_with(b"User-agent: *\nDisallow:\n", Profile::YANDEX);
    /// let rule = robots.rules().next().unwrap();
    /// assert!(!rule.is_allow() && rule.allows() && rule.is_empty());
    /// assert_eq!(rule.pattern(), "/");
    /// assert_eq!(rule.to_string(), "Disallow:");
    /// ```
    pub fn allows(&self) -> bool {
        self.record().flags & (RULE_ALLOW | RULE_EMPTY_ALLOWS) != 0
    }

    /// Google's alias: for `Allow: /dir/index.html` the pattern `/dir/$`,
    /// which also allows the directory itself.
    pub fn index_alias(&self) -> Option<&'a str> {
        let record = self.record();
        (record.flags & RULE_HAS_ALIAS != 0)
            .then(|| self.robots.alias_of(self.index))
            .flatten()
            .map(|s| self.robots.str(s))
    }

    /// 1-based line number.
    pub fn line(&self) -> u32 {
        self.record().line
    }

    /// Position among all rules of the file (0-based, file order).
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// The group the rule belongs to; `None` for a rule before any user-agent.
    pub fn group(&self) -> Option<Group<'a>> {
        if self.index < self.robots.orphan_rules {
            return None;
        }
        let index = self
            .robots
            .groups
            .partition_point(|g| g.rules.end <= self.index) as u32;
        Some(Group {
            robots: self.robots,
            index,
        })
    }
}

impl fmt::Debug for Rule<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.line(), self.kind(), self.value())
    }
}

impl fmt::Display for Rule<'_> {
    /// `Disallow: /private` (the value as written).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value().is_empty() {
            write!(f, "{}:", self.kind())
        } else {
            write!(f, "{}: {}", self.kind(), self.value())
        }
    }
}

/// One `Sitemap:` line.
#[derive(Clone, Copy)]
pub struct Sitemap<'a> {
    robots: &'a RobotsTxt,
    record: &'a SitemapRecord,
}

impl<'a> Sitemap<'a> {
    /// The URL as written.
    pub fn url(&self) -> &'a str {
        self.robots.str(self.record.url)
    }

    /// 1-based line number.
    pub fn line(&self) -> u32 {
        self.record.line
    }
}

impl fmt::Debug for Sitemap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: Sitemap: {}", self.line(), self.url())
    }
}

/// One extension record.
#[derive(Clone, Copy)]
pub struct Extension<'a> {
    robots: &'a RobotsTxt,
    index: u32,
}

impl<'a> Extension<'a> {
    pub(crate) fn new(robots: &'a RobotsTxt, index: u32) -> Self {
        Extension { robots, index }
    }

    fn record(&self) -> &'a ExtensionRecord {
        &self.robots.extensions[self.index as usize]
    }

    /// What the field is.
    pub fn kind(&self) -> ExtensionKind {
        self.record().kind
    }

    /// The field name as written.
    pub fn key(&self) -> &'a str {
        self.robots.str(self.record().key)
    }

    /// The value as written (whitespace around it removed).
    pub fn value(&self) -> &'a str {
        self.robots.str(self.record().value)
    }

    /// 1-based line number.
    pub fn line(&self) -> u32 {
        self.record().line
    }

    /// The group the record sits in; `None` before any user-agent line.
    pub fn group(&self) -> Option<Group<'a>> {
        if self.index < self.robots.file_extensions {
            return None;
        }
        let index = self
            .robots
            .groups
            .partition_point(|g| g.extensions.end <= self.index);
        self.robots.group(index)
    }

    /// The crawl delay, if this is a valid `Crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<CrawlDelay> {
        (self.kind() == ExtensionKind::CrawlDelay)
            .then(|| CrawlDelay::parse(self.value(), self.line()))
            .flatten()
    }

    /// The request rate, if this is a valid `Request-rate` record.
    pub fn request_rate(&self) -> Option<RequestRate> {
        (self.kind() == ExtensionKind::RequestRate)
            .then(|| RequestRate::parse(self.value(), self.line()))
            .flatten()
    }

    /// The visit window, if this is a valid `Visit-time` record.
    pub fn visit_time(&self) -> Option<VisitTime> {
        (self.kind() == ExtensionKind::VisitTime)
            .then(|| VisitTime::parse(self.value(), self.line()))
            .flatten()
    }

    /// The content-usage record, if this is a `Content-Usage` line.
    pub fn content_usage(&self) -> Option<ContentUsage<'a>> {
        (self.kind() == ExtensionKind::ContentUsage)
            .then(|| ContentUsage::parse(self.value(), self.line()))
    }

    /// The content signal, if this is a `Content-Signal` line.
    pub fn content_signal(&self) -> Option<ContentSignal<'a>> {
        (self.kind() == ExtensionKind::ContentSignal).then(|| ContentSignal {
            value: self.value(),
            line: self.line(),
        })
    }
}

impl fmt::Debug for Extension<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.line(), self.key(), self.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece of the text is the same `&str` sliced from the checked
    /// copy as checked on its own: in files of UTF-8 text, and in Yandex's
    /// reading, which keeps bytes that are not UTF-8 as written. The copy
    /// is made only once the pieces asked for have cost as much as the text.
    #[test]
    fn pieces_read_the_same_sliced_from_the_copy_or_checked_alone() {
        let inputs: [&[u8]; 3] = [
            "User-agent: *\nDisallow: /ü/\nAllow: /é$\nCrawl-delay: 2\nSitemap: https://example.com/s.xml\n"
                .as_bytes(),
            b"User-agent: Yandex\nDisallow: /\xff\xfe/\nAllow: /a\nClean-param: ref /b\n",
            b"User-agent: b\xe9\nDisallow: /x\xe9y\nDisalow: /typo\n",
        ];
        let mut kept_bytes = 0;
        for input in inputs {
            for profile in Profile::ALL {
                let robots = RobotsTxt::parse_with(input, profile);
                let pieces: Vec<Str> = robots
                    .rules
                    .iter()
                    .map(|r| r.pattern)
                    .chain(robots.agents.iter().map(|a| a.value))
                    .chain(robots.extensions.iter().flat_map(|e| [e.key, e.value]))
                    .chain(robots.sitemaps.iter().map(|s| s.url))
                    .chain(robots.originals.iter().map(|&(_, s)| s))
                    .chain(robots.audiences.iter().map(|a| a.token))
                    .collect();
                let alone: Vec<&str> = pieces.iter().map(|&s| robots.str_alone(s)).collect();
                if let Some(&first) = pieces.first() {
                    assert_eq!(robots.str(first), alone[0]);
                    assert!(
                        robots.text_copy.copy.get().is_none(),
                        "one piece makes no copy"
                    );
                }
                // Rounds of reading every piece until the copy is made, and
                // one round after it.
                let mut rounds = 0;
                let mut copied_before = false;
                while !copied_before {
                    copied_before = robots.text_copy.copy.get().is_some();
                    let sliced: Vec<&str> = pieces.iter().map(|&s| robots.str(s)).collect();
                    assert_eq!(
                        sliced,
                        alone,
                        "{profile:?} {:?}",
                        String::from_utf8_lossy(input)
                    );
                    rounds += 1;
                    assert!(rounds < 1000, "the copy is made once pieces cost the text");
                }
                let copied = robots.text_copy.copy.get().unwrap();
                assert_eq!(copied.is_some(), std::str::from_utf8(&robots.text).is_ok());
                assert_eq!(
                    robots.heap_parts()[0].1,
                    robots.text.capacity() + copied.as_ref().map_or(0, |c| c.len())
                );
                kept_bytes += usize::from(copied.is_none());
            }
        }
        assert!(kept_bytes > 0, "a reading kept bytes that are not UTF-8");
    }
}
