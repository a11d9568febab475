"""Spark end to end: PySpark in local mode runs `mapInArrow` with
`crawlgate_robots.arrow.decide_batches` over the corpus × a set of crawlers and
paths (the audit of examples/spark_robots.py), and every answer equals the
one `crawlgate batch` gives for the same row."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
CRAWLERS = ["Googlebot", "bingbot", "GPTBot", "Googlebot-News"]
PATHS = ["/", "/search?q=x", "/wp-admin/admin-ajax.php"]


def load_example():
    spec = importlib.util.spec_from_file_location("spark_robots", REPO / "examples" / "spark_robots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def spark():
    example = load_example()
    session = example.session("crawlgate tests")
    session.sparkContext.setLogLevel("ERROR")
    yield example, session
    session.stop()


def test_spark_answers_equal_the_cli(spark, corpus_dir, crawlgate_cli, tmp_path) -> None:
    example, session = spark
    assert session.sparkContext.master == "local[2]"
    rows = example.audit(session, str(corpus_dir), CRAWLERS, PATHS).collect()
    # Spark's binaryFile source leaves out empty files.
    files = sorted(p.name for p in corpus_dir.iterdir() if p.is_file() and p.stat().st_size > 0)
    assert len(rows) == len(files) * len(CRAWLERS) * len(PATHS)
    assert {r["site"] for r in rows} == set(files)

    requests = tmp_path / "requests.jsonl"
    with requests.open("w") as out:
        for index, row in enumerate(rows):
            out.write(json.dumps({
                "id": index,
                "robots_file": str(corpus_dir / row["site"]),
                # decide_batches reads user_agent as the crawler it names
                # (the default reading): `crawler` asks the CLI the same.
                "crawler": row["user_agent"],
                "url": row["url"],
            }) + "\n")
    with requests.open("rb") as stdin:
        done = subprocess.run([crawlgate_cli, "batch", "--no-progress"], stdin=stdin, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(rows)
    mismatches = []
    for index, (row, answer) in enumerate(zip(rows, answers)):
        assert answer["id"] == index and "error" not in answer, answer
        ours = (row["allowed"], row["line"], row["rule"])
        theirs = (answer["allowed"], answer["line"], answer["rule"])
        if ours != theirs:
            mismatches.append((row["site"], row["user_agent"], row["url"], ours, theirs))
    assert mismatches == []
    # The audit says something: both answers occur, and rules are named.
    assert any(not r["allowed"] for r in rows) and any(r["allowed"] for r in rows)
    assert any(r["rule"] and r["rule"].startswith("Disallow: ") and r["line"] for r in rows)
    print(f"spark: {len(rows)} rows over {len(files)} files, all equal to `crawlgate batch`")


def test_spark_audits_access_logs_as_the_cli_does(spark, crawlgate_cli, tmp_path) -> None:
    """`spark.read.text` of an access log, one partition, `mapInArrow` with
    `audit_batches`: the rows `crawlgate audit` writes for the file."""
    from crawlgate_robots.arrow import AUDIT_SPARK_SCHEMA, audit_batches, audit_schema
    from test_audit import ROBOTS, cli_audit, essence, make_lab

    _, session = spark
    lab = make_lab(tmp_path)
    cli_rows, _, _ = cli_audit(crawlgate_cli, lab)
    options = {"name": str(lab["log"]), "robots_name": str(lab["robots"]), "ip_ranges": str(lab["mirror"]), "no_dns": True, "honeypots": ["/trap/"]}
    rows = (
        session.read.text(str(lab["log"]))
        .coalesce(1)
        .mapInArrow(lambda batches: audit_batches(batches, ROBOTS, **options), AUDIT_SPARK_SCHEMA)
        .collect()
    )
    assert len(cli_rows) == 7
    assert essence([row.asDict() for row in rows]) == essence(cli_rows)
    assert audit_schema(plain=True).names == [field.split()[0] for field in AUDIT_SPARK_SCHEMA.split(", ")]
