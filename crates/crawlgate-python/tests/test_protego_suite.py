"""Protego's own test suite, from its sdist on PyPI, run against
`crawlgate_robots.protego`.

The suite imports `protego`; here that name is a package whose `Protego`,
`RequestRate` and `VisitTime` are the drop-in's, and whose `_utils` is
Protego's own (a few tests call its helpers directly). Every test that
fails must be listed in docs/python.md with the reason, and every test
listed there must fail: the list is what users read about the drop-in.

The failures docs/python.md puts down to Google's reading of the rules
("Google's C++") are checked against Google's own library: the suite runs
again with `can_fetch` answered by Google's C++ matcher (`jwm.robotstxt`,
a binding of google/robotstxt), and each of them must fail there at the
same line.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET

import pytest

import crawlgate_robots.protego
from conftest import REPO, environment_path

DOCS = REPO / "docs" / "python.md"
SHIM = '''"""Protego's names, answered by crawlgate_robots (for Protego's tests)."""
from crawlgate_robots.protego import Protego, RequestRate, VisitTime

__all__ = ["Protego", "RequestRate", "VisitTime"]
'''
GOOGLE_SHIM = '''"""The drop-in with can_fetch answered by Google's C++ library."""
from jwm.robotstxt import googlebot

from crawlgate_robots import crawler_token
from crawlgate_robots.protego import Protego as _DropIn, RequestRate, VisitTime

__all__ = ["Protego", "RequestRate", "VisitTime"]


class Protego(_DropIn):
    __slots__ = ("_text",)

    @classmethod
    def parse(cls, content):
        parsed = cls(_DropIn.parse(content).robots)
        parsed._text = content if isinstance(content, str) else content.decode("utf-8", "replace")
        return parsed

    def can_fetch(self, url, user_agent):
        return googlebot.RobotsMatcher().OneAgentAllowedByRobots(self._text, crawler_token(user_agent), url)
'''
GOOGLE = "Google's C++"


def documented_failures() -> dict[str, tuple[str, str]]:
    """The table between the `protego-failures` markers of docs/python.md:
    test id -> (reading, why)."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- protego-failures -->\n(.*?)<!-- /protego-failures -->", text, re.S)
    assert found, f"{DOCS} has no <!-- protego-failures --> table"
    rows = {}
    for line in found.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (cells[1], cells[2])
    return rows


def run_suite(root: pathlib.Path, shim_dir: pathlib.Path, tests: list[str], report: pathlib.Path) -> tuple[set[str], dict[str, int]]:
    """Runs Protego's tests with `protego` from `shim_dir`; returns the ids
    that passed, and the failed ones with the line each failed at."""
    env = {"PYTHONPATH": str(shim_dir), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=line", f"--junitxml={report}", *tests],
        env=env, capture_output=True, text=True, cwd=root, timeout=900,
    )
    assert report.exists(), "Protego's suite did not run"
    passed, failed = set(), {}
    for case in ET.parse(report).iter("testcase"):
        module = case.get("classname", "").split(".")
        # tests.test_protego.TestProtego -> test_protego.py::TestProtego
        path = f"{module[1]}.py" + "".join(f"::{part}" for part in module[2:])
        test_id = f"{path}::{case.get('name')}"
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            where = re.search(r"test_\w+\.py:(\d+)", (problem.text or "") + (problem.get("message") or ""))
            failed[test_id] = int(where.group(1)) if where else -1
        elif case.find("skipped") is None:
            passed.add(test_id)
    return passed, failed


def shim(work: pathlib.Path, name: str, code: str, utils: bytes) -> pathlib.Path:
    package = work / name / "protego"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(code)
    (package / "_utils.py").write_bytes(utils)
    return package.parent


@pytest.fixture(scope="module")
def protego_suite(tmp_path_factory) -> tuple[pathlib.Path, pathlib.Path, set[str], dict[str, int]]:
    """Runs the suite against the drop-in; returns where it is, the shim
    of Google's matcher, and the ids of the tests that passed and failed."""
    sdist = environment_path("CRAWLGATE_PROTEGO_SDIST", "Protego's sdist (protego-0.7.0.tar.gz)")
    work = tmp_path_factory.mktemp("protego-suite")
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if m.isfile() and re.match(r"[^/]+/(tests/|src/protego/_utils\.py$)", m.name)]
        archive.extractall(work, members=members, filter="data")
    (root,) = [p for p in work.iterdir() if p.is_dir()]
    utils = (root / "src" / "protego" / "_utils.py").read_bytes()
    drop_in = shim(work, "drop-in", SHIM, utils)
    google = shim(work, "google", GOOGLE_SHIM, utils)

    # The suite sees the drop-in under Protego's name.
    probe = subprocess.run(
        [sys.executable, "-c", "import protego, crawlgate_robots.protego as d; print(protego.Protego is d.Protego)"],
        env={"PYTHONPATH": str(drop_in)}, capture_output=True, text=True, cwd=work,
    )
    assert probe.stdout.strip() == "True", probe.stderr
    passed, failed = run_suite(root, drop_in, ["tests"], work / "drop-in.xml")
    return root, google, passed, failed


def test_protegos_suite_fails_exactly_where_documented(protego_suite) -> None:
    _, _, passed, failed = protego_suite
    documented = documented_failures()
    assert sorted(failed.keys() - documented.keys()) == [], "failures of Protego's suite that docs/python.md does not explain"
    assert sorted(documented.keys() - failed.keys()) == [], "tests docs/python.md lists as failing that pass"
    assert all(why for _, why in documented.values()), "every listed failure says why"
    # The suite ran in earnest: most of it passes against the drop-in, and
    # docs/python.md says how much.
    assert len(passed) > 100 and len(passed) > 3 * len(failed), (len(passed), len(failed))
    total = len(passed) + len(failed)
    stated = f"{len(passed)} of its {total} tests pass"
    assert stated in " ".join(DOCS.read_text(encoding="utf-8").split()), f"docs/python.md should say: {stated}"
    print(f"Protego's suite against the drop-in: {len(passed)} passed, {len(failed)} failed (all documented)")


def test_the_failures_put_down_to_google_fail_with_googles_library(protego_suite) -> None:
    root, google, _, failed = protego_suite
    ours = {test: line for test, line in failed.items() if documented_failures()[test][0] == GOOGLE}
    assert len(ours) > 10
    node_ids = [f"tests/{test}" for test in sorted(ours)]
    _, google_failed = run_suite(root, google, node_ids, root.parent / "google.xml")
    assert {test: google_failed.get(test) for test in ours} == ours
