//! The explained verdict: may this crawler fetch this URL, what decided it,
//! and which line of the robots.txt says so. One owned, serialisable answer
//! for everything that shows verdicts (the command line, a service, language
//! bindings), whether the rules of a file decided or the fetch outcome did.

use std::fmt;

use crawlgate::registry::Crawler;
use crawlgate::{
    ChoiceKind, GroupChoice, Reading, Reason, RobotsTxt, Rule, RuleKind, Verdict, Who,
};
use serde::{Deserialize, Serialize, Serializer};

use crate::outcome::OutcomeReason;

/// What decided a verdict: the rules of a file (the core's
/// [`Reason`](crawlgate::Reason)), or the fetch outcome (RFC 9309 §2.3.1),
/// when no rules are read at all.
///
/// Serialised by [`Basis::as_str`], the one table of names the front ends
/// (JSON of the command line and the service, Python, surveys) write.
///
/// ```
/// use crawlgate::Reason;
/// use crawlgate_answers::Basis;
///
/// assert_eq!(Basis::from(Reason::NoGroup), Basis::Rules(Reason::NoGroup));
/// assert_eq!(Basis::Rules(Reason::RobotsTxt).as_str(), "robots_txt_itself");
/// assert_eq!(Basis::FullAllow.reason(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Basis {
    /// The rules of a file decided, for this reason (`/robots.txt` itself,
    /// always allowed, included: [`Reason::RobotsTxt`](crawlgate::Reason::RobotsTxt)).
    Rules(Reason),
    /// The fetch outcome is full allow (a 4xx, redirects given up, or
    /// unreachable for more than 30 days with no copy).
    FullAllow,
    /// The fetch outcome is full disallow (a server error or network
    /// failure, and no earlier copy).
    FullDisallow,
}

impl Basis {
    /// Every basis, in the order of the enum (the reasons in the core's
    /// order).
    pub const ALL: [Basis; 9] = [
        Basis::Rules(Reason::Rule),
        Basis::Rules(Reason::EmptyRule),
        Basis::Rules(Reason::NoMatchingRule),
        Basis::Rules(Reason::NoGroup),
        Basis::Rules(Reason::RobotsTxt),
        Basis::Rules(Reason::IgnoresRobotsTxt),
        Basis::Rules(Reason::RuleLimit),
        Basis::FullAllow,
        Basis::FullDisallow,
    ];

    /// Its name, as every front end writes it.
    ///
    /// ```
    /// use crawlgate::Reason;
    /// use crawlgate_answers::Basis;
    ///
    /// assert_eq!(Basis::Rules(Reason::RobotsTxt).as_str(), "robots_txt_itself");
    /// assert_eq!(serde_json::to_string(&Basis::FullDisallow).unwrap(), r#""full_disallow""#);
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Rules(Reason::Rule) => "rule",
            Basis::Rules(Reason::EmptyRule) => "empty_rule",
            Basis::Rules(Reason::NoMatchingRule) => "no_matching_rule",
            Basis::Rules(Reason::NoGroup) => "no_group",
            Basis::Rules(Reason::RobotsTxt) => "robots_txt_itself",
            Basis::Rules(Reason::IgnoresRobotsTxt) => "ignores_robots_txt",
            Basis::Rules(Reason::RuleLimit) => "rule_limit",
            Basis::FullAllow => "full_allow",
            Basis::FullDisallow => "full_disallow",
        }
    }

    /// The basis named `name` ([`as_str`](Self::as_str)'s names).
    pub fn from_name(name: &str) -> Option<Basis> {
        Basis::ALL.into_iter().find(|b| b.as_str() == name)
    }

    /// The core's reason, when the rules of a file decided.
    pub fn reason(self) -> Option<Reason> {
        match self {
            Basis::Rules(reason) => Some(reason),
            Basis::FullAllow | Basis::FullDisallow => None,
        }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Basis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Basis {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Basis, D::Error> {
        let name = String::deserialize(deserializer)?;
        Basis::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown basis `{name}`")))
    }
}

impl From<Reason> for Basis {
    fn from(reason: Reason) -> Basis {
        Basis::Rules(reason)
    }
}

/// A rule of the file, as a verdict quotes it.
///
/// Serialized as `{"line", "kind": "allow"|"disallow", "value", "text",
/// "via_index_alias"}`.
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_answers::RuleRef;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\ndisallow:   /private  # staff\n");
/// let rule = RuleRef::new(robots.groups().next().unwrap().rules().next().unwrap(), false);
/// assert_eq!((rule.line, rule.value.as_str(), rule.text.as_str()), (2, "/private", "Disallow: /private"));
/// assert_eq!(
///     serde_json::to_string(&rule).unwrap(),
///     r#"{"line":2,"kind":"disallow","value":"/private","text":"Disallow: /private","via_index_alias":false}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RuleRef {
    /// 1-based line number in the robots.txt.
    pub line: u32,
    /// Allow or disallow.
    #[serde(serialize_with = "lowercase_kind")]
    pub kind: RuleKind,
    /// The path pattern as written.
    pub value: String,
    /// The line as the file means it, in canonical form (`Disallow:
    /// /private`).
    pub text: String,
    /// Whether the rule matched through Google's `index.html` alias
    /// (`Allow: /dir/index.html` also matching `/dir/`).
    pub via_index_alias: bool,
}

impl RuleRef {
    /// Quotes `rule`; `via_index_alias` says whether it matched through
    /// Google's `index.html` alias.
    pub fn new(rule: Rule<'_>, via_index_alias: bool) -> RuleRef {
        RuleRef {
            line: rule.line(),
            kind: rule.kind(),
            value: rule.value().to_owned(),
            text: rule.to_string(),
            via_index_alias,
        }
    }

    /// Whether the rule allows.
    pub fn is_allow(&self) -> bool {
        self.kind == RuleKind::Allow
    }
}

fn lowercase_kind<S: Serializer>(kind: &RuleKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    })
}

/// How the crawler's groups were chosen, as a verdict reports it: the
/// reading, the kind of choice, the token whose groups decided, the crawler
/// of the registry and the source of its rule, and the sentence that says
/// why (see [`GroupChoice`](crawlgate::GroupChoice)).
///
/// Serialized as `{"reading", "kind", "token", "crawler", "why", "source"}`;
/// `source` is `{"title", "url", "checked"}` or `null`.
///
/// ```
/// use crawlgate::{ChoiceKind, Reading, RobotsTxt, Who};
/// use crawlgate_answers::ChoiceRef;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
/// let choice = ChoiceRef::new(&robots.view(Who::crawler("AdsBot-Google")).group_choice(), "adsbot-google");
/// assert_eq!((choice.reading, choice.kind, choice.token.as_deref()), (Reading::Crawler, ChoiceKind::NoGroup, None));
/// assert_eq!(serde_json::to_value(&choice).unwrap()["kind"], "none");
/// assert_eq!(choice.crawler, Some("AdsBot-Google"));
/// assert_eq!(choice.source.unwrap().title, "Google's crawler documentation");
/// assert!(choice.why.contains("no group names AdsBot-Google, and it ignores the * group"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ChoiceRef {
    /// The crawler reading or the one-token reading, serialised by its
    /// name (`crawler`, `one-token`: [`Reading::as_str`]).
    #[serde(serialize_with = "by_name")]
    pub reading: Reading,
    /// How the groups were chosen, serialised by its name (`own`,
    /// `fallback`, `*`, `none`, `ignores-robots-txt`, `control-token`:
    /// [`ChoiceKind::as_str`]).
    #[serde(serialize_with = "by_name")]
    pub kind: ChoiceKind,
    /// The token whose groups decided (`*` for the `*` groups), or `null`.
    pub token: Option<String>,
    /// The crawler of the registry the name was read as, or `null`.
    pub crawler: Option<&'static str>,
    /// Why, in one sentence.
    pub why: String,
    /// The document the choice follows, for a crawler of the registry.
    pub source: Option<SourceRef>,
}

/// A source of the crawler registry, as a verdict cites it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SourceRef {
    /// Its title (`Google's crawler documentation`).
    pub title: &'static str,
    /// Its address.
    pub url: &'static str,
    /// When the registry's entry was checked against it.
    pub checked: &'static str,
}

impl ChoiceRef {
    /// Quotes `choice`, naming the crawler `name` as asked (a crawler of
    /// the registry is named as the registry writes it).
    pub fn new(choice: &GroupChoice<'_>, name: &str) -> ChoiceRef {
        ChoiceRef::with_why(choice, choice.explain(name))
    }

    /// The choice of a crawler whose operator says it ignores robots.txt:
    /// no file is read for it, so no group is chosen. `None` for a crawler
    /// that obeys robots.txt.
    ///
    /// ```
    /// use crawlgate::{registry, ChoiceKind};
    /// use crawlgate_answers::ChoiceRef;
    ///
    /// let reader = registry::find("Google-Read-Aloud").unwrap();
    /// let choice = ChoiceRef::ignoring(reader).unwrap();
    /// assert_eq!((choice.kind, choice.token, choice.crawler), (ChoiceKind::IgnoresRobotsTxt, None, Some("Google-Read-Aloud")));
    /// assert!(ChoiceRef::ignoring(registry::find("Googlebot").unwrap()).is_none());
    /// ```
    pub fn ignoring(crawler: &'static Crawler) -> Option<ChoiceRef> {
        Some(ChoiceRef {
            reading: Reading::Crawler,
            kind: ChoiceKind::IgnoresRobotsTxt,
            token: None,
            crawler: Some(crawler.name),
            why: crawler.ignores_robots_txt_why()?,
            source: Some(SourceRef::of(crawler)),
        })
    }

    fn with_why(choice: &GroupChoice<'_>, why: String) -> ChoiceRef {
        let crawler = choice.crawler();
        ChoiceRef {
            reading: choice.reading(),
            kind: choice.kind(),
            token: choice.token().map(str::to_owned),
            crawler: crawler.map(|c| c.name),
            why,
            source: crawler.map(SourceRef::of),
        }
    }
}

impl SourceRef {
    /// The source of `crawler`'s registry entry.
    fn of(crawler: &'static Crawler) -> SourceRef {
        SourceRef {
            title: crawler.source.title,
            url: crawler.source_url(),
            checked: crawler.checked,
        }
    }
}

/// The lines one group spans, from its first `user-agent` line to its last
/// line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupLines {
    /// The group's first `user-agent` line.
    pub first_line: u32,
    /// Its last line (its last rule, or its last `user-agent` line).
    pub last_line: u32,
}

/// The answer to "may this crawler fetch this URL?", with what decided it.
///
/// Built from a parsed file ([`ExplainedVerdict::decide`], or `From` a
/// core [`Verdict`](crawlgate::Verdict)) or from a fetch outcome
/// ([`Outcome::decide`](crate::Outcome::decide), which also knows that
/// `/robots.txt` itself is always allowed and that full allow and full
/// disallow read no rules).
///
/// ```
/// use crawlgate::{Reason, RobotsTxt};
/// use crawlgate_answers::{Basis, ExplainedVerdict, GroupLines};
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nAllow: /p\nDisallow: /\n");
/// let verdict = ExplainedVerdict::decide(&robots, "mybot", "https://example.com/page");
/// assert!(verdict.allowed);
/// assert_eq!(verdict.basis, Basis::Rules(Reason::Rule));
/// assert_eq!(verdict.rule.as_ref().unwrap().text, "Allow: /p");
/// assert_eq!(verdict.groups, [GroupLines { first_line: 1, last_line: 3 }]);
/// assert_eq!(verdict.to_string(), "allowed by line 2 (Allow: /p)");
/// let json = serde_json::to_string(&verdict).unwrap();
/// assert!(json.starts_with(
///     r#"{"allowed":true,"basis":"rule","rule":{"line":2,"kind":"allow","value":"/p","text":"Allow: /p","via_index_alias":false},"choice":{"reading":"one-token","kind":"*","token":"*""#
/// ), "{json}");
/// ```
///
/// Serialized as `allowed`, `basis`, `rule` (or `null`) and, when the fetch
/// outcome decided, `fetch_outcome`: the sentence that says why
/// ([`OutcomeReason`]'s `Display`); `choice` ([`ChoiceRef`]) when rules
/// were read. `groups` is not serialized, so the JSON
/// form stays the one `crawlgate check --json` prints; the HTTP API shows
/// it through [`ExplainedVerdict::with_groups`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ExplainedVerdict {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// What decided.
    pub basis: Basis,
    /// The deciding rule, when a rule decided (an empty rule included).
    pub rule: Option<RuleRef>,
    /// Why the fetch outcome is full allow or full disallow, when it
    /// decided.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "as_sentence"
    )]
    pub fetch_outcome: Option<OutcomeReason>,
    /// How the crawler's groups were chosen, and why; `None` when no
    /// rules were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    /// (Boxed: most verdicts are moved around far more than read.)
    pub choice: Option<Box<ChoiceRef>>,
    /// The groups whose rules applied (merged when several name the
    /// crawler); empty when no group applies or no rules were read.
    #[serde(skip)]
    pub groups: Vec<GroupLines>,
}

/// An [`ExplainedVerdict`] serialized with the lines of the groups that
/// applied, `groups: [{first_line, last_line}]`, after its other fields: the
/// verdict as the HTTP API shows it. A borrowed view for serialization
/// alone (from [`ExplainedVerdict::with_groups`]), not another verdict.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct WithGroups<'a> {
    #[serde(flatten)]
    verdict: &'a ExplainedVerdict,
    groups: &'a [GroupLines],
}

fn as_sentence<S: Serializer>(reason: &Option<OutcomeReason>, s: S) -> Result<S::Ok, S::Error> {
    match reason {
        Some(reason) => s.collect_str(reason),
        None => s.serialize_none(),
    }
}

impl ExplainedVerdict {
    /// The verdict with its groups, for serialization: `groups` after the
    /// fields the plain serialization gives.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// use crawlgate_answers::ExplainedVerdict;
    ///
    /// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /p\n");
    /// let verdict = ExplainedVerdict::decide(&robots, "mybot", "/p");
    /// let json = serde_json::to_value(verdict.with_groups()).unwrap();
    /// assert_eq!(json["allowed"], false);
    /// assert_eq!(json["groups"], serde_json::json!([{"first_line": 1, "last_line": 2}]));
    /// assert!(serde_json::to_value(&verdict).unwrap().get("groups").is_none());
    /// ```
    pub fn with_groups(&self) -> WithGroups<'_> {
        WithGroups {
            verdict: self,
            groups: &self.groups,
        }
    }

    /// Serializes the verdict with its groups ([`with_groups`](Self::with_groups)),
    /// for a field marked
    /// `#[serde(serialize_with = "ExplainedVerdict::serialize_with_groups")]`.
    ///
    /// # Errors
    ///
    /// The serializer's.
    pub fn serialize_with_groups<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.with_groups().serialize(serializer)
    }

    /// May `who` (a product token, or a crawler a person names: [`Who`])
    /// fetch `url` under the rules of `robots`? The file's profile decides
    /// everything, `/robots.txt` included; use
    /// [`Outcome::decide`](crate::Outcome::decide) for a fetched file.
    ///
    /// ```
    /// use crawlgate::{Reason, RobotsTxt, Who};
    /// use crawlgate_answers::{Basis, ExplainedVerdict};
    ///
    /// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
    /// let verdict = ExplainedVerdict::decide(&robots, Who::crawler("AdsBot-Google"), "/landing");
    /// assert!(verdict.allowed);
    /// assert_eq!(verdict.basis, Basis::Rules(Reason::NoGroup));
    /// assert_eq!(verdict.choice.unwrap().kind, crawlgate::ChoiceKind::NoGroup);
    /// assert!(!ExplainedVerdict::decide(&robots, "AdsBot-Google", "/landing").allowed);
    /// ```
    pub fn decide<'w>(robots: &RobotsTxt, who: impl Into<Who<'w>>, url: &str) -> ExplainedVerdict {
        let who = who.into();
        ExplainedVerdict::named(&robots.decide(who, url), who.name())
    }

    /// What a crawler whose operator says it ignores robots.txt is told
    /// about any URL, whatever a file holds or a fetch gave: allowed, and
    /// why. (A crawler that obeys robots.txt is given no such verdict.)
    pub fn ignoring(crawler: &'static Crawler) -> ExplainedVerdict {
        ExplainedVerdict {
            allowed: true,
            basis: Basis::Rules(Reason::IgnoresRobotsTxt),
            rule: None,
            fetch_outcome: None,
            choice: ChoiceRef::ignoring(crawler).map(Box::new),
            groups: Vec::new(),
        }
    }

    /// The verdict of `verdict`, its choice explained naming the crawler
    /// `name` as asked.
    pub fn named(verdict: &Verdict<'_>, name: &str) -> ExplainedVerdict {
        ExplainedVerdict {
            choice: Some(Box::new(ChoiceRef::new(&verdict.group_choice(), name))),
            ..ExplainedVerdict::from(verdict)
        }
    }

    /// `/robots.txt` itself: always allowed, whatever the file says or the
    /// fetch gave (RFC 9309 §2.2.2).
    pub fn robots_txt_itself() -> ExplainedVerdict {
        ExplainedVerdict {
            allowed: true,
            basis: Basis::Rules(Reason::RobotsTxt),
            rule: None,
            fetch_outcome: None,
            choice: None,
            groups: Vec::new(),
        }
    }

    /// The fetch outcome decides without rules: full allow or full
    /// disallow, and why.
    pub(crate) fn by_outcome(allowed: bool, reason: OutcomeReason) -> ExplainedVerdict {
        ExplainedVerdict {
            allowed,
            basis: if allowed {
                Basis::FullAllow
            } else {
                Basis::FullDisallow
            },
            rule: None,
            fetch_outcome: Some(reason),
            choice: None,
            groups: Vec::new(),
        }
    }

    /// `allowed` or `disallowed`.
    pub fn word(&self) -> &'static str {
        if self.allowed {
            "allowed"
        } else {
            "disallowed"
        }
    }

    /// The line of the deciding rule, if a rule decided.
    pub fn line(&self) -> Option<u32> {
        self.rule.as_ref().map(|r| r.line)
    }
}

impl From<&Verdict<'_>> for ExplainedVerdict {
    fn from(verdict: &Verdict<'_>) -> ExplainedVerdict {
        ExplainedVerdict {
            allowed: verdict.is_allowed(),
            basis: verdict.reason().into(),
            rule: verdict
                .rule()
                .map(|rule| RuleRef::new(rule, verdict.via_index_alias())),
            fetch_outcome: None,
            choice: Some(Box::new({
                // Named as the registry or the file writes it.
                let choice = verdict.group_choice();
                ChoiceRef::with_why(&choice, choice.to_string())
            })),
            groups: verdict
                .groups()
                .map(|g| GroupLines {
                    first_line: g.first_line(),
                    last_line: g.last_line(),
                })
                .collect(),
        }
    }
}

impl fmt::Display for ExplainedVerdict {
    /// `allowed by line 3 (Allow: /p)`, `allowed: no rule matches`,
    /// `disallowed: server error or network failure: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())?;
        if let Some(rule) = &self.rule {
            return write!(f, " by line {} ({})", rule.line, rule.text);
        }
        match (self.basis, self.fetch_outcome) {
            (_, Some(reason)) => write!(f, ": {reason}"),
            (Basis::Rules(Reason::RobotsTxt), _) => f.write_str(": /robots.txt is always allowed"),
            (Basis::Rules(Reason::NoGroup), _) => f.write_str(": no group for this crawler"),
            (Basis::Rules(Reason::IgnoresRobotsTxt), _) => {
                f.write_str(": the crawler ignores robots.txt")
            }
            (Basis::Rules(Reason::RuleLimit), _) => {
                f.write_str(": the file passes Yandex's 500 KB limit of stored rules")
            }
            _ => f.write_str(": no rule matches"),
        }
    }
}

/// Serialises a word-named value (a [`Reading`], a [`ChoiceKind`]) by its
/// name, as its `Display` writes it.
fn by_name<T: fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::Profile;

    const FILE: &str = "\
User-agent: a
Disallow:

User-agent: b
User-agent: c
Disallow: /private
Allow: /dir/index.html

User-agent: b
Disallow: /more
";

    fn decide(agent: &str, url: &str) -> ExplainedVerdict {
        ExplainedVerdict::decide(&RobotsTxt::parse(FILE.as_bytes()), agent, url)
    }

    #[test]
    fn every_basis_the_rules_give() {
        let rule = decide("c", "/private/x");
        assert_eq!(
            (rule.allowed, rule.basis),
            (false, Basis::Rules(Reason::Rule))
        );
        assert_eq!(rule.line(), Some(6));

        let empty = decide("a", "/anything");
        assert_eq!(
            (empty.allowed, empty.basis),
            (true, Basis::Rules(Reason::EmptyRule))
        );
        assert_eq!(empty.rule.unwrap().text, "Disallow:");

        let none = decide("c", "/public");
        assert_eq!(
            (none.allowed, none.basis),
            (true, Basis::Rules(Reason::NoMatchingRule))
        );
        assert_eq!(none.rule, None);

        let nobody = decide("z", "/private");
        assert_eq!(
            (nobody.allowed, nobody.basis),
            (true, Basis::Rules(Reason::NoGroup))
        );
        assert!(nobody.groups.is_empty());

        let robots = RobotsTxt::parse_with(b"User-agent: *\nDisallow: /\n", Profile::RFC9309);
        let itself = ExplainedVerdict::decide(&robots, "bot", "/robots.txt");
        assert_eq!(
            (itself.allowed, itself.basis),
            (true, Basis::Rules(Reason::RobotsTxt))
        );
    }

    #[test]
    fn merged_groups_are_listed_in_file_order() {
        let verdict = decide("b", "/more/x");
        assert_eq!(verdict.line(), Some(10));
        assert_eq!(
            verdict.groups,
            [
                GroupLines {
                    first_line: 4,
                    last_line: 7
                },
                GroupLines {
                    first_line: 9,
                    last_line: 10
                }
            ]
        );
    }

    #[test]
    fn the_index_alias_is_named() {
        let verdict = decide("c", "https://example.com/dir/");
        let rule = verdict.rule.unwrap();
        assert!(verdict.allowed && rule.is_allow() && rule.via_index_alias);
        assert_eq!(rule.value, "/dir/index.html");
    }

    #[test]
    fn outcome_verdicts_carry_the_reason() {
        let full = ExplainedVerdict::by_outcome(false, OutcomeReason::ServerError);
        assert_eq!(full.basis, Basis::FullDisallow);
        assert_eq!(
            full.to_string(),
            "disallowed: server error or network failure: everything disallowed until a retry succeeds"
        );
        let json = serde_json::to_value(&full).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "allowed": false,
                "basis": "full_disallow",
                "rule": null,
                "fetch_outcome": "server error or network failure: everything disallowed until a retry succeeds",
            })
        );
        let open = ExplainedVerdict::by_outcome(true, OutcomeReason::NotFound);
        assert_eq!((open.allowed, open.basis), (true, Basis::FullAllow));
    }

    #[test]
    fn reads_as_a_sentence() {
        assert_eq!(
            decide("c", "/private").to_string(),
            "disallowed by line 6 (Disallow: /private)"
        );
        assert_eq!(decide("c", "/x").to_string(), "allowed: no rule matches");
        assert_eq!(
            decide("z", "/x").to_string(),
            "allowed: no group for this crawler"
        );
        assert_eq!(
            ExplainedVerdict::robots_txt_itself().to_string(),
            "allowed: /robots.txt is always allowed"
        );
        assert_eq!(decide("c", "/private").word(), "disallowed");
    }

    #[test]
    fn serializes_without_groups() {
        let json = serde_json::to_value(decide("c", "/private")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "allowed": false,
                "basis": "rule",
                "rule": {
                    "line": 6,
                    "kind": "disallow",
                    "value": "/private",
                    "text": "Disallow: /private",
                    "via_index_alias": false,
                },
                // The one-token reading says so too: `c`'s own group.
                "choice": {
                    "reading": "one-token",
                    "kind": "own",
                    "token": "c",
                    "crawler": null,
                    "why": "c obeys its own group at lines 4–7",
                    "source": null,
                },
            })
        );
        assert_eq!(
            serde_json::to_value(Basis::Rules(Reason::RobotsTxt)).unwrap(),
            "robots_txt_itself"
        );
    }

    #[test]
    fn every_basis_has_one_name_that_reads_back() {
        let names: std::collections::BTreeSet<&str> =
            Basis::ALL.iter().map(|b| b.as_str()).collect();
        assert_eq!(names.len(), Basis::ALL.len());
        for basis in Basis::ALL {
            let json = serde_json::to_string(&basis).unwrap();
            assert_eq!(json, format!("\"{basis}\""));
            assert_eq!(serde_json::from_str::<Basis>(&json).unwrap(), basis);
        }
        assert!(serde_json::from_str::<Basis>("\"robots_txt\"").is_err());
    }
}
