//! Canonical robots.txt output of a parsed model.
//!
//! One record per line with canonical field names, a blank line between
//! groups, rule values in their normalised form, sitemaps last. Lines the
//! parser ignored (garbage, rules before any user-agent) are gone; what a
//! crawler reads is kept, so the output re-parses (with the same profile) to
//! the same decisions.

/// Written first when the output would otherwise start with the byte 0xEF:
/// a reader skips that byte (and `BB`, `BF` after it) at the start of a file
/// as a byte order mark, as Google's does, and would read another first
/// field name (`\u{feff}User-agent`, an unknown field, would become a
/// group). Field names the parser kept as unknown can start with it: a
/// second BOM, U+FFFD for bytes that are not UTF-8, any of U+F000–U+FFFF.
const BEFORE_LEADING_EF: &str =
    "# (this line keeps the next from being read as a byte order mark)\n";

use std::fmt::Write as _;

use crate::model::RobotsTxt;

impl RobotsTxt {
    /// Renders the model back to robots.txt text, which re-parses (with the
    /// same profile) to the same decisions. When the first field name kept
    /// from the file starts with the byte 0xEF, a comment line comes first,
    /// so that no reader takes that byte for a byte order mark.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"user-agent: a\ndisallow /x # no colon\nUSER-AGENT:b\nallow:/y\n");
    /// assert_eq!(
    ///     robots.render(),
    ///     "User-agent: a\nDisallow: /x\n\nUser-agent: b\nAllow: /y\n"
    /// );
    /// let again = RobotsTxt::parse(robots.render().as_bytes());
    /// assert_eq!(again.is_allowed("a", "/x"), robots.is_allowed("a", "/x"));
    /// ```
    pub fn render(&self) -> String {
        if self.profile.yandex_records {
            return self.render_in_file_order();
        }
        let mut out = String::with_capacity(self.text.len() * 2);
        for extension in self.file_extensions() {
            field(&mut out, extension.key(), extension.value());
        }
        if out.as_bytes().first() == Some(&0xEF) {
            out.insert_str(0, BEFORE_LEADING_EF);
        }
        for group in self.groups() {
            if !out.is_empty() {
                out.push('\n');
            }
            for agent in group.user_agents() {
                field(&mut out, "User-agent", agent.value());
            }
            for extension in group.extensions() {
                field(&mut out, extension.key(), extension.value());
            }
            for rule in group.rules() {
                // urllib derives its path from the value as written (and
                // `/%2F` becomes empty, which reads as allow-all if written
                // empty): keep the value there; elsewhere the normalised form.
                let value = if self.profile.requote {
                    rule.value()
                } else {
                    rule.pattern()
                };
                field(&mut out, rule.kind().as_str(), value);
            }
        }
        if self.sitemaps.is_empty() {
            return out;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for sitemap in self.sitemaps() {
            field(&mut out, "Sitemap", sitemap.url());
        }
        out
    }

    /// Yandex's reading: every record where the file has it (the order of
    /// a group's rules, crawl delays and sitemaps is what that parser
    /// stores, and a rule stored empty takes the record after it), rules
    /// as written, a blank line before each group.
    fn render_in_file_order(&self) -> String {
        let mut records: Vec<(u32, String)> = Vec::new();
        let line = |name: &str, value: &str| {
            if value.is_empty() {
                format!("{name}:")
            } else {
                format!("{name}: {value}")
            }
        };
        for extension in self.extensions() {
            records.push((extension.line(), line(extension.key(), extension.value())));
        }
        for sitemap in self.sitemaps() {
            records.push((sitemap.line(), line("Sitemap", sitemap.url())));
        }
        for group in self.groups() {
            for (i, agent) in group.user_agents().enumerate() {
                let blank = if i == 0 { "\n" } else { "" };
                records.push((
                    agent.line(),
                    format!("{blank}{}", line("User-agent", agent.value())),
                ));
            }
            for rule in group.rules() {
                records.push((rule.line(), line(rule.kind().as_str(), rule.value())));
            }
        }
        records.sort_by_key(|&(line, _)| line);
        let mut out = String::with_capacity(self.text.len() * 2);
        for (_, record) in records {
            out.push_str(&record);
            out.push('\n');
        }
        if let Some(rest) = out.strip_prefix('\n') {
            out = rest.to_owned();
        }
        if out.as_bytes().first() == Some(&0xEF) {
            out.insert_str(0, BEFORE_LEADING_EF);
        }
        out
    }
}

fn field(out: &mut String, name: &str, value: &str) {
    if value.is_empty() {
        let _ = writeln!(out, "{name}:");
    } else {
        let _ = writeln!(out, "{name}: {value}");
    }
}
