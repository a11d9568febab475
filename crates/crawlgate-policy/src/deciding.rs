//! The one place this crate asks the core for verdicts, so that what a
//! policy proves is what `crawlgate check` answers: the crawler reading of
//! a registry crawler (its own token, its fallbacks, `*`, as its operator
//! documents), by its operator's parser (the profile
//! [`Reading::Crawler`] chooses for it: Bing's rules for bingbot,
//! Yandex's for YandexBot, Google's for the rest), and the one-token
//! reading of a product token (Google's library's).

use crawlgate::registry::Crawler;
use crawlgate::{AgentView, ChoiceKind, Profile, Reading, RobotsTxt};

/// One file, parsed once by Google's rules and once more by each other
/// profile some crawler of the registry needs.
pub(crate) struct Readings {
    google: RobotsTxt,
    others: Vec<RobotsTxt>,
}

impl Readings {
    /// Parses `bytes` by Google's rules, and by the profile of each of
    /// `crawlers` that reads it by another.
    pub(crate) fn parse<'c>(
        bytes: &[u8],
        crawlers: impl IntoIterator<Item = &'c Crawler>,
    ) -> Readings {
        let mut others: Vec<RobotsTxt> = Vec::new();
        for crawler in crawlers {
            let profile = profile_of(crawler);
            if profile != Profile::GOOGLE && !others.iter().any(|r| r.profile() == profile) {
                others.push(RobotsTxt::parse_with(bytes, profile));
            }
        }
        Readings {
            google: RobotsTxt::parse(bytes),
            others,
        }
    }

    /// The file by Google's rules: its groups and rules as written, and
    /// what a product token reads.
    pub(crate) fn google(&self) -> &RobotsTxt {
        &self.google
    }

    /// The file read by the profile named `name` (Google's when no
    /// crawler needed that one).
    pub(crate) fn by_name(&self, name: &str) -> &RobotsTxt {
        self.others
            .iter()
            .find(|r| r.profile().name == name)
            .unwrap_or(&self.google)
    }

    /// The file as `crawler`'s operator reads it.
    pub(crate) fn for_crawler(&self, crawler: &Crawler) -> &RobotsTxt {
        let profile = profile_of(crawler);
        self.others
            .iter()
            .find(|r| r.profile() == profile)
            .unwrap_or(&self.google)
    }
}

/// The profile `crawlgate check --agent NAME` reads a file by for a
/// registry crawler.
pub(crate) fn profile_of(crawler: &Crawler) -> Profile {
    Reading::Crawler.profile_for(crawler.name, None)
}

/// A registry crawler's view of a file, as `crawlgate check --agent NAME`
/// reads it (by its operator's profile).
pub(crate) fn crawler_view<'a>(readings: &'a Readings, crawler: &'static Crawler) -> AgentView<'a> {
    readings.for_crawler(crawler).view(crawler)
}

/// A product token's view of a file, as `crawlgate check --one-token`
/// reads it (Google's library).
pub(crate) fn token_view<'a>(readings: &'a Readings, token: &str) -> AgentView<'a> {
    readings.google().view(token)
}

/// Whether the file applies to the crawler at all (its operator says it
/// ignores robots.txt).
pub(crate) fn ignores_file(view: &AgentView<'_>) -> bool {
    view.group_choice().kind() == ChoiceKind::IgnoresRobotsTxt
}

/// ` (read by bing's rules)` for a crawler read by another profile than
/// Google's, for sentences naming it.
pub(crate) fn read_by(crawler: &Crawler) -> String {
    let profile = profile_of(crawler);
    if profile == Profile::GOOGLE {
        String::new()
    } else {
        format!(
            " (read by {}'s rules, as `crawlgate check` reads it)",
            profile.name
        )
    }
}
