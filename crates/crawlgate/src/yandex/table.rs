//! What Yandex's parser stored for each robot of its table, as the model
//! keeps it (the groups a name reads by are chosen in `robot_selection.rs`).

use super::robots::Table;
use super::store::Passed;

/// No slot, no line.
pub(crate) const NONE: u32 = u32::MAX;

/// The rules one or more robots read by: the groups whose rules they
/// took, the rules of those the parser lost (read as part of a rule
/// stored empty), and the rule that disallows everything when they have
/// only disallows and one is `/`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub groups: (u32, u32),
    pub skipped: (u32, u32),
    pub disallow_all: Option<u32>,
}

/// Yandex's parser's choice for every robot of its table.
#[derive(Clone, Debug)]
pub(crate) struct RobotTable {
    pub table: &'static Table,
    /// Per robot: its slot, or [`NONE`] when no group named it.
    pub own: Vec<u32>,
    /// Per robot: the user-agent line (the model's index) that named it.
    pub named_by: Vec<u32>,
    pub slots: Vec<Slot>,
    slot_groups: Vec<u32>,
    skipped: Vec<u32>,
    /// A limit passed: the parser allows everything.
    pub passed: Option<Passed>,
}

impl RobotTable {
    pub(crate) fn empty(table: &'static Table) -> RobotTable {
        RobotTable {
            table,
            own: vec![NONE; table.entries.len()],
            named_by: vec![NONE; table.entries.len()],
            slots: Vec::new(),
            slot_groups: Vec::new(),
            skipped: Vec::new(),
            passed: None,
        }
    }

    pub(crate) fn push_groups(&mut self, groups: &[u32]) -> (u32, u32) {
        let start = self.slot_groups.len() as u32;
        self.slot_groups.extend_from_slice(groups);
        (start, self.slot_groups.len() as u32)
    }

    pub(crate) fn push_skipped(&mut self, rules: &[u32]) -> (u32, u32) {
        let start = self.skipped.len() as u32;
        let mut sorted = rules.to_vec();
        sorted.sort_unstable();
        self.skipped.extend_from_slice(&sorted);
        (start, self.skipped.len() as u32)
    }

    /// The groups of a slot, in file order.
    pub(crate) fn groups(&self, slot: u32) -> &[u32] {
        let (start, end) = self.slots[slot as usize].groups;
        &self.slot_groups[start as usize..end as usize]
    }

    /// The rules of a slot's groups that its robots lost, ascending.
    pub(crate) fn skipped(&self, slot: u32) -> &[u32] {
        let (start, end) = self.slots[slot as usize].skipped;
        &self.skipped[start as usize..end as usize]
    }

    pub(crate) fn heap_size(&self) -> usize {
        std::mem::size_of::<RobotTable>()
            + (self.own.capacity() + self.named_by.capacity()) * 4
            + self.slots.capacity() * std::mem::size_of::<Slot>()
            + (self.slot_groups.capacity() + self.skipped.capacity()) * 4
    }
}
