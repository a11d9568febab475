//! Every fix with a replacement keeps its word on the real-world corpus:
//! applied alone to its file and the file parsed again with the fix's
//! profile, a fix that does not say it changes verdicts
//! (`Fix::changes_verdicts`) leaves every crawler's verdict unchanged on
//! every URL built from the old and the new line (and a few generic paths);
//! and each code whose fixes say they change verdicts changes at least one
//! somewhere on the corpus, so the flag is not set blindly.

use std::collections::BTreeMap;

use crawlgate::{CompiledRobotsTxt, Profile, RobotsTxt};
use crawlgate_lint::{lint, Code, Diagnostic, LintOptions};

/// Paths every fix is asked about, whatever it touches.
const GENERIC_PATHS: &[&str] = &["/", "/index.html", "/a/b.html?q=1", "/wp-admin/"];

/// A name that no group names, so it gets the `*` group (or none).
const UNNAMED_AGENT: &str = "crawlgate-probe";

/// Paths a rule value stands for: each `*` as nothing or as a few bytes,
/// a final `$` dropped, with and without a byte after it, always starting
/// with `/`.
fn paths_from(value: &str, out: &mut Vec<String>) {
    let value = value.trim();
    let body = value.strip_suffix('$').unwrap_or(value);
    for star in ["", "x", "x/y/"] {
        let filled = body.replace('*', star);
        let path = if filled.starts_with('/') {
            filled
        } else {
            format!("/{filled}")
        };
        out.push(format!("{path}x"));
        out.push(format!("{path}/x"));
        out.push(path);
    }
}

/// The value of a rule, user-agent or other line at `line` (1-based).
fn line_value(source: &[u8], line: u32) -> Option<String> {
    let text = source.split(|&b| b == b'\n').nth(line as usize - 1)?;
    let text = String::from_utf8_lossy(text);
    let text = text.split('#').next().unwrap_or("");
    Some(
        text.split_once(':')
            .map_or(text, |(_, v)| v)
            .trim()
            .to_owned(),
    )
}

/// What one fix did to the verdicts: the first URL and crawler whose
/// verdict changed.
struct Change {
    agent: String,
    path: String,
    before: bool,
}

fn apply(source: &[u8], d: &Diagnostic, replacement: &str) -> Vec<u8> {
    let mut fixed = source[..d.span.bytes.start].to_vec();
    fixed.extend_from_slice(replacement.as_bytes());
    fixed.extend_from_slice(&source[d.span.bytes.end..]);
    fixed
}

/// The groups a fix on `line` can touch: the one holding the line, or the
/// ones it ends and starts (a line between groups may join them).
fn groups_near<'a>(robots: &'a RobotsTxt, line: u32) -> impl Iterator<Item = crawlgate::Group<'a>> {
    robots
        .groups()
        .filter(move |g| g.first_line() <= line + 1 && line <= g.last_line() + 1)
}

/// The crawlers to ask: the tokens of the groups near the fixed line, in
/// the old and the new file, and one that no group names (it stands for
/// every crawler that obeys the `*` groups). Other crawlers obey groups
/// the fix does not touch.
fn agents(line: u32, old: &RobotsTxt, new: &RobotsTxt) -> Vec<String> {
    let mut out: Vec<String> = groups_near(old, line)
        .chain(groups_near(new, line))
        .flat_map(|g| g.user_agents())
        .map(|ua| ua.token().to_owned())
        .filter(|t| !t.is_empty() && t != "*")
        .collect();
    out.push(UNNAMED_AGENT.to_owned());
    out.sort_unstable();
    out.dedup();
    out
}

/// The paths to ask about: from the fixed line as it was and as it is,
/// from the rules of the groups around it when the line is not a rule
/// (a user-agent line changes what its group's rules apply to), and the
/// generic ones.
fn paths(source: &[u8], fixed: &[u8], line: u32, old: &RobotsTxt, new: &RobotsTxt) -> Vec<String> {
    let mut out: Vec<String> = GENERIC_PATHS.iter().map(|p| (*p).to_owned()).collect();
    let mut own = Vec::new();
    for text in [source, fixed] {
        if let Some(value) = line_value(text, line) {
            paths_from(&value, &mut own);
        }
    }
    for robots in [old, new] {
        // The rules of the groups around the line (a user-agent, a renamed
        // field…): the fix may change whom they bind.
        for group in groups_near(robots, line) {
            for rule in group.rules().take(64) {
                paths_from(rule.value(), &mut out);
            }
            // Where the fixed line and an allow rule of its groups both
            // match, their weights decide: a path under the allow's, ending
            // like the line's.
            for rule in group.rules().filter(|r| r.is_allow()).take(32) {
                let base = rule.value().split(['*', '$']).next().unwrap_or("");
                for path in own.iter().step_by(3) {
                    out.push(format!("{base}{}", &path[1..]));
                }
            }
        }
    }
    out.extend(own);
    out.sort_unstable();
    out.dedup();
    out
}

/// The first crawler and path whose verdict the fix changes, if any.
fn first_change(
    source: &[u8],
    old: &CompiledRobotsTxt,
    d: &Diagnostic,
    replacement: &str,
) -> Option<Change> {
    let fixed = apply(source, d, replacement);
    let new = RobotsTxt::parse_with(&fixed, old.robots().profile());
    let agents = agents(d.span.line, old.robots(), &new);
    let paths = paths(source, &fixed, d.span.line, old.robots(), &new);
    let new = CompiledRobotsTxt::new(new);
    for agent in &agents {
        let (was, is) = (old.view(agent.as_str()), new.view(agent.as_str()));
        for path in &paths {
            let before = was.is_allowed(path);
            if before != is.is_allowed(path) {
                return Some(Change {
                    agent: agent.clone(),
                    path: path.clone(),
                    before,
                });
            }
        }
    }
    None
}

#[derive(Default)]
struct Tally {
    fixes: usize,
    flagged: usize,
    flagged_changing: usize,
    broken: Vec<String>,
}

#[test]
fn fixes_keep_every_verdict_unless_they_say_so() {
    let files = crawlgate_corpus::files();
    assert!(files.len() > 4000, "{} files", files.len());
    let profile = Profile::GOOGLE;
    let options = &LintOptions::default().with_profile(profile);
    let tallies: Vec<BTreeMap<Code, Tally>> = std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(files.len().div_ceil(2))
            .map(|chunk| {
                scope.spawn(move || {
                    let mut tally: BTreeMap<Code, Tally> = BTreeMap::new();
                    for (name, source) in chunk {
                        let report = lint(source, options);
                        let old = CompiledRobotsTxt::new(RobotsTxt::parse_with(source, profile));
                        for d in &report.diagnostics {
                            let Some(fix) = &d.fix else { continue };
                            let Some(replacement) = &fix.replacement else {
                                continue;
                            };
                            let t = tally.entry(d.code).or_default();
                            t.fixes += 1;
                            let change = first_change(source, &old, d, replacement);
                            let flagged = fix.changes_verdicts();
                            if flagged {
                                t.flagged += 1;
                                t.flagged_changing += usize::from(change.is_some());
                            } else if let Some(c) = change {
                                t.broken.push(format!(
                                    "{name}:{}: {} `{replacement}` ({}): {} for {} on {}",
                                    d.span.line,
                                    d.code,
                                    fix.message,
                                    if c.before {
                                        "allowed→disallowed"
                                    } else {
                                        "disallowed→allowed"
                                    },
                                    c.agent,
                                    c.path
                                ));
                            }
                        }
                    }
                    tally
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let mut total: BTreeMap<Code, Tally> = BTreeMap::new();
    for part in tallies {
        for (code, t) in part {
            let sum = total.entry(code).or_default();
            sum.fixes += t.fixes;
            sum.flagged += t.flagged;
            sum.flagged_changing += t.flagged_changing;
            sum.broken.extend(t.broken);
        }
    }
    let mut failures = Vec::new();
    for (code, t) in &total {
        println!(
            "{code}: {} fixes, {} say they change verdicts ({} do here), {} change one without saying so",
            t.fixes,
            t.flagged,
            t.flagged_changing,
            t.broken.len()
        );
        for b in t.broken.iter().take(8) {
            println!("  {b}");
        }
        failures.extend(t.broken.iter().cloned());
        if t.flagged > 0 && t.flagged_changing == 0 {
            failures.push(format!(
                "{code}: {} fixes say they change verdicts, none does on the corpus",
                t.flagged
            ));
        }
    }
    // The codes whose fixes change verdicts by design do so here.
    for code in [
        Code::Parse(crawlgate::Code::PathNotAbsolute),
        Code::MergedGroups,
        Code::NotUrlText,
    ] {
        assert!(
            total.get(&code).is_some_and(|t| t.flagged_changing > 0),
            "{code}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} fixes change verdicts without saying so",
        failures.len()
    );
}
