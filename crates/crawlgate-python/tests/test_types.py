"""Types: `mypy --strict` accepts the installed package and a user script
that passes `profile="bing"` to every entry point that takes a profile,
and rejects a profile that does not exist."""

from __future__ import annotations

import ast
import os
import pathlib
import subprocess
import sys

import pytest

import crawlgate_robots

PACKAGE = pathlib.Path(crawlgate_robots.__file__).parent

# Every entry point that takes a profile, and a call of it with bing.
CALLS = {
    "RobotsTxt.__init__": 'crawlgate_robots.RobotsTxt(b"User-agent: *\\n", profile="bing")',
    "FetchPolicy.__init__": 'crawlgate_robots.FetchPolicy(profile="bing")',
    "Auditor.__init__": 'crawlgate_robots.arrow.Auditor("User-agent: *\\n", profile="bing", no_dns=True)',
    "lint": 'crawlgate_robots.lint(b"User-agent: *\\n", profile="bing")',
    "decide_record_batch": 'crawlgate_robots._crawlgate.decide_record_batch(data, profile="bing")',
    "decide_table": 'crawlgate_robots._crawlgate.decide_table(data, profile="bing")',
    "arrow.decide": 'crawlgate_robots.arrow.decide(data, profile="bing")',
    "arrow.decide_batches": 'crawlgate_robots.arrow.decide_batches([data], profile="bing")',
}

SCRIPT = """\
from typing import Any

import crawlgate_robots
import crawlgate_robots.arrow

data: Any = None
{calls}
robots: crawlgate_robots.RobotsTxt = crawlgate_robots.RobotsTxt(b"", "bing")
assert robots.profile == "bing"
for name in crawlgate_robots.PROFILES:
    crawlgate_robots.RobotsTxt(b"", profile=name)
"""


def entry_points_taking_a_profile() -> set[str]:
    """Functions and methods of the stubs and of the Python modules with a
    `profile` parameter, by name."""
    found = set()
    for path, prefix in [(PACKAGE / "_crawlgate.pyi", ""), (PACKAGE / "arrow.py", "arrow."), (PACKAGE / "protego.py", "protego."), (PACKAGE / "scrapy.py", "scrapy."), (PACKAGE / "__init__.py", "")]:
        tree = ast.parse(path.read_text())
        for node in tree.body:
            functions = [(node.name + ".", f) for f in node.body if isinstance(f, ast.FunctionDef)] if isinstance(node, ast.ClassDef) else [("", node)]
            for owner, function in functions:
                if isinstance(function, ast.FunctionDef):
                    names = [a.arg for a in function.args.args + function.args.kwonlyargs]
                    if "profile" in names:
                        found.add(prefix + owner + function.name)
    return found


def mypy(tmp_path: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    cache = pathlib.Path(os.environ.get("CRAWLGATE_TARGET", tmp_path)) / "python" / "mypy-cache"
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "--no-error-summary", *args],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )


def test_the_script_calls_every_entry_point_that_takes_a_profile() -> None:
    assert entry_points_taking_a_profile() == set(CALLS)


def test_mypy_strict_on_the_package(tmp_path) -> None:
    done = mypy(tmp_path, "-p", "crawlgate_robots")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_a_script_with_every_profile(tmp_path) -> None:
    script = tmp_path / "uses_bing.py"
    script.write_text(SCRIPT.format(calls="\n".join(CALLS.values())))
    done = mypy(tmp_path, str(script))
    assert done.returncode == 0, done.stdout + done.stderr

    # The same script with a profile that does not exist fails.
    wrong = tmp_path / "uses_baidu.py"
    wrong.write_text(SCRIPT.format(calls="\n".join(CALLS.values())).replace('"bing"', '"baidu"'))
    done = mypy(tmp_path, str(wrong))
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if "error:" in line]
    # Every call, and the comparison of the profile property.
    assert len(errors) == len(CALLS) + 2, done.stdout
    assert all("baidu" in line for line in errors), done.stdout


@pytest.mark.parametrize("name", crawlgate_robots.PROFILES)
def test_every_profile_is_accepted_at_run_time(name) -> None:
    assert crawlgate_robots.RobotsTxt(b"User-agent: *\nDisallow: /\n", profile=name).profile == name
    crawlgate_robots.FetchPolicy(profile=name)
    crawlgate_robots.lint(b"", profile=name)
