"""crawlgate for Scrapy (2.11 and later).

Two components, switched on in ``settings.py``::

    ROBOTSTXT_PARSER = "crawlgate.scrapy.RobotParser"
    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "crawlgate.scrapy.RobotsTxtMiddleware": 100,
    }

``RobotParser`` is Scrapy's robots.txt parser contract answered by
crawlgate's Google reading; it works with the stock middleware.

``RobotsTxtMiddleware`` replaces the stock middleware, which parses
whatever body comes back (a 503 error page, a 500 with an empty body) as
"allow everything". It applies the HTTP rules of RFC 9309 and Google
(crawlgate's ``FetchPolicy``): 2xx parse the body (the first 500 KiB);
redirects followed for up to 5 hops, past that or on a loop as a 404; 4xx
allow everything; 429, 5xx and network errors disallow everything until a
retry (after 1 minute for a 503, with backoff otherwise, or as
``Retry-After`` says) gets an answer; answers are kept for 24 hours or as
``Cache-Control`` says. It honours ``ROBOTSTXT_OBEY``,
``ROBOTSTXT_USER_AGENT`` and the ``dont_obey_robotstxt`` request meta key,
and logs each outcome and the rule behind each refusal.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Optional, Union
from urllib.parse import urljoin, urlsplit

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, Response
from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from . import MAX_BYTES, FetchOutcome, FetchPolicy, RobotsTxt, crawler_token, robots_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

try:  # Scrapy 2.8+
    from scrapy.http.request import NO_CALLBACK
except ImportError:  # pragma: no cover - older Scrapy
    NO_CALLBACK = None

__all__ = ["RobotParser", "RobotsTxtMiddleware"]

logger = logging.getLogger(__name__)

# Redirect hops followed before the chain is given up (RFC 9309 §2.3.1.2).
MAX_REDIRECTS = 5


class RobotParser(_ScrapyRobotParser):
    """Scrapy's ``RobotParser`` answered by crawlgate (``ROBOTSTXT_PARSER =
    "crawlgate.scrapy.RobotParser"``). The body is parsed as bytes, as
    served; the User-Agent is reduced to its product token."""

    def __init__(self, robotstxt_body: Union[bytes, str, RobotsTxt], spider: Any = None) -> None:
        self.spider = spider
        if isinstance(robotstxt_body, RobotsTxt):
            self.robots = robotstxt_body
        else:
            self.robots = RobotsTxt(robotstxt_body or b"")

    @classmethod
    def from_crawler(cls, crawler: "Crawler", robotstxt_body: bytes) -> "RobotParser":
        spider = getattr(crawler, "spider", None) if crawler else None
        return cls(robotstxt_body, spider)

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        return self.robots.is_allowed(url, crawler_token(user_agent))

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        return self.robots.crawl_delay(crawler_token(user_agent))


# Network failures, by the kind FetchPolicy knows: Twisted's exceptions
# (Scrapy before 2.14) and Scrapy's own (2.14 and later), by class name so
# that no version's missing name breaks the import.
_NETWORK_ERRORS = [
    (("DNSLookupError", "CannotResolveHostError"), "dns"),
    (("TimeoutError", "TCPTimedOutError", "DownloadTimeoutError"), "timeout"),
    (("ConnectionRefusedError", "ConnectError", "DownloadConnectionRefusedError", "TunnelError"), "connect"),
    (("ConnectionLost", "ConnectionDone", "ConnectionAborted"), "connection_reset"),
    (("ResponseFailed", "ResponseNeverReceived", "ResponseDataLossError", "_DataLoss"), "broken_body"),
]


def _network_kind(exc: BaseException) -> str:
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


class RobotsTxtMiddleware:
    """Obeys robots.txt with the HTTP rules of RFC 9309 and Google: see the
    module documentation."""

    DOWNLOAD_PRIORITY = 1000

    def __init__(self, crawler: "Crawler") -> None:
        if not crawler.settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        self.crawler = crawler
        self._default_useragent = crawler.settings.get("USER_AGENT")
        self._robotstxt_useragent = crawler.settings.get("ROBOTSTXT_USER_AGENT")
        self._policy = FetchPolicy()
        self._outcomes: dict[str, Optional[FetchOutcome]] = {}
        self._waiting: dict[str, list[Deferred]] = {}

    @classmethod
    def from_crawler(cls, crawler: "Crawler") -> "RobotsTxtMiddleware":
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
        agent = crawler_token(self._agent_of(request))
        verdict = outcome.decide(request.url, agent)
        if verdict.allowed:
            return None
        self.crawler.stats.inc_value("robotstxt/forbidden")
        if verdict.rule is not None:
            why = f"line {verdict.line}: {verdict.rule} (for {agent})"
        else:
            why = f"{outcome.kind.replace('_', ' ')}: {outcome.explanation}"
        logger.debug(
            "Forbidden by robots.txt: %(request)s (%(why)s)",
            {"request": request, "why": why},
            extra={"spider": self.crawler.spider},
        )
        raise IgnoreRequest(f"Forbidden by robots.txt: {why}")

    def _agent_of(self, request: Request) -> Union[str, bytes]:
        if self._robotstxt_useragent:
            return self._robotstxt_useragent
        return request.headers.get(b"User-Agent") or self._default_useragent or ""

    async def _outcome_for(self, robots: str, request: Request) -> Optional[FetchOutcome]:
        if robots in self._outcomes:
            outcome = self._outcomes[robots]
            if outcome is None or outcome.is_fresh(time.time()):
                return outcome
        if robots in self._waiting:
            waiter: Deferred = Deferred()
            self._waiting[robots].append(waiter)
            return await maybe_deferred_to_future(waiter)
        self._waiting[robots] = []
        outcome: Optional[FetchOutcome] = None
        try:
            outcome = await self._fetch(robots, request, self._outcomes.get(robots))
        finally:
            self._outcomes[robots] = outcome
            for waiter in self._waiting.pop(robots):
                waiter.callback(outcome)
        return outcome

    async def _fetch(
        self, robots: str, request: Request, previous: Optional[FetchOutcome]
    ) -> Optional[FetchOutcome]:
        """Fetches robots.txt, following redirects by hand, and applies the
        policy. ``None`` when the request was refused inside the crawler
        (another middleware raised ``IgnoreRequest``): nothing is obeyed,
        as with the stock middleware."""
        stats = self.crawler.stats
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
                stop = None
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
        self.crawler.stats.inc_value(f"robotstxt/outcome/{outcome.reason}")
        log = logger.info if outcome.kind == "conditional" else logger.warning
        log(
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
        kwargs: dict[str, Any] = {}
        if NO_CALLBACK is not None:
            kwargs["callback"] = NO_CALLBACK
        request = Request(
            url,
            priority=self.DOWNLOAD_PRIORITY,
            meta={
                "dont_obey_robotstxt": True,
                "dont_redirect": True,
                "dont_retry": True,
                "handle_httpstatus_all": True,
            },
            **kwargs,
        )
        engine = self.crawler.engine
        if hasattr(engine, "download_async"):  # Scrapy 2.14+
            return await engine.download_async(request)
        return await maybe_deferred_to_future(engine.download(request))
