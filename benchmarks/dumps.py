"""How fast and in how much memory refbridge reads whole dumps, builds an index of them and
verifies a library against the index.

Generates dumps of invented works in each dump's shape (OpenAlex works as gzipped JSON Lines,
dblp.xml with its entities, Crossref pages, arXiv metadata) at two sizes, converts each to
CSL-JSON shards of ``SHARD_SIZE`` records in a fresh process (``measure.run_measured``:
records/s and peak memory, which must stay flat from the small size to the large one), builds an index of the small OpenAlex dump and
verifies a library of ``VERIFIED`` entries (half of them in the dump) against it (entries/s),
and enriches the same library from it (``enrich --index``). With ``--engines duckdb,spark`` the
index is built on each engine from the OpenAlex dump cut into ``PARTS`` files (Spark's
partitions) and from the same works as one uncompressed file that Spark cuts into ``PARTS``
pieces (``REFBRIDGE_SPARK_SPLIT_BYTES``), in Spark's ``local[2]`` (``REFBRIDGE_SPARK_MASTER``;
the ``spark`` extra), its time with Spark's start; then Spark's costs are taken apart in this
process (``spark_costs``): its start, its first job (the Python workers started), a task that
does nothing, each partition's reading (refbridge's own work, timed in the task) and the
driver's load of the rows into DuckDB, from which the time on 1, 2, 4 ... partitions (one CPU
each) is worked out on paper.
Run: ``.venv/bin/python benchmarks/dumps.py [--sizes 20000,200000] [--formats openalex-works,dblp-xml]
[--engines duckdb,spark]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import run_measured

VERIFIED = 1000
#: Files the OpenAlex dump of the index is cut into (a snapshot's ``part_*.gz``).
PARTS = 4
#: Records a shard: keys are unique within a shard, so the key book's memory is bounded by it.
SHARD_SIZE = 10_000
_WORDS = ("streaming", "joins", "compressed", "columns", "learned", "indexes", "graphs",
          "queries", "über", "naïve", "cardinality", "estimation", "revisited", "sketches")


def _title(number: int) -> str:
    words = [_WORDS[(number >> shift) % len(_WORDS)] for shift in (0, 3, 6, 9, 12)]
    return f"{' '.join(words).capitalize()} {number}"


def openalex_lines(count: int) -> Iterator[str]:
    for number in range(count):
        yield json.dumps({
            "id": f"https://openalex.org/W{4000000000 + number}",
            "doi": f"https://doi.org/10.5555/bench.{number}", "title": _title(number),
            "publication_year": 2000 + number % 25,
            "publication_date": f"{2000 + number % 25}-0{1 + number % 9}-1{number % 9}",
            "primary_location": {"source": {"display_name": "Journal of Benchmarks",
                                            "issn": ["1234-5678"], "type": "journal"}},
            "type": "article", "type_crossref": "journal-article",
            "authorships": [{"author": {"id": f"https://openalex.org/A{5000000000 + i}",
                                        "display_name": f"Jürgen Müller{i}"}}
                            for i in range(number % 4 + 1)],
            "biblio": {"volume": str(number % 60), "issue": "2", "first_page": "1",
                       "last_page": "12"}, "is_retracted": False}) + "\n"


def dblp_lines(count: int) -> Iterator[str]:
    yield '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'
    for number in range(count):
        yield (f'<article mdate="2024-01-01" key="journals/bench/W{number}">\n'
               f"<author>J&uuml;rgen M&uuml;ller {number % 100:04d}</author>\n"
               f"<author>Ana&iuml;s Olivier</author>\n<title>{_title(number)}.</title>\n"
               f"<pages>1-12</pages>\n<year>{2000 + number % 25}</year>\n"
               f"<volume>{number % 60}</volume>\n<journal>J. Bench.</journal>\n"
               f"<ee>https://doi.org/10.5555/bench.{number}</ee>\n</article>\n")
    yield "</dblp>\n"


def crossref_lines(count: int) -> Iterator[str]:
    for start in range(0, count, 1000):
        yield json.dumps({"items": [{
            "DOI": f"10.5555/bench.{n}", "type": "journal-article", "title": [_title(n)],
            "container-title": ["Journal of Benchmarks"],
            "author": [{"given": "Jürgen", "family": f"Müller{n % 7}"}],
            "issued": {"date-parts": [[2000 + n % 25]]}, "volume": str(n % 60),
            "page": "1-12", "member": "7822"} for n in range(start, min(start + 1000, count))]}
        ) + "\n"


def arxiv_lines(count: int) -> Iterator[str]:
    for number in range(count):
        yield json.dumps({
            "id": f"{2001 + number % 20:04d}.{number:05d}", "authors": "J. M\\\"uller",
            "title": _title(number), "categories": "cs.DB cs.LG", "abstract": "An abstract.",
            "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}],
            "update_date": "2008-11-13", "authors_parsed": [["Müller", "J.", ""]]}) + "\n"


#: Dump format -> (file name, its lines).
DUMPS: dict[str, tuple[str, Callable[[int], Iterator[str]]]] = {
    "openalex-works": ("works.jsonl.gz", openalex_lines),
    "dblp-xml": ("dblp.xml.gz", dblp_lines),
    "crossref-works": ("crossref.jsonl.gz", crossref_lines),
    "arxiv-metadata": ("arxiv.jsonl", arxiv_lines),
}


def write_dump(folder: Path, form: str, count: int) -> Path:
    name, lines = DUMPS[form]
    path = folder / f"{count}-{name}"
    encoding = "latin-1" if form == "dblp-xml" else "utf-8"
    with (gzip.open(path, "wt", encoding=encoding, compresslevel=1) if name.endswith(".gz")
          else open(path, "w", encoding=encoding)) as out:
        out.writelines(lines(count))
    return path


def write_parts(folder: Path, count: int) -> list[Path]:
    """An OpenAlex dump of ``count`` works in ``PARTS`` gzipped files, in order."""
    lines = list(openalex_lines(count))
    step = -(-count // PARTS)
    paths = []
    for part in range(PARTS):
        path = folder / f"part_{part:03d}.gz"
        with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as out:
            out.writelines(lines[part * step:(part + 1) * step])
        paths.append(path)
    return paths


def write_lines(folder: Path, count: int) -> Path:
    """The OpenAlex dump of ``count`` works as one uncompressed JSON Lines file."""
    path = folder / f"{count}-works.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(openalex_lines(count))
    return path


def _timed_rows(folder: str, number: int, path: str, diagnostics: Any
                ) -> tuple[int, float, float, float]:
    """Write the index's rows of ``path`` (run by a Spark task): how many, the seconds taken
    by importing refbridge's index (once a Python worker), the seconds of reading and its CPU
    seconds (the worker's: a shared machine stretches the wall time, not the CPU time)."""
    started = time.perf_counter()
    from refbridge.index.build import rows

    imported, cpu = time.perf_counter(), time.process_time()
    count = 0
    with open(os.path.join(folder, f"rows-{number:06d}.jsonl"), "w", encoding="utf-8") as out:
        for row in rows(None, path, diagnostics):
            out.write(row + "\n")
            count += 1
    return (count, imported - started, time.perf_counter() - imported,
            time.process_time() - cpu)


def _seconds(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def spark_costs(inputs: list[str], works: int, cores: int = 2) -> None:
    """Spark's costs on ``inputs`` (a partition each), taken apart, and the time on paper."""
    from refbridge.errors import Diagnostics
    from refbridge.index.store import write_row_files
    from refbridge.spark import each_input, session

    start, spark = _seconds(lambda: session(f"local[{cores}]"))
    context = spark.sparkContext
    parts = len(inputs)
    first, _ = _seconds(lambda: context.parallelize(range(parts), parts).map(
        lambda n: n).collect())
    empty, _ = _seconds(lambda: context.parallelize(range(parts), parts).map(
        lambda n: n).collect())
    with tempfile.TemporaryDirectory() as name:
        job, done = _seconds(lambda: each_input(inputs, partial(_timed_rows, name),
                                                Diagnostics()))
        files = sorted(str(path) for path in Path(name).glob("rows-*.jsonl"))
        load, _ = _seconds(lambda: write_row_files(files, os.path.join(name, "works.duckdb")))
    spark.stop()
    reading = [seconds for _count, _imported, seconds, _cpu in done]
    imports = max(imported for _count, imported, _seconds, _cpu in done)
    per_work = sum(cpu for *_rest, cpu in done) / works
    task = empty / -(-parts // cores)
    print(f"spark costs, local[{cores}], {parts} partitions, {works} works: start "
          f"{start:.1f} s; first job (Python workers) {first:.1f} s; a job of empty tasks "
          f"{empty:.2f} s ({task * 1000:.0f} ms a task); the reading job {job:.1f} s, in its "
          f"tasks: import {imports:.2f} s, reading {', '.join(f'{s:.1f}' for s in reading)} s "
          f"({per_work * 1e6:.0f} us of CPU a work); the driver's load {load:.1f} s "
          f"({load / works * 1e6:.0f} us a work)")
    fixed = start + first
    print(f"on paper (N works on P partitions, one CPU each): {fixed:.1f} s + "
          f"{task:.2f} s + N/P x {per_work * 1e6:.0f} us + N x {load / works * 1e6:.0f} us")
    for size in (works, 1_000_000, 7_000_000):
        times = [fixed + task + size / p * per_work + size * load / works
                 for p in (1, 2, 4, 8, 16, 32)]
        print(f"  {size:>9} works: " + ", ".join(f"P={p} {t:,.0f} s" for p, t in
                                                  zip((1, 2, 4, 8, 16, 32), times)))


def refbridge(*args: str) -> list[str]:
    return [sys.executable, "-m", "refbridge", *args]


def library(folder: Path, count: int) -> Path:
    """``VERIFIED`` entries: the even ones works of the dump, the odd ones nowhere in it."""
    entries = []
    for i in range(VERIFIED):
        number = i * (count // VERIFIED)
        doi = f"  doi = {{10.5555/bench.{number}}},\n" if i % 4 == 0 else ""
        title = _title(number) if i % 2 == 0 else f"An invented paper {i}"
        entries.append(f"@article{{e{i},\n  author = {{Müller0, Jürgen}},\n"
                       f"  title = {{{title}}},\n  journal = {{Journal of Benchmarks}},\n"
                       f"  year = {{{2000 + number % 25}}},\n{doi}}}\n")
    path = folder / "library.bib"
    path.write_text("\n".join(entries), "utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--sizes", default="20000,200000")
    parser.add_argument("--formats", default="openalex-works,dblp-xml")
    parser.add_argument("--engines", default="duckdb", help="duckdb, spark or duckdb,spark")
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for form in filter(None, arguments.formats.split(",")):
            for size in sizes:
                dump = write_dump(folder, form, size)
                shutil.rmtree(folder / "out", ignore_errors=True)
                run = run_measured(refbridge("convert", str(dump), "--from", form, "--to",
                                             "csl-json", "-o", str(folder / "out"),
                                             "--shard-size", str(SHARD_SIZE)))
                status = "" if run.ok else f" FAILED: {run.error}"
                print(f"convert {form:15} {size:>8} records: {run.seconds:6.1f} s, "
                      f"{size / run.seconds:7.0f} records/s, peak {run.peak_rss >> 20} MiB"
                      f"{status}")
        size = sizes[0]
        parts = [str(path) for path in write_parts(folder, size)]
        whole = write_lines(folder, size)
        environment = {**os.environ, "REFBRIDGE_SPARK_MASTER": "local[2]",
                       "REFBRIDGE_SPARK_SPLIT_BYTES": str(-(-whole.stat().st_size // PARTS))}
        engines = list(filter(None, arguments.engines.split(",")))
        for engine in engines:
            for what, inputs in ((f"{PARTS} gzipped files", parts),
                                 ("one file", [str(whole)])):
                index = folder / f"{engine}.duckdb"
                index.unlink(missing_ok=True)
                run = run_measured(refbridge("index", "build", *inputs, "-o", str(index),
                                             "--engine", engine), env=environment)
                status = "" if run.ok else f" FAILED: {run.error}"
                print(f"index build {engine:6} {size:>8} works, {what}: {run.seconds:6.1f} s "
                      f"(cpu {run.cpu_seconds:.1f} s), {size / run.seconds:7.0f} works/s, peak "
                      f"{run.peak_rss >> 20} MiB{status}")
        if "spark" in engines:
            spark_costs(parts, size)
        from refbridge.enrich import EnrichOptions, enrich_records
        from refbridge.errors import Diagnostics
        from refbridge.pipeline import read_records
        from refbridge.verify.run import verify_records
        from refbridge.verify.settings import VerifyOptions

        records = list(read_records([str(library(folder, size))], Diagnostics()))
        options = VerifyOptions(services=("openalex",), index=str(index), use_cache=False)
        start = time.perf_counter()
        verified = verify_records(records, options)
        seconds = time.perf_counter() - start
        kinds = Counter(f.code for v in verified.verdicts for f in v.findings)
        print(f"verify --index  {len(records):>8} entries: {seconds:5.1f} s, "
              f"{len(records) / seconds:7.0f} entries/s ({dict(kinds)}), "
              f"{verified.requests} request(s)")
        bare = [record.replace(fields={k: v for k, v in record.fields.items() if k != "DOI"})
                for record in records]
        start = time.perf_counter()
        _, report = enrich_records(bare, EnrichOptions(services=("openalex",),
                                                       index=str(index)))
        seconds = time.perf_counter() - start
        print(f"enrich --index  {len(bare):>8} entries: {seconds:5.1f} s, "
              f"{len(bare) / seconds:7.0f} entries/s ({report.summary()})")


if __name__ == "__main__":
    main()
