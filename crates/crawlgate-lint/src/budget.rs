//! Work allowances for the checks whose cost multiplies two sizes of a file
//! (crawler sets × the rules of their groups, rules × the rules that may
//! shadow them): each may spend a fixed multiple of the file's size, so a
//! lint run stays linear in the file whatever its shape. Real files use a
//! small part of it: a test lints the whole corpus and checks that no
//! allowance ever runs out, so on such files every check is complete.

use std::cell::Cell;

/// Units of work any file may spend, however small.
const FLOOR: u64 = 1 << 12;

/// One check's allowance.
#[derive(Debug)]
pub(crate) struct Budget {
    /// Units left; `None` once the allowance ran out.
    left: Cell<Option<u64>>,
}

impl Budget {
    /// The allowance for a file of `bytes` bytes: `per_byte` units each.
    pub(crate) fn for_file(bytes: usize, per_byte: u64) -> Budget {
        Budget {
            left: Cell::new(Some(FLOOR + per_byte * bytes as u64)),
        }
    }

    /// Spends `cost` units: `false`, from then on for good, when the
    /// allowance does not cover it.
    pub(crate) fn spend(&self, cost: usize) -> bool {
        let left = self
            .left
            .get()
            .and_then(|left| left.checked_sub(cost as u64));
        self.left.set(left);
        if left.is_none() {
            ran_out::mark();
        }
        left.is_some()
    }

    /// Whether the allowance ran out.
    pub(crate) fn exhausted(&self) -> bool {
        self.left.get().is_none()
    }
}

/// What deciding a URL may cost: a lookup in a compiled matcher tries, at
/// worst, every rule whose first two bytes are the path's, and every rule
/// with a wildcard there; a plain rule is rejected or confirmed at a glance
/// (one unit), a wildcard one is matched through its length. Counted once
/// per set of rules, so each lookup is charged in constant time.
pub(crate) struct LookupCost {
    by_head: rustc_hash::FxHashMap<[u8; 2], usize>,
    anywhere: usize,
    all: usize,
}

impl LookupCost {
    /// The cost model of a matcher holding these patterns.
    pub(crate) fn new<'p>(patterns: impl IntoIterator<Item = &'p str>) -> LookupCost {
        let mut cost = LookupCost {
            by_head: rustc_hash::FxHashMap::default(),
            anywhere: 0,
            all: 0,
        };
        for pattern in patterns {
            let weight = if pattern.contains('*') {
                1 + pattern.len()
            } else {
                1
            };
            cost.all += weight;
            match pattern.as_bytes() {
                [a, b, ..] if *a != b'*' && *b != b'*' => {
                    *cost.by_head.entry([*a, *b]).or_default() += weight;
                }
                _ => cost.anywhere += weight,
            }
        }
        cost
    }

    /// The most rules a lookup of `path` may try.
    pub(crate) fn of(&self, path: &str) -> usize {
        match path.as_bytes() {
            [a, b, ..] => self.anywhere + self.by_head.get(&[*a, *b]).copied().unwrap_or(0),
            _ => self.all,
        }
    }
}

/// Whether an allowance ran out on this thread since the last [`take`]: for
/// the test that the corpus never exhausts one.
#[cfg(test)]
pub(crate) mod ran_out {
    use std::cell::Cell;

    thread_local! {
        static RAN_OUT: Cell<bool> = const { Cell::new(false) };
    }

    pub(crate) fn mark() {
        RAN_OUT.with(|r| r.set(true));
    }

    /// Whether an allowance ran out, and forget it.
    pub(crate) fn take() -> bool {
        RAN_OUT.with(|r| r.replace(false))
    }
}

#[cfg(not(test))]
mod ran_out {
    pub(crate) fn mark() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_cost_the_rules_sharing_their_head() {
        let cost = LookupCost::new(["/a/1", "/a/2", "/b", "*.php", "/*x", "/", "", "/a*"]);
        // `*.php` and `/*x` are matched through their length.
        let anywhere = 6 + 4 + 1 + 1;
        assert_eq!(cost.of("/a/3"), 2 + 4 + anywhere);
        assert_eq!(cost.of("/b/c"), 1 + anywhere);
        assert_eq!(cost.of("/c"), anywhere);
        assert_eq!(cost.of("/"), 3 + 4 + anywhere);
    }

    #[test]
    fn an_allowance_runs_out_for_good() {
        let budget = Budget::for_file(0, 8);
        assert!(budget.spend(FLOOR as usize - 1));
        assert!(!ran_out::take() && !budget.exhausted());
        assert!(!budget.spend(2));
        assert!(ran_out::take() && budget.exhausted());
        assert!(!budget.spend(0));
    }
}
