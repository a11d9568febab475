"""The Python API: parsing, verdicts, views, extensions, lint, fetch policy,
and every error path."""

from __future__ import annotations

import datetime
import re
import threading

import pytest

import crawlgate_robots
from crawlgate_robots import FetchPolicy, RobotsTxt

SHOP = b"""\
# shop.example
User-agent: Googlebot
Disallow: /search
Allow: /search/about

User-agent: bingbot
Crawl-delay: 5
Request-rate: 1/10s 0800-1700
Visit-time: 2300-0500
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Content-Usage: train-ai=y
Content-Usage: /news/ train-ai=n
Host: shop.example

Sitemap: https://shop.example/sitemap.xml
Sitemap: https://shop.example/news.xml
"""


@pytest.fixture()
def shop() -> RobotsTxt:
    return RobotsTxt(SHOP)


def test_is_allowed_and_decide(shop: RobotsTxt) -> None:
    assert shop.is_allowed("https://shop.example/", "Googlebot")
    assert not shop.is_allowed("https://shop.example/search?q=shoes", "Googlebot")
    assert shop.is_allowed("https://shop.example/search/about/team", "Googlebot")
    verdict = shop.decide("https://shop.example/search?q=shoes", "googlebot")
    assert not verdict.allowed and not verdict
    assert (verdict.line, verdict.rule, verdict.rule_kind, verdict.pattern) == (
        3,
        "Disallow: /search",
        "disallow",
        "/search",
    )
    assert verdict.reason == "rule"
    assert verdict.selection == "specific"
    assert verdict.groups == [(2, 4)]
    assert "disallowed by line 3" in repr(verdict)


def test_verdict_without_rule(shop: RobotsTxt) -> None:
    verdict = shop.decide("/about", "mybot")
    assert verdict.allowed and bool(verdict)
    assert (verdict.rule, verdict.line, verdict.reason) == (None, None, "no_matching_rule")
    assert verdict.selection == "global"
    # bingbot and * share one group: Crawl-delay does not end a group.
    assert verdict.groups == [(6, 16)]
    assert RobotsTxt(b"User-agent: a\nDisallow: /\n").decide("/x", "b").reason == "no_group"
    empty = RobotsTxt(b"User-agent: *\nDisallow:\n").decide("/x", "b")
    assert (empty.allowed, empty.reason, empty.rule, empty.line) == (True, "empty_rule", "Disallow:", 2)
    assert verdict == shop.decide("https://shop.example/about", "mybot")
    assert verdict != shop.decide("/private/x", "mybot")


def test_agent_names_are_compared_as_given(shop: RobotsTxt) -> None:
    full_header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    # As Google's reference does: a full header names no group of its own.
    assert shop.decide("/search", full_header, reading="one-token").selection == "global"
    # The crawler reading maps it to its crawler.
    assert shop.decide("/search", full_header).selection == "specific"
    assert crawlgate_robots.product_token(full_header) == "Googlebot"
    assert crawlgate_robots.crawler_token(full_header) == "Googlebot"
    assert crawlgate_robots.crawler_token(b"mybot") == "mybot"
    assert crawlgate_robots.product_token("   ") is None
    assert crawlgate_robots.is_product_token("Googlebot-News")
    assert not crawlgate_robots.is_product_token("Googlebot/2.1")


def test_for_agent_view(shop: RobotsTxt) -> None:
    # One product token, read as Google's library reads it: bingbot's group
    # runs on to line 16 (Crawl-delay does not end a group there).
    view = shop.for_agent("bingbot", reading="one-token")
    assert view.agent == "bingbot"
    assert view.selection == "specific"
    assert view.groups == [(6, 16)]
    assert not view.is_allowed("/private/x")
    assert view.is_allowed("/private/press/kit")
    assert view.decide("/files/menu.pdf").line == 13
    urls = ["/", "/private/x", "/private/press/", "/a.pdf", "/a.pdf?x"]
    assert view.is_allowed_many(urls) == [True, False, True, False, True]
    assert view.is_allowed_many(iter(urls)) == [view.is_allowed(u) for u in urls]
    assert shop.is_allowed_many(urls, "bingbot", reading="one-token") == view.is_allowed_many(urls)
    assert [v.line for v in view.decide_many(urls)] == [None, 11, 12, 13, None]
    assert "bingbot" in repr(view)


def test_for_agent_view_reads_bingbot_by_bings_rules(shop: RobotsTxt) -> None:
    # The crawler Bingbot, read as Bing reads files: its group ends where
    # the next User-agent line starts one, so none of `*`'s rules apply.
    view = shop.for_agent("bingbot")
    assert view.selection == "specific"
    assert view.groups == [(6, 9)]
    urls = ["/", "/private/x", "/private/press/", "/a.pdf", "/a.pdf?x"]
    assert view.is_allowed_many(urls) == [True] * len(urls)
    assert [v.line for v in view.decide_many(urls)] == [None] * len(urls)
    assert shop.is_allowed_many(urls, "bingbot") == view.is_allowed_many(urls)
    assert view.crawl_delay() == 5.0
    # A crawler Google's rules read is unchanged by it.
    assert shop.for_agent("mybot").groups == [(6, 16)]


def test_extensions(shop: RobotsTxt) -> None:
    assert shop.crawl_delay("bingbot") == 5.0
    assert shop.crawl_delay("Googlebot") is None
    rate = shop.request_rate("bingbot")
    assert (rate.requests, rate.seconds, rate.interval, rate.line) == (1, 10.0, 10.0, 8)
    assert (rate.window.start, rate.window.end) == (datetime.time(8, 0), datetime.time(17, 0))
    visit = shop.visit_time("bingbot")
    assert (visit.start, visit.end, visit.line) == (datetime.time(23, 0), datetime.time(5, 0), 9)
    assert visit.contains(0) and not visit.contains(12 * 60)
    assert shop.for_agent("bingbot").crawl_delay() == 5.0
    assert shop.for_agent("Googlebot").visit_time() is None
    news = shop.content_usage("/news/today", "mybot")
    assert (news.path, news.preferences, news.line, news.get("train-ai")) == ("/news/", "train-ai=n", 15, False)
    assert shop.content_usage("/about", "mybot").get("train-ai") is True
    assert shop.content_usage("/about", "mybot").get("search") is None
    assert shop.content_usage("/private/x", "mybot") is None
    assert shop.sitemaps == ["https://shop.example/sitemap.xml", "https://shop.example/news.xml"]
    assert ("Host", "shop.example", 16) in shop.extensions
    assert shop.profile == "google"


def test_operators_readings_by_default() -> None:
    # Without a profile, Bing's crawlers are read by Bing's rules and Yandex's
    # robots by Yandex's parser; a named profile reads every crawler.
    body = (
        b"User-agent: bingbot\nCrawl-delay: 5\nUser-agent: *\nDisallow: /*.pdf$\n\n"
        b"User-agent: Yandex\nDisallow: /*aab\n"
    )
    own = RobotsTxt(body)
    google = RobotsTxt(body, profile="google")
    assert own.is_allowed("/menu.pdf", "bingbot")
    assert not google.is_allowed("/menu.pdf", "bingbot")
    assert own.is_allowed("/aaab", "YandexBot")
    assert not google.is_allowed("/aaab", "YandexBot")
    assert not own.is_allowed("/menu.pdf", "Googlebot")
    assert RobotsTxt(body, profile="bing").is_allowed("/menu.pdf", "bingbot")
    assert RobotsTxt(body, profile="yandex").is_allowed("/aaab", "YandexBot")
    assert own.is_allowed_many(["/menu.pdf", "/x.pdf"], "bingbot") == [True, True]


def test_profiles() -> None:
    body = b"User-agent: *\nDisallow: /*.php$\nDisalow: /tmp/\n"
    assert not RobotsTxt(body).is_allowed("/index.php", "bot")
    assert RobotsTxt(body, profile="legacy").is_allowed("/index.php", "bot")
    assert not RobotsTxt(body).is_allowed("/tmp/x", "bot")  # Google reads the misspelling
    strict = RobotsTxt(body, profile="rfc9309")
    assert strict.is_allowed("/tmp/x", "bot") and strict.profile == "rfc9309"
    assert RobotsTxt(body, "RFC").profile == "rfc9309"


def test_bodies_as_bytes_bytearray_and_text() -> None:
    body = "User-agent: *\nDisallow: /caf\u00e9\n"
    for given in (body, body.encode(), bytearray(body.encode())):
        assert not RobotsTxt(given).is_allowed("/caf%C3%A9", "bot")
    # Text decoded with surrogateescape gives back the original bytes.
    raw = b"User-agent: *\nDisallow: /\xff\n"
    assert RobotsTxt(raw.decode("utf-8", "surrogateescape")).decide("/%FF", "b").line == 2
    # Non-UTF-8 bytes never break the parse; later lines are still read.
    broken = RobotsTxt(b"\xff\xfe\x00garbage\nUser-agent: *\nDisallow: /x\n")
    assert not broken.is_allowed("/x", "bot")
    assert crawlgate_robots.MAX_BYTES == 500 * 1024


def test_url_and_agent_as_bytes(shop: RobotsTxt) -> None:
    assert not shop.is_allowed(b"https://shop.example/search", b"Googlebot")
    assert shop.decide(b"/search/about", "Googlebot").allowed


def test_lint() -> None:
    body = b"User-agent: *\nSitemap: https://x.example/s.xml\nUser-agent: Googlebot Image\nDisalow: /tmp/\n"
    findings = crawlgate_robots.lint(body)
    codes = {d.code for d in findings}
    assert {"R101", "R103", "R003"} <= codes
    typo = next(d for d in findings if d.code == "R003")
    assert (typo.name, typo.severity, typo.line, typo.column) == ("misspelled-field", "warning", 4, 1)
    assert body[typo.span[0] : typo.span[1]] == b"Disalow"
    assert typo.replacement == "Disallow" and "Disallow" in typo.fix
    assert str(typo).startswith("4:1: warning[R003]")
    assert [d.code for d in RobotsTxt(body).lint()] == [d.code for d in findings]
    assert crawlgate_robots.lint(b"User-agent: *\nDisallow: /x\n") == [] or all(
        d.severity != "error" for d in crawlgate_robots.lint(b"User-agent: *\nDisallow: /x\n")
    )
    legacy = crawlgate_robots.lint(b"User-agent: *\nDisallow: /*.php$\n", legacy=True)
    assert "R402" in {d.code for d in legacy}
    assert "R402" not in {d.code for d in crawlgate_robots.lint(b"User-agent: *\nDisallow: /*.php$\n")}
    strict = crawlgate_robots.lint(b"User-agent: *\nDisallow: *.pdf\n", "rfc9309")
    assert "R006" in {d.code for d in strict}


def test_robots_url() -> None:
    assert crawlgate_robots.robots_url("https://Example.COM:443/a/b?c") == "https://example.com/robots.txt"
    assert crawlgate_robots.robots_url("http://www.ex\u00e4mple.com:8080/x") == "http://www.xn--exmple-cua.com:8080/robots.txt"
    with pytest.raises(ValueError, match="relative URL"):
        crawlgate_robots.robots_url("/just/a/path")
    with pytest.raises(ValueError, match="no robots.txt"):
        crawlgate_robots.robots_url("mailto:someone@example.com")


T0 = 1_700_000_000.0


def test_fetch_policy_rows() -> None:
    policy = FetchPolicy()
    ok = policy.on_response(200, b"User-agent: *\nDisallow: /private\n", now=T0)
    assert (ok.kind, ok.reason, ok.status, ok.ttl) == ("conditional", "fetched", 200, 86400.0)
    assert ok.expires_at == T0 + 86400 and ok.fetched_at == T0
    assert ok.is_fresh(T0 + 86399) and not ok.is_fresh(T0 + 86400)
    assert not ok.is_allowed("/private/x", "bot") and ok.is_allowed("/public", "bot")
    assert ok.robots.decide("/private/x", "bot").line == 2
    assert ok.decide("/private/x", "bot") == ok.robots.decide("/private/x", "bot")
    assert ok.decide("/robots.txt", "bot").reason == "robots_txt_itself"
    short = policy.on_response(200, "User-agent: *\n", cache_control="max-age=3600", now=T0)
    assert short.ttl == 3600.0
    for status in (401, 403, 404, 410):
        gone = policy.on_response(status, b"User-agent: *\nDisallow: /\n", now=T0)
        assert (gone.kind, gone.reason, gone.robots) == ("full_allow", "not_found", None)
        assert gone.is_allowed("/anything", "bot")
    for status in (429, 500, 503):
        down = policy.on_response(status, b"", now=T0)
        assert (down.kind, down.reason) == ("full_disallow", "server_error")
        assert not down.is_allowed("/", "bot") and down.error_count == 1
        verdict = down.decide("/", "bot")
        assert (verdict.allowed, verdict.reason, verdict.rule, verdict.selection) == (False, "full_disallow", None, None)
        assert down.is_allowed("https://x.example/robots.txt", "bot")
    # A 503 is retried after a minute; other server errors back off.
    assert policy.on_response(503, now=T0).ttl == 60.0
    first = policy.on_response(500, now=T0)
    second = policy.on_response(500, previous=first, now=T0 + 60)
    assert (first.ttl, second.ttl, second.error_count) == (60.0, 120.0, 2)
    assert policy.on_response(503, retry_after="300", now=T0).ttl == 300.0
    # A failed refresh keeps the last good copy.
    stale = policy.on_response(503, previous=ok, now=T0 + 86400)
    assert (stale.kind, stale.reason) == ("conditional", "stale_copy")
    assert not stale.is_allowed("/private/x", "bot")
    # Thirty days of errors without a copy: allow everything.
    streak = policy.on_network_error("timeout", "timed out", now=T0)
    assert (streak.kind, streak.reason, streak.status) == ("full_disallow", "server_error", None)
    late = policy.on_network_error("dns", previous=streak, now=T0 + 31 * 86400)
    assert (late.kind, late.reason) == ("full_allow", "unreachable_allow_all")
    redirect = policy.on_redirect_stop("too_many_redirects", now=T0)
    assert (redirect.kind, redirect.reason) == ("full_allow", "redirects_not_followed")
    assert "full_allow" in repr(redirect)
    assert "retry" in down.explanation


def test_fetch_policy_reads_only_500_kib() -> None:
    body = b"User-agent: *\n" + b"#" * (crawlgate_robots.MAX_BYTES - 20) + b"\nDisallow: /late\n"
    outcome = FetchPolicy().on_response(200, body, now=T0)
    assert outcome.is_allowed("/late", "bot")
    assert not RobotsTxt(b"User-agent: *\nDisallow: /late\n").is_allowed("/late", "bot")


def test_parsing_releases_the_gil() -> None:
    # Parsing in several threads gives the same answers as parsing in one.
    body = b"".join(b"User-agent: *\nDisallow: /%d/\n" % i for i in range(5000))
    results: list[bool] = []

    def work() -> None:
        robots = RobotsTxt(body)
        results.append(robots.is_allowed("/42/x", "bot") or not robots.is_allowed("/5000/x", "bot"))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [False] * 4


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: RobotsTxt(42), TypeError, "RobotsTxt() body must be bytes or str, not int"),
        (lambda: RobotsTxt(None), TypeError, "must be bytes or str, not NoneType"),
        (lambda: RobotsTxt(["User-agent: *"]), TypeError, "not list"),
        (lambda: RobotsTxt(b"", profile="baidu"), ValueError, "unknown profile `baidu`"),
        (lambda: RobotsTxt(b"", profile=3), TypeError, "profile"),
        (lambda: RobotsTxt("User-agent: *\nDisallow: /\ud800\n"), ValueError, "cannot be encoded as UTF-8"),
        (lambda: RobotsTxt(b"").is_allowed(1, "bot"), TypeError, "url must be str or bytes, not int"),
        (lambda: RobotsTxt(b"").is_allowed("/", None), TypeError, "agent must be str or bytes, not NoneType"),
        (lambda: RobotsTxt(b"").is_allowed(b"/\xff", "bot"), ValueError, "url is not valid UTF-8"),
        (lambda: RobotsTxt(b"").decide("/"), TypeError, "agent"),
        (lambda: RobotsTxt(b"").is_allowed_many("/a", "bot"), TypeError, "iterable of URLs, not a single str"),
        (lambda: RobotsTxt(b"").is_allowed_many(5, "bot"), TypeError, "iterable of URLs, not int"),
        (lambda: RobotsTxt(b"").for_agent("b").is_allowed_many(["/", 3]), TypeError, "urls[1] must be str"),
        (lambda: RobotsTxt(b"").for_agent(7), TypeError, "agent must be str"),
        (lambda: crawlgate_robots.lint(3.5), TypeError, "lint() body must be bytes or str, not float"),
        (lambda: crawlgate_robots.lint(b"", "nope"), ValueError, "unknown profile"),
        (lambda: crawlgate_robots.product_token(None), TypeError, "user_agent must be str or bytes"),
        (lambda: crawlgate_robots.crawler_token(1), TypeError, "user_agent must be str or bytes"),
        (lambda: crawlgate_robots.robots_url("not a url at all"), ValueError, "URL"),
        (lambda: FetchPolicy("x"), ValueError, "unknown profile `x`"),
        (lambda: FetchPolicy().on_response("200"), TypeError, "status must be an int, not str"),
        (lambda: FetchPolicy().on_response(True), TypeError, "status must be an int, not bool"),
        (lambda: FetchPolicy().on_response(70000), ValueError, "not an HTTP status code"),
        (lambda: FetchPolicy().on_response(42), ValueError, "not an HTTP status code"),
        (lambda: FetchPolicy().on_response(200, 5), TypeError, "body must be bytes or str"),
        (lambda: FetchPolicy().on_response(200, now=-1.0), ValueError, "non-negative"),
        (lambda: FetchPolicy().on_response(200, now=float("nan")), ValueError, "finite"),
        (lambda: FetchPolicy().on_response(200, now=1e300), ValueError, "out of range"),
        (lambda: FetchPolicy().on_response(200, cache_control=5), TypeError, "cache_control must be str"),
        (lambda: FetchPolicy().on_response(200, previous="x"), TypeError, "previous"),
        (lambda: FetchPolicy().on_redirect_stop("far"), ValueError, "unknown redirect stop"),
        (lambda: FetchPolicy().on_network_error("gremlins"), ValueError, "unknown network error kind"),
        (lambda: crawlgate_robots.Verdict(), TypeError, "cannot create 'crawlgate_robots.Verdict' instances"),
    ],
)
def test_errors_are_python_exceptions(call, error, message) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call()
