//! nginx: `if` blocks at the server level (the rewrite module), which may
//! only set variables and return, so they are safe there.

use crate::server::rules::ServerRules;

pub(super) fn write(rules: &ServerRules) -> String {
    let mut out = rules.header("nginx", "Include it inside server {}.");
    if !rules.denied.is_empty() {
        out.push(format!(
            "set $crawlgate_denied \"\";\nif ($http_user_agent ~* \"{}\") {{\n    set $crawlgate_denied \"1\";\n}}\nif ($uri = /robots.txt) {{\n    set $crawlgate_denied \"\";\n}}\nif ($crawlgate_denied = \"1\") {{\n    return 403;\n}}",
            ServerRules::agent_regex(&rules.denied)
        ));
    }
    if !rules.private_for.is_empty() && !rules.private_paths.is_empty() {
        out.push(format!(
            "set $crawlgate_private \"\";\nif ($http_user_agent ~* \"{}\") {{\n    set $crawlgate_private \"agent\";\n}}\nif ($uri ~ \"{}\") {{\n    set $crawlgate_private \"${{crawlgate_private}}+path\";\n}}\nif ($crawlgate_private = \"agent+path\") {{\n    return 403;\n}}",
            ServerRules::agent_regex(&rules.private_for),
            ServerRules::path_regex(&rules.private_paths)
        ));
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
