"""Converting a large input (a whole dump) into a folder of output files, ``SHARD_SIZE``
records each, instead of one file.

Shard N holds records N*size .. (N+1)*size-1 of the inputs in their order and is named
``part-000000.EXT`` (the writer's file ending). Each shard is written atomically
(``textio.atomic_output``): it appears complete or not at all, so a job that is interrupted
leaves complete shards only, and a rerun with the same inputs and size skips the shards already
present (their records are read, not written again) and writes the rest. Citation keys are
unique within a shard. With ``engine="spark"`` Spark reads the inputs (one a partition, with
the same readers), numbers the records in input order and writes each shard in a partition of
its own with the same writer: the same shards, byte for byte. This module must never hold more
than one shard's records (and the pipeline holds no more than its key spool).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice

from refbridge.errors import Diagnostics, OutputError
from refbridge.model import Record
from refbridge.pipeline import read_file, read_records, write_records
from refbridge.registry import WriteOptions, get_writer
from refbridge.runs import ReadOptions, RunReport
from refbridge.vocab import ENGINES

#: How a shard is named: its number, then the writer's file ending.
SHARD_NAME = "part-{number:06d}{extension}"


@dataclass(slots=True)
class ShardedReport(RunReport):
    """A run's report, and how many shards it wrote and found already written."""

    shards_written: int = 0
    shards_present: int = 0


def shards(records: Iterable[Record], size: int) -> Iterator[Iterator[Record]]:
    """``records`` cut into runs of ``size`` (the last one shorter); each run must be used up
    before the next is taken."""
    pending = iter(records)
    for first in pending:
        yield chain((first,), islice(pending, size - 1))


def convert_sharded(inputs: Sequence[str], directory: str, to_format: str, size: int,
                    read_options: ReadOptions = ReadOptions(),
                    write_options: WriteOptions = WriteOptions(), strict: bool = False,
                    engine: str = "duckdb") -> ShardedReport:
    """Read every input and write its records into shards of ``size`` in ``directory``
    (made if missing), skipping the shards already there; on ``engine`` (``ENGINES``)."""
    if size < 1:
        raise ValueError("a shard holds at least one record")
    if engine not in ENGINES:
        raise ValueError(f"not an engine: {engine} (one of {', '.join(ENGINES)})")
    extension = get_writer(to_format).extension
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{directory}: cannot make the folder: {exc.strerror}") from None
    report = ShardedReport(Diagnostics(strict=strict))
    if engine == "spark":
        return _on_spark(inputs, directory, to_format, extension, size, read_options,
                         write_options, report)
    records = read_records(inputs, report.diagnostics, read_options)
    for number, shard in enumerate(shards(records, size)):
        path = _shard_path(directory, number, extension)
        if os.path.exists(path):
            report.records_read += sum(1 for _ in shard)
            report.shards_present += 1
            continue
        written = write_records(shard, path, to_format, write_options, inputs,
                                report.diagnostics)
        report.records_read += written
        report.records_written += written
        report.shards_written += 1
    return report


def _shard_path(directory: str, number: int, extension: str) -> str:
    return os.path.join(directory, SHARD_NAME.format(number=number, extension=extension))


def _present(directory: str, extension: str, number: int) -> bool:
    return os.path.exists(_shard_path(directory, number, extension))


def _read(options: ReadOptions, path: str, diagnostics: Diagnostics) -> Iterator[Record]:
    return read_file(path, diagnostics, options)


def _write(directory: str, extension: str, to_format: str, options: WriteOptions,
           inputs: Sequence[str], number: int, records: list[Record], diagnostics: Diagnostics
           ) -> int:
    return write_records(records, _shard_path(directory, number, extension), to_format,
                         options, inputs, diagnostics)


def _on_spark(inputs: Sequence[str], directory: str, to_format: str, extension: str, size: int,
              read_options: ReadOptions, write_options: WriteOptions, report: ShardedReport
              ) -> ShardedReport:
    from refbridge.spark import grouped_inputs

    directory = os.path.abspath(directory)  # the tasks' working folder may be another
    read, written = grouped_inputs(
        inputs, partial(_read, read_options), size, partial(_present, directory, extension),
        partial(_write, directory, extension, to_format, write_options, list(inputs)),
        report.diagnostics)
    report.records_read = read
    report.records_written = sum(written.values())
    report.shards_written = len(written)
    report.shards_present = (read + size - 1) // size - len(written)
    return report
