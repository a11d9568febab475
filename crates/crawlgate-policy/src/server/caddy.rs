//! Caddy: named matchers and `respond 403`, which Caddy orders before the
//! handlers that serve files.

use crate::server::rules::ServerRules;

pub(super) fn write(rules: &ServerRules) -> String {
    let mut out = rules.header("Caddy", "Import it inside a site block.");
    if !rules.denied_ranges.is_empty() {
        let prefixes: Vec<String> = rules.denied_ranges.iter().map(|p| p.to_string()).collect();
        out.push(format!(
            "@crawlgate_denied_address {{\n\tremote_ip {}\n\tnot path /robots.txt\n}}\nrespond @crawlgate_denied_address 403",
            prefixes.join(" ")
        ));
    }
    if !rules.denied.is_empty() {
        out.push(format!(
            "@crawlgate_denied {{\n\theader_regexp User-Agent `(?i){}`\n\tnot path /robots.txt\n}}\nrespond @crawlgate_denied 403",
            ServerRules::agent_regex(&rules.denied)
        ));
    }
    if !rules.private_for.is_empty() && !rules.private_paths.is_empty() {
        out.push(format!(
            "@crawlgate_private {{\n\theader_regexp User-Agent `(?i){}`\n\tpath_regexp `{}`\n}}\nrespond @crawlgate_private 403",
            ServerRules::agent_regex(&rules.private_for),
            ServerRules::path_regex(&rules.private_paths)
        ));
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
