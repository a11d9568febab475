//! `GET /v1/variants`: the robots.txt of each host variant of a site
//! (http and https, with and without `www.`), as Search Console's
//! robots.txt report lists them: each with its own status, and whether its
//! file is the one of the origin asked about.

use axum::extract::State;
use axum::Json;
use crawlgate_answers::{Origin, Rules, Scheme};
use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use url::Host;
use utoipa::{IntoParams, ToSchema};

use crate::allowance::Client;
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::input::{ApiQuery, QueryParameters};
use crate::service::Lookup;
use crate::state::AppState;
use crate::verdict::FetchInfo;

use super::robots::origin_of;

/// Which site.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VariantsQuery {
    /// Any URL of the site (`https://www.example.com/`).
    #[param(
        max_length = 8192,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://",
        example = "https://www.example.com/"
    )]
    pub origin: String,
}

impl QueryParameters for VariantsQuery {
    const NAMES: &'static [&'static str] = &["origin"];
}

/// One host variant and what its robots.txt gave.
#[derive(Debug, Serialize, ToSchema)]
pub struct Variant {
    /// The variant's origin (`http://example.com`).
    pub origin: String,
    /// Its robots.txt URL.
    pub robots_url: String,
    /// Whether it is the origin asked about.
    pub asked: bool,
    /// What its fetch gave (cached when fresh); absent when it could not
    /// be made (see `error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<FetchInfo>,
    /// Why it could not be fetched (a refused address, the fetch allowance
    /// spent …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDetail>,
    /// Bytes of its file (0 without one).
    pub size: u64,
    /// Whether crawlers read the same thing here as on the origin asked
    /// about: the same outcome and, with a file, the same bytes. Absent
    /// when either could not be fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_as_asked: Option<bool>,
}

/// The variants of a site.
#[derive(Debug, Serialize, ToSchema)]
pub struct Variants {
    /// The origin asked about.
    pub origin: String,
    /// Its variants, the asked one included: https before http, the
    /// `www.` host before the bare one (an IP address has no `www.`).
    pub variants: Vec<Variant>,
}

/// The origins of the site of `origin`: each scheme, with and without
/// `www.`. A port other than the scheme's default is kept for both schemes
/// (a test server on one port); a default port becomes the other scheme's.
pub fn variants_of(origin: &Origin) -> Vec<Origin> {
    let hosts = match origin.host() {
        Host::Domain(name) => {
            let bare = name.strip_prefix("www.").unwrap_or(name);
            vec![format!("www.{bare}"), bare.to_owned()]
        }
        _ => vec![origin.host_str()],
    };
    let explicit = origin.port() != origin.scheme().default_port();
    let mut all = Vec::with_capacity(4);
    for scheme in [Scheme::Https, Scheme::Http] {
        for host in &hosts {
            let url = match explicit {
                true => format!("{}://{host}:{}/", scheme.as_str(), origin.port()),
                false => format!("{}://{host}/", scheme.as_str()),
            };
            if let Ok(variant) = Origin::from_url(&url) {
                if !all.contains(&variant) {
                    all.push(variant);
                }
            }
        }
    }
    all
}

/// What crawlers read from a lookup: its outcome and its file's bytes.
fn reading(lookup: &Lookup) -> (crawlgate_answers::OutcomeKind, Option<&[u8]>) {
    let body = match &lookup.entry.outcome.rules {
        Rules::Conditional(copy) => Some(copy.body()),
        _ => None,
    };
    (lookup.entry.outcome.kind(), body)
}

/// The robots.txt of each host variant of a site, fetched concurrently.
#[utoipa::path(
    get,
    path = "/v1/variants",
    params(VariantsQuery),
    responses(
        (status = 200, description = "Each variant's fetch (or why it could not be made), and whether its file is the asked origin's", body = Variants),
        (status = 400, description = "A missing or invalid origin", body = ErrorBody),
    ),
    tag = "cache"
)]
pub async fn variants(
    State(state): State<AppState>,
    Client(client): Client,
    ApiQuery(query): ApiQuery<VariantsQuery>,
) -> Result<Json<Variants>, ApiError> {
    let origin = origin_of(&state, &query.origin)?;
    if origin.scheme() == Scheme::Ftp {
        return Err(ApiError::invalid(
            "origin",
            "an http or https URL (a site's host variants are its http and https origins)",
        ));
    }
    let all = variants_of(&origin);
    let service = state.service();
    // At most four lookups, each through the cache and the one fetch per
    // origin at a time; each counts against the client's allowance.
    let allowance = state.allowance(client);
    let lookups = join_all(all.iter().map(|o| service.lookup(o, &allowance))).await;
    let asked = all
        .iter()
        .zip(&lookups)
        .find(|(o, _)| **o == origin)
        .and_then(|(_, l)| l.as_ref().ok())
        .map(reading);
    let variants = all
        .iter()
        .zip(&lookups)
        .map(|(variant, lookup)| Variant {
            origin: variant.to_string(),
            robots_url: variant.robots_url().to_string(),
            asked: *variant == origin,
            fetch: lookup
                .as_ref()
                .ok()
                .map(|l| FetchInfo::of(&l.entry, l.from_cache)),
            error: lookup.as_ref().err().map(|error| {
                let mut detail = error.clone().into_api("origin").body().error;
                detail.field = None;
                detail
            }),
            size: lookup
                .as_ref()
                .ok()
                .and_then(|l| reading(l).1)
                .map_or(0, |b| b.len() as u64),
            same_as_asked: match (&asked, lookup) {
                (Some(asked), Ok(l)) => Some(*asked == reading(l)),
                _ => None,
            },
        })
        .collect();
    Ok(Json(Variants {
        origin: origin.to_string(),
        variants,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(url: &str) -> Vec<String> {
        variants_of(&Origin::from_url(url).unwrap())
            .iter()
            .map(|o| o.to_string())
            .collect()
    }

    #[test]
    fn a_site_has_four_variants_and_an_address_two() {
        let www = [
            "https://www.example.com",
            "https://example.com",
            "http://www.example.com",
            "http://example.com",
        ];
        assert_eq!(names("https://www.example.com/a"), www);
        assert_eq!(names("http://example.com/"), www);
        assert_eq!(
            names("http://site.test:8080/"),
            [
                "https://www.site.test:8080",
                "https://site.test:8080",
                "http://www.site.test:8080",
                "http://site.test:8080",
            ]
        );
        assert_eq!(
            names("http://127.0.0.1:9/"),
            ["https://127.0.0.1:9", "http://127.0.0.1:9"]
        );
    }
}
