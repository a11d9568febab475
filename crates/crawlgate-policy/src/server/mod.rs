//! Server rules for crawlers robots.txt cannot stop: a 403 to the crawlers
//! the policy denies (everywhere but `/robots.txt`, which every crawler
//! may read), and to crawlers that ignore robots.txt on the private paths
//! and the honeypot. One set of regular expressions, written for nginx,
//! Apache (mod_rewrite), Caddy and HAProxy.
//!
//! Crawlers are found by name in the `User-Agent` header, as the registry
//! identifies them: a name (or another spelling the registry keeps) that
//! stands as a product in the header, after its start, a space, `(`, `;`
//! or `,`, and before `/`, `;`, `)`, a space, `,` or its end. Names too
//! plain to find safely (a single word such as `Spider`, which other
//! crawlers' headers hold) get no rule, and the rules say so.

mod apache;
mod caddy;
mod haproxy;
mod nginx;
mod rules;

pub use rules::{distinctive, header_names, ServerRules};

impl ServerRules {
    /// Rules for nginx: a snippet to `include` inside `server {}`.
    pub fn nginx(&self) -> String {
        nginx::write(self)
    }

    /// The `geo` block nginx takes only in `http {}`, which the server
    /// snippet ([`nginx`](ServerRules::nginx)) reads when address ranges
    /// are denied; `None` when none are.
    ///
    /// ```
    /// use crawlgate_policy::{write, Access, Policy, Purpose};
    /// let written = write(&Policy::new().with(Purpose::AiTrain, Access::Deny)).unwrap();
    /// assert!(written.server.nginx_http().is_none());
    /// ```
    pub fn nginx_http(&self) -> Option<String> {
        (!self.denied_ranges.is_empty()).then(|| nginx::write_http(self))
    }

    /// Rules for Apache httpd (mod_rewrite): a snippet to `Include` in a
    /// `<VirtualHost>` or the server configuration.
    pub fn apache(&self) -> String {
        apache::write(self)
    }

    /// Rules for Caddy: a snippet to `import` inside a site block.
    pub fn caddy(&self) -> String {
        caddy::write(self)
    }

    /// Rules for HAProxy: lines for a `frontend` (or `listen`) section.
    pub fn haproxy(&self) -> String {
        haproxy::write(self)
    }
}
