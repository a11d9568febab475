//! `crawlgate check`: may this crawler fetch these URLs? One verdict per URL
//! with the line that decided it.

use std::io::Write as _;

use anyhow::bail;
use crawlgate::{
    AgentView, ChoiceKind, Profile, Reading as NameReading, Reason, RobotsTxt, SelectionKind, Who,
};
use crawlgate_answers::{
    Basis, ChoiceRef, CleanParamsShown, ExplainedVerdict, GroupLines, Preferences, RobotsView,
};
use crawlgate_fetch::FetchReport;
use serde::Serialize;

use crate::load::fetch::{fetch_summary, warn_fetch, FetchOptions};
use crate::load::source::{Loaded, RobotsArg};
use crate::load::{load, Sites, READ_LIMIT};
use crate::output::{line_ref, pad, reason, warn, width, Palette, Ui};
use crate::query::QueryArgs;
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate check robots.txt --agent Googlebot /private/page https://example.com/
  crawlgate check robots.txt --agent Googlebot-Image /photo.jpg
  crawlgate check robots.txt --agent Googlebot-Image --one-token /photo.jpg
  curl -s https://example.com/robots.txt | crawlgate check - -a mybot /search?q=x
  crawlgate check robots.txt -a mybot --all-profiles /page.php /fish/
  crawlgate check https://example.com/private/page --agent mybot
  crawlgate check https://example.com -a mybot /a /b https://other.example/c --json

ROBOTS is a file, `-` for standard input, or an http(s) URL: then the robots.txt
of that URL's site is fetched (as Google does: 4xx means everything allowed,
5xx or a network failure everything disallowed), URL arguments may be paths
relative to that site, and with no URL argument ROBOTS itself is checked.

--agent names a crawler: one the crawler registry knows is read as its
operator documents (Googlebot-Image follows a Googlebot group when no group
names it, AdsBot-Google ignores `*`, Applebot follows Googlebot, Bingbot
follows msnbot, user-triggered fetchers ignore robots.txt), and a line
before the verdicts says which group it obeys and why; any other name is
one product token. --one-token reads every name as one product token, as
Google's library does.

Each output line reads: verdict, URL, and the deciding line quoted with its
number (`robots.txt:12  Disallow: /private`), or why nothing decided.

Exit status: 0 every URL allowed, 1 some URL disallowed, 2 usage or input error.";

/// Arguments of `crawlgate check`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub query: QueryArgs,

    /// Show the verdict under every profile side by side.
    #[arg(long, conflicts_with = "profile")]
    pub all_profiles: bool,

    #[command(flatten, next_help_heading = "Fetching (when ROBOTS is a URL)")]
    pub fetch: FetchOptions,
}

/// One URL and its verdict under each profile asked for.
struct Row<'a> {
    url: String,
    source: &'a Loaded,
    verdicts: Vec<ExplainedVerdict>,
    /// The `*` rules the crawler passes over, when no rule of its own
    /// group matched (one profile only).
    passed_over: Option<&'a PassedOver>,
    /// The usage preferences that apply to the URL (first profile), when
    /// the file states any for the crawler there; for `--json`.
    preferences: Option<Preferences>,
    /// What the file's `Clean-param` records (Yandex's) drop from the URL,
    /// when they drop something; for `--json`.
    clean_params: Option<CleanParamsShown>,
}

/// The rules of `User-agent: *` groups that a crawler named by groups of
/// its own does not obey (RFC 9309 §2.2.1: only when no group names it
/// does the `*` group apply).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct PassedOver {
    /// How many rules the `*` groups hold.
    rules: usize,
    /// The crawler's own groups.
    own_groups: Vec<GroupLines>,
}

impl PassedOver {
    /// What the crawler of `view` passes over in `robots`, when it has
    /// groups of its own and some `*` group with rules is not among them.
    fn find(robots: &RobotsTxt, view: &AgentView<'_>) -> Option<PassedOver> {
        if view.selection() != SelectionKind::Specific {
            return None;
        }
        let mut own: Vec<usize> = view.groups().map(|g| g.index()).collect();
        own.sort_unstable();
        let rules = robots
            .groups()
            .filter(|g| g.is_global() && own.binary_search(&g.index()).is_err())
            .map(|g| g.rules().len())
            .sum();
        (rules > 0).then(|| PassedOver {
            rules,
            own_groups: view
                .groups()
                .map(|g| GroupLines {
                    first_line: g.first_line(),
                    last_line: g.last_line(),
                })
                .collect(),
        })
    }

    /// `no rule matched (`Googlebot` obeys its own group at lines 5–7;
    /// the 12 rules of `User-agent: *` do not apply to it)`; for a crawler
    /// that obeys the group of another token, `obeys the Googlebot group`.
    fn sentence(&self, agent: &str, token: Option<&str>) -> String {
        const SHOWN: usize = 3;
        let spans: Vec<String> = self
            .own_groups
            .iter()
            .take(SHOWN)
            .map(|g| {
                if g.first_line == g.last_line {
                    format!("{}", g.first_line)
                } else {
                    format!("{}–{}", g.first_line, g.last_line)
                }
            })
            .collect();
        let more = self.own_groups.len().saturating_sub(SHOWN);
        let (groups, lines) = match (self.own_groups.len(), spans.as_slice()) {
            (1, [span]) => ("group", span.clone()),
            (_, [init @ .., last]) if more == 0 => {
                ("groups", format!("{} and {last}", init.join(", ")))
            }
            _ => ("groups", format!("{} and {more} more", spans.join(", "))),
        };
        let lines_word = if lines.contains(['–', ',', ' ']) {
            "lines"
        } else {
            "line"
        };
        let whose = match token {
            Some(token) => format!("the `{token}`"),
            None => "its own".to_owned(),
        };
        format!(
            "no rule matched (`{agent}` obeys {whose} {groups} at {lines_word} {lines}; the {} of `User-agent: *` {} not apply to it)",
            if self.rules == 1 {
                "1 rule".to_owned()
            } else {
                format!("{} rules", self.rules)
            },
            if self.rules == 1 { "does" } else { "do" }
        )
    }
}

impl Row<'_> {
    fn allowed(&self) -> bool {
        self.verdicts.iter().all(|v| v.allowed)
    }

    fn agree(&self) -> bool {
        self.verdicts
            .windows(2)
            .all(|w| w[0].allowed == w[1].allowed)
    }
}

/// Everything `check` answers.
struct Report<'a> {
    agent: &'a str,
    reading: NameReading,
    /// Per file: how the crawler's groups were chosen, when the crawler
    /// reading applied a rule of the registry worth a line of its own.
    choices: Vec<Option<ChoiceRef>>,
    profiles: Vec<Profile>,
    /// Whether the profile was the crawler's operator's own reading,
    /// chosen by the registry rather than named with `--profile`.
    own_profile: bool,
    fetches: Vec<&'a FetchReport>,
    rows: Vec<Row<'a>>,
}

/// Runs `crawlgate check`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let query = &args.query;
    let robots = query.validate()?;
    let urls = urls_to_check(&robots, query)?;
    let plan = load(&robots, &urls, Sites::Any, &args.fetch, READ_LIMIT)?;
    let profiles = if args.all_profiles {
        Profile::ALL.to_vec()
    } else {
        vec![query.profile()]
    };

    let readings: Vec<Vec<_>> = plan
        .sources
        .iter()
        .map(|source| profiles.iter().map(|&p| source.read(p)).collect())
        .collect();
    for (source, readings) in plan.sources.iter().zip(&readings) {
        if let Some(report) = source.fetch() {
            warn_fetch(report);
        }
        if let Some(robots) = readings[0].robots() {
            source.warnings(robots).iter().for_each(|w| warn(w));
        }
    }
    // The crawler, looked up once, and its view of each reading, built
    // once for every question.
    let how = query.reading();
    let who = Who::read(&query.agent, how);
    let views: Vec<Vec<RobotsView<'_>>> = readings
        .iter()
        .map(|readings| readings.iter().map(|reading| reading.view(who)).collect())
        .collect();
    // Per file, what the crawler passes over (one profile only: the
    // side-by-side table has no room for it).
    let passed_over: Vec<Option<PassedOver>> = readings
        .iter()
        .zip(&views)
        .map(
            |(readings, views)| match (readings.as_slice(), views.as_slice()) {
                ([one], [view]) => PassedOver::find(one.robots()?, view.rules()?),
                _ => None,
            },
        )
        .collect();
    let choices: Vec<Option<ChoiceRef>> = views
        .iter()
        .map(|views| {
            let choice = views[0].rules()?.group_choice();
            worth_a_line(&choice, &query.agent).then(|| ChoiceRef::new(&choice, &query.agent))
        })
        .collect();
    let rows = plan
        .targets
        .iter()
        .map(|target| {
            let views = &views[target.source];
            let verdicts: Vec<ExplainedVerdict> =
                views.iter().map(|view| view.decide(&target.url)).collect();
            let no_match = verdicts[0].basis == Basis::Rules(Reason::NoMatchingRule);
            let preferences = query
                .json
                .then(|| views[0].rules())
                .flatten()
                .and_then(|view| view.preferences(&target.url))
                .filter(|p| !p.is_empty())
                .map(|p| Preferences::of(&p));
            let clean_params = query
                .json
                .then(|| readings[target.source][0].robots())
                .flatten()
                .and_then(|robots| CleanParamsShown::of(robots, &target.url));
            Row {
                url: target.url.clone(),
                source: &plan.sources[target.source],
                passed_over: passed_over[target.source].as_ref().filter(|_| no_match),
                verdicts,
                preferences,
                clean_params,
            }
        })
        .collect::<Vec<_>>();
    let report = Report {
        agent: &query.agent,
        reading: how,
        choices,
        own_profile: query.profile.is_none()
            && profiles == [query.profile()]
            && profiles[0] != Profile::default(),
        profiles,
        fetches: plan.sources.iter().filter_map(Loaded::fetch).collect(),
        rows,
    };

    let all_allowed = report.rows.iter().all(Row::allowed);
    let mut out = std::io::stdout().lock();
    if query.json {
        serde_json::to_writer_pretty(&mut out, &json(&report))?;
        writeln!(out)?;
    } else {
        out.write_all(render(&report, ui.palette()).as_bytes())?;
    }
    out.flush()?;
    Ok(Status::all_good(all_allowed))
}

/// Whether the crawler reading chose the groups by a rule of the registry
/// that the verdicts alone do not show: a fallback token, a control token,
/// `*` after fallbacks, or a name the registry read as another (a full
/// User-Agent header). Ignoring `*` or robots.txt is said on each row.
fn worth_a_line(choice: &crawlgate::GroupChoice<'_>, agent: &str) -> bool {
    let Some(crawler) = choice.crawler() else {
        return false;
    };
    let renamed = !crawler.name.eq_ignore_ascii_case(agent.trim());
    match choice.kind() {
        ChoiceKind::Fallback | ChoiceKind::ControlToken => true,
        ChoiceKind::Star => renamed || !crawler.fallbacks.is_empty(),
        ChoiceKind::Own => renamed,
        _ => false,
    }
}

/// The URLs to check: those given, or the page `ROBOTS` names when it is
/// a URL and none is given.
fn urls_to_check(robots: &RobotsArg, query: &QueryArgs) -> anyhow::Result<Vec<String>> {
    if !query.urls.is_empty() {
        return Ok(query.urls.clone());
    }
    match robots {
        RobotsArg::Url(base) if base.path() == "/robots.txt" => bail!(
            "no URL to check: give URLs after {base} (or give the page itself: `crawlgate check https://site/page`)"
        ),
        RobotsArg::Url(base) => Ok(vec![base.to_string()]),
        _ => bail!(
            "no URL to check: give one or more URLs after {}",
            query.robots
        ),
    }
}

/// Why, in a few words, without the line reference: for the
/// `--all-profiles` table.
fn short_reason(verdict: &ExplainedVerdict) -> String {
    match (verdict.basis, &verdict.rule) {
        (Basis::Rules(Reason::Rule), Some(rule)) => format!("line {}", rule.line),
        (Basis::Rules(Reason::EmptyRule), Some(rule)) => format!("line {} (empty rule)", rule.line),
        (Basis::Rules(Reason::NoGroup), _) => "no group".to_owned(),
        (Basis::Rules(Reason::RobotsTxt), _) => "robots.txt itself".to_owned(),
        (Basis::FullAllow, _) => "full allow".to_owned(),
        (Basis::FullDisallow, _) => "full disallow".to_owned(),
        _ => "no rule matched".to_owned(),
    }
}

/// The human output.
fn render(report: &Report<'_>, palette: Palette) -> String {
    let mut out = String::new();
    for fetch in &report.fetches {
        out.push_str(&palette.dim(&fetch_summary(fetch)));
        out.push('\n');
    }
    if report.profiles.len() > 1 {
        render_profiles(report, palette, &mut out);
        return out;
    }
    if report.own_profile {
        out.push_str(&palette.dim(&own_profile_line(report.agent, report.profiles[0])));
        out.push('\n');
    }
    for choice in report.choices.iter().flatten() {
        out.push_str(&palette.dim(&choice.why));
        out.push('\n');
    }
    let url_width = width(report.rows.iter().map(|r| r.url.as_str()));
    let ref_width = width(report.rows.iter().filter_map(|r| {
        let rule = r.verdicts[0].rule.as_ref()?;
        Some(line_ref(&r.source.name, rule.line))
    }));
    for row in &report.rows {
        let decided = &row.verdicts[0];
        let token = decided
            .choice
            .as_ref()
            .filter(|c| c.kind == ChoiceKind::Fallback);
        // A full User-Agent header is named by the crawler it was read as;
        // a product token as it was given.
        let named = decided
            .choice
            .as_ref()
            .and_then(|c| c.crawler)
            .filter(|_| !crawlgate::is_product_token(report.agent))
            .unwrap_or(report.agent);
        let why = match row.passed_over {
            Some(passed_over) => {
                passed_over.sentence(named, token.and_then(|c| c.token.as_deref()))
            }
            None => reason(decided, &row.source.name, ref_width, palette),
        };
        out.push_str(&format!(
            "{}  {}  {why}\n",
            palette.verdict(decided.allowed, &pad(decided.word(), 10)),
            pad(&row.url, url_width),
        ));
    }
    out
}

/// The line that says a crawler is read by its operator's own reading (the
/// registry's `profile=`), not Google's.
fn own_profile_line(agent: &str, profile: Profile) -> String {
    let whose = match profile.name {
        "bing" => "Bing's rules",
        "yandex" => "Yandex's parser",
        other => other,
    };
    format!(
        "read by the {} profile ({whose}), as its operator reads files for `{agent}` (--profile google for Google's reading)",
        profile.name
    )
}

/// `--all-profiles`: one column per profile, then the lines quoted.
fn render_profiles(report: &Report<'_>, palette: Palette, out: &mut String) {
    let cell = |d: &ExplainedVerdict| format!("{}  {}", pad(d.word(), 10), short_reason(d));
    let url_width = width(report.rows.iter().map(|r| r.url.as_str()).chain(["URL"]));
    let cell_width = report
        .rows
        .iter()
        .flat_map(|r| r.verdicts.iter().map(|d| cell(d).chars().count()))
        .chain(report.profiles.iter().map(|p| p.name.len()))
        .max()
        .unwrap_or(0);
    let last = report.profiles.len() - 1;
    let mut header = pad("URL", url_width);
    for (i, profile) in report.profiles.iter().enumerate() {
        header.push_str("  ");
        header.push_str(&if i == last {
            profile.name.to_owned()
        } else {
            pad(profile.name, cell_width)
        });
    }
    out.push_str(&palette.heading(&header));
    out.push('\n');
    for row in &report.rows {
        out.push_str(&pad(&row.url, url_width));
        for (i, decided) in row.verdicts.iter().enumerate() {
            let text = cell(decided);
            let (word, rest) = text.split_at(10);
            out.push_str("  ");
            out.push_str(&palette.verdict(decided.allowed, word));
            if i == last && row.agree() {
                out.push_str(rest);
            } else {
                out.push_str(&pad(rest, cell_width - 10));
            }
        }
        if !row.agree() {
            out.push_str(&palette.notice("  (profiles disagree)"));
        }
        out.push('\n');
    }
    // The lines the table refers to, each once, in file order.
    let mut quoted: Vec<(&str, u32, &str)> = Vec::new();
    for row in &report.rows {
        for rule in row.verdicts.iter().filter_map(|d| d.rule.as_ref()) {
            let key = (row.source.name.as_str(), rule.line, rule.text.as_str());
            if !quoted.iter().any(|q| (q.0, q.1) == (key.0, key.1)) {
                quoted.push(key);
            }
        }
    }
    if quoted.is_empty() {
        return;
    }
    quoted.sort_by_key(|&(name, line, _)| {
        (report.rows.iter().position(|r| r.source.name == name), line)
    });
    let ref_width = width(quoted.iter().map(|q| line_ref(q.0, q.1)));
    out.push('\n');
    for (name, line, text) in quoted {
        out.push_str(&format!(
            "{}  {text}\n",
            palette.dim(&pad(&line_ref(name, line), ref_width))
        ));
    }
}

#[derive(Serialize)]
struct JsonReport<'a> {
    agent: &'a str,
    /// `crawler` or `one-token`.
    reading: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    profiles: Option<Vec<&'static str>>,
    allowed: bool,
    results: Vec<JsonResult<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fetches: Vec<&'a FetchReport>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    url: &'a str,
    robots: &'a str,
    #[serde(flatten)]
    decided: Option<&'a ExplainedVerdict>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agree: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdicts: Option<Vec<JsonProfileVerdict<'a>>>,
    /// Only when no rule matched and `*` rules were passed over.
    #[serde(skip_serializing_if = "Option::is_none")]
    star_rules_passed_over: Option<&'a PassedOver>,
    /// Only when the file states usage preferences for the crawler here.
    #[serde(skip_serializing_if = "Option::is_none")]
    preferences: Option<&'a Preferences>,
    /// Only when the file's `Clean-param` records drop parameters here.
    #[serde(skip_serializing_if = "Option::is_none")]
    clean_params: Option<&'a CleanParamsShown>,
}

#[derive(Serialize)]
struct JsonProfileVerdict<'a> {
    profile: &'static str,
    #[serde(flatten)]
    decided: &'a ExplainedVerdict,
}

fn json<'a>(report: &'a Report<'a>) -> JsonReport<'a> {
    let many = report.profiles.len() > 1;
    JsonReport {
        agent: report.agent,
        reading: report.reading.as_str(),
        profile: (!many).then(|| report.profiles[0].name),
        profiles: many.then(|| report.profiles.iter().map(|p| p.name).collect()),
        allowed: report.rows.iter().all(Row::allowed),
        results: report
            .rows
            .iter()
            .map(|row| JsonResult {
                url: &row.url,
                robots: &row.source.name,
                decided: (!many).then(|| &row.verdicts[0]),
                agree: many.then(|| row.agree()),
                star_rules_passed_over: row.passed_over,
                preferences: row.preferences.as_ref(),
                clean_params: row.clean_params.as_ref(),
                verdicts: many.then(|| {
                    report
                        .profiles
                        .iter()
                        .zip(&row.verdicts)
                        .map(|(p, decided)| JsonProfileVerdict {
                            profile: p.name,
                            decided,
                        })
                        .collect()
                }),
            })
            .collect(),
        fetches: report.fetches.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(text: &str) -> Loaded {
        Loaded::local("robots.txt", text)
    }

    fn report<'a>(source: &'a Loaded, profiles: &[Profile], urls: &[&str]) -> Report<'a> {
        let rows = urls
            .iter()
            .map(|url| Row {
                url: (*url).to_owned(),
                source,
                verdicts: profiles
                    .iter()
                    .map(|&p| source.read(p).decide("bot", url))
                    .collect(),
                passed_over: None,
                preferences: None,
                clean_params: None,
            })
            .collect();
        Report {
            agent: "bot",
            reading: NameReading::OneToken,
            choices: vec![None],
            own_profile: false,
            profiles: profiles.to_vec(),
            fetches: source.fetch().into_iter().collect(),
            rows,
        }
    }

    const FILE: &str = "User-agent: *\nDisallow: /p\nDisallow: /*.php$\nAllow: /p/ok\n";

    #[test]
    fn one_line_per_url_aligned() {
        let file = local(FILE);
        let text = render(
            &report(&file, &[Profile::GOOGLE], &["/p/x", "/p/ok", "/z"]),
            Palette::new(false),
        );
        assert_eq!(
            text,
            "disallowed  /p/x   robots.txt:2  Disallow: /p\n\
             allowed     /p/ok  robots.txt:4  Allow: /p/ok\n\
             allowed     /z     no rule matched\n"
        );
    }

    #[test]
    fn profiles_side_by_side_with_the_lines_quoted_once() {
        let file = local(FILE);
        let text = render(
            &report(&file, &Profile::ALL, &["/a.php", "/p"]),
            Palette::new(false),
        );
        assert_eq!(
            text,
            "URL     google                       rfc9309                      legacy                       bing                         yandex\n\
             /a.php  disallowed  line 3           disallowed  line 3           allowed     no rule matched  disallowed  line 3           disallowed  line 3           (profiles disagree)\n\
             /p      disallowed  line 2           disallowed  line 2           disallowed  line 2           disallowed  line 2           disallowed  line 2\n\
             \n\
             robots.txt:2  Disallow: /p\n\
             robots.txt:3  Disallow: /*.php$\n"
        );
    }

    #[test]
    fn json_keeps_its_shape() {
        let file = local(FILE);
        let one = serde_json::to_value(json(&report(&file, &[Profile::GOOGLE], &["/p"]))).unwrap();
        assert_eq!(
            one,
            serde_json::json!({
                "agent": "bot",
                "reading": "one-token",
                "profile": "google",
                "allowed": false,
                "results": [{
                    "url": "/p",
                    "robots": "robots.txt",
                    "allowed": false,
                    "basis": "rule",
                    "rule": {"line": 2, "kind": "disallow", "value": "/p", "text": "Disallow: /p", "via_index_alias": false},
                    "choice": {"reading": "one-token", "kind": "*", "token": "*", "crawler": null, "why": "bot obeys the * group at lines 1–4: no group names bot", "source": null},
                }],
            })
        );
        let many = serde_json::to_value(json(&report(&file, &Profile::ALL, &["/z"]))).unwrap();
        assert_eq!(
            many["profiles"],
            serde_json::json!(["google", "rfc9309", "legacy", "bing", "yandex"])
        );
        assert_eq!(many["results"][0]["agree"], true);
        assert_eq!(many["results"][0]["verdicts"][2]["profile"], "legacy");
        assert_eq!(
            many["results"][0]["verdicts"][2]["basis"],
            "no_matching_rule"
        );
        assert!(many["results"][0].get("allowed").is_none());
    }

    #[test]
    fn short_reasons_name_the_line_or_the_basis() {
        let file = local("User-agent: *\nDisallow:\nDisallow: /p\n");
        let reading = file.read(Profile::GOOGLE);
        assert_eq!(short_reason(&reading.decide("bot", "/p")), "line 3");
        assert_eq!(
            short_reason(&reading.decide("bot", "/x")),
            "line 2 (empty rule)"
        );
        let empty = local("");
        assert_eq!(
            short_reason(&empty.read(Profile::GOOGLE).decide("bot", "/")),
            "no group"
        );
        let rfc = file.read(Profile::RFC9309);
        assert_eq!(
            short_reason(&rfc.decide("bot", "/robots.txt")),
            "robots.txt itself"
        );
    }

    #[test]
    fn with_no_url_a_page_given_as_robots_is_checked() {
        let query = |robots: &str| QueryArgs {
            robots: robots.to_owned(),
            urls: Vec::new(),
            agent: "bot".into(),
            one_token: false,
            profile: Some(Profile::GOOGLE),
            json: false,
        };
        let page = query("https://example.com/private");
        let arg = RobotsArg::parse(&page.robots).unwrap();
        assert_eq!(
            urls_to_check(&arg, &page).unwrap(),
            ["https://example.com/private"]
        );
        let file = query("robots.txt");
        let arg = RobotsArg::parse(&file.robots).unwrap();
        assert!(urls_to_check(&arg, &file)
            .unwrap_err()
            .to_string()
            .starts_with("no URL to check"));
        let robots = query("https://example.com/robots.txt");
        let arg = RobotsArg::parse(&robots.robots).unwrap();
        assert!(urls_to_check(&arg, &robots)
            .unwrap_err()
            .to_string()
            .contains("give the page itself"));
    }

    #[test]
    fn a_crawler_with_its_own_group_is_told_what_it_passes_over() {
        let file =
            "User-agent: *\nDisallow: /a\nDisallow: /b\n\nUser-agent: Googlebot\nDisallow: /g\n";
        let robots = RobotsTxt::parse(file.as_bytes());
        let found = PassedOver::find(
            &robots,
            &robots.view(Who::read("Googlebot", NameReading::Crawler)),
        )
        .unwrap();
        assert_eq!(found.rules, 2);
        assert_eq!(
            found.sentence("Googlebot", None),
            "no rule matched (`Googlebot` obeys its own group at lines 5–6; the 2 rules of `User-agent: *` do not apply to it)"
        );
        // A crawler without a group of its own obeys `*`: nothing passed over.
        assert_eq!(
            PassedOver::find(
                &robots,
                &robots.view(Who::read("mybot", NameReading::Crawler))
            ),
            None
        );
        // Applebot obeys Googlebot's group, and passes over `*` too.
        let applebot = PassedOver::find(
            &robots,
            &robots.view(Who::read("Applebot", NameReading::Crawler)),
        )
        .unwrap();
        assert!(applebot
            .sentence("Applebot", Some("Googlebot"))
            .contains("`Applebot` obeys the `Googlebot` group at lines 5–6"));
        assert_eq!(
            PassedOver::find(
                &robots,
                &robots.view(Who::read("Applebot", NameReading::OneToken))
            ),
            None
        );
        // A `*` line in the crawler's own group is not passed over.
        let shared = RobotsTxt::parse(b"User-agent: Googlebot\nUser-agent: *\nDisallow: /a\n");
        assert_eq!(
            PassedOver::find(
                &shared,
                &shared.view(Who::read("Googlebot", NameReading::OneToken))
            ),
            None
        );
        let many = PassedOver {
            rules: 1,
            own_groups: (1..=5)
                .map(|n| GroupLines {
                    first_line: n * 10,
                    last_line: n * 10,
                })
                .collect(),
        };
        assert_eq!(
            many.sentence("b", None),
            "no rule matched (`b` obeys its own groups at lines 10, 20, 30 and 2 more; the 1 rule of `User-agent: *` does not apply to it)"
        );
    }
}
