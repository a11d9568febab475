//! The builder's working vectors, kept per thread from one parse to the
//! next.
//!
//! A file's records are gathered in vectors that grow as lines come, and
//! the model keeps exact copies of them. Most files are small, and for them
//! the allocator's calls (growing, then shrinking to fit) cost as much as
//! reading the lines: kept vectors need neither, so a parse allocates only
//! the model's exact vectors. A thread keeps at most [`KEPT_BYTES`] of them,
//! and only files up to [`SMALL_FILE`] use them.

use std::cell::Cell;

use crate::model::{
    AgentRecord, ExtensionRecord, Finding, GroupRecord, RuleRecord, SitemapRecord, Str,
};

/// Files up to this size gather their records in the thread's kept
/// vectors; a larger one's growth and shrinking weigh little against its
/// lines, and copying its records would weigh more.
pub(super) const SMALL_FILE: usize = 16 << 10;

/// The most a thread keeps between parses; vectors grown past it (by a
/// large file) are given back to the allocator.
const KEPT_BYTES: usize = 1 << 20;

/// The vectors a parse gathers its records in.
#[derive(Default)]
pub(super) struct Scratch {
    pub text: Vec<u8>,
    pub agents: Vec<AgentRecord>,
    pub rules: Vec<RuleRecord>,
    pub extensions: Vec<ExtensionRecord>,
    pub groups: Vec<GroupRecord>,
    pub sitemaps: Vec<SitemapRecord>,
    pub originals: Vec<(u32, Str)>,
    pub aliases: Vec<(u32, Str)>,
    pub findings: Vec<Finding>,
    /// The tokens the groups name, with their groups, to sort.
    pub named: Vec<(Str, u32)>,
    /// The `*` groups.
    pub globals: Vec<u32>,
}

thread_local! {
    static KEPT: Cell<Option<Scratch>> = const { Cell::new(None) };
}

impl Scratch {
    /// Empty vectors: this thread's kept ones, or new ones.
    pub(super) fn take() -> Scratch {
        KEPT.with(Cell::take).unwrap_or_default()
    }

    /// Keeps the vectors (emptied) for this thread's next parse, unless
    /// they hold more than [`KEPT_BYTES`].
    pub(super) fn give_back(mut self) {
        let bytes = self.text.capacity()
            + held(&self.agents)
            + held(&self.rules)
            + held(&self.extensions)
            + held(&self.groups)
            + held(&self.sitemaps)
            + held(&self.originals)
            + held(&self.aliases)
            + held(&self.findings)
            + held(&self.named)
            + held(&self.globals);
        if bytes > KEPT_BYTES {
            return;
        }
        self.text.clear();
        self.agents.clear();
        self.rules.clear();
        self.extensions.clear();
        self.groups.clear();
        self.sitemaps.clear();
        self.originals.clear();
        self.aliases.clear();
        self.findings.clear();
        self.named.clear();
        self.globals.clear();
        KEPT.with(|kept| kept.set(Some(self)));
    }
}

fn held<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}
