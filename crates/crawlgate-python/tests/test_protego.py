"""`crawlgate_robots.protego.Protego` against Protego itself, on the real-world
corpus.

Both parse the same text (the body decoded as Scrapy decodes it) and answer
`can_fetch` for several crawlers and URLs derived from each file's own
rules. Every disagreement must be explained by one of the classes below,
each proven on the case itself, by giving Protego an input on which the
cause is gone and checking that it then gives crawlgate's answer:

* `reading`: Protego agrees once it reads crawlgate's canonical rendering
  of the file (one group per record, rules as Google reads them): the
  difference is in how lines are read and grouped (only a rule line ends a
  group, Google's leniencies, CR/LF-only line breaks, the 500 KiB limit);
* `escapes`: Protego decodes and re-encodes percent escapes in rules and
  URLs (and re-quotes characters), Google compares them as written: with
  both sides normalised Protego's way, the two agree;
* `agent`: the two pick different groups on the canonical file: Protego
  matches a group's name anywhere in the crawler's name (`googlebot` for
  `googlebot-news`), Google only the exact product token, and Google reads
  `Googlebot/2.1` or `Googlebot Image` in a user-agent line as `googlebot`;
* `index alias`: Google's reference reads `Allow: /dir/index.htm` (as
  well as `index.html`) as also allowing `/dir/`; Protego only
  `index.html` (the verdict says the alias decided);
* `robots.txt`: Protego always allows `/robots.txt`;
* `operator`: the crawler's operator reads files by its own rules, and the
  drop-in reads the file for it that way (Yandex's robots by Yandex's
  parser, Bing's crawlers by Bing's): read by Google's rules, crawlgate
  gives Protego's answer. (The other classes are proven with the file read
  by Google's rules, whose answer is then the drop-in's.)

The agreement figure and the count per class are printed (and written to
protego-agreement.json in Cargo's target directory, for docs/python.md).
"""

from __future__ import annotations

import collections
import json
import re

import protego
from protego._utils import _quote_path, _quote_pattern

import crawlgate_robots
from crawlgate_robots.protego import Protego as DropIn

AGENTS = [
    "Googlebot",
    "googlebot-news",
    "Googlebot-Image",
    "bingbot",
    "GPTBot",
    "mybot",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
]
RULE_LINE = re.compile(r"^[ \t]*(?:dis)?allow[ \t]*:[ \t]*([^\s#]+)", re.IGNORECASE | re.MULTILINE)
CLASSES = ("reading", "escapes", "agent", "index alias", "robots.txt", "operator")


def urls_for(text: str) -> list[str]:
    """URLs a crawler of this site would ask about: from its own rules."""
    paths = ["/", "/robots.txt"]
    for value in RULE_LINE.findall(text)[:8]:
        path = value.rstrip("$").replace("*", "x")
        if not path.startswith("/"):
            path = "/" + path
        paths += [path, path + "x/y.html?q=1"]
    return [f"https://site.example{p}" for p in dict.fromkeys(paths)]


def group_agents(lines: list[str], groups: list[tuple[int, int]]) -> set[str]:
    """The user-agent values of the given groups of a canonical rendering."""
    names = set()
    for first, last in groups:
        for line in lines[first - 1 : last]:
            if line.startswith("User-agent: "):
                names.add(line[len("User-agent: ") :].strip().lower())
    return names


def normalised(canonical: str) -> str:
    """The canonical file with its rule values quoted Protego's way."""
    out = []
    for line in canonical.splitlines():
        for field in ("Allow: ", "Disallow: "):
            if line.startswith(field):
                line = field + _quote_pattern(line[len(field) :])
        out.append(line)
    return "\n".join(out) + "\n"


def classify(text: str, ours: DropIn, url: str, agent: str, theirs: bool) -> str | None:
    if _quote_path(url) == "/robots.txt" and theirs:
        return "robots.txt"
    # The classes below are Google's reading: they are proven with the file
    # read by Google's rules. A crawler read by its operator's rules (Bing's,
    # Yandex's) can answer otherwise: then Google's answer is Protego's.
    name = crawlgate_robots.crawler_name(agent)
    google = crawlgate_robots.RobotsTxt(text, profile="google")
    if google.is_allowed(url, name) == theirs:
        return "operator"
    token = crawlgate_robots.crawler_token(agent)
    if google.decide(url, token).via_index_alias and not theirs:
        return "index alias"
    canonical = google.render()
    reread = protego.Protego.parse(canonical)
    if reread.can_fetch(url, agent) != theirs and reread.can_fetch(url, agent) == (not theirs):
        return "reading"
    model = crawlgate_robots.RobotsTxt(canonical, profile="google")
    verdict = model.decide(url, token)
    chosen = reread._get_matching_rule_set(agent)
    protego_group = chosen.user_agent if chosen else None
    lines = canonical.splitlines()
    ours_groups = group_agents(lines, verdict.groups)
    protego_specific = protego_group not in (None, "*")
    if protego_specific != (verdict.selection == "specific"):
        return "agent"
    if protego_specific and protego_group not in ours_groups:
        return "agent"
    fixed_text = normalised(canonical)
    fixed_url = _quote_path(url)
    if crawlgate_robots.RobotsTxt(fixed_text, profile="google").is_allowed(fixed_url, token) == protego.Protego.parse(fixed_text).can_fetch(fixed_url, agent):
        return "escapes"
    return None


def test_drop_in_against_protego_on_the_corpus(corpus, target_dir) -> None:
    total = agree = 0
    classes: collections.Counter[str] = collections.Counter()
    files_per_class: dict[str, set[str]] = collections.defaultdict(set)
    unexplained = []
    for name, body in corpus:
        text = body.decode("utf-8", errors="ignore")  # as Scrapy decodes it
        theirs_parser = protego.Protego.parse(text)
        ours = DropIn.parse(text)
        for url in urls_for(text):
            for agent in AGENTS:
                total += 1
                theirs = theirs_parser.can_fetch(url, agent)
                if ours.can_fetch(url, agent) == theirs:
                    agree += 1
                    continue
                found = classify(text, ours, url, agent, theirs)
                if found is None:
                    unexplained.append((name, url, agent, theirs))
                else:
                    classes[found] += 1
                    files_per_class[found].add(name)
    figure = {
        "checks": total,
        "agree": agree,
        "agreement": round(agree / total, 5),
        "files": len(corpus),
        "classes": {c: {"checks": classes[c], "files": len(files_per_class[c])} for c in CLASSES},
    }
    print(json.dumps(figure, indent=2))
    (target_dir / "protego-agreement.json").write_text(json.dumps(figure, indent=2) + "\n")
    assert unexplained == [], f"{len(unexplained)} disagreements with no proven class, e.g. {unexplained[:5]}"
    # Each class still occurs (a class that stops occurring is a change to look at).
    assert all(classes[c] > 0 for c in CLASSES), classes
    assert total > 100_000 and agree / total > 0.9


def test_protego_surface() -> None:
    body = (
        "User-agent: *\nDisallow: /private\nCrawl-delay: 2.5\nRequest-rate: 3/1m 0900-1700\n"
        "Visit-time: 0600-0845\nHost: mirror.example\nSitemap: https://x.example/a.xml\n"
        "Sitemap: https://x.example/b.xml\n"
    )
    ours, theirs = DropIn.parse(body), protego.Protego.parse(body)
    for agent in ("mybot", "Mozilla/5.0 (compatible; mybot/1.0)"):
        assert ours.can_fetch("https://x.example/private/a", agent) is False
        assert ours.can_fetch("https://x.example/public", agent) is True
        assert ours.crawl_delay(agent) == theirs.crawl_delay(agent) == 2.5
        assert ours.request_rate(agent) == theirs.request_rate(agent)
        assert tuple(ours.request_rate(agent)) == tuple(theirs.request_rate(agent))
        assert ours.visit_time(agent) == theirs.visit_time(agent)
    assert list(ours.sitemaps) == list(theirs.sitemaps)
    assert ours.preferred_host == theirs.preferred_host == "mirror.example"
    empty = DropIn.parse("")
    assert empty.crawl_delay("a") is None and empty.request_rate("a") is None and empty.visit_time("a") is None
    assert empty.preferred_host is None and list(empty.sitemaps) == []
    assert DropIn.parse(b"User-agent: *\nDisallow: /\n").can_fetch("/x", "a") is False
    try:
        DropIn.parse(42)
    except TypeError as err:
        assert "Protego.parse expects str, got int" in str(err)
    else:
        raise AssertionError("TypeError expected")
