//! HAProxy: ACLs and `http-request deny` (403), for a `frontend` or
//! `listen` section (HAProxy includes no partial sections: paste them).
//! Single quotes keep the expressions as written.

use crate::server::rules::ServerRules;

pub(super) fn write(rules: &ServerRules) -> String {
    let mut out = rules.header(
        "HAProxy",
        "Put these lines in a frontend (or listen) section, before its other http-request rules.",
    );
    if !rules.denied.is_empty() || !rules.denied_ranges.is_empty() {
        out.push("acl crawlgate_robots_txt path /robots.txt".to_owned());
    }
    if !rules.denied_ranges.is_empty() {
        let prefixes: Vec<String> = rules.denied_ranges.iter().map(|p| p.to_string()).collect();
        // One ACL line per 64 prefixes: lines stay readable, and the
        // lines of one name are OR'ed.
        for chunk in prefixes.chunks(64) {
            out.push(format!(
                "acl crawlgate_denied_address src {}",
                chunk.join(" ")
            ));
        }
        out.push(
            "http-request deny deny_status 403 if crawlgate_denied_address !crawlgate_robots_txt"
                .to_owned(),
        );
    }
    if !rules.denied.is_empty() {
        out.push(format!(
            "acl crawlgate_denied hdr_reg(user-agent) -i '{}'",
            ServerRules::agent_regex(&rules.denied)
        ));
        out.push(
            "http-request deny deny_status 403 if crawlgate_denied !crawlgate_robots_txt"
                .to_owned(),
        );
    }
    if !rules.private_for.is_empty() && !rules.private_paths.is_empty() {
        out.push(format!(
            "acl crawlgate_ignores_robots hdr_reg(user-agent) -i '{}'",
            ServerRules::agent_regex(&rules.private_for)
        ));
        out.push(format!(
            "acl crawlgate_private path_reg '{}'",
            ServerRules::path_regex(&rules.private_paths)
        ));
        out.push(
            "http-request deny deny_status 403 if crawlgate_ignores_robots crawlgate_private"
                .to_owned(),
        );
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
