//! `POST /v1/verify`: the identity `crawlgate audit` gives a request, for
//! one address and agent: the lab's feeds from a mirror and its DNS zone on
//! a real DNS server on loopback (forged, double and silent PTR records);
//! the answers equal the lab's truth, which the audit's own tests hold
//! its rows to; each address asked once across requests (the caches are
//! the service's); bad input is a 400 with a JSON body.

use std::collections::BTreeMap;
use std::time::Duration;

use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_test_support::access_log::Lab;
use crawlgate_testserver::dns::{DnsServer, Zone};
use serde_json::json;

use crate::support::{config, post, start};

fn dns_server(lab: &Lab) -> DnsServer {
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
    DnsServer::start(zone)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identities_are_the_audits() {
    let lab = Lab::generate(3_000, 38);
    let data = tempfile::tempdir().unwrap();
    let mirror = data.path().join("mirror");
    lab.write_mirror(&mirror).unwrap();
    let dns = dns_server(&lab);
    let mut config = config(data.path());
    config.verify.feeds = FeedSource::Mirror(mirror);
    config.verify.dns = Some(DnsConfig {
        server: Some(dns.addr()),
        timeout: Duration::from_secs(1),
        concurrency: 8,
    });
    let server = start(config).await;
    let url = format!("{}/v1/verify", server.base);

    // Each distinct (address, agent) of the lab once, then again.
    let mut cases: BTreeMap<(String, String), Option<&'static str>> = BTreeMap::new();
    for truth in lab.truth.iter().filter(|t| !t.unreadable) {
        cases.insert(
            (truth.ip.unwrap().to_string(), truth.user_agent.clone()),
            truth.identity,
        );
    }
    assert!(cases.len() > 20);
    for round in 0..2 {
        for ((ip, agent), identity) in &cases {
            let (status, body) = post(&url, &json!({"ip": ip, "user_agent": agent})).await;
            assert_eq!(status, 200, "{body}");
            assert_eq!(body["identity"].as_str(), *identity, "{ip} {agent}: {body}");
            assert_eq!(body["crawler"].is_null(), identity.is_none(), "{body}");
            assert!(!body["why"].as_str().unwrap().is_empty());
        }
        if round == 0 {
            // The second round is answered from the caches.
            let asked = dns.queries();
            assert!(asked > 0);
        }
    }
    let (_, forged) = post(
        &url,
        &json!({"ip": "203.0.113.10", "user_agent": "Googlebot/2.1"}),
    )
    .await;
    assert_eq!(forged["identity"], "spoofed");
    assert!(
        forged["why"].as_str().unwrap().contains("forged PTR"),
        "{forged}"
    );
    assert_eq!(forged["crawler"]["name"], "Googlebot");
    assert!(forged["crawler"]["methods"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "dns googlebot.com, google.com"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_address_is_asked_once() {
    let lab = Lab::generate(100, 1);
    let data = tempfile::tempdir().unwrap();
    let dns = dns_server(&lab);
    let mut config = config(data.path());
    config.verify.dns = Some(DnsConfig {
        server: Some(dns.addr()),
        timeout: Duration::from_secs(1),
        concurrency: 8,
    });
    let server = start(config).await;
    let url = format!("{}/v1/verify", server.base);
    let body =
        json!({"ip": "5.255.253.10", "user_agent": "Mozilla/5.0 (compatible; YandexBot/3.0)"});
    let (_, first) = post(&url, &body).await;
    assert_eq!(first["identity"], "verified", "{first}");
    let asked = dns.queries();
    for _ in 0..5 {
        let (_, again) = post(&url, &body).await;
        assert_eq!(again, first);
    }
    assert_eq!(dns.queries(), asked, "answered from the service's cache");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_400s_with_a_json_body() {
    let data = tempfile::tempdir().unwrap();
    let server = start(config(data.path())).await;
    let url = format!("{}/v1/verify", server.base);
    let long = "x".repeat(70_000);
    for (body, field) in [
        (json!({"ip": "66.249.66.1"}), "user_agent"),
        (json!({"user_agent": "Googlebot"}), "ip"),
        (
            json!({"ip": "not an address", "user_agent": "Googlebot"}),
            "ip",
        ),
        (json!({"ip": "", "user_agent": "Googlebot"}), "ip"),
        (json!({"ip": long, "user_agent": "Googlebot"}), "ip"),
        (
            json!({"ip": "66.249.66.1", "user_agent": long}),
            "user_agent",
        ),
        (
            json!({"ip": "66.249.66.1", "user_agent": "Googlebot", "colour": "red"}),
            "colour",
        ),
    ] {
        let (status, answer) = post(&url, &body).await;
        assert_eq!(status, 400, "{answer}");
        let text = answer.to_string();
        assert!(text.contains(field), "{text}");
        assert!(text.len() < 2_000, "bounded: {} bytes", text.len());
    }
    // No crawler named: no identity, and no lookup.
    let (status, browser) = post(
        &url,
        &json!({"ip": "192.0.2.1", "user_agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"}),
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        browser["crawler"].is_null() && browser["identity"].is_null(),
        "{browser}"
    );
    // No DNS and no feed in this server's mirror: cannot tell.
    let (_, google) = post(
        &url,
        &json!({"ip": "66.249.66.1", "user_agent": "Googlebot/2.1"}),
    )
    .await;
    assert_eq!(google["identity"], "unknown", "{google}");
    server.stop().await;
}
