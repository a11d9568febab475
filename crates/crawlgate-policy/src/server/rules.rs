//! What the server rules shut out, and the regular expressions every
//! server's rules are written with.

use crawlgate::registry::{Crawler, CrawlerKind, Obeys};

use crate::intent::Intent;
use crate::policy::Policy;
use crawlgate_answers::net::Prefix;

/// What the server rules shut out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerRules {
    /// Crawlers the policy denies: 403 everywhere but `/robots.txt`.
    pub denied: Vec<&'static Crawler>,
    /// Crawlers let in that ignore robots.txt (or are reported to at
    /// times): 403 on the private paths and the honeypot.
    pub private_for: Vec<&'static Crawler>,
    /// The private paths and the honeypot, as robots.txt patterns.
    pub private_paths: Vec<String>,
    /// Crawlers denied that no rule can find, and why.
    pub unmatched: Vec<(&'static Crawler, &'static str)>,
    /// The policy, for the header comment.
    pub policy: String,
    /// Address ranges answered 403 (everywhere but `/robots.txt`) whatever
    /// the `User-Agent`: the published ranges of the denied crawlers that
    /// no crawler let in shares ([`Written::with_ip_ranges`]).
    ///
    /// [`Written::with_ip_ranges`]: crate::Written::with_ip_ranges
    pub denied_ranges: Vec<Prefix>,
    /// The denied crawlers some of whose ranges are in `denied_ranges`.
    pub denied_by_address: Vec<&'static Crawler>,
    /// Ranges of denied crawlers left open because crawlers let in share
    /// them, one sentence per crawler.
    pub shared_ranges: Vec<String>,
}

/// The names the registry knows a crawler by that may stand in a
/// `User-Agent` header: its name and other spellings, without those that
/// differ only in case or add a version.
pub fn header_names(crawler: &Crawler) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = vec![crawler.name];
    for alias in crawler.aliases {
        let lower = alias.to_ascii_lowercase();
        let redundant = names.iter().any(|n| {
            let n = n.to_ascii_lowercase();
            lower == n || lower.starts_with(&format!("{n}/")) || lower.starts_with(&format!("{n} "))
        });
        if !redundant {
            names.push(alias);
        }
    }
    names.retain(|n| {
        n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'.' | b'-' | b'_'))
    });
    names
}

/// Words that mark a crawler's name (`Bytespider`, `GPTBot`).
const CRAWLER_WORDS: &[&str] = &[
    "bot", "spider", "crawl", "fetch", "agent", "scrap", "index", "slurp", "archiver",
];

/// Whether a name is distinctive enough to find in a `User-Agent` header
/// without finding other clients: five characters or more, and more than
/// one plain word: a capital inside it (`CCBot`), a digit, `-`, `_`, `.`
/// or a space, or a crawler's word with more around it (`Bytespider`, not
/// `Spider`).
///
/// ```
/// use crawlgate_policy::distinctive;
/// assert!(distinctive("GPTBot") && distinctive("Bytespider") && distinctive("meta-externalagent"));
/// assert!(!distinctive("Spider") && !distinctive("Code") && !distinctive("LCC"));
/// ```
pub fn distinctive(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let inner_capital = name.chars().skip(1).any(|c| c.is_ascii_uppercase());
    let marked = name
        .bytes()
        .any(|b| b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.' | b' '));
    let crawler_word = CRAWLER_WORDS
        .iter()
        .any(|w| lower.contains(w) && lower.len() > w.len());
    name.len() >= 5 && (inner_capital || marked || crawler_word)
}

impl ServerRules {
    /// The rules `policy` needs, from what it means for each crawler.
    pub(crate) fn of(policy: &Policy, intents: &[Intent]) -> ServerRules {
        let mut rules = ServerRules {
            policy: policy.describe(),
            private_paths: policy
                .private
                .iter()
                .chain(policy.honeypot.iter())
                .cloned()
                .collect(),
            ..ServerRules::default()
        };
        for intent in intents {
            let crawler = intent.crawler;
            // Control tokens fetch nothing; retired crawlers run no more.
            if crawler.kind == CrawlerKind::ControlToken || !crawler.runs() {
                continue;
            }
            let matchable = header_names(crawler).into_iter().any(distinctive);
            if intent.denied() {
                if matchable {
                    rules.denied.push(crawler);
                } else {
                    rules.unmatched.push((
                        crawler,
                        "its name is too plain to find in a User-Agent header without finding \
                         other clients",
                    ));
                }
            } else if matches!(crawler.obeys, Obeys::No | Obeys::Partial)
                && !rules.private_paths.is_empty()
                && matchable
            {
                rules.private_for.push(crawler);
            }
        }
        rules
    }

    /// Whether there is anything to write.
    pub fn is_empty(&self) -> bool {
        self.denied.is_empty()
            && self.denied_ranges.is_empty()
            && (self.private_for.is_empty() || self.private_paths.is_empty())
    }

    /// The regular expression (case-insensitive) of the `User-Agent`
    /// headers of `crawlers`, in the syntax all four servers read: no
    /// backslashes, no quotes.
    ///
    /// ```
    /// use crawlgate::registry;
    /// use crawlgate_policy::ServerRules;
    /// let gptbot = registry::find("GPTBot").unwrap();
    /// let ccbot = registry::find("CCBot").unwrap();
    /// assert_eq!(
    ///     ServerRules::agent_regex(&[gptbot, ccbot]),
    ///     "(^|[ (;,])(GPTBot|CCBot)([/;) ,]|$)"
    /// );
    /// ```
    pub fn agent_regex(crawlers: &[&'static Crawler]) -> String {
        let mut names: Vec<String> = Vec::new();
        for crawler in crawlers {
            for name in header_names(crawler) {
                if !distinctive(name) {
                    continue;
                }
                let escaped: String = name
                    .chars()
                    .map(|c| match c {
                        '.' => "[.]".to_owned(),
                        ' ' => "[ ]".to_owned(),
                        c => c.to_string(),
                    })
                    .collect();
                if !names.iter().any(|n| n.eq_ignore_ascii_case(&escaped)) {
                    names.push(escaped);
                }
            }
        }
        format!("(^|[ (;,])({})([/;) ,]|$)", names.join("|"))
    }

    /// The regular expression of the private paths (and the honeypot):
    /// each robots.txt pattern from the start of the path, `*` any run of
    /// characters, a final `$` the end.
    ///
    /// ```
    /// use crawlgate_policy::ServerRules;
    /// assert_eq!(ServerRules::path_regex(&["/admin/".into(), "/*.pdf$".into()]), "^(/admin/|/.*[.]pdf$)");
    /// ```
    pub fn path_regex(paths: &[String]) -> String {
        let alternatives: Vec<String> = paths
            .iter()
            .map(|p| {
                let (body, anchored) = match p.strip_suffix('$') {
                    Some(body) => (body, true),
                    None => (p.as_str(), false),
                };
                let mut out: String = body
                    .chars()
                    .map(|c| match c {
                        '*' => ".*".to_owned(),
                        c if c.is_ascii_alphanumeric()
                            || matches!(c, '/' | '-' | '_' | '~' | '%') =>
                        {
                            c.to_string()
                        }
                        c => format!("[{c}]"),
                    })
                    .collect();
                if anchored {
                    out.push('$');
                }
                out
            })
            .collect();
        format!("^({})", alternatives.join("|"))
    }

    /// The comment lines every server's rules start with (`#` comments in
    /// all four).
    pub(crate) fn header(&self, server: &str, how: &str) -> Vec<String> {
        let mut lines = crate::text::comment_block(&format!(
            "Server rules for {server} written by crawlgate policy (crawler registry {}). \
             Policy: {}. {how}",
            crawlgate::registry::version(),
            self.policy
        ));
        if !self.denied.is_empty() {
            let names: Vec<&str> = self.denied.iter().map(|c| c.name).collect();
            lines.extend(crate::text::comment_block(&format!(
                "403 to the crawlers the policy denies, except on /robots.txt: {}.",
                names.join(", ")
            )));
        }
        if !self.private_for.is_empty() && !self.private_paths.is_empty() {
            let names: Vec<&str> = self.private_for.iter().map(|c| c.name).collect();
            lines.extend(crate::text::comment_block(&format!(
                "403 on the private paths to crawlers that ignore robots.txt: {}.",
                names.join(", ")
            )));
        }
        if !self.denied_ranges.is_empty() {
            let names: Vec<&str> = self.denied_by_address.iter().map(|c| c.name).collect();
            lines.extend(crate::text::comment_block(&format!(
                "403 by address, whatever the User-Agent, except on /robots.txt: the {} ranges \
                 their operators publish for {} (denied), that no crawler the policy lets in \
                 shares.",
                self.denied_ranges.len(),
                names.join(", ")
            )));
        }
        for shared in &self.shared_ranges {
            lines.extend(crate::text::comment_block(&format!(
                "Not by address: {shared}; a range is denied only when every crawler it \
                 serves is denied."
            )));
        }
        for (crawler, why) in &self.unmatched {
            lines.extend(crate::text::comment_block(&format!(
                "No rule for {}: {why}.",
                crawler.name
            )));
        }
        lines
    }
}
