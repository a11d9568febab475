//! Integration tests of `crawlgate serve`: the API on loopback against a
//! scripted origin, a fleet of two instances on a real Redis, restarts of
//! the embedded store, and the tester page in headless Chromium.

mod api;
mod architecture;
mod browser;
mod fleet;
mod google_suite;
mod hostile;
mod memory;
mod policy;
mod politeness;
mod readings;
mod restart;
mod schemathesis;
mod support;
mod variants;
mod verify;
