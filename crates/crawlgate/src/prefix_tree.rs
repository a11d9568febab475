//! The literal heads of a view's rules in one prefix tree, so that a single
//! walk along a path finds every rule whose literal part the path starts
//! with.
//!
//! A rule's head is the whole pattern for a prefix (`/private/`) or an exact
//! path (`/a$`), and the part before the first `*` for a glob (`/search` of
//! `/search*?q=`). The tree holds the heads with their shared beginnings
//! merged (a radix tree: each edge is a run of bytes). A path walks down as
//! far as whole edges agree with it; the nodes on the way are the heads it
//! starts with: the prefix rules that match, the exact rules that match if
//! the path ends there, and the globs worth trying.
//!
//! Rules are known by their rank, their place in precedence order, so the
//! best of several is the smallest (the matcher passes ranks with a bit
//! of its own below, which keeps that order). Each node keeps the best
//! prefix rule at it or above it: a walk needs only the last node it
//! reaches.

use crate::model::Str;
use crate::scan;

/// No rule.
pub(crate) const NONE: u32 = u32::MAX;

/// How a rule's head decides at its node.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Head {
    /// A prefix rule: it matches every path that reaches the node.
    Prefix,
    /// An exact rule: it matches a path that ends at the node.
    Exact,
    /// A glob: it may match a path that reaches the node. `needs`: the
    /// bytes its segments need, as a set (see [`scan::byte_set`]): a path
    /// lacking one cannot match.
    Glob { needs: u64, glob: Glob },
}

/// A glob hanging on a node (the node spells its head, the part before its
/// first `*`): what the rest of a path needs for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Glob {
    pub rank: u32,
    /// The length of its head.
    pub head: u32,
    /// For a glob whose last segment must end the path, that segment's
    /// last (up to) eight bytes where a path's last eight bytes, read as
    /// one little-endian word, hold them (the top bytes), and the mask of
    /// those bytes; 0 and 0 for other globs. One comparison rejects most
    /// paths (`/*.pdf$` and a path ending in `.html`).
    pub tail: u64,
    pub tail_mask: u64,
    pub test: GlobTest,
}

/// How a glob is matched past its head, once its byte set and tail pass.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GlobTest {
    /// One literal segment, anywhere after the head (`/*?s=`): the span of
    /// the matcher's segment bytes to find.
    Contains(Str),
    /// One literal segment of up to eight bytes that must end the path
    /// (`/*.pdf$`): its length. The tail comparison is the whole match,
    /// given a path long enough to hold the head and the segment apart.
    EndsWith(u32),
    /// Any other glob: its literal segments after the head, a range of the
    /// matcher's; whether the last must end the path (`…$`), and whether
    /// it is matched as Yandex's parser matches `*` (see
    /// [`restart_segments_match`](crate::pattern::restart_segments_match)).
    Segments {
        segments: (u32, u32),
        anchored: bool,
        restart: bool,
    },
}

/// A node of the tree: what a walk reads at each step, in one cache line
/// (a walk along a path meets a new node at every step, most of them not
/// in cache when a crawler asks about many sites in turn). The masks of the
/// words below follow from the lengths, so they are not stored.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Node {
    /// The label's first (up to) 8 bytes, little-endian, shifted left by
    /// `shift` bits (so that the bytes past the label fall off): one shift
    /// and one comparison check a short label; and the next 8, by `shift2`.
    head: u64,
    head2: u64,
    /// For up to 8 children, the first bytes of their labels: one
    /// comparison finds a child among them. For more, the index of the
    /// node's set of first bytes in `wide`.
    child_bytes: u64,
    /// The bytes from the root to the end of this node's label, as a set
    /// (see [`scan::byte_set`]).
    pub bytes_above: u64,
    /// The length of the edge into the node, and where its bytes past the
    /// first 16 (compared as `head` and `head2`) start in `long_labels`.
    label_len: u32,
    label_start: u32,
    /// The children are `first_child..first_child + children` (at most
    /// 256, one per first byte).
    first_child: u32,
    children: u16,
    /// `64 - 8 * n` for the `n` bytes (up to 8) of the label `head` holds,
    /// and of those `head2` holds.
    shift: u8,
    shift2: u8,
    /// The best prefix rule whose head ends at this node or above it.
    pub prefix: u32,
    /// The best exact rule whose head ends at this node.
    pub exact: u32,
    /// The nearest node at or above this one that has globs.
    pub glob_node: u32,
    /// The best of the globs on that node and the nodes above it, so
    /// that a walk which has found better skips them without a call.
    pub glob_best: u32,
}

// One cache line, no more.
const _: () = assert!(std::mem::size_of::<Node>() == 64);

/// Where a node's globs are, read only when a walk tries globs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlobLink {
    /// The globs whose head ends at the node, best first: a range of
    /// `globs` (and of `needs`).
    pub globs: (u32, u32),
    /// The rank of the first of them (the best), [`NONE`] for none: a walk
    /// that has found a better rule skips the node without reading them.
    pub best: u32,
    /// The nearest node strictly above the node that has globs.
    pub above: u32,
}

/// How many nodes (the first in breadth-first order, one line each) a
/// lookup asks for before it walks. Measured on the corpus's answers with
/// another program sweeping 64 MiB on the other core: 4 nodes +7%, 8 +15%,
/// 16 +14%; with nothing else running, 8 cost up to 4% and 16 up to 5%.
#[cfg(target_arch = "x86_64")]
const PREFETCHED_NODES: usize = 8;

/// The first bytes of the children of a node with more than 8, in one
/// cache line: a bit per byte in `set`, and how many children start with
/// a byte below each eight (at most 248), so that a child's place among
/// its siblings is that count and the bits below its own in its byte of
/// the set.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Wide {
    set: [u8; 32],
    before: [u8; 32],
}

/// How many bits each byte has set: a table, since a count of bits is
/// a dozen instructions without `popcnt`.
static BITS_SET: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    table
};

/// The first of the eight bytes of `child_bytes` (little-endian) equal
/// to `byte`, if one is. SSE2 compares them in a few instructions with no
/// 64-bit constants, which a walk's loop would keep reloading.
#[inline(always)]
fn child_slot(child_bytes: u64, byte: u8) -> Option<u32> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use safe_arch::{
            cmp_eq_mask_i8_m128i, move_mask_i8_m128i, set_i64_m128i_s, set_splat_i8_m128i,
        };
        let equal = cmp_eq_mask_i8_m128i(
            set_i64_m128i_s(child_bytes as i64),
            set_splat_i8_m128i(byte as i8),
        );
        // The upper eight bytes are zero: a NUL would find them.
        let hits = move_mask_i8_m128i(equal) as u32 & 0xFF;
        (hits != 0).then(|| hits.trailing_zeros())
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        // The lowest flag is exact (see `scan::matching`).
        let hits = scan::matching(child_bytes, byte);
        (hits != 0).then(|| hits.trailing_zeros() / 8)
    }
}

/// A mask of the lowest `n` bytes of a word (all eight from 8 on).
#[inline(always)]
fn low_bytes(n: u32) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// The tree, its nodes in breadth-first order (so a node's children are
/// contiguous), node 0 the root (an empty label). What every lookup reads
/// before its first node (where walks start, and where the nodes and the
/// globs' first tables are) is held in place, so that whatever holds the
/// tree brings it in its own lines (see
/// [`LazyMatcher`](crate::decide::LazyMatcher)): a crawler asking about
/// many sites in turn finds each file's tables out of cache, and a walk
/// then waits for one line fewer before its nodes. What only some
/// lookups read (the globs, long labels, and the owner's `T`) sits in one
/// allocation behind `far`.
#[derive(Clone, Debug)]
pub(crate) struct PrefixTree<T> {
    /// Where walks start: the root's only child when the root holds no
    /// rule (all heads then start with its label, often `/`), else the
    /// root.
    start: u32,
    /// Whether the start node's label is `/`.
    start_is_slash: bool,
    nodes: Box<[Node]>,
    /// One per node when the tree holds globs, else none.
    links: Box<[GlobLink]>,
    /// Each glob's byte set (see [`Head::Glob`]), apart from the globs: a
    /// walk reads these for every glob it passes, and the globs only for
    /// those whose set the path holds.
    needs: Box<[u64]>,
    /// For each node with more than 8 children, the set of the first bytes
    /// of their labels (children are in the order of those bytes): a
    /// child's place among its siblings is the number of bytes in the set
    /// below its own. 64 bytes a node, where a table of children by byte
    /// would take a kilobyte.
    wide: Box<[Wide]>,
    far: Box<Far<T>>,
}

/// The tables of a [`PrefixTree`] that a walk reads only now and then.
#[derive(Clone, Debug)]
struct Far<T> {
    globs: Box<[Glob]>,
    /// The bytes of labels past their first 16, back to back, then 8 bytes
    /// of padding, so that they are read eight bytes at a time.
    long_labels: Box<[u8]>,
    /// The owner's own tables, read with the globs.
    extra: T,
}

/// A node while the tree is built: its label a span of the text, its
/// depth the length of the string from the root to its end.
#[derive(Clone, Copy)]
struct Building {
    label: Str,
    depth: u32,
    parent: u32,
    prefix: u32,
    exact: u32,
}

impl<T> PrefixTree<T> {
    /// Builds the tree of `heads`: (the head's span in `text`, how it
    /// decides, rank), in any order, keeping `extra` with its far tables.
    /// Sorted, each head shares with the one before exactly the path it
    /// does not add: the tree grows along one branch, without searching
    /// among children.
    pub(crate) fn build(
        text: &[u8],
        heads: impl IntoIterator<Item = (Str, Head, u32)>,
        extra: T,
    ) -> Self {
        let heads: Vec<(Str, Head, u32)> = heads.into_iter().collect();
        let order = sorted(text, heads.iter().map(|h| h.0));
        let mut building = Vec::with_capacity(2 * heads.len() + 1);
        building.push(Building {
            label: Str::default(),
            depth: 0,
            parent: NONE,
            prefix: NONE,
            exact: NONE,
        });
        // The branch of the head before: the root, then deeper nodes.
        let mut branch: Vec<u32> = vec![0];
        let mut previous: &[u8] = &[];
        let mut glob_heads: Vec<(u32, u64, Glob)> = Vec::new();
        for &i in &order {
            let (head, how, rank) = heads[i as usize];
            let key = &text[head.range()];
            // A value ends at `#` or NUL when read: walks rely on it.
            debug_assert!(!key.iter().any(|&b| b == b'#' || b == 0));
            let common = common_prefix(previous, key) as u32;
            let mut left = NONE;
            while let [.., _, last] = branch[..] {
                if building[last as usize].depth <= common {
                    break;
                }
                left = last;
                branch.pop();
            }
            let top = branch[branch.len() - 1];
            let top_depth = building[top as usize].depth;
            if top_depth < common {
                // The head leaves the branch inside the label of the node
                // just left: a node where it does.
                let cut = common - top_depth;
                let middle = building.len() as u32;
                let below = &mut building[left as usize];
                let label = Str {
                    start: below.label.start,
                    len: cut,
                };
                below.label.start += cut;
                below.label.len -= cut;
                below.parent = middle;
                building.push(Building {
                    label,
                    depth: common,
                    parent: top,
                    prefix: NONE,
                    exact: NONE,
                });
                branch.push(middle);
            }
            let top = branch[branch.len() - 1];
            let depth = building[top as usize].depth;
            let node = if depth < head.len {
                let leaf = building.len() as u32;
                building.push(Building {
                    label: Str {
                        start: head.start + depth,
                        len: head.len - depth,
                    },
                    depth: head.len,
                    parent: top,
                    prefix: NONE,
                    exact: NONE,
                });
                branch.push(leaf);
                leaf
            } else {
                top
            };
            let slot = match how {
                Head::Prefix => &mut building[node as usize].prefix,
                Head::Exact => &mut building[node as usize].exact,
                Head::Glob { needs, glob } => {
                    glob_heads.push((node, needs, glob));
                    previous = key;
                    continue;
                }
            };
            *slot = (*slot).min(rank);
            previous = key;
        }
        let (mut tree, renumbered) = breadth_first(text, &building, !glob_heads.is_empty(), extra);
        for (node, _, _) in &mut glob_heads {
            *node = renumbered[*node as usize];
        }
        tree.attach_globs(glob_heads);
        tree.inherit();
        let root = tree.nodes[0];
        if root.children == 1 && root.prefix == NONE && root.exact == NONE && root.glob_node == NONE
        {
            tree.start = root.first_child;
            let start = tree.nodes[root.first_child as usize];
            tree.start_is_slash =
                start.label_len == 1 && start.head == u64::from(b'/') << shift_for(1);
        }
        tree
    }

    /// The heap bytes the tree holds (`extra`'s own heap aside).
    pub(crate) fn heap_size(&self) -> usize {
        std::mem::size_of_val(&*self.nodes)
            + std::mem::size_of::<Far<T>>()
            + std::mem::size_of_val(&*self.far.long_labels)
            + std::mem::size_of_val(&*self.wide)
            + std::mem::size_of_val(&*self.far.globs)
            + std::mem::size_of_val(&*self.needs)
            + std::mem::size_of_val(&*self.links)
    }

    /// The owner's tables kept with the far ones.
    #[inline(always)]
    pub(crate) fn extra(&self) -> &T {
        &self.far.extra
    }

    /// Puts each glob on its node, best first.
    fn attach_globs(&mut self, mut glob_heads: Vec<(u32, u64, Glob)>) {
        if glob_heads.is_empty() {
            return;
        }
        let unlinked = GlobLink {
            globs: (0, 0),
            best: NONE,
            above: NONE,
        };
        self.links = vec![unlinked; self.nodes.len()].into_boxed_slice();
        glob_heads.sort_unstable_by_key(|&(node, _, glob)| (node, glob.rank));
        let mut i = 0;
        while i < glob_heads.len() {
            let node = glob_heads[i].0;
            let start = i;
            while i < glob_heads.len() && glob_heads[i].0 == node {
                i += 1;
            }
            let link = &mut self.links[node as usize];
            link.globs = (start as u32, i as u32);
            link.best = glob_heads[start].2.rank;
        }
        self.needs = glob_heads.iter().map(|&(_, needs, _)| needs).collect();
        self.far.globs = glob_heads.into_iter().map(|(_, _, glob)| glob).collect();
    }

    /// What a node learns from its ancestors: the best prefix rule above
    /// it and the nearest glob nodes. Parents come before their children.
    fn inherit(&mut self) {
        for parent in 0..self.nodes.len() {
            let p = self.nodes[parent];
            let (glob_node, own_best) = match self.links.get(parent) {
                Some(link) if link.globs.0 < link.globs.1 => (parent as u32, link.best),
                Some(link) => (link.above, NONE),
                None => (NONE, NONE),
            };
            self.nodes[parent].glob_node = glob_node;
            let glob_best = p.glob_best.min(own_best);
            self.nodes[parent].glob_best = glob_best;
            for child in p.first_child..p.first_child + u32::from(p.children) {
                let c = &mut self.nodes[child as usize];
                c.prefix = c.prefix.min(p.prefix);
                c.glob_best = glob_best;
                c.bytes_above |= p.bytes_above;
                if let Some(link) = self.links.get_mut(child as usize) {
                    link.above = glob_node;
                }
            }
        }
    }

    /// Asks the memory for the lines a walk is likely to read, all at
    /// once: the top of the tree and, when it holds globs, the first lines
    /// of the globs' tables and of the far ones. A crawler asking about
    /// many sites in turn finds them out of cache, and a walk reads them
    /// one after the other, each waiting for the last.
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            // A whole chunk unrolls into one instruction per line.
            match self.nodes.first_chunk::<PREFETCHED_NODES>() {
                Some(top) => top.iter().for_each(safe_arch::prefetch_t0),
                None => self.nodes.iter().for_each(safe_arch::prefetch_t0),
            }
            if let Some(link) = self.links.first() {
                safe_arch::prefetch_t0(link);
                // Its address is in place: no load waits for it.
                safe_arch::prefetch_t0(&*self.far);
            }
            if let Some(needs) = self.needs.first() {
                safe_arch::prefetch_t0(needs);
            }
        }
    }

    /// Walks the path `bytes[from..]` down from the root as far as whole
    /// labels agree with it: the last node reached, and where in `bytes`
    /// the path leaves it. No label holds `#` or NUL (a value read from a
    /// line ends at either), so a walk along a URL stops where its path
    /// ends. `at_slash`: the path is known to start with `/` (as a path
    /// read from a URL does), so a start node of `/` needs no comparison.
    #[inline(always)]
    pub(crate) fn descend(&self, bytes: &[u8], from: usize, at_slash: bool) -> (&Node, usize) {
        let mut at = from;
        // The start node: the root (0) or its only child.
        let mut node = match self.nodes.get(self.start as usize) {
            // A label of one byte, `/`.
            Some(start) if at_slash && self.start_is_slash => {
                at += 1;
                start
            }
            Some(start) if self.start != 0 => {
                if !self.label_at(start, scan::word_padded(bytes, at), bytes, at) {
                    return (&self.nodes[0], at);
                }
                at += start.label_len as usize;
                start
            }
            _ => &self.nodes[0],
        };
        while node.children != 0 {
            // Past the end, the path reads as NULs (see `label_at`): a NUL
            // finds no child, or one whose label differs.
            let word = scan::word_padded(bytes, at);
            let byte = word as u8;
            let index = if node.children <= 8 {
                // The lowest flag is exact (see `scan::matching`), and
                // labels of siblings start with different bytes. The
                // unused bytes are NUL, which only a NUL finds, and no
                // label holds a NUL: the child found then fails `label_at`.
                let Some(slot) = child_slot(node.child_bytes, byte) else {
                    break;
                };
                node.first_child + slot
            } else {
                let Some(wide) = self.wide.get(node.child_bytes as usize) else {
                    break;
                };
                let (slot, bit) = (usize::from(byte >> 3), byte & 7);
                let bits = wide.set[slot];
                if bits >> bit & 1 == 0 {
                    break;
                }
                let below = BITS_SET[usize::from(bits & ((1 << bit) - 1))];
                node.first_child + u32::from(wide.before[slot]) + u32::from(below)
            };
            match self.nodes.get(index as usize) {
                Some(child) if self.label_at(child, word, bytes, at) => {
                    at += child.label_len as usize;
                    node = child;
                }
                _ => break,
            }
        }
        (node, at)
    }

    /// Whether `bytes` holds `node`'s label at `at`, where `word` is
    /// `scan::word_padded(bytes, at)`. Past their end, `bytes` read as
    /// NULs, which no label holds: a label running past the end differs
    /// there, without a length check.
    #[inline(always)]
    fn label_at(&self, node: &Node, word: u64, bytes: &[u8], at: usize) -> bool {
        let len = node.label_len as usize;
        word << node.shift == node.head
            && (len <= 8 || scan::word_padded(bytes, at + 8) << node.shift2 == node.head2)
            && (len <= 16 || self.label_rest_at(node, bytes, at))
    }

    /// Whether `bytes` holds the rest of `node`'s label, past its first
    /// sixteen bytes, at `at`.
    #[cold]
    #[inline(never)]
    fn label_rest_at(&self, node: &Node, bytes: &[u8], at: usize) -> bool {
        let rest = node.label_len as usize - 16;
        let start = node.label_start as usize;
        match (
            bytes.get(at + 16..at + 16 + rest),
            self.far.long_labels.get(start..start + rest),
        ) {
            (Some(path), Some(label)) => path == label,
            _ => false,
        }
    }

    /// Where the globs of `node` are, and the next node above with globs.
    #[inline]
    pub(crate) fn link(&self, node: u32) -> &GlobLink {
        &self.links[node as usize]
    }

    /// The byte sets of the globs `range` (of a [`GlobLink`]).
    #[inline]
    pub(crate) fn needs(&self, (start, end): (u32, u32)) -> &[u64] {
        &self.needs[start as usize..end as usize]
    }

    /// Glob `index` (of a [`GlobLink`]'s range).
    #[inline]
    pub(crate) fn glob(&self, index: usize) -> &Glob {
        &self.far.globs[index]
    }
}

/// The tree in breadth-first order, each node's children contiguous, globs
/// not attached yet (the bytes above each node only noted `with_globs`);
/// and each building node's new number.
fn breadth_first<T>(
    text: &[u8],
    building: &[Building],
    with_globs: bool,
    extra: T,
) -> (PrefixTree<T>, Vec<u32>) {
    // Each node's children, grouped by parent (a counting sort).
    let mut starts = vec![0u32; building.len() + 1];
    for b in &building[1..] {
        starts[b.parent as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut fill = starts.clone();
    let mut children = vec![0u32; building.len() - 1];
    for (i, b) in building.iter().enumerate().skip(1) {
        let slot = &mut fill[b.parent as usize];
        children[*slot as usize] = i as u32;
        *slot += 1;
    }
    // Siblings in the order of their first bytes, which the sets of wide
    // nodes count on (a node split late comes after its siblings).
    let first_byte = |node: u32| {
        let label = building[node as usize].label;
        text.get(label.start as usize).copied().unwrap_or(0)
    };
    for parent in 0..building.len() {
        children[starts[parent] as usize..starts[parent + 1] as usize]
            .sort_unstable_by_key(|&child| first_byte(child));
    }
    let mut order: Vec<u32> = Vec::with_capacity(building.len());
    let mut nodes: Vec<Node> = Vec::with_capacity(building.len());
    let mut firsts: Vec<u8> = Vec::with_capacity(building.len());
    let mut long_labels: Vec<u8> = Vec::new();
    order.push(0);
    let mut next = 0;
    while next < order.len() {
        let old = order[next] as usize;
        let b = building[old];
        let first_child = order.len() as u32;
        order.extend_from_slice(&children[starts[old] as usize..starts[old + 1] as usize]);
        let label = &text[b.label.range()];
        let head = word_of(text, b.label);
        let head2 = if label.len() > 8 {
            word_of(
                text,
                Str {
                    start: b.label.start + 8,
                    len: b.label.len - 8,
                },
            )
        } else {
            0
        };
        nodes.push(Node {
            head: head << shift_for(label.len()),
            head2: head2 << shift_for(label.len().saturating_sub(8)),
            child_bytes: 0,
            label_len: label.len() as u32,
            shift: shift_for(label.len()),
            shift2: shift_for(label.len().saturating_sub(8)),
            label_start: long_labels.len() as u32,
            first_child,
            children: u16::try_from(order.len() as u32 - first_child)
                .expect("at most 256 children, one per first byte"),
            prefix: b.prefix,
            exact: b.exact,
            glob_node: NONE,
            glob_best: NONE,
            bytes_above: if with_globs { scan::byte_set(label) } else { 0 },
        });
        firsts.push(label.first().copied().unwrap_or(0));
        long_labels.extend_from_slice(label.get(16..).unwrap_or_default());
        next += 1;
    }
    let mut wide = Vec::new();
    for node in &mut nodes {
        let children = &firsts
            [node.first_child as usize..node.first_child as usize + usize::from(node.children)];
        if children.len() <= 8 {
            node.child_bytes = head_of(children);
        } else {
            let mut line = Wide {
                set: [0; 32],
                before: [0; 32],
            };
            for &byte in children {
                line.set[usize::from(byte >> 3)] |= 1 << (byte & 7);
            }
            let mut below = 0u8;
            for (count, bits) in line.before.iter_mut().zip(line.set) {
                *count = below;
                // At most 248 below the last eight.
                below = below.saturating_add(bits.count_ones() as u8);
            }
            node.child_bytes = wide.len() as u64;
            wide.push(line);
        }
    }
    long_labels.extend_from_slice(&[0; 8]);
    let mut renumbered = vec![0u32; building.len()];
    for (new, &old) in order.iter().enumerate() {
        renumbered[old as usize] = new as u32;
    }
    let tree = PrefixTree {
        nodes: nodes.into_boxed_slice(),
        wide: wide.into_boxed_slice(),
        far: Box::new(Far {
            globs: Box::default(),
            long_labels: long_labels.into_boxed_slice(),
            extra,
        }),
        needs: Box::default(),
        links: Box::default(),
        start: 0,
        start_is_slash: false,
    };
    (tree, renumbered)
}

/// The positions of `spans` (of the text) in the order of their bytes:
/// sorted eight bytes at a time (each eight as a big-endian number), those
/// alike so far sorted again by the next eight, so that strings are never
/// compared whole.
fn sorted(text: &[u8], spans: impl ExactSizeIterator<Item = Str> + Clone) -> Vec<u32> {
    let spans: Vec<Str> = spans.collect();
    let key = |i: u32, depth: u32| {
        let span = spans[i as usize];
        let rest = Str {
            start: span.start + depth.min(span.len),
            len: span.len.saturating_sub(depth),
        };
        u64::from_be_bytes(word_of(text, rest).to_le_bytes())
    };
    let mut order: Vec<(u64, u32)> = (0..spans.len() as u32).map(|i| (key(i, 0), i)).collect();
    // Runs still to sort: (start, end, depth).
    let mut runs = vec![(0, order.len(), 0u32)];
    while let Some((start, end, depth)) = runs.pop() {
        let run = &mut order[start..end];
        if depth > 0 {
            for item in run.iter_mut() {
                item.0 = key(item.1, depth);
            }
        }
        run.sort_unstable();
        let mut i = 0;
        while i < run.len() {
            // Most keys are alone: a step at a time finds a run's end in
            // fewer comparisons than a binary search over the rest would.
            let mut same = i + 1;
            while same < run.len() && run[same].0 == run[i].0 {
                same += 1;
            }
            // Alike in eight whole bytes (no padding): the next eight decide.
            if same - i > 1 && run[i].0 & 0xFF != 0 {
                runs.push((start + i, start + same, depth + 8));
            }
            i = same;
        }
    }
    order.into_iter().map(|(_, i)| i).collect()
}

/// How many bytes `a` and `b` start with alike, eight at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut at = 0;
    while at < len {
        let differ = scan::word_padded(a, at) ^ scan::word_padded(b, at);
        if differ != 0 {
            return (at + (differ.trailing_zeros() / 8) as usize).min(len);
        }
        at += 8;
    }
    len
}

/// The first up to 8 bytes of `span` of the text as a little-endian word,
/// zero-padded.
#[inline]
fn word_of(text: &[u8], span: Str) -> u64 {
    scan::word_padded(text, span.start as usize) & low_bytes(span.len)
}

/// How far a word holding the first `n` bytes of a label is shifted left
/// to drop the bytes past them: `64 - 8 * n`, for `n` from 1 to 8 (none
/// for 8 and more, and for an empty label, which is never compared).
fn shift_for(n: usize) -> u8 {
    match n {
        0 | 8.. => 0,
        _ => 64 - 8 * n as u8,
    }
}

/// The first up to 8 bytes as a little-endian word, zero-padded.
#[inline]
fn head_of(bytes: &[u8]) -> u64 {
    if let Some(first) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*first);
    }
    let mut word = 0u64;
    for (i, &b) in bytes.iter().enumerate() {
        word |= u64::from(b) << (8 * i);
    }
    word
}
