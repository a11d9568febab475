//! Choosing groups from a parser's own table of robots
//! ([`GroupSelection::RobotPrefix`](crate::GroupSelection::RobotPrefix),
//! Yandex): the robot a name means, and what the parser stored for it (the
//! model's [`RobotTable`](crate::yandex::table::RobotTable)).

use crate::agent::{GroupList, Selected, SelectionKind};
use crate::model::RobotsTxt;
use crate::registry::Crawler;
use crate::yandex::robots::STAR;
use crate::yandex::table::NONE;

impl RobotsTxt {
    /// Yandex's reading: the line at which the file passes its parser's
    /// limit of about 500 KB of stored rules (0 when all robots' rules
    /// together pass it, at the end of the file), when it does: that parser
    /// then allows everything ([`Reason::RuleLimit`](crate::Reason::RuleLimit)).
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let mut body = String::from("User-agent: *\n");
    /// for i in 0..12_000 {
    ///     body.push_str(&format!("Disallow: /a-rather-long-path-for-the-limit/{i:06}/x\n"));
    /// }
    /// let robots = RobotsTxt::parse_with(body.as_bytes(), Profile::YANDEX);
    /// assert!(robots.stored_rules_limit().is_some());
    /// assert!(robots.is_allowed("YandexBot", "/a-rather-long-path-for-the-limit/000001/x"));
    /// assert_eq!(RobotsTxt::parse(body.as_bytes()).stored_rules_limit(), None);
    /// ```
    pub fn stored_rules_limit(&self) -> Option<u32> {
        self.robot_table.as_ref()?.passed.map(|p| p.line)
    }

    /// How many sets of rules robots read by (see
    /// [`RobotsTxt::selections`](crate::RobotsTxt)).
    pub(crate) fn robot_slots(&self) -> usize {
        self.robot_table.as_ref().map_or(0, |t| t.slots.len())
    }

    /// The groups the robot a name means reads by.
    pub(crate) fn select_robot_named(&self, name: &str) -> Selected<'_> {
        match &self.robot_table {
            Some(table) => self.select_robot(table.table.robot_named(name)),
            None => Selected::NOTHING,
        }
    }

    /// The groups `crawler` of the registry reads by: the robot its name
    /// (or token) means.
    pub(crate) fn select_robot_for(&self, crawler: &'static Crawler) -> Selected<'_> {
        match &self.robot_table {
            Some(table) => {
                let robot = match table.table.robot_named(crawler.name) {
                    STAR => table.table.robot_named(crawler.token),
                    robot => robot,
                };
                self.select_robot(robot)
            }
            None => Selected::NOTHING,
        }
    }

    /// The groups robot `robot` of the table reads by: its own, else `*`'s
    /// when it obeys `*`, else none. Nothing at all once a limit was
    /// passed (then everything is allowed).
    pub(crate) fn select_robot(&self, robot: usize) -> Selected<'_> {
        let Some(table) = &self.robot_table else {
            return Selected::NOTHING;
        };
        let nothing = Selected {
            robot: Some(robot as u32),
            ..Selected::NOTHING
        };
        if table.passed.is_some() {
            return nothing;
        }
        let (kind, slot) = match table.own[robot] {
            NONE if table.table.entries[robot].obeys_star && table.own[STAR] != NONE => {
                (SelectionKind::Global, table.own[STAR])
            }
            NONE => return nothing,
            slot if robot == STAR => (SelectionKind::Global, slot),
            slot => (SelectionKind::Specific, slot),
        };
        Selected {
            kind,
            groups: GroupList::Many(table.groups(slot)),
            slot: Some(slot),
            ..nothing
        }
    }

    /// The rules of a slot the robots reading by it lost.
    pub(crate) fn skipped_rules(&self, slot: Option<u32>) -> &[u32] {
        match (&self.robot_table, slot) {
            (Some(table), Some(slot)) if (slot as usize) < table.slots.len() => table.skipped(slot),
            _ => &[],
        }
    }

    /// The rule that disallows everything for a slot, if there is one.
    pub(crate) fn disallow_all(&self, slot: Option<u32>) -> Option<u32> {
        match (&self.robot_table, slot) {
            (Some(table), Some(slot)) => table.slots.get(slot as usize)?.disallow_all,
            _ => None,
        }
    }
}
