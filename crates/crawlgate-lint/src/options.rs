//! What to lint and how: the profile, the comparisons, the audit.

use crawlgate::{Profile, Reading};

/// What to lint and how.
///
/// ```
/// use crawlgate::Profile;
/// use crawlgate_lint::{lint, Code, LintOptions};
///
/// let file = b"User-agent: *\nDisallow: *.pdf\n";
/// let google = lint(file, &LintOptions::default());
/// assert!(google.with_code(Code::LeadingWildcard).next().is_some());
/// // The strict reading drops the line instead.
/// let strict = lint(file, &LintOptions::default().with_profile(Profile::RFC9309));
/// assert!(strict.with_code(Code::Parse(crawlgate::Code::PathNotAbsolute)).next().is_some());
/// // The audit says what each known crawler gets.
/// let audited = lint(file, &LintOptions::default().with_audit(true));
/// assert!(audited.audit.unwrap().iter().any(|e| e.crawler.token == "GPTBot"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LintOptions {
    /// The reading the file is parsed and judged with (google by default).
    pub profile: Profile,
    /// Compare Google's reading with RFC 9309's (rule `R401`) and, for Bing's
    /// crawlers, with Bing's (rule `R403`). On by default.
    pub compare_profiles: bool,
    /// Also compare Google's reading with the legacy one (rule `R402`, info):
    /// it parses the file a second time and decides many more URLs, so it
    /// is off by default.
    pub compare_legacy: bool,
    /// Fill [`LintReport::audit`](crate::LintReport::audit): how each known crawler reads the file.
    pub audit: bool,
    /// How the audit reads each crawler: as its operator documents
    /// ([`Reading::Crawler`], the default) or as its one product token,
    /// exactly as Google's library does ([`Reading::OneToken`]).
    pub audit_reading: Reading,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            profile: Profile::GOOGLE,
            compare_profiles: true,
            compare_legacy: false,
            audit: false,
            audit_reading: Reading::Crawler,
        }
    }
}

impl LintOptions {
    /// Options with a given profile.
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Options that also run the crawler audit.
    pub fn with_audit(mut self, audit: bool) -> Self {
        self.audit = audit;
        self
    }

    /// Options whose audit reads each crawler under `reading`
    /// ([`audit_with`](crate::audit::audit_with)).
    ///
    /// ```
    /// use crawlgate::Reading;
    /// use crawlgate_lint::{lint, LintOptions};
    ///
    /// let options = LintOptions::default().with_audit(true).with_audit_reading(Reading::OneToken);
    /// let audit = lint(b"User-agent: *\nDisallow: /\n", &options).audit.unwrap();
    /// let adsbot = audit.iter().find(|e| e.crawler.name == "AdsBot-Google").unwrap();
    /// assert!(!adsbot.root_allowed); // read as one token, it gets `*`
    /// ```
    pub fn with_audit_reading(mut self, reading: Reading) -> Self {
        self.audit_reading = reading;
        self
    }

    /// Options that compare (or not) Google's reading with RFC 9309's
    /// (`R401`); `false` also turns the legacy comparison off.
    pub fn with_profile_comparison(mut self, compare: bool) -> Self {
        self.compare_profiles = compare;
        if !compare {
            self.compare_legacy = false;
        }
        self
    }

    /// Options that also compare (or not) Google's reading with the legacy
    /// one (`R402`).
    pub fn with_legacy_comparison(mut self, compare: bool) -> Self {
        self.compare_legacy = compare;
        self
    }

    /// Every rule on: both comparisons and the audit.
    pub fn everything() -> Self {
        LintOptions::default()
            .with_legacy_comparison(true)
            .with_audit(true)
    }
}
