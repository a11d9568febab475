//! How many robots.txt files one request and one client may have fetched:
//! a client that asks about a thousand new origins at once must not start a
//! thousand fetches, nor fill the cache for everyone else. A lookup that
//! the cache answers costs nothing; one that needs a fetch takes one from
//! the request's allowance and one from its client's (a bucket refilled
//! over a minute). Past either, the origin is answered "not fetched: limit".

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::error::ApiError;

/// The peer address of a request's connection, set by the server's accept
/// loop (absent when the router is driven without a socket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The client of a request, as an extractor: its address, when the server's
/// accept loop recorded one.
#[derive(Clone, Copy, Debug)]
pub struct Client(pub Option<IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Client(parts.extensions.get::<ClientAddr>().map(|c| c.0)))
    }
}

/// Clients remembered at most; past it, those whose bucket is full again
/// are forgotten (they lose nothing).
const MAX_CLIENTS: usize = 100_000;

/// Per-client buckets of fetches, refilled at `per_minute` a minute.
#[derive(Debug)]
pub struct ClientFetches {
    per_minute: usize,
    buckets: Mutex<HashMap<Option<IpAddr>, Bucket>>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl ClientFetches {
    /// Buckets of `per_minute` fetches.
    pub fn new(per_minute: usize) -> ClientFetches {
        ClientFetches {
            per_minute: per_minute.max(1),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn refill(&self, bucket: &mut Bucket, now: Instant) {
        let capacity = self.per_minute as f64;
        let elapsed = now.duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * capacity / 60.0).min(capacity);
        bucket.at = now;
    }

    /// Takes one fetch from `client`'s bucket, or says in how many seconds
    /// one will be there.
    fn take(&self, client: Option<IpAddr>) -> Result<(), u64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&client) {
            let capacity = self.per_minute as f64;
            buckets.retain(|_, b| {
                let elapsed = now.duration_since(b.at).as_secs_f64();
                b.tokens + elapsed * capacity / 60.0 < capacity
            });
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: self.per_minute as f64,
            at: now,
        });
        self.refill(bucket, now);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let missing = 1.0 - bucket.tokens;
            Err((missing * 60.0 / self.per_minute as f64).ceil().max(1.0) as u64)
        }
    }
}

/// One request's right to have robots.txt files fetched.
#[derive(Debug)]
pub struct FetchAllowance<'a> {
    left: AtomicUsize,
    max: usize,
    client: Option<IpAddr>,
    clients: &'a ClientFetches,
}

impl<'a> FetchAllowance<'a> {
    /// At most `max` fetches for this request, within `client`'s bucket.
    pub fn new(max: usize, client: Option<IpAddr>, clients: &'a ClientFetches) -> Self {
        FetchAllowance {
            left: AtomicUsize::new(max),
            max,
            client,
            clients,
        }
    }

    /// Takes one fetch, or the "not fetched: limit" error.
    pub fn take(&self) -> Result<(), ApiError> {
        let took = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        if took.is_err() {
            return Err(ApiError::fetch_limit(
                format!(
                    "not fetched: limit of {} new origins per request (--max-fetches-per-request); ask about the rest in another request",
                    self.max
                ),
                1,
            ));
        }
        self.clients.take(self.client).map_err(|seconds| {
            // The request's own allowance is not spent by a refusal.
            self.left.fetch_add(1, Ordering::Relaxed);
            ApiError::fetch_limit(
                format!(
                    "not fetched: limit of {} new origins per minute for this client (--max-fetches-per-client); ask again in {seconds} s",
                    self.clients.per_minute
                ),
                seconds,
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_and_a_client_have_their_allowances() {
        let clients = ClientFetches::new(5);
        let a: Option<IpAddr> = Some("10.0.0.1".parse().unwrap());
        let request = FetchAllowance::new(3, a, &clients);
        assert!((0..3).all(|_| request.take().is_ok()));
        let refused = request.take().unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code),
            (429, "fetch_limit")
        );
        assert!(
            refused.problem.starts_with("not fetched: limit"),
            "{}",
            refused.problem
        );
        // The client has two left, whatever request asks.
        let next = FetchAllowance::new(10, a, &clients);
        assert!(next.take().is_ok() && next.take().is_ok());
        let refused = next.take().unwrap_err();
        assert!(
            refused.problem.contains("per minute"),
            "{}",
            refused.problem
        );
        assert_eq!(refused.retry_after, Some(12));
        // Another client is not affected.
        let other = FetchAllowance::new(10, Some("10.0.0.2".parse().unwrap()), &clients);
        assert!(other.take().is_ok());
    }
}
