//! `DELETE /v1/schedule`: forget an origin's politeness reservations (a
//! crawler that reserved slots it will not use gives them back).

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use super::robots::{origin_of, OriginQuery};
use crate::error::{ApiError, ErrorBody};
use crate::input::ApiQuery;
use crate::state::AppState;

/// What a reset did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScheduleReset {
    /// The origin.
    pub origin: String,
    /// Whether it had reservations.
    pub cleared: bool,
}

/// Forgets the reservations on an origin's politeness schedule, for every
/// instance sharing the store.
#[utoipa::path(
    delete,
    path = "/v1/schedule",
    params(OriginQuery),
    responses(
        (status = 200, description = "The reservations are forgotten: the next request may be sent now", body = ScheduleReset,
         example = json!({"origin": "https://example.com", "cleared": true})),
        (status = 400, description = "A missing or invalid origin", body = ErrorBody),
    ),
    tag = "sidecar"
)]
pub async fn reset(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<OriginQuery>,
) -> Result<Json<ScheduleReset>, ApiError> {
    let origin = origin_of(&state, &query.origin)?;
    let cleared = state.service().store().reset_schedule(&origin).await?;
    Ok(Json(ScheduleReset {
        origin: origin.to_string(),
        cleared,
    }))
}
