//! Deciding: may this crawler fetch this URL, and which line says so.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::agent::{group_iter, ChoiceKind, Selected, SelectionKind};
use crate::choice::GroupChoice;
use crate::extension::{ContentSignal, ContentUsage, CrawlDelay, RequestRate, VisitTime};
use crate::matcher::{Entry, Matcher};
use crate::model::{Group, RobotsTxt, Rule, Sitemap};
use crate::parse::normalize;
use crate::url_path::{self, path_of};
use crate::who::Who;

/// The path as the profile compares it: as given (Google), or with its
/// escapes normalised like the rules' (rfc9309, legacy).
pub(crate) fn matching_path<'p>(profile: &crate::profile::Profile, path: &'p str) -> Cow<'p, [u8]> {
    if profile.requote {
        return Cow::Owned(crate::urllib::target(path).into_bytes());
    }
    let escapes = normalize::Escapes::of(profile);
    let bytes = path.as_bytes();
    if escapes != normalize::Escapes::AsWritten && escapes.may_change(bytes) {
        let mut out = Vec::with_capacity(bytes.len() + 8);
        escapes.normalize_into(bytes, &mut out);
        Cow::Owned(out)
    } else {
        Cow::Borrowed(bytes)
    }
}

/// Why a verdict came out the way it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A rule matched and decided.
    Rule,
    /// The best match was a rule with an empty value (`Disallow:`), which
    /// allows everything.
    EmptyRule,
    /// The crawler has groups, but none of their rules matches the URL.
    NoMatchingRule,
    /// No group applies to the crawler: none names it and there is no `*`
    /// group (or, in the crawler reading, it ignores `*`).
    NoGroup,
    /// `/robots.txt` itself is always allowed (rfc9309 profile).
    RobotsTxt,
    /// The crawler reading: its operator says the crawler ignores
    /// robots.txt, so the file does not restrict it.
    IgnoresRobotsTxt,
    /// Yandex's parser stores at most about 500 KB of rules for a robot
    /// (and for all robots together); past that it allows everything.
    RuleLimit,
}

/// The answer for one crawler and one URL: allowed or not, and what decided.
///
/// ```
/// use crawlgate::{Reason, RobotsTxt, RuleKind};
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nAllow: /p\nDisallow: /\n");
/// let verdict = robots.decide("mybot", "https://example.com/page");
/// assert!(verdict.is_allowed());
/// let rule = verdict.rule().unwrap();
/// assert_eq!((rule.kind(), rule.value(), rule.line()), (RuleKind::Allow, "/p", 2));
/// assert_eq!(verdict.reason(), Reason::Rule);
/// assert_eq!(verdict.groups().next().unwrap().first_line(), 1);
/// ```
#[derive(Clone, Copy)]
pub struct Verdict<'a> {
    robots: &'a RobotsTxt,
    allowed: bool,
    reason: Reason,
    rule: Option<u32>,
    via_alias: bool,
    selection: Selected<'a>,
}

impl<'a> Verdict<'a> {
    /// Whether the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// Why.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// The rule that decided, if one did (an empty rule counts: it is the
    /// best match Google's reference reports).
    pub fn rule(&self) -> Option<Rule<'a>> {
        self.rule.map(|index| Rule {
            robots: self.robots,
            index,
        })
    }

    /// Line number of the deciding rule.
    pub fn line(&self) -> Option<u32> {
        self.rule().map(|r| r.line())
    }

    /// Whether the rule matched through Google's `index.html` alias
    /// (`Allow: /dir/index.html` also allowing `/dir/`).
    pub fn via_index_alias(&self) -> bool {
        self.via_alias
    }

    /// How the crawler's groups were chosen.
    pub fn selection(&self) -> SelectionKind {
        self.selection.kind
    }

    /// How and why the crawler's groups were chosen: the token that
    /// decided, the rule applied and its source (see [`GroupChoice`]).
    pub fn group_choice(&self) -> GroupChoice<'a> {
        GroupChoice::new(self.robots, self.selection)
    }

    /// The groups whose rules applied.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'a>> + use<'a> {
        group_iter(self.robots, self.selection.groups)
    }
}

impl fmt::Debug for Verdict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verdict")
            .field("allowed", &self.allowed)
            .field("reason", &self.reason)
            .field("rule", &self.rule())
            .field("via_index_alias", &self.via_alias)
            .field("selection", &self.selection.kind)
            .field("choice", &self.group_choice().kind())
            .finish()
    }
}

/// One rule that matches a URL, as listed by [`AgentView::matching_rules`].
#[derive(Clone, Copy, Debug)]
pub struct RuleMatch<'a> {
    /// The rule.
    pub rule: Rule<'a>,
    /// Its precedence: the length of the normalised pattern that matched.
    pub priority: u32,
    /// Matched through Google's `index.html` alias.
    pub via_index_alias: bool,
}

/// One crawler's reading of a file, for asking many questions: its groups,
/// and its rules compiled for fast lookups.
///
/// Building a view only chooses the crawler's groups. Its first four
/// questions are answered by trying each of the crawler's rules once, which
/// is cheaper than compiling them for a few questions; from the fifth on,
/// the view compiles them (once, kept inside the view) and looks answers
/// up. Both ways give the same verdicts. A view is `Send +
/// Sync` and queried through `&self`: share one among threads.
///
/// ```
/// use crawlgate::RobotsTxt;
///
/// let robots = RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nDisallow: /\n");
/// let googlebot = robots.view("Googlebot");
/// assert!(googlebot.is_allowed("https://example.com/page"));
/// assert!(!googlebot.is_allowed("https://example.com/nogoogle/x"));
/// let other = robots.view("otherbot");
/// assert!(!other.is_allowed("/page"));
/// ```
#[derive(Clone)]
pub struct AgentView<'a> {
    robots: &'a RobotsTxt,
    selection: Selected<'a>,
    rules: ViewRules<'a>,
}

/// How many questions a view answers by trying its rules before it
/// compiles them. On the real-world corpus, compiling a crawler's rules
/// costs about seven such tries, and a compiled lookup a sixth of one: a
/// view asked a few questions never compiles, one asked many soon does.
const SCANNED_QUESTIONS: u32 = 4;

/// A crawler's compiled rules, built once they have answered
/// [`SCANNED_QUESTIONS`] questions without them.
#[derive(Debug, Default)]
pub(crate) struct LazyMatcher {
    scanned: AtomicU32,
    /// In place, not boxed: what holds it (a view, a
    /// [`CrawlerRobotsTxt`](crate::CrawlerRobotsTxt)) brings what every
    /// lookup reads first with its own lines (see [`Matcher`]).
    matcher: OnceLock<Matcher>,
}

// A view holds a matcher in place: what each lookup reads first, and
// where the rest is. Kept to 88 bytes (a view of 192).
const _: () = assert!(size_of::<Matcher>() <= 88);

/// The compiled rules a [`CompiledRobotsTxt`](crate::CompiledRobotsTxt)
/// keeps for one set of groups, boxed once a view of them is made: a file
/// keeps one per set of groups, and most are never asked about.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeptMatcher(OnceLock<Box<LazyMatcher>>);

impl KeptMatcher {
    /// Whether the rules have been compiled.
    pub(crate) fn is_compiled(&self) -> bool {
        self.0.get().is_some_and(|rules| rules.is_compiled())
    }

    /// The heap held: the box, once a view was made, and its compiled
    /// rules.
    pub(crate) fn heap_size(&self) -> usize {
        self.0
            .get()
            .map_or(0, |rules| size_of::<LazyMatcher>() + rules.heap_size())
    }

    /// The rules, their box made on first need.
    fn rules(&self) -> &LazyMatcher {
        self.0.get_or_init(Box::default)
    }
}

impl Clone for LazyMatcher {
    fn clone(&self) -> Self {
        LazyMatcher {
            scanned: AtomicU32::new(self.scanned.load(Ordering::Relaxed)),
            matcher: self.matcher.clone(),
        }
    }
}

impl LazyMatcher {
    /// Whether the rules have been compiled.
    pub(crate) fn is_compiled(&self) -> bool {
        self.matcher.get().is_some()
    }

    /// The heap its compiled rules hold, once built (not the matcher's
    /// own bytes, held in place).
    pub(crate) fn heap_size(&self) -> usize {
        self.matcher.get().map_or(0, |m| m.heap_size())
    }
}

/// A view's compiled rules: its own, or those a
/// [`CompiledRobotsTxt`](crate::CompiledRobotsTxt) keeps for every
/// crawler obeying the same groups (or a
/// [`CrawlerRobotsTxt`](crate::CrawlerRobotsTxt) for its crawler).
#[derive(Clone, Debug)]
enum ViewRules<'a> {
    Own(LazyMatcher),
    Kept(&'a LazyMatcher),
}

impl ViewRules<'_> {
    #[inline]
    fn get(&self) -> &LazyMatcher {
        match self {
            ViewRules::Own(rules) => rules,
            ViewRules::Kept(rules) => rules,
        }
    }
}

impl fmt::Debug for AgentView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentView")
            .field("selection", &self.selection.kind)
            .field(
                "groups",
                &self.groups().map(|g| g.index()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl RobotsTxt {
    /// The view of one crawler, for asking it many questions: `who` is a
    /// product token (`"Googlebot"`, compared case-insensitively and as
    /// given) or a crawler a person names ([`Who::crawler`], read by the
    /// registry's rules). Building it only chooses the crawler's groups;
    /// see [`AgentView`] for when its rules are compiled.
    ///
    /// ```
    /// use crawlgate::{registry, ChoiceKind, RobotsTxt, Who};
    ///
    /// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n");
    /// // Googlebot-Image has no group: it follows Googlebot's (Google's crawler documentation).
    /// assert!(robots.view(Who::crawler("Googlebot-Image")).is_allowed("/photo.jpg"));
    /// assert!(!robots.view("Googlebot-Image").is_allowed("/photo.jpg"));
    /// // Applebot follows Googlebot's group too (Apple's documentation).
    /// assert_eq!(robots.view(Who::crawler("Applebot")).group_choice().kind(), ChoiceKind::Fallback);
    /// // AdsBot-Google ignores `*`.
    /// let ads = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
    /// assert!(ads.view(Who::crawler("AdsBot-Google")).is_allowed("/landing"));
    /// // A name the registry does not know is one token.
    /// assert!(!robots.view(Who::crawler("mybot")).is_allowed("/"));
    /// // A crawler found once in the registry, for many files.
    /// let image = registry::find("Googlebot-Image").unwrap();
    /// assert!(robots.view(image).is_allowed("/photo.jpg"));
    /// ```
    pub fn view<'w>(&self, who: impl Into<Who<'w>>) -> AgentView<'_> {
        self.view_of(self.select_who(who.into()), &[])
    }

    /// The view of `who`, compiling into (or using) `kept`, one slot per
    /// set of groups (see [`selections`](Self::selections)).
    pub(crate) fn view_keeping<'a>(
        &'a self,
        who: Who<'_>,
        kept: &'a [KeptMatcher],
    ) -> AgentView<'a> {
        self.view_of(self.select_who(who), kept)
    }

    /// The view of `who`, compiling into (or using) `rules`: for a reader
    /// that only ever views one crawler.
    pub(crate) fn view_sharing<'a>(
        &'a self,
        who: Who<'_>,
        rules: &'a LazyMatcher,
    ) -> AgentView<'a> {
        AgentView {
            robots: self,
            selection: self.select_who(who),
            rules: ViewRules::Kept(rules),
        }
    }

    /// The view of a selection, with the compiled rules of its slot in
    /// `kept` (its own when `kept` has none).
    fn view_of<'a>(&'a self, selection: Selected<'a>, kept: &'a [KeptMatcher]) -> AgentView<'a> {
        let rules = match selection.slot.and_then(|slot| kept.get(slot as usize)) {
            Some(rules) => ViewRules::Kept(rules.rules()),
            None => ViewRules::Own(LazyMatcher::default()),
        };
        AgentView {
            robots: self,
            selection,
            rules,
        }
    }

    /// Decides whether `who` (a product token, or a crawler a person names:
    /// see [`view`](Self::view)) may fetch `url` (absolute,
    /// `https://h/p?q#f`, or path-only, `/p?q`) and says which rule
    /// decided: one question.
    ///
    /// Every call tries the crawler's rules once, without compiling or
    /// keeping anything, so every call costs the same and answers the
    /// same. To ask many questions, build the crawler's view once with
    /// [`view`](Self::view).
    ///
    /// ```
    /// use crawlgate::{ChoiceKind, RobotsTxt, Who};
    /// let robots = RobotsTxt::parse(b"User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n");
    /// let verdict = robots.decide(Who::crawler("bingbot"), "/public");
    /// assert!(verdict.is_allowed()); // Bingbot follows the msnbot group
    /// assert_eq!(verdict.group_choice().kind(), ChoiceKind::Fallback);
    /// assert!(!robots.decide("bingbot", "/public").is_allowed()); // one token: `*`
    /// ```
    pub fn decide<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> Verdict<'_> {
        let view = self.view(who);
        view.decide_by(url, |path| view.scan(path))
    }

    /// Decides a path (as [`AgentView::decide_path`] takes it) for `agent`
    /// by trying its rules once, uncompiled: what [`decide`](Self::decide)
    /// does, for a path already extracted from its URL.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n");
    /// let verdict = robots.decide_path_uncompiled("bot", "/a/b/c");
    /// assert!(verdict.is_allowed());
    /// assert_eq!(verdict.line(), Some(3));
    /// assert!(!robots.decide_path_uncompiled("bot", "/a/c").is_allowed());
    /// ```
    pub fn decide_path_uncompiled(&self, agent: &str, path: &str) -> Verdict<'_> {
        let view = self.view(agent);
        view.decide_path_by(path, |path| view.scan(path))
    }

    /// The groups `agent` (one product token) obeys under this file's
    /// profile (those of its [`view`](Self::view)), in file order, found without compiling
    /// anything.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n\nUser-agent: a\nAllow: /y\n");
    /// let lines: Vec<u32> = robots.groups_of("A").map(|g| g.first_line()).collect();
    /// assert_eq!(lines, [1, 7]);
    /// assert_eq!(robots.groups_of("b").map(|g| g.first_line()).collect::<Vec<_>>(), [4]);
    /// ```
    pub fn groups_of(&self, agent: &str) -> impl ExactSizeIterator<Item = Group<'_>> + use<'_> {
        group_iter(self, self.select(agent).groups)
    }

    /// How the groups of `agent` are chosen (its own, `*`'s, or none),
    /// found without compiling anything.
    ///
    /// ```
    /// use crawlgate::{RobotsTxt, SelectionKind};
    /// let robots = RobotsTxt::parse(b"User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n");
    /// assert_eq!(robots.selection_of("a"), SelectionKind::Specific);
    /// assert_eq!(robots.selection_of("b"), SelectionKind::Global);
    /// assert_eq!(RobotsTxt::parse(b"").selection_of("b"), SelectionKind::Nothing);
    /// ```
    pub fn selection_of(&self, agent: &str) -> SelectionKind {
        self.select(agent).kind
    }

    /// Whether `who` may fetch `url`: [`decide`](Self::decide)'s answer.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"user-agent: FooBot\ndisallow: /\n");
    /// assert!(!robots.is_allowed("FooBot", "https://foo.com/"));
    /// assert!(robots.is_allowed("BarBot", "https://foo.com/"));
    /// ```
    pub fn is_allowed<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> bool {
        self.decide(who, url).is_allowed()
    }
}

impl<'a> AgentView<'a> {
    /// How the crawler's groups were chosen.
    pub fn selection(&self) -> SelectionKind {
        self.selection.kind
    }

    /// How and why the crawler's groups were chosen (see [`GroupChoice`]).
    pub fn group_choice(&self) -> GroupChoice<'a> {
        GroupChoice::new(self.robots, self.selection)
    }

    /// The groups this crawler obeys (merged), in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'a>> + use<'a> {
        group_iter(self.robots, self.selection.groups)
    }

    /// The file this view reads.
    pub fn robots(&self) -> &'a RobotsTxt {
        self.robots
    }

    /// Decides a URL (absolute or path-only).
    #[inline]
    pub fn decide(&self, url: &str) -> Verdict<'a> {
        match self.compiled_answer(url) {
            Some(entry) => self.verdict(entry.copied()),
            None => self.decide_by(url, |path| self.find(path)),
        }
    }

    /// Whether the crawler may fetch the URL.
    // Inlined into the caller's loop: a crawler asks it for every URL, and
    // a call's saving and restoring of registers cost a tenth of an answer.
    #[inline(always)]
    pub fn is_allowed(&self, url: &str) -> bool {
        if self.selection.kind == SelectionKind::Nothing {
            return true; // no group: everything is allowed
        }
        match self.compiled_path(url) {
            Some((matcher, url, from)) => matcher.allows_in_url(url, from),
            None => self.decided_allowed(url),
        }
    }

    /// [`is_allowed`](Self::is_allowed) the general way, kept out of line.
    #[inline(never)]
    fn decided_allowed(&self, url: &str) -> bool {
        self.decide(url).is_allowed()
    }

    /// The common case once the rules are compiled: the deciding entry
    /// for the path of `url`, read in place. `None` when the URL or the
    /// profile needs the general way.
    #[inline(always)]
    fn compiled_answer(&self, url: &str) -> Option<Option<&Entry>> {
        if self.selection.kind == SelectionKind::Nothing {
            return None;
        }
        let (matcher, url, from) = self.compiled_path(url)?;
        Some(matcher.first_match_in_url(url, from))
    }

    /// The compiled rules and where the path of `url` starts, when they
    /// can read it in place: compiled already, a profile that matches
    /// paths as given and an `http(s)://` URL or a path. For a crawler
    /// with groups: callers check that first (once, as the compiled
    /// rules are read through an atomic load, after which the selection
    /// would be read again).
    #[inline(always)]
    fn compiled_path<'u>(&self, url: &'u str) -> Option<(&Matcher, &'u [u8], usize)> {
        let matcher = self.rules.get().matcher.get()?;
        if !matcher.paths_as_given {
            return None;
        }
        let url = url.as_bytes();
        Some((matcher, url, url_path::path_start(url)?))
    }

    /// Readies the view for `questions` questions: with more than a few,
    /// its rules are compiled now, rather than after the first few
    /// questions have each tried every rule. The answers are the same
    /// either way; a caller that knows it will ask many (a survey asks
    /// each crawler about dozens of paths) saves those tries.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    ///
    /// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /private\nAllow: /private/open\n");
    /// let view = robots.view("ExampleBot");
    /// let paths = ["/", "/private", "/private/open", "/private/x", "/public", "/private/open/y"];
    /// view.expect_questions(paths.len());
    /// let allowed: Vec<bool> = paths.iter().map(|p| view.decide_path(p).is_allowed()).collect();
    /// assert_eq!(allowed, [true, false, true, false, true, true]);
    /// ```
    pub fn expect_questions(&self, questions: usize) {
        let ignores = self
            .selection
            .pick
            .is_some_and(|p| p.kind == ChoiceKind::IgnoresRobotsTxt);
        if questions > SCANNED_QUESTIONS as usize
            && self.selection.kind != SelectionKind::Nothing
            && !ignores
        {
            self.matcher();
        }
    }

    /// Decides a path as extracted from a URL (`/p;params?query`, starting
    /// with `/`).
    pub fn decide_path(&self, path: &str) -> Verdict<'a> {
        self.decide_path_by(path, |path| self.find(path))
    }

    /// The deciding entry for a matching path: looked up in the compiled
    /// rules, or found by trying each rule while the view has answered
    /// fewer than [`SCANNED_QUESTIONS`] questions.
    #[inline]
    fn find(&self, path: &[u8]) -> Option<Entry> {
        let rules = self.rules.get();
        let matcher = match rules.matcher.get() {
            Some(matcher) => matcher,
            None if rules.scanned.fetch_add(1, Ordering::Relaxed) < SCANNED_QUESTIONS => {
                return self.scan(path)
            }
            None => self.matcher(),
        };
        matcher.first_match(path).copied()
    }

    /// The compiled rules, built on first need.
    fn matcher(&self) -> &Matcher {
        self.rules.get().matcher.get_or_init(|| {
            Matcher::compile(
                self.robots,
                self.selection.groups.as_slice(),
                self.robots.skipped_rules(self.selection.slot),
            )
        })
    }

    /// The deciding entry for a matching path, found without compiling.
    fn scan(&self, path: &[u8]) -> Option<Entry> {
        Matcher::scan(
            self.robots,
            self.selection.groups.as_slice(),
            self.robots.skipped_rules(self.selection.slot),
            path,
        )
    }

    /// Decides a URL with `find`, which gives the deciding entry for a
    /// matching path.
    #[inline]
    fn decide_by(&self, url: &str, find: impl FnOnce(&[u8]) -> Option<Entry>) -> Verdict<'a> {
        if self.robots.profile.requote {
            // urllib reads the whole URL (fragment included), not Google's path.
            return self.decide_path_by(url, find);
        }
        if self.robots.profile.yandex_records {
            // Yandex compares the path and all after it, as given.
            return self.decide_path_by(&crate::yandex::target::target(url), find);
        }
        self.decide_path_by(&path_of(url), find)
    }

    #[inline]
    fn matching_path<'p>(&self, path: &'p str) -> Cow<'p, [u8]> {
        let profile = &self.robots.profile;
        if !profile.requote && !profile.decode_unreserved {
            return Cow::Borrowed(path.as_bytes()); // Google compares the path as given
        }
        matching_path(profile, path)
    }

    /// What the rules are matched against for `url`.
    fn target<'u>(&self, url: &'u str) -> Cow<'u, [u8]> {
        if self.robots.profile.requote {
            return self.matching_path(url);
        }
        if self.robots.profile.yandex_records {
            return match crate::yandex::target::target(url) {
                Cow::Borrowed(path) => Cow::Borrowed(path.as_bytes()),
                Cow::Owned(path) => Cow::Owned(path.into_bytes()),
            };
        }
        match path_of(url) {
            Cow::Borrowed(path) => self.matching_path(path),
            Cow::Owned(path) => Cow::Owned(self.matching_path(&path).into_owned()),
        }
    }

    #[inline]
    fn decide_path_by(&self, path: &str, find: impl FnOnce(&[u8]) -> Option<Entry>) -> Verdict<'a> {
        let unruled = |reason| Verdict {
            reason,
            ..self.verdict(None)
        };
        if self
            .selection
            .pick
            .is_some_and(|p| p.kind == ChoiceKind::IgnoresRobotsTxt)
        {
            return unruled(Reason::IgnoresRobotsTxt);
        }
        if self.robots.profile.always_allow_robots_txt && path == "/robots.txt" {
            return unruled(Reason::RobotsTxt);
        }
        if self
            .robots
            .robot_table
            .as_ref()
            .is_some_and(|t| t.passed.is_some())
        {
            return unruled(Reason::RuleLimit);
        }
        if self.selection.kind == SelectionKind::Nothing {
            return unruled(Reason::NoGroup);
        }
        if !path.starts_with('/') {
            // Yandex: only disallows, one of them `/`: nothing is allowed,
            // whatever the string.
            if let Some(rule) = self.robots.disallow_all(self.selection.slot) {
                return Verdict {
                    allowed: false,
                    reason: Reason::Rule,
                    rule: Some(rule),
                    ..self.verdict(None)
                };
            }
        }
        let path = self.matching_path(path);
        self.verdict(find(&path))
    }

    /// The verdict given the deciding entry, if a rule matched.
    #[inline]
    fn verdict(&self, entry: Option<Entry>) -> Verdict<'a> {
        let mut verdict = Verdict {
            robots: self.robots,
            allowed: true,
            reason: Reason::NoMatchingRule,
            rule: None,
            via_alias: false,
            selection: self.selection,
        };
        let Some(entry) = entry else {
            return verdict;
        };
        verdict.rule = Some(entry.rule);
        verdict.via_alias = entry.alias;
        let longest_match =
            self.robots.profile.precedence == crate::profile::Precedence::LongestMatch;
        let empty_allows =
            self.robots.rules[entry.rule as usize].flags & crate::model::RULE_EMPTY_ALLOWS != 0;
        if entry.priority == 0 && (longest_match || entry.allow) || empty_allows {
            // Google: a match of length 0 decides nothing; urllib: an
            // empty Disallow is an allow-all rule.
            verdict.reason = Reason::EmptyRule;
            verdict.allowed = true;
        } else {
            verdict.reason = Reason::Rule;
            verdict.allowed = entry.allow;
        }
        verdict
    }

    /// Every rule of the crawler's groups that matches the URL, the winner
    /// first (precedence order).
    pub fn matching_rules(&self, url: &str) -> Vec<RuleMatch<'a>> {
        if self.selection.kind == SelectionKind::Nothing {
            return Vec::new();
        }
        let matcher = self.matcher();
        let path = self.target(url);
        let to_match = |e: &Entry| RuleMatch {
            rule: Rule {
                robots: self.robots,
                index: e.rule,
            },
            priority: e.priority,
            via_index_alias: e.alias,
        };
        let mut matches: Vec<RuleMatch<'a>> = matcher
            .all_matches(self.robots.text.as_slice(), &path)
            .map(to_match)
            .collect();
        // Yandex: a robot whose rules are only disallows, one of them `/`,
        // is refused any string, one without a leading `/` (`""`, `abc`)
        // too; that rule decides it (see `decide_path_by`), so it heads the
        // list although its pattern does not match the string.
        if !path.starts_with(b"/")
            && let Some(rule) = self.robots.disallow_all(self.selection.slot)
            && matches.first().is_none_or(|m| m.rule.index != rule)
        {
            let entry = matcher
                .entries()
                .iter()
                .find(|e| e.rule == rule && !e.alias);
            matches.retain(|m| m.rule.index != rule);
            matches.insert(
                0,
                entry.map_or(
                    RuleMatch {
                        rule: Rule {
                            robots: self.robots,
                            index: rule,
                        },
                        priority: 0,
                        via_index_alias: false,
                    },
                    to_match,
                ),
            );
        }
        matches
    }

    /// The crawler's rules in precedence order (the order in which they are
    /// tried), with their priorities; the `index.html` aliases included.
    pub fn rules_by_precedence(&self) -> Vec<RuleMatch<'a>> {
        if self.selection.kind == SelectionKind::Nothing {
            return Vec::new();
        }
        self.matcher()
            .entries()
            .iter()
            .map(|e| RuleMatch {
                rule: Rule {
                    robots: self.robots,
                    index: e.rule,
                },
                priority: e.priority,
                via_index_alias: e.alias,
            })
            .collect()
    }

    /// The first valid `Crawl-delay` in the crawler's groups; for a crawler
    /// that honours `*`'s Crawl-delay beside a group of its own (Bingbot,
    /// read with the bing profile), `*`'s when its own groups have none
    /// (see [`star_crawl_delay`](Self::star_crawl_delay)).
    pub fn crawl_delay(&self) -> Option<CrawlDelay> {
        self.groups()
            .find_map(|g| g.crawl_delay())
            .or_else(|| self.star_crawl_delay().map(|(delay, _)| delay))
    }

    /// The `*` group's `Crawl-delay` when the crawler honours it although
    /// a group of its own replaces `*` (Bingbot with the bing profile, on
    /// the word of Bing's program manager in 2019), with that source;
    /// `None` when its own groups set a delay or the rule does not apply.
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt, Who};
    /// let body = b"User-agent: *\nCrawl-delay: 10\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /bing\n";
    /// let bing = RobotsTxt::parse_with(body, Profile::BING);
    /// let view = bing.view(Who::crawler("Bingbot"));
    /// assert_eq!(view.crawl_delay().unwrap().line, 2);
    /// assert!(view.star_crawl_delay().is_some());
    /// assert!(view.is_allowed("/private")); // its own group replaces `*`'s rules
    /// // Google's reading: no such rule.
    /// assert!(RobotsTxt::parse(body).view(Who::crawler("Bingbot")).crawl_delay().is_none());
    /// ```
    pub fn star_crawl_delay(&self) -> Option<(CrawlDelay, &'static crate::registry::Source)> {
        let pick = self.selection.pick?;
        let source = pick.crawler.star_crawl_delay?;
        let own_group = matches!(pick.kind, ChoiceKind::Own | ChoiceKind::Fallback);
        if !own_group || !self.robots.profile.reads_for(pick.crawler.token) {
            return None;
        }
        if self.groups().any(|g| g.crawl_delay().is_some()) {
            return None;
        }
        let star = self.robots.select_global_groups();
        group_iter(self.robots, star)
            .find_map(|g| g.crawl_delay())
            .map(|delay| (delay, source))
    }

    /// The first valid `Request-rate` in the crawler's groups.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.groups().find_map(|g| g.request_rate())
    }

    /// The first valid `Visit-time` in the crawler's groups.
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.groups().find_map(|g| g.visit_time())
    }

    /// The first `Content-Signal` in the crawler's groups.
    pub fn content_signal(&self) -> Option<ContentSignal<'a>> {
        self.groups().find_map(|g| g.content_signal())
    }

    /// Every `Content-Usage` record in the crawler's groups.
    pub fn content_usage_records(&self) -> Vec<ContentUsage<'a>> {
        self.groups().flat_map(|g| g.content_usage()).collect()
    }

    /// The `Content-Usage` preference that applies to `url`: the record whose
    /// path matches with the longest pattern (one without a path applies to
    /// every URL). `None` when the crawler may not fetch the URL at all, or
    /// no record applies.
    ///
    /// ```
    /// use crawlgate::{Preference, RobotsTxt};
    /// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /news/ train-ai=n\nDisallow: /private\n");
    /// let view = robots.view("anybot");
    /// assert_eq!(view.content_usage("/news/today").unwrap().get("train-ai"), Some(Preference::Disallowed));
    /// assert_eq!(view.content_usage("/about").unwrap().get("train-ai"), Some(Preference::Allowed));
    /// assert!(view.content_usage("/private/x").is_none());
    /// ```
    pub fn content_usage(&self, url: &str) -> Option<ContentUsage<'a>> {
        if !self.is_allowed(url) {
            return None;
        }
        let path = self.target(url);
        let mut best: Option<(usize, ContentUsage<'a>)> = None;
        for usage in self.content_usage_records() {
            let priority = match usage.path {
                None => Some(0),
                Some(pattern) => {
                    let mut normalized = Vec::new();
                    normalize::Escapes::of(&self.robots.profile)
                        .normalize_into(pattern.as_bytes(), &mut normalized);
                    let (shape, body) =
                        crate::pattern::compile(&normalized, self.robots.profile.wildcards);
                    crate::pattern::matches(shape, body, &path).then_some(normalized.len())
                }
            };
            if let Some(priority) = priority
                && best.as_ref().is_none_or(|(p, _)| priority > *p)
            {
                best = Some((priority, usage));
            }
        }
        best.map(|(_, usage)| usage)
    }

    /// The file's sitemaps (they apply to every crawler).
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = Sitemap<'a>> + use<'a> {
        self.robots.sitemaps()
    }
}
