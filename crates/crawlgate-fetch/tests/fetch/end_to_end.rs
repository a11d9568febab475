//! Every access result of RFC 9309 §2.3.1 (as Google applies it) against
//! a real server: each test asserts the outcome and how many requests the
//! server saw.

use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crawlgate::Reason;
use crawlgate_answers::{
    Attempt, Basis, NetworkErrorKind, OutcomeKind, OutcomeReason, RedirectStop, ScopeError,
};
use crawlgate_fetch::{Clock, FetchError, ManualClock, StaticResolver, WarningCode};
use crawlgate_testserver::{Reply, TestServer};

use crate::{builder, clocked, fetcher, USER_AGENT};

const RULES: &str = "User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nSitemap: https://example.com/sitemap.xml\n";

fn has_warning(report: &crawlgate_fetch::FetchReport, code: WarningCode) -> bool {
    report.warnings.iter().any(|w| w.code == code)
}

#[tokio::test]
async fn ok_200_is_parsed_cached_and_requested_plainly() {
    let server = TestServer::start([("/robots.txt", Reply::ok(RULES))]);
    let f = fetcher();

    let d = f.check(&server.url("/private/x"), "mybot").await.unwrap();
    assert!(!d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::Rules(Reason::Rule));
    let rule = d.verdict.rule.as_ref().unwrap();
    assert_eq!(
        (rule.line, rule.kind, rule.text.as_str()),
        (2, crawlgate::RuleKind::Disallow, "Disallow: /private")
    );
    assert_eq!(d.outcome, Some(OutcomeKind::Conditional));
    assert_eq!(d.reason, Some(OutcomeReason::Fetched));
    assert!(!d.from_cache);
    assert_eq!(d.to_string(), "disallowed by line 2 (Disallow: /private)");

    let d = f
        .check(&server.url("/private/ok/1"), "mybot")
        .await
        .unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.verdict.rule.unwrap().line, 3);
    assert!(d.from_cache);
    let d = f.check(&server.url("/public?q=1"), "mybot").await.unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::Rules(Reason::NoMatchingRule));
    assert_eq!(
        server.hits("/robots.txt"),
        1,
        "one fetch serves every check"
    );

    let request = &server.requests()[0];
    assert_eq!(request.method, "GET");
    assert_eq!(request.header("User-Agent"), Some(USER_AGENT));
    assert!(request.header("If-Modified-Since").is_none());
    assert!(request.header("If-None-Match").is_none());
    let encodings = request.header("Accept-Encoding").unwrap();
    for encoding in ["gzip", "deflate", "br"] {
        assert!(encodings.contains(encoding), "{encodings}");
    }

    let report = f.fetch(&server.url("/anything")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 2);
    assert_eq!(report.status, Some(200));
    assert_eq!(report.hops.len(), 1);
    assert_eq!(report.robots_url, server.url("/robots.txt"));
    assert_eq!(report.outcome, OutcomeKind::Conditional);
    assert_eq!(report.reason, OutcomeReason::Fetched);
    assert_eq!(report.sitemaps, ["https://example.com/sitemap.xml"]);
    assert_eq!(report.ttl_seconds, 86_400);
    assert_eq!(report.bytes_read, RULES.len() as u64);
    assert_eq!(report.bytes_parsed, Some(RULES.len() as u64));
    assert!(!report.truncated);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);

    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["outcome"], "conditional");
    assert_eq!(json["reason"], "fetched");
    assert_eq!(json["hops"][0]["status"], 200);
    assert_eq!(json["attempt"]["kind"], "status");
    assert!(json["expires_at"].as_str().unwrap().ends_with('Z'));
    let json =
        serde_json::to_value(f.check(&server.url("/private"), "mybot").await.unwrap()).unwrap();
    assert_eq!(json["allowed"], false);
    assert_eq!(json["rule"]["line"], 2);
    assert_eq!(json["rule"]["kind"], "disallow");
}

#[tokio::test]
async fn html_200_is_parsed_and_reported() {
    let body = "<!DOCTYPE html>\n<html><body>\nUser-agent: *\nDisallow: /secret\n</body></html>\n";
    let reply = Reply::status(200)
        .header("Content-Type", "text/html; charset=utf-8")
        .body(body.as_bytes().to_vec());
    let server = TestServer::start([("/robots.txt", reply)]);
    let f = fetcher();
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert_eq!(report.outcome, OutcomeKind::Conditional);
    assert_eq!(
        report.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert!(
        has_warning(&report, WarningCode::HtmlBody),
        "{:?}",
        report.warnings
    );
    assert!(
        !f.check(&server.url("/secret/x"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert!(
        f.check(&server.url("/open"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

fn compressed(encoding: &str, body: &[u8]) -> Vec<u8> {
    use flate2::write::{GzEncoder, ZlibEncoder};
    use flate2::Compression;
    match encoding {
        "gzip" => {
            let mut e = GzEncoder::new(Vec::new(), Compression::default());
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
        "deflate" => {
            let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
            e.write_all(body).unwrap();
            e.finish().unwrap()
        }
        "br" => {
            let mut out = Vec::new();
            let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
            e.write_all(body).unwrap();
            drop(e);
            out
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn gzip_deflate_and_brotli_bodies_are_decoded() {
    for encoding in ["gzip", "deflate", "br"] {
        let reply = Reply::status(200)
            .header("Content-Type", "text/plain")
            .header("Content-Encoding", encoding)
            .body(compressed(encoding, RULES.as_bytes()));
        let server = TestServer::start([("/robots.txt", reply)]);
        let f = fetcher();
        let report = f.fetch(&server.url("/")).await.unwrap();
        assert_eq!(report.outcome, OutcomeKind::Conditional, "{encoding}");
        assert_eq!(report.bytes_read, RULES.len() as u64, "{encoding}");
        assert_eq!(report.sitemaps.len(), 1);
        assert!(
            !f.check(&server.url("/private"), "bot")
                .await
                .unwrap()
                .verdict
                .allowed
        );
        assert_eq!(server.hits("/robots.txt"), 1);
    }
}

#[tokio::test]
async fn a_corrupt_gzip_body_is_a_broken_body() {
    let reply = Reply::status(200)
        .header("Content-Encoding", "gzip")
        .body(b"\x1f\x8b\x08\x00this is not gzip at all".to_vec());
    let server = TestServer::start([("/robots.txt", reply)]);
    let f = fetcher();
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        report.attempt,
        Attempt::Network {
            error: NetworkErrorKind::BrokenBody
        }
    );
    assert_eq!(report.outcome, OutcomeKind::FullDisallow);
    assert_eq!(server.hits("/robots.txt"), 1);
}

/// `/robots.txt` → `/hop1` → … → `/hop{n}`, which serves the rules.
async fn redirect_chain(n: usize) -> TestServer {
    let server = TestServer::start([]);
    let statuses = [301, 302, 303, 307, 308, 301];
    for i in 0..n {
        let path = if i == 0 {
            "/robots.txt".to_owned()
        } else {
            format!("/hop{i}")
        };
        let next = format!("/hop{}", i + 1);
        // Alternate relative and absolute locations.
        let location = if i % 2 == 0 { next } else { server.url(&next) };
        server.set(
            &path,
            Reply::redirect(statuses[i % statuses.len()], &location),
        );
    }
    server.set(
        &format!("/hop{n}"),
        Reply::ok("User-agent: *\nDisallow: /blocked\n"),
    );
    server
}

#[tokio::test]
async fn one_to_five_redirects_are_followed() {
    for n in 1..=5 {
        let server = redirect_chain(n).await;
        let f = fetcher();
        let report = f.fetch(&server.url("/")).await.unwrap();
        assert_eq!(report.outcome, OutcomeKind::Conditional, "{n} redirects");
        assert_eq!(report.hops.len(), n + 1);
        assert!(report.hops[..n]
            .iter()
            .all(|h| (300..400).contains(&h.status.unwrap())));
        assert_eq!(report.hops[n].status, Some(200));
        assert_eq!(server.total(), n + 1);
        assert!(
            !f.check(&server.url("/blocked"), "bot")
                .await
                .unwrap()
                .verdict
                .allowed
        );
        assert_eq!(server.total(), n + 1, "the check used the cache");
    }
}

#[tokio::test]
async fn six_redirects_are_treated_as_404() {
    let server = redirect_chain(6).await;
    let f = fetcher();
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert_eq!(report.outcome, OutcomeKind::FullAllow);
    assert_eq!(report.reason, OutcomeReason::RedirectsNotFollowed);
    assert_eq!(
        report.attempt,
        Attempt::Redirect {
            stop: RedirectStop::TooManyRedirects
        }
    );
    assert_eq!(report.hops.len(), 6);
    assert_eq!(server.total(), 6);
    assert_eq!(
        server.hits("/hop6"),
        0,
        "the sixth redirect is not followed"
    );
    assert!(has_warning(&report, WarningCode::RedirectsNotFollowed));
    let d = f.check(&server.url("/blocked"), "bot").await.unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::FullAllow);
    assert_eq!(server.total(), 6);
}

#[tokio::test]
async fn a_redirect_loop_is_treated_as_404() {
    let server = TestServer::start([
        ("/robots.txt", Reply::redirect(301, "/a")),
        ("/a", Reply::redirect(302, "/robots.txt")),
    ]);
    let f = fetcher();
    let d = f.check(&server.url("/x"), "bot").await.unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.reason, Some(OutcomeReason::RedirectsNotFollowed));
    assert_eq!((server.hits("/robots.txt"), server.hits("/a")), (1, 1));
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        report.attempt,
        Attempt::Redirect {
            stop: RedirectStop::Loop
        }
    );
    assert_eq!(server.total(), 4);
}

#[tokio::test]
async fn a_cross_host_redirect_is_followed_and_applies_to_the_first_origin() {
    let other = TestServer::start([(
        "/robots.txt",
        Reply::ok("User-agent: *\nDisallow: /from-b\n"),
    )]);
    let first = TestServer::start([]);
    let location = format!("http://other.test:{}/robots.txt", other.port());
    first.set("/robots.txt", Reply::redirect(301, &location));
    let resolver = StaticResolver::new().with("other.test", ["127.0.0.1".parse().unwrap()]);
    let f = builder().resolver(Arc::new(resolver)).build().unwrap();

    let d = f.check(&first.url("/from-b/x"), "bot").await.unwrap();
    assert!(!d.verdict.allowed);
    assert_eq!((first.total(), other.total()), (1, 1));
    assert_eq!(
        other.requests()[0].header("Host"),
        Some(format!("other.test:{}", other.port()).as_str())
    );
    assert_eq!(f.cache().len(), 1, "cached under the first origin only");

    let report = f.fetch(&first.url("/")).await.unwrap();
    assert_eq!(report.hops.len(), 2);
    assert_eq!(report.hops[1].url, location);
    assert!(
        has_warning(&report, WarningCode::CrossHostRedirect),
        "{:?}",
        report.warnings
    );
}

#[tokio::test]
async fn client_errors_allow_everything() {
    for status in [401, 403, 404, 410] {
        let server = TestServer::start([("/robots.txt", Reply::status(status))]);
        let f = fetcher();
        let d = f.check(&server.url("/private"), "bot").await.unwrap();
        assert!(d.verdict.allowed, "{status}");
        assert_eq!(d.verdict.basis, Basis::FullAllow);
        assert_eq!(d.reason, Some(OutcomeReason::NotFound));
        let d = f.check(&server.url("/other"), "bot").await.unwrap();
        assert!(d.verdict.allowed && d.from_cache);
        assert_eq!(server.hits("/robots.txt"), 1, "{status}");
    }
}

#[tokio::test]
async fn too_many_requests_honours_retry_after() {
    let clock = Arc::new(ManualClock::new(SystemTime::now()));
    let server = TestServer::start([(
        "/robots.txt",
        Reply::status(429).header("Retry-After", "120"),
    )]);
    let f = clocked(clock.clone());
    let d = f.check(&server.url("/page"), "bot").await.unwrap();
    assert!(!d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::FullDisallow);
    assert_eq!(d.reason, Some(OutcomeReason::ServerError));
    let ttl = d
        .expires_at
        .unwrap()
        .duration_since(d.fetched_at.unwrap())
        .unwrap();
    assert_eq!(ttl, Duration::from_secs(120));

    clock.advance(Duration::from_secs(119));
    assert!(
        !f.check(&server.url("/page"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert_eq!(server.hits("/robots.txt"), 1, "no retry before Retry-After");

    clock.advance(Duration::from_secs(2));
    server.set("/robots.txt", Reply::ok(RULES));
    let d = f.check(&server.url("/page"), "bot").await.unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.reason, Some(OutcomeReason::Fetched));
    assert_eq!(server.hits("/robots.txt"), 2);

    let report = {
        server.set(
            "/robots.txt",
            Reply::status(429).header("Retry-After", "120"),
        );
        f.fetch(&server.url("/")).await.unwrap()
    };
    assert!(has_warning(&report, WarningCode::RetryAfter));
    // The good copy from the 200 is used while the server says 429.
    assert_eq!(report.reason, OutcomeReason::StaleCopy);
}

#[tokio::test]
async fn server_errors_disallow_everything_and_are_retried() {
    for status in [500, 503] {
        let clock = Arc::new(ManualClock::new(SystemTime::now()));
        let server = TestServer::start([("/robots.txt", Reply::status(status))]);
        let f = clocked(clock.clone());
        let d = f.check(&server.url("/page"), "bot").await.unwrap();
        assert!(!d.verdict.allowed, "{status}");
        assert_eq!(d.verdict.basis, Basis::FullDisallow);
        assert!(
            f.check(&server.url("/other"), "bot")
                .await
                .unwrap()
                .from_cache
        );
        assert_eq!(server.hits("/robots.txt"), 1);
        clock.advance(Duration::from_secs(61));
        assert!(
            !f.check(&server.url("/page"), "bot")
                .await
                .unwrap()
                .verdict
                .allowed
        );
        assert_eq!(server.hits("/robots.txt"), 2, "retried after the backoff");
    }
}

#[tokio::test]
async fn a_stale_copy_is_used_when_refreshes_fail_and_then_past_30_days() {
    let clock = Arc::new(ManualClock::new(SystemTime::now()));
    let server = TestServer::start([("/robots.txt", Reply::ok(RULES))]);
    let f = clocked(clock.clone());
    assert!(
        !f.check(&server.url("/private"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );

    clock.advance(Duration::from_secs(25 * 3600));
    server.set("/robots.txt", Reply::status(500));
    let d = f.check(&server.url("/private"), "bot").await.unwrap();
    assert!(!d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::Rules(Reason::Rule));
    assert_eq!(d.reason, Some(OutcomeReason::StaleCopy));
    assert!(
        f.check(&server.url("/public"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert_eq!(server.hits("/robots.txt"), 2);

    clock.advance(Duration::from_secs(31 * 86_400));
    server.set("/robots.txt", Reply::Reset);
    let d = f.check(&server.url("/private"), "bot").await.unwrap();
    assert_eq!(d.reason, Some(OutcomeReason::UnreachableLastCopy));
    assert!(!d.verdict.allowed);
    assert_eq!(server.hits("/robots.txt"), 3);
}

/// Fetches once, asserts the failure kind, a full disallow, and one request.
async fn assert_network_failure(reply: Reply, kind: NetworkErrorKind) {
    let server = TestServer::start([("/robots.txt", reply)]);
    let f = fetcher();
    let started = Instant::now();
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{kind}: {:?}",
        started.elapsed()
    );
    assert_eq!(
        report.attempt,
        Attempt::Network { error: kind },
        "{:?}",
        report.hops
    );
    assert_eq!(report.outcome, OutcomeKind::FullDisallow);
    assert_eq!(report.reason, OutcomeReason::ServerError);
    assert!(has_warning(&report, WarningCode::ServerError));
    assert!(report.hops[0].error.is_some());
    let d = f.check(&server.url("/page"), "bot").await.unwrap();
    assert!(!d.verdict.allowed);
    assert!(d.from_cache);
    assert_eq!(server.hits("/robots.txt"), 1, "{kind}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    assert_network_failure(Reply::Hang, NetworkErrorKind::Timeout).await;
}

#[tokio::test]
async fn a_reset_connection_is_a_server_error() {
    assert_network_failure(Reply::Reset, NetworkErrorKind::ConnectionReset).await;
}

#[tokio::test]
async fn a_truncated_chunked_body_is_a_server_error() {
    assert_network_failure(Reply::TruncatedChunked, NetworkErrorKind::BrokenBody).await;
}

#[tokio::test]
async fn a_slow_trickle_body_times_out() {
    let trickle = Reply::Trickle {
        interval: Duration::from_millis(100),
    };
    assert_network_failure(trickle, NetworkErrorKind::Timeout).await;
}

#[tokio::test]
async fn an_invalid_response_is_a_server_error() {
    let garbage = Reply::Raw(b"THIS IS NOT HTTP\r\n\r\n".to_vec());
    assert_network_failure(garbage, NetworkErrorKind::InvalidResponse).await;
}

#[tokio::test]
async fn a_refused_connection_is_a_server_error() {
    // A bound socket that never listens: connecting to it is refused, and
    // no other test can take the port meanwhile.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = socket.local_addr().unwrap().port();
    let f = fetcher();
    let report = f.fetch(&format!("http://127.0.0.1:{port}/")).await.unwrap();
    assert_eq!(
        report.attempt,
        Attempt::Network {
            error: NetworkErrorKind::Connect
        }
    );
    assert_eq!(report.outcome, OutcomeKind::FullDisallow);
    drop(socket);
}

#[tokio::test]
async fn a_name_that_does_not_resolve_is_a_server_error() {
    let f = builder()
        .resolver(Arc::new(StaticResolver::new()))
        .build()
        .unwrap();
    let report = f.fetch("http://nowhere.test/").await.unwrap();
    assert_eq!(
        report.attempt,
        Attempt::Network {
            error: NetworkErrorKind::Dns
        }
    );
    assert_eq!(report.outcome, OutcomeKind::FullDisallow);
    // The resolver's message quotes its cause: said once, not twice.
    let error = report.hops[0].error.as_deref().unwrap();
    assert!(
        error.ends_with("could not resolve nowhere.test: no address for nowhere.test"),
        "{error}"
    );
    assert_eq!(
        error.matches("no address for nowhere.test").count(),
        1,
        "{error}"
    );
}

#[tokio::test]
async fn a_2_mib_body_is_read_to_500_kib() {
    let mut body = String::from("User-agent: *\nDisallow: /early\n");
    while body.len() < 600 * 1024 {
        body.push_str("# filler filler filler filler filler filler filler filler\n");
    }
    body.push_str("Disallow: /late\n");
    while body.len() < 2 * 1024 * 1024 {
        body.push_str("# more filler more filler more filler more filler more\n");
    }
    let total = body.len() as u64;
    let server = TestServer::start([("/robots.txt", Reply::ok(&body))]);
    let f = fetcher();
    let report = f.fetch(&server.url("/")).await.unwrap();
    assert_eq!(report.outcome, OutcomeKind::Conditional);
    assert!(report.truncated);
    assert_eq!(report.bytes_read, 512_001);
    assert_eq!(report.bytes_discarded, Some(total - 512_000));
    assert!(report.bytes_parsed.unwrap() <= 512_000);
    assert!(has_warning(&report, WarningCode::Truncated));
    assert!(
        !f.check(&server.url("/early"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert!(
        f.check(&server.url("/late"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed,
        "past the limit"
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn urls_without_a_fetchable_robots_txt_are_clear_errors() {
    let f = fetcher();
    assert!(matches!(
        f.check("ftp://127.0.0.1/pub/file", "bot").await,
        Err(FetchError::UnsupportedScheme { scheme }) if scheme == "ftp"
    ));
    assert!(matches!(
        f.check("mailto:someone@example.com", "bot").await,
        Err(FetchError::Scope(ScopeError::NoRobotsTxt { .. }))
    ));
    assert!(matches!(
        f.check("/relative/path", "bot").await,
        Err(FetchError::Scope(ScopeError::Relative { .. }))
    ));
    assert!(matches!(
        f.fetch("data:text/plain,hello").await,
        Err(FetchError::Scope(ScopeError::NoRobotsTxt { .. }))
    ));
    let err = f.check("http://exa mple.com/", "bot").await.unwrap_err();
    assert!(err.to_string().contains("not a valid URL"), "{err}");
}

#[tokio::test]
async fn robots_txt_itself_is_always_allowed_without_a_fetch() {
    let server = TestServer::start([("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"))]);
    let f = fetcher();
    let d = f.check(&server.url("/robots.txt"), "bot").await.unwrap();
    assert!(d.verdict.allowed);
    assert_eq!(d.verdict.basis, Basis::Rules(Reason::RobotsTxt));
    assert_eq!(server.total(), 0);
    assert!(
        !f.check(&server.url("/robots.txt.bak"), "bot")
            .await
            .unwrap()
            .verdict
            .allowed
    );
    assert_eq!(server.total(), 1);
}

#[tokio::test]
async fn reservations_keep_the_crawl_delay() {
    let clock = Arc::new(ManualClock::new(SystemTime::now()));
    let server = TestServer::start([(
        "/robots.txt",
        Reply::ok("User-agent: *\nCrawl-delay: 2\nDisallow: /x\n"),
    )]);
    let f = clocked(clock.clone());
    let now = clock.now();
    assert_eq!(f.reserve(&server.url("/a"), "bot").await.unwrap(), now);
    assert_eq!(
        f.reserve(&server.url("/b"), "bot").await.unwrap(),
        now + Duration::from_secs(2)
    );
    assert_eq!(
        f.pacing(&server.url("/"), "bot")
            .await
            .unwrap()
            .delay_at(now),
        Duration::from_secs(2)
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}
