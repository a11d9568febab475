//! Which groups a crawler obeys: the groups naming its product token
//! (merged), else the `*` groups, else none; or, in the legacy reading, the
//! first group whose user-agent occurs in the crawler's name.

use crate::model::RobotsTxt;
use crate::profile::GroupSelection;
use crate::token::cmp_ignore_case;

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

/// The groups one crawler obeys, and why.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selected<'a> {
    pub kind: SelectionKind,
    pub groups: GroupList<'a>,
    /// Which of the file's possible sets of groups this is (see
    /// [`RobotsTxt::selections`]), so that crawlers obeying the same
    /// groups share their compiled rules; `None` for no group.
    pub slot: Option<u32>,
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
        }
    }

    /// Chooses the groups the crawler `agent` obeys under this file's profile.
    pub(crate) fn select(&self, agent: &str) -> Selected<'_> {
        match self.profile.group_selection {
            GroupSelection::ProductToken => self.select_by_token(agent),
            GroupSelection::FirstSubstring => self.select_first_substring(agent),
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
            };
        }
        if self.global_groups.is_empty() {
            Selected {
                kind: SelectionKind::Nothing,
                groups: GroupList::Many(&[]),
                slot: None,
            }
        } else {
            Selected {
                kind: SelectionKind::Global,
                groups: GroupList::Many(&self.global_groups),
                slot: Some(self.audiences.len() as u32),
            }
        }
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
                };
            }
        }
        match first_global {
            Some(g) => Selected {
                kind: SelectionKind::Global,
                groups: GroupList::One(g),
                slot: Some(g),
            },
            None => Selected {
                kind: SelectionKind::Nothing,
                groups: GroupList::Many(&[]),
                slot: None,
            },
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
