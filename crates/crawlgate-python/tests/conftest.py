"""Shared fixtures: the real-world corpus and the `crawlgate` command.

Both come from the environment that scripts/test-python.sh sets up; a
missing piece fails the test that needs it with a message saying how to
provide it (nothing is skipped).
"""

from __future__ import annotations

import os
import pathlib

import pytest


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
