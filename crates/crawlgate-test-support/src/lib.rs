//! What crawlgate's test suites share, written once: a seeded random
//! generator ([`Rng`]), Google's matching algorithm as the reference the
//! fast matchers are checked against ([`reference_matches`]), the lint
//! fixtures ([`lint_fixtures`]), the import-graph checks of the
//! architecture tests ([`architecture`]), and an access log with known
//! truth for the audit ([`access_log`]), robots.txt files the crawlers'
//! operators read differently ([`readings`]), and where tests leave files
//! for a person to look at ([`target_dir`]).
//!
//! It depends on nothing, so any crate's unit or integration tests may use
//! it without a second copy of a crawlgate crate.
//!
//! ```
//! use crawlgate_test_support::{reference_matches, Rng};
//!
//! let mut rng = Rng::new(7);
//! assert!(rng.below(10) < 10);
//! assert!(reference_matches(b"/a*c$", b"/abc"));
//! assert!(!reference_matches(b"/a*c$", b"/abcd"));
//! ```

pub mod access_log;
pub mod architecture;
pub mod lint_fixtures;
pub mod readings;
mod reference;
mod rng;
mod target;

pub use reference::reference_matches;
pub use rng::Rng;
pub use target::target_dir;
