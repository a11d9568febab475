//! What a fetch means for a crawler: full allow, full disallow, or the
//! rules of the parsed file (RFC 9309 §2.3.1), why, and the verdict on a
//! URL under that outcome.

use std::fmt;
use std::sync::Arc;

use crawlgate::{CompiledRobotsTxt, Profile, RobotsTxt};
use serde::{Deserialize, Serialize};

/// A parsed robots.txt together with the bytes it was parsed from (kept so
/// a cache backend can store the entry and parse it again), and the rules
/// compiled for the crawlers that ask about it (a cached copy serves many
/// questions).
pub struct RobotsCopy {
    body: Box<[u8]>,
    robots: CompiledRobotsTxt,
}

impl RobotsCopy {
    /// Parses `body` under `profile`.
    pub fn parse(body: &[u8], profile: Profile) -> RobotsCopy {
        RobotsCopy {
            body: body.into(),
            robots: CompiledRobotsTxt::new(RobotsTxt::parse_with(body, profile)),
        }
    }

    /// The parsed file.
    pub fn robots(&self) -> &RobotsTxt {
        self.robots.robots()
    }

    /// The parsed file with the rules compiled for the crawlers asking
    /// about it.
    pub fn compiled(&self) -> &CompiledRobotsTxt {
        &self.robots
    }

    /// The bytes it was parsed from.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Heap bytes held (body, parsed model and the rules compiled so far).
    pub fn heap_size(&self) -> usize {
        self.body.len() + self.robots.heap_size()
    }
}

impl fmt::Debug for RobotsCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RobotsCopy")
            .field("bytes", &self.body.len())
            .field("robots", self.robots.robots())
            .finish()
    }
}

#[derive(Serialize, Deserialize)]
struct StoredCopy {
    profile: String,
    body: Vec<u8>,
}

impl Serialize for RobotsCopy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StoredCopy {
            profile: self.robots().profile().name.to_owned(),
            body: self.body.to_vec(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RobotsCopy {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = StoredCopy::deserialize(deserializer)?;
        let profile = Profile::named(&stored.profile).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown profile {:?}", stored.profile))
        })?;
        Ok(RobotsCopy::parse(&stored.body, profile))
    }
}

/// What to obey: the three outcomes of a fetch (RFC 9309 §2.3.1).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "robots", rename_all = "snake_case")]
pub enum Rules {
    /// No restrictions.
    FullAllow,
    /// Nothing may be crawled.
    FullDisallow,
    /// The parsed rules decide.
    Conditional(Arc<RobotsCopy>),
}

impl Rules {
    /// Which of the three.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Rules::FullAllow => OutcomeKind::FullAllow,
            Rules::FullDisallow => OutcomeKind::FullDisallow,
            Rules::Conditional(_) => OutcomeKind::Conditional,
        }
    }

    /// The parsed file, for a conditional outcome.
    pub fn robots(&self) -> Option<&RobotsTxt> {
        match self {
            Rules::Conditional(copy) => Some(copy.robots()),
            _ => None,
        }
    }

    /// Heap bytes held.
    pub fn heap_size(&self) -> usize {
        match self {
            Rules::Conditional(copy) => copy.heap_size(),
            _ => 0,
        }
    }
}

/// [`Rules`] without the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// No restrictions.
    FullAllow,
    /// Nothing may be crawled.
    FullDisallow,
    /// The parsed rules decide.
    Conditional,
}

impl fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutcomeKind::FullAllow => "full allow",
            OutcomeKind::FullDisallow => "full disallow",
            OutcomeKind::Conditional => "conditional",
        })
    }
}

/// Why the fetch gave the outcome it did (RFC 9309 §2.3.1; Google's "How
/// Google interprets the robots.txt specification", under "Handling of
/// errors and HTTP status codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum OutcomeReason {
    /// 2xx: the body was parsed.
    Fetched,
    /// 4xx other than 429: as if there were no robots.txt.
    NotFound,
    /// A redirect was not followed (limit, loop …): as a 404.
    RedirectsNotFollowed,
    /// A 5xx whose body plainly says "not found" (optional heuristic).
    SoftNotFound,
    /// 429, 5xx or a network failure, and no earlier copy: full disallow
    /// until a retry succeeds.
    ServerError,
    /// A refresh failed; the last good copy is used past its expiry.
    StaleCopy,
    /// Server errors for more than 30 days: the last good copy.
    UnreachableLastCopy,
    /// Server errors for more than 30 days and no copy: full allow.
    UnreachableAllowAll,
}

impl fmt::Display for OutcomeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutcomeReason::Fetched => "robots.txt fetched and parsed",
            OutcomeReason::NotFound => "no robots.txt (4xx): everything allowed",
            OutcomeReason::RedirectsNotFollowed => {
                "redirects not followed to the end: treated as 404, everything allowed"
            }
            OutcomeReason::SoftNotFound => "5xx with a not-found page: treated as 404",
            OutcomeReason::ServerError => {
                "server error or network failure: everything disallowed until a retry succeeds"
            }
            OutcomeReason::StaleCopy => "refresh failed: using the last good copy",
            OutcomeReason::UnreachableLastCopy => {
                "unreachable for more than 30 days: using the last good copy"
            }
            OutcomeReason::UnreachableAllowAll => {
                "unreachable for more than 30 days and no copy: everything allowed"
            }
        })
    }
}

/// What to obey, and why.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The rules.
    pub rules: Rules,
    /// Why the fetch gave these rules.
    pub reason: OutcomeReason,
}

impl Outcome {
    /// Which of the three outcomes.
    pub fn kind(&self) -> OutcomeKind {
        self.rules.kind()
    }

    /// The same outcome with its file read under `profile` (parsed again
    /// from the bytes it keeps); full allow and full disallow are unchanged.
    pub fn with_profile(&self, profile: Profile) -> Outcome {
        let rules = match &self.rules {
            Rules::Conditional(copy) if copy.robots().profile().name != profile.name => {
                Rules::Conditional(Arc::new(RobotsCopy::parse(copy.body(), profile)))
            }
            rules => rules.clone(),
        };
        Outcome {
            rules,
            reason: self.reason,
        }
    }
}

/// Whether `url` (absolute or a path) is the robots.txt of its own origin:
/// always allowed, whatever the file says or the fetch gave (RFC 9309
/// §2.2.2).
///
/// ```
/// use crawlgate_answers::is_robots_txt;
/// assert!(is_robots_txt("https://example.com/robots.txt") && is_robots_txt("/robots.txt"));
/// assert!(!is_robots_txt("/private/robots.txt"));
/// ```
pub fn is_robots_txt(url: &str) -> bool {
    crawlgate::path_of(url) == "/robots.txt"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Basis;
    use crawlgate::Reason;

    const BODY: &[u8] = b"User-agent: *\nDisallow: /private\nDisallow: /*.php$\n";

    fn conditional(reason: OutcomeReason) -> Outcome {
        Outcome {
            rules: Rules::Conditional(Arc::new(RobotsCopy::parse(BODY, Profile::GOOGLE))),
            reason,
        }
    }

    #[test]
    fn robots_txt_itself_is_allowed_under_every_outcome() {
        for outcome in [
            conditional(OutcomeReason::Fetched),
            Outcome {
                rules: Rules::FullDisallow,
                reason: OutcomeReason::ServerError,
            },
        ] {
            let verdict = outcome.decide("bot", "https://example.com/robots.txt");
            assert_eq!(
                (verdict.allowed, verdict.basis),
                (true, Basis::Rules(Reason::RobotsTxt))
            );
        }
        // Only at the top: a robots.txt elsewhere is an ordinary URL.
        let nested = conditional(OutcomeReason::Fetched).decide("bot", "/private/robots.txt");
        assert_eq!(nested.basis, Basis::Rules(Reason::Rule));
    }

    #[test]
    fn full_outcomes_decide_without_rules() {
        let allow = Outcome {
            rules: Rules::FullAllow,
            reason: OutcomeReason::NotFound,
        };
        let verdict = allow.decide("bot", "/private");
        assert_eq!((verdict.allowed, verdict.basis), (true, Basis::FullAllow));
        assert_eq!(verdict.fetch_outcome, Some(OutcomeReason::NotFound));
        let deny = Outcome {
            rules: Rules::FullDisallow,
            reason: OutcomeReason::ServerError,
        };
        assert_eq!(deny.decide("bot", "/").basis, Basis::FullDisallow);
    }

    #[test]
    fn conditional_outcomes_decide_by_the_rules() {
        let verdict = conditional(OutcomeReason::StaleCopy).decide("bot", "/private/x");
        assert_eq!((verdict.allowed, verdict.line()), (false, Some(2)));
        assert_eq!(verdict.fetch_outcome, None);
    }

    #[test]
    fn another_profile_reads_the_same_bytes() {
        let google = conditional(OutcomeReason::Fetched);
        let legacy = google.with_profile(Profile::LEGACY);
        assert_eq!(legacy.reason, OutcomeReason::Fetched);
        assert_eq!(legacy.rules.robots().unwrap().profile().name, "legacy");
        // Legacy reads `$` literally, Google as the end of the path.
        assert!(!google.decide("bot", "/a.php").allowed);
        assert!(legacy.decide("bot", "/a.php").allowed);
        let same = google.with_profile(Profile::GOOGLE);
        match (&same.rules, &google.rules) {
            (Rules::Conditional(a), Rules::Conditional(b)) => assert!(Arc::ptr_eq(a, b)),
            _ => panic!("still conditional"),
        }
        let full = Outcome {
            rules: Rules::FullAllow,
            reason: OutcomeReason::NotFound,
        };
        assert_eq!(
            full.with_profile(Profile::RFC9309).kind(),
            OutcomeKind::FullAllow
        );
    }

    #[test]
    fn copies_round_trip_through_serde_with_their_profile() {
        let copy = RobotsCopy::parse(BODY, Profile::RFC9309);
        let json = serde_json::to_string(&copy).unwrap();
        let back: RobotsCopy = serde_json::from_str(&json).unwrap();
        assert_eq!(back.body(), BODY);
        assert_eq!(back.robots().profile().name, "rfc9309");
        let unknown = json.replace("rfc9309", "baidu");
        let error = serde_json::from_str::<RobotsCopy>(&unknown).unwrap_err();
        assert!(
            error.to_string().contains("unknown profile \"baidu\""),
            "{error}"
        );
    }

    #[test]
    fn outcomes_read_as_words() {
        assert_eq!(OutcomeKind::FullAllow.to_string(), "full allow");
        assert_eq!(
            OutcomeReason::NotFound.to_string(),
            "no robots.txt (4xx): everything allowed"
        );
        assert_eq!(Rules::FullDisallow.kind(), OutcomeKind::FullDisallow);
        assert_eq!(Rules::FullAllow.heap_size(), 0);
        assert!(Rules::FullAllow.robots().is_none());
    }
}
