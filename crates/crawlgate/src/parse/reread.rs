//! Reading a parsed file under another profile without parsing it again,
//! when the two profiles provably give the same records: then only the
//! switches that act when deciding (wildcards, precedence, group selection,
//! `/robots.txt`) and the `index.html` aliases differ.

use crate::diagnostic::Code;
use crate::model::{RobotsTxt, RULE_HAS_ALIAS};
use crate::profile::Profile;

impl RobotsTxt {
    /// Whether parsing the same bytes under `profile` gives this model's
    /// records: no lenient line was read (no missing colon, misspelling,
    /// field-name prefix, cut long line or path without a leading `/`), no
    /// rule holds an escape that the other profile decodes differently, no
    /// user-agent is `*` followed by text, and the profiles agree on every
    /// parse-time switch. Then [`RobotsTxt::reinterpret`] gives that reading
    /// without parsing.
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let plain = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\n");
    /// assert!(plain.can_reinterpret(Profile::RFC9309));
    /// // Only Google reads a line without a colon.
    /// let lenient = RobotsTxt::parse(b"User-agent: *\nDisallow /a\n");
    /// assert!(!lenient.can_reinterpret(Profile::RFC9309));
    /// ```
    pub fn can_reinterpret(&self, profile: Profile) -> bool {
        let from = self.profile();
        // Every switch not named here must be equal, so that a switch added
        // to `Profile` later forces a fresh parse until it is judged here.
        let same_parse = Profile {
            name: profile.name,
            wildcards: profile.wildcards,
            group_selection: profile.group_selection,
            precedence: profile.precedence,
            always_allow_robots_txt: profile.always_allow_robots_txt,
            accept_typos: profile.accept_typos,
            field_name_prefix: profile.field_name_prefix,
            accept_missing_colon: profile.accept_missing_colon,
            require_leading_slash: profile.require_leading_slash,
            index_html_alias: profile.index_html_alias,
            decode_unreserved: profile.decode_unreserved,
            lenient_global_agent: profile.lenient_global_agent,
            max_line_bytes: profile.max_line_bytes,
            crawl_delay_in_group: profile.crawl_delay_in_group,
            crawl_delay_range: profile.crawl_delay_range,
            crawlers: profile.crawlers,
            ..from
        };
        if same_parse != profile
            || profile.index_html_alias && !from.index_html_alias
            || self.diagnostics().iter().any(|d| {
                matches!(
                    d.code,
                    Code::MissingColon
                        | Code::MisspelledField
                        | Code::FieldNamePrefix
                        | Code::LineTooLong
                        | Code::PathNotAbsolute
                )
            })
        {
            return false;
        }
        if profile.require_leading_slash != from.require_leading_slash
            && self
                .rules()
                .any(|r| !r.is_empty() && !r.pattern().starts_with('/'))
        {
            return false;
        }
        if profile.decode_unreserved != from.decode_unreserved
            && self.rules().any(|r| decoding_changes(r.value().as_bytes()))
        {
            return false;
        }
        if profile.crawl_delay_in_group != from.crawl_delay_in_group
            && self.crawl_delay_changes_groups()
        {
            return false;
        }
        if profile.lenient_global_agent != from.lenient_global_agent
            && self
                .user_agents()
                .any(|ua| ua.value().starts_with('*') && ua.value() != "*")
        {
            return false;
        }
        true
    }

    /// Whether reading `Crawl-delay` as a group member (Bing) or not
    /// (Google) gives other groups than this model's. Read without it, the
    /// groups change when a `Crawl-delay` line lies between two user-agent
    /// lines of one group (elsewhere in a group it changes nothing: every
    /// user-agent line of a group comes before its first member). Read with
    /// it, they change when a group other than the last has no rules: only
    /// a `Crawl-delay` ended it.
    fn crawl_delay_changes_groups(&self) -> bool {
        if self.profile.crawl_delay_in_group {
            let last = self.groups.len().saturating_sub(1);
            return self.groups[..last].iter().any(|g| g.rules.is_empty());
        }
        self.groups().any(|group| {
            let last_agent = group.user_agents().last().map_or(0, |ua| ua.line());
            group
                .extensions()
                .any(|e| e.kind() == crate::ExtensionKind::CrawlDelay && e.line() < last_agent)
        })
    }

    /// This model as `profile` reads the same bytes, without parsing them
    /// again, when [`RobotsTxt::can_reinterpret`] says it gives the same
    /// records; `None` when only a fresh parse can tell.
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let body = b"User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n";
    /// let google = RobotsTxt::parse(body);
    /// let strict = google.reinterpret(Profile::RFC9309).unwrap();
    /// assert_eq!(strict.profile(), Profile::RFC9309);
    /// // Only Google reads `Allow: /dir/index.html` as allowing `/dir/` too.
    /// assert!(google.is_allowed("bot", "/dir/"));
    /// assert!(!strict.is_allowed("bot", "/dir/"));
    /// // The legacy reading quotes paths differently: it needs a fresh parse.
    /// assert!(google.reinterpret(Profile::LEGACY).is_none());
    /// ```
    pub fn reinterpret(&self, profile: Profile) -> Option<RobotsTxt> {
        if !self.can_reinterpret(profile) {
            return None;
        }
        let from = self.profile();
        let mut copy = self.clone();
        copy.profile = profile;
        if !profile.index_html_alias && from.index_html_alias {
            copy.aliases.clear();
            for rule in &mut copy.rules {
                rule.flags &= !RULE_HAS_ALIAS;
            }
        }
        Some(copy)
    }
}

/// Whether decoding escapes of unreserved characters changes a rule value:
/// it holds such an escape (`%7E`), or a stray `%` (which decoding encodes).
fn decoding_changes(value: &[u8]) -> bool {
    let hex = |b: u8| (b as char).to_digit(16);
    memchr::memchr_iter(b'%', value).any(|i| {
        let escape = (i + 2 < value.len())
            .then(|| Some(hex(value[i + 1])? * 16 + hex(value[i + 2])?))
            .flatten();
        match escape {
            Some(byte) => {
                let byte = byte as u8;
                byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
            }
            None => true,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On every corpus file, a reading obtained by `reinterpret` decides
    /// like a fresh parse of the same bytes.
    #[test]
    fn reinterpreted_readings_decide_like_fresh_parses() {
        let mut compared = 0;
        for (_, body) in crawlgate_corpus::files() {
            let google = RobotsTxt::parse(&body);
            let mut agents: Vec<String> = google
                .user_agents()
                .map(|ua| ua.token().to_owned())
                .collect();
            agents.push("Googlebot".to_owned());
            agents.push("ExampleBot".to_owned());
            agents.truncate(12);
            let mut paths = vec!["/".to_owned()];
            for rule in google.rules().take(200) {
                // The pattern as a path: `*` read as `x`, without its `$`.
                let body = rule.pattern().strip_suffix('$').unwrap_or(rule.pattern());
                if !body.is_empty() {
                    let path = body.replace('*', "x");
                    paths.push(if path.starts_with('/') {
                        path
                    } else {
                        format!("/{path}")
                    });
                }
            }
            for profile in [Profile::RFC9309, Profile::LEGACY, Profile::BING] {
                let Some(copy) = google.reinterpret(profile) else {
                    continue;
                };
                let fresh = RobotsTxt::parse_with(&body, profile);
                compared += 1;
                for agent in &agents {
                    let (a, b) = (copy.view(agent), fresh.view(agent));
                    for path in &paths {
                        assert_eq!(
                            a.decide_path(path).is_allowed(),
                            b.decide_path(path).is_allowed(),
                            "{} {agent} {path}",
                            profile.name
                        );
                    }
                }
            }
        }
        assert!(
            compared > 1000,
            "only {compared} readings were reinterpreted"
        );
    }

    #[test]
    fn escapes_that_decoding_changes() {
        assert!(decoding_changes(b"/%7Efred"));
        assert!(decoding_changes(b"/100%"));
        assert!(!decoding_changes(b"/%2F"));
        assert!(!decoding_changes(b"/plain"));
    }
}
