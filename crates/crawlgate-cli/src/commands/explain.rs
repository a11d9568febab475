//! `crawlgate explain`: how one crawler reads a robots.txt: which
//! user-agent lines select its groups (and which groups merge, and why `*`
//! is or is not used), its rules in precedence order, its extension
//! records, the sitemaps, and for each URL every matching rule and the
//! winner.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use anyhow::bail;
use crawlgate::{AgentView, Extension, Group};
use crawlgate::{
    ExtensionKind, GroupSelection, Precedence, Profile, RobotsTxt, Rule, RuleMatch, SelectionKind,
    UserAgent,
};
use crawlgate_fetch::{FetchReport, Origin};
use serde::Serialize;
use serde_json::{json, Value};

use super::{parse_profile, stdout_color};
use crate::output::{line_ref, pad, warn, width, Palette};
use crate::source::{
    fetch_all, fetch_summary, resolve_targets, warn_fetch, Basis, Content, Decided, FetchOptions,
    Loaded, Reading, RobotsArg, RuleRef,
};
use crate::target::{check_agent, check_urls};

const EXAMPLES: &str = "\
Examples:
  crawlgate explain robots.txt --agent Googlebot
  crawlgate explain robots.txt -a Googlebot-News /news/2024/ /private/x
  crawlgate explain - -a mybot --profile legacy < robots.txt
  crawlgate explain https://example.com/ -a mybot /search --json

Shows, for one crawler:
  * which user-agent lines select its groups, which groups are merged, and
    why the `*` group is or is not used (a crawler named by any group never
    falls back to `*`; non-rule lines such as Crawl-delay between user-agent
    lines do not end a group, so those crawlers share one set of rules);
  * its rules in the order they are tried, with their lengths (longest
    wins; allow wins a tie) and line numbers;
  * the extension records of its groups (Crawl-delay, Request-rate,
    Visit-time, Content-Usage, Content-Signal…) and the sitemaps;
  * for each URL given, every matching rule and the one that decides.

Exit status: 0 explained, 2 usage or input error.";

/// Arguments of `crawlgate explain`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The robots.txt: a file, `-` for standard input, or an http(s) URL of
    /// the site (its /robots.txt is fetched).
    #[arg(value_name = "ROBOTS")]
    pub robots: String,

    /// URLs to explain: absolute, or paths starting with `/`.
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,

    /// The crawler's product token, as robots.txt names it (`Googlebot`).
    #[arg(short, long, value_name = "TOKEN")]
    pub agent: String,

    /// How to read robots.txt: google (default), rfc9309 or legacy.
    #[arg(long, default_value = "google", value_parser = parse_profile)]
    pub profile: Profile,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,

    #[command(flatten, next_help_heading = "Fetching (when ROBOTS is a URL)")]
    pub fetch: FetchOptions,
}

/// Runs `crawlgate explain`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_agent(&args.agent)?;
    let robots = RobotsArg::parse(&args.robots)?;
    check_urls(&args.urls)?;
    let (loaded, urls) = load_one(&robots, &args.urls, &args.fetch, true)?;
    let reading = loaded.read(args.profile);
    if let Some(report) = &loaded.fetch {
        warn_fetch(report);
    }
    if let Some(robots) = reading.robots() {
        loaded.warnings(robots).iter().for_each(|w| warn(w));
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &to_json(&reading, &args.agent, &urls))?;
        writeln!(out)?;
    } else {
        let text = render(&reading, &args.agent, &urls, Palette::new(stdout_color()));
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Loads one robots.txt: a local one, or the one of the site of the URL
/// `robots`, fetched. Returns it with the URLs to ask about; with a URL
/// ROBOTS these must be on its site, and ROBOTS itself is one of them when
/// no URL is given and it names a page (`with_page`).
pub fn load_one(
    robots: &RobotsArg,
    urls: &[String],
    options: &FetchOptions,
    with_page: bool,
) -> anyhow::Result<(Loaded, Vec<String>)> {
    if let Some(local) = Loaded::read_local(robots)? {
        return Ok((local, urls.to_vec()));
    }
    let RobotsArg::Url(base) = robots else {
        unreachable!("not local, so a URL")
    };
    let origin = Origin::from_url(base.as_str())?;
    // With no URL, a page given as ROBOTS is itself explained.
    let names_a_page = !matches!(base.path(), "/" | "/robots.txt");
    let targets = if urls.is_empty() && !(with_page && names_a_page) {
        Vec::new()
    } else {
        resolve_targets(base, urls)?
    };
    for url in &targets {
        if Origin::from_url(url)? != origin {
            bail!("`{url}` is not on {origin}: its robots.txt is another file (use `crawlgate check` to check URLs of several sites)");
        }
    }
    let robots_url = String::from(origin.robots_url());
    let report = fetch_all(options, &[&robots_url])?.remove(0);
    Ok((Loaded::from_report(report), targets))
}

/// Whether the user-agent line `ua` names the crawler, as the profile
/// selects groups.
fn names_agent(
    ua: &UserAgent<'_>,
    agent: &str,
    selection: SelectionKind,
    robots: &RobotsTxt,
) -> bool {
    match selection {
        SelectionKind::Global => ua.is_global(),
        SelectionKind::Nothing => false,
        SelectionKind::Specific => match robots.profile().group_selection {
            GroupSelection::FirstSubstring => {
                let name = agent.split('/').next().unwrap_or("").to_lowercase();
                !ua.is_global() && name.contains(&ua.value().to_lowercase())
            }
            _ => !ua.is_global() && ua.token().eq_ignore_ascii_case(agent),
        },
    }
}

/// Records between the first and last user-agent line of a group: they do
/// not end it (SPEC §4), which merges crawlers the author meant to keep
/// apart.
fn records_between(group: &Group<'_>, robots: &RobotsTxt) -> Vec<(u32, String)> {
    let lines: Vec<u32> = group.user_agents().map(|u| u.line()).collect();
    let (first, last) = (lines[0], lines[lines.len() - 1]);
    let inside = |line: u32| line > first && line < last;
    let mut records: Vec<(u32, String)> = group
        .extensions()
        .filter(|e| inside(e.line()))
        .map(|e| (e.line(), e.key().to_owned()))
        .chain(
            robots
                .sitemaps()
                .filter(|s| inside(s.line()))
                .map(|s| (s.line(), "Sitemap".to_owned())),
        )
        .collect();
    records.sort();
    records
}

/// User-agent lines for names close to the crawler's (`googlebot` for
/// `googlebot-news`): they do not apply, matching is exact (SPEC §5).
fn related_agents<'a>(robots: &'a RobotsTxt, agent: &str) -> Vec<UserAgent<'a>> {
    let wanted = crawlgate::product_token(agent)
        .unwrap_or(agent)
        .to_ascii_lowercase();
    let agent = agent.to_ascii_lowercase();
    robots
        .user_agents()
        .filter(|ua| {
            let token = ua.token().to_ascii_lowercase();
            !ua.is_global()
                && !token.is_empty()
                && token != agent
                && (token == wanted || agent.starts_with(&token) || token.starts_with(&agent))
        })
        .take(5)
        .collect()
}

fn lines_of(group: &Group<'_>) -> String {
    let (first, last) = (group.first_line(), group.last_line());
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}–{last}")
    }
}

fn user_agent_text(ua: &UserAgent<'_>) -> String {
    format!("User-agent: {}", ua.value())
}

fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The group-selection section.
fn render_groups(view: &AgentView<'_>, agent: &str, name: &str, p: Palette, out: &mut String) {
    let robots = view.robots();
    let selection = view.selection();
    let groups: Vec<Group<'_>> = view.groups().collect();
    let legacy = robots.profile().group_selection == GroupSelection::FirstSubstring;
    let _ = writeln!(out, "{}", p.heading("Groups"));
    match (selection, groups.len()) {
        (SelectionKind::Nothing, _) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}` and there is no `*` group: nothing is disallowed."
            );
        }
        (SelectionKind::Specific, 1) if legacy => {
            let _ = writeln!(out, "  `{agent}` obeys the group at {} (legacy reading: the first group, in file order, whose user-agent occurs in the crawler's name; no other group is read):", lines_of(&groups[0]));
        }
        (SelectionKind::Specific, 1) => {
            let _ = writeln!(
                out,
                "  `{agent}` obeys the group at {}:",
                lines_of(&groups[0])
            );
        }
        (SelectionKind::Specific, n) => {
            let spans: Vec<String> = groups.iter().map(lines_of).collect();
            let _ = writeln!(
                out,
                "  {n} groups name `{agent}` ({}); they are merged into one set of rules (SPEC §4):",
                list(&spans)
            );
        }
        (SelectionKind::Global, 1) if legacy => {
            let _ = writeln!(out, "  No group's user-agent occurs in `{agent}`, so it obeys the first `*` group, at {}:", lines_of(&groups[0]));
        }
        (SelectionKind::Global, 1) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}`, so it obeys the `*` group at {}:",
                lines_of(&groups[0])
            );
        }
        (SelectionKind::Global, n) => {
            let _ = writeln!(
                out,
                "  No group names `{agent}`, so it obeys the {n} `*` groups, merged (SPEC §4):"
            );
        }
    }
    let ref_width = width(
        groups
            .iter()
            .flat_map(|g| g.user_agents())
            .map(|ua| line_ref(name, ua.line())),
    );
    let text_width = width(
        groups
            .iter()
            .flat_map(|g| g.user_agents())
            .map(|ua| user_agent_text(&ua)),
    );
    // Several groups: each under its own heading, one level deeper.
    let indent = if groups.len() > 1 { "      " } else { "    " };
    for group in &groups {
        if groups.len() > 1 {
            let _ = writeln!(out, "    group at {}", lines_of(group));
        }
        for ua in group.user_agents() {
            let names = names_agent(&ua, agent, selection, robots);
            let mut note = String::new();
            if names && ua.is_global() {
                note = "every crawler".to_owned();
            } else if names && !ua.is_plain_token() && !legacy {
                note = format!("names `{}` (only the product token counts)", ua.token());
            } else if names {
                note = format!("names `{agent}`");
            }
            let text = if note.is_empty() {
                user_agent_text(&ua)
            } else {
                pad(&user_agent_text(&ua), text_width)
            };
            let _ = writeln!(
                out,
                "{indent}{}  {}{}",
                p.dim(&pad(&line_ref(name, ua.line()), ref_width)),
                text,
                if note.is_empty() {
                    String::new()
                } else {
                    format!("  {}", p.allowed(&note))
                }
            );
        }
        let agents = group.user_agents().len();
        let between = records_between(group, robots);
        if !between.is_empty() {
            let records: Vec<String> = between
                .iter()
                .map(|(line, field)| format!("{field} at line {line}"))
                .collect();
            let _ = writeln!(
                out,
                "{indent}{} {}",
                p.notice("One group, not several:"),
                format_args!(
                    "the {} between these user-agent lines {} not {}, and only a rule followed by a user-agent line ends a group (SPEC §4). These {agents} user-agent lines share every rule of the group.",
                    list(&records),
                    if between.len() == 1 { "is" } else { "are" },
                    if between.len() == 1 { "a rule" } else { "rules" },
                )
            );
        } else if agents > 1 {
            let _ = writeln!(
                out,
                "{indent}These {agents} user-agent lines share one group."
            );
        }
        if selection == SelectionKind::Specific {
            if let Some(star) = group.user_agents().find(|u| u.is_global()) {
                let _ = writeln!(
                    out,
                    "{indent}{} the `*` line ({}) is in this same group, so the rules written for every crawler apply to `{agent}` too.",
                    p.notice("Note:"),
                    line_ref(name, star.line())
                );
            }
        }
    }
    // Why `*` is or is not used.
    if selection == SelectionKind::Specific {
        let unused: Vec<String> = robots
            .groups()
            .filter(|g| g.is_global() && !groups.iter().any(|s| s.index() == g.index()))
            .map(|g| lines_of(&g))
            .collect();
        if !unused.is_empty() {
            let _ = writeln!(
                out,
                "  The `*` group ({}) is not used: a group names `{agent}`, and `*` only applies to crawlers no group names (it is never merged into theirs).",
                unused.join(", ")
            );
        }
    }
    if legacy {
        if let Some(first) = groups.first() {
            let also: Vec<String> = robots
                .groups()
                .filter(|g| {
                    g.index() != first.index()
                        && g.user_agents()
                            .any(|ua| names_agent(&ua, agent, selection, robots))
                })
                .map(|g| lines_of(&g))
                .collect();
            if !also.is_empty() {
                let _ = writeln!(
                    out,
                    "  Ignored by this reading, although they name it too: the groups at {}.",
                    list(&also)
                );
            }
        }
    }
    if selection != SelectionKind::Specific {
        let related = related_agents(robots, agent);
        if !related.is_empty() {
            let _ = writeln!(
                out,
                "  These lines name other crawlers, not `{agent}` (names must match exactly, SPEC §5):"
            );
            for ua in related {
                let _ = writeln!(
                    out,
                    "    {}  {}",
                    p.dim(&line_ref(name, ua.line())),
                    user_agent_text(&ua)
                );
            }
        }
    }
}

fn rule_note(m: &RuleMatch<'_>) -> String {
    let rule = m.rule;
    if m.via_index_alias {
        format!(
            "as {} (Google's index.html alias: also allows the directory)",
            rule.index_alias().unwrap_or_default()
        )
    } else if rule.is_empty() {
        "empty: allows everything".to_owned()
    } else if rule.pattern() != rule.value() {
        format!("matched as {}", rule.pattern())
    } else {
        String::new()
    }
}

/// Rows `length  ref  rule  note`, aligned.
fn render_rule_rows(
    matches: &[RuleMatch<'_>],
    name: &str,
    indent: &str,
    min_len_width: usize,
    p: Palette,
    out: &mut String,
) {
    let refs: Vec<String> = matches
        .iter()
        .map(|m| line_ref(name, m.rule.line()))
        .collect();
    let texts: Vec<String> = matches.iter().map(|m| m.rule.to_string()).collect();
    let ref_width = width(refs.iter());
    let text_width = width(texts.iter());
    let len_width = width(matches.iter().map(|m| m.priority.to_string())).max(min_len_width);
    for ((m, reference), text) in matches.iter().zip(&refs).zip(&texts) {
        let note = rule_note(m);
        let text = if note.is_empty() {
            text.clone()
        } else {
            format!("{}  {}", pad(text, text_width), p.dim(&note))
        };
        let _ = writeln!(
            out,
            "{indent}{:>len_width$}  {}  {}",
            m.priority,
            p.dim(&pad(reference, ref_width)),
            p.verdict(m.rule.is_allow() || m.rule.is_empty(), &text)
        );
    }
}

fn render_rules(view: &AgentView<'_>, name: &str, p: Palette, out: &mut String) {
    let robots = view.robots();
    let rules = view.rules_by_precedence();
    let first_match = robots.profile().precedence == Precedence::FirstMatch;
    let _ = writeln!(
        out,
        "{}",
        p.heading(if first_match {
            "Rules in file order (legacy: the first that matches decides)"
        } else {
            "Rules in precedence order (longest first, allow before disallow on a tie; the first that matches decides)"
        })
    );
    if rules.is_empty() {
        let _ = writeln!(out, "  none: every URL is allowed");
    } else {
        let _ = writeln!(out, "  {}", p.dim("length  line"));
        render_rule_rows(&rules, name, "  ", 6, p, out);
    }
    let never: Vec<Rule<'_>> = view
        .groups()
        .flat_map(|g| g.rules())
        .filter(|r| !rules.iter().any(|m| m.rule.index() == r.index()))
        .collect();
    if !never.is_empty() {
        let _ = writeln!(out, "  Never match (a path must start with `/` or `*`):");
        for rule in never {
            let _ = writeln!(out, "    {}  {rule}", p.dim(&line_ref(name, rule.line())));
        }
    }
    let ignored: Vec<Rule<'_>> = robots.ignored_rules().collect();
    if !ignored.is_empty() {
        let _ = writeln!(
            out,
            "  Ignored by every crawler (before any user-agent line):"
        );
        for rule in ignored {
            let _ = writeln!(out, "    {}  {rule}", p.dim(&line_ref(name, rule.line())));
        }
    }
}

/// What an extension record means for this crawler.
fn extension_note(ext: &Extension<'_>, view: &AgentView<'_>) -> String {
    let first = |line: Option<u32>, what: &str| match line {
        Some(line) if line == ext.line() => None,
        Some(line) => Some(format!(
            "not used: the first valid {what} (line {line}) applies"
        )),
        None => None,
    };
    match ext.kind() {
        ExtensionKind::CrawlDelay => match ext.crawl_delay() {
            None => "not a number of seconds: ignored".to_owned(),
            Some(delay) => {
                first(view.crawl_delay().map(|d| d.line), "Crawl-delay").unwrap_or(format!(
                    "wait {} s between requests (Bing reads it; Google ignores it)",
                    delay.seconds
                ))
            }
        },
        ExtensionKind::RequestRate => match ext.request_rate() {
            None => "not `requests/period`: ignored".to_owned(),
            Some(rate) => first(view.request_rate().map(|r| r.line), "Request-rate")
                .unwrap_or_else(|| {
                    let window = rate
                        .window
                        .map(|w| format!(", between {} and {} UTC", w.from, w.to))
                        .unwrap_or_default();
                    format!(
                        "at most {} request(s) per {} s{window}",
                        rate.requests, rate.period_seconds
                    )
                }),
        },
        ExtensionKind::VisitTime => match ext.visit_time() {
            None => "not `HHMM-HHMM`: ignored".to_owned(),
            Some(window) => first(view.visit_time().map(|w| w.line), "Visit-time").unwrap_or(
                format!("visit only between {} and {} UTC", window.from, window.to),
            ),
        },
        ExtensionKind::ContentUsage => match ext.content_usage().map(|u| (u, u.entries())) {
            Some((usage, Ok(_))) => match usage.path {
                Some(path) => format!("usage preferences for {path}"),
                None => "usage preferences for every URL".to_owned(),
            },
            Some((_, Err(e))) => format!("invalid preferences: {e}"),
            None => String::new(),
        },
        ExtensionKind::ContentSignal => match ext.content_signal() {
            Some(signal) if signal.entries().is_err() => "invalid signal syntax".to_owned(),
            Some(_) => first(view.content_signal().map(|s| s.line), "Content-Signal")
                .unwrap_or_else(|| "content signals".to_owned()),
            None => String::new(),
        },
        ExtensionKind::Host => "preferred mirror (Yandex)".to_owned(),
        ExtensionKind::CleanParam => "parameters to ignore (Yandex)".to_owned(),
        _ => "unknown field".to_owned(),
    }
}

fn render_extensions(view: &AgentView<'_>, name: &str, p: Palette, out: &mut String) {
    let extensions: Vec<Extension<'_>> = view.groups().flat_map(|g| g.extensions()).collect();
    let _ = writeln!(out, "{}", p.heading("Extensions in these groups"));
    if extensions.is_empty() {
        let _ = writeln!(out, "  none");
    }
    let refs: Vec<String> = extensions
        .iter()
        .map(|e| line_ref(name, e.line()))
        .collect();
    let texts: Vec<String> = extensions
        .iter()
        .map(|e| format!("{}: {}", e.key(), e.value()))
        .collect();
    let ref_width = width(refs.iter());
    let text_width = width(texts.iter());
    for ((ext, reference), text) in extensions.iter().zip(&refs).zip(&texts) {
        let _ = writeln!(
            out,
            "  {}  {}  {}",
            p.dim(&pad(reference, ref_width)),
            pad(text, text_width),
            p.dim(&extension_note(ext, view))
        );
    }
    let _ = writeln!(out, "\n{}", p.heading("Sitemaps (for every crawler)"));
    if view.sitemaps().len() == 0 {
        let _ = writeln!(out, "  none");
    }
    let refs: Vec<String> = view.sitemaps().map(|s| line_ref(name, s.line())).collect();
    let ref_width = width(refs.iter());
    for (sitemap, reference) in view.sitemaps().zip(&refs) {
        let _ = writeln!(
            out,
            "  {}  {}",
            p.dim(&pad(reference, ref_width)),
            sitemap.url()
        );
    }
}

fn verdict_word(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

fn render_url(
    reading: &Reading<'_>,
    view: Option<&AgentView<'_>>,
    agent: &str,
    url: &str,
    p: Palette,
    out: &mut String,
) {
    let decided = reading.decide(agent, url);
    let name = &reading.loaded.name;
    let _ = writeln!(
        out,
        "{}  {}",
        p.heading(url),
        p.verdict(decided.allowed, verdict_word(decided.allowed))
    );
    match decided.basis {
        Basis::FullAllow | Basis::FullDisallow => {
            let _ = writeln!(
                out,
                "  the fetch outcome decides: {}",
                decided.fetch_outcome.as_deref().unwrap_or_default()
            );
            return;
        }
        Basis::RobotsTxtItself => {
            let _ = writeln!(out, "  /robots.txt itself is always allowed");
            return;
        }
        Basis::NoGroup => {
            let _ = writeln!(
                out,
                "  no group applies to this crawler, so nothing is disallowed"
            );
            return;
        }
        _ => {}
    }
    let Some(view) = view else { return };
    let matches = view.matching_rules(url);
    if matches.is_empty() {
        let _ = writeln!(out, "  no rule matches");
    } else {
        let _ = writeln!(
            out,
            "  {}",
            if matches.len() == 1 {
                "1 matching rule, which decides:".to_owned()
            } else {
                format!("{} matching rules, the first decides:", matches.len())
            }
        );
        render_rule_rows(&matches, name, "    ", 0, p, out);
    }
    if let Some(usage) = view.content_usage(url) {
        let _ = writeln!(
            out,
            "  content usage: {}  {}",
            usage.preferences,
            p.dim(&format!("({})", line_ref(name, usage.line)))
        );
    }
}

/// The human explanation.
fn render(reading: &Reading<'_>, agent: &str, urls: &[String], p: Palette) -> String {
    let mut out = String::new();
    let name = &reading.loaded.name;
    if let Some(fetch) = &reading.loaded.fetch {
        let _ = writeln!(out, "{}", p.dim(&fetch_summary(fetch)));
    }
    let Some(robots) = reading.robots() else {
        let (what, why) = match &reading.loaded.content {
            Content::FullAllow(why) => ("allowed", why),
            Content::FullDisallow(why) => ("disallowed", why),
            Content::Text(_) => unreachable!("text is parsed"),
        };
        let _ = writeln!(out, "No rules are read: {why}. Every URL is {what}.");
        for url in urls {
            out.push('\n');
            render_url(reading, None, agent, url, p, &mut out);
        }
        return out;
    };
    let _ = writeln!(
        out,
        "How `{agent}` reads {name} ({} profile)\n",
        robots.profile()
    );
    let view = robots.for_agent(agent);
    render_groups(&view, agent, name, p, &mut out);
    out.push('\n');
    render_rules(&view, name, p, &mut out);
    out.push('\n');
    render_extensions(&view, name, p, &mut out);
    for url in urls {
        out.push('\n');
        render_url(reading, Some(&view), agent, url, p, &mut out);
    }
    out
}

#[derive(Serialize)]
struct JsonRule<'a> {
    line: u32,
    kind: &'static str,
    value: &'a str,
    pattern: &'a str,
    length: u32,
    text: String,
    via_index_alias: bool,
}

fn json_rule<'a>(m: &RuleMatch<'a>) -> JsonRule<'a> {
    let r = RuleRef::new(m.rule, m.via_index_alias);
    JsonRule {
        line: r.line,
        kind: r.kind,
        value: m.rule.value(),
        pattern: if m.via_index_alias {
            m.rule.index_alias().unwrap_or_default()
        } else {
            m.rule.pattern()
        },
        length: m.priority,
        text: r.text,
        via_index_alias: m.via_index_alias,
    }
}

fn json_url(reading: &Reading<'_>, view: Option<&AgentView<'_>>, agent: &str, url: &str) -> Value {
    let decided: Decided = reading.decide(agent, url);
    let mut value = json!({ "url": url });
    if let (Value::Object(map), Value::Object(d)) = (
        &mut value,
        serde_json::to_value(&decided).unwrap_or_default(),
    ) {
        map.extend(d);
        if let Some(view) = view {
            let matching: Vec<JsonRule<'_>> =
                view.matching_rules(url).iter().map(json_rule).collect();
            map.insert("matching_rules".into(), json!(matching));
            map.insert(
                "content_usage".into(),
                match view.content_usage(url) {
                    Some(u) => {
                        json!({"line": u.line, "path": u.path, "preferences": u.preferences})
                    }
                    None => Value::Null,
                },
            );
        }
    }
    value
}

/// The explanation as JSON.
fn to_json(reading: &Reading<'_>, agent: &str, urls: &[String]) -> Value {
    let fetch: Option<&FetchReport> = reading.loaded.fetch.as_ref();
    let Some(robots) = reading.robots() else {
        let outcome = match &reading.loaded.content {
            Content::FullAllow(why) => json!({"kind": "full_allow", "reason": why}),
            Content::FullDisallow(why) => json!({"kind": "full_disallow", "reason": why}),
            Content::Text(_) => Value::Null,
        };
        return json!({
            "robots": reading.loaded.name,
            "agent": agent,
            "fetch": fetch,
            "outcome": outcome,
            "urls": urls.iter().map(|u| json_url(reading, None, agent, u)).collect::<Vec<_>>(),
        });
    };
    let view = robots.for_agent(agent);
    let selection = view.selection();
    let groups: Vec<Group<'_>> = view.groups().collect();
    let group_json = |g: &Group<'_>| {
        json!({
            "first_line": g.first_line(),
            "last_line": g.last_line(),
            "user_agents": g.user_agents().map(|ua| json!({
                "line": ua.line(),
                "value": ua.value(),
                "token": ua.token(),
                "global": ua.is_global(),
                "names_agent": names_agent(&ua, agent, selection, robots),
            })).collect::<Vec<_>>(),
            "records_between_user_agents": records_between(g, robots).iter()
                .map(|(line, field)| json!({"line": line, "field": field}))
                .collect::<Vec<_>>(),
        })
    };
    let rules = view.rules_by_precedence();
    let never: Vec<Value> = view
        .groups()
        .flat_map(|g| g.rules())
        .filter(|r| !rules.iter().any(|m| m.rule.index() == r.index()))
        .map(|r| json!(RuleRef::new(r, false)))
        .collect();
    json!({
        "robots": reading.loaded.name,
        "agent": agent,
        "profile": robots.profile().name,
        "fetch": fetch,
        "selection": match selection {
            SelectionKind::Specific => "specific",
            SelectionKind::Global => "global",
            _ => "nothing",
        },
        "groups": groups.iter().map(group_json).collect::<Vec<_>>(),
        "unused_global_groups": robots.groups()
            .filter(|g| g.is_global() && !groups.iter().any(|s| s.index() == g.index()))
            .map(|g| group_json(&g))
            .collect::<Vec<_>>(),
        "rules": rules.iter().map(json_rule).collect::<Vec<_>>(),
        "never_matching_rules": never,
        "ignored_rules": robots.ignored_rules().map(|r| json!(RuleRef::new(r, false))).collect::<Vec<_>>(),
        "extensions": view.groups().flat_map(|g| g.extensions()).map(|e| json!({
            "line": e.line(),
            "field": e.key(),
            "value": e.value(),
        })).collect::<Vec<_>>(),
        "crawl_delay": view.crawl_delay().map(|d| json!({"seconds": d.seconds, "line": d.line})),
        "request_rate": view.request_rate().map(|r| json!({
            "requests": r.requests,
            "period_seconds": r.period_seconds,
            "window": r.window.map(|w| json!({"from": w.from.to_string(), "to": w.to.to_string()})),
            "line": r.line,
        })),
        "visit_time": view.visit_time().map(|w| json!({"from": w.from.to_string(), "to": w.to.to_string(), "line": w.line})),
        "content_signal": view.content_signal().map(|s| json!({"value": s.value, "line": s.line})),
        "content_usage": view.content_usage_records().iter().map(|u| json!({"line": u.line, "path": u.path, "preferences": u.preferences})).collect::<Vec<_>>(),
        "sitemaps": view.sitemaps().map(|s| json!({"line": s.line(), "url": s.url()})).collect::<Vec<_>>(),
        "urls": urls.iter().map(|u| json_url(reading, Some(&view), agent, u)).collect::<Vec<_>>(),
    })
}
