//! POLICY.toml: a policy as a file.
//!
//! ```toml
//! search = "allow"
//! ai-train = "deny"
//! private = ["/admin/", "/cart/"]
//! honeypot = "/trap/"
//! crawl-delay = 5
//! sitemaps = ["https://example.com/sitemap.xml"]
//! license = "https://example.com/license.xml"
//!
//! [crawlers]
//! ChatGPT-User = "allow"
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::access::Access;
use crate::error::PolicyError;
use crate::policy::Policy;
use crate::purpose::Purpose;

/// The file's shape: purposes at the top level, overrides under
/// `[crawlers]`. Unknown keys are errors, so a misspelt purpose is said.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct PolicyFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ai_train: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ai_use: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    user_fetch: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    archive: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ads: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seo: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    link_preview: Option<Access>,
    #[serde(skip_serializing_if = "Option::is_none")]
    other: Option<Access>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    private: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    honeypot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    crawl_delay: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sitemaps: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    license: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    crawlers: BTreeMap<String, Access>,
}

impl PolicyFile {
    fn slot(&mut self, purpose: Purpose) -> &mut Option<Access> {
        match purpose {
            Purpose::Search => &mut self.search,
            Purpose::AiTrain => &mut self.ai_train,
            Purpose::AiUse => &mut self.ai_use,
            Purpose::UserFetch => &mut self.user_fetch,
            Purpose::Archive => &mut self.archive,
            Purpose::Ads => &mut self.ads,
            Purpose::Seo => &mut self.seo,
            Purpose::LinkPreview => &mut self.link_preview,
            Purpose::Other => &mut self.other,
        }
    }
}

impl Policy {
    /// Reads a policy from POLICY.toml's text; it is then checked
    /// ([`Policy::validate`]).
    ///
    /// ```
    /// use crawlgate_policy::{Access, Policy, Purpose};
    /// let policy = Policy::from_toml("search = \"allow\"\nai-train = \"deny\"\n\n[crawlers]\nGPTBot = \"deny\"\n").unwrap();
    /// assert_eq!(policy.access(Purpose::AiTrain), Some(Access::Deny));
    /// assert_eq!(policy.crawlers, [("GPTBot".to_owned(), Access::Deny)]);
    /// let error = Policy::from_toml("ai-training = \"deny\"\n").unwrap_err();
    /// assert!(error.to_string().contains("ai-training"), "{error}");
    /// ```
    pub fn from_toml(text: &str) -> Result<Policy, PolicyError> {
        let mut file: PolicyFile =
            toml::from_str(text).map_err(|e| PolicyError::Toml(e.to_string().trim().to_owned()))?;
        let mut policy = Policy::new();
        for purpose in Purpose::ALL {
            if let Some(access) = *file.slot(purpose) {
                policy.purposes.insert(purpose, access);
            }
        }
        policy.crawlers = file.crawlers.into_iter().collect();
        policy.private = file.private;
        policy.honeypot = file.honeypot;
        policy.crawl_delay = file.crawl_delay;
        policy.sitemaps = file.sitemaps;
        policy.license = file.license;
        policy.validate()?;
        Ok(policy)
    }

    /// The policy as POLICY.toml text, which [`Policy::from_toml`] reads
    /// back to the same policy.
    ///
    /// ```
    /// use crawlgate_policy::{Access, Policy, Purpose};
    /// let policy = Policy::new().with(Purpose::AiTrain, Access::Deny).with_private("/admin/");
    /// let text = policy.to_toml();
    /// assert_eq!(text, "ai-train = \"deny\"\nprivate = [\"/admin/\"]\n");
    /// assert_eq!(Policy::from_toml(&text).unwrap(), policy);
    /// ```
    pub fn to_toml(&self) -> String {
        let mut file = PolicyFile::default();
        for (&purpose, &access) in &self.purposes {
            *file.slot(purpose) = Some(access);
        }
        file.private = self.private.clone();
        file.honeypot = self.honeypot.clone();
        file.crawl_delay = self.crawl_delay;
        file.sitemaps = self.sitemaps.clone();
        file.license = self.license.clone();
        file.crawlers = self.crawlers.iter().cloned().collect();
        toml::to_string(&file).unwrap_or_default()
    }
}
