"""The survey's rows from Python and from Spark equal `crawlgate survey`'s.

A small gzip WARC (one member per record, as Common Crawl writes them) of
corpus files, a 503, a 404, an HTML page and a record cut short is surveyed
by `crawlgate survey -o rows.parquet`, by `crawlgate_robots.arrow.survey_paths`,
and by examples/spark_survey.py on PySpark; the three tables have the same
columns, types and rows."""

from __future__ import annotations

import gzip
import importlib.util
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from crawlgate_robots.arrow import survey, survey_paths, survey_schema

REPO = pathlib.Path(__file__).resolve().parents[3]
CRAWLERS = ["Googlebot", "GPTBot", "ClaudeBot", "CCBot", "*"]


def record(host: str, status: int, body: bytes, content_type: str = "text/plain") -> bytes:
    http = (f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Target-URI: https://{host}/robots.txt\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + http + b"\r\n\r\n")


@pytest.fixture(scope="module")
def warc(corpus, tmp_path_factory) -> pathlib.Path:
    members = [record(host, 200, body) for host, body in corpus[:300]]
    members += [
        record("down.example", 503, b""),
        record("missing.example", 404, b"<html>not found</html>", "text/html"),
        record("page.example", 200, b"<!DOCTYPE html><html><body>hi</body></html>", "text/html"),
    ]
    cut = record("cut.example", 200, b"User-agent: *\nDisallow: /\n")
    members.append(gzip.compress(gzip.decompress(cut)[:80]))
    members.append(record("after.example", 200, b"User-agent: GPTBot\nDisallow: /\n"))
    path = tmp_path_factory.mktemp("warc") / "sites.warc.gz"
    path.write_bytes(b"".join(members))
    return path


@pytest.fixture(scope="module")
def cli_rows(warc, crawlgate_cli, tmp_path_factory) -> pa.Table:
    out = tmp_path_factory.mktemp("cli") / "rows.parquet"
    args = [crawlgate_cli, "survey", str(warc), "-o", str(out), "--no-progress"]
    for crawler in CRAWLERS:
        args += ["--crawler", crawler]
    done = subprocess.run(args, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return pq.read_table(out)


def by_source(table: pa.Table) -> list[dict]:
    return sorted(table.to_pylist(), key=lambda row: row["source"])


def test_python_rows_equal_the_cli(warc, cli_rows) -> None:
    rows = survey_paths([warc], CRAWLERS)
    assert rows.schema.equals(cli_rows.schema, check_metadata=False)
    assert rows.num_rows == cli_rows.num_rows == 305
    assert by_source(rows) == by_source(cli_rows)
    facts = {row["host"]: row for row in rows.to_pylist() if row["host"]}
    assert facts["down.example"]["cause_gptbot"] == "unreachable"
    assert facts["down.example"]["root_gptbot"] == "disallowed"
    assert facts["missing.example"]["cause_gptbot"] == "no_robots_txt"
    assert facts["page.example"]["html"] is True
    assert facts["after.example"]["cause_gptbot"] == "blocked_by_name"
    assert sum(1 for row in rows.to_pylist() if row["error"]) >= 1


def test_captures_read_by_the_caller_give_the_same_rows(corpus) -> None:
    hosts, bodies = zip(*corpus[:200])
    captures = pa.table({"host": list(hosts), "robots_txt": pa.array(bodies, pa.binary())})
    rows = survey(captures, CRAWLERS)
    assert rows.schema.equals(survey_schema(CRAWLERS), check_metadata=False)
    # Alone, a capture is `row 0` of its batch: its source differs, nothing else.
    def alone(i: int) -> dict:
        return survey(captures.slice(i, 1).to_batches()[0], CRAWLERS).to_pylist()[0] | {"source": f"row {i}"}

    assert [alone(i) for i in range(0, 200, 37)] == [rows.slice(i, 1).to_pylist()[0] for i in range(0, 200, 37)]
    with pytest.raises(ValueError, match="not a product token"):
        survey_schema(["GPTBot/1.0"])
    with pytest.raises(OSError):
        survey_paths([REPO / "no-such-file.warc.gz"])


def test_spark_writes_the_cli_schema_and_rows(warc, cli_rows, tmp_path) -> None:
    spec = importlib.util.spec_from_file_location("spark_survey", REPO / "examples" / "spark_survey.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    spark = example.session("crawlgate survey tests")
    spark.sparkContext.setLogLevel("ERROR")
    try:
        out = tmp_path / "spark"
        example.survey(spark, [str(warc)], CRAWLERS).write.mode("overwrite").parquet(str(out))
    finally:
        spark.stop()
    written = pq.read_table(out)
    assert [(f.name, f.type) for f in written.schema] == [(f.name, f.type) for f in cli_rows.schema]
    assert by_source(written) == by_source(cli_rows)
