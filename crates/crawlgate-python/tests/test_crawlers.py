"""The crawler reading in Python (#24): the package decides for the crawler
a person names with the registry's rules by default, `reading="one-token"`
gives Google's library's reading, and every answer, with the group choice
and its sentence, is the one `crawlgate check --json` gives."""

from __future__ import annotations

import json
import subprocess

import pytest

import crawlgate_robots
from crawlgate_robots import RobotsTxt
from crawlgate_robots.protego import Protego

from conftest import REPO

DOC_FILE = REPO / "examples" / "google-groups.robots.txt"
ADS = b"User-agent: *\nDisallow: /\n"
APPLE = b"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n"
BING = b"User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\nCrawl-delay: 5\n"

# (file, crawler, URLs): the documentation's table and each rule of the
# registry (Google's robots.txt and crawler documentation, Apple's, Bing's).
CASES = [
    (DOC_FILE.read_bytes(), "Googlebot-News", ["/news-only", "/everyone-else", "/googlebot-only"]),
    (DOC_FILE.read_bytes(), "Googlebot", ["/news-only", "/everyone-else", "/googlebot-only"]),
    (DOC_FILE.read_bytes(), "Googlebot-Image", ["/news-only", "/everyone-else", "/googlebot-only"]),
    (DOC_FILE.read_bytes(), "Storebot-Google", ["/news-only", "/everyone-else", "/googlebot-only"]),
    (ADS, "AdsBot-Google", ["/landing", "/robots.txt"]),
    (APPLE, "Applebot", ["/g/page", "/page"]),
    (BING, "bingbot", ["/m/page", "/public"]),
    (BING, "mybot", ["/public"]),
    (BING, "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", ["/public"]),
]

def cli_check(cli: str, tmp_path, body: bytes, agent: str, urls: list[str], *flags: str) -> dict:
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    done = subprocess.run(
        [cli, "check", str(path), "--agent", agent, "--json", *flags, *urls],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("reading", ["crawler", "one-token"])
@pytest.mark.parametrize(("body", "agent", "urls"), CASES, ids=[c[1][:20] for c in CASES])
def test_answers_and_choices_are_the_clis(crawlgate_cli, tmp_path, body, agent, urls, reading) -> None:
    flags = ["--one-token"] if reading == "one-token" else []
    cli = cli_check(crawlgate_cli, tmp_path, body, agent, urls, *flags)
    assert cli["reading"] == reading
    robots = RobotsTxt(body)
    view = robots.for_agent(agent, reading=reading)
    for url, expected in zip(urls, cli["results"]):
        verdict = robots.decide(url, agent, reading=reading)
        assert verdict.allowed == expected["allowed"] == robots.is_allowed(url, agent, reading=reading)
        assert verdict.reason == expected["basis"]
        assert verdict.line == (expected["rule"] or {}).get("line")
        choice = verdict.choice.to_dict() if verdict.choice else None
        assert choice == expected.get("choice"), url
        assert view.decide(url) == verdict
        assert view.is_allowed_many([url]) == [verdict.allowed]


def test_the_documentation_table() -> None:
    """Google's robots.txt documentation: which group each crawler obeys."""
    robots = RobotsTxt(DOC_FILE.read_bytes())
    groups = {"Googlebot-News": (1, 2), "Googlebot": (7, 8), "Googlebot-Image": (7, 8), "Storebot-Google": (4, 5)}
    for crawler, group in groups.items():
        assert robots.for_agent(crawler).groups == [group], crawler
    choice = robots.group_choice("Googlebot-Image")
    assert (choice.kind, choice.token, choice.crawler) == ("fallback", "Googlebot", "Googlebot-Image")
    assert choice.why == (
        "Googlebot-Image obeys the Googlebot group at lines 7–8: no group names Googlebot-Image "
        "(Google's crawler documentation)"
    )
    assert choice.source_title == "Google's crawler documentation"
    # One token, as Google's library reads it: the `*` group.
    assert robots.for_agent("Googlebot-Image", reading="one-token").groups == [(4, 5)]
    assert robots.group_choice("Googlebot-Image", reading="one-token").kind == "*"


def test_each_rule_of_the_registry() -> None:
    # AdsBot-Google ignores `*` (Google's special-case crawlers).
    ads = RobotsTxt(ADS).decide("/landing", "AdsBot-Google")
    assert ads.allowed and ads.reason == "no_group" and ads.choice and ads.choice.kind == "none"
    assert not RobotsTxt(ADS).is_allowed("/landing", "AdsBot-Google", reading="one-token")
    # Applebot follows Googlebot's group when none names it (Apple's documentation).
    apple = RobotsTxt(APPLE)
    assert apple.is_allowed("/page", "Applebot") and not apple.is_allowed("/g/page", "Applebot")
    assert apple.group_choice("Applebot").token == "Googlebot"
    # Bingbot follows msnbot's group before `*`, and keeps `*`'s Crawl-delay.
    bing = RobotsTxt(BING)
    assert bing.is_allowed("/public", "bingbot") and not bing.is_allowed("/m/x", "bingbot")
    assert not bing.is_allowed("/public", "bingbot", reading="one-token")
    # A user-triggered fetcher that ignores robots.txt.
    user = [c for c in crawlgate_robots.crawlers() if c.obeys == "no" and c.kind == "user"][0]
    verdict = RobotsTxt(ADS).decide("/x", user.name)
    assert verdict.allowed and verdict.reason == "ignores_robots_txt"
    assert verdict.choice is not None and verdict.choice.kind == "ignores-robots-txt"


def test_bings_crawl_delay_from_star() -> None:
    robots = RobotsTxt(BING, profile="bing")
    assert robots.crawl_delay("bingbot") == 5.0
    assert robots.crawl_delay("bingbot", reading="one-token") == 5.0  # `*` is its group there
    own = RobotsTxt(b"User-agent: bingbot\nDisallow: /b\n\nUser-agent: *\nCrawl-delay: 7\n", profile="bing")
    assert own.crawl_delay("bingbot") == 7.0
    assert own.crawl_delay("bingbot", reading="one-token") is None


def test_the_registry() -> None:
    crawlers = crawlgate_robots.crawlers()
    assert len(crawlers) >= 200
    names = [c.name.lower() for c in crawlers]
    assert len(names) == len(set(names))
    assert crawlgate_robots.identify_crawler("GPTBot").ai and not crawlgate_robots.identify_crawler("Googlebot").ai  # type: ignore[union-attr]
    for c in crawlers:
        # Its own token is its whole name (AI2Bot, not the `AI` a line
        # naming it is read as); its fallbacks are product tokens.
        assert c.token.lower() == c.name.lower(), c
        assert all(crawlgate_robots.is_product_token(f) for f in c.fallbacks), c
        assert c.source_title and c.source_url.startswith("http") and c.checked, c
        assert c.tokens == [c.token, *c.fallbacks]
    image = crawlgate_robots.identify_crawler("googlebot-image")
    assert image is not None and image.tokens == ["Googlebot-Image", "Googlebot"] and image.obeys_star
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    assert crawlgate_robots.identify_crawler(header) == crawlgate_robots.identify_crawler("Googlebot")
    assert crawlgate_robots.identify_crawler("mybot") is None
    assert crawlgate_robots.crawler_name(header) == "Googlebot"
    assert crawlgate_robots.crawler_name("Mozilla/5.0 (compatible; mybot/1.0)") == "mybot"
    assert crawlgate_robots.READINGS == ("crawler", "one-token")
    ai2 = crawlgate_robots.identify_crawler("AI2Bot")
    assert ai2 is not None and ai2.token == "AI2Bot"
    dolma = crawlgate_robots.RobotsTxt(b"User-agent: Ai2Bot-Dolma\nDisallow: /\n")
    assert dolma.is_allowed("/", "AI2Bot") and dolma.is_allowed("/", "AI2Bot", reading="one-token")


def test_a_full_user_agent_header_is_its_crawler() -> None:
    robots = RobotsTxt(BING)
    header = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36"
    verdict = robots.decide("/public", header)
    assert verdict.allowed and verdict.choice is not None and verdict.choice.crawler == "Bingbot"


def test_protego_reads_the_user_agent_as_its_crawler() -> None:
    body = DOC_FILE.read_text()
    image = "Googlebot-Image/1.0"
    assert not Protego.parse(body).can_fetch("/googlebot-only", image)
    assert Protego.parse(body).can_fetch("/everyone-else", image)
    one_token = Protego.parse(body, reading="one-token")
    assert one_token.reading == "one-token"
    assert one_token.can_fetch("/googlebot-only", image) and not one_token.can_fetch("/everyone-else", image)
    assert Protego.parse(ADS.decode()).can_fetch("/landing", "AdsBot-Google (+http://www.google.com/adsbot.html)")
    with pytest.raises(ValueError, match="unknown reading"):
        Protego.parse(body, reading="google")  # type: ignore[arg-type]


def test_bad_readings_and_long_names_are_clear() -> None:
    robots = RobotsTxt(ADS)
    with pytest.raises(ValueError, match='expected "crawler"'):
        robots.decide("/", "bot", reading="oneToken")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        robots.decide("/", 7)  # type: ignore[arg-type]
    long = "a" * 70_000
    assert robots.decide("/" + long, long).allowed is False
    assert robots.group_choice(long).kind == "*"
    assert crawlgate_robots.identify_crawler(long) is None
    many = RobotsTxt("\n".join(f"User-agent: bot{i}\nDisallow: /{i}" for i in range(50_000)))
    assert many.decide("/7", "Googlebot-Image").allowed
