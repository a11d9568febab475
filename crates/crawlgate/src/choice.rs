//! Why a crawler obeys the groups it obeys: which token's groups decided,
//! under which reading, on whose word, in one sentence.

use std::fmt;

use crate::agent::{group_iter, ChoiceKind, Selected, SelectionKind};
use crate::model::{Group, RobotsTxt};
use crate::profile::GroupSelection;
use crate::registry::{Crawler, CrawlerKind, Source};
use crate::who::Reading;

/// How the groups a crawler obeys were chosen, and why: the token whose
/// groups decided, the rule applied, the registry entry and its source.
///
/// Given by [`AgentView::group_choice`](crate::AgentView::group_choice) and
/// [`Verdict::group_choice`](crate::Verdict::group_choice).
///
/// ```
/// use crawlgate::{ChoiceKind, RobotsTxt, Who};
///
/// let robots = RobotsTxt::parse(b"\
/// user-agent: googlebot-news
/// disallow: /fish
///
/// user-agent: *
/// disallow: /carrots
///
/// user-agent: googlebot
/// disallow: /shrimp
/// ");
/// let image = robots.view(Who::crawler("Googlebot-Image"));
/// let choice = image.group_choice();
/// assert_eq!(choice.kind(), ChoiceKind::Fallback);
/// assert_eq!(choice.token(), Some("Googlebot"));
/// assert_eq!(
///     choice.to_string(),
///     "Googlebot-Image obeys the Googlebot group at lines 7–8: no group names \
///      Googlebot-Image (Google's crawler documentation)"
/// );
/// // The one-token reading is Google's library's: `*`.
/// assert_eq!(robots.view("Googlebot-Image").group_choice().kind(), ChoiceKind::Star);
/// ```
#[derive(Clone, Copy)]
pub struct GroupChoice<'a> {
    robots: &'a RobotsTxt,
    selection: Selected<'a>,
}

impl<'a> GroupChoice<'a> {
    pub(crate) fn new(robots: &'a RobotsTxt, selection: Selected<'a>) -> GroupChoice<'a> {
        GroupChoice { robots, selection }
    }

    /// How the name was read.
    pub fn reading(&self) -> Reading {
        self.selection.reading
    }

    /// How the groups were chosen.
    pub fn kind(&self) -> ChoiceKind {
        match self.selection.pick {
            Some(pick) => pick.kind,
            None => self.selection.kind.into(),
        }
    }

    /// Which group decided, for a control token too: [`kind`](Self::kind),
    /// with a control token's choice read as a crawler's (its own token's
    /// groups [`Own`](ChoiceKind::Own), a fallback's
    /// [`Fallback`](ChoiceKind::Fallback), `*`'s [`Star`](ChoiceKind::Star),
    /// none [`NoGroup`](ChoiceKind::NoGroup)); never
    /// [`ControlToken`](ChoiceKind::ControlToken).
    ///
    /// ```
    /// use crawlgate::{ChoiceKind, RobotsTxt, Who};
    /// let robots = RobotsTxt::parse(b"User-agent: Yandex\nDisallow: /\n");
    /// let choice = robots.view(Who::crawler("YandexAdditional")).group_choice();
    /// assert_eq!(choice.kind(), ChoiceKind::ControlToken);
    /// assert_eq!(choice.group_kind(), ChoiceKind::Fallback);
    /// ```
    pub fn group_kind(&self) -> ChoiceKind {
        let crawler = self.crawler();
        match (self.kind(), self.token(), crawler) {
            (ChoiceKind::ControlToken, Some(t), Some(c)) if t.eq_ignore_ascii_case(c.token) => {
                ChoiceKind::Own
            }
            (ChoiceKind::ControlToken, Some("*"), _) => ChoiceKind::Star,
            (ChoiceKind::ControlToken, Some(_), _) => ChoiceKind::Fallback,
            (ChoiceKind::ControlToken, None, _) => ChoiceKind::NoGroup,
            (kind, ..) => kind,
        }
    }

    /// The crawler of the registry the name was read as (crawler reading
    /// only).
    pub fn crawler(&self) -> Option<&'static Crawler> {
        self.selection.pick.map(|pick| pick.crawler)
    }

    /// The token whose groups apply: the crawler's own or a fallback (as
    /// the registry writes it), the token as the file first writes it (one
    /// token, or a name the registry does not know), `*`, or `None` when
    /// no group applies.
    pub fn token(&self) -> Option<&'a str> {
        if let Some(token) = self.selection.pick.and_then(|pick| pick.token) {
            return Some(token);
        }
        match self.selection.kind {
            SelectionKind::Global => Some("*"),
            SelectionKind::Nothing => None,
            SelectionKind::Specific => self.file_token(),
        }
    }

    /// The token a group the crawler obeys is written with.
    fn file_token(&self) -> Option<&'a str> {
        let robots = self.robots;
        let token = match robots.profile.group_selection {
            GroupSelection::ProductToken => {
                let audience = robots.audiences.get(self.selection.slot? as usize)?;
                robots.str(audience.token)
            }
            GroupSelection::FirstSubstring => self.groups().next()?.user_agents().next()?.token(),
            GroupSelection::RobotPrefix => return self.naming_value(),
        };
        (!token.is_empty()).then_some(token)
    }

    /// Under Yandex's reading: the robot of its parser's table the name was
    /// read as (`None` for `*`, a name its table does not know).
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let robots = RobotsTxt::parse_with(b"User-agent: Yandex\nDisallow: /\n", Profile::YANDEX);
    /// let robot = robots.view("YandexMetrika").group_choice().robot().unwrap();
    /// assert_eq!((robot.prefix, robot.full_name), ("Yandex", "YandexMetrika/3.0"));
    /// assert!(robots.view("mybot").group_choice().robot().is_none());
    /// ```
    pub fn robot(&self) -> Option<&'static crate::registry::Robot> {
        let table = self.robots.robot_table.as_ref()?;
        table
            .table
            .entries
            .get(self.selection.robot? as usize)?
            .robot
    }

    /// Under Yandex's reading: the user-agent value that named the robot
    /// (the longest that did), as written.
    fn naming_value(&self) -> Option<&'a str> {
        if self.selection.kind != SelectionKind::Specific {
            return None;
        }
        let table = self.robots.robot_table.as_ref()?;
        let agent = *table.named_by.get(self.selection.robot? as usize)?;
        let record = self.robots.agents.get(agent as usize)?;
        Some(self.robots.str(record.value))
    }

    /// The document the choice follows: the registry entry's source, for a
    /// crawler of the registry.
    pub fn source(&self) -> Option<&'static Source> {
        self.crawler().map(|c| c.source)
    }

    /// The groups chosen, in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group<'a>> + use<'a> {
        group_iter(self.robots, self.selection.groups)
    }

    /// Why, in one sentence, naming the crawler `name` (a crawler of the
    /// registry is named as the registry writes it):
    /// `Googlebot-Image obeys the Googlebot group at lines 7–8: no group
    /// names Googlebot-Image (Google's crawler documentation)`.
    pub fn explain(&self, name: &str) -> String {
        if self.robots.profile.group_selection == GroupSelection::RobotPrefix
            && self.kind() != ChoiceKind::IgnoresRobotsTxt
        {
            return self.explain_robot(name);
        }
        let crawler = self.crawler();
        // An empty name is said in words: a sentence cannot show it.
        let given = if name.trim().is_empty() {
            "the empty name"
        } else {
            name
        };
        let subject = crawler.map_or(given, |c| c.name);
        let cite = |source: &Source| format!(" ({})", source.title);
        let source = self.source().map(cite).unwrap_or_default();
        let unnamed = match crawler {
            Some(c) => or_list(c.tokens()) + &cut_name(c),
            None => subject.to_owned(),
        };
        let lines = lines_of(self.groups());
        let kind = self.kind();
        let (token, groups) = (self.token(), self.groups().len());
        let chosen = self.group_kind();
        let obeyed = match (chosen, token) {
            (ChoiceKind::IgnoresRobotsTxt, _) => {
                if let Some(why) = crawler.and_then(Crawler::ignores_robots_txt_why) {
                    return why;
                }
                return format!("{subject} ignores robots.txt: the file does not restrict it");
            }
            (_, Some("*")) => {
                format!("{subject} obeys the * group at {lines}: no group names {unnamed}")
            }
            (ChoiceKind::Fallback, Some(token)) => {
                let skipped = crawler.map_or(String::new(), |c| {
                    or_list(c.tokens().take_while(|t| !t.eq_ignore_ascii_case(token)))
                });
                let plural = if groups > 1 { "s" } else { "" };
                format!("{subject} obeys the {token} group{plural} at {lines}: no group names {skipped}{source}")
            }
            (_, Some(_)) if groups > 1 => format!("{subject} obeys its own groups at {lines}"),
            (_, Some(_)) => format!("{subject} obeys its own group at {lines}"),
            (_, None) => match crawler {
                Some(c) if !c.obeys_star && c.kind != CrawlerKind::ControlToken => format!(
                    "no group names {unnamed}, and it ignores the * group{source}: nothing is disallowed"
                ),
                _ => format!(
                    "no group names {unnamed} and there is no * group: nothing is disallowed"
                ),
            },
        };
        match crawler {
            Some(c) if kind == ChoiceKind::ControlToken => format!(
                "{obeyed}; {subject} is a control token: it fetches nothing, and the answer says \
                 whether {} may use what its crawlers fetch{source}",
                c.operator
            ),
            _ => obeyed,
        }
    }
}

impl GroupChoice<'_> {
    /// [`explain`](GroupChoice::explain) under Yandex's reading: which
    /// group its parser's table gives the robot, and why.
    fn explain_robot(&self, name: &str) -> String {
        let subject = self.crawler().map_or(name, |c| c.name);
        let lines = lines_of(self.groups());
        let groups = self.groups().len();
        if let Some(passed) = self.robots.robot_table.as_ref().and_then(|t| t.passed) {
            let at = match passed.line {
                0 => "all robots together".to_owned(),
                line => format!("line {line}"),
            };
            return format!(
                "Yandex's parser allows everything in this file: it stores at most about \
                 500 KB of rules (for one robot, or for all together), and {at} passes that"
            );
        }
        let Some(robot) = self.robot() else {
            return match self.kind() {
                ChoiceKind::Star => format!(
                    "Yandex's parser knows no robot named {subject}: the * group at {lines}"
                ),
                _ => format!(
                    "Yandex's parser knows no robot named {subject}, and there is no * group: \
                     nothing is disallowed"
                ),
            };
        };
        let full = robot.full_name;
        let prefix = robot.prefix;
        let named = format!(
            "no user-agent value names {full} (a value must start with `{prefix}` and begin \
             `{full}`)"
        );
        match self.kind() {
            ChoiceKind::Own => {
                let value = self.naming_value().unwrap_or("");
                let plural = if groups > 1 { "s" } else { "" };
                let empty = if self.groups().all(|g| g.rules().len() == 0) {
                    "; the group has no rules: everything is allowed, and `*` does not apply"
                } else {
                    ""
                };
                format!(
                    "{subject} ({full}) obeys the group{plural} of `User-agent: {value}` at \
                     {lines}: Yandex's parser takes the longest user-agent value that starts \
                     with `{prefix}` and begins `{full}`{empty}"
                )
            }
            ChoiceKind::Star => format!("{subject} ({full}) obeys the * group at {lines}: {named}"),
            _ if !robot.obeys_star => format!(
                "{subject} ({full}) ignores the * group and {named}: nothing is disallowed \
                 (Yandex's parser)"
            ),
            _ => format!("{named}, and there is no * group: nothing is disallowed"),
        }
    }
}

/// For a crawler whose name is no product token, why no group can name
/// it: ` (a line naming AI2Bot is read as AI, and Google's library compares
/// the crawler's whole name)`; empty otherwise.
fn cut_name(crawler: &Crawler) -> String {
    if crawler.name_is_token() {
        return String::new();
    }
    let name = crawler.token;
    let read_as = &name[..crate::token::token_len(name.as_bytes())];
    format!(
        " (a line naming {name} is read as `{read_as}`, and Google's library compares the \
         crawler's whole name)"
    )
}

/// `A`, `A or B`, `A, B or C`.
fn or_list<'t>(items: impl Iterator<Item = &'t str>) -> String {
    let items: Vec<&str> = items.collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `line 3`, `lines 7–8`, `lines 4–5 and 7–8`.
fn lines_of<'a>(groups: impl Iterator<Item = Group<'a>>) -> String {
    let spans: Vec<String> = groups
        .map(|g| match (g.first_line(), g.last_line()) {
            (first, last) if first == last => first.to_string(),
            (first, last) => format!("{first}–{last}"),
        })
        .collect();
    let word = if spans.len() == 1 && !spans[0].contains('–') {
        "line"
    } else {
        "lines"
    };
    match spans.as_slice() {
        [] => "no line".to_owned(),
        [one] => format!("{word} {one}"),
        [init @ .., last] => format!("{word} {} and {last}", init.join(", ")),
    }
}

impl fmt::Display for GroupChoice<'_> {
    /// [`explain`](GroupChoice::explain), naming the crawler as the
    /// registry or the file writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self
            .crawler()
            .map(|c| c.name)
            .or_else(|| self.file_token())
            .unwrap_or("the crawler");
        f.write_str(&self.explain(name))
    }
}

impl fmt::Debug for GroupChoice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupChoice")
            .field("reading", &self.reading())
            .field("kind", &self.kind())
            .field("crawler", &self.crawler().map(|c| c.name))
            .field("token", &self.token())
            .finish()
    }
}
