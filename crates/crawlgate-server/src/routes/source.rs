//! `{robots_txt | url}`: the file a check or lint is about, pasted or
//! fetched (or reused from the cache) by URL.

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use crawlgate_answers::{Origin, RobotsSource};
use serde::Serialize;
use utoipa::ToSchema;

use crate::allowance::FetchAllowance;
use crate::error::ApiError;
use crate::input::{bounded, required};
use crate::state::AppState;
use crate::verdict::FetchInfo;

/// Where a fetched file came from.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SourceInfo {
    /// The origin.
    pub origin: String,
    /// The robots.txt URL.
    pub robots_url: String,
    /// What the fetch gave.
    pub fetch: FetchInfo,
}

/// What a request names its file with: the text, its bytes in base64, or
/// a URL of its site.
#[derive(Debug, Default)]
pub struct Given {
    /// The file's text.
    pub robots_txt: Option<String>,
    /// The file's bytes, in base64.
    pub robots_txt_b64: Option<String>,
    /// A URL of the site whose robots.txt to fetch.
    pub url: Option<String>,
}

/// Standard base64 with its padding, trailing bits ignored: the set of
/// strings the schema's pattern for `robots_txt_b64` describes.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical),
);

/// The pattern of `robots_txt_b64` in the API description.
pub const BASE64_PATTERN: &str = "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

/// The longest `robots_txt_b64` accepted: what `max` bytes take in base64.
pub fn b64_max_chars(max: usize) -> usize {
    max.div_ceil(3) * 4
}

/// Decodes `robots_txt_b64`, of at most [`b64_max_chars`] characters (so
/// at most `max` bytes, give or take the two a last group may add).
fn decode_b64(encoded: &str, max: usize) -> Result<Vec<u8>, ApiError> {
    // Checked before decoding: nothing larger than allowed is allocated.
    let max_chars = b64_max_chars(max);
    if encoded.len() > max_chars {
        return Err(ApiError::too_long(
            "robots_txt_b64",
            encoded.len(),
            max_chars,
            "characters",
        ));
    }
    BASE64.decode(encoded).map_err(|e| {
        ApiError::invalid(
            "robots_txt_b64",
            format!("is not standard base64 with padding: {e}"),
        )
    })
}

/// The file to work on: the answers crate's one robots.txt type (read
/// under each profile once, when asked), and where a fetched one came from.
pub struct Source {
    /// The pasted bytes, or the fetched outcome.
    pub robots: RobotsSource,
    /// Origin, robots.txt URL and fetch facts, when it was fetched.
    pub info: Option<SourceInfo>,
}

impl Source {
    /// Resolves the request's `robots_txt`, `robots_txt_b64` or `url`
    /// (exactly one); a fetch takes one from `allowance`.
    pub async fn resolve(
        state: &AppState,
        given: Given,
        allowance: &FetchAllowance<'_>,
    ) -> Result<Source, ApiError> {
        let limits = state.limits();
        match (given.robots_txt, given.robots_txt_b64, given.url) {
            (Some(body), None, None) => {
                bounded("robots_txt", &body, limits.max_robots_bytes)?;
                Ok(Source::pasted(body.into_bytes()))
            }
            (None, Some(encoded), None) => decode_b64(&encoded, limits.max_robots_bytes).map(Source::pasted),
            (None, None, Some(url)) => {
                required("url", &url, limits.max_url_chars)?;
                let origin = Origin::from_url(&url).map_err(|e| ApiError::invalid("url", e.to_string()))?;
                let lookup = state
                    .service()
                    .lookup(&origin, allowance)
                    .await
                    .map_err(|e| e.into_api("url"))?;
                Ok(Source {
                    robots: RobotsSource::fetched(lookup.entry.outcome.clone()),
                    info: Some(SourceInfo {
                        origin: origin.to_string(),
                        robots_url: origin.robots_url().to_string(),
                        fetch: FetchInfo::of(&lookup.entry, lookup.from_cache),
                    }),
                })
            }
            (None, None, None) => Err(ApiError::missing(
                "robots_txt",
                "give robots_txt (the file's text), robots_txt_b64 (its bytes in base64) or url (a URL of the site whose robots.txt to fetch)",
            )),
            (text, b64, url) => {
                let given: Vec<&str> = [
                    text.as_ref().map(|_| "robots_txt"),
                    b64.as_ref().map(|_| "robots_txt_b64"),
                    url.as_ref().map(|_| "url"),
                ]
                .into_iter()
                .flatten()
                .collect();
                Err(ApiError::invalid(
                    given.join(", "),
                    format!(
                        "give one of robots_txt, robots_txt_b64 and url, not {}",
                        given.join(" and ")
                    ),
                ))
            }
        }
    }

    fn pasted(bytes: Vec<u8>) -> Source {
        Source {
            robots: RobotsSource::from_bytes(bytes),
            info: None,
        }
    }

    /// The bytes to parse, if there are any (a fetched full allow or full
    /// disallow has none).
    pub fn body(&self) -> Option<&[u8]> {
        self.robots.body()
    }

    /// Bytes of the file (0 for a fetched full allow or disallow).
    pub fn len(&self) -> usize {
        self.robots.len()
    }

    /// The fetch facts, for a fetched file.
    pub fn info(&self) -> Option<&SourceInfo> {
        self.info.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_read_as_its_pattern_says() {
        assert_eq!(decode_b64("77u/", 10).unwrap(), b"\xEF\xBB\xBF");
        assert_eq!(decode_b64("", 10).unwrap(), b"");
        assert_eq!(
            decode_b64("QR==", 10).unwrap(),
            b"A",
            "trailing bits are ignored"
        );
        for bad in ["QQ", "Q===", "QQ=", "a b=", "QUJD\n"] {
            let e = decode_b64(bad, 10).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("robots_txt_b64"), "{bad}");
        }
        let e = decode_b64(&"QUJD".repeat(5), 10).unwrap_err();
        assert_eq!(e.code, "too_large");
    }
}
