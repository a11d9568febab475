"""Crawler-permission audit of a folder of robots.txt files, on Spark.

    python examples/spark_robots.py FOLDER [--crawler NAME ...] [--path /P ...]

Reads every file of FOLDER (one robots.txt per site, named after the site),
asks for each site, crawler and path whether the crawler may fetch it, with
`crawlgate_robots.arrow.decide_batches` inside `DataFrame.mapInArrow` (parsed and
decided in Rust, each file once per batch), and prints, per crawler and
path, how many sites allow and disallow it (Spark's binaryFile source
leaves out empty files, which allow everything). Runs on a local Spark session
(`local[2]`) unless SPARK_MASTER says otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from crawlgate_robots.arrow import INPUT_SCHEMA, SPARK_SCHEMA, decide_batches

CRAWLERS = ["Googlebot", "bingbot", "GPTBot", "ClaudeBot", "CCBot", "Applebot"]
PATHS = ["/", "/search", "/wp-admin/", "/api/"]


def session(app: str = "crawlgate robots.txt audit", config: dict[str, str] | None = None) -> SparkSession:
    """A Spark session (local, 2 cores, by default) whose Python workers run
    this interpreter, where crawlgate-robots is installed; `config` adds
    settings (they reach a new session only)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.master(os.environ.get("SPARK_MASTER", "local[2]"))
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.showConsoleProgress", "false")
    )
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def requests(spark: SparkSession, folder: str, crawlers: list[str], paths: list[str]) -> DataFrame:
    """One row per (site, crawler, path): `site`, `path`, `robots_txt`,
    `user_agent` and `url`."""
    files = (
        spark.read.format("binaryFile")
        .load(folder)
        .select(F.element_at(F.split("path", "/"), -1).alias("site"), F.col("content").alias("robots_txt"))
        # One small file per site: a task per file would cost more than the work.
        .coalesce(spark.sparkContext.defaultParallelism)
    )
    agents = spark.createDataFrame([(c,) for c in crawlers], "user_agent string")
    urls = spark.createDataFrame([(p,) for p in paths], "path string")
    return (
        files.crossJoin(agents)
        .crossJoin(urls)
        .select("site", "path", "robots_txt", "user_agent", F.concat(F.lit("https://"), "site", "path").alias("url"))
    )


def decide(rows: DataFrame) -> DataFrame:
    """`rows` with `allowed`, `line` and `rule`, decided by crawlgate."""
    keys = rows.select("robots_txt", "user_agent", "url")
    extra = [c for c in rows.columns if c not in ("robots_txt", "user_agent", "url")]
    schema = ", ".join([f"{c} string" for c in extra] + [INPUT_SCHEMA, SPARK_SCHEMA])
    return rows.select(*extra, *keys.columns).mapInArrow(decide_batches, schema)


def audit(spark: SparkSession, folder: str, crawlers: list[str], paths: list[str]) -> DataFrame:
    """Every (site, crawler, path) with crawlgate's answer, without the bodies."""
    return decide(requests(spark, folder, crawlers, paths)).drop("robots_txt")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--crawler", action="append", dest="crawlers")
    parser.add_argument("--path", action="append", dest="paths")
    args = parser.parse_args(argv)
    spark = session()
    spark.sparkContext.setLogLevel("ERROR")
    answers = audit(spark, args.folder, args.crawlers or CRAWLERS, args.paths or PATHS).cache()
    summary = (
        answers.groupBy("user_agent", "path")
        .agg(
            F.sum(F.col("allowed").cast("int")).alias("sites_allowed"),
            F.sum((~F.col("allowed")).cast("int")).alias("sites_disallowed"),
        )
        .orderBy("user_agent", "path")
    )
    summary.show(summary.count(), truncate=False)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
