"""robots.txt exactly as Google reads it.

``RobotsTxt(body, profile="google")`` parses a file (bytes as served, or
str) and answers ``is_allowed(url, agent)`` and ``decide(url, agent)`` (the
verdict with the deciding rule, its line, and ``choice``: which token's
group decided and why); ``for_agent(agent)`` compiles one crawler's reading
for many URLs. ``agent`` is the crawler a person names (``Googlebot-Image``,
or a full User-Agent header), read with the rules its operator documents
(``crawlers()``, the registry); ``reading="one-token"`` reads it as one
product token, exactly as Google's library does. ``preferences(url,
agent)`` gives the AI-usage preferences that apply, ``licenses`` the
``License`` records; ``search_console_report(body)`` classifies every line
as Search Console's robots.txt report does. ``lint(body)`` reports what
crawlers will do with a file, ``FetchPolicy`` says what an HTTP answer for
robots.txt means, ``product_token(user_agent_header)`` extracts the name
robots.txt compares. ``PROFILES`` names the profiles (``google``, the
default, ``rfc9309``, ``legacy``, ``bing``, ``yandex``).

The distribution is ``crawlgate-robots`` on PyPI (``crawlgate`` there is
an unrelated project); the Rust crates behind it are named ``crawlgate``.

Submodules: ``crawlgate_robots.protego`` (a drop-in for Protego),
``crawlgate_robots.scrapy`` (Scrapy's robots.txt parser and middleware) and
``crawlgate_robots.arrow`` (Arrow batch decisions for Spark, Polars, DuckDB).
"""

from typing import Union

from ._crawlgate import (
    MAX_BYTES,
    PROFILES,
    READINGS,
    REGISTRY_VERSION,
    AgentView,
    ContentUsage,
    Crawler,
    Diagnostic,
    FetchOutcome,
    FetchPolicy,
    GroupChoice,
    RequestRate,
    RobotsTxt,
    Verdict,
    VisitTime,
    __version__,
    crawlers,
    identify_crawler,
    is_product_token,
    lint,
    product_token,
    robots_url,
    search_console_report,
)
from .reports import LicenseRecord, ReportedLine, SearchConsoleReport, UsagePreferences

__all__ = [
    "MAX_BYTES",
    "PROFILES",
    "READINGS",
    "REGISTRY_VERSION",
    "AgentView",
    "ContentUsage",
    "Crawler",
    "Diagnostic",
    "FetchOutcome",
    "FetchPolicy",
    "GroupChoice",
    "LicenseRecord",
    "ReportedLine",
    "RequestRate",
    "RobotsTxt",
    "SearchConsoleReport",
    "UsagePreferences",
    "Verdict",
    "VisitTime",
    "__version__",
    "crawler_name",
    "crawler_token",
    "crawlers",
    "identify_crawler",
    "is_product_token",
    "lint",
    "product_token",
    "robots_url",
    "search_console_report",
]


def crawler_token(user_agent: Union[str, bytes]) -> str:
    """The name to look up in robots.txt for a crawler identified by
    ``user_agent``: a product token is kept as given (``Googlebot``), a full
    ``User-Agent`` header is reduced to its product token
    (``Mozilla/5.0 (compatible; mybot/1.0)`` gives ``mybot``)."""
    if isinstance(user_agent, bytes):
        user_agent = user_agent.decode("utf-8", "replace")
    if not isinstance(user_agent, str):
        raise TypeError(f"user_agent must be str or bytes, not {type(user_agent).__name__}")
    return product_token(user_agent) or user_agent.strip()


def crawler_name(user_agent: Union[str, bytes]) -> str:
    """The name to ask about, by the crawler reading, for a crawler
    identified by ``user_agent``: the registry's name of the crawler it
    identifies (``Mozilla/5.0 (compatible; Googlebot/2.1; ...)`` gives
    ``Googlebot``, ``AdsBot-Google (+http://...)`` gives ``AdsBot-Google``),
    else ``crawler_token(user_agent)``."""
    if isinstance(user_agent, bytes):
        user_agent = user_agent.decode("utf-8", "replace")
    if not isinstance(user_agent, str):
        raise TypeError(f"user_agent must be str or bytes, not {type(user_agent).__name__}")
    crawler = identify_crawler(user_agent)
    return crawler.name if crawler is not None else crawler_token(user_agent)
