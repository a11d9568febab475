"""A drop-in for Protego, answered by crawlgate's Google reading.

The user agent a Protego user passes is the one they crawl with, so it is
read as that crawler (the crawler reading): a crawler of the registry
follows the rules its operator documents (``Googlebot-Image`` obeys the
``Googlebot`` group when no group names it, ``AdsBot-Google`` ignores
``*``), and any other name is one product token, exactly as Google's
library reads it. ``Protego.parse(content, reading="one-token")`` reads
every name as one token.

``from crawlgate_robots.protego import Protego`` replaces ``from protego import
Protego``: ``Protego.parse(content)``, ``can_fetch(url, user_agent)``,
``crawl_delay``, ``request_rate``, ``visit_time``, ``sitemaps`` and
``preferred_host`` keep Protego's signatures and return types.

Where the answers differ from Protego's, crawlgate follows Google's
reference reading (RFC 9309 plus Google's leniencies); the differences on
a real-world corpus, by class, are listed in the project README:

* a crawler obeys the group naming its exact product token (``googlebot``
  does not obey a ``googlebot-news`` group), or, when no group names it,
  the fallbacks its operator documents (``googlebot-news`` obeys a
  ``googlebot`` group); a full User-Agent header is read as its crawler;
* only an allow/disallow line ends a group (a ``Crawl-delay`` between two
  ``User-agent`` lines does not), and ``User-agent: Googlebot Image`` names
  ``googlebot``;
* the URL is matched as given (Protego re-quotes it), and only CR and LF
  end lines;
* of several ``Crawl-delay`` (``Request-rate``, ``Visit-time``) values the
  first valid one counts, and ``preferred_host`` is the first ``Host``
  line (Yandex's reading); Protego keeps the last;
* ``/robots.txt`` itself is decided by the rules like any URL (a crawler
  fetches it without asking);
* in the crawler reading, a file is read for Bing's crawlers by Bing's
  rules and for Yandex's robots by Yandex's parser's (crawlgate's ``bing``
  and ``yandex`` profiles), as their operators read it.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Iterator, NamedTuple, Optional, Union

from . import RobotsTxt, crawler_name, crawler_token

if TYPE_CHECKING:
    from ._crawlgate import _Reading

__all__ = ["Protego", "RequestRate", "VisitTime"]


class RequestRate(NamedTuple):
    """``Request-rate``: at most ``requests`` pages per ``seconds``, optionally
    between ``start_time`` and ``end_time`` (UTC)."""

    requests: int
    seconds: Union[int, float]
    start_time: Optional[datetime.time]
    end_time: Optional[datetime.time]


class VisitTime(NamedTuple):
    """``Visit-time``: crawl only between ``start_time`` and ``end_time`` (UTC)."""

    start_time: datetime.time
    end_time: datetime.time


class Protego:
    """A parsed robots.txt with Protego's interface."""

    __slots__ = ("_robots", "_reading")

    def __init__(self, robots: RobotsTxt, reading: _Reading = "crawler") -> None:
        if reading not in ("crawler", "one-token"):
            raise ValueError(f'unknown reading {reading!r}: expected "crawler" or "one-token"')
        self._robots = robots
        self._reading: _Reading = reading

    @classmethod
    def parse(cls, content: Union[str, bytes], *, reading: _Reading = "crawler") -> "Protego":
        """Parses robots.txt content (``str``, as Protego takes it, or the
        ``bytes`` as served). ``reading="one-token"`` reads every user
        agent as one product token, as Google's library does; the default
        reads it as the crawler it names."""
        if not isinstance(content, (str, bytes)):
            raise TypeError(f"Protego.parse expects str, got {type(content).__name__}")
        return cls(RobotsTxt(content), reading)

    @property
    def reading(self) -> _Reading:
        """How user agents are read: ``crawler`` or ``one-token``."""
        return self._reading

    def _name(self, user_agent: Union[str, bytes]) -> str:
        if self._reading == "crawler":
            return crawler_name(user_agent)
        return crawler_token(user_agent)

    @property
    def robots(self) -> RobotsTxt:
        """The underlying ``crawlgate.RobotsTxt`` (for ``decide`` and ``lint``)."""
        return self._robots

    def can_fetch(self, url: str, user_agent: str) -> bool:
        """Whether the crawler named by ``user_agent`` (a product token or a
        full User-Agent header) may fetch ``url``."""
        return self._robots.is_allowed(url, self._name(user_agent), reading=self._reading)

    def crawl_delay(self, user_agent: str) -> Optional[float]:
        """The crawl delay for the crawler in seconds, or ``None``."""
        return self._robots.crawl_delay(self._name(user_agent), reading=self._reading)

    def request_rate(self, user_agent: str) -> Optional[RequestRate]:
        """The request rate for the crawler, or ``None``."""
        rate = self._robots.request_rate(self._name(user_agent), reading=self._reading)
        if rate is None:
            return None
        seconds = rate.seconds
        window = rate.window
        return RequestRate(
            rate.requests,
            int(seconds) if float(seconds).is_integer() else seconds,
            window.start if window else None,
            window.end if window else None,
        )

    def visit_time(self, user_agent: str) -> Optional[VisitTime]:
        """The visit time window for the crawler, or ``None``."""
        window = self._robots.visit_time(self._name(user_agent), reading=self._reading)
        return None if window is None else VisitTime(window.start, window.end)

    @property
    def sitemaps(self) -> Iterator[str]:
        """The sitemap URLs, in file order."""
        return iter(self._robots.sitemaps)

    @property
    def preferred_host(self) -> Optional[str]:
        """The first ``Host:`` value, or ``None``."""
        for field, value, _line in self._robots.extensions:
            if field.lower() == "host" and value:
                return value
        return None

    def __repr__(self) -> str:
        return f"<crawlgate_robots.protego.Protego {self._robots!r}>"
