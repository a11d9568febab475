//! Yandex's `Clean-param` as every front end writes it: which query
//! parameters Yandex drops from a URL, on which lines' word, and the URL it
//! crawls instead (`crawlgate check --json` and `explain --json`).

use crawlgate::{DroppedParams, RobotsTxt};
use serde::Serialize;

/// What a file's `Clean-param` records drop from one URL. Its fields are in
/// the order of their names.
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_answers::CleanParamsShown;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nClean-param: sid /forum/\n");
/// let shown = CleanParamsShown::of(&robots, "/forum/t?sid=4&page=2").unwrap();
/// assert_eq!(
///     serde_json::to_string(&shown).unwrap(),
///     r#"{"dropped":["sid=4"],"lines":[2],"url":"/forum/t?page=2"}"#
/// );
/// assert!(CleanParamsShown::of(&robots, "/forum/t?page=2").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CleanParamsShown {
    /// The `name=value` pairs Yandex drops, in the URL's order.
    pub dropped: Vec<String>,
    /// The lines of the `Clean-param` records that drop them.
    pub lines: Vec<u32>,
    /// The path and query Yandex crawls instead.
    pub url: String,
}

impl CleanParamsShown {
    /// What `robots`' `Clean-param` records drop from `url`; `None` when
    /// they drop nothing.
    pub fn of(robots: &RobotsTxt, url: &str) -> Option<CleanParamsShown> {
        let DroppedParams { params, lines, url } = robots.clean_params_for(url);
        (!params.is_empty()).then_some(CleanParamsShown {
            dropped: params,
            lines,
            url,
        })
    }
}
