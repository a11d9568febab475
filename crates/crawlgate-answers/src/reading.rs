//! A robots.txt as a crawler holds it, read from a file or fetched, and
//! the verdicts it gives: the one type the command line, the service and
//! the Python package answer from.

use crawlgate::{AgentView, CompiledRobotsTxt, RobotsTxt, Who};

use crate::outcome::{is_robots_txt, Outcome, Rules};
use crate::verdict::ExplainedVerdict;

impl Outcome {
    /// May `who` (a product token, or a crawler a person names:
    /// [`Who`]) fetch `url` under this outcome? `/robots.txt` itself is
    /// always allowed (RFC 9309 §2.2.2); full allow and full disallow
    /// decide without rules; otherwise the parsed file decides. A crawler
    /// whose operator says it ignores robots.txt is allowed whatever the
    /// fetch gave: it does not read the file at all.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use crawlgate::{Reason, Who};
    /// use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse};
    ///
    /// let failed = FetchResult::Response(HttpResponse::new(503));
    /// let (outcome, _) = FetchPolicy::default().apply(&failed, None, SystemTime::now());
    /// let verdict = outcome.decide("mybot", "https://example.com/page");
    /// assert_eq!((verdict.allowed, verdict.basis), (false, Basis::FullDisallow));
    /// assert!(outcome.decide("mybot", "https://example.com/robots.txt").allowed);
    /// let reader = outcome.decide(Who::crawler("Google-Read-Aloud"), "https://example.com/page");
    /// assert_eq!((reader.allowed, reader.basis), (true, Basis::Rules(Reason::IgnoresRobotsTxt)));
    /// ```
    pub fn decide<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> ExplainedVerdict {
        let who = who.into();
        let view = match &self.rules {
            Rules::Conditional(copy) => Some(copy.compiled().view(who)),
            Rules::FullAllow | Rules::FullDisallow => None,
        };
        decide_fetched(self, who, view.as_ref(), url)
    }
}

/// The verdict under a fetch outcome, with `who`'s view of the file when
/// the outcome left one.
fn decide_fetched(
    outcome: &Outcome,
    who: Who<'_>,
    view: Option<&AgentView<'_>>,
    url: &str,
) -> ExplainedVerdict {
    let ignoring = who.registered().filter(|c| c.ignores_robots_txt());
    if is_robots_txt(url) && ignoring.is_none() {
        return ExplainedVerdict::robots_txt_itself();
    }
    match (view, ignoring) {
        (Some(view), _) => ExplainedVerdict::named(&view.decide(url), who.name()),
        (None, Some(crawler)) => ExplainedVerdict::ignoring(crawler),
        (None, None) => {
            ExplainedVerdict::by_outcome(matches!(outcome.rules, Rules::FullAllow), outcome.reason)
        }
    }
}

/// A robots.txt read locally (its rules alone decide) or fetched (its
/// fetch outcome decides: `/robots.txt` itself is always allowed, full allow
/// and full disallow decide without rules, a fetched file by its rules).
///
/// ```
/// use std::time::SystemTime;
/// use crawlgate::{Profile, RobotsTxt, Who};
/// use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse, Robots};
///
/// let file = Robots::local(RobotsTxt::parse_with(b"User-agent: *\nDisallow: /\n", Profile::GOOGLE));
/// assert!(!file.decide("mybot", "/page").allowed);
/// assert!(file.robots().is_some());
///
/// let failed = FetchResult::Response(HttpResponse::new(503));
/// let (outcome, _) = FetchPolicy::default().apply(&failed, None, SystemTime::now());
/// let fetched = Robots::fetched(outcome);
/// let verdict = fetched.decide(Who::crawler("Googlebot"), "https://example.com/page");
/// assert_eq!((verdict.allowed, verdict.basis), (false, Basis::FullDisallow));
/// assert!(fetched.robots().is_none() && fetched.outcome_without_rules().is_some());
/// assert_eq!(fetched.body(), None);
/// ```
#[derive(Clone, Debug)]
pub enum Robots {
    /// A file, standard input or bytes a caller holds, read under a
    /// profile; its rules are compiled for the crawlers asked about (once
    /// asked a few questions), so repeated questions compile once.
    Local(CompiledRobotsTxt),
    /// A fetched robots.txt, under its fetch outcome.
    Fetched(Outcome),
}

impl Robots {
    /// A robots.txt read locally.
    pub fn local(robots: RobotsTxt) -> Robots {
        Robots::Local(CompiledRobotsTxt::new(robots))
    }

    /// A fetched robots.txt, as its fetch outcome has it.
    pub fn fetched(outcome: Outcome) -> Robots {
        Robots::Fetched(outcome)
    }

    /// The parsed file, unless the fetch outcome left no rules to read.
    pub fn robots(&self) -> Option<&RobotsTxt> {
        self.compiled().map(CompiledRobotsTxt::robots)
    }

    /// The parsed file with its rules compiled for the crawlers asked
    /// about (shared by every question and view of it), unless the fetch
    /// outcome left no rules to read.
    pub fn compiled(&self) -> Option<&CompiledRobotsTxt> {
        match self {
            Robots::Local(compiled) => Some(compiled),
            Robots::Fetched(outcome) => match &outcome.rules {
                Rules::Conditional(copy) => Some(copy.compiled()),
                Rules::FullAllow | Rules::FullDisallow => None,
            },
        }
    }

    /// The bytes a fetched file was parsed from (a local file's bytes are
    /// its reader's: they are not kept here); `None` when the fetch left no
    /// rules to read.
    pub fn body(&self) -> Option<&[u8]> {
        match self {
            Robots::Fetched(Outcome {
                rules: Rules::Conditional(copy),
                ..
            }) => Some(copy.body()),
            _ => None,
        }
    }

    /// The fetch outcome, when it left no rules to read (full allow or full
    /// disallow).
    pub fn outcome_without_rules(&self) -> Option<&Outcome> {
        match self {
            Robots::Fetched(outcome) if !matches!(outcome.rules, Rules::Conditional(_)) => {
                Some(outcome)
            }
            _ => None,
        }
    }

    /// May `who` (a product token, or a crawler a person names: [`Who`])
    /// fetch `url`? One question: to ask many, take `who`'s
    /// [`view`](Self::view) once.
    pub fn decide<'w>(&self, who: impl Into<Who<'w>>, url: &str) -> ExplainedVerdict {
        self.view(who).decide(url)
    }

    /// `who`'s view of this robots.txt (a product token, or a crawler a
    /// person names: [`Who`]), built once for many questions: the
    /// crawler's groups are chosen once, and its rules compiled once.
    ///
    /// ```
    /// use crawlgate::{ChoiceKind, RobotsTxt, Who};
    /// use crawlgate_answers::Robots;
    ///
    /// let robots = Robots::local(RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /g\n"));
    /// let image = robots.view(Who::crawler("Googlebot-Image"));
    /// assert!(!image.decide("/g/a.jpg").allowed);
    /// assert!(image.decide("/a.jpg").allowed);
    /// assert_eq!(image.rules().unwrap().group_choice().kind(), ChoiceKind::Fallback);
    /// ```
    pub fn view<'a, 'w: 'a>(&'a self, who: impl Into<Who<'w>>) -> RobotsView<'a> {
        let who: Who<'w> = who.into();
        RobotsView {
            robots: self,
            who,
            rules: self.compiled().map(|compiled| compiled.view(who)),
        }
    }
}

/// One crawler's view of a [`Robots`] ([`Robots::view`]): its groups
/// chosen once, its rules compiled once, for many questions.
#[derive(Clone, Debug)]
pub struct RobotsView<'a> {
    robots: &'a Robots,
    who: Who<'a>,
    rules: Option<AgentView<'a>>,
}

impl<'a> RobotsView<'a> {
    /// May the crawler fetch `url`? What [`Robots::decide`] answers.
    pub fn decide(&self, url: &str) -> ExplainedVerdict {
        match (self.robots, &self.rules) {
            (Robots::Fetched(outcome), rules) => {
                decide_fetched(outcome, self.who, rules.as_ref(), url)
            }
            (_, Some(view)) => ExplainedVerdict::named(&view.decide(url), self.who.name()),
            (Robots::Local(compiled), None) => {
                ExplainedVerdict::named(&compiled.decide(self.who, url), self.who.name())
            }
        }
    }

    /// The crawler's view of the file's rules (its groups, their choice,
    /// its preferences), unless the fetch outcome left no rules to read.
    pub fn rules(&self) -> Option<&AgentView<'a>> {
        self.rules.as_ref()
    }

    /// Who asks.
    pub fn who(&self) -> Who<'a> {
        self.who
    }
}
