//! Which groups a crawler obeys: the groups naming its product token
//! (merged), else the `*` groups, else none; or, in the legacy reading, the
//! first group whose user-agent occurs in the crawler's name. The crawler
//! reading asks the same for each token of a crawler of the registry in
//! turn, then applies what the registry says of `*` and of robots.txt.

use crate::model::{Group, RobotsTxt};
use crate::profile::GroupSelection;
use crate::registry::{Crawler, CrawlerKind};
use crate::token::cmp_ignore_case;
use crate::who::{Reading, Who};

/// How a crawler's groups were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelectionKind {
    /// Groups that name the crawler's product token.
    Specific,
    /// No group names the crawler: the `*` groups apply.
    Global,
    /// No group names the crawler and there is no `*` group: everything is
    /// allowed.
    Nothing,
}

crate::word_table! {
    /// How a crawler's groups were chosen, in the crawler reading's words.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum ChoiceKind {
        /// Groups name the crawler's own product token.
        Own = "own",
        /// No group names its own token; groups name one of its fallbacks
        /// (`Googlebot` for `Googlebot-Image`).
        Fallback = "fallback",
        /// No group names any of its tokens: the `*` groups.
        Star = "*",
        /// No group applies (none names it and there is no `*` group, or it
        /// ignores `*`): nothing is disallowed.
        NoGroup = "none",
        /// Its operator says it ignores robots.txt: the file does not apply.
        IgnoresRobotsTxt = "ignores-robots-txt",
        /// A control token: it fetches nothing; the groups chosen (its own, or
        /// `*`) govern the use of what other crawlers fetch.
        ControlToken = "control-token",
    }
}

impl From<SelectionKind> for ChoiceKind {
    fn from(kind: SelectionKind) -> ChoiceKind {
        match kind {
            SelectionKind::Specific => ChoiceKind::Own,
            SelectionKind::Global => ChoiceKind::Star,
            SelectionKind::Nothing => ChoiceKind::NoGroup,
        }
    }
}

/// What the crawler reading chose for a crawler of the registry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pick {
    pub crawler: &'static Crawler,
    pub kind: ChoiceKind,
    /// The crawler's token whose groups apply (its own or a fallback).
    pub token: Option<&'static str>,
}

/// The groups one crawler obeys, and why.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selected<'a> {
    pub kind: SelectionKind,
    pub groups: GroupList<'a>,
    /// Which of the file's possible sets of groups this is (see
    /// [`RobotsTxt::selections`]), so that crawlers obeying the same
    /// groups share their compiled rules; `None` for no group.
    pub slot: Option<u32>,
    /// How the name was read.
    pub reading: Reading,
    /// For a crawler of the registry, what the crawler reading chose.
    pub pick: Option<Pick>,
    /// Under [`GroupSelection::RobotPrefix`]: the robot of the parser's
    /// table the name was read as.
    pub robot: Option<u32>,
}

impl<'a> Selected<'a> {
    /// No group at all.
    pub(crate) const NOTHING: Selected<'static> = Selected {
        kind: SelectionKind::Nothing,
        groups: GroupList::Many(&[]),
        slot: None,
        reading: Reading::OneToken,
        pick: None,
        robot: None,
    };

    fn picked(
        self,
        crawler: &'static Crawler,
        kind: ChoiceKind,
        token: Option<&'static str>,
    ) -> Self {
        Selected {
            reading: Reading::Crawler,
            pick: Some(Pick {
                crawler,
                kind,
                token,
            }),
            ..self
        }
    }
}

/// A list of group indices, borrowed from the model or a single one.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GroupList<'a> {
    Many(&'a [u32]),
    One(u32),
}

impl GroupList<'_> {
    pub(crate) fn as_slice(&self) -> &[u32] {
        match self {
            GroupList::Many(groups) => groups,
            GroupList::One(group) => std::slice::from_ref(group),
        }
    }
}

impl RobotsTxt {
    /// How many sets of groups a crawler can obey in this file: one per
    /// product token named (and one for `*`), or, in the legacy reading,
    /// one per group.
    pub(crate) fn selections(&self) -> usize {
        match self.profile.group_selection {
            GroupSelection::ProductToken => self.audiences.len() + 1,
            GroupSelection::FirstSubstring => self.groups.len(),
            GroupSelection::RobotPrefix => self.robot_slots(),
        }
    }

    /// Chooses the groups the crawler `agent` obeys under this file's profile.
    pub(crate) fn select(&self, agent: &str) -> Selected<'_> {
        match self.profile.group_selection {
            GroupSelection::ProductToken => self.select_by_token(agent),
            GroupSelection::FirstSubstring => self.select_first_substring(agent),
            GroupSelection::RobotPrefix => self.select_robot_named(agent),
        }
    }

    fn select_by_token(&self, agent: &str) -> Selected<'_> {
        let text = self.text.as_slice();
        let found = self
            .audiences
            .binary_search_by(|a| cmp_ignore_case(&text[a.token.range()], agent.as_bytes()));
        if let Ok(i) = found {
            let (start, end) = self.audiences[i].groups;
            return Selected {
                kind: SelectionKind::Specific,
                groups: GroupList::Many(&self.audience_groups[start as usize..end as usize]),
                slot: Some(i as u32),
                ..Selected::NOTHING
            };
        }
        self.select_global()
    }

    /// The `*` groups, or nothing when there are none: what a crawler no
    /// group names obeys.
    fn select_global(&self) -> Selected<'_> {
        match self.profile.group_selection {
            GroupSelection::ProductToken if self.global_group_list().is_empty() => {
                Selected::NOTHING
            }
            GroupSelection::ProductToken => Selected {
                kind: SelectionKind::Global,
                groups: GroupList::Many(self.global_group_list()),
                slot: Some(self.audiences.len() as u32),
                ..Selected::NOTHING
            },
            GroupSelection::FirstSubstring => match self.groups().find(Group::is_global) {
                Some(group) => Selected {
                    kind: SelectionKind::Global,
                    groups: GroupList::One(group.index),
                    slot: Some(group.index),
                    ..Selected::NOTHING
                },
                None => Selected::NOTHING,
            },
            GroupSelection::RobotPrefix => self.select_robot(crate::yandex::robots::STAR),
        }
    }

    /// The `*` groups (none when there are none).
    pub(crate) fn select_global_groups(&self) -> GroupList<'_> {
        self.select_global().groups
    }

    /// The groups `who` obeys: one token's, or by the crawler reading a
    /// crawler of the registry's (any other name read as one token).
    pub(crate) fn select_who(&self, who: Who<'_>) -> Selected<'_> {
        match (who.reading(), who.registered()) {
            (Reading::OneToken, _) => self.select(who.name()),
            // The robot a name means can hold more than the crawler does
            // (`YandexMetrika/2.0`, not the `YandexMetrika` it is read as).
            (Reading::Crawler, Some(crawler))
                if self.profile.group_selection == GroupSelection::RobotPrefix
                    && !crawler.ignores_robots_txt() =>
            {
                let selected = self.select_robot_named(who.name());
                let kind = ChoiceKind::from(selected.kind);
                selected.picked(crawler, kind, None)
            }
            (Reading::Crawler, Some(crawler)) => self.select_registered(crawler),
            (Reading::Crawler, None) => Selected {
                reading: Reading::Crawler,
                ..self.select(who.name())
            },
        }
    }

    /// The groups `crawler` obeys: those naming its first token that any
    /// group names (its own, then its fallbacks), else `*` if it obeys
    /// `*`, else none; none at all when it ignores robots.txt.
    pub(crate) fn select_registered(&self, crawler: &'static Crawler) -> Selected<'_> {
        if crawler.ignores_robots_txt() {
            return Selected::NOTHING.picked(crawler, ChoiceKind::IgnoresRobotsTxt, None);
        }
        if self.profile.group_selection == GroupSelection::RobotPrefix {
            let selected = self.select_robot_for(crawler);
            let kind = ChoiceKind::from(selected.kind);
            return selected.picked(crawler, kind, None);
        }
        let control = crawler.kind == CrawlerKind::ControlToken;
        for (i, token) in crawler.tokens().enumerate() {
            let selected = self.select(token);
            if selected.kind == SelectionKind::Specific {
                let kind = match (control, i) {
                    (true, _) => ChoiceKind::ControlToken,
                    (false, 0) => ChoiceKind::Own,
                    (false, _) => ChoiceKind::Fallback,
                };
                return selected.picked(crawler, kind, Some(token));
            }
        }
        let rest = if crawler.obeys_star {
            self.select_global()
        } else {
            Selected::NOTHING
        };
        let kind = match (control, rest.kind) {
            (true, _) => ChoiceKind::ControlToken,
            (false, SelectionKind::Global) => ChoiceKind::Star,
            (false, _) => ChoiceKind::NoGroup,
        };
        rest.picked(crawler, kind, None)
    }

    /// `urllib.robotparser`: the first non-`*` group one of whose user-agent
    /// values (lowercased) occurs in the crawler's name up to its first `/`
    /// (lowercased); else the first `*` group.
    fn select_first_substring(&self, agent: &str) -> Selected<'_> {
        let name = agent.split('/').next().unwrap_or("").to_lowercase();
        let mut first_global = None;
        for group in self.groups() {
            if group.is_global() {
                first_global.get_or_insert(group.index);
                continue;
            }
            if group
                .user_agents()
                .any(|ua| name.contains(&crate::urllib::unquote(ua.value()).to_lowercase()))
            {
                return Selected {
                    kind: SelectionKind::Specific,
                    groups: GroupList::One(group.index),
                    slot: Some(group.index),
                    ..Selected::NOTHING
                };
            }
        }
        match first_global {
            Some(g) => Selected {
                kind: SelectionKind::Global,
                groups: GroupList::One(g),
                slot: Some(g),
                ..Selected::NOTHING
            },
            None => Selected::NOTHING,
        }
    }

    /// Every product token the user-agent lines name, once each (compared
    /// case-insensitively, in that order), as first written, with the
    /// indices (for [`RobotsTxt::group`]) of the groups naming it, in file
    /// order: under the google and rfc9309 profiles, the crawlers that get
    /// groups of their own. Values that name no token (`*`, `123`) are not
    /// listed.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"User-agent: b\nUser-agent: A/1.0\nDisallow: /\n\nUser-agent: a\nUser-agent: *\nAllow: /\n");
    /// let tokens: Vec<(&str, &[u32])> = robots.tokens().collect();
    /// assert_eq!(tokens, [("A", &[0, 1][..]), ("b", &[0][..])]);
    /// ```
    pub fn tokens(&self) -> impl Iterator<Item = (&str, &[u32])> + '_ {
        self.audiences
            .iter()
            .filter(|audience| audience.token.len > 0)
            .map(|audience| {
                let (start, end) = audience.groups;
                (
                    self.str(audience.token),
                    &self.audience_groups[start as usize..end as usize],
                )
            })
    }
}

/// The groups of a selection, as an iterator.
pub(crate) fn group_iter<'a>(robots: &'a RobotsTxt, groups: GroupList<'a>) -> GroupIter<'a> {
    let (slice, one) = match groups {
        GroupList::Many(slice) => (slice, None),
        GroupList::One(g) => (&[][..], Some(g)),
    };
    GroupIter { robots, slice, one }
}

/// The groups of a selection.
pub(crate) struct GroupIter<'a> {
    robots: &'a RobotsTxt,
    slice: &'a [u32],
    one: Option<u32>,
}

impl<'a> Iterator for GroupIter<'a> {
    type Item = Group<'a>;

    fn next(&mut self) -> Option<Group<'a>> {
        let index = match self.slice.split_first() {
            Some((&first, rest)) => {
                self.slice = rest;
                first
            }
            None => self.one.take()?,
        };
        Some(Group {
            robots: self.robots,
            index,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.slice.len() + usize::from(self.one.is_some());
        (n, Some(n))
    }
}

impl ExactSizeIterator for GroupIter<'_> {}
