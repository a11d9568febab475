"""Protego's own test suite, from its sdist on PyPI, run against
`crawlgate_robots.protego`.

The suite imports `protego`; here that name is a package whose `Protego`,
`RequestRate` and `VisitTime` are the drop-in's, and whose `_utils` is
Protego's own (a few tests call its helpers directly). Every test that
fails must be listed in docs/python.md with the reason, and every test
listed there must fail: the list is what users read about the drop-in.
"""

from __future__ import annotations

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


def documented_failures() -> dict[str, str]:
    """The table between the `protego-failures` markers of docs/python.md:
    test id -> reason."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- protego-failures -->\n(.*?)<!-- /protego-failures -->", text, re.S)
    assert found, f"{DOCS} has no <!-- protego-failures --> table"
    rows = {}
    for line in found.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[-1]
    return rows


@pytest.fixture(scope="module")
def protego_suite(tmp_path_factory) -> tuple[set[str], set[str]]:
    """Runs the suite; returns the ids of the tests that passed and failed."""
    sdist = environment_path("CRAWLGATE_PROTEGO_SDIST", "Protego's sdist (protego-0.7.0.tar.gz)")
    work = tmp_path_factory.mktemp("protego-suite")
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if m.isfile() and re.match(r"[^/]+/(tests/|src/protego/_utils\.py$)", m.name)]
        archive.extractall(work, members=members, filter="data")
    (root,) = [p for p in work.iterdir() if p.is_dir()]
    shim = work / "shim" / "protego"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text(SHIM)
    (shim / "_utils.py").write_bytes((root / "src" / "protego" / "_utils.py").read_bytes())
    env = {"PYTHONPATH": str(shim.parent), "PATH": "/usr/bin:/bin"}

    # The suite sees the drop-in under Protego's name.
    probe = subprocess.run(
        [sys.executable, "-c", "import protego, crawlgate_robots.protego as d; print(protego.Protego is d.Protego)"],
        env=env, capture_output=True, text=True, cwd=work,
    )
    assert probe.stdout.strip() == "True", probe.stderr

    report = work / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", "tests"],
        env=env, capture_output=True, text=True, cwd=root, timeout=600,
    )
    assert report.exists(), "Protego's suite did not run"
    passed, failed = set(), set()
    for case in ET.parse(report).iter("testcase"):
        module = case.get("classname", "").split(".")
        # tests.test_protego.TestProtego -> test_protego.py::TestProtego
        path = f"{module[1]}.py" + "".join(f"::{part}" for part in module[2:])
        test_id = f"{path}::{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            failed.add(test_id)
        elif case.find("skipped") is None:
            passed.add(test_id)
    return passed, failed


def test_protegos_suite_fails_exactly_where_documented(protego_suite) -> None:
    passed, failed = protego_suite
    documented = documented_failures()
    assert sorted(failed - documented.keys()) == [], "failures of Protego's suite that docs/python.md does not explain"
    assert sorted(documented.keys() - failed) == [], "tests docs/python.md lists as failing that pass"
    assert all(reason for reason in documented.values()), "every listed failure says why"
    # The suite ran in earnest: most of it passes against the drop-in.
    assert len(passed) > 100 and len(passed) > 3 * len(failed), (len(passed), len(failed))
    print(f"Protego's suite against the drop-in: {len(passed)} passed, {len(failed)} failed (all documented)")

