"""Converting a large input (a whole dump) into a folder of output files, ``SHARD_SIZE``
records each, instead of one file.

Shard N holds records N*size .. (N+1)*size-1 of the inputs in their order and is named
``part-000000.EXT`` (the writer's file ending). Each shard is written atomically
(``textio.atomic_output``): it appears complete or not at all, so a job that is interrupted
leaves complete shards only, and a rerun with the same inputs and size skips the shards already
present (their records are read, not written again) and writes the rest. Citation keys are
unique within a shard. This module must never hold more than one shard's records (and the
pipeline holds no more than its key spool).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice

from refbridge.errors import Diagnostics, OutputError
from refbridge.model import Record
from refbridge.pipeline import read_records, write_records
from refbridge.registry import WriteOptions, get_writer
from refbridge.runs import ReadOptions, RunReport

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
                    write_options: WriteOptions = WriteOptions(), strict: bool = False
                    ) -> ShardedReport:
    """Read every input and write its records into shards of ``size`` in ``directory``
    (made if missing), skipping the shards already there."""
    if size < 1:
        raise ValueError("a shard holds at least one record")
    extension = get_writer(to_format).extension
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{directory}: cannot make the folder: {exc.strerror}") from None
    report = ShardedReport(Diagnostics(strict=strict))
    records = read_records(inputs, report.diagnostics, read_options)
    for number, shard in enumerate(shards(records, size)):
        path = os.path.join(directory, SHARD_NAME.format(number=number, extension=extension))
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
