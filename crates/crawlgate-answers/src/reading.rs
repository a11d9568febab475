//! A robots.txt as a crawler holds it, read from a file or fetched, and
//! the verdicts it gives: the one type the command line, the service and
//! the Python package answer from.

use crawlgate::{CompiledRobotsTxt, Reading, RobotsTxt};

use crate::outcome::{is_robots_txt, Outcome, Rules};
use crate::verdict::ExplainedVerdict;

impl Outcome {
    /// May `agent` (a product token) fetch `url` under this outcome?
    /// `/robots.txt` itself is always allowed (RFC 9309 §2.2.2); full allow
    /// and full disallow decide without rules; otherwise the parsed file
    /// decides.
    ///
    /// ```
    /// use std::time::SystemTime;
    /// use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse};
    ///
    /// let failed = FetchResult::Response(HttpResponse::new(503));
    /// let (outcome, _) = FetchPolicy::default().apply(&failed, None, SystemTime::now());
    /// let verdict = outcome.decide("mybot", "https://example.com/page");
    /// assert_eq!((verdict.allowed, verdict.basis), (false, Basis::FullDisallow));
    /// assert!(outcome.decide("mybot", "https://example.com/robots.txt").allowed);
    /// ```
    pub fn decide(&self, agent: &str, url: &str) -> ExplainedVerdict {
        if is_robots_txt(url) {
            return ExplainedVerdict::robots_txt_itself();
        }
        match &self.rules {
            Rules::FullAllow => ExplainedVerdict::by_outcome(true, self.reason),
            Rules::FullDisallow => ExplainedVerdict::by_outcome(false, self.reason),
            Rules::Conditional(copy) => {
                ExplainedVerdict::named(&copy.compiled().decide(agent, url), agent)
            }
        }
    }

    /// May the crawler a person names fetch `url`, by the crawler reading
    /// ([`RobotsTxt::for_crawler`](crawlgate::RobotsTxt::for_crawler))? As
    /// [`decide`](Self::decide), except that a crawler whose operator says
    /// it ignores robots.txt is allowed whatever the fetch gave: it does
    /// not read the file at all.
    pub fn decide_for_crawler(&self, name: &str, url: &str) -> ExplainedVerdict {
        let ignores = crawlgate::registry::identify(name).is_some_and(|c| c.ignores_robots_txt());
        if is_robots_txt(url) && !ignores {
            return ExplainedVerdict::robots_txt_itself();
        }
        match &self.rules {
            Rules::Conditional(copy) => {
                ExplainedVerdict::named(&copy.compiled().decide_for_crawler(name, url), name)
            }
            _ if ignores => ExplainedVerdict::decide_for_crawler(&RobotsTxt::parse(b""), name, url),
            Rules::FullAllow => ExplainedVerdict::by_outcome(true, self.reason),
            Rules::FullDisallow => ExplainedVerdict::by_outcome(false, self.reason),
        }
    }
}

impl Outcome {
    /// May `agent` fetch `url` under this outcome, its name read as `how`
    /// says: [`decide`](Self::decide) or
    /// [`decide_for_crawler`](Self::decide_for_crawler)?
    pub fn decide_as(&self, agent: &str, how: Reading, url: &str) -> ExplainedVerdict {
        match how {
            Reading::OneToken => self.decide(agent, url),
            Reading::Crawler => self.decide_for_crawler(agent, url),
        }
    }
}

/// A robots.txt read locally (its rules alone decide) or fetched (its
/// fetch outcome decides: `/robots.txt` itself is always allowed, full allow
/// and full disallow decide without rules, a fetched file by its rules).
///
/// ```
/// use std::time::SystemTime;
/// use crawlgate::{Profile, RobotsTxt};
/// use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse, Robots};
///
/// let file = Robots::local(RobotsTxt::parse_with(b"User-agent: *\nDisallow: /\n", Profile::GOOGLE));
/// assert!(!file.decide("mybot", "/page").allowed);
/// assert!(file.robots().is_some());
///
/// let failed = FetchResult::Response(HttpResponse::new(503));
/// let (outcome, _) = FetchPolicy::default().apply(&failed, None, SystemTime::now());
/// let fetched = Robots::fetched(outcome);
/// let verdict = fetched.decide_for_crawler("Googlebot", "https://example.com/page");
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

    /// May `agent` (one product token, as Google's library reads it) fetch
    /// `url`?
    pub fn decide(&self, agent: &str, url: &str) -> ExplainedVerdict {
        match self {
            Robots::Local(compiled) => ExplainedVerdict::named(&compiled.decide(agent, url), agent),
            Robots::Fetched(outcome) => outcome.decide(agent, url),
        }
    }

    /// May the crawler a person names fetch `url`, by the crawler reading
    /// ([`RobotsTxt::for_crawler`])?
    pub fn decide_for_crawler(&self, name: &str, url: &str) -> ExplainedVerdict {
        match self {
            Robots::Local(compiled) => {
                ExplainedVerdict::named(&compiled.decide_for_crawler(name, url), name)
            }
            Robots::Fetched(outcome) => outcome.decide_for_crawler(name, url),
        }
    }

    /// May `agent` fetch `url`, its name read as `how` says:
    /// [`decide`](Self::decide) or [`decide_for_crawler`](Self::decide_for_crawler).
    pub fn decide_as(&self, agent: &str, how: Reading, url: &str) -> ExplainedVerdict {
        match how {
            Reading::OneToken => self.decide(agent, url),
            Reading::Crawler => self.decide_for_crawler(agent, url),
        }
    }
}
