//! Which keys (rule patterns, as byte strings) are prefixes of which, and of
//! a given path: keys sorted, each linked to the longest other key that is a
//! prefix of it, so that the keys that are prefixes of anything are found by
//! walking links instead of trying every prefix length.

/// Distinct keys in sorted order, each with its longest proper prefix among
/// them.
pub(crate) struct Prefixes<'a> {
    keys: Vec<&'a [u8]>,
    parent: Vec<Option<usize>>,
}

impl<'a> Prefixes<'a> {
    /// The distinct `keys` (in any order, repeats allowed).
    pub(crate) fn new(mut keys: Vec<&'a [u8]>) -> Self {
        keys.sort_unstable();
        keys.dedup();
        let mut parent = vec![None; keys.len()];
        // In sorted order, the keys that are prefixes of a key form a chain
        // on a stack: each key is pushed once and popped once, and a failed
        // comparison costs at most the popped key's length.
        let mut stack: Vec<usize> = Vec::new();
        for i in 0..keys.len() {
            while let Some(&top) = stack.last() {
                if keys[i].starts_with(keys[top]) {
                    break;
                }
                stack.pop();
            }
            parent[i] = stack.last().copied();
            stack.push(i);
        }
        Prefixes { keys, parent }
    }

    /// How many keys there are; indices run below it.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The index of `key`, if it is one.
    pub(crate) fn find(&self, key: &[u8]) -> Option<usize> {
        self.keys.binary_search(&key).ok()
    }

    /// The keys that are proper prefixes of key `i`, longest first.
    pub(crate) fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent[i], |&p| self.parent[p])
    }

    /// The longest key that is a prefix of `path` (or equal to it).
    pub(crate) fn longest_prefix_of(&self, path: &[u8]) -> Option<usize> {
        let after = self.keys.partition_point(|k| *k <= path);
        let mut at = after.checked_sub(1);
        while let Some(i) = at {
            if path.starts_with(self.keys[i]) {
                return Some(i);
            }
            at = self.parent[i];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_of_prefixes() {
        let keys: Vec<&[u8]> = vec![b"/a/b", b"/a", b"/b", b"/a/c", b"/a", b"/a/bc"];
        let p = Prefixes::new(keys);
        assert_eq!(p.len(), 5);
        let abc = p.find(b"/a/bc").unwrap();
        let names: Vec<&[u8]> = p.ancestors(abc).map(|i| p.keys[i]).collect();
        assert_eq!(names, [b"/a/b".as_slice(), b"/a"]);
        assert!(p.ancestors(p.find(b"/b").unwrap()).next().is_none());
        let at = |path: &[u8]| p.longest_prefix_of(path).map(|i| p.keys[i]);
        assert_eq!(at(b"/a/bx"), Some(b"/a/b".as_slice()));
        assert_eq!(at(b"/a/c"), Some(b"/a/c".as_slice()));
        assert_eq!(at(b"/a/d"), Some(b"/a".as_slice()));
        assert_eq!(at(b"/c"), None);
        assert_eq!(p.find(b"/x"), None);
    }
}
