//! Deny lists: the spoofing addresses and the honeypot visitors that
//! named no crawler (never an address verified as a crawler), in the
//! syntax of the program that will enforce them.

use std::fmt::Write as _;
use std::net::IpAddr;

/// The syntax of a deny list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenyFormat {
    /// One address per line, `#` comments.
    Plain,
    /// nginx `deny ADDRESS;` lines, for `include` in `http`, `server` or
    /// `location`.
    Nginx,
    /// An Apache `<RequireAll>` block (`Require not ip …`), for `Include`
    /// in `<Directory>` or `<Location>`.
    Apache,
    /// An nftables table with a set per address family and a chain that
    /// drops them (`nft -f FILE`).
    Nftables,
}

impl DenyFormat {
    /// The names `--deny-format` takes.
    pub const NAMES: [&'static str; 4] = ["plain", "nginx", "apache", "nftables"];

    /// The format named `name`.
    pub fn named(name: &str) -> Option<DenyFormat> {
        match name {
            "plain" => Some(DenyFormat::Plain),
            "nginx" => Some(DenyFormat::Nginx),
            "apache" => Some(DenyFormat::Apache),
            "nftables" => Some(DenyFormat::Nftables),
            _ => None,
        }
    }
}

fn comment(text: &str) -> String {
    // One line, no control characters: a reason never breaks the syntax.
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The deny list of `entries` (address and why) in `format`.
///
/// ```
/// use crawlgate_audit::output::deny::{render, DenyFormat};
/// let entries = vec![("203.0.113.7".parse().unwrap(), "claimed Googlebot and was not".to_owned())];
/// assert!(render(&entries, DenyFormat::Plain).contains("\n203.0.113.7\n"));
/// assert!(render(&entries, DenyFormat::Nginx).contains("deny 203.0.113.7;"));
/// assert!(render(&entries, DenyFormat::Apache).contains("Require not ip 203.0.113.7"));
/// assert!(render(&entries, DenyFormat::Nftables).contains("elements = { 203.0.113.7 }"));
/// ```
pub fn render(entries: &[(IpAddr, String)], format: DenyFormat) -> String {
    let mut out = String::new();
    let header = format!(
        "crawlgate audit deny list: {} address{} (spoofed crawlers, and honeypot visitors that named no crawler; no verified crawler)",
        entries.len(),
        if entries.len() == 1 { "" } else { "es" }
    );
    match format {
        DenyFormat::Plain => {
            let _ = writeln!(out, "# {header}");
            for (ip, why) in entries {
                let _ = writeln!(out, "# {}", comment(why));
                let _ = writeln!(out, "{ip}");
            }
        }
        DenyFormat::Nginx => {
            let _ = writeln!(out, "# {header}");
            for (ip, why) in entries {
                let _ = writeln!(out, "deny {ip}; # {}", comment(why));
            }
        }
        DenyFormat::Apache => {
            let _ = writeln!(out, "# {header}");
            let _ = writeln!(out, "<RequireAll>");
            let _ = writeln!(out, "    Require all granted");
            for (ip, why) in entries {
                let _ = writeln!(out, "    # {}", comment(why));
                let _ = writeln!(out, "    Require not ip {ip}");
            }
            let _ = writeln!(out, "</RequireAll>");
        }
        DenyFormat::Nftables => {
            let v4: Vec<String> = entries
                .iter()
                .filter(|(ip, _)| ip.is_ipv4())
                .map(|(ip, _)| ip.to_string())
                .collect();
            let v6: Vec<String> = entries
                .iter()
                .filter(|(ip, _)| ip.is_ipv6())
                .map(|(ip, _)| ip.to_string())
                .collect();
            let _ = writeln!(out, "# {header}");
            let _ = writeln!(out, "table inet crawlgate_audit {{");
            for (name, kind, list) in [("deny_v4", "ipv4_addr", &v4), ("deny_v6", "ipv6_addr", &v6)]
            {
                let _ = writeln!(out, "    set {name} {{");
                let _ = writeln!(out, "        type {kind}");
                if !list.is_empty() {
                    let _ = writeln!(out, "        elements = {{ {} }}", list.join(", "));
                }
                let _ = writeln!(out, "    }}");
            }
            let _ = writeln!(out, "    chain input {{");
            let _ = writeln!(
                out,
                "        type filter hook input priority 0; policy accept;"
            );
            let _ = writeln!(out, "        ip saddr @deny_v4 drop");
            let _ = writeln!(out, "        ip6 saddr @deny_v6 drop");
            let _ = writeln!(out, "    }}");
            let _ = writeln!(out, "}}");
        }
    }
    out
}
