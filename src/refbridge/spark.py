"""Apache Spark as the engine of the dump jobs (``--engine spark``): the one module that
imports PySpark, a narrow typed face of the few parts of it the jobs use.

The inputs are spread over Spark's partitions, one input file a partition, a large file cut
into pieces of about ``SPLIT_BYTES`` at its records' boundaries (``refbridge.splits``; the dump
formats say where their records start: ``formats.dumps.pieces``), each piece a partition, as
Hadoop splits a text file; a gzipped file cannot be cut, which a warning says. Each partition
runs the function it is handed on its input's path (a piece is a path too), which is refbridge's own reading (a reader, ``index.build``'s candidates) and writing,
so Spark's output is the local engine's. Three shapes of job: ``each_input`` (a task an input,
side by side, each writing what it makes to a file), ``map_inputs`` (the inputs' few items back
to the caller, in input order) and ``grouped_inputs`` (the inputs' items
numbered in order and cut into groups, each written by a task). What a partition's ``Diagnostics`` hear travels back
with its results and is replayed into the caller's, in input order; an error refbridge reports
(``RefbridgeError``: a broken line in strict mode, an output that cannot be written) is raised
in the caller as it would have been raised locally.

Spark runs where ``REFBRIDGE_SPARK_MASTER`` says (default ``local[*]``: every CPU of this
machine); under ``spark-submit`` on a cluster, where it says. Its workers run this Python
(``PYSPARK_PYTHON``, unless set), which must have refbridge installed. PySpark is the ``spark``
extra. This module must never read or map a record itself, nor start a process pool or a
scheduler of its own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from itertools import accumulate, groupby, islice
from typing import Any, Generic, TypeVar

from refbridge.errors import Diagnostic, Diagnostics, RefbridgeError
from refbridge.splits import Measured, Measurer, plan
from refbridge.textio import STDIO, display_name, open_input, packed

T = TypeVar("T")
#: What a partition runs on one input: its items, telling ``Diagnostics`` what went wrong.
Work = Callable[[str, Diagnostics], Iterable[T]]
#: What a partition runs on one group of items (numbered in input order): its result.
GroupWork = Callable[[int, list[T], Diagnostics], int]
#: What a partition runs on one input (its number in input order, its path): its result.
InputWork = Callable[[int, str, Diagnostics], T]

#: Where Spark runs when refbridge starts it (not under ``spark-submit``).
MASTER_VARIABLE = "REFBRIDGE_SPARK_MASTER"
DEFAULT_MASTER = "local[*]"
#: How many bytes of a large file a partition reads (Hadoop's block size), unless
#: ``REFBRIDGE_SPARK_SPLIT_BYTES`` says.
SPLIT_VARIABLE = "REFBRIDGE_SPARK_SPLIT_BYTES"
SPLIT_BYTES = 128 << 20
#: Spark's settings for a command line tool: no web UI, no progress bars, errors only.
QUIET = {"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
         "spark.log.level": "ERROR"}


@dataclass(frozen=True, slots=True)
class Heard:
    """What a partition's ``Diagnostics`` heard since the last item it gave."""

    messages: tuple[Diagnostic, ...]
    skipped: int = 0
    read_in_part: int = 0
    changed: int = 0
    keys_changed: int = 0

    def replay(self, diagnostics: Diagnostics) -> None:
        diagnostics.messages.extend(self.messages)
        diagnostics.skipped += self.skipped
        diagnostics.read_in_part += self.read_in_part
        diagnostics.changed += self.changed
        diagnostics.keys_changed += self.keys_changed


@dataclass(frozen=True, slots=True)
class Item(Generic[T]):
    """One result of a partition, with what its diagnostics heard before it."""

    heard: Heard
    value: T | None = None
    failure: RefbridgeError | None = None  #: the error that stopped the input's reading
    last: bool = False  #: an input's closing report, no value
    count: int = 0  #: in the closing report: how many values the input gave


class _Listener:
    """Takes from a partition's ``Diagnostics`` what it heard since the last time."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        self.diagnostics = diagnostics
        self.seen = 0
        self.counts = (0, 0, 0, 0)

    def heard(self) -> Heard:
        d = self.diagnostics
        counts = (d.skipped, d.read_in_part, d.changed, d.keys_changed)
        new = tuple(now - before for now, before in zip(counts, self.counts, strict=True))
        heard = Heard(tuple(d.messages[self.seen:]), *new)
        self.seen, self.counts = len(d.messages), counts
        return heard


def session(master: str | None = None) -> Any:
    """The Spark session of this process (started on first use): the ``spark`` extra."""
    try:
        sql = import_module("pyspark.sql")
    except ImportError:
        raise RefbridgeError("--engine spark needs PySpark: pip install 'refbridge[spark]'"
                             ) from None
    builder = sql.SparkSession.builder.appName("refbridge")
    if "PYSPARK_GATEWAY_PORT" not in os.environ:  # not under spark-submit
        builder = builder.master(master or os.environ.get(MASTER_VARIABLE) or DEFAULT_MASTER)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers' Python
    for key, value in QUIET.items():
        builder = builder.config(key, value)
    #: Spark's own errors at start: Java missing or too old, a master that cannot be reached
    failures = (import_module("pyspark.errors").PySparkException,
                import_module("py4j.protocol").Py4JError, OSError)
    try:
        return builder.getOrCreate()
    except failures as exc:
        raise RefbridgeError(f"Spark could not start: {exc}".splitlines()[0]) from None


def _work_on(work: Work[T], strict: bool, inputs: Iterable[tuple[int, str]]
             ) -> Iterator[Item[T]]:
    """Run ``work`` on each input of a partition (in a Spark worker)."""
    for _number, path in inputs:
        diagnostics = Diagnostics(strict=strict)
        listener = _Listener(diagnostics)
        count = 0
        try:
            for value in work(path, diagnostics):
                count += 1
                yield Item(listener.heard(), value)
        except RefbridgeError as exc:
            yield Item(listener.heard(), failure=exc, last=True, count=count)
            return
        yield Item(listener.heard(), last=True, count=count)


def _received(items: Iterable[Item[T]], diagnostics: Diagnostics) -> Iterator[T]:
    """The values of ``items``, their diagnostics replayed, a failure raised."""
    for item in items:
        item.heard.replay(diagnostics)
        if item.failure is not None:
            raise item.failure
        if item.value is not None:
            yield item.value


def _measurer(context: Any) -> Measurer:
    """Measures a file's pieces in Spark's tasks, a piece a partition."""
    def measured(work: Callable[[tuple[int, int, bool]], Measured],
                 cuts: Sequence[tuple[int, int, bool]]) -> list[Measured]:
        return list(context.parallelize(list(cuts), len(cuts)).map(work).collect())
    return measured


def pieces(inputs: Sequence[str], diagnostics: Diagnostics, context: Any = None) -> list[str]:
    """``inputs`` with each large file cut into its pieces (``SPLIT_BYTES``), in order, measured
    by ``context``'s tasks (None: here); a gzipped file that would be cut is one piece, and a
    warning says so."""
    from refbridge.formats.dumps.pieces import BOUNDARIES

    split_bytes = int(os.environ.get(SPLIT_VARIABLE) or SPLIT_BYTES)
    measurer = _measurer(context) if context is not None else None
    cut: list[str] = []
    for path in inputs:
        form = _form(path)
        if form not in BOUNDARIES or os.path.getsize(path) <= split_bytes:
            cut.append(path)
        elif packed(path):
            diagnostics.warning("a compressed file cannot be cut into pieces: read whole, by "
                                "one partition", display_name(path))
            cut.append(path)
        else:
            cut.extend(plan(path, split_bytes, BOUNDARIES[form], measurer))
    return cut


def _form(path: str) -> str | None:
    """The reader ``path``'s start names, None when it cannot be told or read."""
    from refbridge.registry import detect_reader

    try:
        with open_input(path, Diagnostics()) as (_, head):
            return detect_reader(display_name(path), head).name
    except RefbridgeError:
        return None


def _partitioned(inputs: Sequence[str], master: str | None, diagnostics: Diagnostics,
                 whole: bool = False) -> Any:
    """``inputs`` as an RDD of (number, path or piece), one a partition; ``whole``: no file
    cut (for work that hands its path to another reader than refbridge's, such as DuckDB)."""
    if STDIO in inputs:
        raise RefbridgeError("--engine spark reads files: not standard input (-)")
    context = session(master).sparkContext
    cut = list(inputs) if whole else pieces(inputs, diagnostics, context)
    return context.parallelize(list(enumerate(cut)), max(1, len(cut)))


def map_inputs(inputs: Sequence[str], work: Work[T], diagnostics: Diagnostics,
               master: str | None = None) -> Iterator[T]:
    """``work``'s items of every input, in input order, computed by Spark, the inputs' tasks
    side by side; the items come back together, so they must be few (a selection's works).
    ``work`` is handed whole files, never pieces (a selection's DuckDB reads its file)."""
    rdd = _partitioned(inputs, master, diagnostics, whole=True).mapPartitions(
        partial(_work_on, work, diagnostics.strict))
    yield from _received(rdd.collect(), diagnostics)


def _run_each(work: InputWork[T], strict: bool, inputs: Iterable[tuple[int, str]]
              ) -> Iterator[tuple[T | None, RefbridgeError | None, Heard]]:
    """Run ``work`` on each input of a partition (in a Spark worker)."""
    for number, path in inputs:
        diagnostics = Diagnostics(strict=strict)
        result: T | None = None
        failure: RefbridgeError | None = None
        try:
            result = work(number, path, diagnostics)
        except RefbridgeError as exc:
            failure = exc
        yield result, failure, _Listener(diagnostics).heard()


def each_input(inputs: Sequence[str], work: InputWork[T], diagnostics: Diagnostics,
               master: str | None = None) -> list[T]:
    """``work``'s result on every input, the inputs' tasks run side by side (their results
    must be small: what they make goes to files); the diagnostics are replayed in input order
    up to the first failure, which is raised."""
    done = _partitioned(inputs, master, diagnostics).mapPartitions(
        partial(_run_each, work, diagnostics.strict)).collect()
    results: list[T] = []
    for result, failure, heard in done:
        heard.replay(diagnostics)
        if failure is not None:
            raise failure
        if result is not None:
            results.append(result)
    return results


def _written(work: GroupWork[T], strict: bool, group: int, values: list[T]
             ) -> tuple[int, int | RefbridgeError, Heard]:
    """Run ``work`` on one group (in a Spark worker): the group, its result, what was heard."""
    diagnostics = Diagnostics(strict=strict)
    result: int | RefbridgeError
    try:
        result = work(group, values, diagnostics)
    except RefbridgeError as exc:
        result = exc
    return group, result, _Listener(diagnostics).heard()


#: What ``_write_groups`` gives: (True, a group written, ``_written``'s answer) or
#: (False, a group that straddles partitions, (a value's number, the value)).
Tagged = tuple[bool, int, Any]


def _write_groups(work: GroupWork[T], strict: bool, size: int, count: int,
                  chosen: frozenset[int], starts: Sequence[int], partition: int,
                  items: Iterable[Item[T]]) -> Iterator[Tagged]:
    """Number the values of ``partition`` (its first is number ``starts[partition]``; those
    from ``count`` on are not wanted) and write each chosen group that lies wholly in it; the
    values of a chosen group that straddles partitions are given, to be gathered."""
    first = starts[partition]
    end = min(starts[partition + 1], count)
    values = islice((item.value for item in items if not item.last), max(0, end - first))
    for group, members in groupby(enumerate(values, first), key=lambda pair: pair[0] // size):
        if group not in chosen:
            continue
        if group * size >= first and min((group + 1) * size, count) <= end:
            yield True, group, _written(work, strict, group,
                                        [value for _n, value in members if value is not None])
        else:
            yield from ((False, group, member) for member in members)


def _work_on_group(work: GroupWork[T], strict: bool,
                   groups: Iterable[tuple[int, Iterable[tuple[int, T]]]]
                   ) -> Iterator[tuple[int, int | RefbridgeError, Heard]]:
    """Run ``work`` on each group gathered in a partition (in a Spark worker)."""
    for group, members in groups:
        yield _written(work, strict, group,
                       [value for _number, value in sorted(members, key=lambda m: m[0])])


def grouped_inputs(inputs: Sequence[str], work: Work[T], size: int, done: Callable[[int], bool],
                   write: GroupWork[T], diagnostics: Diagnostics, master: str | None = None
                   ) -> tuple[int, dict[int, int]]:
    """Every item of the inputs (``work``), numbered in input order and cut into groups of
    ``size`` (the last one shorter), each group handed to ``write`` in a partition, unless
    ``done`` says it is done; returns how many items were read and each group's result.

    The items are read once (Spark keeps them, spilling to disk, between the counting and the
    grouping); each partition numbers its items from the counts of the partitions before it
    and writes the groups that lie wholly in it where it stands, and only the items of the
    groups that straddle two partitions are shuffled to be gathered (a group at most between
    two partitions). The diagnostics of the reading are replayed first, then those of the
    groups. A failure in the reading stops the job after the groups complete before it are
    written, as the local engine stops."""
    read = _partitioned(inputs, master, diagnostics).mapPartitions(
        partial(_work_on, work, diagnostics.strict))
    read = read.persist(import_module("pyspark").StorageLevel.MEMORY_AND_DISK)
    try:
        reports = read.filter(lambda item: item.last or item.heard.messages).map(
            lambda item: Item(item.heard, failure=item.failure, last=item.last,
                              count=item.count)).collect()
        #: where each partition's items start in the numbering (a partition an input)
        starts = list(accumulate((report.count for report in reports if report.last),
                                 initial=0))
        count, failure = 0, None
        for report in reports:  # up to the first failure, as the local engine reads
            report.heard.replay(diagnostics)
            count += report.count
            if report.failure is not None:
                failure = report.failure
                count -= count % size  # the records before it, in complete groups
                break
        groups = (count + size - 1) // size
        wanted = frozenset(group for group in range(groups) if not done(group))
        results: dict[int, int] = {}
        if wanted:
            tagged = read.mapPartitionsWithIndex(partial(
                _write_groups, write, diagnostics.strict, size, count, wanted, starts))
            tagged = tagged.persist(import_module("pyspark").StorageLevel.MEMORY_AND_DISK)
            try:
                written = tagged.filter(lambda tag: tag[0]).map(lambda tag: tag[2]).collect()
                written += tagged.filter(lambda tag: not tag[0]).map(
                    lambda tag: (tag[1], tag[2])).groupByKey(max(1, len(starts) - 1)
                                                             ).mapPartitions(
                    partial(_work_on_group, write, diagnostics.strict)).collect()
            finally:
                tagged.unpersist()
            for group, result, heard in sorted(written, key=lambda w: w[0]):
                heard.replay(diagnostics)
                if isinstance(result, RefbridgeError):
                    raise result
                results[group] = result
        if failure is not None:
            raise failure
        return count, results
    finally:
        read.unpersist()
