//! `crawlgate policy`: from what a site owner means (search engines in, AI
//! training out, a person's own assistant allowed…), the robots.txt that
//! says it, proven for every crawler of crawlgate's registry before it is
//! written, and the server rules for the crawlers robots.txt cannot stop.
//!
//! - [`Policy`]: an access per [`Purpose`] (from the registry's purposes
//!   and kinds), per-crawler overrides, private paths, a honeypot, a crawl
//!   delay for the crawlers that read one, sitemaps, a licence; from flags
//!   or POLICY.toml ([`Policy::from_toml`]).
//! - [`write`]: a new file; [`merge`]: the policy merged into the site's
//!   own file, changing no verdict for the crawlers it does not change.
//! - Both return [`Written`] only when its [`Proof`] holds: the linter
//!   finds nothing (new) to warn of, Search Console's report flags
//!   nothing (new), and for every crawler `crawlgate check` gives the
//!   verdict the policy means.
//! - [`ServerRules`]: nginx, Apache, Caddy and HAProxy rules; with the
//!   operators' published address ranges ([`Written::with_ip_ranges`]),
//!   also by address.
//!
//! Pure: no files, no network.
//!
//! ```
//! use crawlgate::{RobotsTxt, Who};
//! use crawlgate_policy::{write, Access, Policy, Purpose};
//!
//! let policy = Policy::new()
//!     .with(Purpose::Search, Access::Allow)
//!     .with(Purpose::AiTrain, Access::Deny);
//! let written = write(&policy).unwrap();
//! assert!(written.proof.holds());
//! let robots = RobotsTxt::parse(&written.robots_txt);
//! assert!(robots.view(Who::crawler("Googlebot")).is_allowed("/"));
//! assert!(!robots.view(Who::crawler("GPTBot")).is_allowed("/"));
//! assert!(!robots.view(Who::crawler("Google-Extended")).is_allowed("/"));
//! let text = written.text();
//! assert!(text.contains("Content-Signal: search=yes, ai-train=no"));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod access;
mod deciding;
mod error;
mod explain;
mod intent;
mod lines;
mod merge;
mod plan;
mod policy;
mod proof;
mod purpose;
mod ranges;
mod server;
mod text;
mod toml_form;
mod writer;
mod written;

pub use access::Access;
pub use error::PolicyError;
pub use explain::ExplainRow;
pub use intent::{intents, Intent, Stated};
pub use merge::{BEGIN, END};
pub use policy::Policy;
pub use proof::{Expected, Proof, Row};
pub use purpose::Purpose;
pub use ranges::{feeds_of, CrawlerRanges};
pub use server::{distinctive, header_names, ServerRules};
pub use written::{merge, write, Written};
