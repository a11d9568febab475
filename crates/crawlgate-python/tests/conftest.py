"""Shared fixtures: the real-world corpus, the `crawlgate` command, the
built wheel and sdist, and Cargo's target directory.

They come from the environment that scripts/test-python.sh sets up; a
missing piece fails the test that needs it with a message saying how to
provide it (nothing is skipped).

The package under test is the installed one: a session that imports
`crawlgate_robots` from this source tree stops at once.
"""

from __future__ import annotations

import os
import pathlib

import pytest

import crawlgate_robots

#: The repository (the tests read its docs and examples, never its code).
REPO = pathlib.Path(__file__).resolve().parents[3]
SOURCE = REPO / "crates" / "crawlgate-python" / "python"

if pathlib.Path(crawlgate_robots.__file__).resolve().is_relative_to(SOURCE.resolve()):
    raise pytest.UsageError(
        f"crawlgate_robots was imported from the source tree ({crawlgate_robots.__file__}): "
        "the tests run against the installed package (scripts/test-python.sh installs the wheel)"
    )


def environment_path(name: str, what: str) -> pathlib.Path:
    """The existing path in environment variable `name`, or a failure."""
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run scripts/test-python.sh, which sets it to {what}")
    path = pathlib.Path(value)
    if not path.exists():
        pytest.fail(f"{name}={value} does not exist (expected {what})")
    return path


@pytest.fixture(scope="session")
def corpus_dir() -> pathlib.Path:
    value = os.environ.get("CRAWLGATE_CORPUS")
    if not value:
        pytest.fail("CRAWLGATE_CORPUS is not set: run scripts/test-python.sh, or set it to the corpus directory (scripts/corpus.sh prints it)")
    path = pathlib.Path(value)
    if not path.is_dir():
        pytest.fail(f"CRAWLGATE_CORPUS={value} is not a directory")
    return path


@pytest.fixture(scope="session")
def corpus(corpus_dir: pathlib.Path) -> list[tuple[str, bytes]]:
    files = sorted(p for p in corpus_dir.iterdir() if p.is_file())
    assert len(files) > 1000, f"expected the real-world corpus in {corpus_dir}, found {len(files)} files"
    return [(p.name, p.read_bytes()) for p in files]


@pytest.fixture(scope="session")
def crawlgate_cli() -> str:
    value = os.environ.get("CRAWLGATE_CLI")
    if not value or not os.access(value, os.X_OK):
        pytest.fail(f"CRAWLGATE_CLI={value!r} is not an executable `crawlgate` binary: run scripts/test-python.sh, or build it with `cargo build -p crawlgate-cli` and set CRAWLGATE_CLI=target/debug/crawlgate")
    return value


@pytest.fixture(scope="session")
def target_dir() -> pathlib.Path:
    """Cargo's target directory (reports are written under it)."""
    return environment_path("CRAWLGATE_TARGET", "Cargo's target directory")
