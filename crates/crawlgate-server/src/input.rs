//! Request decoding: JSON bodies and query strings read with the path of
//! the offending field in every error, and the length checks every field
//! goes through.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::state::AppState;

/// A JSON body; a decoding error names the field (`pairs[3].url`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned + Send + 'static> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let json = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_none_or(|ct| {
                let mime = ct.split(';').next().unwrap_or("").trim();
                mime.eq_ignore_ascii_case("application/json") || mime.ends_with("+json")
            });
        if !json {
            return Err(ApiError::bad_json(
                "the body must be JSON (Content-Type: application/json)",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::body_too_large(state.limits().max_body_bytes)
            } else {
                ApiError::bad_json(rejection.body_text())
            }
        })?;
        if bytes.len() < DECODE_INLINE_BYTES {
            return decode_json(&bytes).map(ApiJson);
        }
        // Decoding megabytes of JSON takes milliseconds: off the async
        // workers, which answer the light requests meanwhile.
        tokio::task::spawn_blocking(move || decode_json(&bytes).map(ApiJson))
            .await
            .map_err(|e| ApiError::unavailable(format!("decoding the body: {e}")))?
    }
}

/// Bodies up to this size are decoded on the async worker that received
/// them (a few microseconds); larger ones on a blocking thread.
const DECODE_INLINE_BYTES: usize = 64 << 10;

/// Decodes a JSON document, naming the field at fault on error.
pub fn decode_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => {
            return Err(ApiError::bad_json(
                "the body is empty; a JSON object is expected",
            ))
        }
        // serde would read an array as the object's fields in order, and
        // blame `[0]`: say what is expected instead.
        Some(b'{') => {}
        Some(_) => return Err(ApiError::bad_json("the body must be a JSON object ({…})")),
    }
    // The common case decodes without tracking paths; only a failure is
    // decoded again, with tracking, to name the field.
    if let Ok(value) = serde_json::from_slice(bytes) {
        return Ok(value);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        field_error(
            &path,
            inner.to_string(),
            inner.is_syntax() || inner.is_eof(),
        )
    })?;
    de.end().map_err(|e| {
        ApiError::bad_json(format!("trailing characters after the JSON value: {e}"))
    })?;
    Ok(value)
}

/// The parameters a query string type reads; the others are ignored and
/// named in the `Crawlgate-Ignored-Parameters` response header (a
/// cache-buster such as `&utm=1` is not an error).
pub trait QueryParameters {
    /// The names read.
    const NAMES: &'static [&'static str];
}

/// A query string; a decoding error names the parameter. Unknown
/// parameters are ignored and reported (see [`QueryParameters`]).
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + QueryParameters> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        let mut ignored = Vec::new();
        let mut known = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
            if T::NAMES.contains(&name.as_ref()) {
                known.append_pair(&name, &value);
            } else {
                ignored.push(name.into_owned());
            }
        }
        let known = known.finish();
        let de = serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(known.as_bytes()));
        let decoded = serde_path_to_error::deserialize(de);
        if !ignored.is_empty() {
            if let Some(slot) = parts.extensions.get::<IgnoredParameters>() {
                slot.add(ignored);
            }
        }
        decoded.map(ApiQuery).map_err(|e| {
            let path = e.path().to_string();
            field_error(&path, e.into_inner().to_string(), false)
        })
    }
}

/// Where a route's query decoding leaves the names of the parameters it
/// ignored, for the response header.
#[derive(Clone, Debug, Default)]
pub struct IgnoredParameters(Arc<Mutex<Vec<String>>>);

/// The response header that names ignored query parameters.
pub const IGNORED_PARAMETERS_HEADER: &str = "crawlgate-ignored-parameters";

impl IgnoredParameters {
    fn add(&self, names: Vec<String>) {
        let mut held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for name in names {
            if !held.contains(&name) {
                held.push(name);
            }
        }
    }

    /// The header value: the names, comma-separated, percent-encoded where
    /// they are not plain characters, at most 32 names of 64 bytes.
    pub fn header(&self) -> Option<HeaderValue> {
        let held = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if held.is_empty() {
            return None;
        }
        let mut out = String::new();
        for name in held.iter().take(32) {
            if !out.is_empty() {
                out.push_str(", ");
            }
            let mut end = name.len().min(64);
            while !name.is_char_boundary(end) {
                end -= 1;
            }
            for byte in name[..end].bytes() {
                if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+;=:@/?[]".contains(&byte) {
                    out.push(byte as char);
                } else {
                    out.push_str(&format!("%{byte:02X}"));
                }
            }
        }
        HeaderValue::from_str(&out).ok()
    }
}

/// Turns a serde message into an error naming its field: `missing field
/// `agent`` names `agent` (under the path of the object that lacks it).
fn field_error(path: &str, message: String, syntax: bool) -> ApiError {
    if syntax {
        return ApiError::bad_json(format!("not valid JSON: {message}"));
    }
    let message = strip_position(&message);
    // The path may or may not already end with the field's name.
    let join = |name: &str| match path {
        "." | "" => name.to_owned(),
        full if full == name || full.ends_with(&format!(".{name}")) => full.to_owned(),
        parent => format!("{parent}.{name}"),
    };
    if let Some(name) = quoted_after(message, "missing field `") {
        return ApiError::missing(join(name), format!("is required ({message})"));
    }
    if let Some(name) = quoted_after(message, "unknown field `") {
        return ApiError::invalid(join(name), message.to_owned());
    }
    let field = if path == "." {
        String::new()
    } else {
        path.to_owned()
    };
    if field.is_empty() {
        ApiError::bad_json(message.to_owned())
    } else {
        ApiError::invalid(field, message.to_owned())
    }
}

fn quoted_after<'m>(message: &'m str, prefix: &str) -> Option<&'m str> {
    let rest = message.strip_prefix(prefix)?;
    rest.split('`').next()
}

/// serde_json ends messages with ` at line 1 column 20`; the field name
/// says more.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    }
}

/// Checks a field's length in characters (as JSON Schema's `maxLength`
/// counts).
pub fn bounded(field: &str, value: &str, max: usize) -> Result<(), ApiError> {
    // At most 4 bytes a character: only a long value needs counting.
    if value.len() > max {
        let chars = value.chars().count();
        if chars > max {
            return Err(ApiError::too_long(field, chars, max, "characters"));
        }
    }
    Ok(())
}

/// Checks a required text field: not empty, not too long.
pub fn required(field: &str, value: &str, max: usize) -> Result<(), ApiError> {
    bounded(field, value, max)?;
    if value.is_empty() {
        return Err(ApiError::invalid(field, "must not be empty"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Pair {
        url: String,
        agent: String,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Batch {
        pairs: Vec<Pair>,
    }

    #[test]
    fn errors_name_the_field() {
        let e = decode_json::<Batch>(br#"{"pairs":[{"url":"a","agent":"b"},{"url":"a"}]}"#)
            .unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("missing_field", Some("pairs[1].agent"))
        );
        let e = decode_json::<Batch>(br#"{"pairs":[{"url":5,"agent":"b"}]}"#).unwrap_err();
        assert_eq!(
            (e.code, e.field.as_deref()),
            ("invalid_field", Some("pairs[0].url"))
        );
        assert!(e.problem.contains("expected a string"), "{}", e.problem);
        let e = decode_json::<Batch>(br#"{"pairs":[{"url":"a","agent":"b","x":1}]}"#).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("pairs[0].x"));
        let e = decode_json::<Batch>(br#"{"pairs":[{"url""#).unwrap_err();
        assert_eq!(e.code, "bad_json");
        let e = decode_json::<Batch>(b"  ").unwrap_err();
        assert_eq!(e.code, "bad_json");
        let e = decode_json::<Batch>(br#"{"pairs":[]} x"#).unwrap_err();
        assert_eq!(e.code, "bad_json");
        let e = decode_json::<Batch>(br#""text""#).unwrap_err();
        assert_eq!(e.code, "bad_json");
    }

    #[test]
    fn limits() {
        assert!(bounded("url", &"x".repeat(10), 10).is_ok());
        let e = bounded("url", &"x".repeat(11), 10).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), ("too_large", Some("url")));
        assert!(e.problem.contains("11 characters"), "{}", e.problem);
        // Characters are counted, not bytes: ten 4-byte characters fit.
        assert!(bounded("agent", &"🦀".repeat(10), 10).is_ok());
        assert!(required("url", "", 10).is_err());
        assert!(required("agent", " ", 10).is_ok());
    }
}
