"""AI preferences in Python (#27): the effective Content-Usage /
Content-Signal preferences per URL and crawler, and the License records,
are those of `crawlgate explain --json`."""

from __future__ import annotations

import json
import subprocess

import pytest

from crawlgate_robots import RobotsTxt

# The attachment draft's example, a tie on one path, unknown keys, a
# Content-Signal, License records (one relative), and a group for a crawler
# of the registry.
BODY = b"""User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Usage: /news/ train-ai=y, bots=n
Content-Usage: /news/ train-ai=n, search=y
Content-Signal: search=yes, ai-train=no
License: https://example.com/license.xml
License: /relative.xml

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y

User-Agent: Googlebot
Disallow: /g/
Content-Usage: search=n
"""
URLS = ["/test", "/ai-ok/test", "/never/test", "/news/today", "/g/x", "https://example.com/news/a?b"]


def cli_explain(cli: str, tmp_path, agent: str, *flags: str) -> dict:
    path = tmp_path / "robots.txt"
    path.write_bytes(BODY)
    done = subprocess.run(
        [cli, "explain", str(path), "--agent", agent, "--json", *flags, *URLS],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("reading", ["crawler", "one-token"])
@pytest.mark.parametrize("agent", ["SomeBot", "ExampleBot", "Googlebot-Image", "AdsBot-Google"])
def test_preferences_are_the_clis(crawlgate_cli, tmp_path, agent, reading) -> None:
    flags = ["--one-token"] if reading == "one-token" else []
    cli = cli_explain(crawlgate_cli, tmp_path, agent, *flags)
    robots = RobotsTxt(BODY)
    view = robots.for_agent(agent, reading=reading)
    for url, expected in zip(URLS, cli["urls"]):
        assert robots.preferences(url, agent, reading=reading) == expected["preferences"], url
        assert view.preferences(url) == expected["preferences"]
    assert robots.licenses == cli["licenses"]


def test_the_drafts_reading() -> None:
    robots = RobotsTxt(BODY)
    others = robots.for_agent("SomeBot")
    assert others.preferences("/test")["train_ai"] == "disallowed"  # type: ignore[index]
    assert others.preferences("/ai-ok/test")["train_ai"] == "allowed"  # type: ignore[index]
    assert others.preferences("/never/test") is None  # not fetched: no preference applies
    news = others.preferences("/news/today")
    assert news is not None
    # The same path twice: the most restrictive of each category.
    assert (news["train_ai"], news["ai_use"], news["search"]) == ("disallowed", "unknown", "allowed")
    # Vocabulary draft 08: inside a search application, search=y decides
    # AI Training and AI Use as well.
    assert news["search_overrides"] == ["train-ai", "ai-use"]
    assert [r["line"] for r in news["content_usage"]] == [6, 7]
    assert news["unknown_keys"] == ["bots"]
    assert news["content_signal"] == {
        "line": 8, "value": "search=yes, ai-train=no", "signals": {"search": True, "ai-train": False},
    }
    # Googlebot-Image follows the Googlebot group (crawler reading).
    image = robots.preferences("/x", "Googlebot-Image")
    assert image is not None and image["search"] == "disallowed" and image["content_signal"] is None
    # One token: the `*` group, whose records say nothing of search.
    star = robots.preferences("/x", "Googlebot-Image", reading="one-token")
    assert star is not None and (star["train_ai"], star["search"]) == ("disallowed", "unknown")
    assert star["search_overrides"] == []
    assert robots.licenses == [
        {"line": 9, "url": "https://example.com/license.xml", "absolute": True},
        {"line": 10, "url": "/relative.xml", "absolute": False},
    ]


def test_vocabulary_08_examples() -> None:
    """The vocabulary draft's own examples, through Python."""
    cases = [
        ("train-ai=y, search=n", ("allowed", "unknown", "disallowed")),
        ('train-ai=y, train-ai, search=n, search="n"', ("unknown", "unknown", "unknown")),
        ("train-ai;allow=n, train-ai=y", ("allowed", "unknown", "unknown")),
        ("ai-use=n, Search=y", ("unknown", "unknown", "unknown")),
        ("ai-use=n, train-genai=y", ("unknown", "disallowed", "unknown")),
    ]
    for value, expected in cases:
        found = RobotsTxt(f"User-agent: *\nContent-Usage: {value}\n").preferences("/", "bot")
        assert found is not None
        assert (found["train_ai"], found["ai_use"], found["search"]) == expected, value
