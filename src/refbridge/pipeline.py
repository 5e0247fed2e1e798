"""The conversion pipeline: inputs through their readers, citation keys, one writer, one output.

This is the library entry point the command line calls (``read_records``, ``write_records``,
``convert``). It knows no format: readers and writers come from the registry. Outputs are
written atomically: a run that fails leaves no output file behind and an existing one untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from refbridge.citekeys import DEFAULT_PATTERN, assign_keys
from refbridge.errors import Diagnostics
from refbridge.model import Record
from refbridge.registry import WriteOptions, detect_reader, get_reader, get_writer
from refbridge.textio import atomic_output, display_name, open_input


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How inputs are read."""

    from_format: str | None = None  #: reader name; None: detect from name and content
    encoding: str | None = None  #: None: detect (BOM, UTF-8, else cp1252 with a warning)


@dataclass(slots=True)
class RunReport:
    """What a run read and wrote, and what it had to say about the input."""

    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    records_read: int = 0
    records_written: int = 0


def read_file(path: str, diagnostics: Diagnostics, options: ReadOptions = ReadOptions()
              ) -> Iterator[Record]:
    """The records of one input file (``-``: standard input)."""
    with open_input(path, diagnostics, options.encoding) as (stream, head):
        source = display_name(path)
        reader = (get_reader(options.from_format) if options.from_format
                  else detect_reader(source, head))
        yield from reader.read(stream, source, diagnostics)


def read_records(paths: Sequence[str], diagnostics: Diagnostics,
                 options: ReadOptions = ReadOptions()) -> Iterator[Record]:
    """The records of every input, in order."""
    for path in paths:
        yield from read_file(path, diagnostics, options)


def with_keys(records: Iterable[Record], options: WriteOptions) -> list[Record]:
    """``records`` with unique citation keys (kept from the input unless regenerating)."""
    return assign_keys(list(records), options.key_pattern or DEFAULT_PATTERN,
                       options.regenerate_keys)


def write_records(records: Iterable[Record], output: str, to_format: str,
                  options: WriteOptions = WriteOptions(), inputs: Sequence[str] = ()) -> int:
    """Write ``records`` to ``output`` (``-``: standard output) atomically; returns the count."""
    writer = get_writer(to_format)
    keyed = with_keys(records, options)
    with atomic_output(output, inputs) as out:
        writer.write(keyed, out, options)
    return len(keyed)


def convert(inputs: Sequence[str], output: str, to_format: str,
            read_options: ReadOptions = ReadOptions(),
            write_options: WriteOptions = WriteOptions(), strict: bool = False) -> RunReport:
    """Read every input and write one output in ``to_format``."""
    get_writer(to_format)  # an unknown output format fails before any input is read
    report = RunReport(Diagnostics(strict=strict))
    records = list(read_records(inputs, report.diagnostics, read_options))
    report.records_read = len(records)
    report.records_written = write_records(records, output, to_format, write_options, inputs)
    return report
