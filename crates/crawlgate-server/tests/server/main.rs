//! Integration tests of `crawlgate serve`: the API on loopback against a
//! scripted origin, a fleet of two instances on a real Redis, restarts of
//! the embedded store, and the tester page in headless Chromium.

mod api;
// The test harness starts tests in the order of their names: schemathesis,
// the longest (half a minute, and its install from PyPI on a clean clone),
// is named to start among the first, beside the others rather than after.
mod api_schemathesis;
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
mod support;
mod variants;
mod verify;
