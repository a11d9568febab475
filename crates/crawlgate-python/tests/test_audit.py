"""Access-log audits over Arrow batches (``crawlgate_robots.arrow.Auditor``)
equal ``crawlgate audit`` on the same log: every row, the unreadable lines,
the deny list; records in Cloudflare's columns; bad arguments and batches
give clear errors. (PySpark's ``mapInArrow`` over it: test_spark.py.)"""

from __future__ import annotations

import json
import pathlib
import subprocess

import pyarrow as pa
import pytest

from crawlgate_robots.arrow import Auditor, audit_schema

ROBOTS = "User-agent: *\nDisallow: /private/\nDisallow: /trap/\n\nUser-agent: bingbot\nCrawl-delay: 10\nDisallow: /private/\n"
FEEDS = {
    "developers.google.com/static/crawling/ipranges/common-crawlers.json": "66.249.64.0/19",
    "developers.google.com/static/crawling/ipranges/special-crawlers.json": "66.249.90.0/24",
    "developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json": "66.249.91.0/24",
    "www.bing.com/toolbox/bingbot.json": "40.77.167.0/24",
}
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
BINGBOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0"


def line(ip: str, second: int, url: str, agent: str, status: int = 200) -> str:
    return f'{ip} - - [27/Nov/2026:10:00:{second:02d} +0000] "GET {url} HTTP/1.1" {status} 512 "-" "{agent}"'


LINES = [
    line("66.249.66.1", 0, "/", GOOGLEBOT),
    line("66.249.66.1", 1, "/private/a?x=1", GOOGLEBOT),  # a verified crawler's violation
    line("203.0.113.9", 2, "/private/b", GOOGLEBOT),  # not in Google's feeds, DNS not asked
    "this is not a log line",
    line("198.51.100.7", 3, "/trap/x", BROWSER),  # an unidentified honeypot visitor
    line("40.77.167.1", 4, "/a", BINGBOT),
    line("40.77.167.2", 6, "/b", BINGBOT),  # within bingbot's Crawl-delay
    "",
    line("2001:db8::5", 9, "/c", BROWSER, 404),
]
COLUMNS = [
    "file", "line", "robots_version", "ip", "user_agent", "crawler", "identity", "url", "status", "allowed",
    "rule_line", "violation", "crawl_delay_breach", "honeypot", "user_triggered",
]


def make_lab(tmp_path: pathlib.Path) -> dict[str, pathlib.Path]:
    """The log, its robots.txt and a feed mirror in `tmp_path`."""
    mirror = tmp_path / "ip-ranges"
    for path, prefix in FEEDS.items():
        feed = mirror / path
        feed.parent.mkdir(parents=True, exist_ok=True)
        feed.write_text(json.dumps({"creationTime": "2026-11-27T00:00:00", "prefixes": [{"ipv4Prefix": prefix}]}))
    log = tmp_path / "access.log"
    log.write_text("\n".join(LINES) + "\n")
    robots = tmp_path / "robots.txt"
    robots.write_text(ROBOTS)
    return {"mirror": mirror, "log": log, "robots": robots, "dir": tmp_path}


@pytest.fixture()
def lab(tmp_path: pathlib.Path) -> dict[str, pathlib.Path]:
    return make_lab(tmp_path)


def cli_audit(crawlgate_cli: str, lab: dict[str, pathlib.Path]) -> tuple[list[dict], dict, str]:
    rows = lab["dir"] / "rows.jsonl"
    deny = lab["dir"] / "deny.txt"
    done = subprocess.run(
        [crawlgate_cli, "audit", str(lab["log"]), "--robots", str(lab["robots"]), "--ip-ranges", str(lab["mirror"]),
         "--no-dns", "--honeypot", "/trap/", "-o", str(rows), "--deny-list", str(deny), "--json"],
        capture_output=True, text=True, check=True,
    )
    return [json.loads(r) for r in rows.read_text().splitlines()], json.loads(done.stdout), deny.read_text()


def auditor(lab: dict[str, pathlib.Path], **options: object) -> Auditor:
    return Auditor(ROBOTS, name=str(lab["log"]), robots_name=str(lab["robots"]), ip_ranges=str(lab["mirror"]), no_dns=True, honeypots=["/trap/"], **options)


def essence(rows: list[dict]) -> list[tuple]:
    return [tuple(row.get(c) for c in COLUMNS) for row in rows]


def test_batches_of_lines_equal_the_cli(crawlgate_cli: str, lab: dict[str, pathlib.Path]) -> None:
    cli_rows, cli_summary, cli_deny = cli_audit(crawlgate_cli, lab)
    audit = auditor(lab)
    rows: list[dict] = []
    for start in range(0, len(LINES), 4):
        batch = pa.RecordBatch.from_pydict({"value": LINES[start : start + 4]})
        out = audit.audit(batch)
        assert out.schema == audit_schema()
        rows += out.to_pylist()
    assert essence(rows) == essence(cli_rows)
    # What the log holds, as the command says it.
    by_line = {row["line"]: row for row in rows}
    assert (by_line[2]["identity"], by_line[2]["violation"]) == ("verified", True)
    assert by_line[3]["identity"] == "unknown"  # no feed holds it; DNS would decide
    assert by_line[5]["honeypot"] and by_line[5]["crawler"] is None
    assert by_line[7]["identity"] == "verified" and by_line[7]["crawl_delay_breach"]
    summary = audit.summary()
    assert summary["files"][0]["unreadable"] == cli_summary["files"][0]["unreadable"] == 2
    assert summary["files"][0]["first_unreadable"] == cli_summary["files"][0]["first_unreadable"]
    assert summary["crawlers"] == cli_summary["crawlers"]
    denied = {ip for ip, _ in audit.deny_list()}
    assert denied == {"198.51.100.7"}
    assert denied == {entry for entry in cli_deny.splitlines() if entry and not entry.startswith("#")}


def test_cloudflare_records_in_columns(crawlgate_cli: str, lab: dict[str, pathlib.Path]) -> None:
    cli_rows, _, _ = cli_audit(crawlgate_cli, lab)
    records = pa.RecordBatch.from_pylist([
        {
            "ClientIP": row["ip"],
            "ClientRequestUserAgent": row["user_agent"],
            "ClientRequestURI": row["url"],
            "EdgeResponseStatus": row["status"],
            "EdgeStartTimestamp": row["time"],
        }
        for row in cli_rows
    ])
    rows = auditor(lab, log_format="cloudflare").audit(records).to_pylist()
    # Record i is line i + 1; the verdicts are the log's.
    keep = ["ip", "identity", "allowed", "rule_line", "violation", "honeypot", "crawl_delay_breach"]
    assert [[r.get(c) for c in keep] for r in rows] == [[r.get(c) for c in keep] for r in cli_rows]


def test_bad_arguments_and_batches_are_clear_errors(lab: dict[str, pathlib.Path]) -> None:
    with pytest.raises(ValueError, match="unknown log format"):
        Auditor(ROBOTS, log_format="syslog")
    with pytest.raises(ValueError, match="not IP:PORT"):
        Auditor(ROBOTS, resolver="x" * 70_000)
    with pytest.raises(ValueError, match="not a path"):
        Auditor(ROBOTS, honeypots=["trap"])
    with pytest.raises(ValueError, match="contradict"):
        Auditor(ROBOTS, resolver="127.0.0.1:53", no_dns=True)
    audit = auditor(lab)
    with pytest.raises(ValueError, match="no column `value`"):
        audit.audit(pa.RecordBatch.from_pydict({"line": ["x"]}))
    junk = ["\x00\x01", "y" * 70_000] + [LINES[0]] * 100_000
    out = audit.audit(pa.RecordBatch.from_pydict({"value": junk}))
    assert out.num_rows == 100_000
    assert audit.summary()["files"][0]["unreadable"] == 2


# Bing ends bingbot's group at its Crawl-delay (so `Disallow: /shared` binds
# bingbot only in Google's reading); Yandex's parser skips the line without
# a colon, Google's reads it.
READINGS = "User-agent: bingbot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /shared\nDisallow /no-colon\n"
YANDEXBOT = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
READING_URLS = ["/", "/shared/page", "/no-colon", "/robots.txt"]


def test_each_crawler_by_its_operators_reading_equals_the_cli_and_check(
    crawlgate_cli: str, tmp_path: pathlib.Path
) -> None:
    agents = [BINGBOT, YANDEXBOT, GOOGLEBOT, BROWSER]
    lines = [line("192.0.2.7", i, url, agent) for i, (agent, url) in enumerate(
        (agent, url) for agent in agents for url in READING_URLS)]
    (tmp_path / "access.log").write_text("\n".join(lines) + "\n")
    (tmp_path / "robots.txt").write_text(READINGS)
    (tmp_path / "none").mkdir()

    def cli(*profile: str) -> list[dict]:
        rows = tmp_path / "rows.jsonl"
        subprocess.run(
            [crawlgate_cli, "audit", "access.log", "--robots", "robots.txt", "--ip-ranges", "none", "--no-dns",
             "-o", str(rows), *profile],
            cwd=tmp_path, capture_output=True, text=True, check=True,
        )
        return [json.loads(r) for r in rows.read_text().splitlines()]

    def python(profile: str | None) -> list[dict]:
        audit = Auditor(READINGS, name="access.log", robots_name="robots.txt", ip_ranges=str(tmp_path / "none"),
                        no_dns=True, profile=profile)
        return audit.audit(pa.RecordBatch.from_pydict({"value": lines})).to_pylist()

    def check(agent: str, *profile: str) -> list[tuple]:
        done = subprocess.run(
            [crawlgate_cli, "check", "robots.txt", "--agent", agent, "--json", *profile, *READING_URLS],
            cwd=tmp_path, capture_output=True, text=True,
        )
        assert done.returncode in (0, 1), done.stderr  # 1: something is disallowed
        return [(r["allowed"], (r.get("rule") or {}).get("line")) for r in json.loads(done.stdout)["results"]]

    for profile in [None, "google", "yandex"]:
        named = ["--profile", profile] if profile else []
        rows = python(profile)
        assert essence(rows) == essence(cli(*named))
        verdicts = [(row["allowed"], row["rule_line"]) for row in rows]
        assert verdicts == [v for agent in agents for v in check(agent, *named)], profile
    by_agent_url = {(row["user_agent"], row["url"]): row for row in python(None)}
    # bingbot read by Bing's rules: its own group has no rules, no violation.
    assert (by_agent_url[BINGBOT, "/shared/page"]["allowed"], by_agent_url[BINGBOT, "/shared/page"]["violation"]) == (True, False)
    assert by_agent_url[YANDEXBOT, "/no-colon"]["allowed"] is True
    assert by_agent_url[GOOGLEBOT, "/no-colon"]["rule_line"] == 6
    google = {(row["user_agent"], row["url"]): row for row in python("google")}
    assert google[BINGBOT, "/shared/page"]["allowed"] is False and google[YANDEXBOT, "/no-colon"]["allowed"] is False
