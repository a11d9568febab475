//! `crawlgate explain`: how one crawler reads a robots.txt: which
//! user-agent lines select its groups (and which groups merge, and why `*`
//! is or is not used), its rules in precedence order, its extension
//! records, the sitemaps, and for each URL every matching rule and the
//! winner.

mod extensions;
mod groups;
mod json;
mod rules;
mod selection;
mod text;

pub(crate) use extensions::{extension_note_with, FirstValid};

use std::io::Write as _;

use crate::load::fetch::{warn_fetch, FetchOptions};
use crate::load::source::RobotsArg;
use crate::load::{load, Sites, READ_LIMIT};
use crate::output::{warn, Ui};
use crate::query::QueryArgs;
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate explain robots.txt --agent Googlebot
  crawlgate explain robots.txt -a Googlebot-News /news/2024/ /private/x
  crawlgate explain robots.txt -a Googlebot-Image --one-token
  crawlgate explain - -a mybot --profile legacy < robots.txt
  crawlgate explain https://example.com/ -a mybot /search --json

Shows, for one crawler (a crawler the registry knows is read as its
operator documents: whose group it follows and why, with the source;
--one-token reads the name as one product token, as Google's library does):
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
    #[command(flatten)]
    pub query: QueryArgs,

    #[command(flatten, next_help_heading = "Fetching (when ROBOTS is a URL)")]
    pub fetch: FetchOptions,
}

/// Runs `crawlgate explain`.
pub fn run(args: Args, ui: Ui) -> anyhow::Result<Status> {
    let query = &args.query;
    let robots = query.validate()?;
    let urls = urls_to_explain(&robots, &query.urls);
    let mut plan = load(&robots, &urls, Sites::One, &args.fetch, READ_LIMIT)?;
    let loaded = plan.sources.remove(0);
    let urls: Vec<String> = plan.targets.into_iter().map(|t| t.url).collect();
    let reading = loaded.read(query.profile());
    if let Some(report) = loaded.fetch() {
        warn_fetch(report);
    }
    if let Some(robots) = reading.robots() {
        loaded.warnings(robots).iter().for_each(|w| warn(w));
    }
    let mut out = std::io::stdout().lock();
    if query.json {
        serde_json::to_writer_pretty(
            &mut out,
            &json::to_json((&loaded, &reading), &query.agent, query.reading(), &urls),
        )?;
        writeln!(out)?;
    } else {
        let text = text::render(
            (&loaded, &reading),
            &query.agent,
            query.reading(),
            &urls,
            ui.palette(),
        );
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(Status::Success)
}

/// The URLs to explain: those given; with none, the page `ROBOTS` names
/// when it is the URL of a page (not of the site or its robots.txt).
fn urls_to_explain(robots: &RobotsArg, urls: &[String]) -> Vec<String> {
    match robots {
        RobotsArg::Url(base) if urls.is_empty() && !matches!(base.path(), "/" | "/robots.txt") => {
            vec![base.to_string()]
        }
        _ => urls.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url_arg(url: &str) -> RobotsArg {
        RobotsArg::parse(url).unwrap()
    }

    #[test]
    fn a_page_given_as_robots_is_explained_when_no_url_is() {
        assert_eq!(
            urls_to_explain(&url_arg("https://example.com/private/x"), &[]),
            ["https://example.com/private/x"]
        );
        for site in ["https://example.com/", "https://example.com/robots.txt"] {
            assert!(urls_to_explain(&url_arg(site), &[]).is_empty(), "{site}");
        }
        let given = vec!["/a".to_owned()];
        assert_eq!(
            urls_to_explain(&url_arg("https://example.com/p"), &given),
            given
        );
        assert!(urls_to_explain(&RobotsArg::Stdin, &[]).is_empty());
    }
}
