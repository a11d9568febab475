"""The survey's rows from Python and from Spark equal `crawlgate survey`'s.

A small gzip WARC (one member per record, as Common Crawl writes them) of
corpus files, a 503, a 404, an HTML page and a record cut short is surveyed
by `crawlgate survey -o rows.parquet`, by `crawlgate_robots.arrow.survey_paths`,
and by examples/spark_survey.py on PySpark; the three tables have the same
columns, types and rows. The same WARC (and a second one), uploaded to
moto's S3 server on loopback, is surveyed by URL: `crawlgate survey` over
their `robotstxt.paths.gz` listing, `survey_paths` over the listing, and
Spark `local[2]` over the two `s3://` URLs give the same rows, and the
rows of the local file."""

from __future__ import annotations

import gzip
import http.client
import importlib.util
import json
import os
import pathlib
import socket
import subprocess
import time
from dataclasses import dataclass
from typing import Iterator

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


@dataclass
class S3:
    """moto's S3 server on 127.0.0.1: `upload` puts an object, `url` names it."""

    port: int
    bucket: str = "crawl"

    def request(self, target: str, body: bytes = b"") -> None:
        # moto takes unsigned requests; the survey reads them back signed.
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request("PUT", target, body=body)
            answer = connection.getresponse()
            said = answer.read()
        finally:
            connection.close()
        assert answer.status == 200, f"PUT {target}: {answer.status} {said[:500]!r}"

    def upload(self, key: str, body: bytes) -> str:
        self.request(f"/{self.bucket}/{key}", body)
        return self.url(key)

    def url(self, key: str) -> str:
        return f"s3://{self.bucket}/{key}"


@pytest.fixture(scope="module")
def s3(target_dir) -> Iterator[S3]:
    """moto's server (scripts/moto.sh installs it under the target folder,
    as the survey's Rust tests do; a failure to install fails the test), and
    the `AWS_*` variables `crawlgate survey` and the Spark workers read,
    pointing at it while the module runs."""
    installed = subprocess.run(
        ["bash", str(REPO / "scripts" / "moto.sh")],
        capture_output=True,
        text=True,
        timeout=900,
        env=os.environ | {"CARGO_TARGET_DIR": str(target_dir)},
    )
    assert installed.returncode == 0, f"scripts/moto.sh could not install moto's server:\n{installed.stderr[-2000:]}"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [installed.stdout.strip(), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    variables = {
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}",
        "AWS_ALLOW_HTTP": "true",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
    }
    saved = {key: os.environ.get(key) for key in variables}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, f"moto's server exited with {server.returncode}"
                assert time.monotonic() < deadline, f"moto's server did not listen on 127.0.0.1:{port} within 60 s"
                time.sleep(0.1)
        os.environ.update(variables)
        store = S3(port)
        store.request(f"/{store.bucket}")
        yield store
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def spark(s3):
    """examples/spark_survey.py and one Spark session for the module, made
    once the `AWS_*` variables point at moto (the example sets them on the
    workers)."""
    spec = importlib.util.spec_from_file_location("spark_survey", REPO / "examples" / "spark_survey.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    session = example.object_storage_session("crawlgate survey tests")
    session.sparkContext.setLogLevel("ERROR")
    yield example, session
    session.stop()


def test_spark_writes_the_cli_schema_and_rows(spark, warc, cli_rows, tmp_path) -> None:
    example, session = spark
    out = tmp_path / "spark"
    example.survey(session, [str(warc)], CRAWLERS).write.mode("overwrite").parquet(str(out))
    written = pq.read_table(out)
    assert [(f.name, f.type) for f in written.schema] == [(f.name, f.type) for f in cli_rows.schema]
    assert by_source(written) == by_source(cli_rows)


def test_spark_over_s3_urls_equals_the_cli_over_the_same_urls(spark, s3, warc, corpus, cli_rows, crawlgate_cli, tmp_path) -> None:
    example, session = spark
    assert session.sparkContext.master == "local[2]"
    prefix = "crawl-data/CC-TEST/segments"
    more = b"".join(record(host, 200, body) for host, body in corpus[300:340])
    urls = [
        s3.upload(f"{prefix}/1/robotstxt/sites.warc.gz", warc.read_bytes()),
        s3.upload(f"{prefix}/2/robotstxt/more.warc.gz", more),
    ]
    keys = [url.split("/", 3)[3] for url in urls]
    listing = s3.upload("crawl-data/CC-TEST/robotstxt.paths.gz", gzip.compress("\n".join(keys).encode() + b"\n"))

    # The command, over the listing (its relative paths read in its bucket).
    out = tmp_path / "cli.parquet"
    args = [crawlgate_cli, "survey", listing, "-o", str(out), "--no-progress"]
    for crawler in CRAWLERS:
        args += ["--crawler", crawler]
    done = subprocess.run(args, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    cli = pq.read_table(out)
    assert cli.num_rows == 305 + 40
    assert {row["source"].rsplit("@", 1)[0] for row in cli.to_pylist()} == set(urls)

    # Spark local[2] over the two URLs: a task per file, a part file each.
    folder = tmp_path / "spark"
    example.survey(session, urls, CRAWLERS).write.mode("overwrite").parquet(str(folder))
    parts = [p for p in folder.glob("part-*.parquet") if pq.read_metadata(p).num_rows > 0]
    assert len(parts) == 2, parts
    written = pq.read_table(folder)
    assert [(f.name, f.type) for f in written.schema] == [(f.name, f.type) for f in cli.schema]
    assert by_source(written) == by_source(cli)

    # The report (its JSON summary) from Spark's output folder equals the
    # report from the command's Parquet file, but for its label (the
    # table's name).
    summaries = {}
    for name, table in (("spark", folder), ("cli", out)):
        summary = tmp_path / f"{name}-report.json"
        done = subprocess.run([crawlgate_cli, "survey", "report", str(table), "-o", str(summary)], capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        summaries[name] = json.loads(summary.read_text())
    assert summaries["spark"]["snapshots"][0]["label"] == "spark"
    summaries["spark"]["snapshots"][0]["label"] = summaries["cli"]["snapshots"][0]["label"]
    assert summaries["spark"] == summaries["cli"]

    # The Python API over the listing, and the local file's rows (where
    # each came from aside) are the same.
    assert by_source(survey_paths([listing], CRAWLERS)) == by_source(cli)
    local = str(warc)
    from_local = [row | {"source": row["source"].replace(local, urls[0], 1)} for row in cli_rows.to_pylist()]
    first = [row for row in cli.to_pylist() if row["source"].startswith(urls[0] + "@")]
    assert sorted(from_local, key=lambda row: row["source"]) == sorted(first, key=lambda row: row["source"])
