//! A parsed file kept together with its crawlers' compiled rules, for
//! callers that ask many questions of files they keep: a crawler's cache of
//! robots.txt files, a batch of questions, a binding.

use std::fmt;
use std::sync::Arc;

use crate::decide::{AgentView, KeptMatcher, Verdict};
use crate::model::RobotsTxt;
use crate::who::Who;

/// A parsed robots.txt that keeps the compiled rules of every crawler
/// asked about, so that repeated questions about a kept file are fast
/// whoever asks them.
///
/// [`RobotsTxt`] itself is plain data: its [`decide`](RobotsTxt::decide)
/// tries the crawler's rules on every call. An [`AgentView`] compiles them,
/// but borrows the file, so it cannot be kept next to it. A
/// `CompiledRobotsTxt` owns the file (behind an [`Arc`], so it can be
/// handed on) and, for each set of groups a crawler can obey, rules
/// compiled once they have answered a few questions (as a view's are).
/// Crawlers that obey the same groups share them: `Googlebot`, `googlebot`
/// and every crawler that falls back to `*` need one compilation each.
///
/// It is `Send + Sync` and answers through `&self`: share one among
/// threads (in an `Arc`); compiling happens once, whichever thread asks.
///
/// ```
/// use std::sync::Arc;
/// use crawlgate::{CompiledRobotsTxt, RobotsTxt};
///
/// let body = b"User-agent: Googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nDisallow: /private\n";
/// let kept = Arc::new(CompiledRobotsTxt::new(RobotsTxt::parse(body)));
/// for page in 0..100 {
///     assert!(kept.is_allowed("Googlebot", &format!("https://example.com/{page}")));
/// }
/// assert!(!kept.is_allowed("Googlebot", "https://example.com/nogoogle/x"));
/// let verdict = kept.decide("otherbot", "https://example.com/private/x");
/// assert_eq!(verdict.line(), Some(5));
///
/// // Threads share the file and its compiled rules.
/// let other = Arc::clone(&kept);
/// std::thread::spawn(move || assert!(other.is_allowed("otherbot", "/public"))).join().unwrap();
///
/// // A view borrows the kept rules: many questions, no lookup of the crawler.
/// let googlebot = kept.view("Googlebot");
/// assert!(googlebot.is_allowed("/private"));
/// assert_eq!(kept.robots().groups().len(), 2);
/// ```
#[derive(Clone)]
pub struct CompiledRobotsTxt {
    robots: Arc<RobotsTxt>,
    /// One per set of groups a crawler can obey in the file.
    rules: Box<[KeptMatcher]>,
}

impl CompiledRobotsTxt {
    /// Keeps `robots` (a [`RobotsTxt`] or an `Arc` of one) for many
    /// questions. Nothing is compiled yet.
    pub fn new(robots: impl Into<Arc<RobotsTxt>>) -> CompiledRobotsTxt {
        let robots = robots.into();
        let rules = (0..robots.selections())
            .map(|_| KeptMatcher::default())
            .collect();
        CompiledRobotsTxt { robots, rules }
    }

    /// The parsed file.
    pub fn robots(&self) -> &RobotsTxt {
        &self.robots
    }

    /// The parsed file, to hand on.
    pub fn shared(&self) -> &Arc<RobotsTxt> {
        &self.robots
    }

    /// The view of `who` (a product token, or a crawler a person names:
    /// see [`RobotsTxt::view`]), sharing the compiled rules kept here with
    /// every view of the same groups, whichever reading chose them.
    ///
    /// ```
    /// use crawlgate::{CompiledRobotsTxt, RobotsTxt, Who};
    /// let kept = CompiledRobotsTxt::new(RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n"));
    /// let image = Who::crawler("Googlebot-Image");
    /// assert!(!kept.view(image).is_allowed("/g/photo.jpg"));
    /// assert!(kept.view(image).is_allowed("/photo.jpg"));
    /// assert!(!kept.view("Googlebot-Image").is_allowed("/photo.jpg"));
    /// ```
    pub fn view<'w>(&self, who: impl Into<Who<'w>>) -> AgentView<'_> {
        self.robots.view_keeping(who.into(), &self.rules)
    }

    /// Decides whether `who` may fetch `url` and says which rule decided:
    /// the same verdict as [`RobotsTxt::decide`], from rules compiled once
    /// the crawler's groups have answered a few questions.
    pub fn decide<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> Verdict<'_> {
        self.view(who).decide(url)
    }

    /// Whether `who` may fetch `url`: [`decide`](Self::decide)'s answer.
    pub fn is_allowed<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> bool {
        self.view(who).is_allowed(url)
    }

    /// The heap bytes held: the file's ([`RobotsTxt::heap_size`]) and the
    /// rules compiled so far.
    pub fn heap_size(&self) -> usize {
        self.robots.heap_size()
            + std::mem::size_of_val(&*self.rules)
            + self.rules.iter().map(KeptMatcher::heap_size).sum::<usize>()
    }
}

impl From<RobotsTxt> for CompiledRobotsTxt {
    fn from(robots: RobotsTxt) -> Self {
        CompiledRobotsTxt::new(robots)
    }
}

impl From<Arc<RobotsTxt>> for CompiledRobotsTxt {
    fn from(robots: Arc<RobotsTxt>) -> Self {
        CompiledRobotsTxt::new(robots)
    }
}

impl fmt::Debug for CompiledRobotsTxt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let compiled = self.rules.iter().filter(|r| r.is_compiled()).count();
        f.debug_struct("CompiledRobotsTxt")
            .field("robots", &self.robots)
            .field("compiled", &compiled)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Profile, RobotsTxt};

    const BODY: &[u8] = b"User-agent: a\nUser-agent: A\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\nAllow: /b/ok\n\nUser-agent: *\nDisallow: /private\n";

    #[test]
    fn answers_as_the_file_does_and_compiles_once_per_set_of_groups() {
        let urls = [
            "/",
            "/a",
            "/a/x",
            "/b",
            "/b/ok",
            "/private/x",
            "https://h/b/ok#f",
        ];
        for profile in Profile::ALL {
            let robots = RobotsTxt::parse_with(BODY, profile);
            let kept = CompiledRobotsTxt::new(robots.clone());
            for round in 0..10 {
                for agent in ["a", "A", "b", "c", "d", "", "a/1.0"] {
                    for url in urls {
                        let (want, got) = (robots.decide(agent, url), kept.decide(agent, url));
                        assert_eq!(
                            (
                                want.is_allowed(),
                                want.line(),
                                want.reason(),
                                want.selection()
                            ),
                            (got.is_allowed(), got.line(), got.reason(), got.selection()),
                            "[{}] round {round} {agent:?} {url:?}",
                            profile.name
                        );
                        assert_eq!(kept.is_allowed(agent, url), want.is_allowed());
                    }
                }
            }
            // Every set of groups asked about has compiled, once.
            let compiled = kept.rules.iter().filter(|r| r.is_compiled()).count();
            // Yandex's parser knows none of these names: all read `*`.
            let sets = if profile == Profile::YANDEX { 1 } else { 2 };
            assert!(compiled >= sets, "[{}] {compiled} compiled", profile.name);
            assert!(compiled <= robots.selections());
            assert!(kept.heap_size() > robots.heap_size());
        }
    }

    #[test]
    fn views_share_the_kept_rules() {
        let kept = CompiledRobotsTxt::new(RobotsTxt::parse(BODY));
        for _ in 0..10 {
            assert!(!kept.view("a").is_allowed("/a"));
        }
        // `A` names the same group as `a`: compiled already.
        let slot = kept.robots().select("A").slot.unwrap() as usize;
        assert!(kept.rules[slot].is_compiled());
        assert!(!kept.rules[kept.robots().select("b").slot.unwrap() as usize].is_compiled());
    }

    #[test]
    fn threads_compile_and_answer_together() {
        let kept = Arc::new(CompiledRobotsTxt::new(RobotsTxt::parse(BODY)));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let kept = Arc::clone(&kept);
                std::thread::spawn(move || {
                    (0..200).all(|i| {
                        kept.is_allowed("b", &format!("/b/ok/{i}"))
                            && !kept.is_allowed("c", &format!("/private/{i}"))
                    })
                })
            })
            .collect();
        for thread in threads {
            assert!(thread.join().unwrap());
        }
    }
}
