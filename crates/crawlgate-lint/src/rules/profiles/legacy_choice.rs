//! The legacy reading's group choice, computed without building a view: the
//! first group, in file order and not naming `*`, one of whose user-agent
//! values (lowercased) occurs in the crawler's name up to its first `/`
//! (lowercased); else the first `*` group. Used only to skip crawlers whose
//! choices were already compared (a test checks it agrees with
//! [`RobotsTxt::view`] on the corpus).
//!
//! Every value is looked for in a name at once, with an Aho-Corasick
//! automaton whose states know the first group of every value ending there:
//! one pass over the name, however long it and the values are. The trie is
//! built from the sorted values and its edges are stored state by state, so
//! that a long value's states and edges lie in order in memory: a hash map
//! of edges scattered them, and a 144 KB user-agent then cost a cache miss
//! per byte (4x the input took 8x the time). Values longer than every name
//! asked are left out: they occur in none.

use crawlgate::RobotsTxt;

/// No group.
const NONE: u32 = u32::MAX;

pub(crate) struct LegacyChoice {
    /// The edges leaving state `s` are `edge_start[s]..edge_start[s + 1]`
    /// of `edge_byte` (ascending) and `edge_to`. State 0 is the root.
    edge_start: Vec<u32>,
    edge_byte: Vec<u8>,
    edge_to: Vec<u32>,
    /// The longest proper suffix of each state that is also a state.
    fail: Vec<u32>,
    /// The first group naming a value that ends at each state (the state's
    /// own value, or one that is a suffix of it).
    first: Vec<u32>,
    first_global: Option<usize>,
    /// The longest name (lowercased, up to its first `/`) it may be asked.
    longest: usize,
}

impl LegacyChoice {
    /// The choice for crawlers named among `names` (a value longer than
    /// all of them occurs in none, and is left out).
    pub(crate) fn new(robots: &RobotsTxt, names: &[&str]) -> Self {
        let longest = names.iter().map(|n| name_of(n).len()).max().unwrap_or(0);
        let mut first_global = None;
        let mut values: Vec<(Vec<u8>, u32)> = Vec::new();
        for group in robots.groups() {
            if group.is_global() {
                first_global.get_or_insert(group.index());
                continue;
            }
            for ua in group.user_agents() {
                let value = ua.value().to_lowercase();
                if value.len() <= longest {
                    values.push((value.into_bytes(), group.index() as u32));
                }
            }
        }
        values.sort_unstable();
        // The trie, states numbered in depth-first order: each value adds
        // the states past its common prefix with the value before it.
        // `parent` and `byte` describe each state's incoming edge.
        // At most one state per byte of the values: reserved at once, not
        // grown by copying (a long value's states are most of the work).
        let most = 1 + values.iter().map(|(v, _)| v.len()).sum::<usize>();
        let deepest = 1 + values.iter().map(|(v, _)| v.len()).max().unwrap_or(0);
        let mut parent = Vec::with_capacity(most);
        let mut byte = Vec::with_capacity(most);
        let mut first = Vec::with_capacity(most);
        let mut path = Vec::with_capacity(deepest);
        parent.push(0u32);
        byte.push(0u8);
        first.push(NONE);
        path.push(0u32);
        let mut previous: &[u8] = &[];
        for (value, group) in &values {
            let common = previous
                .iter()
                .zip(value)
                .take_while(|(a, b)| a == b)
                .count();
            path.truncate(common + 1);
            for &b in &value[common..] {
                let state = first.len() as u32;
                parent.push(*path.last().expect("the root"));
                byte.push(b);
                first.push(NONE);
                path.push(state);
            }
            let end = *path.last().expect("the root") as usize;
            first[end] = first[end].min(*group);
            previous = value;
        }
        // Edges by state: a state's children were numbered in byte order.
        let states = first.len();
        let mut edge_start = vec![0u32; states + 1];
        for &p in &parent[1..] {
            edge_start[p as usize + 1] += 1;
        }
        for s in 0..states {
            edge_start[s + 1] += edge_start[s];
        }
        let mut edge_byte = vec![0u8; states - 1];
        let mut edge_to = vec![0u32; states - 1];
        // Each state's next free edge, kept in `edge_start[s + 1]` (which
        // ends up where state `s + 1`'s edges start).
        for s in (1..=states).rev() {
            edge_start[s] = edge_start[s - 1];
        }
        for child in 1..states {
            let slot = &mut edge_start[parent[child] as usize + 1];
            edge_byte[*slot as usize] = byte[child];
            edge_to[*slot as usize] = child as u32;
            *slot += 1;
        }
        drop((parent, byte));
        let mut choice = LegacyChoice {
            edge_start,
            edge_byte,
            edge_to,
            fail: vec![0; states],
            first,
            first_global,
            longest: 0,
        };
        choice.link();
        choice.longest = longest;
        choice
    }

    /// Failure links, breadth first, and each state's first group merged
    /// with its failure state's (values that are suffixes of its own).
    fn link(&mut self) {
        // Breadth first: a state's failure state is shallower, so it is
        // complete when the state is reached.
        let mut queue: Vec<u32> = Vec::with_capacity(self.fail.len());
        queue.push(0);
        let mut next = 0;
        while let Some(&parent) = queue.get(next) {
            next += 1;
            let edges = self.edges(parent);
            for i in edges {
                let (b, state) = (self.edge_byte[i], self.edge_to[i]);
                let fail = if parent == 0 {
                    0
                } else {
                    self.step(self.fail[parent as usize], b)
                };
                self.fail[state as usize] = fail;
                let inherited = self.first[fail as usize];
                let first = &mut self.first[state as usize];
                *first = (*first).min(inherited);
                queue.push(state);
            }
        }
    }

    /// Where the edges leaving `state` lie in `edge_byte` and `edge_to`.
    fn edges(&self, state: u32) -> std::ops::Range<usize> {
        self.edge_start[state as usize] as usize..self.edge_start[state as usize + 1] as usize
    }

    /// The state reached from `state` by the edge labelled `b`, if any.
    fn child(&self, state: u32, b: u8) -> Option<u32> {
        let edges = self.edges(state);
        let i = self.edge_byte[edges.clone()].binary_search(&b).ok()?;
        Some(self.edge_to[edges.start + i])
    }

    /// The state after reading `b` in `state`.
    fn step(&self, mut state: u32, b: u8) -> u32 {
        loop {
            if let Some(to) = self.child(state, b) {
                return to;
            }
            if state == 0 {
                return 0;
            }
            state = self.fail[state as usize];
        }
    }

    /// The index of the group the crawler obeys, if any: `agent` is one
    /// of the names the choice was made for.
    pub(crate) fn group(&self, agent: &str) -> Option<usize> {
        let name = name_of(agent);
        debug_assert!(name.len() <= self.longest, "{agent:?} was not announced");
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

/// What the legacy reading looks for values in: the name up to its first
/// `/`, lowercased.
fn name_of(agent: &str) -> String {
    agent.split('/').next().unwrap_or("").to_lowercase()
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
        let agents = [
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
        ];
        let choice = LegacyChoice::new(&robots, &agents);
        for agent in agents {
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
        let choice = LegacyChoice::new(&robots, &["anybot"]);
        let expected = robots.view("anybot").groups().next().map(|g| g.index());
        assert_eq!(choice.group("anybot"), expected);
    }
}
