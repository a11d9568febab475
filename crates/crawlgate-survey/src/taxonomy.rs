//! Statuses as Common Crawl's published robots.txt statistics count them,
//! so a survey's figures can be set beside theirs.
//!
//! Common Crawl's robots.txt experiments (the `commoncrawl/robotstxt-experiments`
//! repository, shown at the IIPC Web Archiving Conference 2025) sort each
//! capture's HTTP status into a fetch class, and each host into one of
//! seven categories. Both are columns of the survey's table:
//!
//! * [`FetchClass`] (`fetch_class`), from the capture's own status exactly
//!   as they classify it: 200 `success`, 403 `forbidden`, 5xx and 429
//!   `defer_visits`, 3xx `redirect`, 404, 410 and 400 `notfound`, 401
//!   `unauthorized`, anything else `other`.
//! * [`HostClass`] (`cc_class`), after following redirects as far as the
//!   input allows: `http_forbidden` (403), `http_defer_visits` (5xx, 429,
//!   and here also network failures and statuses outside 100–599, which
//!   the fetch rules read as server errors), `http_allow_all` (any other
//!   4xx), `http_redirect_not_resolved`, `mime_not_robotstxt` (a 2xx whose
//!   media type is not text, or is HTML, by their rule: the archive's
//!   identified type when given, else the `Content-Type`),
//!   `robotstxt_no_rules` (no allow or disallow line) and
//!   `robotstxt_with_rules`. Their eighth category, "no robots.txt
//!   capture", counts hosts of an outside list the crawl never fetched,
//!   which a survey of captures cannot see. Where they count a non-200
//!   2xx as `other`, the survey reads it as the fetch rules do (a
//!   success).

crawlgate::word_table! {
    /// A capture's HTTP status as Common Crawl classifies it.
    #[derive(
        Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
    )]
    pub enum FetchClass {
        /// 200.
        Success = "success",
        /// 403.
        Forbidden = "forbidden",
        /// 5xx or 429.
        DeferVisits = "defer_visits",
        /// 3xx.
        Redirect = "redirect",
        /// 404, 410 or 400.
        NotFound = "notfound",
        /// 401.
        Unauthorized = "unauthorized",
        /// Any other status.
        Other = "other",
    }
}

impl FetchClass {
    /// The class of a status.
    ///
    /// ```
    /// use crawlgate_survey::taxonomy::FetchClass;
    /// assert_eq!(FetchClass::of(429), FetchClass::DeferVisits);
    /// assert_eq!(FetchClass::of(410), FetchClass::NotFound);
    /// assert_eq!(FetchClass::of(204), FetchClass::Other);
    /// ```
    pub fn of(status: u16) -> FetchClass {
        match status {
            200 => FetchClass::Success,
            403 => FetchClass::Forbidden,
            429 | 500..=599 => FetchClass::DeferVisits,
            300..=399 => FetchClass::Redirect,
            400 | 404 | 410 => FetchClass::NotFound,
            401 => FetchClass::Unauthorized,
            _ => FetchClass::Other,
        }
    }
}

crawlgate::word_table! {
    /// A host's robots.txt as Common Crawl's top-k statistics count it.
    #[derive(
        Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
    )]
    pub enum HostClass {
        /// 403.
        HttpForbidden = "http_forbidden",
        /// 5xx, 429, a network failure.
        HttpDeferVisits = "http_defer_visits",
        /// Any other 4xx.
        HttpAllowAll = "http_allow_all",
        /// A redirect not followed to a capture.
        HttpRedirectNotResolved = "http_redirect_not_resolved",
        /// A success whose media type is not a robots.txt's.
        MimeNotRobotsTxt = "mime_not_robotstxt",
        /// A robots.txt without allow or disallow lines.
        RobotsTxtNoRules = "robotstxt_no_rules",
        /// A robots.txt with rules.
        RobotsTxtWithRules = "robotstxt_with_rules",
    }
}

impl HostClass {
    /// Common Crawl's name for it.
    pub fn label(self) -> &'static str {
        match self {
            HostClass::HttpForbidden => "HTTP forbidden",
            HostClass::HttpDeferVisits => "HTTP defer visits",
            HostClass::HttpAllowAll => "HTTP allow all",
            HostClass::HttpRedirectNotResolved => "HTTP redirect not resolved",
            HostClass::MimeNotRobotsTxt => "MIME not a robots.txt",
            HostClass::RobotsTxtNoRules => "Robots.txt no rules",
            HostClass::RobotsTxtWithRules => "Robots.txt with rules",
        }
    }

    /// The class of a capture: its status (None for a network failure,
    /// `Some(200)` for a file given without one), whether it is a redirect
    /// left unresolved, its media types, and its rule count.
    ///
    /// ```
    /// use crawlgate_survey::taxonomy::HostClass;
    /// let of = |status, content_type: Option<&str>, rules| {
    ///     HostClass::of(Some(status), false, content_type, None, rules)
    /// };
    /// assert_eq!(of(200, Some("text/plain"), Some(3)), HostClass::RobotsTxtWithRules);
    /// assert_eq!(of(200, Some("text/html; charset=utf-8"), Some(3)), HostClass::MimeNotRobotsTxt);
    /// assert_eq!(of(200, None, Some(0)), HostClass::RobotsTxtNoRules);
    /// assert_eq!(of(410, None, None), HostClass::HttpAllowAll);
    /// ```
    pub fn of(
        status: Option<u16>,
        unresolved_redirect: bool,
        content_type: Option<&str>,
        payload_type: Option<&str>,
        rules: Option<u32>,
    ) -> HostClass {
        if unresolved_redirect {
            return HostClass::HttpRedirectNotResolved;
        }
        match status {
            None | Some(0..=99 | 429 | 500..=u16::MAX) => HostClass::HttpDeferVisits,
            Some(403) => HostClass::HttpForbidden,
            Some(400..=499) => HostClass::HttpAllowAll,
            Some(300..=399) => HostClass::HttpRedirectNotResolved,
            Some(100..=199) => HostClass::HttpDeferVisits,
            Some(200..=299) => {
                if !is_robots_txt_media_type(content_type, payload_type) {
                    HostClass::MimeNotRobotsTxt
                } else if rules.unwrap_or(0) == 0 {
                    HostClass::RobotsTxtNoRules
                } else {
                    HostClass::RobotsTxtWithRules
                }
            }
        }
    }
}

/// Common Crawl's test of a robots.txt media type: the identified type,
/// when the archive gives one, is text but not HTML (or `message/rfc822`,
/// `plain/text`, frequent misdetections); else the `Content-Type`, when
/// given, names `text` other than `text/html`.
fn is_robots_txt_media_type(content_type: Option<&str>, identified: Option<&str>) -> bool {
    match identified.map(|t| t.trim().to_ascii_lowercase()) {
        Some(t) => {
            (t.starts_with("text/") && t != "text/html")
                || t == "message/rfc822"
                || t == "plain/text"
        }
        None => content_type.is_none_or(|t| {
            let lower = t.to_ascii_lowercase();
            lower
                .match_indices("text")
                .any(|(at, _)| !lower[at + 4..].starts_with("/html"))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_classified_as_common_crawl_does() {
        let expect = [
            (200, "success"),
            (403, "forbidden"),
            (503, "defer_visits"),
            (429, "defer_visits"),
            (301, "redirect"),
            (404, "notfound"),
            (410, "notfound"),
            (400, "notfound"),
            (401, "unauthorized"),
            (418, "other"),
            (206, "other"),
        ];
        for (status, word) in expect {
            assert_eq!(FetchClass::of(status).as_str(), word, "{status}");
        }
        for class in FetchClass::ALL {
            assert_eq!(FetchClass::from_word(class.as_str()), Some(class));
        }
        for class in HostClass::ALL {
            assert_eq!(HostClass::from_word(class.as_str()), Some(class));
        }
    }

    #[test]
    fn media_types_follow_their_rule() {
        assert!(is_robots_txt_media_type(Some("text/plain"), None));
        assert!(is_robots_txt_media_type(None, None));
        assert!(!is_robots_txt_media_type(Some("TEXT/HTML"), None));
        assert!(!is_robots_txt_media_type(
            Some("application/octet-stream"),
            None
        ));
        // The identified type wins over the header.
        assert!(!is_robots_txt_media_type(
            Some("text/plain"),
            Some("text/html")
        ));
        assert!(is_robots_txt_media_type(
            Some("text/html"),
            Some("text/plain")
        ));
        assert!(is_robots_txt_media_type(None, Some("message/rfc822")));
        assert_eq!(
            HostClass::of(None, false, None, None, None),
            HostClass::HttpDeferVisits
        );
        assert_eq!(
            HostClass::of(Some(301), true, None, None, None),
            HostClass::HttpRedirectNotResolved
        );
        assert_eq!(
            HostClass::of(Some(403), false, None, None, None),
            HostClass::HttpForbidden
        );
    }
}
