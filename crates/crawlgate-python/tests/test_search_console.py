"""Search Console's line view in Python (#25):
`crawlgate_robots.search_console_report(body)` is the document `crawlgate
report --json` writes, less what only the command adds (the fetch, and the
notes beside flagged lines), on corpus files chosen for their variety."""

from __future__ import annotations

import json
import subprocess

import crawlgate_robots

# What only the command adds: the source and fetch of the report, and per
# line Google's words, other crawlers' reading and the linter's findings.
COMMAND_ONLY = {"source", "fetch"}
COMMAND_ONLY_PER_LINE = {"google", "elsewhere", "lint"}


def cli_report(cli: str, path) -> dict:
    done = subprocess.run([cli, "report", str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def without_command_only(report: dict) -> dict:
    report = {k: v for k, v in report.items() if k not in COMMAND_ONLY}
    report["lines"] = [{k: v for k, v in line.items() if k not in COMMAND_ONLY_PER_LINE} for line in report["lines"]]
    return report


def varied(corpus_dir) -> list:
    """A few corpus files with typos, unused and unknown keys, missing
    colons and invalid lines, plus the largest file."""
    files = sorted(p for p in corpus_dir.iterdir() if p.is_file())
    wanted = {"typo": None, "missing_colon": None, "unused": None, "unknown": None, "invalid": None}
    for path in files:
        if all(wanted.values()):
            break
        report = crawlgate_robots.search_console_report(path.read_bytes())
        for line in report["lines"]:
            for key in ("typo", "missing_colon"):
                if line[key] and wanted[key] is None:
                    wanted[key] = path
            if line["kind"] in ("unused", "unknown", "invalid") and wanted[line["kind"]] is None:
                wanted[line["kind"]] = path
    assert all(wanted.values()), wanted
    largest = max(files, key=lambda p: p.stat().st_size)
    return sorted(set(wanted.values()) | {largest, files[0]})


def test_the_report_is_the_clis_on_corpus_files(crawlgate_cli, corpus_dir) -> None:
    for path in varied(corpus_dir):
        ours = crawlgate_robots.search_console_report(path.read_bytes())
        assert ours == without_command_only(cli_report(crawlgate_cli, path)), path.name
        assert len(ours["lines"]) == ours["lines_total"]
        assert sum(ours["kinds"].values()) == ours["lines_total"]


def test_a_small_file_line_by_line(crawlgate_cli, tmp_path) -> None:
    body = b"User-agent: *\nDisalow: /typo\nCrawl-delay: 5\nNoindex: /x\nFoo: bar\nuser-agent bot\n# c\n\nSitemap: https://e.com/s.xml\n"
    path = tmp_path / "robots.txt"
    path.write_bytes(body)
    ours = crawlgate_robots.search_console_report(body)
    assert ours == without_command_only(cli_report(crawlgate_cli, path))
    kinds = [(line["kind"], line["typo"], line["missing_colon"]) for line in ours["lines"]]
    assert kinds[:7] == [
        ("user-agent", False, False),
        ("disallow", True, False),
        ("unused", False, False),
        ("unused", False, False),
        ("unknown", False, False),
        ("user-agent", False, True),
        ("comment", False, False),
    ]
    assert (ours["valid_directives"], ours["unused_directives"]) == (4, 3)
    # str gives the same report as its UTF-8 bytes.
    assert crawlgate_robots.search_console_report(body.decode()) == ours


def test_bad_and_large_input() -> None:
    import pytest

    with pytest.raises(TypeError, match="bytes or str"):
        crawlgate_robots.search_console_report(7)  # type: ignore[arg-type]
    long = crawlgate_robots.search_console_report(b"Disallow: /" + b"a" * 70_000)
    assert long["lines"][0]["too_long"] and long["lines"][0]["flagged"]
    many = crawlgate_robots.search_console_report(b"Disallow: /x\n" * 100_000)
    # The empty line after the last newline is a line too, as Google counts.
    assert many["lines_total"] == 100_001 and many["valid_directives"] == 100_000
    assert crawlgate_robots.search_console_report(b"\xff\xfe\x00garbage")["lines_total"] == 1
