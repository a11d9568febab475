//! The one place this crate asks the core for verdicts, so that what a
//! policy proves is what `crawlgate check` answers: the crawler reading of
//! a registry crawler (its own token, its fallbacks, `*`, as its operator
//! documents), and the one-token reading of a product token (Google's
//! library's).

use crawlgate::registry::Crawler;
use crawlgate::{AgentView, ChoiceKind, RobotsTxt};

/// A registry crawler's view of a file, as `crawlgate check --agent NAME`
/// reads it.
pub(crate) fn crawler_view<'a>(robots: &'a RobotsTxt, crawler: &'static Crawler) -> AgentView<'a> {
    robots.view(crawler)
}

/// A product token's view of a file, as `crawlgate check --one-token`
/// reads it.
pub(crate) fn token_view<'a>(robots: &'a RobotsTxt, token: &str) -> AgentView<'a> {
    robots.view(token)
}

/// Whether the file applies to the crawler at all (its operator says it
/// ignores robots.txt).
pub(crate) fn ignores_file(view: &AgentView<'_>) -> bool {
    view.group_choice().kind() == ChoiceKind::IgnoresRobotsTxt
}
