"""Who may crawl what, on Spark: the rows of `crawlgate survey` over WARC files.

    python examples/spark_survey.py OUT WARC [WARC ...] [--crawler NAME ...]

Spreads the WARC files (Common Crawl's `robotstxt` subset, or any WARC of
robots.txt responses) over the Spark workers; each worker reads its files
with `crawlgate_robots.arrow.survey_paths` inside `DataFrame.mapInArrow`, which
reads the records, takes the HTTP status into account and classifies every
site for every crawler in Rust, as `crawlgate survey` does; the rows are
written to the Parquet folder OUT (one part file per WARC file) in the schema of
`crawlgate survey -o x.parquet` (one row per capture, `root_X`, `cause_X`,
`group_X` and `line_X` columns per crawler; a damaged record is a row with
its `error`). Prints the share of sites blocking each crawler.

A WARC is a path every worker can read (a local or shared file system) or a
URL the workers read themselves, as `crawlgate survey` does: `s3://bucket/key`
or `https://…`. The driver's `AWS_*` variables (endpoint, region,
credentials, `AWS_SKIP_SIGNATURE`) are set on the workers
(`spark.executorEnv`). Runs on a local Spark session (`local[2]`) unless
SPARK_MASTER says otherwise.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
from typing import Any, Iterator

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

from crawlgate_robots.arrow import survey_paths, survey_schema

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from spark_robots import session  # noqa: E402  (the same local session)


def is_url(warc: str) -> bool:
    """Whether `warc` is a URL the workers read through object storage."""
    return "://" in warc and warc.split("://", 1)[0].lower() in ("s3", "http", "https")


def object_storage_session(app: str) -> SparkSession:
    """The example's Spark session, with this process's `AWS_*` variables
    set on every worker (where `survey_paths` reads `s3://` URLs)."""
    config = {f"spark.executorEnv.{k}": v for k, v in os.environ.items() if k.startswith("AWS_")}
    return session(app, config)


def survey(spark: SparkSession, warcs: list[str], crawlers: list[str] | None = None) -> DataFrame:
    """One row per capture of the WARC files (paths or URLs), in `crawlgate
    survey`'s schema (`crawlers`: product tokens, the command's default set
    when None)."""
    paths = [w if is_url(w) else str(pathlib.Path(w).resolve()) for w in warcs]
    # One task per file (so one part file each), as many at once as there
    # are cores.
    files = spark.createDataFrame(spark.sparkContext.parallelize([(p,) for p in paths], max(1, len(paths))), "path string")

    def rows(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            for path in batch.column("path").to_pylist():
                yield from survey_paths([path], crawlers).to_batches()

    return files.mapInArrow(rows, from_arrow_schema(survey_schema(crawlers)))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("warcs", nargs="+")
    parser.add_argument("--crawler", action="append", dest="crawlers")
    args = parser.parse_args(argv)
    spark = object_storage_session("crawlgate survey")
    spark.sparkContext.setLogLevel("ERROR")
    survey(spark, args.warcs, args.crawlers).write.mode("overwrite").parquet(args.out)
    table = spark.read.parquet(args.out)
    causes = [c for c in table.columns if c.startswith("cause_")]
    sites = table.count()
    blocked = ["blocked_by_name", "blocked_by_star"]
    shares = table.select(
        *[F.sum(F.col(c).isin(blocked).cast("int")).alias(c[len("cause_"):]) for c in causes]
    ).first()
    print(f"{sites} sites in {args.out}")
    for crawler in sorted(shares.asDict(), key=lambda c: -(shares[c] or 0)):
        print(f"{crawler:32} blocked on {shares[crawler] or 0:7} sites ({100 * (shares[crawler] or 0) / max(sites, 1):.1f} %)")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
