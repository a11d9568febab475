//! Request decoding: JSON bodies and query strings read with the path of
//! the offending field in every error, and the length checks every field
//! goes through.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::state::AppState;

/// A JSON body; a decoding error names the field (`pairs[3].url`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
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
        decode_json(&bytes).map(ApiJson)
    }
}

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

/// A query string; a decoding error names the parameter.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        let de = serde_urlencoded::Deserializer::new(form_urlencoded_parse(query));
        serde_path_to_error::deserialize(de)
            .map(ApiQuery)
            .map_err(|e| {
                let path = e.path().to_string();
                field_error(&path, e.into_inner().to_string(), false)
            })
    }
}

fn form_urlencoded_parse(query: &str) -> url::form_urlencoded::Parse<'_> {
    url::form_urlencoded::parse(query.as_bytes())
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

/// Checks a field's length in bytes.
pub fn bounded(field: &str, value: &str, max: usize) -> Result<(), ApiError> {
    if value.len() > max {
        return Err(ApiError::too_long(field, value.len(), max));
    }
    Ok(())
}

/// Checks a required text field: present, not blank, not too long.
pub fn required(field: &str, value: &str, max: usize) -> Result<(), ApiError> {
    bounded(field, value, max)?;
    if value.trim().is_empty() {
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
        assert!(required("agent", " ", 10).is_err());
    }
}
