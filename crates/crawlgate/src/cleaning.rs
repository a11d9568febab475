//! A file's `Clean-param` records (Yandex's), and what they drop from a
//! URL: the query parameters Yandex ignores, so that it crawls one copy of
//! pages that differ only by them. They never change whether a URL may be
//! crawled.

use crate::extension::ExtensionKind;
use crate::model::RobotsTxt;
use crate::url_path::path_of;
use crate::yandex::clean_param::{self, CleanParam};

/// What a file's `Clean-param` records drop from one URL.
///
/// ```
/// use crawlgate::RobotsTxt;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nClean-param: sid&ref /forum/\nClean-param: utm_source\n");
/// let dropped = robots.clean_params_for("https://example.com/forum/t?sid=1&page=2&utm_source=x");
/// assert_eq!(dropped.params, ["sid=1", "utm_source=x"]);
/// assert_eq!(dropped.lines, [2, 3]);
/// assert_eq!(dropped.url, "/forum/t?page=2");
/// assert!(robots.clean_params_for("/blog?page=2").params.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DroppedParams {
    /// The `name=value` pairs dropped, in the URL's order.
    pub params: Vec<String>,
    /// The lines of the records that drop them.
    pub lines: Vec<u32>,
    /// The path and query Yandex crawls instead.
    pub url: String,
}

impl RobotsTxt {
    /// Every `Clean-param` record Yandex's parser keeps, in file order
    /// (wherever it stands: the directive is file-wide). A record it drops
    /// is left out (see [`CleanParam::parse`]).
    pub fn clean_params(&self) -> Vec<CleanParam<'_>> {
        self.extensions()
            .filter(|e| e.kind() == ExtensionKind::CleanParam)
            .filter_map(|e| CleanParam::parse(e.value(), e.line()).ok())
            .collect()
    }

    /// What the file's `Clean-param` records drop from `url` (absolute, or
    /// a path with its query).
    pub fn clean_params_for(&self, url: &str) -> DroppedParams {
        let path = path_of(url);
        let records = self.clean_params();
        let applying: Vec<&CleanParam<'_>> = records
            .iter()
            .filter(|r| !r.dropped_from(&path).is_empty())
            .collect();
        let mut params: Vec<String> = Vec::new();
        for record in &applying {
            for pair in record.dropped_from(&path) {
                if !params.iter().any(|p| p == pair) {
                    params.push(pair.to_owned());
                }
            }
        }
        // In the URL's order.
        let order: Vec<&str> = path
            .split_once('?')
            .map_or("", |(_, q)| q)
            .split('&')
            .collect();
        params.sort_by_key(|p| order.iter().position(|q| q == p).unwrap_or(usize::MAX));
        DroppedParams {
            params,
            lines: applying.iter().map(|r| r.line).collect(),
            url: clean_param::clean(&path, &records),
        }
    }
}
