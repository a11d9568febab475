//! What a site's robots.txt means for one crawler: whether it may fetch
//! `/` (and each path asked about), which group decided, and why, in one
//! word that keeps a site's choice apart from an outage.
//!
//! For a crawler `C` and a site whose capture was read under the fetch
//! rules (RFC 9309 §2.3.1, Google's reading):
//!
//! * **root**: may `C` fetch `/`, as it would act: a 5xx or 429 capture (or
//!   a network failure) means everything disallowed, a 4xx everything
//!   allowed, a 2xx the rules of the group `C` obeys. None when the input
//!   gives no answer (a damaged record, a redirect whose target the input
//!   does not hold).
//! * **group**: the group that decided, in the crawler reading (as
//!   `crawlgate check` reads by default): one naming `C`'s own token
//!   (`named`), one naming a token `C` falls back to (`fallback`:
//!   Googlebot's for Googlebot-Image), the `*` group (`star`), none
//!   (`none`: no group applies, or `C` ignores `*` as AdsBot-Google does;
//!   everything allowed), or none because `C`'s operator says it ignores
//!   robots.txt (`ignored`; everything allowed).
//! * **cause**, one of [`Cause`]: for a robots.txt, `C` is *blocked* when
//!   the group it obeys disallows every probe path (`/` and up to
//!   [`MAX_SAMPLES`] paths taken from the file's own rules), *partly
//!   blocked* when it disallows some, *allowed* when none; blocked is told
//!   apart by whether a group names `C` or `C` is only caught by `*`.
//!   Without a robots.txt the cause says why: no robots.txt (4xx),
//!   unreachable (5xx, 429, timeouts), a redirect the survey could not
//!   follow, or a body that is not a robots.txt (an HTML page, binary).
//!
//! * **prefs**: the AI-use preferences the crawler is given for `/` (and
//!   each path), from the same groups ([`crate::preferences`]).
//!
//! The group a crawler obeys is chosen in one place, [`crawler_view`].
//!
//! ```
//! use crawlgate::RobotsTxt;
//! use crawlgate_survey::verdict::{Cause, GroupKind, Reader};
//!
//! let robots = RobotsTxt::parse(b"\
//! User-agent: GPTBot
//! Disallow: /
//!
//! User-agent: *
//! Disallow: /private/
//! ");
//! let reader = Reader::new(&robots, &[]);
//! let gptbot = reader.verdict("GPTBot");
//! assert_eq!((gptbot.root, gptbot.cause, gptbot.group), (Some(false), Some(Cause::BlockedByName), Some(GroupKind::Named)));
//! let other = reader.verdict("ClaudeBot");
//! assert_eq!((other.root, other.cause, other.group), (Some(true), Some(Cause::PartlyBlocked), Some(GroupKind::Star)));
//! assert_eq!(other.line, None);
//! ```

use std::cell::{OnceCell, RefCell};

use crawlgate::registry::{self, Crawler};
use crawlgate::{AgentView, ChoiceKind, GroupSelection, RobotsTxt, SelectionKind, Who};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::housekeeping::is_housekeeping;
use crate::preferences::column_value;

/// The most paths of the file's own rules a crawler is probed with (besides
/// `/`).
pub const MAX_SAMPLES: usize = 32;

crawlgate::word_table! {
    /// Why a crawler may or may not fetch a site, in one word (see the
    /// [module](self)).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    pub enum Cause {
        /// A group naming the crawler (its own token or a fallback) disallows
        /// every probe path.
        BlockedByName = "blocked_by_name",
        /// No group names the crawler, and the `*` group disallows every probe
        /// path.
        BlockedByStar = "blocked_by_star",
        /// The group the crawler obeys disallows some probe paths, not all,
        /// and among them `/` or a content path (one that is not
        /// [housekeeping](crate::housekeeping)).
        PartlyBlocked = "partly_blocked",
        /// The group the crawler obeys disallows only housekeeping probe paths
        /// (administration, log-in, cart, search …: see
        /// [`housekeeping`](crate::housekeeping)); `/` and every content path
        /// sampled are allowed.
        HousekeepingBlocked = "housekeeping_blocked",
        /// The group the crawler obeys (or the absence of one) allows every
        /// probe path.
        Allowed = "allowed",
        /// A 4xx other than 429: no robots.txt, everything allowed.
        NoRobotsTxt = "no_robots_txt",
        /// A 5xx, 429, timeout or other network failure: everything disallowed
        /// while it lasts. An outage, not a choice.
        Unreachable = "unreachable",
        /// A redirect the survey could not follow to a robots.txt: the target
        /// is not in the input (no answer), or the redirects loop or go on for
        /// more than five hops (read as a 404, everything allowed).
        Redirected = "redirected",
        /// A 2xx whose body is no robots.txt (an HTML page or binary data):
        /// crawlers read what valid lines it has, usually none.
        NotRobotsTxt = "not_robots_txt",
    }
}

impl Cause {
    /// What it means, in a sentence (the report's legend).
    pub fn meaning(self) -> &'static str {
        match self {
            Cause::BlockedByName => "a group naming the crawler (its own product token, or one it falls back to) disallows `/` and every sampled path of the file",
            Cause::BlockedByStar => "no group names the crawler and the `*` group disallows `/` and every sampled path",
            Cause::PartlyBlocked => "the group the crawler obeys disallows some of those paths and allows others, among the disallowed `/` or a content path (one that is not housekeeping)",
            Cause::HousekeepingBlocked => "the group the crawler obeys disallows only housekeeping paths among them (administration, log-in and accounts, cart and checkout, site search, feeds: a segment such as `wp-admin`, `login`, `cart` or `search`, or the home page's query string); `/` and the content paths are allowed",
            Cause::Allowed => "the group the crawler obeys, or the absence of any, allows every one of them",
            Cause::NoRobotsTxt => "the robots.txt answered 4xx (not 429): there is none, everything is allowed",
            Cause::Unreachable => "a 5xx or 429 answer, a timeout or a network failure: an outage, during which crawlers fetch nothing; not a choice of the site",
            Cause::Redirected => "a redirect the survey could not follow to a robots.txt: its target is not in the input (no answer), or the redirects loop or exceed five hops (read as a 404)",
            Cause::NotRobotsTxt => "the robots.txt URL served an HTML page or binary data; crawlers read whatever valid lines it holds, usually none",
        }
    }

    /// Whether the site chose it in its robots.txt (the denominator of the
    /// headline rates): every cause but an outage and an unfollowed
    /// redirect.
    pub fn is_choice(self) -> bool {
        !matches!(self, Cause::Unreachable | Cause::Redirected)
    }

    /// Whether the site's robots.txt blocks the crawler fully.
    pub fn is_blocked(self) -> bool {
        matches!(self, Cause::BlockedByName | Cause::BlockedByStar)
    }
}

crawlgate::word_table! {
    /// Which group decided for a crawler.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    pub enum GroupKind {
        /// A group naming the crawler's own product token.
        Named = "named",
        /// A group naming a token the crawler falls back to (Googlebot for
        /// Googlebot-Image).
        Fallback = "fallback",
        /// The `*` group.
        Star = "star",
        /// No group: everything allowed.
        None = "none",
        /// Its operator says it ignores robots.txt (the crawler registry): the
        /// file does not apply, everything allowed.
        Ignored = "ignored",
    }
}

impl GroupKind {
    /// The word for the core's choice ([`GroupChoice::group_kind`](crawlgate::GroupChoice::group_kind),
    /// where a control token's choice is read as a crawler's): its own
    /// token's groups `named`, a fallback's `fallback`, `*`'s `star`, none
    /// `none`, robots.txt ignored `ignored`.
    ///
    /// ```
    /// use crawlgate::ChoiceKind;
    /// use crawlgate_survey::verdict::GroupKind;
    /// assert_eq!(GroupKind::from_choice(ChoiceKind::Fallback), GroupKind::Fallback);
    /// assert_eq!(GroupKind::from_choice(ChoiceKind::IgnoresRobotsTxt), GroupKind::Ignored);
    /// ```
    pub fn from_choice(choice: ChoiceKind) -> GroupKind {
        match choice {
            ChoiceKind::Own => GroupKind::Named,
            ChoiceKind::Fallback => GroupKind::Fallback,
            ChoiceKind::Star => GroupKind::Star,
            ChoiceKind::IgnoresRobotsTxt => GroupKind::Ignored,
            // `group_kind` reads a control token as a crawler, so no
            // `ControlToken` comes here; anything newer: no group.
            _ => GroupKind::None,
        }
    }
}

/// What a site says to one crawler.
#[derive(Debug, Default, Eq, Serialize, Deserialize)]
pub struct CrawlerVerdict {
    /// May it fetch `/` (None: the input gives no answer).
    pub root: Option<bool>,
    /// Why.
    pub cause: Option<Cause>,
    /// The group that decided, when a robots.txt was read.
    pub group: Option<GroupKind>,
    /// The line of the rule that decides `/`, when a rule does.
    pub line: Option<u32>,
    /// May it fetch each path asked about, in order (empty when `root` is
    /// None).
    pub paths: Vec<bool>,
    /// The AI-use preferences it is given for `/`, as the `prefs_X` column
    /// holds them ([`preferences::column_value`](crate::preferences::column_value)):
    /// None when none applies, or no robots.txt was read.
    pub prefs: Option<String>,
    /// The same for each path asked about, in order (as long as `paths`).
    pub path_prefs: Vec<Option<String>>,
}

/// Field by field, the lists only when they hold something: a row's 160
/// verdicts are compared with each other when it is stored, and a derived
/// comparison calls `memcmp` even for two empty lists.
impl PartialEq for CrawlerVerdict {
    fn eq(&self, other: &CrawlerVerdict) -> bool {
        // Destructured, so that a new field cannot be left out.
        let CrawlerVerdict {
            root,
            cause,
            group,
            line,
            paths,
            prefs,
            path_prefs,
        } = self;
        *root == other.root
            && *cause == other.cause
            && *group == other.group
            && *line == other.line
            && paths.len() == other.paths.len()
            && path_prefs.len() == other.path_prefs.len()
            && *prefs == other.prefs
            && (paths.is_empty() || *paths == other.paths)
            && (path_prefs.is_empty() || *path_prefs == other.path_prefs)
    }
}

/// Field by field, the lists only when they hold something: a row's 160
/// verdicts are cloned from its few distinct ones when a run is read back,
/// and a derived clone calls the allocator's code even for an empty list.
impl Clone for CrawlerVerdict {
    #[inline]
    fn clone(&self) -> CrawlerVerdict {
        let CrawlerVerdict {
            root,
            cause,
            group,
            line,
            paths,
            prefs,
            path_prefs,
        } = self;
        CrawlerVerdict {
            root: *root,
            cause: *cause,
            group: *group,
            line: *line,
            paths: if paths.is_empty() {
                Vec::new()
            } else {
                paths.clone()
            },
            prefs: prefs.clone(),
            path_prefs: if path_prefs.is_empty() {
                Vec::new()
            } else {
                path_prefs.clone()
            },
        }
    }
}

impl CrawlerVerdict {
    /// The verdict of an outcome without rules: everything allowed or
    /// everything disallowed, for `paths` paths.
    pub fn without_rules(allowed: bool, cause: Cause, paths: usize) -> CrawlerVerdict {
        CrawlerVerdict {
            root: Some(allowed),
            cause: Some(cause),
            group: None,
            line: None,
            paths: vec![allowed; paths],
            prefs: None,
            path_prefs: vec![None; paths],
        }
    }

    /// No answer, for this cause (an unfollowed redirect).
    pub fn unanswered(cause: Cause) -> CrawlerVerdict {
        CrawlerVerdict {
            cause: Some(cause),
            ..CrawlerVerdict::default()
        }
    }
}

/// The rules the crawler `token` obeys in `robots`, and which group they
/// come from, in the crawler reading (`crawlgate check`'s default): a
/// crawler of the registry follows its documented fallbacks
/// (Googlebot-Image → Googlebot, Bingbot → msnbot), one that ignores `*`
/// (AdsBot-Google) gets no group from it, one whose operator says it
/// ignores robots.txt is not restricted; any other token is read as one
/// token. `*` is the `*` group itself. Every answer of a survey chooses its
/// group here, and only here.
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_survey::verdict::{crawler_view, GroupKind};
///
/// let robots = RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n");
/// assert_eq!(crawler_view(&robots, "Googlebot").1, GroupKind::Named);
/// assert_eq!(crawler_view(&robots, "Googlebot-Image").1, GroupKind::Fallback);
/// assert!(crawler_view(&robots, "Googlebot-Image").0.is_allowed("/"));
/// assert_eq!(crawler_view(&robots, "GPTBot").1, GroupKind::Star);
/// assert_eq!(crawler_view(&robots, "AdsBot-Google").1, GroupKind::None);
/// assert_eq!(crawler_view(&robots, "*").1, GroupKind::Star);
/// ```
pub fn crawler_view<'r>(robots: &'r RobotsTxt, token: &str) -> (AgentView<'r>, GroupKind) {
    identified_view(robots, token, registry::identify(token))
}

/// [`crawler_view`] for a token whose registry entry (`identity`:
/// [`registry::identify`] of it) was looked up once for every file.
fn identified_view<'r>(
    robots: &'r RobotsTxt,
    token: &str,
    identity: Option<&'static Crawler>,
) -> (AgentView<'r>, GroupKind) {
    if token == crate::crawlers::ANY {
        // `*` is no crawler: the `*` group itself, as one token.
        let view = robots.view(token);
        let kind = match view.selection() {
            SelectionKind::Nothing => GroupKind::None,
            _ => GroupKind::Star,
        };
        return (view, kind);
    }
    let view = match identity {
        Some(crawler) => robots.view(crawler),
        None => robots.view(Who::crawler(token)),
    };
    let kind = GroupKind::from_choice(view.group_choice().group_kind());
    (view, kind)
}

/// The answers for one set of groups: crawlers that obey the same groups
/// get the same answers.
#[derive(Clone, Debug)]
struct Answers {
    root: bool,
    line: Option<u32>,
    /// Probe paths disallowed.
    disallowed: usize,
    /// Probe paths disallowed that are `/` or content (not housekeeping).
    content_disallowed: usize,
    paths: Vec<bool>,
    prefs: Option<String>,
    path_prefs: Vec<Option<String>>,
}

/// Reads one parsed file for every crawler of a survey: the probe paths are
/// worked out once, and the answers once per set of groups.
#[derive(Debug)]
pub struct Reader<'a> {
    robots: &'a RobotsTxt,
    probes: Vec<&'a str>,
    paths: &'a [String],
    /// Whether the body is no robots.txt (an HTML page, binary data).
    not_robots_txt: bool,
    answers: RefCell<FxHashMap<Vec<usize>, Answers>>,
    /// Whether each probe path is housekeeping, once asked (the answers of
    /// several sets of groups ask it of the same paths).
    housekeeping: Vec<OnceCell<bool>>,
    /// The group indices of the crawler being answered (reused).
    key: RefCell<Vec<usize>>,
    /// Hashes of the product tokens the file's user-agent lines name,
    /// lowercased, sorted: a crawler none of whose tokens is among them is
    /// named by no group. Built on first use.
    named: OnceCell<Vec<u64>>,
    /// The verdict of each [`UnnamedClass`] of crawler, once one of them is
    /// answered: most crawlers of a survey are named by no group of a file,
    /// and then what they obey is decided by the class alone.
    unnamed: RefCell<[Option<CrawlerVerdict>; UnnamedClass::COUNT]>,
}

/// What decides the groups of a crawler that no group of a file names, by
/// the product-token reading ([`crawlgate::RobotsTxt::view`] of a crawler
/// of the registry, or of an unknown name read as one token): whether it
/// ignores robots.txt, whether it obeys `*`, and whether it is a control
/// token (whose choice is worded apart). Crawlers of one class then obey
/// the same groups, chosen the same way, and get the same verdict.
#[derive(Clone, Copy)]
struct UnnamedClass(usize);

impl UnnamedClass {
    /// Eight classes of registered crawlers, and unknown names.
    const COUNT: usize = 9;

    fn of(identity: Option<&'static Crawler>) -> UnnamedClass {
        match identity {
            None => UnnamedClass(8),
            Some(c) => UnnamedClass(
                usize::from(c.ignores_robots_txt())
                    | usize::from(c.obeys_star) << 1
                    | usize::from(c.kind == registry::CrawlerKind::ControlToken) << 2,
            ),
        }
    }
}

/// The hashes of the tokens a crawler may be named by in a file: those of
/// its registry entry (`identity`), its own and its fallbacks, or else
/// `token` itself.
pub(crate) fn token_hashes(token: &str, identity: Option<&'static Crawler>) -> Box<[u64]> {
    match identity {
        Some(crawler) => crawler
            .tokens()
            .map(|t| caseless_hash(t.as_bytes()))
            .collect(),
        None => Box::new([caseless_hash(token.as_bytes())]),
    }
}

/// A hash of `token` lowercased (ASCII), for [`Reader::may_be_named`].
fn caseless_hash(token: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    for &b in token {
        hasher.write_u8(b.to_ascii_lowercase());
    }
    hasher.write_usize(token.len());
    hasher.finish()
}

impl<'a> Reader<'a> {
    /// The reader of a parsed file, answering for `/`, the probe paths and
    /// `paths` (each starting with `/`).
    pub fn new(robots: &'a RobotsTxt, paths: &'a [String]) -> Reader<'a> {
        let probes = probe_paths(robots);
        Reader {
            robots,
            housekeeping: vec![OnceCell::new(); probes.len()],
            probes,
            paths,
            not_robots_txt: false,
            answers: RefCell::default(),
            key: RefCell::default(),
            named: OnceCell::new(),
            unnamed: RefCell::default(),
        }
    }

    /// Whether some group of the file may name a crawler whose tokens
    /// hash to `hashes` ([`token_hashes`]): one of them is named by a
    /// user-agent line, or hashes like one. `false` means no group names it.
    fn may_be_named(&self, hashes: &[u64]) -> bool {
        let named = self.named.get_or_init(|| {
            let mut named: Vec<u64> = self
                .robots
                .user_agents()
                .filter(|ua| !ua.is_global())
                .map(|ua| caseless_hash(ua.token().as_bytes()))
                .collect();
            named.sort_unstable();
            named.dedup();
            named
        });
        hashes.iter().any(|h| named.binary_search(h).is_ok())
    }

    /// The same reader, for a body that is no robots.txt: every cause is
    /// [`Cause::NotRobotsTxt`] (root, group and lines still say what
    /// crawlers do with it).
    pub fn not_robots_txt(mut self, yes: bool) -> Reader<'a> {
        self.not_robots_txt = yes;
        self
    }

    /// `/`, then the paths taken from the file's rules.
    pub fn probe_paths(&self) -> &[&'a str] {
        &self.probes
    }

    /// The verdict for the crawler with product token `token` (`*` for the
    /// `*` group itself).
    pub fn verdict(&self, token: &str) -> CrawlerVerdict {
        self.identified_verdict(token, registry::identify(token))
    }

    /// [`verdict`](Self::verdict) for a token whose registry entry
    /// (`identity`: [`registry::identify`] of it) was looked up once.
    pub(crate) fn identified_verdict(
        &self,
        token: &str,
        identity: Option<&'static Crawler>,
    ) -> CrawlerVerdict {
        self.hashed_verdict(token, identity, &token_hashes(token, identity))
    }

    /// [`identified_verdict`](Self::identified_verdict) for a crawler whose
    /// [`token_hashes`] were worked out once.
    pub(crate) fn hashed_verdict(
        &self,
        token: &str,
        identity: Option<&'static Crawler>,
        hashes: &[u64],
    ) -> CrawlerVerdict {
        // A crawler no group names obeys what every crawler of its class
        // obeys (the product-token reading: other readings choose groups
        // by other means): answered once per class and file.
        if token != crate::crawlers::ANY
            && self.robots.profile().group_selection == GroupSelection::ProductToken
            && !self.may_be_named(hashes)
        {
            let class = UnnamedClass::of(identity);
            if let Some(known) = &self.unnamed.borrow()[class.0] {
                return known.clone();
            }
            let fresh = self.answered_verdict(token, identity);
            self.unnamed.borrow_mut()[class.0] = Some(fresh.clone());
            return fresh;
        }
        self.answered_verdict(token, identity)
    }

    /// [`identified_verdict`](Self::identified_verdict), from the crawler's
    /// own view.
    fn answered_verdict(&self, token: &str, identity: Option<&'static Crawler>) -> CrawlerVerdict {
        let (view, group) = identified_view(self.robots, token, identity);
        // The groups' indices, gathered in a buffer kept between crawlers:
        // a key is allocated only for a set of groups not seen before.
        let mut key = self.key.borrow_mut();
        key.clear();
        key.extend(view.groups().map(|g| g.index()));
        let mut answers = self.answers.borrow_mut();
        let answer = match answers.get(key.as_slice()) {
            Some(known) => known.clone(),
            None => {
                let fresh = self.answer(&view);
                answers.insert(key.clone(), fresh.clone());
                fresh
            }
        };
        drop(answers);
        drop(key);
        let cause = if self.not_robots_txt {
            Cause::NotRobotsTxt
        } else if answer.disallowed == self.probes.len() {
            if group == GroupKind::Star {
                Cause::BlockedByStar
            } else {
                Cause::BlockedByName
            }
        } else if answer.disallowed == 0 {
            Cause::Allowed
        } else if answer.content_disallowed == 0 {
            Cause::HousekeepingBlocked
        } else {
            Cause::PartlyBlocked
        };
        CrawlerVerdict {
            root: Some(answer.root),
            cause: Some(cause),
            group: Some(group),
            line: answer.line,
            paths: answer.paths,
            prefs: answer.prefs,
            path_prefs: answer.path_prefs,
        }
    }

    fn answer(&self, view: &AgentView<'_>) -> Answers {
        view.expect_questions(self.probes.len() + self.paths.len());
        let root = view.decide_path("/");
        let mut disallowed = usize::from(!root.is_allowed());
        let mut content_disallowed = disallowed;
        for (path, housekeeping) in self.probes.iter().zip(&self.housekeeping).skip(1) {
            if !view.decide_path(path).is_allowed() {
                disallowed += 1;
                content_disallowed +=
                    usize::from(!*housekeeping.get_or_init(|| is_housekeeping(path)));
            }
        }
        Answers {
            root: root.is_allowed(),
            line: root.line(),
            disallowed,
            content_disallowed,
            paths: self
                .paths
                .iter()
                .map(|p| view.decide_path(p).is_allowed())
                .collect(),
            prefs: column_value(view.preferences("/")),
            path_prefs: self
                .paths
                .iter()
                .map(|p| column_value(view.preferences(p)))
                .collect(),
        }
    }
}

/// `/` and up to [`MAX_SAMPLES`] literal rule starts, each once.
fn probe_paths(robots: &RobotsTxt) -> Vec<&str> {
    // Slices of the file's text: no copy per site.
    let mut probes = vec!["/"];
    for rule in robots.rules() {
        if probes.len() > MAX_SAMPLES {
            break;
        }
        let pattern = rule.pattern();
        let literal = &pattern[..pattern.find(['*', '$']).unwrap_or(pattern.len())];
        if literal.starts_with('/') && literal != "/" && !probes.contains(&literal) {
            probes.push(literal);
        }
    }
    probes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(body: &str, token: &str) -> CrawlerVerdict {
        Reader::new(&RobotsTxt::parse(body.as_bytes()), &[]).verdict(token)
    }

    #[test]
    fn star_blocks_are_told_apart_from_named_ones() {
        let body = "User-agent: *\nDisallow: /\n";
        let v = verdict(body, "GPTBot");
        assert_eq!(
            (v.root, v.cause, v.group, v.line),
            (
                Some(false),
                Some(Cause::BlockedByStar),
                Some(GroupKind::Star),
                Some(2)
            )
        );
        let v = verdict("User-agent: GPTBot\nDisallow: /\n", "gptbot");
        assert_eq!(v.cause, Some(Cause::BlockedByName));
        // `*` itself is caught by the `*` group.
        assert_eq!(verdict(body, "*").cause, Some(Cause::BlockedByStar));
    }

    #[test]
    fn a_named_group_that_opens_everything_wins_over_star() {
        let body = "User-agent: GPTBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n";
        let v = verdict(body, "GPTBot");
        assert_eq!(
            (v.root, v.cause, v.group),
            (Some(true), Some(Cause::Allowed), Some(GroupKind::Named))
        );
    }

    #[test]
    fn partial_blocks_and_no_group() {
        let v = verdict("User-agent: GPTBot\nDisallow: /\nAllow: /news/\n", "GPTBot");
        assert_eq!((v.root, v.cause), (Some(false), Some(Cause::PartlyBlocked)));
        let v = verdict("User-agent: Googlebot\nDisallow: /\n", "GPTBot");
        assert_eq!(
            (v.root, v.cause, v.group, v.line),
            (
                Some(true),
                Some(Cause::Allowed),
                Some(GroupKind::None),
                None
            )
        );
        // Product tokens match exactly: a group for GPTBot-News is not GPTBot's.
        let v = verdict("User-agent: GPTBot-News\nDisallow: /\n", "GPTBot");
        assert_eq!(v.group, Some(GroupKind::None));
    }

    #[test]
    fn paths_are_answered_per_crawler_and_shared_by_groups() {
        let robots = RobotsTxt::parse(
            b"User-agent: GPTBot\nDisallow: /news/\n\nUser-agent: *\nDisallow: /private/\n",
        );
        let paths = vec!["/news/today".to_owned(), "/private/x".to_owned()];
        let reader = Reader::new(&robots, &paths);
        assert_eq!(reader.verdict("GPTBot").paths, [false, true]);
        assert_eq!(reader.verdict("CCBot").paths, [true, false]);
        assert_eq!(reader.verdict("ClaudeBot").paths, [true, false]);
        assert_eq!(
            reader.answers.borrow().len(),
            2,
            "one answer per set of groups"
        );
    }

    #[test]
    fn housekeeping_paths_alone_are_told_apart_from_content() {
        let body = "User-agent: *\nDisallow: /wp-admin/\nDisallow: /cart\nAllow: /wp-admin/admin-ajax.php\n";
        assert_eq!(
            verdict(body, "GPTBot").cause,
            Some(Cause::HousekeepingBlocked)
        );
        let body = "User-agent: *\nDisallow: /wp-admin/\nDisallow: /news/\n";
        assert_eq!(verdict(body, "GPTBot").cause, Some(Cause::PartlyBlocked));
        // The home page blocked, a section open: content is blocked.
        let body = "User-agent: *\nDisallow: /\nAllow: /search/\n";
        assert_eq!(verdict(body, "GPTBot").cause, Some(Cause::PartlyBlocked));
    }

    #[test]
    fn a_page_that_is_no_robots_txt_says_so() {
        let robots = RobotsTxt::parse(b"<html><body>hi</body></html>");
        let v = Reader::new(&robots, &[])
            .not_robots_txt(true)
            .verdict("GPTBot");
        assert_eq!((v.root, v.cause), (Some(true), Some(Cause::NotRobotsTxt)));
    }

    #[test]
    fn probes_are_bounded_and_literal() {
        let mut body = String::from(
            "User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*\nAllow: /$\nDisallow: nope\n",
        );
        for i in 0..1000 {
            body.push_str(&format!("Disallow: /p{i}\n"));
        }
        let robots = RobotsTxt::parse(body.as_bytes());
        let reader = Reader::new(&robots, &[]);
        assert_eq!(reader.probe_paths().len(), MAX_SAMPLES + 1);
        assert_eq!(&reader.probe_paths()[..3], ["/", "/search", "/p0"]);
    }

    /// Crawlers no group names are answered once per class: every corpus
    /// file, every crawler the registry knows (and a few names it does not,
    /// in several cases), each answered as by its own view.
    #[test]
    fn unnamed_crawlers_share_their_class_verdict() {
        let mut tokens: Vec<String> = crate::crawlers::CrawlerSet::all_known()
            .iter()
            .map(|c| c.token.clone())
            .collect();
        tokens.extend(
            [
                "NoSuchBot",
                "nosuchbot",
                "gptbot",
                "GOOGLEBOT",
                "Foo/1.0",
                "*",
            ]
            .map(String::from),
        );
        let identities: Vec<_> = tokens.iter().map(|t| registry::identify(t)).collect();
        let paths = vec!["/a".to_owned(), "/private/x".to_owned()];
        let (mut shared, mut files) = (0, 0);
        for (name, body) in crawlgate_corpus::files() {
            let robots = RobotsTxt::parse(&body);
            let reader = Reader::new(&robots, &paths);
            let fresh = Reader::new(&robots, &paths);
            for (token, identity) in tokens.iter().zip(&identities) {
                let got = reader.identified_verdict(token, *identity);
                let want = fresh.answered_verdict(token, *identity);
                assert_eq!(got, want, "{name}: {token}");
            }
            shared += reader.unnamed.borrow().iter().flatten().count();
            files += 1;
        }
        assert!(
            files > 1000 && shared > files,
            "{shared} classes over {files} files"
        );
    }

    #[test]
    fn words_round_trip() {
        for cause in Cause::ALL {
            assert_eq!(Cause::from_word(cause.as_str()), Some(cause));
            assert!(!cause.meaning().is_empty());
        }
        for group in GroupKind::ALL {
            assert_eq!(GroupKind::from_word(group.as_str()), Some(group));
        }
        assert_eq!(Cause::from_word("blocked"), None);
        assert!(!Cause::Unreachable.is_choice() && Cause::NoRobotsTxt.is_choice());
    }

    #[test]
    fn verdicts_are_equal_only_when_every_field_is() {
        let base = CrawlerVerdict {
            root: Some(true),
            cause: Some(Cause::PartlyBlocked),
            group: Some(GroupKind::Named),
            line: Some(3),
            paths: vec![true, false],
            prefs: Some("train-ai=n".to_owned()),
            path_prefs: vec![None, Some("search=y".to_owned())],
        };
        assert_eq!(base, base.clone());
        let changes: [fn(&mut CrawlerVerdict); 11] = [
            |v| v.root = Some(false),
            |v| v.cause = Some(Cause::Allowed),
            |v| v.group = None,
            |v| v.line = Some(4),
            |v| v.paths[1] = true,
            |v| v.paths.push(true),
            |v| v.prefs = None,
            |v| v.path_prefs[1] = None,
            |v| v.path_prefs.push(None),
            |v| {
                v.paths.clear();
                v.path_prefs.clear();
            },
            |v| *v = CrawlerVerdict::default(),
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut other = base.clone();
            change(&mut other);
            assert_ne!(base, other, "change {i}");
            assert_ne!(other, base, "change {i}");
        }
        // Empty lists on both sides compare equal.
        let bare = CrawlerVerdict::without_rules(true, Cause::Allowed, 0);
        assert_eq!(bare, bare.clone());
    }
}
