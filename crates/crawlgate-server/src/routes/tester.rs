//! The web tester at `/`: one HTML page, a script, a stylesheet and the
//! icons, embedded in the binary (nothing is loaded from anywhere else), and
//! the crawler registry its picker offers.

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Limits;
use crate::error::ApiError;
use crate::state::AppState;

use super::check::PROFILE_NAMES;

const PAGE: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/tester.js");
const STYLE: &str = include_str!("../../assets/tester.css");
const ICON_SVG: &str = include_str!("../../assets/favicon.svg");
const ICON: &[u8] = include_bytes!("../../assets/favicon.ico");

/// Everything from this server, inline scripts included nowhere.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The tester page, with this server's limits written in, so that the page
/// can say which URLs it cannot test and why.
pub async fn page(State(state): State<AppState>) -> Response {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CONTENT_SECURITY_POLICY, POLICY),
            (CACHE_CONTROL, "no-cache"),
        ],
        page_with(state.limits()),
    )
        .into_response()
}

/// The page's text with `limits` in its `{{…}}` slots.
fn page_with(limits: &Limits) -> String {
    let slots = [
        ("{{max_urls}}", limits.max_pairs),
        ("{{max_url_chars}}", limits.max_url_chars),
        ("{{max_agent_chars}}", limits.max_agent_chars),
        // The server counts `robots_txt` in characters too.
        ("{{max_robots_chars}}", limits.max_robots_bytes),
        ("{{max_body_bytes}}", limits.max_body_bytes),
        (
            "{{refresh_seconds}}",
            usize::try_from(limits.refresh_interval.as_secs()).unwrap_or(usize::MAX),
        ),
    ];
    let mut page = PAGE.to_owned();
    for (slot, value) in slots {
        page = page.replace(slot, &value.to_string());
    }
    page.replace("{{profile_options}}", &profile_options())
        .replace("{{policy_purposes}}", &policy_purposes())
}

/// The policy panel's select per purpose, from the policy crate's one
/// list of purposes.
fn policy_purposes() -> String {
    crawlgate_policy::Purpose::ALL
        .iter()
        .map(|purpose| {
            let name = purpose.as_str();
            let mut words = purpose.describe().chars();
            let label: String = words
                .next()
                .map(|c| c.to_uppercase().chain(words).collect())
                .unwrap_or_default();
            format!(
                r#"<label for="policy-{name}">{label}</label><select id="policy-{name}" data-purpose="{name}"><option value="">keep the site's rules</option><option value="allow">allow</option><option value="deny">deny</option></select>"#
            )
        })
        .collect()
}

/// The profile select's options, from the one list of profiles, so that a
/// new profile appears in the page without touching it; first the default,
/// no profile: each crawler read as its operator's own parser reads files
/// (Bing's crawlers by bing, Yandex's robots by yandex), any other by google.
fn profile_options() -> String {
    std::iter::once(r#"<option value="">crawler's own</option>"#.to_owned())
        .chain(
            PROFILE_NAMES
                .iter()
                .map(|name| format!(r#"<option value="{name}">{name}</option>"#)),
        )
        .collect()
}

/// The icon browsers ask for at `/favicon.ico` (16 and 32 pixels).
pub async fn favicon() -> Response {
    (
        [
            (CONTENT_TYPE, "image/x-icon"),
            (CACHE_CONTROL, "public, max-age=86400"),
        ],
        ICON,
    )
        .into_response()
}

/// The page's script and stylesheet.
pub async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "tester.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "tester.css" => (STYLE, "text/css; charset=utf-8"),
        "favicon.svg" => (ICON_SVG, "image/svg+xml"),
        _ => return ApiError::not_found("path", "no such asset").into_response(),
    };
    ([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response()
}

/// A crawler of the registry (`crawlgate::registry`): how the crawler
/// reading reads its name, and who says so.
#[derive(Debug, Serialize, ToSchema)]
pub struct KnownCrawler {
    /// Its name as its operator writes it (`Googlebot-Image`); what the
    /// picker offers, read by the crawler reading.
    #[schema(example = "Googlebot-Image")]
    pub name: &'static str,
    /// The product token it looks for first.
    #[schema(example = "Googlebot-Image")]
    pub token: &'static str,
    /// Whether the name is itself a product token (a `User-agent` line can
    /// name it as written).
    pub name_is_token: bool,
    /// Other names lists use for it.
    pub aliases: &'static [&'static str],
    /// The tokens whose groups it obeys, in order, when no group names its
    /// own (`["Googlebot"]` for Googlebot-Image).
    #[schema(example = json!(["Googlebot"]))]
    pub fallbacks: &'static [&'static str],
    /// Whether it obeys the `*` group when no group names any of its tokens
    /// (AdsBot-Google does not).
    pub obeys_star: bool,
    /// `crawler`, `control` (a control token: it fetches nothing) or `user`
    /// (it fetches when a person asks).
    #[schema(example = "crawler")]
    pub kind: &'static str,
    /// Whether it obeys robots.txt: `yes`, `no`, `partial`, `unknown`.
    pub obeys: &'static str,
    /// Who runs it.
    #[schema(example = "Google")]
    pub operator: &'static str,
    /// What it fetches for (`search`, `ai-training` …).
    #[schema(example = "search")]
    pub purpose: &'static str,
    /// The purpose in words.
    pub purpose_described: &'static str,
    /// Whether it feeds AI (training, AI search, assistants, datasets).
    pub ai: bool,
    /// Its documentation address.
    pub docs: Option<&'static str>,
    /// The document its entry follows, and when it was read.
    pub source: CrawlerSource,
    /// A few words.
    pub note: &'static str,
}

/// The document a registry entry follows.
#[derive(Debug, Serialize, ToSchema)]
pub struct CrawlerSource {
    /// Its title (`Google's crawler documentation`).
    pub title: &'static str,
    /// Its address.
    pub url: &'static str,
    /// When the entry was checked against it.
    pub checked: &'static str,
}

impl KnownCrawler {
    fn of(c: &'static crawlgate::registry::Crawler) -> KnownCrawler {
        KnownCrawler {
            name: c.name,
            token: c.token,
            name_is_token: c.name_is_token(),
            aliases: c.aliases,
            fallbacks: c.fallbacks,
            obeys_star: c.obeys_star,
            kind: c.kind.as_str(),
            obeys: c.obeys.as_str(),
            operator: c.operator,
            purpose: c.purpose.as_str(),
            purpose_described: c.purpose.describe(),
            ai: c.purpose.is_ai(),
            docs: c.docs,
            source: CrawlerSource {
                title: c.source.title,
                url: c.source_url(),
                checked: c.checked,
            },
            note: c.note,
        }
    }
}

/// The crawler registry: every crawler `agent` may name, with the rules
/// the crawler reading applies to it, ordered by operator, purpose and
/// name (the tester's picker groups them so).
#[utoipa::path(
    get,
    path = "/v1/crawlers",
    responses((status = 200, description = "The crawlers of the registry", body = Vec<KnownCrawler>)),
    tag = "tester"
)]
pub async fn crawlers() -> Json<Vec<KnownCrawler>> {
    let mut all: Vec<&'static crawlgate::registry::Crawler> =
        crawlgate::registry::crawlers().iter().collect();
    all.sort_by_key(|c| (c.operator.to_ascii_lowercase(), c.purpose.as_str(), c.name));
    Json(all.into_iter().map(KnownCrawler::of).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_of_the_page_is_filled() {
        let limits = Limits {
            max_pairs: 7,
            ..Limits::default()
        };
        let page = page_with(&limits);
        assert!(!page.contains("{{"), "an unfilled slot");
        assert!(page.contains(r#"data-max-urls="7""#));
        assert!(page.contains(&format!(r#"data-max-url-chars="{}""#, limits.max_url_chars)));
    }

    #[test]
    fn the_profile_select_offers_every_profile_in_order() {
        let page = page_with(&Limits::default());
        let select = page.split(r#"<select id="profile">"#).nth(1).unwrap();
        let select = select.split("</select>").next().unwrap();
        let offered: Vec<&str> = select
            .split(r#"<option value=""#)
            .skip(1)
            .map(|option| option.split('"').next().unwrap())
            .collect();
        let all: Vec<&str> = std::iter::once("")
            .chain(crawlgate::Profile::ALL.iter().map(|p| p.name))
            .collect();
        assert_eq!(offered, all);
    }

    #[test]
    fn the_icon_is_an_icon_file() {
        // ICONDIR: reserved 0, type 1 (icon), then the image count.
        assert_eq!(&ICON[..4], &[0, 0, 1, 0]);
        assert!(u16::from_le_bytes([ICON[4], ICON[5]]) >= 1);
    }
}
