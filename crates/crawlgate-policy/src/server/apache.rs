//! Apache httpd: mod_rewrite conditions, `[F]` (403) when they hold; the
//! address ranges by an `expr` condition (`-R`, the client's address
//! `-ipmatch` a prefix).

use crate::server::rules::ServerRules;

pub(super) fn write(rules: &ServerRules) -> String {
    let mut out = rules.header(
        "Apache httpd",
        "Include it in a <VirtualHost> or the server configuration; it needs mod_rewrite.",
    );
    out.push("RewriteEngine On".to_owned());
    if !rules.denied_ranges.is_empty() {
        let tests: Vec<String> = rules
            .denied_ranges
            .iter()
            .map(|p| format!("-R '{p}'"))
            .collect();
        out.push("RewriteCond %{REQUEST_URI} !=/robots.txt".to_owned());
        out.push(format!("RewriteCond expr \"{}\"", tests.join(" || ")));
        out.push("RewriteRule ^ - [F]".to_owned());
    }
    if !rules.denied.is_empty() {
        out.push("RewriteCond %{REQUEST_URI} !=/robots.txt".to_owned());
        out.push(format!(
            "RewriteCond %{{HTTP_USER_AGENT}} \"{}\" [NC]",
            ServerRules::agent_regex(&rules.denied)
        ));
        out.push("RewriteRule ^ - [F]".to_owned());
    }
    if !rules.private_for.is_empty() && !rules.private_paths.is_empty() {
        out.push(format!(
            "RewriteCond %{{REQUEST_URI}} \"{}\"",
            ServerRules::path_regex(&rules.private_paths)
        ));
        out.push(format!(
            "RewriteCond %{{HTTP_USER_AGENT}} \"{}\" [NC]",
            ServerRules::agent_regex(&rules.private_for)
        ));
        out.push("RewriteRule ^ - [F]".to_owned());
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
