//! The legacy reading's group choice, computed without building a view: the
//! first group, in file order and not naming `*`, one of whose user-agent
//! values (lowercased) occurs in the crawler's name up to its first `/`
//! (lowercased); else the first `*` group. Used only to skip crawlers whose
//! choices were already compared (a test checks it agrees with
//! [`RobotsTxt::view`] on the corpus).
//!
//! Every value is looked for in a name at once, with an Aho-Corasick
//! automaton whose states know the first group of every value ending there:
//! one pass over the name, however long it and the values are.

use crawlgate::RobotsTxt;
use rustc_hash::FxHashMap;

/// No group.
const NONE: u32 = u32::MAX;

pub(crate) struct LegacyChoice {
    /// Trie edges: (state, byte) -> state. State 0 is the root.
    next: FxHashMap<(u32, u8), u32>,
    /// Each state's parent, the byte leading to it, and its depth (the
    /// root's are unused), for linking states breadth first.
    parent: Vec<(u32, u8, u32)>,
    /// The longest proper suffix of each state that is also a state.
    fail: Vec<u32>,
    /// The first group naming a value that ends at each state (the state's
    /// own value, or one that is a suffix of it).
    first: Vec<u32>,
    first_global: Option<usize>,
}

impl LegacyChoice {
    pub(crate) fn new(robots: &RobotsTxt) -> Self {
        let mut choice = LegacyChoice {
            next: FxHashMap::default(),
            parent: vec![(0, 0, 0)],
            fail: vec![0],
            first: vec![NONE],
            first_global: None,
        };
        for group in robots.groups() {
            if group.is_global() {
                choice.first_global.get_or_insert(group.index());
                continue;
            }
            for ua in group.user_agents() {
                choice.insert(ua.value().to_lowercase().as_bytes(), group.index() as u32);
            }
        }
        choice.link();
        choice
    }

    fn insert(&mut self, value: &[u8], group: u32) {
        let mut state = 0;
        for &b in value {
            state = match self.next.get(&(state, b)) {
                Some(&s) => s,
                None => {
                    let s = self.fail.len() as u32;
                    let depth = self.parent[state as usize].2 + 1;
                    self.parent.push((state, b, depth));
                    self.fail.push(0);
                    self.first.push(NONE);
                    self.next.insert((state, b), s);
                    s
                }
            };
        }
        let first = &mut self.first[state as usize];
        *first = (*first).min(group);
    }

    /// Failure links, breadth first, and each state's first group merged
    /// with its failure state's (values that are suffixes of its own).
    fn link(&mut self) {
        // States by depth: a state's failure state is shallower, so it is
        // complete when the state is reached.
        let mut order: Vec<u32> = (1..self.fail.len() as u32).collect();
        order.sort_by_key(|&s| self.parent[s as usize].2);
        for state in order {
            let (parent, b, _) = self.parent[state as usize];
            let fail = if parent == 0 {
                0
            } else {
                self.step(self.fail[parent as usize], b)
            };
            self.fail[state as usize] = fail;
            let inherited = self.first[fail as usize];
            let first = &mut self.first[state as usize];
            *first = (*first).min(inherited);
        }
    }

    /// The state after reading `b` in `state`.
    fn step(&self, mut state: u32, b: u8) -> u32 {
        loop {
            if let Some(&to) = self.next.get(&(state, b)) {
                return to;
            }
            if state == 0 {
                return 0;
            }
            state = self.fail[state as usize];
        }
    }

    /// The index of the group the crawler obeys, if any.
    pub(crate) fn group(&self, agent: &str) -> Option<usize> {
        let name = agent.split('/').next().unwrap_or("").to_lowercase();
        // The root's own group is the empty value's, which every name holds.
        let mut best = self.first[0];
        let mut state = 0;
        for &b in name.as_bytes() {
            state = self.step(state, b);
            best = best.min(self.first[state as usize]);
        }
        if best == NONE {
            self.first_global
        } else {
            Some(best as usize)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::Profile;

    #[test]
    fn legacy_choice_agrees_with_the_legacy_reading() {
        let robots = RobotsTxt::parse_with(
            b"User-agent: bot\nDisallow: /a\n\nUser-agent: Googlebot\nUser-agent: *\nDisallow: /b\n\nUser-agent: news\nDisallow: /c\n\nUser-agent: *\nDisallow: /d\n\nUser-agent: ab\nUser-agent: xaby\nDisallow: /e\n\nUser-agent: b\nDisallow: /f\n",
            Profile::LEGACY,
        );
        let choice = LegacyChoice::new(&robots);
        for agent in [
            "Googlebot",
            "googlebot-news",
            "news",
            "other",
            "Bot/2.0",
            "x",
            "xab",
            "zzb",
            "XABY",
            "",
        ] {
            let expected = robots.view(agent).groups().next().map(|g| g.index());
            assert_eq!(choice.group(agent), expected, "{agent}");
        }
    }

    #[test]
    fn an_empty_value_names_every_crawler() {
        let robots = RobotsTxt::parse_with(
            b"User-agent: *\nDisallow: /a\n\nUser-agent:\nDisallow: /b\n",
            Profile::LEGACY,
        );
        let choice = LegacyChoice::new(&robots);
        let expected = robots.view("anybot").groups().next().map(|g| g.index());
        assert_eq!(choice.group("anybot"), expected);
    }
}
