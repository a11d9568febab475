//! The proof a file says what a policy means, before it is written: the
//! linter finds nothing new to warn of; Search Console's report flags
//! nothing new; and for every crawler of the registry, the verdict
//! `crawlgate check` gives (the crawler reading) is the one the policy
//! means: shut out where it denies, the site's rules where it lets in
//! (the rules for everyone on a new file; the same verdicts as before on
//! a merged one), the private paths closed, the preferences stated.

use std::collections::HashMap;

use crawlgate::registry::{Crawler, CrawlerKind};
use crawlgate::{ChoiceKind, LineKind, Preference, RobotsTxt, SearchConsoleReport, Severity};
use crawlgate_lint::{lint, LintOptions};

use crate::access::Access;
use crate::deciding::{crawler_view, ignores_file, profile_of, read_by, token_view, Readings};
use crate::intent::Intent;
use crate::policy::Policy;
use crate::purpose::Purpose;

crawlgate::word_table! {
    /// What the file must do for one crawler.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Expected {
        /// Fetch the site (outside the private paths).
        Allowed = "allowed",
        /// Fetch nothing.
        Disallowed = "disallowed",
        /// The verdicts the site's own file gave (a merge).
        Unchanged = "unchanged",
        /// Nothing robots.txt can do: its operator says it ignores robots.txt
        /// (server rules shut it out).
        IgnoresRobotsTxt = "ignores robots.txt",
        /// Not checked: it no longer runs, and is never named.
        Retired = "retired",
        /// Nothing robots.txt can do under Google's reading: its name is no
        /// product token (`AI2Bot`), a `User-agent` line naming it is read as
        /// a shorter token (`AI`), and Google's library compares the crawler's
        /// whole name, so it obeys `*` (server rules shut it out).
        Unnameable = "no line names it",
    }
}

/// One crawler of the registry under the written file: crawler ×
/// purpose × verdict.
#[derive(Clone, Debug)]
pub struct Row {
    /// The crawler.
    pub crawler: &'static Crawler,
    /// Its purpose.
    pub purpose: Purpose,
    /// What the policy says of it (`ai-train deny`, `not stated`).
    pub policy: String,
    /// What the file must do for it.
    pub expected: Expected,
    /// Whether `crawlgate check` lets it fetch `/`.
    pub root_allowed: bool,
    /// How its group was chosen (own token, fallback, `*`…).
    pub choice: ChoiceKind,
    /// The first line of the first group it obeys.
    pub group_line: Option<u32>,
    /// The profile its verdicts are read by, as `crawlgate check --agent
    /// NAME` reads them (`google`, `bing`, `yandex`).
    pub profile: &'static str,
    /// The preference of its own category at `/`, under vocabulary draft
    /// 08 (`train-ai=n`; Search overrides the others for a search
    /// engine); `None` when the file states none for it.
    pub preference: Option<String>,
    /// Whether the file does what it must for this crawler.
    pub holds: bool,
}

/// The proof: every check, and what failed.
#[derive(Clone, Debug, Default)]
pub struct Proof {
    /// Crawler × purpose × verdict, for every crawler of the registry.
    pub rows: Vec<Row>,
    /// The linter's warnings and errors on the file (new ones, on a
    /// merge), as `line: code message`.
    pub lint: Vec<String>,
    /// The linter's informations on it (shown, not failures).
    pub lint_infos: Vec<String>,
    /// Lines Search Console's report flags (new ones, on a merge).
    pub search_console: Vec<String>,
    /// Everything that does not hold, one sentence each.
    pub failures: Vec<String>,
    /// Things worth knowing that hold (crawlers that ignore robots.txt, a
    /// licence line Google does not read).
    pub notes: Vec<String>,
    /// How many verdicts were compared.
    pub verdicts: usize,
}

impl Proof {
    /// Whether everything holds.
    pub fn holds(&self) -> bool {
        self.failures.is_empty()
    }
}

/// A path that a robots.txt pattern matches (`/*.pdf$` → `/x.pdf`).
pub(crate) fn sample_path(pattern: &str) -> String {
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    let mut path = pattern.replace('*', "x");
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    path
}

/// The URLs a merge compares: `/`, a path of each rule of both files, the
/// private paths; at most [`MAX_URLS`], in a stable order.
pub(crate) fn sample_urls(files: &[&RobotsTxt], policy: &Policy) -> Vec<String> {
    let mut urls = vec!["/".to_owned()];
    let mut seen: std::collections::HashSet<String> = urls.iter().cloned().collect();
    for path in policy.private.iter().chain(policy.honeypot.iter()) {
        let sample = sample_path(path);
        if seen.insert(sample.clone()) {
            urls.push(sample);
        }
    }
    'files: for robots in files {
        for rule in robots.rules() {
            if urls.len() >= MAX_URLS {
                break 'files;
            }
            if rule.is_empty() {
                continue;
            }
            let sample = sample_path(rule.pattern());
            if seen.insert(sample.clone()) {
                urls.push(sample);
            }
        }
    }
    urls
}

/// The most URLs a merge compares per crawler: the proof stays linear in
/// the registry whatever the file's size.
pub(crate) const MAX_URLS: usize = 400;

/// A product token of no registry crawler: what any other crawler reads.
pub(crate) const OTHER_CRAWLER: &str = "crawlgate-policy-probe";

/// The expected preference word for a purpose's category (`y`/`n`).
fn stated(policy: &Policy, purpose: Purpose) -> Option<Preference> {
    policy.access(purpose).map(|a| match a {
        Access::Allow => Preference::Allowed,
        Access::Deny => Preference::Disallowed,
    })
}

fn word(preference: Option<Preference>) -> &'static str {
    match preference {
        Some(Preference::Allowed) => "y",
        Some(Preference::Disallowed) => "n",
        None => "unknown",
    }
}

/// Lints `bytes` and returns the warnings and errors, and the infos, as
/// `line N: CODE message`.
fn lint_lines(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
    let report = lint(bytes, &LintOptions::default());
    let mut bad = Vec::new();
    let mut infos = Vec::new();
    for d in &report.diagnostics {
        let line = format!("line {}: {} {}", d.span.line, d.code.as_str(), d.message);
        if d.severity >= Severity::Warning {
            bad.push(line);
        } else {
            infos.push(line);
        }
    }
    (bad, infos)
}

/// The lines Search Console's report flags, with what is wrong; a
/// `License` line is only a note (Google does not read RSL).
fn search_console_lines(bytes: &[u8], notes: &mut Vec<String>) -> Vec<String> {
    let report = SearchConsoleReport::of(bytes);
    let mut flagged = Vec::new();
    for line in report.lines() {
        let text = String::from_utf8_lossy(&bytes[line.bytes.clone()]);
        let bad = matches!(line.kind, LineKind::Unknown | LineKind::Invalid)
            || line.typo
            || line.missing_colon
            || line.too_long;
        if !bad {
            continue;
        }
        let key = text.split(':').next().unwrap_or("").trim();
        if line.kind == LineKind::Unknown && key.eq_ignore_ascii_case("license") {
            notes.push(format!(
                "Search Console's report lists line {} (`License:`) as an unknown key: Google \
                 does not read RSL licences; crawlers that do, do",
                line.number
            ));
            continue;
        }
        flagged.push(format!("{}: {}", line.kind.as_str(), text.trim()));
    }
    flagged
}

/// Removes from `after` one of each finding `before` also has: what a
/// merge adds. Findings compare by `key`: a lint code (the messages name
/// lines, which a merge shifts, and may word the same finding anew when a
/// group gains a line), a flagged line's text.
fn added(before: Vec<String>, after: Vec<String>, key: fn(&str) -> String) -> Vec<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for line in &before {
        *counts.entry(key(line)).or_default() += 1;
    }
    after
        .into_iter()
        .filter(|line| match counts.get_mut(&key(line)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// The code of a `line N: CODE message` finding.
fn code_of(finding: &str) -> String {
    finding
        .split_once(": ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .unwrap_or(finding)
        .to_owned()
}

/// Proves `bytes` says what `policy` means; `before` is the site's own
/// file on a merge.
pub(crate) fn prove(
    bytes: &[u8],
    policy: &Policy,
    intents: &[Intent],
    before: Option<&[u8]>,
) -> Proof {
    let mut proof = Proof::default();
    let crawlers = || intents.iter().map(|i| i.crawler);
    let robots = Readings::parse(bytes, crawlers());
    let (mut bad, mut infos) = lint_lines(bytes);
    let mut flagged = search_console_lines(bytes, &mut proof.notes);
    let original = before.map(|before| Readings::parse(before, crawlers()));
    if let Some(before) = before {
        let (old_bad, old_infos) = lint_lines(before);
        // A crawler that followed a group the policy now denies gets a
        // copy of that group's rules: when the site's file already let
        // crawlers miss the `*` rules (R105), the copy does too. Its
        // verdicts, compared below, are the ones the site gave it: the
        // finding is the site's, said again.
        let site_has_r105 = old_bad.iter().any(|f| code_of(f) == "R105");
        bad = added(old_bad, bad, code_of);
        if site_has_r105 {
            bad.retain(|finding| {
                let inherited = code_of(finding) == "R105";
                if inherited {
                    proof.notes.push(format!(
                        "{finding} (the site's file has this finding too: the crawlers it \
                         names keep the verdicts the site's file gave them)"
                    ));
                }
                !inherited
            });
        }
        infos = added(old_infos, infos, code_of);
        flagged = added(
            search_console_lines(before, &mut Vec::new()),
            flagged,
            str::to_owned,
        );
    }
    for line in &bad {
        proof.failures.push(format!("the linter warns: {line}"));
    }
    for line in &flagged {
        proof
            .failures
            .push(format!("Search Console's report flags {line}"));
    }
    proof.lint = bad;
    proof.lint_infos = infos;
    proof.search_console = flagged;
    let mut files = vec![robots.google()];
    if let Some(original) = &original {
        files.push(original.google());
    }
    let urls = sample_urls(&files, policy);
    let private: Vec<String> = policy
        .private
        .iter()
        .chain(policy.honeypot.iter())
        .map(|p| sample_path(p))
        .collect();
    let stated_purposes: Vec<Purpose> = [Purpose::AiTrain, Purpose::AiUse, Purpose::Search]
        .into_iter()
        .filter(|&p| policy.access(p).is_some())
        .collect();
    for intent in intents {
        let crawler = intent.crawler;
        let view = crawler_view(&robots, crawler);
        let choice = view.group_choice().kind();
        let root_allowed = view.is_allowed("/");
        proof.verdicts += 1;
        let ignores = ignores_file(&view);
        let mut failures: Vec<String> = Vec::new();
        let expected = if !crawler.runs() {
            Expected::Retired
        } else if ignores {
            Expected::IgnoresRobotsTxt
        } else if !crawler.name_is_token() {
            Expected::Unnameable
        } else if intent.denied() {
            if root_allowed {
                failures.push(format!(
                    "{} ({}) may fetch / but the policy denies it{}",
                    crawler.name,
                    intent.why(),
                    read_by(crawler)
                ));
            }
            Expected::Disallowed
        } else {
            match &original {
                None => {
                    if !root_allowed {
                        failures.push(format!(
                            "{} ({}) may not fetch /{}",
                            crawler.name,
                            intent.why(),
                            read_by(crawler)
                        ));
                    }
                    Expected::Allowed
                }
                Some(original) => {
                    let old = crawler_view(original, crawler);
                    for url in &urls {
                        if private.contains(url) {
                            continue;
                        }
                        proof.verdicts += 1;
                        let (was, is) = (old.is_allowed(url), view.is_allowed(url));
                        if was != is {
                            failures.push(format!(
                                "{}'s verdict on {url} ({}) changes from {} to {}{}",
                                crawler.name,
                                intent.why(),
                                if was { "allowed" } else { "disallowed" },
                                if is { "allowed" } else { "disallowed" },
                                read_by(crawler)
                            ));
                            break;
                        }
                    }
                    Expected::Unchanged
                }
            }
        };
        if matches!(expected, Expected::Allowed | Expected::Unchanged) {
            for path in &private {
                proof.verdicts += 1;
                if view.is_allowed(path) {
                    failures.push(format!(
                        "{} ({}) may fetch the private path {path}{}",
                        crawler.name,
                        intent.why(),
                        read_by(crawler)
                    ));
                }
            }
            if root_allowed
                && crawler.kind != CrawlerKind::ControlToken
                && let Some(found) = view.preferences("/")
            {
                for &purpose in &stated_purposes {
                    let category = purpose.usage_category().expect("stated purposes have one");
                    let want = stated(policy, purpose);
                    if found.stated(category) != want && original.is_none() {
                        failures.push(format!(
                            "{} reads {}={} at /, not {}{}",
                            crawler.name,
                            category.label(),
                            word(found.stated(category)),
                            word(want),
                            read_by(crawler)
                        ));
                    }
                }
            }
        }
        let preference = view.preferences("/").and_then(|found| {
            let category = intent.purpose.usage_category()?;
            let in_search = intent.purpose == Purpose::Search;
            let effective = found.effective(category, in_search)?;
            Some(format!("{}={}", category.label(), word(Some(effective))))
        });
        let holds = failures.is_empty();
        proof.failures.extend(failures);
        proof.rows.push(Row {
            crawler,
            purpose: intent.purpose,
            policy: intent.why(),
            expected,
            root_allowed,
            choice,
            group_line: view.groups().next().map(|g| g.first_line()),
            profile: profile_of(crawler).name,
            preference,
            holds,
        });
    }
    // Any other crawler reads the `*` group: the site's rules, and the
    // preferences for everyone.
    let other = token_view(&robots, OTHER_CRAWLER);
    match &original {
        None => {
            if !other.is_allowed("/") {
                proof
                    .failures
                    .push("a crawler no group names may not fetch /".to_owned());
            }
            if let Some(found) = other.preferences("/") {
                for &purpose in &stated_purposes {
                    let category = purpose.usage_category().expect("stated");
                    if found.stated(category) != stated(policy, purpose) {
                        proof.failures.push(format!(
                            "a crawler no group names reads {}={} at /",
                            category.label(),
                            word(found.stated(category))
                        ));
                    }
                }
            }
        }
        Some(original) => {
            let old = token_view(original, OTHER_CRAWLER);
            for url in urls.iter().filter(|u| !private.contains(u)) {
                proof.verdicts += 1;
                if old.is_allowed(url) != other.is_allowed(url) {
                    proof.failures.push(format!(
                        "a crawler no group names has a new verdict on {url}"
                    ));
                    break;
                }
            }
        }
    }
    for row in &proof.rows {
        if row.expected == Expected::IgnoresRobotsTxt && row.policy.contains("deny") {
            proof.notes.push(format!(
                "{} ignores robots.txt ({}'s word): only a server rule shuts it out",
                row.crawler.name, row.crawler.operator
            ));
        }
        if row.expected == Expected::Unnameable && row.policy.contains("deny") {
            let name = row.crawler.name;
            let read_as = name
                .split(|c: char| !(c.is_ascii_alphabetic() || c == '-' || c == '_'))
                .next()
                .unwrap_or("");
            proof.notes.push(format!(
                "{name} is no product token: Google's parser reads a line naming it as \
                 `{read_as}` and compares the crawler's whole name, so it obeys *; only a server \
                 rule shuts it out"
            ));
        }
    }
    proof
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent::intents;

    /// Google reads one group of bingbot, Googlebot and `*` (everything
    /// disallowed); Bing ends bingbot's group at the `User-agent` line
    /// after `Crawl-delay` (everything allowed).
    const BING_DIFFERS: &[u8] =
        b"User-agent: bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";

    #[test]
    fn a_file_that_only_googles_reading_proves_fails_naming_the_crawler_and_rule() {
        let policy = Policy::new().with(Purpose::Search, Access::Deny);
        let intents = intents(&policy).unwrap();
        let proof = prove(BING_DIFFERS, &policy, &intents, None);
        let bing: Vec<&String> = proof
            .failures
            .iter()
            .filter(|f| f.starts_with("Bingbot "))
            .collect();
        assert_eq!(
            bing,
            [
                "Bingbot (search deny) may fetch / but the policy denies it (read by bing's \
                 rules, as `crawlgate check` reads it)"
            ],
            "{:?}",
            proof.failures
        );
        assert!(!proof.failures.iter().any(|f| f.starts_with("Googlebot ")));
        let row = proof
            .rows
            .iter()
            .find(|r| r.crawler.name == "Bingbot")
            .unwrap();
        assert_eq!(
            (row.profile, row.root_allowed, row.holds),
            ("bing", true, false)
        );
    }
}
