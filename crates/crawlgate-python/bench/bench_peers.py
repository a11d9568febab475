"""crawlgate against every robots.txt package from PyPI that installs here,
on the real-world corpus, in one run.

    python crates/crawlgate-python/bench/bench_peers.py [--corpus DIR] [--files N] [--rows N]

Measures, for each package:

* parse: µs per file, parsing every corpus file (best of 3 passes);
* query: µs per URL, asking about URLs derived from each file's own rules
  with the file parsed once (packages whose API parses on every question
  are timed per question, parse included, and marked so);
* agreement with Google's reading on the same questions.

Google's reading is crawlgate's `google` profile: the Rust test suite checks
it against Google's own conformance expectations and, on the same corpus,
against a port of Google's C++ parser (the `robotstxt` crate), explaining
every remaining difference as a bug of that port. A package's agreement
figure is the share of questions where it gives that answer.

Then `crawlgate.arrow.decide` on a table of `--rows` rows (corpus files ×
crawlers × URLs; the body column dictionary-encoded as Arrow tables of
repeated files are, and once as a plain binary column): rows per second,
best of 3.

Prints a markdown table (also written to target/python-bench.md).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import os
import pathlib
import platform
import re
import sys
import time
import urllib.robotparser
from dataclasses import dataclass
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import crawlgate

ROOT = pathlib.Path(__file__).resolve().parents[3]
AGENTS = ["Googlebot", "mybot"]
RULE_LINE = re.compile(r"^[ \t]*(?:dis)?allow[ \t]*:[ \t]*([^\s#]+)", re.IGNORECASE | re.MULTILINE)


@dataclass
class Peer:
    name: str
    package: str
    parse: Optional[Callable[[bytes, str], Any]]
    ask: Callable[[Any, bytes, str, str, str], bool]
    note: str = ""

    @property
    def parses_per_question(self) -> bool:
        return self.parse is None


def version(distribution: str) -> str:
    if distribution == "python":
        return platform.python_version()
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def peers() -> tuple[list[Peer], list[tuple[str, str]]]:
    """The packages that import here, and why the others are missing."""
    found: list[Peer] = []
    missing: list[tuple[str, str]] = []

    found.append(Peer("crawlgate", "crawlgate", lambda b, t: crawlgate.RobotsTxt(b), lambda r, b, t, u, a: r.is_allowed(u, a)))

    def urllib_parse(body: bytes, text: str) -> Any:
        parser = urllib.robotparser.RobotFileParser()
        parser.parse(text.splitlines())
        return parser

    found.append(Peer("urllib.robotparser", "python", urllib_parse, lambda r, b, t, u, a: r.can_fetch(a, u)))
    candidates: list[tuple[str, str, Callable[[], Peer]]] = []

    def protego_peer() -> Peer:
        from protego import Protego

        return Peer("Protego", "protego", lambda b, t: Protego.parse(t), lambda r, b, t, u, a: r.can_fetch(u, a))

    def robotspy_peer() -> Peer:
        import robots

        return Peer("robotspy", "robotspy", lambda b, t: robots.RobotsParser.from_string(t), lambda r, b, t, u, a: r.can_fetch(a, u))

    def fastrobots_peer() -> Peer:
        import fastrobots

        return Peer("fastrobots", "fastrobots", lambda b, t: fastrobots.Robots.parse(t), lambda r, b, t, u, a: r.agent(a).allowed(path_of(u)))

    def texting_peer() -> Peer:
        import texting_robots

        # Its parser keeps one crawler's rules: a file is parsed per crawler.
        return Peer(
            "texting-robots-py",
            "texting-robots-py",
            lambda b, t: {a: texting_robots.Robot(a, b) for a in AGENTS},
            lambda r, b, t, u, a: r[a].allowed(u),
            note=f"parses once per crawler ({len(AGENTS)} per file)",
        )

    def fast_robotstxt_peer() -> Peer:
        import robotstxt

        matcher = robotstxt.RobotsMatcher()
        return Peer("fast-robotstxt (Google's C++)", "fast-robotstxt", None, lambda r, b, t, u, a: matcher.is_allowed(t, a, u))

    def jwm_peer() -> Peer:
        from jwm.robotstxt import googlebot

        matcher = googlebot.RobotsMatcher()
        return Peer("jwm.robotstxt (Google's C++)", "jwm.robotstxt", None, lambda r, b, t, u, a: matcher.OneAgentAllowedByRobots(t, a, u))

    def gpy_peer() -> Peer:
        from gpyrobotstxt.robots_cc import RobotsMatcher

        return Peer("gpyrobotstxt (Python port of Google's)", "gpyrobotstxt", None, lambda r, b, t, u, a: RobotsMatcher().one_agent_allowed_by_robots(t, a, u))

    def rerp_peer() -> Peer:
        from robotexclusionrulesparser import RobotExclusionRulesParser

        def parse(body: bytes, text: str) -> Any:
            parser = RobotExclusionRulesParser()
            parser.parse(text)
            return parser

        return Peer("robotexclusionrulesparser", "robotexclusionrulesparser", parse, lambda r, b, t, u, a: r.is_allowed(a, u))

    def reppy_peer() -> Peer:
        from reppy.robots import Robots

        return Peer("reppy", "reppy", lambda b, t: Robots.parse("https://site.example/robots.txt", t), lambda r, b, t, u, a: r.allowed(u, a))

    candidates = [
        ("protego", "Protego", protego_peer),
        ("robotspy", "robotspy", robotspy_peer),
        ("fastrobots", "fastrobots", fastrobots_peer),
        ("texting-robots-py", "texting-robots-py", texting_peer),
        ("fast-robotstxt", "fast-robotstxt", fast_robotstxt_peer),
        ("jwm.robotstxt", "jwm.robotstxt", jwm_peer),
        ("gpyrobotstxt", "gpyrobotstxt", gpy_peer),
        ("robotexclusionrulesparser", "robotexclusionrulesparser", rerp_peer),
        ("reppy", "reppy", reppy_peer),
    ]
    for distribution, label, make in candidates:
        try:
            found.append(make())
        except ImportError as err:
            missing.append((label, f"not installed ({err})"))
    return found, missing


def questions(text: str) -> list[str]:
    paths = ["/"]
    for value in RULE_LINE.findall(text)[:6]:
        path = value.rstrip("$").replace("*", "x")
        if not path.startswith("/"):
            path = "/" + path
        paths += [path, path + "x.html?q=1"]
    return [f"https://site.example{p}" for p in dict.fromkeys(paths)]


def best_of(runs: int, work: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def measure(peer: Peer, corpus: list[tuple[bytes, str]], sample: list[tuple[bytes, str, list[str]]], reference: list[bool]) -> dict[str, Any]:
    result: dict[str, Any] = {"errors": 0}
    if peer.parse is not None:
        def parse_all() -> None:
            for body, text in corpus:
                try:
                    peer.parse(body, text)
                except Exception:  # noqa: BLE001 - a peer crashing on a real file is counted
                    pass

        result["parse_us"] = best_of(3, parse_all) / len(corpus) * 1e6
    parsed = []
    for body, text, _urls in sample:
        try:
            parsed.append(peer.parse(body, text) if peer.parse else None)
        except Exception:  # noqa: BLE001
            parsed.append(Exception)
    answers: list[Optional[bool]] = []

    def ask_all() -> None:
        answers.clear()
        for (body, text, urls), robots in zip(sample, parsed):
            for url in urls:
                for agent in AGENTS:
                    if robots is Exception:
                        answers.append(None)
                        continue
                    try:
                        answers.append(bool(peer.ask(robots, body, text, url, agent)))
                    except Exception:  # noqa: BLE001
                        answers.append(None)

    result["query_us"] = best_of(3 if not peer.parses_per_question else 1, ask_all) / len(reference) * 1e6
    result["errors"] = sum(1 for a in answers if a is None) + sum(1 for p in parsed if p is Exception)
    result["agreement"] = sum(1 for a, r in zip(answers, reference) if a == r) / len(reference)
    return result


def arrow_rate(corpus: list[tuple[bytes, str]], rows: int) -> tuple[float, float, int]:
    import pyarrow as pa

    from crawlgate.arrow import decide

    crawlers = ["Googlebot", "bingbot", "GPTBot", "mybot"]
    per_file = [questions(text)[:4] for _, text in corpus]
    bodies, agents, urls, index = [], [], [], []
    i = 0
    while len(index) < rows:
        f = i % len(corpus)
        for url in per_file[f]:
            for crawler in crawlers[: 1 + (i % len(crawlers))]:
                index.append(f)
                agents.append(crawler)
                urls.append(url)
        i += 1
    del index[rows:], agents[rows:], urls[rows:]
    dictionary = pa.DictionaryArray.from_arrays(pa.array(index, pa.int32()), pa.array([b for b, _ in corpus], pa.binary()))
    table = pa.table({"robots_txt": dictionary, "user_agent": pa.array(agents, pa.string()), "url": pa.array(urls, pa.string())})
    dict_rate = rows / best_of(3, lambda: decide(table))
    plain_rows = min(rows, 250_000)
    plain = pa.table({
        "robots_txt": pa.array([corpus[f][0] for f in index[:plain_rows]], pa.binary()),
        "user_agent": table.column("user_agent").slice(0, plain_rows),
        "url": table.column("url").slice(0, plain_rows),
    })
    plain_rate = plain_rows / best_of(3, lambda: decide(plain))
    return dict_rate, plain_rate, plain_rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("CRAWLGATE_CORPUS"))
    parser.add_argument("--files", type=int, default=400, help="files asked about (default 400)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    if not args.corpus or not pathlib.Path(args.corpus).is_dir():
        parser.error("the corpus is needed: --corpus DIR or CRAWLGATE_CORPUS (scripts/corpus.sh prints it)")
    files = sorted(p for p in pathlib.Path(args.corpus).iterdir() if p.is_file())
    corpus = [(p.read_bytes(), p.read_bytes().decode("utf-8", "ignore")) for p in files]
    step = max(1, len(corpus) // args.files)
    sample = [(b, t, questions(t)) for b, t in corpus[::step][: args.files]]
    reference = []
    for body, _text, urls in sample:
        robots = crawlgate.RobotsTxt(body)
        reference += [robots.is_allowed(u, a) for u in urls for a in AGENTS]

    found, missing = peers()
    results = []
    for peer in found:
        print(f"measuring {peer.name} ...", file=sys.stderr)
        results.append((peer, measure(peer, corpus, sample, reference)))
    base = results[0][1]["parse_us"]

    lines = [
        f"Corpus: {len(corpus)} files ({sum(len(b) for b, _ in corpus) / 1e6:.1f} MB); questions: {len(reference)} "
        f"({len(sample)} files × URLs from their rules × {', '.join(AGENTS)}). Python {platform.python_version()}, {os.cpu_count()} cores.",
        "",
        "| package | version | parse µs/file | vs crawlgate | query µs/URL | agrees with Google's reading | errors |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for peer, r in results:
        parse = f"{r['parse_us']:.1f}" if "parse_us" in r else "—"
        ratio = f"{r['parse_us'] / base:.1f}×" if "parse_us" in r else "—"
        query = f"{r['query_us']:.2f}" + (" ¹" if peer.parses_per_question else "")
        note = f" ({peer.note})" if peer.note else ""
        lines.append(
            f"| {peer.name}{note} | {version(peer.package)} | {parse} | {ratio} | {query} | {r['agreement'] * 100:.2f}% | {r['errors']} |"
        )
    lines.append("")
    lines.append("¹ its API takes the robots.txt text with every question: the time includes parsing the file.")
    for label, why in missing:
        lines.append(f"Not measured: {label}: {why}.")
    print("measuring crawlgate.arrow.decide ...", file=sys.stderr)
    dict_rate, plain_rate, plain_rows = arrow_rate(corpus, args.rows)
    lines += [
        "",
        f"`crawlgate.arrow.decide`: {args.rows:,} rows (dictionary-encoded `robots_txt`): {dict_rate / 1e6:.2f} M rows/s; "
        f"{plain_rows:,} rows with the body repeated in every row (plain `binary`): {plain_rate / 1e6:.2f} M rows/s.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    out = ROOT / "target" / "python-bench.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
