//! One error type for every route: a status and a JSON body that names the
//! field and the problem.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use crawlgate_fetch::FetchError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::StoreError;

/// What went wrong with a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable code (`invalid_field`, `missing_field`, `too_large` …).
    pub code: &'static str,
    /// The field at fault (`pairs[3].url`), when one is.
    pub field: Option<String>,
    /// What is wrong, for people.
    pub problem: String,
    /// Seconds after which asking again may succeed (`Retry-After`).
    pub retry_after: Option<u64>,
}

/// The JSON body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// The error inside [`ErrorBody`].
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable code: `bad_request`, `bad_json`, `missing_field`,
    /// `invalid_field`, `too_large`, `too_many`, `refused_address`,
    /// `unsupported`, `rate_limited`, `fetch_limit`, `not_found`,
    /// `method_not_allowed`, `timeout`, `busy`, `unavailable`, `internal`.
    pub code: &'static str,
    /// The field at fault (`pairs[3].url`), when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong.
    pub problem: String,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, problem: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            field: None,
            problem: problem.into(),
            retry_after: None,
        }
    }

    /// A field with an unusable value (400).
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_field", problem).at(field)
    }

    /// A required field that is absent (400).
    pub fn missing(field: impl Into<String>, problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "missing_field", problem).at(field)
    }

    /// A body that is not JSON (400).
    pub fn bad_json(problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_json", problem)
    }

    /// A field longer than allowed (400); `unit` is what is counted
    /// (`characters`, `bytes`).
    pub fn too_long(field: impl Into<String>, length: usize, max: usize, unit: &str) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "too_large",
            format!("is {length} {unit} long; at most {max} are accepted"),
        )
        .at(field)
    }

    /// A request target longer than allowed (414).
    pub fn uri_too_long(length: usize, max: usize) -> ApiError {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            "too_large",
            format!("the request target is {length} bytes long; at most {max} are accepted (send long inputs in a POST body)"),
        )
    }

    /// A body that did not arrive in time (408).
    pub fn body_timeout(limit: std::time::Duration) -> ApiError {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!(
                "the request body did not arrive within {} (--body-timeout)",
                humantime::format_duration(limit)
            ),
        )
    }

    /// A body whose reading failed (400).
    pub fn bad_body(problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", problem)
    }

    /// A method the route does not answer (405).
    pub fn method_not_allowed(method: &str, allowed: &str) -> ApiError {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{method} is not answered here; use {allowed}"),
        )
    }

    /// Too much asked of the server at once: no slot, memory or CPU within
    /// the queue timeout (503, ask again after `retry_after` seconds).
    pub fn busy(problem: impl Into<String>, retry_after: u64) -> ApiError {
        let mut error = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", problem);
        error.retry_after = Some(retry_after.max(1));
        error
    }

    /// A robots.txt not fetched because this request or this client reached
    /// its fetch allowance (429).
    pub fn fetch_limit(problem: impl Into<String>, retry_after: u64) -> ApiError {
        let mut error = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "fetch_limit", problem);
        error.retry_after = Some(retry_after.max(1));
        error
    }

    /// A list with more items than allowed (400).
    pub fn too_many(field: impl Into<String>, count: usize, max: usize) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "too_many",
            format!("has {count} items; at most {max} are accepted in one request"),
        )
        .at(field)
    }

    /// A request body over the limit (413).
    pub fn body_too_large(max: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the request body is larger than {max} bytes"),
        )
    }

    /// Nothing known for this key (404).
    pub fn not_found(field: impl Into<String>, problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", problem).at(field)
    }

    /// Asked again too soon (429).
    pub fn rate_limited(problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", problem)
    }

    /// The cache backend failed (503).
    pub fn unavailable(problem: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", problem)
    }

    /// Names the field at fault.
    pub fn at(mut self, field: impl Into<String>) -> ApiError {
        self.field = Some(field.into());
        self
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code,
                field: self.field.clone(),
                problem: self.problem.clone(),
            },
        }
    }

    /// A fetch crate error about the URL in `field`.
    pub fn from_fetch(field: &str, error: FetchError) -> ApiError {
        match error {
            FetchError::Scope(scope) => ApiError::invalid(field, scope.to_string()),
            refused @ FetchError::AddressRefused { .. } => ApiError::new(
                StatusCode::FORBIDDEN,
                "refused_address",
                refused.to_string(),
            )
            .at(field),
            unsupported @ FetchError::UnsupportedScheme { .. } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported",
                unsupported.to_string(),
            )
            .at(field),
            other => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                other.to_string(),
            ),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        ApiError::unavailable(format!("cache backend: {error}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
