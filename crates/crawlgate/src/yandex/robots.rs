//! The robots a profile's own parser knows (the registry's `@robot`
//! lines), as the parser compares them with user-agent values, and which
//! robot a name a person gives means.

use std::sync::{Mutex, OnceLock};

use crate::registry::{self, Robot};
use crate::token::{token_len, user_agent_products};

/// A set of robots of a table, a bit each (the `*` robot is bit 0).
pub(crate) type RobotSet = u128;

/// The most robots a table holds, `*` included.
pub(crate) const MAX_ROBOTS: usize = RobotSet::BITS as usize;

/// The `*` robot: the one every table starts with, named only by `*`.
pub(crate) const STAR: usize = 0;

/// One robot as the parser compares it.
#[derive(Debug)]
pub(crate) struct Entry {
    /// `None` for the `*` robot.
    pub robot: Option<&'static Robot>,
    /// Its required prefix and full name, lowercased.
    prefix: Vec<u8>,
    full_name: Vec<u8>,
    pub obeys_star: bool,
}

impl Entry {
    /// Its full name as written (`*` for the `*` robot).
    #[cfg(test)]
    fn full_name(&self) -> &'static str {
        self.robot.map_or("*", |r| r.full_name)
    }
}

/// A profile's table of robots, `*` first.
#[derive(Debug)]
pub(crate) struct Table {
    pub entries: Vec<Entry>,
    /// Per byte, the robots whose required prefix starts with it (and
    /// those whose prefix is empty): the only ones a value starting with
    /// that byte can name.
    by_first: Box<[RobotSet; 256]>,
    /// The robots whose required prefix is empty.
    any_start: RobotSet,
}

impl Table {
    fn of(profile: &str) -> Table {
        let star = Entry {
            robot: None,
            prefix: b"*".to_vec(),
            full_name: b"*".to_vec(),
            obeys_star: true,
        };
        let rest = registry::robots(profile)
            .take(MAX_ROBOTS - 1)
            .map(|robot| Entry {
                robot: Some(robot),
                prefix: robot.prefix.to_ascii_lowercase().into_bytes(),
                full_name: robot.full_name.to_ascii_lowercase().into_bytes(),
                obeys_star: robot.obeys_star,
            });
        let entries: Vec<Entry> = std::iter::once(star).chain(rest).collect();
        let mut by_first = Box::new([0; 256]);
        let mut any_start = 0;
        for (i, e) in entries.iter().enumerate() {
            match e.prefix.first() {
                Some(&b) => by_first[usize::from(b)] |= 1 << i,
                None => any_start |= 1 << i,
            }
        }
        for set in by_first.iter_mut() {
            *set |= any_start;
        }
        Table {
            entries,
            by_first,
            any_start,
        }
    }

    /// The robots a user-agent value (lowercased, whitespace removed)
    /// names: those whose required prefix starts it and whose full name
    /// starts with it. Only values no longer than a full name can name
    /// one, so the work per line is bounded.
    pub(crate) fn named_by(&self, lower: &[u8]) -> RobotSet {
        // Only the robots whose prefix can start the value are compared.
        let mut candidates = match lower.first() {
            Some(&b) => self.by_first[usize::from(b)],
            None => self.any_start,
        };
        let mut set = 0;
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let e = &self.entries[i];
            if lower.starts_with(&e.prefix) && e.full_name.starts_with(lower) {
                set |= 1 << i;
            }
        }
        set
    }

    /// The robot a name a person gives means: the one whose full name it
    /// is (`YandexMetrika/2.0`), else the one whose full name a product
    /// of a `User-Agent` header is, else the first whose full name's token
    /// the name's token (or the registry crawler it identifies) is; `*`
    /// for any other name (the parser reads it as `*`).
    pub(crate) fn robot_named(&self, name: &str) -> usize {
        let name = name.trim();
        let by_full = |candidate: &str| {
            self.entries
                .iter()
                .skip(1)
                .position(|e| e.full_name.eq_ignore_ascii_case(candidate.as_bytes()))
                .map(|i| i + 1)
        };
        if name == "*" {
            return STAR;
        }
        if let Some(found) = by_full(name) {
            return found;
        }
        // A `User-Agent` header: a word of it that is a full name.
        let words = name.split(|c: char| c.is_whitespace() || matches!(c, ';' | ',' | '(' | ')'));
        if let Some(found) = words.filter(|w| !w.is_empty()).find_map(by_full) {
            return found;
        }
        let by_token = |token: &str| {
            (!token.is_empty())
                .then(|| {
                    self.entries.iter().skip(1).position(|e| {
                        let full = e.full_name.as_slice();
                        full[..token_len(full)].eq_ignore_ascii_case(token.as_bytes())
                    })
                })
                .flatten()
                .map(|i| i + 1)
        };
        let own = &name[..token_len(name.as_bytes())];
        if let Some(found) = by_token(own) {
            return found;
        }
        if let Some(found) = user_agent_products(name).find_map(by_token) {
            return found;
        }
        registry::identify(name)
            .and_then(|crawler| by_token(crawler.token))
            .unwrap_or(STAR)
    }
}

/// The table of the profile named `profile` (built once per name).
pub(crate) fn table(profile: &str) -> &'static Table {
    static YANDEX: OnceLock<Table> = OnceLock::new();
    if profile == "yandex" {
        return YANDEX.get_or_init(|| Table::of("yandex"));
    }
    // Custom profiles: one table per name, kept for the process (names
    // are `&'static str`, so they are few).
    static OTHERS: OnceLock<Mutex<Vec<(String, &'static Table)>>> = OnceLock::new();
    let mut others = OTHERS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, table)) = others.iter().find(|(name, _)| name == profile) {
        return table;
    }
    let table: &'static Table = Box::leak(Box::new(Table::of(profile)));
    others.push((profile.to_owned(), table));
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_yandex_table_fits_a_set() {
        let table = table("yandex");
        assert!(table.entries.len() > 40, "{}", table.entries.len());
        assert!(table.entries.len() <= MAX_ROBOTS);
        assert_eq!(table.entries[STAR].full_name(), "*");
    }

    #[test]
    fn the_first_byte_index_names_what_comparing_every_robot_names() {
        let table = table("yandex");
        let every = |lower: &[u8]| -> RobotSet {
            let mut set = 0;
            for (i, e) in table.entries.iter().enumerate() {
                if lower.starts_with(&e.prefix) && e.full_name.starts_with(lower) {
                    set |= 1 << i;
                }
            }
            set
        };
        let mut values: Vec<Vec<u8>> = vec![b"".to_vec(), b"*".to_vec(), b"googlebot".to_vec()];
        for e in &table.entries {
            for end in 0..=e.full_name.len() {
                values.push(e.full_name[..end].to_vec());
            }
            values.push([e.full_name.as_slice(), b"x"].concat());
        }
        let mut named = 0;
        for value in &values {
            let set = table.named_by(value);
            assert_eq!(set, every(value), "{}", String::from_utf8_lossy(value));
            named += usize::from(set != 0);
        }
        assert!(named > table.entries.len(), "{named}");
    }

    #[test]
    fn values_name_robots_by_prefix_and_full_name() {
        let table = table("yandex");
        let names = |value: &str| -> Vec<&str> {
            let set = table.named_by(value.to_ascii_lowercase().as_bytes());
            (0..table.entries.len())
                .filter(|i| set >> i & 1 == 1)
                .map(|i| table.entries[i].full_name())
                .collect()
        };
        assert_eq!(names("*"), ["*"]);
        assert_eq!(names("YandexBot"), ["YandexBot/3.0"]);
        assert_eq!(names("yandexbot/3"), ["YandexBot/3.0"]);
        assert!(names("Yand").is_empty());
        assert!(names("YandexBot/3.0.1").is_empty());
        let family = names("Yandex");
        assert!(family.contains(&"YandexImages/3.0") && family.contains(&"YandexMetrika/3.0"));
        assert!(!family.contains(&"YandexDirect/3.0") && !family.contains(&"YandexMetrika/2.0"));
        assert_eq!(
            names("YandexMetrika"),
            [
                "YandexMetrika/3.0",
                "YandexMetrika/2.0",
                "YandexMetrika/4.0"
            ]
        );
        assert_eq!(names("YandexDirect"), ["YandexDirect/3.0"]);
    }

    #[test]
    fn names_people_give_mean_robots() {
        let table = table("yandex");
        let robot = |name: &str| table.entries[table.robot_named(name)].full_name();
        assert_eq!(robot("YandexBot"), "YandexBot/3.0");
        assert_eq!(robot("yandexbot"), "YandexBot/3.0");
        assert_eq!(robot("YandexMetrika"), "YandexMetrika/3.0");
        assert_eq!(robot("YandexMetrika/2.0"), "YandexMetrika/2.0");
        assert_eq!(
            robot("Mozilla/5.0 (compatible; YandexMetrika/4.0; +http://yandex.com/bots)"),
            "YandexMetrika/4.0"
        );
        assert_eq!(
            robot("Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)"),
            "YandexImages/3.0"
        );
        assert_eq!(robot("Googlebot"), "GoogleBot");
        assert_eq!(robot("mybot"), "*");
        assert_eq!(robot("*"), "*");
        assert_eq!(robot(""), "*");
    }
}
