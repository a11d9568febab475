"""Scrapy end to end: real crawls (one `scrapy runspider` process each)
against HTTP servers on 127.0.0.1, with crawlgate's parser, crawlgate's
middleware, and Scrapy's stock components for comparison.

The lab: eleven origins (one server each), whose robots.txt answers 200
with rules, 4xx, 5xx, 429, a 503 window that ends, redirects and a redirect
loop. A crawl with the documented setting must fetch on each origin
exactly the pages crawlgate's FetchPolicy allows; the parser alone is
checked against what docs/python.md says of it.
"""

from __future__ import annotations

import http.server
import json
import pathlib
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pytest
import scrapy

import crawlgate_robots

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


def crawl(
    tmp_path: pathlib.Path,
    base: str,
    settings: dict[str, object],
    bypass: str = "",
    spider_code: str = SPIDER,
    check: bool = True,
) -> str:
    """Runs one crawl in its own process; returns its log. `base` is the
    start URL's origin (or, for the lab's spider, its JSON list of start
    URLs)."""
    spider = tmp_path / "spider.py"
    spider.write_text(spider_code)
    start = base if base.startswith("[") else f"{base}/"
    args = [sys.executable, "-m", "scrapy", "runspider", str(spider), "-a", f"start={start}", "-a", f"bypass={bypass}"]
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
    if check:
        assert done.returncode == 0, done.stderr[-4000:]
    return done.stderr


def stat(log: str, name: str) -> int:
    """A counter of the stats Scrapy dumps at the end of the log (0 when absent)."""
    found = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(found.group(1)) if found else 0


CRAWLGATE_PARSER = {"ROBOTSTXT_PARSER": "crawlgate_robots.scrapy.RobotParser"}
# The configuration docs/python.md documents.
CRAWLGATE_MIDDLEWARE = {
    "DOWNLOADER_MIDDLEWARES": {STOCK_MIDDLEWARE: None, "crawlgate_robots.scrapy.RobotsTxtMiddleware": 100}
}
# Requests refused while robots.txt fails are refused for good (the lab
# below checks the rescheduling).
NO_RESCHEDULE = {"CRAWLGATE_ROBOTSTXT_RESCHEDULE_TIMES": 0}


def test_parser_fetches_exactly_the_allowed_pages(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (200, {"Content-Type": "text/plain"}, ROBOTS)
    log = crawl(tmp_path, base, CRAWLGATE_PARSER)
    # The full User-Agent header is reduced to `testbot`, whose own group
    # disallows only /a (it does not get the * group's rules).
    robots = crawlgate_robots.RobotsTxt(ROBOTS)
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
    log = crawl(tmp_path, base, {**CRAWLGATE_MIDDLEWARE, **NO_RESCHEDULE})
    assert state.pages_fetched() == set()
    assert f"WARNING: robots.txt {base}/robots.txt: HTTP {status} from {base}/robots.txt: full disallow" in log
    assert stat(log, "robotstxt/outcome/server_error") == 1
    assert stat(log, "robotstxt/reschedule/max_reached") == 1 and stat(log, "robotstxt/reschedule/count") == 0

    # The stock middleware reads the error page as "allow everything".
    state.requested.clear()
    crawl(tmp_path, base, {})
    assert state.pages_fetched() == set(PAGES)


def test_not_found_allows_the_crawl(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (404, {"Content-Type": "text/html"}, b"<html><h1>Not Found</h1></html>")
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set(PAGES)
    # The normal course of a crawl: a DEBUG line and a stat, no warning.
    assert f"DEBUG: robots.txt {base}/robots.txt: HTTP 404 from {base}/robots.txt: full allow" in log
    assert stat(log, "robotstxt/outcome/not_found") == 1
    assert "WARNING: robots.txt" not in log
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
        log = crawl(tmp_path, f"http://127.0.0.1:{port}", {**CRAWLGATE_MIDDLEWARE, **NO_RESCHEDULE})
    outcome = [line for line in log.splitlines() if "robots.txt http" in line]
    assert len(outcome) == 1 and "network error (connect" in outcome[0], log[-3000:]
    assert "full disallow" in outcome[0]
    assert "Forbidden by robots.txt" in log


# --- The lab: eleven origins, one crawl ----------------------------------

LAB_SPIDER = '''
import json
import scrapy

class Lab(scrapy.Spider):
    name = "lab"

    def __init__(self, start, bypass="", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = json.loads(start)

    def parse(self, response):
        pass
'''

# An answer: (status, headers, body).
Answer = tuple[int, dict[str, str], bytes]
HTML = {"Content-Type": "text/html"}
TEXT = {"Content-Type": "text/plain"}
# robots.txt answers are slow, so that requests pile up while one is fetched.
ROBOTS_DELAY = 0.3


@dataclass
class Origin:
    """One origin of the lab: what its robots.txt paths answer (given how
    many times robots.txt itself was asked) and what was requested."""

    name: str
    answer: Callable[[str, int], Answer]
    requested: list[tuple[float, str]] = field(default_factory=list)
    base: str = ""
    robots_asked: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def pages_fetched(self) -> set[str]:
        return {p for _, p in self.requested if not p.startswith("/robots")}

    def robots_fetches(self) -> list[float]:
        return [t for t, p in self.requested if p == "/robots.txt"]


def always(answer: Answer) -> Callable[[str, int], Answer]:
    return lambda path, count: answer if path == "/robots.txt" else (404, {}, b"")


def first_then(first: Answer, then: Answer) -> Callable[[str, int], Answer]:
    return lambda path, count: (first if count == 1 else then) if path == "/robots.txt" else (404, {}, b"")


def chain(answers: dict[str, Answer]) -> Callable[[str, int], Answer]:
    return lambda path, count: answers.get(path, (404, {}, b""))


WINDOW_RULES = b"User-agent: *\nDisallow: /b\n"
LAB: list[tuple[str, Callable[[str, int], Answer]]] = [
    ("rules", always((200, TEXT, ROBOTS))),
    ("star", always((200, TEXT, b"User-agent: *\nDisallow: /private/\n"))),
    ("agent-disallow-all", always((200, TEXT, b"User-agent: testbot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"))),
    ("not-found", always((404, HTML, b"<html><h1>Not Found</h1></html>"))),
    ("gone-with-rules", always((410, TEXT, b"User-agent: *\nDisallow: /\n"))),
    ("unauthorized", always((401, HTML, b"<html>log in</html>"))),
    ("server-error", always((500, {"Retry-After": "1"}, b""))),
    ("rate-limited", always((429, {"Retry-After": "1"}, b"slow down"))),
    ("unavailable-window", first_then((503, {**HTML, "Retry-After": "2"}, b"<html>back soon</html>"), (200, TEXT, WINDOW_RULES))),
    ("redirected", chain({
        "/robots.txt": (301, {"Location": "/robots-1.txt"}, b""),
        "/robots-1.txt": (302, {"Location": "/robots-2.txt"}, b""),
        "/robots-2.txt": (200, TEXT, b"User-agent: *\nDisallow: /a\n"),
    })),
    ("redirect-loop", chain({"/robots.txt": (302, {"Location": "/robots.txt"}, b"")})),
]


def final_outcome(origin: Origin) -> crawlgate_robots.FetchOutcome:
    """What FetchPolicy makes of the origin's robots.txt once it answers for
    good (after a window, the answer that ends it)."""
    policy = crawlgate_robots.FetchPolicy()
    path, seen = "/robots.txt", set()
    while True:
        status, headers, body = origin.answer(path, 2)
        if 300 <= status < 400:
            target = headers["Location"]
            if target in seen or target == path:
                return policy.on_redirect_stop("loop")
            seen.add(path)
            path = target
            continue
        return policy.on_response(status, body, retry_after=headers.get("Retry-After"))


@pytest.fixture()
def lab() -> Iterator[list[Origin]]:
    origins = [Origin(name, answer) for name, answer in LAB]
    servers = []
    for origin in origins:

        def handler_for(origin: Origin) -> type[http.server.BaseHTTPRequestHandler]:
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self) -> None:  # noqa: N802 - http.server's name
                    origin.requested.append((time.monotonic(), self.path))
                    if self.path.startswith("/robots"):
                        time.sleep(ROBOTS_DELAY)
                        with origin.lock:
                            if self.path == "/robots.txt":
                                origin.robots_asked += 1
                            count = origin.robots_asked
                        status, headers, body = origin.answer(self.path, count)
                    elif self.path in PAGES:
                        status, headers, body = 200, HTML, b"<html><body>page</body></html>"
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

            return Handler

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler_for(origin))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin.base = f"http://127.0.0.1:{server.server_address[1]}"
        servers.append(server)
    try:
        yield origins
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def crawl_lab(tmp_path: pathlib.Path, origins: list[Origin], settings: dict[str, object]) -> str:
    """Every page of every origin as a start URL: each origin gets several
    requests at once before its robots.txt is known."""
    starts = [origin.base + page for origin in origins for page in PAGES]
    return crawl(tmp_path, json.dumps(starts), settings, spider_code=LAB_SPIDER)


def test_the_documented_setting_obeys_every_lab_origin(lab, tmp_path) -> None:
    log = crawl_lab(tmp_path, lab, CRAWLGATE_MIDDLEWARE)
    obeyed = []
    for origin in lab:
        outcome = final_outcome(origin)
        allowed = {p for p in PAGES if outcome.is_allowed(origin.base + p, "testbot")}
        if origin.pages_fetched() == allowed:
            obeyed.append(origin.name)
        else:
            print(f"{origin.name}: fetched {sorted(origin.pages_fetched())}, allowed {sorted(allowed)}")
    assert obeyed == [name for name, _ in LAB], log[-6000:]

    by_name = {origin.name: origin for origin in lab}
    # The lab says something: rules, nothing and everything all occur.
    assert by_name["rules"].pages_fetched() == set(PAGES) - {"/a"}
    assert by_name["server-error"].pages_fetched() == set() == by_name["rate-limited"].pages_fetched()
    assert by_name["gone-with-rules"].pages_fetched() == set(PAGES)

    # Every request met the 503 window and was refused, then fetched once
    # robots.txt answered: after the second robots.txt fetch.
    window = by_name["unavailable-window"]
    fetches = window.robots_fetches()
    assert len(fetches) == 2, fetches
    assert window.pages_fetched() == set(PAGES) - {"/b"}
    assert all(t > fetches[1] for t, p in window.requested if not p.startswith("/robots"))
    # Refused during the windows (6 + 6 + 6 requests the first time), then
    # rescheduled: the window's come back; the others' up to the limit.
    assert stat(log, "robotstxt/reschedule/count") == 6 + 2 * 6 * 3
    assert stat(log, "robotstxt/reschedule/max_reached") == 2 * 6
    # robots.txt fetched again when a window ends (once, unless a copy
    # comes back late), not for every request.
    for name in ("server-error", "rate-limited"):
        assert 4 <= len(by_name[name].robots_fetches()) <= 6, (name, by_name[name].robots_fetches())
    assert stat(log, "robotstxt/outcome/not_found") == 3
    assert stat(log, "robotstxt/outcome/redirects_not_followed") == 1
    assert "requests that arrive while robots.txt is being fetched pass unchecked" not in log


def test_the_parser_alone_is_safe_only_before_scrapy_2_14(lab, tmp_path) -> None:
    log = crawl_lab(tmp_path, lab, CRAWLGATE_PARSER)
    by_name = {origin.name: origin for origin in lab}
    served_rules = ["rules", "star", "agent-disallow-all", "redirected"]
    disobeyed = []
    for name in served_rules:
        origin = by_name[name]
        allowed = {p for p in PAGES if final_outcome(origin).is_allowed(origin.base + p, "testbot")}
        if not origin.pages_fetched() <= allowed:
            disobeyed.append(name)
    # Whatever the version, the stock middleware parses error pages: a 5xx
    # or a 429 allows everything.
    assert by_name["server-error"].pages_fetched() == set(PAGES) == by_name["rate-limited"].pages_fetched()
    warning = "requests that arrive while robots.txt is being fetched pass unchecked"
    if tuple(int(part) for part in scrapy.__version__.split(".")[:2]) >= (2, 14):
        # The stock middleware hands the parser to one waiting request; the
        # others pass unchecked. The parser says so.
        assert disobeyed != [], "Scrapy's stock middleware no longer races: update docs/python.md"
        assert warning in log
    else:
        assert disobeyed == []
        assert warning not in log


def test_a_window_too_long_is_not_waited_for(site, tmp_path) -> None:
    state, base = site
    state.robots["/robots.txt"] = (503, {"Retry-After": "7200"}, b"")
    started = time.monotonic()
    log = crawl(tmp_path, base, CRAWLGATE_MIDDLEWARE)
    assert state.pages_fetched() == set()
    assert stat(log, "robotstxt/reschedule/wait_too_long") == 1
    assert stat(log, "robotstxt/reschedule/count") == 0
    assert time.monotonic() - started < 25  # the crawl did not wait for the window


@pytest.mark.parametrize("setting", ["CRAWLGATE_ROBOTSTXT_RESCHEDULE_TIMES", "CRAWLGATE_ROBOTSTXT_RESCHEDULE_MAX_WAIT"])
def test_bad_reschedule_settings_stop_the_crawl(site, tmp_path, setting) -> None:
    _, base = site
    log = crawl(tmp_path, base, {**CRAWLGATE_MIDDLEWARE, setting: -1}, check=False)
    assert "must not be negative" in log
