"""Scrapy end to end: real crawls (one `scrapy runspider` process each)
against an HTTP server on 127.0.0.1, with crawlgate's parser, crawlgate's
middleware, and Scrapy's stock components for comparison."""

from __future__ import annotations

import http.server
import json
import pathlib
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from typing import Iterator

import pytest

import crawlgate

PAGES = ["/", "/a", "/b", "/private/c", "/private/d", "/search?q=1"]
ROBOTS = b"User-agent: *\nDisallow: /private/\nDisallow: /search\n\nUser-agent: testbot\nDisallow: /a\n"

SPIDER = '''
import scrapy

class Site(scrapy.Spider):
    name = "site"

    def __init__(self, start, bypass="", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.bypass = bypass

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            meta = {"dont_obey_robotstxt": True} if self.bypass and href == self.bypass else {}
            yield scrapy.Request(url, meta=meta)
'''

STOCK_MIDDLEWARE = "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware"


@dataclass
class Site:
    """What the server answers for robots.txt, and what it was asked."""

    robots: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)
    requested: list[str] = field(default_factory=list)

    def pages_fetched(self) -> set[str]:
        return {p for p in self.requested if not p.startswith("/robots")}


@pytest.fixture()
def site() -> Iterator[tuple[Site, str]]:
    state = Site()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            state.requested.append(self.path)
            if self.path in state.robots:
                status, headers, body = state.robots[self.path]
            elif self.path in PAGES:
                links = "".join(f'<a href="{p}">{p}</a>' for p in PAGES)
                status, headers, body = 200, {"Content-Type": "text/html"}, f"<html><body>{links}</body></html>".encode()
            else:
                status, headers, body = 404, {}, b"not found"
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def crawl(tmp_path: pathlib.Path, base: str, settings: dict[str, object], bypass: str = "") -> str:
    """Runs one crawl in its own process; returns its log."""
    spider = tmp_path / "spider.py"
    spider.write_text(SPIDER)
    args = [sys.executable, "-m", "scrapy", "runspider", str(spider), "-a", f"start={base}/", "-a", f"bypass={bypass}"]
    base_settings: dict[str, object] = {
        "LOG_LEVEL": "DEBUG",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": True,
        "USER_AGENT": "Mozilla/5.0 (compatible; testbot/1.0; +https://example.com/bot)",
        "RETRY_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 10,
        "CLOSESPIDER_TIMEOUT": 30,
    }
    base_settings.update(settings)
    for name, value in base_settings.items():
        text = json.dumps(value) if isinstance(value, (dict, list)) else str(value)
        args += ["-s", f"{name}={text}"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stderr


CRAWLGATE_PARSER = {"ROBOTSTXT_PARSER": "crawlgate.scrapy.RobotParser"}
CRAWLGATE_MIDDLEWARE = {
    "DOWNLOADER_MIDDLEWARES": {STOCK_MIDDLEWARE: None, "crawlgate.scrapy.RobotsTxtMiddleware": 100}
}


def test_parser_fetches_exactly_the_allowed_pages(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (200, {"Content-Type": "text/plain"}, ROBOTS)
    log = crawl(tmp_path, base, CRAWLGATE_PARSER)
    # The full User-Agent header is reduced to `testbot`, whose own group
    # disallows only /a (it does not get the * group's rules).
    robots = crawlgate.RobotsTxt(ROBOTS)
    expected = {p for p in PAGES if robots.is_allowed(base + p, "testbot")}
    assert expected == {"/", "/b", "/private/c", "/private/d", "/search?q=1"}
    assert state.pages_fetched() == expected
    assert "Forbidden by robots.txt" in log


def test_robotstxt_user_agent_setting(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (200, {}, ROBOTS)
    crawl(tmp_path, base, {**CRAWLGATE_PARSER, "ROBOTSTXT_USER_AGENT": "otherbot"})
    assert state.pages_fetched() == {"/", "/a", "/b"}


def test_middleware_fetches_exactly_the_allowed_pages(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (200, {"Cache-Control": "max-age=600"}, ROBOTS)
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == {"/", "/b", "/private/c", "/private/d", "/search?q=1"}
    assert state.requested.count("/robots.txt") == 1
    assert "conditional (robots.txt fetched and parsed); next fetch in 600 s" in log
    assert "line 6: Disallow: /a (for testbot)" in log


def test_dont_obey_robotstxt_meta(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (200, {}, ROBOTS)
    crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE, bypass="/a")
    assert "/a" in state.pages_fetched()


@pytest.mark.parametrize("status", [503, 500, 429])
def test_server_errors_block_the_crawl_with_the_middleware_only(site, tmp_path, status) -> None:
    state, base = site
    # A 503 error page, or a 500/429 with an empty body.
    body = b"<html><h1>Service Unavailable</h1></html>" if status == 503 else b""
    state.robots["/robots.txt"] = (status, {"Content-Type": "text/html"}, body)
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set()
    assert f"HTTP {status} from {base}/robots.txt: full disallow" in log
    assert "robotstxt/outcome/server_error" in log

    # The stock middleware reads the error page as "allow everything".
    state.requested.clear()
    crawl(tmp_path, base, {})
    assert state.pages_fetched() == set(PAGES)


def test_not_found_allows_the_crawl(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (404, {"Content-Type": "text/html"}, b"<html><h1>Not Found</h1></html>")
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set(PAGES)
    assert f"HTTP 404 from {base}/robots.txt: full allow" in log
    state.requested.clear()
    crawl(tmp_path, base, {})
    assert state.pages_fetched() == set(PAGES)

    # A 4xx means "no robots.txt" whatever its body says; the stock
    # middleware parses the body of any status.
    state.robots["/robots.txt"] = (404, {}, b"User-agent: *\nDisallow: /\n")
    state.requested.clear()
    crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set(PAGES)
    state.requested.clear()
    crawl(tmp_path, base, {})
    assert state.pages_fetched() == set()


def test_redirects_are_followed_up_to_five_hops(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (301, {"Location": "/robots-1.txt"}, b"")
    state.robots["/robots-1.txt"] = (302, {"Location": f"{base}/robots-2.txt"}, b"")
    state.robots["/robots-2.txt"] = (200, {}, b"User-agent: *\nDisallow: /b\n")
    crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set(PAGES) - {"/b"}

    # Six hops: given up, as a 404.
    state.requested.clear()
    for hop in range(7):
        state.robots[f"/robots-{hop}.txt" if hop else "/robots.txt"] = (301, {"Location": f"/robots-{hop + 1}.txt"}, b"")
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert "redirect not followed (too_many_redirects): full allow" in log
    assert [p for p in state.requested if p.startswith("/robots")] == ["/robots.txt"] + [f"/robots-{i}.txt" for i in range(1, 6)]
    assert state.pages_fetched() == set(PAGES)


def test_network_error_is_a_server_error(tmp_path) -> None:
    # A port held bound but not listening: every connection is refused, and
    # no other process can take the port during the crawl.
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        log = crawl(tmp_path, f"http://127.0.0.1:{port}", CRAWLGATE_MIDDLEWARE)
    outcome = [line for line in log.splitlines() if "robots.txt http" in line]
    assert len(outcome) == 1 and "network error (connect" in outcome[0], log[-3000:]
    assert "full disallow" in outcome[0]
    assert "Forbidden by robots.txt" in log
