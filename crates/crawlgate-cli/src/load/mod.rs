//! The one loader of the commands that read a robots.txt: from `ROBOTS` and
//! the URL arguments, the files to consult (read, or fetched once per site)
//! and each URL with the file that governs it.
//!
//! Its parts, in the order a run meets them: [`source`] (the `ROBOTS`
//! argument, a loaded file and how it is read), [`input`] (bounded reads of
//! files and standard input), [`fetch`] (the fetch options and fetches).

pub mod fetch;
pub mod input;
pub mod ip_ranges;
pub mod source;

use anyhow::bail;
use crawlgate_answers::Origin;

use self::fetch::{fetch_all, FetchOptions};
use self::source::{Loaded, RobotsArg};

/// Which sites the URLs may be on when `ROBOTS` is a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sites {
    /// Only the site of `ROBOTS`: its robots.txt is fetched, URLs anywhere
    /// else are an error.
    One,
    /// Any: the robots.txt of each site the URLs are on is fetched, once,
    /// in the order the sites first appear.
    Any,
}

/// One URL asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The URL (a path when `ROBOTS` is local, absolute when it is a URL).
    pub url: String,
    /// The index of its robots.txt in [`Plan::sources`].
    pub source: usize,
}

/// The robots.txt files to consult and the URLs asked about.
#[derive(Debug)]
pub struct Plan {
    /// The files, in the order they are first needed.
    pub sources: Vec<Loaded>,
    /// The URLs, in the order given.
    pub targets: Vec<Target>,
}

/// How much of a local robots.txt commands read: what every profile parses
/// (500 KiB, the limit of RFC 9309 §2.5 as Google sets it; the yandex
/// profile reads more, as Yandex's parser reads whole files); one byte more
/// is read to see a cut.
pub const READ_LIMIT: usize = crawlgate::READ_LIMIT;

/// Loads what `robots` names. A local file (or standard input) governs every
/// URL as given; at most `read_limit` bytes of it are read (and one more, to
/// see a cut), and a pipe or device must end within the fetch timeout. For a
/// URL, paths among `urls` are taken relative to its site, and robots.txt
/// files are fetched as `sites` says.
pub fn load(
    robots: &RobotsArg,
    urls: &[String],
    sites: Sites,
    options: &FetchOptions,
    read_limit: usize,
) -> anyhow::Result<Plan> {
    if let Some(local) = Loaded::read_local(robots, read_limit, options.timeout)? {
        let targets = urls
            .iter()
            .map(|url| Target {
                url: url.clone(),
                source: 0,
            })
            .collect();
        return Ok(Plan {
            sources: vec![local],
            targets,
        });
    }
    let RobotsArg::Url(base) = robots else {
        unreachable!("not local, so a URL")
    };
    let (origins, targets) = assign(base, urls, sites)?;
    let robots_urls: Vec<String> = origins.iter().map(|o| o.robots_url().into()).collect();
    let robots_urls: Vec<&str> = robots_urls.iter().map(String::as_str).collect();
    let sources = fetch_all(options, &robots_urls)?
        .into_iter()
        .map(Loaded::from_report)
        .collect();
    Ok(Plan { sources, targets })
}

/// The sites whose robots.txt is needed, and each URL (absolute) with the
/// index of its site.
fn assign(
    base: &url::Url,
    urls: &[String],
    sites: Sites,
) -> anyhow::Result<(Vec<Origin>, Vec<Target>)> {
    let mut origins = Vec::new();
    if sites == Sites::One {
        origins.push(Origin::from_url(base.as_str())?);
    }
    let mut targets = Vec::with_capacity(urls.len());
    for url in urls {
        let url = if url.starts_with('/') {
            base.join(url)
                .map_err(|e| anyhow::anyhow!("invalid URL `{url}`: {e}"))?
                .to_string()
        } else {
            url.clone()
        };
        let origin = Origin::from_url(&url)?;
        let source = match origins.iter().position(|o| *o == origin) {
            Some(index) => index,
            None if sites == Sites::One => bail!(
                "`{url}` is not on {}: its robots.txt is another file (use `crawlgate check` to check URLs of several sites)",
                origins[0]
            ),
            None => {
                origins.push(origin);
                origins.len() - 1
            }
        };
        targets.push(Target { url, source });
    }
    Ok((origins, targets))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(url: &str) -> url::Url {
        url::Url::parse(url).unwrap()
    }

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|u| (*u).to_owned()).collect()
    }

    #[test]
    fn paths_are_taken_relative_to_the_site() {
        let (origins, targets) = assign(
            &base("https://example.com/some/page"),
            &urls(&["/a?b", "https://example.com:443/c"]),
            Sites::One,
        )
        .unwrap();
        assert_eq!(origins.len(), 1);
        assert_eq!(
            targets,
            [
                Target {
                    url: "https://example.com/a?b".into(),
                    source: 0
                },
                Target {
                    url: "https://example.com:443/c".into(),
                    source: 0
                }
            ]
        );
    }

    #[test]
    fn one_site_refuses_urls_of_another() {
        let error = assign(
            &base("https://example.com/"),
            &urls(&["/ok", "https://other.example/x"]),
            Sites::One,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.starts_with("`https://other.example/x` is not on https://example.com: its robots.txt is another file"),
            "{error}"
        );
    }

    #[test]
    fn any_site_fetches_each_once_in_order_of_appearance() {
        let (origins, targets) = assign(
            &base("https://a.example/"),
            &urls(&["https://b.example/1", "/2", "https://b.example/3"]),
            Sites::Any,
        )
        .unwrap();
        // The site of ROBOTS counts only when a URL is on it.
        let hosts: Vec<String> = origins.iter().map(|o| o.host_str().to_owned()).collect();
        assert_eq!(hosts, ["b.example", "a.example"]);
        let sources: Vec<usize> = targets.iter().map(|t| t.source).collect();
        assert_eq!(sources, [0, 1, 0]);
    }

    #[test]
    fn no_url_still_needs_the_one_site() {
        let (origins, targets) = assign(&base("https://a.example/x"), &[], Sites::One).unwrap();
        assert_eq!((origins.len(), targets.len()), (1, 0));
        let (origins, _) = assign(&base("https://a.example/x"), &[], Sites::Any).unwrap();
        assert!(origins.is_empty());
    }

    #[test]
    fn a_local_file_governs_every_url_as_given() {
        let dir = std::env::temp_dir().join(format!("crawlgate-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("robots.txt");
        std::fs::write(&path, "User-agent: *\nDisallow: /\n").unwrap();
        let arg = RobotsArg::File(path.to_string_lossy().into_owned());
        let options = FetchOptions {
            allow_private: false,
            allow_link_local: false,
            user_agent: String::new(),
            timeout: std::time::Duration::from_secs(1),
        };
        let plan = load(
            &arg,
            &urls(&["/a", "https://x.example/b"]),
            Sites::One,
            &options,
            READ_LIMIT,
        )
        .unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(plan.sources.len(), 1);
        assert!(plan.sources[0].fetch().is_none());
        let given: Vec<&str> = plan.targets.iter().map(|t| t.url.as_str()).collect();
        assert_eq!(given, ["/a", "https://x.example/b"]);
    }
}
