//! A file read for one crawler: the crawler's path, when a crawler meets a
//! site, reads its robots.txt once and asks it about many URLs.

use std::fmt;

use crate::decide::{AgentView, LazyMatcher, Verdict};
use crate::model::{RobotsTxt, Str};
use crate::parse;
use crate::profile::Profile;
use crate::registry::Crawler;
use crate::who::{Reading, Who};

/// A robots.txt file as one crawler reads it, kept with the crawler's
/// compiled rules: what a crawler keeps for a site.
///
/// [`RobotsTxt::parse`] reads the whole file: every group's rules, every
/// record, every diagnostic. A crawler needs only the groups it obeys
/// (those naming one of its tokens, or `*`). This reading keeps every group
/// and user-agent line, so the crawler's choice of groups, their numbers
/// and their lines are the whole file's, but reads the rest of a group only
/// while it is one the crawler can obey: other groups' lines, comments and
/// blank lines are skipped after one look at their first byte, and no
/// diagnostic is kept (lint with [`RobotsTxt`]). Every verdict, rule and
/// line equals `RobotsTxt::parse_with(bytes, profile).view(who)`'s (tests
/// hold the two together on generated files and the real-world corpus).
/// Readings that do not choose groups by product token (the legacy and
/// Yandex readings) read the whole file.
///
/// Its rules are compiled as an [`AgentView`]'s are, once, after a few
/// questions, and kept: ask it as many questions as you like, from any
/// thread (it is `Send + Sync` and answers through `&self`).
///
/// ```
/// use crawlgate::{CrawlerRobotsTxt, Who};
///
/// let body = b"User-agent: Googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nDisallow: /private\n\nUser-agent: otherbot\nDisallow: /\n";
/// let googlebot = CrawlerRobotsTxt::parse(body, "Googlebot");
/// assert!(googlebot.is_allowed("https://example.com/private/x"));
/// assert!(!googlebot.is_allowed("https://example.com/nogoogle/x"));
/// assert_eq!(googlebot.decide("/nogoogle/x").line(), Some(2));
///
/// // A crawler a person names, read by its operator's documentation:
/// // Googlebot-Image follows Googlebot's group.
/// let image = CrawlerRobotsTxt::parse(body, Who::crawler("Googlebot-Image"));
/// assert!(!image.is_allowed("/nogoogle/photo.jpg"));
///
/// // Every group is there; only the crawler's keep their rules.
/// let read = googlebot.view().robots();
/// assert_eq!(read.groups().len(), 3);
/// assert_eq!(read.rules().len(), 2);
/// ```
pub struct CrawlerRobotsTxt {
    robots: RobotsTxt,
    /// The crawler's name, kept in the model's text.
    name: Str,
    reading: Reading,
    crawler: Option<&'static Crawler>,
    rules: LazyMatcher,
}

impl CrawlerRobotsTxt {
    /// Reads `robots_txt` for `who` (a product token, or a crawler a person
    /// names: see [`RobotsTxt::view`]) under Google's reading, as
    /// [`RobotsTxt::parse`] does.
    pub fn parse<'w>(robots_txt: &[u8], who: impl Into<Who<'w>>) -> CrawlerRobotsTxt {
        CrawlerRobotsTxt::parse_with(robots_txt, Profile::GOOGLE, who)
    }

    /// Reads `robots_txt` for `who` under `profile` ([`Who::profile`] is
    /// the crawler's operator's own reading).
    ///
    /// ```
    /// use crawlgate::{CrawlerRobotsTxt, Who};
    ///
    /// let body = b"User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n";
    /// let bingbot = Who::crawler("bingbot");
    /// let robots = CrawlerRobotsTxt::parse_with(body, bingbot.profile(), bingbot);
    /// assert!(robots.is_allowed("/public")); // Bingbot follows the msnbot group
    /// assert!(!robots.is_allowed("/m/page"));
    /// ```
    pub fn parse_with<'w>(
        robots_txt: &[u8],
        profile: Profile,
        who: impl Into<Who<'w>>,
    ) -> CrawlerRobotsTxt {
        let who = who.into();
        let (robots, name) = match (who.reading(), who.registered()) {
            (Reading::Crawler, Some(crawler)) => {
                let tokens: Vec<&str> = crawler.tokens().collect();
                parse::parse_for(robots_txt, profile, &tokens, who.name())
            }
            _ => parse::parse_for(robots_txt, profile, &[who.name()], who.name()),
        };
        CrawlerRobotsTxt {
            robots,
            name,
            reading: who.reading(),
            crawler: who.registered(),
            rules: LazyMatcher::default(),
        }
    }

    /// The crawler it was read for.
    ///
    /// ```
    /// use crawlgate::{CrawlerRobotsTxt, Reading};
    /// let robots = CrawlerRobotsTxt::parse(b"User-agent: *\nDisallow: /\n", "mybot");
    /// assert_eq!(robots.who().name(), "mybot");
    /// assert_eq!(robots.who().reading(), Reading::OneToken);
    /// ```
    pub fn who(&self) -> Who<'_> {
        Who::resolved(self.robots.str_alone(self.name), self.reading, self.crawler)
    }

    /// The crawler's view, sharing the rules compiled here. Its
    /// [`robots`](AgentView::robots) is the file as read for this crawler:
    /// every group and user-agent line, with rules and records only in the
    /// groups it can obey, and only its own tokens among
    /// [`tokens`](RobotsTxt::tokens).
    pub fn view(&self) -> AgentView<'_> {
        self.robots.view_sharing(self.who(), &self.rules)
    }

    /// Decides whether the crawler may fetch `url` (absolute, or path-only)
    /// and says which rule decided.
    pub fn decide(&self, url: &str) -> Verdict<'_> {
        self.view().decide(url)
    }

    /// Whether the crawler may fetch `url`: [`decide`](Self::decide)'s answer.
    pub fn is_allowed(&self, url: &str) -> bool {
        self.view().is_allowed(url)
    }

    /// The heap bytes held: the file as read ([`RobotsTxt::heap_size`],
    /// the crawler's name with it) and the rules compiled so far.
    ///
    /// ```
    /// use crawlgate::{CrawlerRobotsTxt, RobotsTxt};
    /// let mut body = b"User-agent: *\nDisallow: /private\n".to_vec();
    /// for i in 0..200 {
    ///     body.extend_from_slice(format!("User-agent: bot{i}\nDisallow: /\n").as_bytes());
    /// }
    /// let kept = CrawlerRobotsTxt::parse(&body, "mybot");
    /// assert!(kept.heap_size() < RobotsTxt::parse(&body).heap_size());
    /// ```
    pub fn heap_size(&self) -> usize {
        self.robots.heap_size() + self.rules.heap_size()
    }
}

impl fmt::Debug for CrawlerRobotsTxt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CrawlerRobotsTxt")
            .field("who", &self.who())
            .field("groups", &self.robots.groups().len())
            .field("rules", &self.robots.rules().len())
            .finish()
    }
}
