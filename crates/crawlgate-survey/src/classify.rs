//! What a site says to one crawler, in one word.
//!
//! The classes, for a crawler `C` and a site whose robots.txt fetch gave an
//! outcome (RFC 9309 §2.3.1):
//!
//! * **blocked**: `C` may fetch none of the probe paths: the root `/` and up
//!   to [`MAX_SAMPLES`] paths taken from the file's own rules. Either groups
//!   naming `C` disallow them all, or the fetch gave *full disallow* (a 5xx,
//!   429 or network failure: nothing may be crawled).
//! * **partial**: groups naming `C` disallow some probe paths and allow
//!   others.
//! * **allowed**: groups naming `C` allow every probe path.
//! * **unmentioned**: no group names `C`: the `*` groups answer for it, or
//!   nothing does (no `*` group, or *full allow*: no robots.txt, a 4xx).
//!
//! For `*` itself, "groups naming it" are the `*` groups. Every class comes
//! with the line of the rule that decides `/` for `C` (for an unmentioned
//! crawler, the `*` rule), when a rule does.
//!
//! The probe paths of a file: `/`, then, in file order, the literal start of
//! each allow and disallow pattern of every group (the part before any `*`
//! or `$`), when it starts with `/` and is not `/` itself, each once, at most
//! [`MAX_SAMPLES`]. Paths named by other groups count too: a file that gives
//! `C` `Disallow: /` and everyone else `Allow: /public/` still blocks `C`
//! from `/public/`.
//!
//! ```
//! use crawlgate::RobotsTxt;
//! use crawlgate_survey::{Class, Classifier};
//!
//! let robots = RobotsTxt::parse(b"\
//! User-agent: GPTBot
//! Disallow: /
//!
//! User-agent: CCBot
//! Disallow: /private/
//!
//! User-agent: *
//! Allow: /
//! ");
//! let classifier = Classifier::new(&robots);
//! assert_eq!(classifier.probe_paths(), ["/", "/private/"]);
//! let gptbot = classifier.classify("GPTBot");
//! assert_eq!((gptbot.class, gptbot.line), (Class::Blocked, Some(2)));
//! assert_eq!(classifier.classify("CCBot").class, Class::Partial);
//! let other = classifier.classify("ClaudeBot");
//! assert_eq!((other.class, other.line), (Class::Unmentioned, Some(8)));
//! assert_eq!(classifier.classify("*").class, Class::Allowed);
//! ```

use std::fmt;

use crawlgate::{RobotsTxt, SelectionKind};
use crawlgate_fetch::{Outcome, Rules};

use crate::crawlers::ANY;

/// The most paths of the file's own rules a crawler is probed with (besides
/// `/`).
pub const MAX_SAMPLES: usize = 32;

/// What a site says to one crawler (see the [module](self) for the exact
/// definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Named, and every probe path is disallowed (or the fetch gave full
    /// disallow).
    Blocked,
    /// Named; some probe paths are disallowed, some allowed.
    Partial,
    /// Named; every probe path is allowed.
    Allowed,
    /// Not named: `*` or nothing answers.
    Unmentioned,
}

impl Class {
    /// Every class, in this order.
    pub const ALL: [Class; 4] = [
        Class::Blocked,
        Class::Partial,
        Class::Allowed,
        Class::Unmentioned,
    ];

    /// The word written in tables (`blocked`).
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Blocked => "blocked",
            Class::Partial => "partial",
            Class::Allowed => "allowed",
            Class::Unmentioned => "unmentioned",
        }
    }

    /// The class written as `word`.
    pub fn from_word(word: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == word)
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A crawler's class and the line of the rule deciding `/` for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The class.
    pub class: Class,
    /// The line of the rule that decides `/`, when a rule does.
    pub line: Option<u32>,
}

/// Classifies crawlers against one parsed file: the probe paths and the
/// `*` answer for `/` are worked out once.
#[derive(Debug)]
pub struct Classifier<'a> {
    robots: &'a RobotsTxt,
    probes: Vec<String>,
    /// The line deciding `/` for a crawler that no group names.
    unnamed_line: Option<u32>,
}

impl<'a> Classifier<'a> {
    /// The classifier of a parsed file.
    pub fn new(robots: &'a RobotsTxt) -> Classifier<'a> {
        Classifier {
            robots,
            probes: probe_paths(robots),
            unnamed_line: robots.for_agent(ANY).decide_path("/").line(),
        }
    }

    /// `/`, then the paths taken from the file's rules.
    pub fn probe_paths(&self) -> &[String] {
        &self.probes
    }

    /// The class of the crawler with product token `token` (`*` for the
    /// `*` groups).
    pub fn classify(&self, token: &str) -> Classification {
        let view = self.robots.for_agent(token);
        let named = match view.selection() {
            SelectionKind::Specific => true,
            SelectionKind::Global => token == ANY,
            SelectionKind::Nothing => false,
        };
        if !named {
            return Classification {
                class: Class::Unmentioned,
                line: self.unnamed_line,
            };
        }
        let root = view.decide_path("/");
        let mut disallowed = usize::from(!root.is_allowed());
        for path in &self.probes[1..] {
            disallowed += usize::from(!view.decide_path(path).is_allowed());
        }
        let class = if disallowed == self.probes.len() {
            Class::Blocked
        } else if disallowed == 0 {
            Class::Allowed
        } else {
            Class::Partial
        };
        Classification {
            class,
            line: root.line(),
        }
    }
}

/// The class of every crawler of `tokens` under a fetch outcome: full
/// disallow blocks them all, full allow leaves them all unmentioned, and
/// a parsed file is read by a [`Classifier`].
pub fn classify_outcome<'t>(
    outcome: &Outcome,
    tokens: impl IntoIterator<Item = &'t str>,
) -> Vec<Classification> {
    let fixed = |class| Classification { class, line: None };
    match &outcome.rules {
        Rules::FullDisallow => tokens.into_iter().map(|_| fixed(Class::Blocked)).collect(),
        Rules::FullAllow => tokens
            .into_iter()
            .map(|_| fixed(Class::Unmentioned))
            .collect(),
        Rules::Conditional(copy) => {
            let classifier = Classifier::new(copy.robots());
            tokens.into_iter().map(|t| classifier.classify(t)).collect()
        }
    }
}

/// `/` and up to [`MAX_SAMPLES`] literal rule starts, each once.
fn probe_paths(robots: &RobotsTxt) -> Vec<String> {
    let mut probes = vec!["/".to_owned()];
    for rule in robots.rules() {
        if probes.len() > MAX_SAMPLES {
            break;
        }
        let pattern = rule.pattern();
        let literal = &pattern[..pattern.find(['*', '$']).unwrap_or(pattern.len())];
        if literal.starts_with('/') && literal != "/" && !probes.iter().any(|p| p == literal) {
            probes.push(literal.to_owned());
        }
    }
    probes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crawlgate::Profile;
    use crawlgate_fetch::{OutcomeReason, RobotsCopy};

    fn classify(body: &str, token: &str) -> Classification {
        Classifier::new(&RobotsTxt::parse(body.as_bytes())).classify(token)
    }

    #[test]
    fn a_crawler_named_and_disallowed_everywhere_is_blocked() {
        let body =
            "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /public/\nDisallow: /tmp\n";
        let c = classify(body, "gptbot");
        assert_eq!((c.class, c.line), (Class::Blocked, Some(2)));
        // Another group's paths are probed: /public/ is disallowed for GPTBot too.
        let robots = RobotsTxt::parse(body.as_bytes());
        assert_eq!(
            Classifier::new(&robots).probe_paths(),
            ["/", "/public/", "/tmp"]
        );
    }

    #[test]
    fn an_allowed_path_inside_a_blocked_site_makes_it_partial() {
        let body = "User-agent: GPTBot\nDisallow: /\nAllow: /news/\n";
        assert_eq!(classify(body, "GPTBot").class, Class::Partial);
        // And a disallowed folder in an open site.
        let body = "User-agent: GPTBot\nDisallow: /private\n";
        let c = classify(body, "GPTBot");
        assert_eq!((c.class, c.line), (Class::Partial, None));
    }

    #[test]
    fn a_named_crawler_with_nothing_disallowed_is_allowed() {
        for body in [
            "User-agent: GPTBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n",
            "User-agent: GPTBot\nAllow: /\n",
            "User-agent: GPTBot\n",
        ] {
            assert_eq!(classify(body, "GPTBot").class, Class::Allowed, "{body}");
        }
    }

    #[test]
    fn crawlers_no_group_names_are_unmentioned_with_the_star_line() {
        let c = classify("User-agent: *\nDisallow: /\n", "GPTBot");
        assert_eq!((c.class, c.line), (Class::Unmentioned, Some(2)));
        let c = classify("User-agent: Googlebot\nDisallow: /\n", "GPTBot");
        assert_eq!((c.class, c.line), (Class::Unmentioned, None));
        // Product tokens match exactly: a group for GPTBot-News is not GPTBot's.
        assert_eq!(
            classify("User-agent: GPTBot-News\nDisallow: /\n", "GPTBot").class,
            Class::Unmentioned
        );
    }

    #[test]
    fn star_is_classified_by_the_star_groups() {
        let c = classify("User-agent: *\nDisallow: /\n", "*");
        assert_eq!((c.class, c.line), (Class::Blocked, Some(2)));
        assert_eq!(
            classify("User-agent: a\nDisallow: /\n", "*").class,
            Class::Unmentioned
        );
    }

    #[test]
    fn wildcards_are_probed_by_their_literal_start() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nDisallow: /*.pdf$\nDisallow: /search*\nAllow: /$\nDisallow: nope\n",
        );
        assert_eq!(Classifier::new(&robots).probe_paths(), ["/", "/search"]);
    }

    #[test]
    fn probes_are_bounded() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..1000 {
            body.push_str(&format!("Disallow: /p{i}\n"));
        }
        let robots = RobotsTxt::parse(body.as_bytes());
        assert_eq!(
            Classifier::new(&robots).probe_paths().len(),
            MAX_SAMPLES + 1
        );
    }

    #[test]
    fn full_outcomes_classify_without_rules() {
        let tokens = ["GPTBot", "*"];
        let deny = Outcome {
            rules: Rules::FullDisallow,
            reason: OutcomeReason::ServerError,
        };
        assert!(classify_outcome(&deny, tokens)
            .iter()
            .all(|c| c.class == Class::Blocked && c.line.is_none()));
        let allow = Outcome {
            rules: Rules::FullAllow,
            reason: OutcomeReason::NotFound,
        };
        assert!(classify_outcome(&allow, tokens)
            .iter()
            .all(|c| c.class == Class::Unmentioned));
        let parsed = Outcome {
            rules: Rules::Conditional(Arc::new(RobotsCopy::parse(
                b"User-agent: GPTBot\nDisallow: /\n",
                Profile::GOOGLE,
            ))),
            reason: OutcomeReason::Fetched,
        };
        let classes: Vec<Class> = classify_outcome(&parsed, tokens)
            .iter()
            .map(|c| c.class)
            .collect();
        assert_eq!(classes, [Class::Blocked, Class::Unmentioned]);
    }

    #[test]
    fn words_round_trip() {
        for class in Class::ALL {
            assert_eq!(Class::from_word(class.as_str()), Some(class));
        }
        assert_eq!(Class::from_word("nope"), None);
    }
}
