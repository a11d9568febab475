//! End-to-end lines per second of `crawlgate audit` on a combined log:
//! read, parse, identify, verify (feeds from a mirror, DNS from a loopback
//! server, answered from the audit's cache after the first run), judge,
//! find; the summary only, and with the Parquet rows.
//!
//! `cargo bench -p crawlgate-audit --bench audit` (CRAWLGATE_AUDIT_LINES
//! sets the log's size: 1,000,000 by default). The log written is kept at
//! `audit-bench/access.log` under the target directory (`$CARGO_TARGET_DIR`,
//! or `target/`) for other tools (GoAccess) to read.

#![allow(missing_docs)] // criterion's macros write undocumented functions

use std::time::Duration;

use crawlgate_answers::net::PrefixSet;
use crawlgate_answers::RobotsSource;
use crawlgate_audit::audit::{Audit, AuditOptions, NoRows};
use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::identity::VerifyOptions;
use crawlgate_audit::input::LogSource;
use crawlgate_audit::output::table::{TableKind, TableWriter};
use crawlgate_audit::robots::{RobotsInForce, Site};
use crawlgate_test_support::access_log::{Lab, HONEYPOT};
use crawlgate_testserver::dns::{DnsServer, Zone};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn lines() -> usize {
    std::env::var("CRAWLGATE_AUDIT_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn bench(c: &mut Criterion) {
    let lines = lines();
    let lab = Lab::generate(lines, 2026);
    let dir = crawlgate_test_support::target_dir().join("audit-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("access.log");
    std::fs::write(&log, &lab.log).unwrap();
    let mirror = dir.join("ip-ranges");
    lab.write_mirror(&mirror).unwrap();
    let mut zone = Zone::new();
    for (ip, name) in &lab.dns.ptr {
        zone = zone.ptr(*ip, name);
    }
    for (name, ip) in &lab.dns.a {
        zone = zone.a(name, *ip);
    }
    for ip in &lab.dns.silent {
        zone = zone.silent_ptr(*ip);
    }
    let dns = DnsServer::start(zone);
    let audit = Audit::new(AuditOptions {
        format: None,
        robots: RobotsInForce::One(Site::single(
            "robots.txt",
            RobotsSource::from_bytes(lab.robots_txt.as_bytes().to_vec()),
        )),
        profile: None,
        honeypots: vec![HONEYPOT.to_owned()],
        trusted_proxies: PrefixSet::default(),
        verify: VerifyOptions {
            feeds: FeedSource::Mirror(mirror),
            allow_private: false,
            dns: Some(DnsConfig {
                server: Some(dns.addr()),
                timeout: Duration::from_secs(1),
                concurrency: 64,
            }),
            feed_timeout: Duration::from_secs(10),
        },
        threads: 0,
    })
    .unwrap();
    let sources = [LogSource::File(log)];
    // The first run fills the caches: the runs measured answer DNS from them.
    audit.run(&sources, &mut NoRows).unwrap();

    let mut group = c.benchmark_group("audit");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.throughput(Throughput::Elements(lines as u64));
    group.bench_function("combined_summary", |b| {
        b.iter(|| audit.run(&sources, &mut NoRows).unwrap());
    });
    let out = dir.join("requests.parquet");
    group.bench_function("combined_parquet", |b| {
        b.iter(|| {
            let mut table = TableWriter::create(&out, TableKind::Parquet).unwrap();
            audit.run(&sources, &mut table).unwrap();
            table.finish().unwrap();
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
