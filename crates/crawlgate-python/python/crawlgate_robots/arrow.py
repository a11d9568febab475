"""Batch decisions over Arrow data, for PySpark, Polars, DuckDB and pyarrow.

``decide(data, profile=None, reading="crawler")`` takes a ``pyarrow.RecordBatch``, a
``pyarrow.Table``, a Polars ``DataFrame`` (a ``DataFrame`` back) or any
object with ``__arrow_c_stream__``, such as a DuckDB relation (a
``pyarrow.Table`` back), with the columns

* ``robots_txt``: binary or string (dictionary-encoded too): the file;
* ``user_agent``: string: the crawler's name, read as the crawler it names
  (the registry's rules: ``Googlebot-Image`` obeys the ``Googlebot`` group
  when no group names it), or with ``reading="one-token"`` as one product
  token, exactly as Google's library reads it (to compare with it, as
  ``crawlgate batch`` does with ``user_agent``);
* ``url``: string: absolute or path-only;

and, without a ``profile``, reads each row's file as its crawler's operator
reads files (Bing's crawlers by Bing's rules, Yandex's robots by Yandex's,
every other row and the one-token reading by Google's), as ``crawlgate
check`` does; a named ``profile`` reads every row by it. It
returns the same rows with ``allowed`` (bool), ``line`` (int32, null
when no rule decided) and ``rule`` (string, the deciding rule as written)
appended. A row with a null input has null answers. Files repeated across
rows are parsed once (of a dictionary-encoded column, only the entries the
rows use); the rows are decided on all cores in Rust, without the GIL; the
data crosses over through the Arrow C data interface, without copies.

With PySpark::

    from crawlgate_robots.arrow import INPUT_SCHEMA, SPARK_SCHEMA, decide_batches
    answers = df.select("robots_txt", "user_agent", "url").mapInArrow(
        decide_batches, f"{INPUT_SCHEMA}, {SPARK_SCHEMA}"
    )

The survey's rows (``crawlgate survey``: one row per site, a class per
crawler, in the same schema as its Parquet table): ``survey_paths(paths)``
reads WARC files (local, by ``s3://`` or ``https://`` URL, or listed in a
``robotstxt.paths.gz``), folders and tables as the command does;
``survey(data)`` classifies captures already read (columns ``host``,
``robots_txt``, optionally ``status``, ``content_type``, ``source``);
``survey_schema()`` is the schema. ``crawlers`` is a list of product tokens
(or ``*``), the command's default set when ``None``.

Access logs (``crawlgate audit``): ``Auditor(robots_txt, ...)`` audits one
log fed in record batches, in order: whole lines in a text column
(``value``, as ``spark.read.text`` names it), or with
``log_format="cloudflare"``/``"json"`` records in columns named like the
JSON fields. Its rows are the command's table (``audit_schema()``), and
``summary()``/``deny_list()`` what the command reports. Without a
``profile`` each crawler's verdict is read by its operator's rules (Bing's
crawlers by ``bing``, Yandex's robots by ``yandex``), as ``crawlgate
check`` and the command give it; a named ``profile`` reads the file by it
for every crawler. With PySpark, one
auditor per partition::

    from crawlgate_robots.arrow import AUDIT_SPARK_SCHEMA, audit_batches
    rows = spark.read.text("logs/").mapInArrow(
        lambda batches: audit_batches(batches, robots_txt, ip_ranges="/mirror"),
        AUDIT_SPARK_SCHEMA,
    )

(Crawl-delay breaches are measured within a partition: give one log's
lines to one partition, in order, for the command's answer.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Optional

from . import _crawlgate

if TYPE_CHECKING:
    from ._crawlgate import _Profile, _Reading

__all__ = [
    "AUDIT_SPARK_SCHEMA",
    "INPUT_SCHEMA",
    "SPARK_SCHEMA",
    "Auditor",
    "audit_batches",
    "audit_schema",
    "decide",
    "decide_batches",
    "survey",
    "survey_paths",
    "survey_schema",
]

#: The input columns, as a Spark DDL schema.
INPUT_SCHEMA = "robots_txt binary, user_agent string, url string"
#: The appended columns, as a Spark DDL schema.
SPARK_SCHEMA = "allowed boolean, line int, rule string"
#: The audit's rows with plain types (``audit_schema(plain=True)``), as a
#: Spark DDL schema.
AUDIT_SPARK_SCHEMA = (
    "file string, line bigint, time timestamp, ip string, user_agent string, "
    "crawler string, identity string, identity_reason string, host string, url string, "
    "status int, allowed boolean, basis string, rule_line bigint, robots_version string, "
    "violation boolean, recent_change boolean, crawl_delay_breach boolean, "
    "honeypot boolean, user_triggered boolean"
)

Auditor = _crawlgate.Auditor


def audit_schema(plain: bool = False) -> Any:
    """The ``pyarrow.Schema`` of the audit's rows; ``plain=True``: text for
    the dictionary columns and signed integers (what Spark takes)."""
    return _crawlgate.audit_schema(plain=plain)


def audit_batches(batches: Iterable[Any], robots_txt: str, **options: Any) -> Iterator[Any]:
    """Audits the record batches of one log in order with one ``Auditor``
    (``options`` are its keyword arguments; ``column`` names the text
    column of lines, ``value`` by default), yielding the rows with plain
    types: the function to give PySpark's ``DataFrame.mapInArrow``."""
    column = options.pop("column", "value")
    auditor = _crawlgate.Auditor(robots_txt, **options)
    for batch in batches:
        yield auditor.audit(batch, column, plain=True)


def _polars_frame(data: Any) -> bool:
    """Whether ``data`` is a Polars DataFrame (without importing Polars
    for anything else)."""
    if type(data).__module__.split(".")[0] != "polars":
        return False
    import polars as pl  # type: ignore[import-not-found, unused-ignore]

    if isinstance(data, pl.LazyFrame):
        raise TypeError("crawlgate_robots.arrow.decide takes a polars.DataFrame: collect() the LazyFrame first")
    return isinstance(data, pl.DataFrame)


def decide(data: Any, profile: Optional[_Profile] = None, reading: _Reading = "crawler") -> Any:
    """Decides every row; returns a ``pyarrow.RecordBatch`` for a record
    batch, a Polars ``DataFrame`` for a Polars ``DataFrame``, a
    ``pyarrow.Table`` otherwise."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

    if isinstance(data, pa.RecordBatch):
        return _crawlgate.decide_record_batch(data, profile, reading=reading)
    if isinstance(data, pa.Table):
        return _crawlgate.decide_table(data, profile, reading=reading)
    if _polars_frame(data):
        import polars as pl  # type: ignore[import-not-found, unused-ignore]

        return pl.from_arrow(_crawlgate.decide_table(data.to_arrow(), profile, reading=reading))
    if hasattr(data, "__arrow_c_stream__"):
        return _crawlgate.decide_table(pa.table(data), profile, reading=reading)
    raise TypeError(
        "crawlgate_robots.arrow.decide expects a pyarrow.RecordBatch, a pyarrow.Table, a polars.DataFrame "
        f"or an object with __arrow_c_stream__, not {type(data).__name__}"
    )


def decide_batches(
    batches: Iterable[Any], profile: Optional[_Profile] = None, reading: _Reading = "crawler"
) -> Iterator[Any]:
    """``decide`` over an iterator of record batches: the function to give
    PySpark's ``DataFrame.mapInArrow``."""
    for batch in batches:
        yield decide(batch, profile, reading)


def survey_schema(crawlers: list[str] | None = None) -> Any:
    """The ``pyarrow.Schema`` of the survey's rows for these crawlers."""
    return _crawlgate.survey_schema(crawlers)


def survey(data: Any, crawlers: list[str] | None = None) -> Any:
    """One survey row per capture of a ``pyarrow.RecordBatch`` (a
    ``pyarrow.RecordBatch`` back) or ``pyarrow.Table`` (a ``pyarrow.Table``
    back)."""
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]

    if isinstance(data, pa.RecordBatch):
        return _crawlgate.survey_record_batch(data, crawlers)
    if isinstance(data, pa.Table):
        batches = [_crawlgate.survey_record_batch(b, crawlers) for b in data.to_batches()]
        return pa.Table.from_batches(batches, schema=survey_schema(crawlers))
    raise TypeError(f"crawlgate_robots.arrow.survey expects a pyarrow.RecordBatch or a pyarrow.Table, not {type(data).__name__}")


def survey_paths(paths: Iterable[Any], crawlers: list[str] | None = None) -> Any:
    """The survey's rows of WARC files (``.warc``, ``.warc.gz``), folders
    of files named by host, or ``.jsonl`` / ``.csv`` tables, as a
    ``pyarrow.Table``; a damaged record is an error row with its reason.
    WARC files may be given by URL (``s3://bucket/key``, ``https://…``)
    and by listing (``robotstxt.paths.gz``, local or by URL), read as
    ``crawlgate survey`` reads them: through object storage, with the
    ``AWS_*`` variables of the environment (``AWS_ENDPOINT_URL``,
    ``AWS_REGION``, credentials or ``AWS_SKIP_SIGNATURE=true``)."""
    return _crawlgate.survey_paths([str(p) for p in paths], crawlers)
