//! What Yandex's parser stores for each robot of its table, line by line:
//! which groups it takes, which of their rules survive, and whether a
//! limit was passed.
//!
//! The parser keeps one buffer of records per robot (rules, crawl delays;
//! for `*` also sitemaps, `Clean-param` and `Host`). A user-agent value
//! naming a robot with a longer value than any before it empties the
//! robot's buffer (so the longest value wins, and values of one length
//! add up); a shorter one no longer names it. Every line of a run of
//! user-agent lines also lengthens the value of the robots the run named
//! before it. The store follows that record by record, in O(1) per record
//! and robot: a buffer is a length, a count and a rolling hash.
//!
//! Two of the parser's ways show through: a rule stored empty (`**`,
//! `*$`) makes its reader take the record stored after it as part of it,
//! so that record is lost; and past [`MAX_STORED`] bytes for one robot, or
//! for all distinct buffers together, the parser allows everything. (It
//! also counts rules against a limit of 10,000, but its default argument,
//! `-1` turned into the largest unsigned number, switches that limit off.)

use std::collections::{BTreeSet, HashMap};

use super::convert::{Stored, StoredView};
use super::robots::{RobotSet, Table, STAR};
use super::table::{RobotTable, Slot};

/// The most bytes Yandex's parser stores for one robot (or for all of
/// them together, identical buffers once), its `500_KB`: past it, it
/// allows everything ([`RobotsTxt::stored_rules_limit`]).
///
/// [`RobotsTxt::stored_rules_limit`]: crate::RobotsTxt::stored_rules_limit
pub const MAX_STORED: usize = 500 * 1024;

/// A buffer's header, before its first record.
const HEADER: usize = 4;

/// The room the parser keeps free in a buffer.
const SPARE: usize = 300;

/// Where the parser passed [`MAX_STORED`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Passed {
    /// The line that passed it, or 0 when all buffers together passed it
    /// at the end of the file.
    pub line: u32,
}

/// What a record is, to the robot storing it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    /// A rule (the model's rule index), allowing or not.
    Rule { index: u32, allow: bool },
    /// A crawl delay, sitemap, `Clean-param` or `Host`.
    Other,
}

/// One record, measured once for every robot that stores it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Record {
    kind: Kind,
    /// The value's length as written (the parser's check before storing).
    written: usize,
    /// The bytes it takes in a buffer (type, stored value, terminator).
    stored: usize,
    /// Its rolling hash and the factor that shifts a hash past it.
    hash: u64,
    shift: u64,
    /// A rule stored empty.
    empty: bool,
    /// A rule stored as the prefix `/` that disallows.
    slash_disallow: bool,
}

const BASE: u64 = 0x100_0000_01B3;
const BASE2: u64 = BASE.wrapping_mul(BASE);
const BASE3: u64 = BASE2.wrapping_mul(BASE);
const BASE4: u64 = BASE2.wrapping_mul(BASE2);

/// Extends a rolling hash (`hash * BASE + byte + 1` for each byte) and its
/// shift (`BASE` to the power of the bytes hashed, and one) by `bytes`.
/// Four bytes a step, with the same result: one multiplication in the
/// chain a step instead of one a byte.
fn roll(hash: &mut u64, shift: &mut u64, bytes: &[u8]) {
    let mut steps = bytes.chunks_exact(4);
    for step in &mut steps {
        let [a, b, c, d] = [step[0], step[1], step[2], step[3]].map(|b| u64::from(b) + 1);
        let four = a
            .wrapping_mul(BASE3)
            .wrapping_add(b.wrapping_mul(BASE2))
            .wrapping_add(c.wrapping_mul(BASE))
            .wrapping_add(d);
        *hash = hash.wrapping_mul(BASE4).wrapping_add(four);
        *shift = shift.wrapping_mul(BASE4);
    }
    for &b in steps.remainder() {
        *hash = hash.wrapping_mul(BASE).wrapping_add(u64::from(b) + 1);
        *shift = shift.wrapping_mul(BASE);
    }
}

impl Record {
    /// A record of kind `kind` whose stored value is the bytes of `stored`
    /// one after the other.
    fn measure(kind: Kind, tag: u8, written: usize, stored: [&[u8]; 2]) -> Record {
        let mut hash = u64::from(tag);
        let mut shift = BASE;
        for part in stored {
            roll(&mut hash, &mut shift, part);
        }
        Record {
            kind,
            written,
            stored: stored[0].len() + stored[1].len() + 2,
            hash,
            shift,
            empty: false,
            slash_disallow: false,
        }
    }

    /// An allow or disallow rule (value starting with `/` or `*`).
    pub(crate) fn rule(index: u32, value: &[u8], allow: bool) -> Record {
        // Stored in place when it can be (nearly every rule): no copy.
        let copied;
        let (stored, prefix): ([&[u8]; 2], bool) = match StoredView::of(value) {
            Some(view) => ([view.body, if view.star { b"*" } else { b"" }], view.prefix),
            None => {
                copied = Stored::of(value);
                ([copied.bytes.as_slice(), b""], copied.prefix)
            }
        };
        let mut record = Record::measure(
            Kind::Rule { index, allow },
            match (allow, prefix) {
                (true, true) => b'A',
                (true, false) => b'a',
                (false, true) => b'D',
                (false, false) => b'd',
            },
            value.len(),
            stored,
        );
        record.empty = stored[0].is_empty() && stored[1].is_empty();
        record.slash_disallow = !allow && stored == [b"/".as_slice(), b""] && prefix;
        record
    }

    /// Any other record (`tag` tells kinds apart in the hash).
    pub(crate) fn other(tag: u8, value: &[u8]) -> Record {
        Record::measure(Kind::Other, tag, value.len(), [value, b""])
    }
}

/// A robot's buffer, once it has one.
#[derive(Clone, Copy, Debug, Default)]
struct Buffer {
    position: usize,
}

/// What the store knows of one robot.
#[derive(Clone, Debug, Default)]
struct Robot {
    /// A group named it (the parser has loaded it).
    loaded: bool,
    /// The longest value that named it so far.
    longest: u32,
    buffer: Option<Buffer>,
    hash: u64,
    groups: Vec<u32>,
    skipped: Vec<u32>,
    crawl_delay: bool,
    /// The rule stored empty just before, waiting for the record it takes
    /// (`Some(allow)`).
    pending: Option<bool>,
    /// The rules its reader counts (a rule stored empty counts with the
    /// record it took).
    counted: u32,
    has_allow: bool,
    slash_disallow: Option<u32>,
    /// The user-agent line (the model's agent index) that named it last.
    named_by: Option<u32>,
}

impl Robot {
    fn clear(&mut self) {
        let (loaded, longest, named_by) = (self.loaded, self.longest, self.named_by);
        *self = Robot {
            loaded,
            longest,
            named_by,
            ..Robot::default()
        };
    }

    /// Stores `record`, unless that passes a limit.
    fn store(&mut self, record: &Record, line: u32) -> Result<(), Passed> {
        let buffer = self.buffer.get_or_insert(Buffer { position: HEADER });
        if buffer.position + record.written + SPARE > MAX_STORED {
            return Err(Passed { line });
        }
        buffer.position += record.stored;
        self.hash = self
            .hash
            .wrapping_mul(record.shift)
            .wrapping_add(record.hash);
        if let Some(allow) = self.pending.take() {
            // The reader takes this record as the rest of the empty rule.
            self.counted += 1;
            self.has_allow |= allow;
            if let Kind::Rule { index, .. } = record.kind {
                self.skipped.push(index);
            }
            return Ok(());
        }
        if let Kind::Rule { index, allow } = record.kind {
            if record.empty {
                self.pending = Some(allow);
                return Ok(());
            }
            self.counted += 1;
            self.has_allow |= allow;
            if record.slash_disallow {
                self.slash_disallow = Some(index);
            }
        }
        Ok(())
    }
}

/// Yandex's parser's buffers, as the builder reads the file.
pub(crate) struct Store {
    table: &'static Table,
    robots: Vec<Robot>,
    /// The robots the current run of user-agent lines named.
    current: RobotSet,
    sitemaps: BTreeSet<Vec<u8>>,
    clean_params: BTreeSet<Vec<u8>>,
    host: Option<Vec<u8>>,
    passed: Option<Passed>,
}

impl Store {
    pub(crate) fn new(table: &'static Table) -> Store {
        Store {
            table,
            robots: vec![Robot::default(); table.entries.len()],
            current: 0,
            sitemaps: BTreeSet::new(),
            clean_params: BTreeSet::new(),
            host: None,
            passed: None,
        }
    }

    /// Whether a limit was passed: the parser stopped there.
    pub(crate) fn stopped(&self) -> bool {
        self.passed.is_some()
    }

    fn pass(&mut self, passed: Passed) {
        self.passed.get_or_insert(passed);
    }

    /// A user-agent line that starts a new group: the robots named before
    /// take no more records.
    pub(crate) fn new_group(&mut self) {
        self.current = 0;
    }

    /// A user-agent line of group `group` (the model's index), its value
    /// lowercased (`lower`), the model's index of the line `agent`.
    pub(crate) fn user_agent(&mut self, lower: &[u8], agent: u32, group: u32, line: u32) {
        if self.stopped() {
            return;
        }
        let len = lower.len().min(u32::MAX as usize) as u32;
        let mut named = self.table.named_by(lower);
        let mut candidates = named;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if len < self.robots[i].longest {
                named &= !(1 << i);
            }
        }
        let newly = named & !self.current;
        self.current |= named;
        let mut bits = self.current;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let robot = &mut self.robots[i];
            let longer = len > robot.longest;
            let cleared = !robot.loaded || longer;
            if cleared {
                robot.clear();
            }
            robot.loaded = true;
            robot.longest = robot.longest.max(len);
            if robot.groups.last() != Some(&group) {
                robot.groups.push(group);
            }
            if newly >> i & 1 == 1 || cleared && named >> i & 1 == 1 {
                robot.named_by = Some(agent);
            }
            if cleared && i == STAR {
                // The parser gives `*` back its file-wide records.
                let again: Vec<Record> = self
                    .sitemaps
                    .iter()
                    .map(|s| Record::other(b'S', s))
                    .chain(self.clean_params.iter().map(|p| Record::other(b'P', p)))
                    .chain(self.host.iter().map(|h| Record::other(b'H', h)))
                    .collect();
                for record in &again {
                    if let Err(passed) = self.robots[STAR].store(record, line) {
                        self.pass(passed);
                        return;
                    }
                }
            }
        }
    }

    /// Whether a record of the current group would be stored by any robot:
    /// most groups name none of the table's robots, and their rules need
    /// not be measured.
    pub(crate) fn takes_records(&self) -> bool {
        self.current != 0 && !self.stopped()
    }

    /// A record for every robot of the current group, in the table's order.
    pub(crate) fn for_current(&mut self, record: &Record, line: u32) {
        if self.stopped() {
            return;
        }
        let mut bits = self.current;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Err(passed) = self.robots[i].store(record, line) {
                self.pass(passed);
                return;
            }
        }
    }

    /// A `Crawl-delay` of the current group (`value` as written): each
    /// robot takes the first valid one, and the first robot that has one
    /// already ends the line's turn.
    pub(crate) fn crawl_delay(&mut self, value: &[u8], line: u32) {
        if self.stopped() {
            return;
        }
        let record = Record::other(b'C', value);
        let mut bits = self.current;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let robot = &mut self.robots[i];
            if robot.crawl_delay {
                break;
            }
            if super::checks::crawl_delay(value).is_none() {
                continue;
            }
            robot.crawl_delay = true;
            if value.is_empty() {
                continue;
            }
            if let Err(passed) = robot.store(&record, line) {
                self.pass(passed);
                return;
            }
        }
    }

    /// A record `*` keeps whatever the group (`tag`: `S`itemap,
    /// `P` Clean-param, `H`ost), as stored.
    pub(crate) fn file_wide(&mut self, tag: u8, value: &[u8], line: u32) {
        if self.stopped() {
            return;
        }
        match tag {
            b'S' => {
                self.sitemaps.insert(value.to_vec());
            }
            b'P' => {
                self.clean_params.insert(value.to_vec());
            }
            _ => {
                if self.host.is_some() {
                    return;
                }
                self.host = Some(value.to_vec());
            }
        }
        if let Err(passed) = self.robots[STAR].store(&Record::other(tag, value), line) {
            self.pass(passed);
        }
    }

    /// The robots' choices, once the file is read.
    pub(crate) fn finish(mut self) -> RobotTable {
        let mut table = RobotTable::empty(self.table);
        if let Some(passed) = self.passed {
            table.passed = Some(passed);
            return table;
        }
        // What the parser does after reading: a robot whose reader counts no
        // rule gets `Allow: /`; then identical buffers are stored once, and
        // all of them together must stay within the limits.
        let allow_all = Record::other(b'A', b"/");
        let mut distinct: HashMap<(u64, usize), ()> = HashMap::new();
        let mut bytes = 0usize;
        for robot in &mut self.robots {
            if robot.loaded {
                let buffer = robot.buffer.get_or_insert(Buffer { position: HEADER });
                if robot.counted == 0 {
                    buffer.position += allow_all.stored;
                    robot.hash = robot
                        .hash
                        .wrapping_mul(allow_all.shift)
                        .wrapping_add(allow_all.hash);
                }
                if distinct.insert((robot.hash, buffer.position), ()).is_some() {
                    continue;
                }
            }
            if let Some(buffer) = robot.buffer {
                bytes += buffer.position;
            }
        }
        if bytes + SPARE > MAX_STORED {
            table.passed = Some(Passed { line: 0 });
            return table;
        }
        // Robots whose groups, lost rules and disallow-all rule agree share
        // a slot (and its compiled rules).
        type SlotKey = (Vec<u32>, Vec<u32>, Option<u32>);
        let mut slots: HashMap<SlotKey, u32> = HashMap::new();
        for (i, robot) in self.robots.iter().enumerate() {
            if !robot.loaded {
                continue;
            }
            let disallow_all = robot.slash_disallow.filter(|_| !robot.has_allow);
            let key = (robot.groups.clone(), robot.skipped.clone(), disallow_all);
            let next = table.slots.len() as u32;
            let slot = *slots.entry(key).or_insert_with(|| {
                let groups = table.push_groups(&robot.groups);
                let skipped = table.push_skipped(&robot.skipped);
                table.slots.push(Slot {
                    groups,
                    skipped,
                    disallow_all,
                });
                next
            });
            table.own[i] = slot;
            table.named_by[i] = robot.named_by.unwrap_or(super::table::NONE);
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four bytes a step hash as one byte a step does, at every length and
    /// split into parts anywhere.
    #[test]
    fn rolling_four_bytes_a_step_is_rolling_one() {
        let bytes: Vec<u8> = (0..40u8)
            .map(|i| i.wrapping_mul(97).wrapping_add(13))
            .collect();
        for len in 0..bytes.len() {
            let (mut one, mut one_shift) = (7u64, BASE);
            for &b in &bytes[..len] {
                one = one.wrapping_mul(BASE).wrapping_add(u64::from(b) + 1);
                one_shift = one_shift.wrapping_mul(BASE);
            }
            for split in 0..=len {
                let (mut four, mut four_shift) = (7u64, BASE);
                roll(&mut four, &mut four_shift, &bytes[..split]);
                roll(&mut four, &mut four_shift, &bytes[split..len]);
                assert_eq!((four, four_shift), (one, one_shift), "{len} {split}");
            }
        }
    }
}
