//! The two ways to write a policy, and what they return: the file, its
//! proof, the diff against the site's file, the server rules.

use std::borrow::Cow;

use crate::error::PolicyError;
use crate::explain::{rows, text, ExplainRow};
use crate::intent::{intents, Intent};
use crate::merge::merge as merge_into;
use crate::plan::plan;
use crate::policy::Policy;
use crate::proof::{prove, Proof};
use crate::ranges::{deny_by_address, CrawlerRanges};
use crate::server::ServerRules;
use crate::text::everyone_rules;
use crate::writer::write_new;

/// A file that says what a policy means, with its proof.
#[derive(Clone, Debug)]
pub struct Written {
    /// The robots.txt.
    pub robots_txt: Vec<u8>,
    /// What was proven of it.
    pub proof: Proof,
    /// What the policy means for each crawler.
    pub intents: Vec<Intent>,
    /// What was done that a person should know (groups split, crawlers
    /// that share a token).
    pub notes: Vec<String>,
    /// On a merge, the unified diff from the site's file.
    pub diff: Option<String>,
    /// The server rules for the crawlers robots.txt cannot stop.
    pub server: ServerRules,
}

impl Written {
    /// The file as text (bytes that are not UTF-8, kept from a site's
    /// file, shown as U+FFFD).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.robots_txt)
    }

    /// The `--explain` table's rows.
    pub fn explain_rows(&self) -> Vec<ExplainRow> {
        rows(&self.proof.rows, &self.server)
    }

    /// The `--explain` table as text.
    pub fn explain(&self) -> String {
        text(&self.explain_rows())
    }

    /// The server rules also deny by address: the ranges the operators
    /// publish for the crawlers the policy denies get 403 whatever
    /// `User-Agent` a request sends (`/robots.txt` still served). A range
    /// that a crawler the policy lets in shares (one operator's common
    /// feed, or an overlapping prefix) is not denied, and a note says so.
    /// `ranges` must hold every feed of every crawler of the registry that
    /// fetches (what the registry's `@verify` lines name): without a
    /// let-in crawler's ranges, a denied range could be one of its.
    ///
    /// ```
    /// use crawlgate::registry;
    /// use crawlgate_policy::{feeds_of, write, Access, CrawlerRanges, Policy, Purpose};
    ///
    /// // Small feeds: every crawler's own made-up range, two for GPTBot.
    /// let mut ranges = Vec::new();
    /// for (i, crawler) in registry::crawlers().iter().enumerate() {
    ///     for feed in feeds_of(crawler) {
    ///         let mut prefixes = vec![format!("10.{}.0.0/16", i % 250).parse().unwrap()];
    ///         if crawler.name == "GPTBot" {
    ///             prefixes.push("192.0.2.0/24".parse().unwrap());
    ///         }
    ///         ranges.push(CrawlerRanges { crawler, feed: feed.to_owned(), prefixes });
    ///     }
    /// }
    /// let policy = Policy::new().with(Purpose::Search, Access::Allow).with(Purpose::AiTrain, Access::Deny);
    /// let written = write(&policy).unwrap().with_ip_ranges(&ranges).unwrap();
    /// assert!(written.server.denied_ranges.contains(&"192.0.2.0/24".parse().unwrap()));
    /// assert!(written.server.haproxy().contains("acl crawlgate_denied_address src "));
    /// assert!(written.server.nginx_http().unwrap().contains("    192.0.2.0/24 1;"));
    /// ```
    pub fn with_ip_ranges(mut self, ranges: &[CrawlerRanges]) -> Result<Written, PolicyError> {
        let denial = deny_by_address(&self.intents, ranges)?;
        self.server.denied_ranges = denial.prefixes;
        self.server.denied_by_address = denial.crawlers;
        self.notes.extend(denial.shared.iter().map(|s| {
            format!("{s}: a range is denied only when every crawler it serves is denied")
        }));
        self.server.shared_ranges = denial.shared;
        Ok(self)
    }
}

fn notes_of(intents: &[Intent]) -> Vec<String> {
    intents
        .iter()
        .filter_map(|i| match i.stated {
            crate::intent::Stated::SharedToken(with) => Some(format!(
                "{} is denied with {}: a `User-agent: {}` line names both",
                i.crawler.name, with.name, with.token
            )),
            _ => None,
        })
        .collect()
}

fn checked(written: Written) -> Result<Written, PolicyError> {
    if written.proof.holds() {
        Ok(written)
    } else {
        Err(PolicyError::Unproven(written.proof.failures))
    }
}

/// A new robots.txt for `policy`, proven.
pub fn write(policy: &Policy) -> Result<Written, PolicyError> {
    policy.validate()?;
    let intents = intents(policy)?;
    let groups = plan(
        &intents,
        policy.crawl_delay.is_some(),
        !everyone_rules(policy).is_empty() || policy.states_preferences(),
    );
    let robots_txt = write_new(policy, &groups).into_bytes();
    let mut proof = prove(&robots_txt, policy, &intents, None);
    let proof_notes = std::mem::take(&mut proof.notes);
    let mut notes = notes_of(&intents);
    notes.extend(proof_notes);
    checked(Written {
        server: ServerRules::of(policy, &intents),
        robots_txt,
        proof,
        intents,
        notes,
        diff: None,
    })
}

/// `policy` merged into the site's own file `existing`, proven: no
/// verdict changes for the crawlers it does not change.
///
/// ```
/// use crawlgate::{RobotsTxt, Who};
/// use crawlgate_policy::{merge, Access, Policy, Purpose};
///
/// let site = b"User-agent: GPTBot\nUser-agent: Googlebot\nDisallow: /drafts/\n\nUser-agent: *\nDisallow: /tmp/\n";
/// let policy = Policy::new().with(Purpose::AiTrain, Access::Deny);
/// let merged = merge(&policy, site).unwrap();
/// let robots = RobotsTxt::parse(&merged.robots_txt);
/// assert!(!robots.view(Who::crawler("GPTBot")).is_allowed("/"));
/// // Googlebot keeps the group it shared with GPTBot.
/// assert!(!robots.view(Who::crawler("Googlebot")).is_allowed("/drafts/x"));
/// assert!(robots.view(Who::crawler("Googlebot")).is_allowed("/tmp/x"));
/// assert!(merged.diff.unwrap().contains("-User-agent: GPTBot"));
/// ```
pub fn merge(policy: &Policy, existing: &[u8]) -> Result<Written, PolicyError> {
    policy.validate()?;
    let intents = intents(policy)?;
    let merged = merge_into(policy, &intents, existing)?;
    let mut proof = prove(&merged.bytes, policy, &intents, Some(&merged.baseline));
    let mut notes = notes_of(&intents);
    notes.extend(merged.notes);
    notes.append(&mut proof.notes);
    let before = String::from_utf8_lossy(existing);
    let after = String::from_utf8_lossy(&merged.bytes);
    let diff = similar::TextDiff::from_lines(before.as_ref(), after.as_ref())
        .unified_diff()
        .context_radius(2)
        .header("robots.txt", "robots.txt (with the policy)")
        .to_string();
    checked(Written {
        server: ServerRules::of(policy, &intents),
        robots_txt: merged.bytes,
        proof,
        intents,
        notes,
        diff: Some(diff),
    })
}
