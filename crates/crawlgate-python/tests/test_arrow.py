"""`crawlgate_robots.arrow.decide`: Arrow in, Arrow out (Polars in, Polars
out; DuckDB relations in), the same answers as `RobotsTxt.decide` row by
row; a shared dictionary costs the entries the rows use."""

from __future__ import annotations

import statistics
import time

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import crawlgate_robots
from crawlgate_robots.arrow import decide, decide_batches

A = b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: Googlebot\nDisallow: /search\n"
B = b"User-agent: *\nDisallow: /*.php$\n"


def table_of(rows):
    return pa.table(
        {
            "robots_txt": pa.array([r[0] for r in rows], pa.binary()),
            "user_agent": pa.array([r[1] for r in rows], pa.string()),
            "url": pa.array([r[2] for r in rows], pa.string()),
        }
    )


ROWS = [
    (A, "mybot", "https://a.example/private/x"),
    (A, "mybot", "https://a.example/private/press/kit"),
    (A, "Googlebot", "https://a.example/search?q=1"),
    (B, "mybot", "/index.php"),
    (B, "mybot", "/index.php?x"),
    (A, "mybot", "/"),
]


def expected(rows, profile="google"):
    out = []
    for body, agent, url in rows:
        v = crawlgate_robots.RobotsTxt(body, profile).decide(url, agent)
        out.append((v.allowed, v.line, v.rule))
    return out


def answers(result):
    return list(zip(result.column("allowed").to_pylist(), result.column("line").to_pylist(), result.column("rule").to_pylist()))


def test_record_batch_and_table() -> None:
    table = table_of(ROWS)
    batch = table.to_batches()[0]
    out = decide(batch)
    assert isinstance(out, pa.RecordBatch)
    assert out.schema.names == ["robots_txt", "user_agent", "url", "allowed", "line", "rule"]
    assert out.schema.field("allowed").type == pa.bool_()
    assert out.schema.field("line").type == pa.int32()
    assert out.schema.field("rule").type == pa.string()
    assert answers(out) == expected(ROWS)
    assert answers(out)[0] == (False, 2, "Disallow: /private/")
    assert answers(out)[5] == (True, None, None)
    # The input columns come back as they were.
    assert out.column(0).equals(batch.column(0))
    tout = decide(table)
    assert isinstance(tout, pa.Table) and answers(tout) == expected(ROWS)
    assert answers(decide(table, profile="legacy")) == expected(ROWS, "legacy")


def test_several_batches_and_encodings() -> None:
    table = pa.concat_tables([table_of(ROWS[:3]), table_of(ROWS[3:])])
    assert len(table.to_batches()) == 2
    assert answers(decide(table)) == expected(ROWS)
    encoded = table.set_column(0, "robots_txt", table.column("robots_txt").dictionary_encode())
    assert answers(decide(encoded)) == expected(ROWS)
    large = table.cast(pa.schema([("robots_txt", pa.large_binary()), ("user_agent", pa.large_string()), ("url", pa.string())]))
    assert answers(decide(large)) == expected(ROWS)
    text = table.set_column(0, "robots_txt", pa.array([r[0].decode() for r in ROWS], pa.string()))
    assert answers(decide(text)) == expected(ROWS)
    batches = list(decide_batches(table.to_batches()))
    assert [answers(b) for b in batches] == [expected(ROWS[:3]), expected(ROWS[3:])]
    empty = decide(table.slice(0, 0))
    assert empty.num_rows == 0 and empty.schema.names[-3:] == ["allowed", "line", "rule"]


def test_objects_with_the_arrow_stream_interface() -> None:
    class Stream:
        def __init__(self, table):
            self.table = table

        def __arrow_c_stream__(self, requested_schema=None):
            return self.table.__arrow_c_stream__(requested_schema)

    assert answers(decide(Stream(table_of(ROWS)))) == expected(ROWS)


def test_null_rows_have_null_answers() -> None:
    table = pa.table(
        {
            "robots_txt": pa.array([A, None, A], pa.binary()),
            "user_agent": pa.array(["a", "a", None], pa.string()),
            "url": pa.array(["/private/x", "/", "/"], pa.string()),
        }
    )
    assert answers(decide(table)) == [(False, 2, "Disallow: /private/"), (None, None, None), (None, None, None)]


def test_corpus_rows_match_the_model(corpus) -> None:
    rows = []
    for _name, body in corpus[:400]:
        for agent in ("Googlebot", "mybot"):
            for path in ("/", "/search", "/admin/", "/index.php"):
                rows.append((body, agent, path))
    assert answers(decide(table_of(rows))) == expected(rows)


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        ({"robots_txt": [b""]}, TypeError, "expects a pyarrow.RecordBatch"),
        (pl.DataFrame({"robots_txt": [b""]}).lazy(), TypeError, "collect\\(\\) the LazyFrame first"),
        (pl.DataFrame({"robots_txt": [b""], "user_agent": ["a"]}), ValueError, "no `url` column"),
        (pa.table({"robots_txt": [b""], "user_agent": ["a"]}), ValueError, "no `url` column"),
        (pa.table({"robots_txt": [b""], "user_agent": [1], "url": ["/"]}), ValueError, "column `user_agent` is Int64, expected string"),
        (pa.table({"robots_txt": [1], "user_agent": ["a"], "url": ["/"]}), ValueError, "column `robots_txt` is Int64, expected binary or string"),
        (pa.table({"robots_txt": [b""], "user_agent": ["a"], "url": [b"/"]}), ValueError, "column `url` is Binary"),
        (pa.table({"robots_txt": [b""], "user_agent": ["a"], "url": ["/"], "allowed": [True]}), ValueError, "already has a column named `allowed`"),
    ],
)
def test_bad_input_is_a_clear_error(data, error, message) -> None:
    with pytest.raises(error, match=message):
        decide(data)


def test_unknown_profile() -> None:
    with pytest.raises(ValueError, match=r"unknown profile `baidu` \(expected one of: google, rfc9309, legacy, bing, yandex\)"):
        decide(table_of(ROWS), profile="baidu")


def test_the_yandex_reading_is_a_profile() -> None:
    # Yandex's longest rule counts no `*`: `/ab` (3) beats `/****x` (2 literal
    # characters); Google counts every character of the pattern (6 beats 3).
    body = b"User-agent: *\nDisallow: /****x\nAllow: /ab\n"
    rows = [(body, "YandexBot", "https://example.com/abx")]
    assert decide(table_of(rows), profile="google").column("allowed").to_pylist() == [False]
    assert decide(table_of(rows), profile="yandex").column("allowed").to_pylist() == [True]


def test_the_bing_reading_is_a_profile() -> None:
    # Bing ends Bingbot's group at the Crawl-delay line; Google does not.
    body = b"User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n"
    rows = [(body, "Bingbot", "https://example.com/page")]
    assert decide(table_of(rows), profile="google").column("allowed").to_pylist() == [False]
    assert decide(table_of(rows), profile="bing").column("allowed").to_pylist() == [True]


def test_polars_in_polars_out() -> None:
    frame = pl.DataFrame(
        {
            "robots_txt": [r[0] for r in ROWS],
            "user_agent": [r[1] for r in ROWS],
            "url": [r[2] for r in ROWS],
        }
    )
    out = decide(frame)
    assert isinstance(out, pl.DataFrame)
    assert out.columns == ["robots_txt", "user_agent", "url", "allowed", "line", "rule"]
    assert out.schema["allowed"] == pl.Boolean and out.schema["line"] == pl.Int32 and out.schema["rule"] == pl.String
    assert list(zip(out["allowed"], out["line"], out["rule"])) == expected(ROWS)
    # Text files as a categorical column (a dictionary in Arrow).
    text = frame.with_columns(pl.col("robots_txt").cast(pl.String).cast(pl.Categorical))
    out = decide(text)
    assert isinstance(out, pl.DataFrame) and list(zip(out["allowed"], out["line"], out["rule"])) == expected(ROWS)
    assert decide(frame, profile="legacy")["allowed"].to_list() == [a for a, _, _ in expected(ROWS, "legacy")]


def test_duckdb_relations() -> None:
    rows = table_of(ROWS)  # noqa: F841 - read by DuckDB's replacement scan
    connection = duckdb.connect()
    relation = connection.sql("select robots_txt, user_agent, url from rows")
    out = decide(relation)
    assert isinstance(out, pa.Table) and answers(out) == expected(ROWS)
    refused = connection.sql("select count(*) from out where not allowed").fetchall()
    assert refused == [(sum(1 for a, _, _ in expected(ROWS) if not a),)]


def shared_dictionary_rows(entries: int, rows: int = 1000) -> pa.RecordBatch:
    """`rows` rows whose robots_txt points at `rows` distinct entries spread
    over a dictionary of `entries` files (as a Parquet reader hands out one
    dictionary for many batches)."""
    files = pa.array(
        [f"User-agent: *\nDisallow: /private/{i}/\nAllow: /private/{i}/press/\nCrawl-delay: 1\n".encode() for i in range(entries)],
        pa.binary(),
    )
    keys = pa.array([i * (entries // rows) for i in range(rows)], pa.int32())
    return pa.RecordBatch.from_arrays(
        [
            pa.DictionaryArray.from_arrays(keys, files),
            pa.array(["mybot"] * rows, pa.string()),
            pa.array([f"/private/{i * (entries // rows)}/x" for i in range(rows)], pa.string()),
        ],
        names=["robots_txt", "user_agent", "url"],
    )


def test_a_shared_dictionary_costs_only_the_entries_the_rows_use() -> None:
    small, large = shared_dictionary_rows(1_000), shared_dictionary_rows(100_000)
    assert decide(small).column("allowed").to_pylist() == [False] * 1000
    assert decide(large).column("allowed").to_pylist() == [False] * 1000

    def median_seconds(batch: pa.RecordBatch) -> float:
        times = []
        for _ in range(15):
            started = time.perf_counter()
            decide(batch)
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    # Interleaved, so that a burst of load hits both alike.
    rounds = [(median_seconds(small), median_seconds(large)) for _ in range(3)]
    small_time = statistics.median(r[0] for r in rounds)
    large_time = statistics.median(r[1] for r in rounds)
    print(f"1,000 rows: {small_time * 1e3:.2f} ms from 1,000 entries, {large_time * 1e3:.2f} ms from 100,000")
    # Reading the whole dictionary would cost about 100 times as much; 10
    # leaves room for the load of the suites that run beside this one.
    assert large_time <= 10 * small_time, (small_time, large_time)
