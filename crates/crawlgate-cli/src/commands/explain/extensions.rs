//! The text of the Extensions and Sitemaps sections: each extension record
//! of the crawler's groups and what it means for the crawler (which one
//! applies, which crawlers read it), then the sitemaps.

use std::fmt::Write as _;

use crawlgate::{AgentView, Extension, ExtensionKind};

use crate::output::{line_ref, pad, width, Palette};

/// The line of the first valid record of each kind the crawler reads (the
/// one that applies), found once per view: a note per record then costs
/// the same however many records there are.
pub(crate) struct FirstValid {
    crawl_delay: Option<u32>,
    request_rate: Option<u32>,
    visit_time: Option<u32>,
    content_signal: Option<u32>,
}

impl FirstValid {
    /// The first valid records of `view`'s groups.
    pub(crate) fn of(view: &AgentView<'_>) -> FirstValid {
        FirstValid {
            crawl_delay: view.crawl_delay().map(|d| d.line),
            request_rate: view.request_rate().map(|r| r.line),
            visit_time: view.visit_time().map(|w| w.line),
            content_signal: view.content_signal().map(|s| s.line),
        }
    }
}

/// What an extension record means for this crawler.
#[cfg(test)]
fn extension_note(ext: &Extension<'_>, view: &AgentView<'_>) -> String {
    extension_note_with(ext, view, &FirstValid::of(view))
}

/// What an extension record means for this crawler, given the first valid
/// records of its view.
pub(crate) fn extension_note_with(
    ext: &Extension<'_>,
    view: &AgentView<'_>,
    firsts: &FirstValid,
) -> String {
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
            Some(delay) if !view.robots().profile().obeys_crawl_delay(delay.seconds) => {
                let (low, high) = view.robots().profile().crawl_delay_range.unwrap_or((0, 0));
                format!(
                    "{} s is outside the {low}–{high} s this reading obeys: no delay",
                    delay.seconds
                )
            }
            Some(delay) => first(firsts.crawl_delay, "Crawl-delay").unwrap_or(format!(
                "wait {} s between requests (Bing reads it; Google ignores it)",
                delay.seconds
            )),
        },
        ExtensionKind::RequestRate => match ext.request_rate() {
            None => "not `requests/period`: ignored".to_owned(),
            Some(rate) => first(firsts.request_rate, "Request-rate").unwrap_or_else(|| {
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
            Some(window) => first(firsts.visit_time, "Visit-time").unwrap_or(format!(
                "visit only between {} and {} UTC",
                window.from, window.to
            )),
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
            Some(_) => first(firsts.content_signal, "Content-Signal")
                .unwrap_or_else(|| "content signals".to_owned()),
            None => String::new(),
        },
        ExtensionKind::Host => "preferred mirror (Yandex, unused since 2018)".to_owned(),
        ExtensionKind::CleanParam => match crawlgate::CleanParam::parse(ext.value(), ext.line()) {
            Ok(record) => clean_param_note(&record),
            Err(why) => format!("dropped by Yandex's parser: {why}"),
        },
        ExtensionKind::License => "licence for the whole file (RSL), not for this group".to_owned(),
        _ => "unknown field".to_owned(),
    }
}

/// What a valid `Clean-param` says: which parameters Yandex drops where.
pub fn clean_param_note(record: &crawlgate::CleanParam<'_>) -> String {
    let params: Vec<String> = record.params.iter().map(|p| format!("`{p}`")).collect();
    let params = match params.as_slice() {
        [] => "no parameter".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    match record.path {
        "" => format!("Yandex drops {params} from every URL (Clean-param)"),
        path => format!("Yandex drops {params} from URLs under {path} (Clean-param)"),
    }
}

/// The extensions section (the records of the crawler's groups and what
/// each means for it) and the sitemaps.
pub fn render_extensions(view: &AgentView<'_>, name: &str, p: Palette, out: &mut String) {
    let extensions: Vec<Extension<'_>> = view.groups().flat_map(|g| g.extensions()).collect();
    let _ = writeln!(out, "{}", p.heading("Extensions in these groups"));
    if extensions.is_empty() && view.star_crawl_delay().is_none() {
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
    let firsts = FirstValid::of(view);
    for ((ext, reference), text) in extensions.iter().zip(&refs).zip(&texts) {
        let _ = writeln!(
            out,
            "  {}  {}  {}",
            p.dim(&pad(reference, ref_width)),
            pad(text, text_width),
            p.dim(&extension_note_with(ext, view, &firsts))
        );
    }
    // Bingbot (bing profile): `*`'s Crawl-delay still applies beside its
    // own group.
    if let Some((delay, source)) = view.star_crawl_delay() {
        let who = view
            .group_choice()
            .crawler()
            .map_or("this crawler", |c| c.name);
        let _ = writeln!(
            out,
            "  {}  Crawl-delay: {}  {}",
            p.dim(&line_ref(name, delay.line)),
            delay.seconds,
            p.dim(&format!(
                "from the * group: {who} still waits {} s between requests although a group of its own replaces `*` ({})",
                delay.seconds, source.title
            ))
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
    // Licences (RSL), only when the file has some.
    let licenses: Vec<_> = view.robots().licenses().collect();
    if !licenses.is_empty() {
        let _ = writeln!(out, "\n{}", p.heading("Licences (for every crawler, RSL)"));
        let refs: Vec<String> = licenses.iter().map(|l| line_ref(name, l.line)).collect();
        let ref_width = width(refs.iter());
        for (license, reference) in licenses.iter().zip(&refs) {
            let note = if license.is_absolute() {
                String::new()
            } else {
                format!(
                    "  {}",
                    p.dim("not an absolute URL: crawlers cannot find it")
                )
            };
            let _ = writeln!(
                out,
                "  {}  {}{note}",
                p.dim(&pad(reference, ref_width)),
                license.url
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;

    fn notes(file: &str) -> Vec<String> {
        let robots = RobotsTxt::parse(file.as_bytes());
        let view = robots.view("bot");
        view.groups()
            .flat_map(|g| g.extensions())
            .map(|e| extension_note(&e, &view))
            .collect()
    }

    #[test]
    fn the_first_valid_record_applies() {
        assert_eq!(
            notes("User-agent: *\nCrawl-delay: soon\nCrawl-delay: 5\nCrawl-delay: 9\n"),
            [
                "not a number of seconds: ignored",
                "wait 5 s between requests (Bing reads it; Google ignores it)",
                "not used: the first valid Crawl-delay (line 3) applies",
            ]
        );
    }

    #[test]
    fn bing_obeys_one_to_thirty_seconds_only() {
        let robots = RobotsTxt::parse_with(
            b"User-agent: *\nCrawl-delay: 60\n",
            crawlgate::Profile::BING,
        );
        let view = robots.view("bot");
        let ext = robots.extensions().next().unwrap();
        assert_eq!(
            extension_note(&ext, &view),
            "60 s is outside the 1–30 s this reading obeys: no delay"
        );
    }

    #[test]
    fn each_kind_is_explained() {
        assert_eq!(
            notes("User-agent: *\nRequest-rate: 1/10s 0800-1700\nVisit-time: 0100-0600\nHost: example.com\nFoo: bar\n"),
            [
                "at most 1 request(s) per 10 s, between 0800 and 1700 UTC",
                "visit only between 0100 and 0600 UTC",
                "preferred mirror (Yandex, unused since 2018)",
                "unknown field",
            ]
        );
    }

    #[test]
    fn sections_list_records_and_sitemaps() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nCrawl-delay: 2\nSitemap: https://example.com/s.xml\n",
        );
        let mut out = String::new();
        render_extensions(&robots.view("bot"), "r", Palette::new(false), &mut out);
        assert_eq!(
            out,
            "Extensions in these groups\n  r:2  Crawl-delay: 2  wait 2 s between requests (Bing reads it; Google ignores it)\n\n\
             Sitemaps (for every crawler)\n  r:3  https://example.com/s.xml\n"
        );
        let empty = RobotsTxt::parse(b"");
        let mut out = String::new();
        render_extensions(&empty.view("bot"), "r", Palette::new(false), &mut out);
        assert_eq!(
            out,
            "Extensions in these groups\n  none\n\nSitemaps (for every crawler)\n  none\n"
        );
    }
}
