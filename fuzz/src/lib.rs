//! The checks behind crawlgate's fuzz targets, shared by the targets
//! (`fuzz_targets/*.rs`, run by `cargo +nightly fuzz run <target>`) and the
//! stable replay test (`tests/replay.rs`), so a reproducer fails the same
//! way with and without libFuzzer.
//!
//! Every check takes arbitrary bytes and panics when crawlgate breaks one of
//! its promises for them:
//!
//! * [`parse::check`]: parsing never panics under any profile and the model's
//!   heap stays proportional to the input.
//! * [`decide::check`]: the model (a single question, a view's first
//!   question, a view with compiled rules) and the streaming `decide_once`
//!   give the same verdict and deciding line.
//! * [`render::check`]: the canonical rendering re-parses to the same
//!   rendering and the same decisions.
//! * [`lint::check`]: linting never panics, and every output format
//!   (human, JSON, SARIF) renders; the JSON ones are valid JSON.
//! * [`search_console::check`]: Search Console's line view has one entry
//!   per line and agrees with the model on what both read.
//!
//! ```
//! crawlgate_fuzz::parse::check(b"User-agent: *\nDisallow: /private\n");
//! crawlgate_fuzz::decide::check(b"User-agent: *\nDisallow: /p\n\xFFbot\xFF/page");
//! ```

pub mod decide;
pub mod input;
pub mod lint;
pub mod parse;
pub mod render;
pub mod search_console;

/// A check: panics when crawlgate breaks a promise for these bytes.
pub type Check = fn(&[u8]);

/// Every fuzz target by name with its check, in the order `scripts/fuzz.sh`
/// runs them.
pub const TARGETS: &[(&str, Check)] = &[
    ("parse", parse::check),
    ("decide", decide::check),
    ("render", render::check),
    ("lint", lint::check),
    ("search_console", search_console::check),
];
