//! The groups a policy needs beside the site's own: one per purpose it
//! denies (`Disallow: /`), and groups for the crawlers it lets in that
//! would otherwise miss the rules meant for everyone (they read
//! `Crawl-delay`, ignore `*`, or would fall back to a denied token).

use std::collections::HashSet;

use crawlgate::registry::{self, Crawler, CrawlerKind};
use crawlgate::Profile;

use crate::intent::Intent;
use crate::purpose::Purpose;
use crate::text::comment_block;

/// One `User-agent` line: a token and the crawlers of the registry it
/// names.
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) token: &'static str,
    pub(crate) crawlers: Vec<&'static Crawler>,
}

/// Why a group is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroupKind {
    /// Crawlers of one purpose the policy shuts out.
    Denied(Purpose),
    /// Crawlers that read `Crawl-delay`, with the delay and the rules
    /// meant for everyone.
    CrawlDelay,
    /// Crawlers let in that need a group of their own to keep the rules
    /// meant for everyone (they ignore `*`, or would fall back to a
    /// denied token); search engines' crawlers (`true`) apart from the
    /// others, as a search crawler among AI crawlers reads as a mistake
    /// (R502).
    Kept { search: bool },
}

/// A group to write.
#[derive(Clone, Debug)]
pub(crate) struct GroupPlan {
    pub(crate) kind: GroupKind,
    pub(crate) members: Vec<Member>,
}

impl GroupPlan {
    /// The tokens it names, lowercased.
    pub(crate) fn tokens(&self) -> impl Iterator<Item = String> + '_ {
        self.members.iter().map(|m| m.token.to_ascii_lowercase())
    }

    /// The comment above the group: what it is for and where the registry
    /// has its crawlers from.
    pub(crate) fn comment(&self, crawl_delay: &str) -> Vec<String> {
        let who = |search: bool| {
            if search {
                "Search engines' crawlers"
            } else {
                "Crawlers"
            }
        };
        let what = match self.kind {
            GroupKind::Denied(purpose) => format!(
                "{}: denied (Disallow: /). {}",
                capitalised(purpose.describe()),
                purpose_scope(purpose)
            ),
            GroupKind::CrawlDelay => format!(
                "Crawlers that read Crawl-delay: {crawl_delay} s between requests, with the \
                 rules for every crawler."
            ),
            GroupKind::Kept { search } => format!(
                "{} let in that need a group of their own to keep the rules for every \
                 crawler (they ignore the * group, or would follow a denied group).",
                who(search)
            ),
        };
        let mut sources: Vec<&str> = Vec::new();
        for crawler in self.members.iter().flat_map(|m| &m.crawlers) {
            let title = crawler.source.title;
            if !sources.contains(&title) {
                sources.push(title);
            }
        }
        let mut lines = comment_block(&what);
        lines.extend(comment_block(&format!(
            "From crawlgate's crawler registry {}, after {}.",
            registry::version(),
            and_list(&sources)
        )));
        lines
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn purpose_scope(purpose: Purpose) -> &'static str {
    match purpose {
        Purpose::AiTrain => {
            "Crawlers that collect pages to train AI models, and the control tokens that govern \
             training on what other crawlers fetch."
        }
        Purpose::AiUse => {
            "Crawlers that feed AI search, answers and assistants, and the control tokens that \
             govern that use."
        }
        Purpose::Search => "Search engines' crawlers.",
        Purpose::UserFetch => "Fetchers that fetch a page when a person asks.",
        _ => "",
    }
}

fn and_list(items: &[&str]) -> String {
    match items {
        [] => "its own table".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Whether the policy needs to name a crawler at all: crawlers that no
/// longer run are never named (the linter would say so), nor those whose
/// name is no product token (`AI2Bot`): a line naming one is read as a
/// shorter token (`AI`) that Google's library never compares equal to the
/// crawler's whole name, so it would bind no one the policy means.
fn nameable(crawler: &Crawler) -> bool {
    crawler.runs() && crawler.name_is_token()
}

/// The group that keeps the rules for everyone for a crawler let in.
fn kept(intent: &Intent) -> GroupKind {
    GroupKind::Kept {
        search: intent.purpose == Purpose::Search,
    }
}

/// The groups a policy needs, given whether it sets a crawl delay and
/// whether the `*` group says anything crawlers that ignore `*` should
/// hear too (rules for everyone, preferences).
pub(crate) fn plan(
    intents: &[Intent],
    crawl_delay: bool,
    star_says_something: bool,
) -> Vec<GroupPlan> {
    let mut groups: Vec<GroupPlan> = Vec::new();
    // A token is named once in the file: a crawler whose token is named
    // already joins that line (its comment says so).
    let add = |groups: &mut Vec<GroupPlan>, kind: GroupKind, crawler: &'static Crawler| {
        if let Some(member) = groups
            .iter_mut()
            .flat_map(|g| g.members.iter_mut())
            .find(|m| m.token.eq_ignore_ascii_case(crawler.token))
        {
            if !member.crawlers.iter().any(|c| c.name == crawler.name) {
                member.crawlers.push(crawler);
            }
            return;
        }
        let member = Member {
            token: crawler.token,
            crawlers: vec![crawler],
        };
        match groups.iter_mut().find(|g| g.kind == kind) {
            Some(group) => group.members.push(member),
            None => groups.push(GroupPlan {
                kind,
                members: vec![member],
            }),
        }
    };
    // Denied crawlers, a group per purpose in the policy's order.
    for purpose in Purpose::ALL {
        for intent in intents {
            if intent.purpose == purpose && intent.denied() && nameable(intent.crawler) {
                add(&mut groups, GroupKind::Denied(purpose), intent.crawler);
            }
        }
    }
    let denied: HashSet<String> = groups.iter().flat_map(|g| g.tokens()).collect();
    let let_in = |intent: &&Intent| {
        !intent.denied()
            && nameable(intent.crawler)
            && intent.crawler.kind != CrawlerKind::ControlToken
            && !intent.crawler.ignores_robots_txt()
    };
    if crawl_delay {
        for intent in intents.iter().filter(let_in) {
            if intent.crawler.reads_crawl_delay.is_some() {
                add(&mut groups, GroupKind::CrawlDelay, intent.crawler);
            }
        }
    }
    if star_says_something {
        for intent in intents.iter().filter(let_in) {
            if !intent.crawler.obeys_star
                && !denied.contains(&intent.crawler.token.to_ascii_lowercase())
            {
                add(&mut groups, kept(intent), intent.crawler);
            }
        }
    }
    // A crawler let in whose first named token is a denied one would be
    // shut out with it (Applebot follows a Googlebot group): it gets a
    // group of its own. Naming it can lead no one else to a denied group.
    // A control token too: YandexAdditional follows a Yandex group, so
    // denying search would deny the AI use it governs.
    let let_in_or_governs = |intent: &&Intent| {
        !intent.denied() && nameable(intent.crawler) && !intent.crawler.ignores_robots_txt()
    };
    for intent in intents.iter().filter(let_in_or_governs) {
        let all_named: HashSet<String> = groups.iter().flat_map(|g| g.tokens()).collect();
        let first = intent
            .crawler
            .tokens()
            .map(str::to_ascii_lowercase)
            .find(|t| all_named.contains(t));
        if first.is_some_and(|t| denied.contains(&t)) {
            add(&mut groups, kept(intent), intent.crawler);
        }
    }
    for group in &mut groups {
        order_for_prefix_parsers(&mut group.members);
    }
    groups
}

/// Puts last in a group, longest first, the tokens that a parser with its
/// own table of robots (Yandex's) reads as naming robots of other names:
/// `Yandex` names YandexBot, YandexImages and most of the family. Yandex's
/// parser lengthens the value of every robot a run of `User-agent` lines
/// has named by each later line of the run, so a `Yandex` line followed
/// by `DuckDuckGo-Favicons-Bot` weighs 23 characters for YandexPagechecker
/// and outweighs its own `YandexPagechecker` group elsewhere. Last and
/// longest first, such a line weighs its own length. Every other token
/// names only robots of its own name, which no other token of the registry
/// names more specifically, so lengthening it changes nothing.
fn order_for_prefix_parsers(members: &mut [Member]) {
    members.sort_by_key(|m| {
        if names_others(m.token) {
            (true, std::cmp::Reverse(m.token.len()))
        } else {
            (false, std::cmp::Reverse(0))
        }
    });
}

/// Whether `token` names, in a profile's table of robots, a robot whose
/// own name (its full name without the version) is another.
fn names_others(token: &str) -> bool {
    let token = token.to_ascii_lowercase();
    Profile::ALL
        .iter()
        .flat_map(|profile| registry::robots(profile.name))
        .any(|robot| {
            let prefix = robot.prefix.to_ascii_lowercase();
            let full = robot.full_name.to_ascii_lowercase();
            let own = full.split('/').next().unwrap_or(&full);
            token.starts_with(&prefix) && full.starts_with(&token) && own != token
        })
}
