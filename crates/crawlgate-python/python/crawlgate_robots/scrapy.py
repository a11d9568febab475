"""crawlgate_robots for Scrapy (2.11 and later).

One setting, safe on every supported Scrapy version::

    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "crawlgate_robots.scrapy.RobotsTxtMiddleware": 100,
    }

``RobotsTxtMiddleware`` replaces the stock middleware. It applies the HTTP
rules of RFC 9309 and Google (crawlgate's ``FetchPolicy``): 2xx parse the
body (the first 500 KiB); redirects followed for up to 5 hops, past that or
on a loop as a 404; 4xx allow everything; 429, 5xx and network errors
disallow everything until a retry (after 1 minute for a 503, with backoff
otherwise, or as ``Retry-After`` says) gets an answer; answers are kept for
24 hours or as ``Cache-Control`` says. Every request waits for its
origin's answer, however many arrive at once. A request refused because
robots.txt could not be fetched is scheduled again once the retry is due
(at most ``CRAWLGATE_ROBOTSTXT_RESCHEDULE_TIMES`` times, 3 by default, and
only when the wait is at most ``CRAWLGATE_ROBOTSTXT_RESCHEDULE_MAX_WAIT``
seconds, 600 by default). It honours ``ROBOTSTXT_OBEY``,
``ROBOTSTXT_USER_AGENT`` and the ``dont_obey_robotstxt`` request meta key,
and logs each outcome and the rule behind each refusal.

Both read the User-Agent as the crawler it names (the crawler reading: a
crawler of crawlgate's registry follows the rules its operator documents,
any other name is one product token); ``CRAWLGATE_ROBOTSTXT_READING =
"one-token"`` reads it as one product token, exactly as Google's library
does.

``RobotParser`` is Scrapy's robots.txt parser contract answered by
crawlgate's Google reading (``ROBOTSTXT_PARSER``). With the stock
middleware it gives Google's reading of the rules but Scrapy's handling of
HTTP (any body is parsed: a 503 error page allows everything), and from
Scrapy 2.14 on the stock middleware lets the requests that arrive while
robots.txt is being fetched through unchecked; the parser logs a warning
there.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional, Union, cast
from urllib.parse import urljoin, urlsplit

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, NotConfigured
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from . import MAX_BYTES, FetchOutcome, FetchPolicy, RobotsTxt, crawler_name, crawler_token, robots_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from ._crawlgate import _Reading

__all__ = ["RescheduledByRobotsTxt", "RobotParser", "RobotsTxtMiddleware"]

logger = logging.getLogger(__name__)

# Redirect hops followed before the chain is given up (RFC 9309 §2.3.1.2).
MAX_REDIRECTS = 5

# From this Scrapy version on, the stock middleware hands the parser it is
# still fetching to the first waiting request only: the others get none and
# pass unchecked (scrapy/downloadermiddlewares/robotstxt.py awaits one
# Deferred from several requests).
STOCK_MIDDLEWARE_RACE_SINCE = (2, 14)

# Settings of the rescheduling of requests refused while robots.txt could
# not be fetched, and their defaults.
RESCHEDULE_TIMES = "CRAWLGATE_ROBOTSTXT_RESCHEDULE_TIMES"
RESCHEDULE_MAX_WAIT = "CRAWLGATE_ROBOTSTXT_RESCHEDULE_MAX_WAIT"
DEFAULT_RESCHEDULE_TIMES = 3
DEFAULT_RESCHEDULE_MAX_WAIT = 600.0
# The request meta key counting a request's reschedules.
RESCHEDULES_META = "crawlgate_robotstxt_reschedules"
#: The setting naming how the User-Agent is read: ``crawler`` (the
#: default) or ``one-token``.
READING = "CRAWLGATE_ROBOTSTXT_READING"


def _reading_of(settings: Any) -> _Reading:
    reading = settings.get(READING) if settings is not None else None
    if reading is None:
        return "crawler"
    if reading not in ("crawler", "one-token"):
        raise ValueError(f'{READING} must be "crawler" or "one-token", not {reading!r}')
    return cast("_Reading", reading)


def _name_for(user_agent: Union[str, bytes], reading: _Reading) -> str:
    """The name to ask about: the registry's crawler the User-Agent names
    (crawler reading), or its product token."""
    return crawler_name(user_agent) if reading == "crawler" else crawler_token(user_agent)


def _scrapy_version() -> tuple[int, ...]:
    parts = []
    for part in scrapy.__version__.split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


class RobotParser(_ScrapyRobotParser):
    """Scrapy's ``RobotParser`` answered by crawlgate (``ROBOTSTXT_PARSER =
    "crawlgate_robots.scrapy.RobotParser"``). The body is parsed as bytes, as
    served; the User-Agent is reduced to its product token."""

    def __init__(
        self, robotstxt_body: Union[bytes, str, RobotsTxt], spider: Any = None, reading: _Reading = "crawler"
    ) -> None:
        self.spider = spider
        self.reading: _Reading = reading
        if isinstance(robotstxt_body, RobotsTxt):
            self.robots = robotstxt_body
        else:
            self.robots = RobotsTxt(robotstxt_body or b"")

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> RobotParser:
        # Only the stock middleware builds the parser this way (ours passes
        # the parsed file): warn once per crawl where it is not safe.
        if (
            crawler is not None
            and _scrapy_version() >= STOCK_MIDDLEWARE_RACE_SINCE
            and not getattr(crawler, "_crawlgate_robotstxt_warned", False)
        ):
            crawler._crawlgate_robotstxt_warned = True  # type: ignore[attr-defined]
            logger.warning(
                "ROBOTSTXT_PARSER = crawlgate_robots.scrapy.RobotParser with Scrapy %(version)s's stock "
                "RobotsTxtMiddleware: requests that arrive while robots.txt is being fetched pass unchecked, "
                "and a 5xx robots.txt allows everything; set DOWNLOADER_MIDDLEWARES = "
                '{"scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None, '
                '"crawlgate_robots.scrapy.RobotsTxtMiddleware": 100} instead',
                {"version": scrapy.__version__},
            )
        spider = getattr(crawler, "spider", None) if crawler else None
        reading = _reading_of(getattr(crawler, "settings", None) if crawler else None)
        return cls(robotstxt_body, spider, reading)

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        return self.robots.is_allowed(url, _name_for(user_agent, self.reading), reading=self.reading)

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        return self.robots.crawl_delay(_name_for(user_agent, self.reading), reading=self.reading)


class RescheduledByRobotsTxt(IgnoreRequest):
    """A request refused while its origin's robots.txt could not be fetched
    (a 5xx, a 429 or a network error): a copy of it is scheduled for when
    the fetch is retried. A request's errback sees this exception for the
    refused request; its callback gets the copy's response."""


# Network failures, by the kind FetchPolicy knows: Twisted's exceptions
# (Scrapy before 2.14) and Scrapy's own (2.14 and later), by class name so
# that no version's missing name breaks the import.
NetworkKind = Literal["dns", "connect", "timeout", "connection_reset", "invalid_response", "broken_body", "other"]
RedirectStop = Literal["too_many_redirects", "loop", "missing_location", "invalid_location", "unsupported_scheme"]
_NETWORK_ERRORS: list[tuple[tuple[str, ...], NetworkKind]] = [
    (("DNSLookupError", "CannotResolveHostError"), "dns"),
    (("TimeoutError", "TCPTimedOutError", "DownloadTimeoutError"), "timeout"),
    (("ConnectionRefusedError", "ConnectError", "DownloadConnectionRefusedError", "TunnelError"), "connect"),
    (("ConnectionLost", "ConnectionDone", "ConnectionAborted"), "connection_reset"),
    (("ResponseFailed", "ResponseNeverReceived", "ResponseDataLossError", "_DataLoss"), "broken_body"),
]


def _network_kind(exc: BaseException) -> NetworkKind:
    names = {cls.__name__ for cls in type(exc).__mro__}
    for candidates, kind in _NETWORK_ERRORS:
        if names.intersection(candidates):
            return kind
    return "other"


def _header(response: Response, name: bytes) -> Optional[str]:
    values = response.headers.getlist(name)
    if not values:
        return None
    return ", ".join(v.decode("latin-1") for v in values)


def _call_later(delay: float, func: Callable[[], None]) -> Callable[[], None]:
    """Runs ``func`` after ``delay`` seconds on Scrapy's event loop; returns
    a function that cancels it."""
    try:  # Scrapy 2.14+: asyncio or Twisted, whichever runs
        from scrapy.utils.asyncio import call_later
    except ImportError:  # pragma: no cover - Scrapy before 2.14
        from twisted.internet import reactor

        call = cast(Any, reactor).callLater(delay, func)
        return lambda: call.cancel() if call.active() else None
    handle = call_later(delay, func)
    return handle.cancel


class RobotsTxtMiddleware:
    """Obeys robots.txt with the HTTP rules of RFC 9309 and Google: see the
    module documentation."""

    DOWNLOAD_PRIORITY = 1000

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        self.crawler = crawler
        self._default_useragent: Optional[str] = settings.get("USER_AGENT")
        self._robotstxt_useragent: Optional[str] = settings.get("ROBOTSTXT_USER_AGENT")
        self._reading = _reading_of(settings)
        self._reschedule_times = settings.getint(RESCHEDULE_TIMES, DEFAULT_RESCHEDULE_TIMES)
        self._reschedule_max_wait = settings.getfloat(RESCHEDULE_MAX_WAIT, DEFAULT_RESCHEDULE_MAX_WAIT)
        if self._reschedule_times < 0 or not self._reschedule_max_wait >= 0:
            raise ValueError(
                f"{RESCHEDULE_TIMES} and {RESCHEDULE_MAX_WAIT} must not be negative "
                f"(got {self._reschedule_times} and {self._reschedule_max_wait})"
            )
        self._policy = FetchPolicy()
        self._outcomes: dict[str, Optional[FetchOutcome]] = {}
        self._waiting: dict[str, list[Deferred[Optional[FetchOutcome]]]] = {}
        # Cancellers of the reschedules not yet due, by request.
        self._rescheduled: dict[int, Callable[[], None]] = {}
        crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RobotsTxtMiddleware:
        return cls(crawler)

    async def process_request(self, request: Request, spider: Any = None) -> None:
        if request.meta.get("dont_obey_robotstxt"):
            return None
        try:
            robots = robots_url(request.url)
        except ValueError:
            return None  # data:, file: … have no robots.txt
        outcome = await self._outcome_for(robots, request)
        if outcome is None:
            return None
        agent = _name_for(self._agent_of(request), self._reading)
        verdict = outcome.decide(request.url, agent, reading=self._reading)
        if verdict.allowed:
            return None
        stats = self.crawler.stats
        assert stats is not None
        if verdict.rule is not None:
            why = f"line {verdict.line}: {verdict.rule} (for {agent})"
        else:
            why = f"{outcome.kind.replace('_', ' ')}: {outcome.explanation}"
        if outcome.reason == "server_error" and self._reschedule(request, outcome):
            raise RescheduledByRobotsTxt(f"Rescheduled by robots.txt: {why}")
        stats.inc_value("robotstxt/forbidden")
        logger.debug(
            "Forbidden by robots.txt: %(request)s (%(why)s)",
            {"request": request, "why": why},
            extra={"spider": self.crawler.spider},
        )
        raise IgnoreRequest(f"Forbidden by robots.txt: {why}")

    def _reschedule(self, request: Request, outcome: FetchOutcome) -> bool:
        """Schedules a copy of ``request`` for when robots.txt is fetched
        again; false when the limits say to refuse it for good."""
        stats = self.crawler.stats
        assert stats is not None
        done = int(request.meta.get(RESCHEDULES_META, 0))
        # Just after the retry is due, so that the copy finds it stale.
        wait = max(outcome.expires_at - time.time(), 0.0) + 0.05
        if done >= self._reschedule_times:
            stats.inc_value("robotstxt/reschedule/max_reached")
            return False
        if wait > self._reschedule_max_wait:
            stats.inc_value("robotstxt/reschedule/wait_too_long")
            return False
        copy = request.replace(dont_filter=True, meta={**request.meta, RESCHEDULES_META: done + 1})
        key = id(copy)

        def due() -> None:
            self._rescheduled.pop(key, None)
            engine = self.crawler.engine
            if engine is not None and getattr(engine, "spider", None) is not None:
                engine.crawl(copy)

        self._rescheduled[key] = _call_later(wait, due)
        stats.inc_value("robotstxt/reschedule/count")
        logger.debug(
            "Rescheduled %(request)s in %(wait).1f s, when robots.txt is fetched again (%(done)d of %(most)d)",
            {"request": request, "wait": wait, "done": done + 1, "most": self._reschedule_times},
            extra={"spider": self.crawler.spider},
        )
        return True

    def _spider_idle(self, spider: Any = None) -> None:
        if self._rescheduled:
            raise DontCloseSpider

    def _spider_closed(self, spider: Any = None) -> None:
        for cancel in self._rescheduled.values():
            cancel()
        self._rescheduled.clear()

    def _agent_of(self, request: Request) -> Union[str, bytes]:
        if self._robotstxt_useragent:
            return self._robotstxt_useragent
        return request.headers.get(b"User-Agent") or self._default_useragent or ""

    async def _outcome_for(self, robots: str, request: Request) -> Optional[FetchOutcome]:
        if robots in self._outcomes:
            known = self._outcomes[robots]
            if known is None or known.is_fresh(time.time()):
                return known
        if robots in self._waiting:
            # One Deferred per waiting request: a Deferred awaited twice
            # gives the second waiter None.
            waiter: Deferred[Optional[FetchOutcome]] = Deferred()
            self._waiting[robots].append(waiter)
            return await maybe_deferred_to_future(waiter)
        self._waiting[robots] = []
        outcome: Optional[FetchOutcome] = None
        try:
            outcome = await self._fetch(robots, request, self._outcomes.get(robots))
        finally:
            self._outcomes[robots] = outcome
            for each in self._waiting.pop(robots):
                each.callback(outcome)
        return outcome

    async def _fetch(
        self, robots: str, request: Request, previous: Optional[FetchOutcome]
    ) -> Optional[FetchOutcome]:
        """Fetches robots.txt, following redirects by hand, and applies the
        policy. ``None`` when the request was refused inside the crawler
        (another middleware raised ``IgnoreRequest``): nothing is obeyed,
        as with the stock middleware."""
        stats = self.crawler.stats
        assert stats is not None
        url = robots
        seen = {url}
        hops = 0
        while True:
            stats.inc_value("robotstxt/request_count")
            try:
                response = await self._download(url)
            except IgnoreRequest as exc:
                logger.warning(
                    "robots.txt request %(url)s was refused inside the crawler (%(exc)s): not obeying robots.txt for it",
                    {"url": url, "exc": exc},
                    extra={"spider": self.crawler.spider},
                )
                return None
            except Exception as exc:  # noqa: BLE001 - every failure below HTTP is a server error
                kind = _network_kind(exc)
                stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
                outcome = self._policy.on_network_error(
                    kind, str(exc), previous=previous, now=time.time()
                )
                return self._decided(robots, outcome, f"network error ({kind}: {exc})")

            stats.inc_value("robotstxt/response_count")
            stats.inc_value(f"robotstxt/response_status_count/{response.status}")
            if 300 <= response.status < 400:
                stop: Optional[RedirectStop] = None
                target = url
                location = response.headers.get(b"Location")
                if not location:
                    stop = "missing_location"
                else:
                    target = urljoin(url, location.decode("latin-1"))
                    if urlsplit(target).scheme not in ("http", "https"):
                        stop = "unsupported_scheme"
                    elif target in seen:
                        stop = "loop"
                    elif hops >= MAX_REDIRECTS:
                        stop = "too_many_redirects"
                if stop is None:
                    hops += 1
                    seen.add(target)
                    url = target
                    continue
                outcome = self._policy.on_redirect_stop(stop, previous=previous, now=time.time())
                return self._decided(robots, outcome, f"redirect not followed ({stop})")

            outcome = self._policy.on_response(
                response.status,
                response.body[: MAX_BYTES + 1],
                cache_control=_header(response, b"Cache-Control"),
                retry_after=_header(response, b"Retry-After"),
                content_type=_header(response, b"Content-Type"),
                previous=previous,
                now=time.time(),
            )
            robots_parsed = getattr(signals, "robots_parsed", None)  # Scrapy 2.13+
            if outcome.robots is not None and robots_parsed is not None:
                self.crawler.signals.send_catch_log(
                    signal=robots_parsed,
                    robotparser=RobotParser(outcome.robots, self.crawler.spider),
                    request=request,
                )
            return self._decided(robots, outcome, f"HTTP {response.status} from {url}")

    def _decided(self, robots: str, outcome: FetchOutcome, what: str) -> FetchOutcome:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value(f"robotstxt/outcome/{outcome.reason}")
        # A file, or none (4xx, redirects given up), is the normal course of
        # a crawl; a server error or an old copy in use is worth a warning.
        settled = outcome.reason in ("fetched", "not_found", "redirects_not_followed", "soft_not_found")
        logger.log(
            logging.DEBUG if settled else logging.WARNING,
            "robots.txt %(robots)s: %(what)s: %(kind)s (%(why)s); next fetch in %(ttl)d s",
            {
                "robots": robots,
                "what": what,
                "kind": outcome.kind.replace("_", " "),
                "why": outcome.explanation,
                "ttl": outcome.ttl,
            },
            extra={"spider": self.crawler.spider},
        )
        return outcome

    async def _download(self, url: str) -> Response:
        request = Request(
            url,
            priority=self.DOWNLOAD_PRIORITY,
            meta={
                "dont_obey_robotstxt": True,
                "dont_redirect": True,
                "dont_retry": True,
                "handle_httpstatus_all": True,
            },
            callback=NO_CALLBACK,
        )
        engine = self.crawler.engine
        assert engine is not None
        if hasattr(engine, "download_async"):  # Scrapy 2.14+
            response: Response = await engine.download_async(request)
            return response
        return await maybe_deferred_to_future(engine.download(request))
