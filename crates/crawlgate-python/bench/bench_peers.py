"""crawlgate_robots against every robots.txt package from PyPI that installs
here, on the real-world corpus, side by side in one process.

    python crates/crawlgate-python/bench/bench_peers.py [--corpus DIR] [--files N] [--rows N] [--rounds N]

Measures, for each package, in `--rounds` rounds (5 by default) that each
time every package in turn, so that a change of load falls on all of them:

* parse: µs per file, parsing every corpus file once;
* large and tiny files: ms to parse a 1.5 MB file of 20,000 groups, and µs
  to parse a two-line file;
* query: µs per URL, asking about URLs derived from each file's own rules
  with the file parsed once (packages whose API parses on every question
  are timed per question, parse included, and marked so);
* agreement with Google's reading on the same questions (once).

Each figure is the median of the rounds, with the smallest and largest
(`min–max`); "vs crawlgate" is the median of the per-round ratios. The load
average before and after is printed with the table.

Google's reading is crawlgate's `google` profile: the Rust test suite checks
it against Google's own conformance expectations and, on the same corpus,
against a port of Google's C++ parser (the `robotstxt` crate), explaining
every remaining difference as a bug of that port. A package's agreement
figure is the share of questions where it gives that answer.

Then `crawlgate_robots.arrow.decide` on a table of `--rows` rows (corpus
files × crawlers × URLs; the body column dictionary-encoded as Arrow tables
of repeated files are, and once as a plain binary column): rows per second,
median and range over the rounds.

Prints a markdown table (also written to python-bench.md in Cargo's target
directory).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import time
import urllib.robotparser
from dataclasses import dataclass
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import crawlgate_robots

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

    found.append(Peer("crawlgate-robots", "crawlgate-robots", lambda b, t: crawlgate_robots.RobotsTxt(b), lambda r, b, t, u, a: r.is_allowed(u, a)))

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


def timed(work: Callable[[], Any]) -> float:
    gc.collect()
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def large_file() -> tuple[bytes, str]:
    """A 1.5 MB file of 20,000 three-line groups."""
    text = "".join(f"User-agent: bot{i}\nDisallow: /private/{i}/\nAllow: /private/{i}/public/\n" for i in range(20_000))
    return text.encode(), text


TINY = (b"User-agent: *\nDisallow: /private/\n", "User-agent: *\nDisallow: /private/\n")


class Bench:
    """One package's inputs and per-round times."""

    def __init__(self, peer: Peer, corpus: list[tuple[bytes, str]], sample: list[tuple[bytes, str, list[str]]]) -> None:
        self.peer = peer
        self.corpus = corpus
        self.sample = sample
        self.times: dict[str, list[float]] = {"parse_us": [], "large_ms": [], "tiny_us": [], "query_us": []}
        self.parsed = []
        for body, text, _urls in sample:
            try:
                self.parsed.append(peer.parse(body, text) if peer.parse else None)
            except Exception:  # noqa: BLE001 - a peer crashing on a real file is counted
                self.parsed.append(Exception)
        self.answers: list[Optional[bool]] = []
        self.questions = sum(len(urls) for _, _, urls in sample) * len(AGENTS)

    def parse_all(self) -> None:
        assert self.peer.parse is not None
        for body, text in self.corpus:
            try:
                self.peer.parse(body, text)
            except Exception:  # noqa: BLE001
                pass

    def ask_all(self) -> None:
        self.answers.clear()
        for (body, text, urls), robots in zip(self.sample, self.parsed):
            for url in urls:
                for agent in AGENTS:
                    if robots is Exception:
                        self.answers.append(None)
                        continue
                    try:
                        self.answers.append(bool(self.peer.ask(robots, body, text, url, agent)))
                    except Exception:  # noqa: BLE001
                        self.answers.append(None)

    def round(self, large: tuple[bytes, str]) -> None:
        parse = self.peer.parse
        if parse is not None:
            self.times["parse_us"].append(timed(self.parse_all) / len(self.corpus) * 1e6)
            self.times["large_ms"].append(timed(lambda: parse(*large)) * 1e3)
            self.times["tiny_us"].append(timed(lambda: [parse(*TINY) for _ in range(10_000)]) / 10_000 * 1e6)
        self.times["query_us"].append(timed(self.ask_all) / self.questions * 1e6)

    def errors(self) -> int:
        return sum(1 for a in self.answers if a is None) + sum(1 for p in self.parsed if p is Exception)

    def agreement(self, reference: list[bool]) -> float:
        return sum(1 for a, r in zip(self.answers, reference) if a == r) / len(reference)


def spread(values: list[float], digits: int) -> str:
    """`median (min–max)`, or `—` when not measured."""
    if not values:
        return "—"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}–{max(values):.{digits}f})"


def arrow_tables(corpus: list[tuple[bytes, str]], rows: int) -> tuple[Any, Any]:
    import pyarrow as pa

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
    plain_rows = min(rows, 250_000)
    plain = pa.table({
        "robots_txt": pa.array([corpus[f][0] for f in index[:plain_rows]], pa.binary()),
        "user_agent": table.column("user_agent").slice(0, plain_rows),
        "url": table.column("url").slice(0, plain_rows),
    })
    return table, plain


def target_dir() -> pathlib.Path:
    """Cargo's target directory (as `cargo metadata` says), or target/."""
    try:
        done = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps"], cwd=ROOT, capture_output=True, check=True)
        return pathlib.Path(json.loads(done.stdout)["target_directory"])
    except (OSError, subprocess.CalledProcessError):
        return pathlib.Path(os.environ.get("CRAWLGATE_TARGET", ROOT / "target"))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("CRAWLGATE_CORPUS"))
    parser.add_argument("--files", type=int, default=400, help="files asked about (default 400)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if not args.corpus or not pathlib.Path(args.corpus).is_dir():
        parser.error("the corpus is needed: --corpus DIR or CRAWLGATE_CORPUS (scripts/corpus.sh prints it)")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    files = sorted(p for p in pathlib.Path(args.corpus).iterdir() if p.is_file())
    corpus = [(p.read_bytes(), p.read_bytes().decode("utf-8", "ignore")) for p in files]
    step = max(1, len(corpus) // args.files)
    sample = [(b, t, questions(t)) for b, t in corpus[::step][: args.files]]
    reference = []
    for body, _text, urls in sample:
        robots = crawlgate_robots.RobotsTxt(body)
        reference += [robots.is_allowed(u, a) for u in urls for a in AGENTS]

    from crawlgate_robots.arrow import decide

    found, missing = peers()
    benches = [Bench(peer, corpus, sample) for peer in found]
    large = large_file()
    table, plain = arrow_tables(corpus, args.rows)
    arrow: dict[str, list[float]] = {"dictionary": [], "plain": []}
    load_before = os.getloadavg()
    for number in range(args.rounds):
        print(f"round {number + 1} of {args.rounds} ...", file=sys.stderr)
        for bench in benches:
            bench.round(large)
        arrow["dictionary"].append(table.num_rows / timed(lambda: decide(table)) / 1e6)
        arrow["plain"].append(plain.num_rows / timed(lambda: decide(plain)) / 1e6)
    load_after = os.getloadavg()
    base = benches[0].times

    lines = [
        f"Corpus: {len(corpus)} files ({sum(len(b) for b, _ in corpus) / 1e6:.1f} MB); questions: {len(reference)} "
        f"({len(sample)} files × URLs from their rules × {', '.join(AGENTS)}). Python {platform.python_version()}, "
        f"{os.cpu_count()} cores; {args.rounds} rounds, load average {load_before[0]:.1f} before and {load_after[0]:.1f} after. "
        "Median of the rounds (smallest–largest).",
        "",
        "| package | version | parse µs/file | vs crawlgate | 1.5 MB file, ms | two-line file, µs | query µs/URL | agrees with Google's reading | errors |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for bench in benches:
        peer, times = bench.peer, bench.times
        ratios = [t / b for t, b in zip(times["parse_us"], base["parse_us"])]
        ratio = f"{statistics.median(ratios):.1f}× ({min(ratios):.1f}–{max(ratios):.1f})" if ratios else "—"
        query = spread(times["query_us"], 2) + (" ¹" if peer.parses_per_question else "")
        note = f" ({peer.note})" if peer.note else ""
        lines.append(
            f"| {peer.name}{note} | {version(peer.package)} | {spread(times['parse_us'], 1)} | {ratio} | "
            f"{spread(times['large_ms'], 2)} | {spread(times['tiny_us'], 2)} | {query} | "
            f"{bench.agreement(reference) * 100:.2f}% | {bench.errors()} |"
        )
    lines.append("")
    lines.append("¹ its API takes the robots.txt text with every question: the time includes parsing the file.")
    for label, why in missing:
        lines.append(f"Not measured: {label}: {why}.")
    lines += [
        "",
        f"`crawlgate_robots.arrow.decide`: {table.num_rows:,} rows (dictionary-encoded `robots_txt`): "
        f"{spread(arrow['dictionary'], 2)} M rows/s; {plain.num_rows:,} rows with the body repeated in every row "
        f"(plain `binary`): {spread(arrow['plain'], 2)} M rows/s.",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    out = target_dir() / "python-bench.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
