//! Admission: what every request goes through before its handler. Its
//! target is bounded (414), its body is read whole within the body timeout
//! (408) and the size limit (413), counted against the memory budget's body
//! pool as it arrives; only then does it take one of the request slots, so
//! clients whose bodies are still arriving hold no slot. The names of the
//! query parameters the handler ignored go back in a response header.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use crate::error::ApiError;
use crate::input::{IgnoredParameters, IGNORED_PARAMETERS_HEADER};
use crate::state::AppState;

/// The admission middleware (see the module's documentation).
pub async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    match admitted(&state, request, next).await {
        Ok(response) | Err(response) => response,
    }
}

async fn admitted(state: &AppState, request: Request, next: Next) -> Result<Response, Response> {
    let limits = state.limits();
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |target| target.as_str().len());
    if target > limits.max_uri_bytes {
        return Err(ApiError::uri_too_long(target, limits.max_uri_bytes).into_response());
    }
    let max = limits.max_body_bytes;
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let mut deadline = tokio::time::Instant::now() + limits.body_timeout;
    if declared.is_some_and(|n| n > max as u64) {
        let (_, body) = request.into_parts();
        return Err(too_large(body, max, deadline).await);
    }

    let (mut parts, mut body) = request.into_parts();
    let budget = state.budget();
    let mut hold = budget.body();
    let timed_out = || ApiError::body_timeout(limits.body_timeout).into_response();
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(timed_out()),
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                return Err(
                    ApiError::bad_body(format!("the body could not be read: {e}")).into_response(),
                )
            }
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let len = bytes.len() + data.len();
        if len > max {
            drop(bytes);
            return Err(too_large(body, max, deadline).await);
        }
        if len > bytes.capacity() {
            // Grown as a vector grows (doubling, but never past the declared
            // length), with the memory counted before it is taken: twice,
            // for the copy that decoding the JSON makes of it while the
            // request waits. Waiting for that memory is the server's doing,
            // not the client's: it is bounded by the queue timeout (503),
            // and the body timeout is moved on by as long.
            let ceiling = declared.map_or(max, |n| (n as usize).min(max));
            let capacity = len.max((bytes.capacity() * 2).min(ceiling));
            let waiting = tokio::time::Instant::now();
            if tokio::time::timeout(
                limits.queue_timeout,
                hold.grow_to(capacity.saturating_mul(2)),
            )
            .await
            .is_err()
            {
                return Err(ApiError::busy(
                    "the server is busy: no memory for the body within the queue timeout; ask again",
                    limits.queue_timeout.as_secs().max(1),
                )
                .into_response());
            }
            deadline += waiting.elapsed();
            bytes.reserve_exact(capacity - bytes.len());
        }
        bytes.extend_from_slice(&data);
    }
    drop(body);

    let ignored = IgnoredParameters::default();
    parts.extensions.insert(ignored.clone());
    let request = Request::from_parts(parts, Body::from(bytes));
    let slot = budget.slot().await.map_err(IntoResponse::into_response)?;
    let mut response = next.run(request).await;
    drop(slot);
    drop(hold.keep());
    if let Some(names) = ignored.header() {
        response
            .headers_mut()
            .insert(IGNORED_PARAMETERS_HEADER, names);
    }
    Ok(response)
}

/// The 413 answer, once the rest of an oversized body is read and dropped
/// (up to four times the limit, within the body timeout): a client that
/// sends its body before reading the answer then gets to read it, instead
/// of a reset connection. Past that, the connection is closed.
async fn too_large(mut body: Body, max: usize, deadline: tokio::time::Instant) -> Response {
    let mut left = max.saturating_mul(4);
    while let Ok(Some(Ok(frame))) = tokio::time::timeout_at(deadline, body.frame()).await {
        let len = frame.data_ref().map_or(0, |d| d.len());
        if len > left {
            break;
        }
        left -= len;
    }
    ApiError::body_too_large(max).into_response()
}
