//! The address policy end to end: loopback reached by name, by IP literal or
//! through a redirect is refused unless explicitly allowed, and the refused
//! address never sees a request. (Private ranges are tested on the policy
//! and resolver alone, in the unit tests, so no traffic goes anywhere but
//! loopback.)

use std::sync::Arc;
use std::time::Duration;

use crawlgate_fetch::{AddressClass, AddressPolicy, FetchError, Fetcher, StaticResolver};

use crawlgate_testserver::{Reply, TestServer};

fn loopback_names() -> Arc<StaticResolver> {
    let lo = "127.0.0.1".parse().unwrap();
    Arc::new(
        StaticResolver::new()
            .with("robots.test", [lo])
            .with("public.test", [lo])
            .with("internal.test", [lo]),
    )
}

/// The default address policy (public only), with the stub resolver.
fn strict(policy: AddressPolicy) -> Fetcher {
    Fetcher::builder()
        .resolver(loopback_names())
        .address_policy(policy)
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap()
}

fn assert_refused(
    result: Result<crawlgate_fetch::Decision, FetchError>,
    host: &str,
    url_end: &str,
) {
    match result {
        Err(FetchError::AddressRefused {
            url,
            host: h,
            address,
            class,
        }) => {
            assert_eq!(h, host);
            assert!(url.ends_with(url_end), "{url}");
            assert!(address.is_loopback());
            assert_eq!(class, AddressClass::Loopback);
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_name_resolving_to_loopback_is_refused_without_the_option() {
    let server = TestServer::start([("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"))]);
    let url = format!("http://robots.test:{}/page", server.port());

    let f = strict(AddressPolicy::public_only());
    assert_refused(f.check(&url, "bot").await, "robots.test", "/robots.txt");
    let err = f.fetch(&url).await.unwrap_err();
    assert!(err.to_string().contains("loopback"), "{err}");
    assert_eq!(server.total(), 0, "no request reached the server");
    assert!(f.cache().is_empty());

    // With the option, the same URL is fetched.
    let f = strict(AddressPolicy::allow_private());
    assert!(!f.check(&url, "bot").await.unwrap().verdict.allowed);
    assert_eq!(server.total(), 1);
}

#[tokio::test]
async fn loopback_ip_literals_are_refused_without_the_option() {
    let server = TestServer::start([("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"))]);
    let f = strict(AddressPolicy::public_only());
    assert_refused(
        f.check(&server.url("/page"), "bot").await,
        "127.0.0.1",
        "/robots.txt",
    );
    let v6 = format!("http://[::1]:{}/page", server.port());
    match f.check(&v6, "bot").await {
        Err(FetchError::AddressRefused { class, .. }) => assert_eq!(class, AddressClass::Loopback),
        other => panic!("{other:?}"),
    }
    // `localhost` through the system resolver (it resolves to loopback).
    let system = Fetcher::builder()
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    let localhost = format!("http://localhost:{}/page", server.port());
    assert!(matches!(
        system.check(&localhost, "bot").await,
        Err(FetchError::AddressRefused { .. })
    ));
    assert_eq!(server.total(), 0);
}

#[tokio::test]
async fn a_redirect_to_loopback_is_refused_without_the_option() {
    let server = TestServer::start([("/next", Reply::ok("User-agent: *\nDisallow: /\n"))]);
    // `public.test` stands for a public host: it is the one name allowed.
    let policy = AddressPolicy::public_only().allow_host("public.test");
    let start = format!("http://public.test:{}/page", server.port());

    for (location, host) in [
        (server.url("/next"), "127.0.0.1"),
        (
            format!("http://internal.test:{}/next", server.port()),
            "internal.test",
        ),
        (format!("http://[::1]:{}/next", server.port()), "[::1]"),
    ] {
        server.set("/robots.txt", Reply::redirect(302, &location));
        let before = server.hits("/robots.txt");
        let f = strict(policy.clone());
        assert_refused(f.check(&start, "bot").await, host, "/next");
        assert_eq!(
            server.hits("/robots.txt"),
            before + 1,
            "the first hop is fetched"
        );
        assert_eq!(server.hits("/next"), 0, "the redirect target is not");
    }

    // With the option the chain is followed.
    let f = strict(AddressPolicy::allow_private());
    server.set("/robots.txt", Reply::redirect(302, &server.url("/next")));
    assert!(!f.check(&start, "bot").await.unwrap().verdict.allowed);
    assert_eq!(server.hits("/next"), 1);
}

#[tokio::test]
async fn allowing_private_addresses_does_not_open_link_local_ones() {
    let server = TestServer::start([("/next", Reply::ok("User-agent: *\nDisallow: /\n"))]);
    let start = server.url("/page");
    for (location, class) in [
        (
            "http://169.254.169.254/latest/meta-data/",
            AddressClass::CloudMetadata,
        ),
        ("http://[::ffff:a9fe:a9fe]/", AddressClass::CloudMetadata),
        (
            "http://[::ffff:169.254.169.254]/",
            AddressClass::CloudMetadata,
        ),
        ("http://169.254.10.1/", AddressClass::LinkLocal),
        ("http://[fe80::1]/", AddressClass::LinkLocal),
        ("http://[fd00:ec2::254]/", AddressClass::CloudMetadata),
    ] {
        server.set("/robots.txt", Reply::redirect(302, location));
        let f = strict(AddressPolicy::allow_private());
        match f.fetch(&start).await {
            Err(FetchError::AddressRefused { class: c, url, .. }) => {
                assert_eq!(c, class, "{location}");
                // The hop refused is the redirect's, not the loopback start.
                assert!(!url.starts_with(&server.url("/")), "{url}");
            }
            other => panic!("{location}: expected a refusal, got {other:?}"),
        }
    }
    // The builder's option says the same.
    server.set(
        "/robots.txt",
        Reply::redirect(302, "http://169.254.169.254/"),
    );
    let f = Fetcher::builder()
        .allow_non_public_addresses()
        .timeout(Duration::from_secs(1))
        .build()
        .unwrap();
    assert!(matches!(
        f.fetch(&start).await,
        Err(FetchError::AddressRefused {
            class: AddressClass::CloudMetadata,
            ..
        })
    ));
}
