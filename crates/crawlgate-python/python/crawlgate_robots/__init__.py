"""robots.txt exactly as Google reads it.

``RobotsTxt(body, profile="google")`` parses a file (bytes as served, or
str) and answers ``is_allowed(url, agent)`` and ``decide(url, agent)`` (the
verdict with the deciding rule and its line); ``for_agent(agent)`` compiles
one crawler's reading for many URLs. ``lint(body)`` reports what crawlers
will do with a file, ``FetchPolicy`` says what an HTTP answer for robots.txt
means, ``product_token(user_agent_header)`` extracts the name robots.txt
compares. ``PROFILES`` names the readings (``google``, the default,
``rfc9309``, ``legacy``, ``bing``).

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
    AgentView,
    ContentUsage,
    Diagnostic,
    FetchOutcome,
    FetchPolicy,
    RequestRate,
    RobotsTxt,
    Verdict,
    VisitTime,
    __version__,
    is_product_token,
    lint,
    product_token,
    robots_url,
)

__all__ = [
    "MAX_BYTES",
    "PROFILES",
    "AgentView",
    "ContentUsage",
    "Diagnostic",
    "FetchOutcome",
    "FetchPolicy",
    "RequestRate",
    "RobotsTxt",
    "Verdict",
    "VisitTime",
    "__version__",
    "crawler_token",
    "is_product_token",
    "lint",
    "product_token",
    "robots_url",
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
