//! What a policy means for each crawler of the registry: its purpose, the
//! access stated for it (by name, by purpose, or through a token it shares
//! with a crawler the policy denies), and the conflicts no robots.txt can
//! express.

use std::collections::HashMap;

use crawlgate::registry::{self, Crawler};

use crate::access::Access;
use crate::error::PolicyError;
use crate::policy::Policy;
use crate::purpose::Purpose;

/// Why a crawler has the access it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stated {
    /// The policy names the crawler.
    ByName,
    /// The policy states its purpose.
    ByPurpose,
    /// It answers to the same product token as a crawler the policy denies
    /// (one group names both): denied with it.
    SharedToken(&'static Crawler),
    /// The policy says nothing of it: the site's own rules apply.
    Unstated,
}

/// What the policy means for one crawler.
#[derive(Clone, Copy, Debug)]
pub struct Intent {
    /// The crawler.
    pub crawler: &'static Crawler,
    /// Its purpose.
    pub purpose: Purpose,
    /// The access the policy means: `None` when it says nothing.
    pub access: Option<Access>,
    /// Why.
    pub stated: Stated,
}

impl Intent {
    /// Whether the policy shuts the crawler out.
    pub fn denied(&self) -> bool {
        self.access == Some(Access::Deny)
    }

    /// Why, in a few words (`ai-train deny`, `named: allow`, `shares AI
    /// with AI2Bot`).
    pub fn why(&self) -> String {
        match (self.stated, self.access) {
            (Stated::ByName, Some(access)) => format!("named: {access}"),
            (Stated::ByPurpose, Some(access)) => format!("{} {access}", self.purpose),
            (Stated::SharedToken(with), _) => {
                format!("denied with {}: both are `{}`", with.name, with.token)
            }
            _ => "not stated".to_owned(),
        }
    }
}

/// What the policy means for every crawler of the registry, in the
/// registry's order; or the first pair of crawlers that share a token and
/// that the policy wants apart.
pub fn intents(policy: &Policy) -> Result<Vec<Intent>, PolicyError> {
    let named: HashMap<&'static str, Access> = policy
        .resolved_crawlers()?
        .into_iter()
        .map(|(crawler, access)| (crawler.name, access))
        .collect();
    let mut intents: Vec<Intent> = registry::crawlers()
        .iter()
        .map(|crawler| {
            let purpose = Purpose::of(crawler);
            let (access, stated) = match named.get(crawler.name) {
                Some(&access) => (Some(access), Stated::ByName),
                None => match policy.access(purpose) {
                    Some(access) => (Some(access), Stated::ByPurpose),
                    None => (None, Stated::Unstated),
                },
            };
            Intent {
                crawler,
                purpose,
                access,
                stated,
            }
        })
        .collect();
    // Crawlers that answer to one token share every group naming it.
    let mut by_token: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, intent) in intents.iter().enumerate() {
        by_token
            .entry(intent.crawler.token.to_ascii_lowercase())
            .or_default()
            .push(i);
    }
    let mut tokens: Vec<&Vec<usize>> = by_token.values().filter(|v| v.len() > 1).collect();
    tokens.sort();
    for members in tokens {
        let denied = members.iter().copied().find(|&i| intents[i].denied());
        let allowed = members
            .iter()
            .copied()
            .find(|&i| intents[i].access == Some(Access::Allow));
        match (denied, allowed) {
            (Some(d), Some(a)) => {
                return Err(PolicyError::TokenConflict {
                    token: intents[d].crawler.token,
                    allowed: (intents[a].crawler.name, intents[a].why()),
                    denied: (intents[d].crawler.name, intents[d].why()),
                })
            }
            (Some(d), None) => {
                let with = intents[d].crawler;
                for &i in members {
                    if intents[i].access.is_none() {
                        intents[i].access = Some(Access::Deny);
                        intents[i].stated = Stated::SharedToken(with);
                    }
                }
            }
            _ => {}
        }
    }
    Ok(intents)
}
