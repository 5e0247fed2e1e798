"""The conversions that need every record at once: every input read into one list, the records
of one work merged (``merge``), the list enriched (``enrich``), then written and its keys filed
(``write_keyed``, which ``pull`` and ``fetch`` end with too). ``convert --merge``, ``convert
--enrich`` and ``enrich`` run it; a plain conversion streams through
``refbridge.pipeline.convert`` instead. This module must never print nor parse options: it
says what it merged through ``say``, and returns the run's diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from refbridge.errors import Diagnostics
from refbridge.merge import deduplicate
from refbridge.model import Record
from refbridge.pipeline import read_records, write_records
from refbridge.registry import WriteOptions, get_writer
from refbridge.runs import ReadOptions
from refbridge.textio import refuse_overwriting_inputs


def gather_and_write(inputs: Sequence[str], output: str, to_format: str,
                     read_options: ReadOptions, write_options: WriteOptions, strict: bool,
                     enrich: Callable[[list[Record]], list[Record]] | None,
                     say: Callable[[str], None], merge: bool = False,
                     journals: bool | None = None) -> Diagnostics:
    """Read every input, merge the records of one work (``merge``), enrich them (``enrich``),
    abbreviate (True) or write out (False) their journals, write them; the key lock of
    ``write_options`` is saved."""
    get_writer(to_format)  # an unknown output format fails before any service is asked
    refuse_overwriting_inputs(output, inputs)
    diagnostics = Diagnostics(strict=strict)
    records = list(read_records(inputs, diagnostics, read_options))
    if merge:
        merged = deduplicate(records)
        records = merged.records
        for line in merged.describe():
            say(f"refbridge: {line}")
    if enrich is not None:
        records = enrich(records)
    if journals is not None:
        from refbridge.abbreviations import journal_records

        records = journal_records(records, journals, diagnostics)
    write_keyed(records, output, to_format, write_options, inputs, diagnostics)
    return diagnostics


def write_keyed(records: Iterable[Record], output: str, to_format: str,
                write_options: WriteOptions, inputs: Sequence[str] = (),
                diagnostics: Diagnostics | None = None) -> int:
    """Write ``records`` to ``output`` atomically (``pipeline.write_records``), then save the
    key lock of ``write_options`` with the keys they were given; the count written. Every
    command that writes records it gathered (``pull``, ``fetch``, this module's) ends so."""
    written = write_records(records, output, to_format, write_options, inputs, diagnostics)
    if write_options.key_lock is not None:
        write_options.key_lock.save()
    return written
