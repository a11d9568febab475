//! nginx: `if` blocks at the server level (the rewrite module), which may
//! only set variables and return, so they are safe there. The address
//! ranges need a `geo` block, which nginx takes only in `http {}`: a
//! second snippet ([`ServerRules::nginx_http`]).

use crate::server::rules::ServerRules;

pub(super) fn write(rules: &ServerRules) -> String {
    let how = if rules.denied_ranges.is_empty() {
        "Include it inside server {}."
    } else {
        "Include it inside server {}, and the geo snippet (crawlgate policy --nginx-http) in http {}."
    };
    let mut out = rules.header("nginx", how);
    if !rules.denied_ranges.is_empty() {
        out.push(
            "if ($crawlgate_denied_address = \"1\") {\n    set $crawlgate_by_address \"1\";\n}\nif ($uri = /robots.txt) {\n    set $crawlgate_by_address \"\";\n}\nif ($crawlgate_by_address = \"1\") {\n    return 403;\n}"
                .to_owned(),
        );
    }
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

/// The `geo` block for `http {}`: `$crawlgate_denied_address` is `1` for
/// an address in a denied range.
pub(super) fn write_http(rules: &ServerRules) -> String {
    let mut out = crate::text::comment_block(&format!(
        "The address ranges crawlgate policy denies (crawler registry {}), for nginx: include \
         it inside http {{}}; the server snippet answers 403 to them.",
        crawlgate::registry::version()
    ));
    for shared in &rules.shared_ranges {
        out.extend(crate::text::comment_block(&format!(
            "Not by address: {shared}; a range is denied only when every crawler it serves is \
             denied."
        )));
    }
    out.push("geo $crawlgate_denied_address {".to_owned());
    out.push("    default 0;".to_owned());
    for prefix in &rules.denied_ranges {
        out.push(format!("    {prefix} 1;"));
    }
    out.push("}".to_owned());
    let mut text = out.join("\n");
    text.push('\n');
    text
}
