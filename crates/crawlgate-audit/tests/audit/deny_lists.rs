//! Deny lists hold every spoofer and every honeypot visitor that named no
//! crawler, and no verified crawler; each format is checked by the program
//! that enforces it (`nginx -t`, `apachectl -t`, `nft -c`), which the test
//! command installs. A missing program is a failure, never a skip.

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::path::Path;
use std::process::Command;

use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::output::deny::{render, DenyFormat};
use crawlgate_test_support::access_log::Lab;

use crate::support::{dns_server, on_disk, options, run};

fn program(name: &str, package: &str) -> String {
    for dir in ["/usr/sbin", "/usr/bin", "/sbin", "/bin"] {
        let path = Path::new(dir).join(name);
        if path.exists() {
            return path.display().to_string();
        }
    }
    panic!("`{name}` is needed to check the deny lists: install it (apt-get install {package}); scripts/test-all.sh does")
}

fn check(program: &str, args: &[&str]) -> Result<(), String> {
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn nginx_accepts(dir: &Path, deny: &str) -> Result<(), String> {
    let nginx = program("nginx", "nginx");
    std::fs::write(dir.join("deny.conf"), deny).unwrap();
    let d = dir.display();
    let conf = format!(
        "pid {d}/nginx.pid;\nerror_log {d}/nginx-error.log;\nevents {{}}\nhttp {{\n  access_log off;\n  include {d}/deny.conf;\n  server {{ listen 127.0.0.1:18080; location / {{ include {d}/deny.conf; }} }}\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let conf = dir.join("nginx.conf");
    let error_log = dir.join("nginx-error.log");
    check(
        &nginx,
        &[
            "-t",
            "-q",
            "-p",
            &d.to_string(),
            "-c",
            conf.to_str().unwrap(),
            "-e",
            error_log.to_str().unwrap(),
        ],
    )
}

fn apache_accepts(dir: &Path, deny: &str) -> Result<(), String> {
    let apachectl = program("apachectl", "apache2");
    std::fs::write(dir.join("deny-apache.conf"), deny).unwrap();
    let d = dir.display();
    let modules = "/usr/lib/apache2/modules";
    let conf = format!(
        "ServerRoot {d}\nLoadModule mpm_event_module {modules}/mod_mpm_event.so\nLoadModule authz_core_module {modules}/mod_authz_core.so\nLoadModule authz_host_module {modules}/mod_authz_host.so\nListen 127.0.0.1:18081\nPidFile {d}/apache.pid\nErrorLog {d}/apache-error.log\nServerName localhost\n<Location />\nInclude {d}/deny-apache.conf\n</Location>\n"
    );
    std::fs::write(dir.join("apache.conf"), conf).unwrap();
    check(
        &apachectl,
        &["-t", "-f", dir.join("apache.conf").to_str().unwrap()],
    )
}

fn nft_accepts(dir: &Path, deny: &str) -> Result<(), String> {
    let nft = program("nft", "nftables");
    let path = dir.join("deny.nft");
    std::fs::write(&path, deny).unwrap();
    check(&nft, &["-c", "-f", path.to_str().unwrap()])
}

#[test]
fn the_lab_deny_list_is_exact_and_every_format_is_accepted() {
    let lab = Lab::generate(2_500, 21);
    let disk = on_disk(&lab);
    let dns = dns_server(&lab);
    let (summary, rows) = run(
        options(
            lab.robots_txt,
            FeedSource::Mirror(disk.mirror.clone()),
            Some(&dns),
        ),
        &[&disk.log],
    );
    let entries = summary.deny_list();
    let listed: BTreeSet<IpAddr> = entries.iter().map(|(ip, _)| *ip).collect();
    assert_eq!(listed, lab.deny);
    // Never a verified crawler, though verified crawlers fetched the honeypot.
    let verified: BTreeSet<IpAddr> = rows
        .iter()
        .filter(|r| r.identity == Some("verified"))
        .map(|r| r.ip)
        .collect();
    assert!(rows
        .iter()
        .any(|r| r.honeypot && r.identity == Some("verified")));
    assert!(listed.is_disjoint(&verified));
    assert!(listed.iter().any(IpAddr::is_ipv6) && listed.iter().any(IpAddr::is_ipv4));

    let plain = render(&entries, DenyFormat::Plain);
    let read: BTreeSet<IpAddr> = plain
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(read, lab.deny);

    let dir = tempfile::tempdir().unwrap();
    nginx_accepts(dir.path(), &render(&entries, DenyFormat::Nginx)).unwrap();
    apache_accepts(dir.path(), &render(&entries, DenyFormat::Apache)).unwrap();
    nft_accepts(dir.path(), &render(&entries, DenyFormat::Nftables)).unwrap();
    // An empty list is valid too.
    nginx_accepts(dir.path(), &render(&[], DenyFormat::Nginx)).unwrap();
    apache_accepts(dir.path(), &render(&[], DenyFormat::Apache)).unwrap();
    nft_accepts(dir.path(), &render(&[], DenyFormat::Nftables)).unwrap();
}

/// The checks can fail: each program rejects a broken list.
#[test]
fn the_programs_reject_broken_lists() {
    let dir = tempfile::tempdir().unwrap();
    assert!(nginx_accepts(dir.path(), "deny 203.0.113.7\n").is_err());
    assert!(apache_accepts(dir.path(), "<RequireAll>\nRequire not ip\n</RequireAll>\n").is_err());
    assert!(nft_accepts(
        dir.path(),
        "table inet t { set s { type ipv4_addr; elements = { 1.2.3.999 } } }\n"
    )
    .is_err());
}
