"""The conversion pipeline: inputs through their readers, citation keys, one writer, one output.

This is the library entry point the command line calls (``read_records``, ``write_records``,
``convert``). It knows no format: readers and writers come from the registry. Outputs are
written atomically: a run that fails leaves no output file behind and an existing one untouched.

Records stream from the readers through citation-key assignment into the writer, so memory does
not grow with the input: records that keep the key they were read with (a .bib's) pass straight
through; from the first record that needs a generated key on, records wait in a temporary file
(on disk past a few megabytes) until the whole input has been seen and every key is decided.
``convert`` must never hold all the records of a run in memory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TextIO, cast

from refbridge import runs
from refbridge.citekeys import DEFAULT_PATTERN, KeyBook
from refbridge.errors import Diagnostics, ParseError
from refbridge.model import Record
from refbridge.registry import (
    FramedWriter,
    UnknownFormat,
    WriteOptions,
    Writer,
    detect_reader,
    get_reader,
    get_writer,
    source_reader,
)
from refbridge.runs import ReadOptions, RunReport
from refbridge.textio import atomic_output, display_name, open_input

#: Given the reader's name, the input's name and its text stream, the stream the reader reads
#: instead (``check`` reads a .bib's text as written too, through a stream of its own).
StreamTap = Callable[[str, str, TextIO], TextIO]


def read_file(path: str, diagnostics: Diagnostics, options: ReadOptions = ReadOptions(),
              tap: StreamTap | None = None) -> Iterator[Record]:
    """The records of one input file (``-``: standard input), or of the library an address such
    as ``zotero-desktop:`` names (a source the registry knows: ``registry.source_reader``)."""
    source = source_reader(path)
    if source is not None:
        yield from source(path, diagnostics)
        return
    with open_input(path, diagnostics, options.encoding) as (stream, head):
        yield from read_stream(stream, head, display_name(path), diagnostics,
                               options.from_format, tap)


def read_stream(stream: TextIO, head: str, source: str, diagnostics: Diagnostics,
                from_format: str | None = None, tap: StreamTap | None = None
                ) -> Iterator[Record]:
    """The records of text ``stream`` (which starts with ``head``) named ``source`` in
    messages, read as ``from_format`` (None: detected from ``source`` and ``head``; ``tap``:
    see ``read_file``)."""
    reader = detect_reader(source, head) if from_format is None else get_reader(from_format)
    if tap is not None:
        stream = tap(reader.name, source, stream)
    if from_format is None:
        yield from reader.read(stream, source, diagnostics)
        return
    found = 0
    for record in reader.read(stream, source, diagnostics):
        found += 1
        yield record
    if not found and head.strip():
        _not_that_format(source, head, from_format)


def _not_that_format(source: str, head: str, named: str) -> None:
    """Fail for text in which the reader ``--from`` names found no record, unless the text is
    what that format holds when it holds no record (a .bib of comments)."""
    try:
        looks_like: str | None = detect_reader(source, head).name
    except UnknownFormat:
        looks_like = None
    if looks_like == get_reader(named).name:
        return
    hint = f"it looks like {looks_like}" if looks_like else "its format is not known"
    raise ParseError(f"read as {named} (--from {named}), but no {named} record was found; "
                     f"{hint}", source)


def read_records(paths: Sequence[str], diagnostics: Diagnostics,
                 options: ReadOptions = ReadOptions(), tap: StreamTap | None = None
                 ) -> Iterator[Record]:
    """The records of every input, in order (``tap``: see ``read_file``); one path given as a
    string is one input, never its characters."""
    for path in (paths,) if isinstance(paths, str) else paths:
        yield from read_file(path, diagnostics, options, tap)


#: How many records wait for their keys in memory before they go to a temporary file ...
HELD_IN_MEMORY = 2000
#: ... and how many bytes of it stay in memory before the temporary file goes to disk.
SPOOL_MEMORY = 8 << 20


def keyed(records: Iterable[Record], options: WriteOptions, writer: Writer | None = None,
          diagnostics: Diagnostics | None = None) -> Iterator[Record]:
    """``records`` with unique citation keys (kept from the input unless regenerating), in order.

    Records that keep their key are yielded at once; the rest of the input after the first
    record that needs a key waits (in memory, in a temporary file beyond ``HELD_IN_MEMORY``
    records) until every key is known. A key ``writer`` cannot hold (its ``key_unsafe``) is
    made one it can, unique, and reported to ``diagnostics`` (``old -> new``).
    """
    book = KeyBook(options.key_pattern or DEFAULT_PATTERN, options.regenerate_keys,
                   options.key_lock, getattr(writer, "key_unsafe", None))
    report = _key_reporter(writer, book, diagnostics)
    stream = iter(records)
    for record in stream:
        if book.note(record):
            yield record
            continue
        held = [(False, record)]
        for later in stream:
            held.append((book.note(later), later))
            if len(held) == HELD_IN_MEMORY:
                break
        else:
            yield from _keyed_when_known(held, book, report)
            return
        import pickle  # here: most runs never spool, and start-up time counts
        import tempfile

        with tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY) as spool:
            for pair in held:
                pickle.dump(pair, spool, pickle.HIGHEST_PROTOCOL)
            waiting = len(held)
            held.clear()
            for later in stream:
                pickle.dump((book.note(later), later), spool, pickle.HIGHEST_PROTOCOL)
                waiting += 1
            spool.seek(0)
            yield from _keyed_when_known((pickle.load(spool) for _ in range(waiting)), book,
                                         report)
        return


KeyReport = Callable[[Record, str], None]


def _key_reporter(writer: Writer | None, book: KeyBook, diagnostics: Diagnostics | None
                  ) -> KeyReport:
    """What reports a record's key that ``book`` made one ``writer`` can hold."""
    repeats = not getattr(writer, "keeps_repeated_keys", False)

    def report(record: Record, key: str) -> None:
        if diagnostics is None or not record.citation_key:
            return
        where = record.source
        file, line = (where.file, where.line) if where else (None, None)
        if book.made_safe(record):
            diagnostics.key_changed(record.citation_key, key, getattr(writer, "name", "output"),
                                    file, line)
        elif repeats and book.renamed(record, key):
            diagnostics.key_changed(record.citation_key, key, getattr(writer, "name", "output"),
                                    file, line, why="an earlier record has it")
    return report


def _keyed_when_known(noted: Iterable[tuple[bool, Record]], book: KeyBook, report: KeyReport
                      ) -> Iterator[Record]:
    """The records of ``noted`` (whether each keeps its key, and the record) with their keys,
    once ``book`` has noted every record of the input; ``report`` hears of each key made."""
    generated = iter(book.generated_keys())
    for keeps, held in noted:
        if keeps:
            yield held
            continue
        key = next(generated)
        report(held, key)
        yield held.replace(citation_key=key)


def with_keys(records: Iterable[Record], options: WriteOptions) -> list[Record]:
    """``records`` with unique citation keys, as a list (for callers that need them all)."""
    return list(keyed(records, options))


def record_texts(records: Sequence[Record], to_format: str,
                 options: WriteOptions = WriteOptions(), diagnostics: Diagnostics | None = None
                 ) -> list[str]:
    """Each record's own text (a ``.bib`` entry, a RIS reference) as the writer of
    ``to_format`` writes it, citation keys given as ``write_records`` gives them (a key
    changed is reported to ``diagnostics``); the writer must be one that writes each record
    on its own (``registry.FramedWriter``)."""
    writer = get_writer(to_format)
    if not hasattr(writer, "record_text"):
        raise UnknownFormat(f"the {to_format} writer does not write records one by one")
    framed = cast(FramedWriter, writer)
    return [framed.record_text(record, options)
            for record in keyed(records, options, writer, diagnostics)]


def write_records(records: Iterable[Record], output: str, to_format: str,
                  options: WriteOptions = WriteOptions(), inputs: Sequence[str] = (),
                  diagnostics: Diagnostics | None = None) -> int:
    """Write ``records`` to ``output`` (``-``: standard output) atomically; returns the count.

    The writer consumes the records as they come, so ``records`` may be a lazy stream. Each
    citation key the format cannot hold is changed and reported to ``diagnostics``.
    """
    writer = get_writer(to_format)
    with atomic_output(output, inputs) as out:
        return write_stream(records, out, writer, options, diagnostics)


def write_stream(records: Iterable[Record], out: TextIO, writer: Writer,
                 options: WriteOptions = WriteOptions(), diagnostics: Diagnostics | None = None
                 ) -> int:
    """Write ``records``, with unique citation keys the format can hold (a key changed is
    reported to ``diagnostics``), to the text stream ``out`` with ``writer``; returns the
    count. ``diagnostics`` (else the options') also hears of each value the writer changes."""
    if diagnostics is None:
        diagnostics = options.diagnostics
    elif options.diagnostics is None:
        options = replace(options, diagnostics=diagnostics)
    written = 0

    def counted() -> Iterator[Record]:
        nonlocal written
        for record in keyed(records, options, writer, diagnostics):
            written += 1
            yield record

    writer.write(counted(), out, options)
    return written


def _large_file(path: str) -> bool:
    """Whether ``path`` is a file large enough to be worth converting on several CPUs."""
    return os.path.isfile(path) and os.path.getsize(path) >= runs.PARALLEL_FROM_BYTES


def convert(inputs: Sequence[str], output: str, to_format: str,
            read_options: ReadOptions = ReadOptions(),
            write_options: WriteOptions = WriteOptions(), strict: bool = False,
            jobs: int = 1) -> RunReport:
    """Read every input and write one output in ``to_format``, streaming record by record;
    one large input is converted on up to ``jobs`` processes (0: one per CPU) when its format
    allows (see ``refbridge.parallel``), with the same output."""
    get_writer(to_format)  # an unknown output format fails before any input is read
    if jobs != 1 and len(inputs) == 1 and write_options.key_lock is None \
            and _large_file(inputs[0]):
        from refbridge.parallel import available_cpus, convert_in_parallel

        parallel = convert_in_parallel(inputs[0], output, to_format, read_options,
                                       write_options, strict, jobs or available_cpus())
        if parallel is not None:
            return parallel
    report = RunReport(Diagnostics(strict=strict))
    records = read_records(inputs, report.diagnostics, read_options)
    report.records_written = write_records(records, output, to_format, write_options, inputs,
                                           report.diagnostics)
    report.records_read = report.records_written  # every record read is written
    return report
