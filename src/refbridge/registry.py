"""The registry of readers and writers, found by name through entry points.

A format is one module that exposes a ``READER`` and/or ``WRITER`` object and is listed under the
``refbridge.readers`` / ``refbridge.writers`` entry-point groups (refbridge's own formats are
listed in its ``pyproject.toml``, third-party packages add theirs the same way). What listing,
detection and the choice of a writer by file ending need of refbridge's own formats comes from
``refbridge.formats.catalogue``, so a command imports only the reader and writer it uses; a
format of another package is loaded to be asked. An input that names a library rather than a
file (a Zotero address) is a source the catalogue knows, read by the function it names, so the
pipeline imports no job to read one. This module must never contain format-specific knowledge.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Protocol, TextIO, cast

from refbridge.entrypoints import EntryPoint, entry_points
from refbridge.errors import Diagnostics, ExitStatus, RefbridgeError
from refbridge.model import Record

if TYPE_CHECKING:
    from refbridge.keylock import KeyLock

READERS_GROUP = "refbridge.readers"
WRITERS_GROUP = "refbridge.writers"


class UnknownFormat(RefbridgeError):
    """A format name no installed module provides, or input whose format cannot be told."""


class UnknownFormatName(UnknownFormat):
    """A format name (``--to``, ``--from``) no installed module provides: a usage error."""

    exit_status = ExitStatus.USAGE


@dataclass(frozen=True, slots=True)
class WriteOptions:
    """Options a user can give any writer; each writer uses those that apply to its format."""

    unicode: bool = False  #: LaTeX formats: write UTF-8 instead of LaTeX commands
    key_pattern: str | None = None  #: citation-key pattern (see ``refbridge.citekeys``)
    regenerate_keys: bool = False  #: replace keys read from the input by generated ones
    include_fields: frozenset[str] | None = None  #: write only these fields (None: all)
    exclude_fields: frozenset[str] = field(default_factory=frozenset)  #: never write these
    indent: str = "  "  #: indentation of nested lines (BibTeX fields, JSON)
    field_order: tuple[str, ...] = ()  #: .bib: these fields first, in this order
    collection: str | None = None  #: name of the collection that holds the records (Zotero)
    normalize: bool = False  #: write values and layout the writer's own way, not the source's
    #: the keys given to works before (see ``refbridge.keylock``); filled with the keys made
    key_lock: KeyLock | None = field(default=None, compare=False, repr=False)
    #: where a writer reports a value it had to change to write it (None: not reported)
    diagnostics: Diagnostics | None = field(default=None, compare=False, repr=False)


class Reader(Protocol):
    """Reads one format into records."""

    name: str
    description: str
    extensions: tuple[str, ...]  #: file name endings, with the dot (".bib")

    def sniff(self, head: str) -> bool:
        """Whether text that starts with ``head`` looks like this format."""
        ...

    # A reader may also set ``sniff_first = True``: its ``sniff`` recognises a signature
    # (an XML root element, a header row) that broader readers could mistake, so it is asked
    # before readers without one.

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        """The records of ``stream``; problems go to ``diagnostics`` with ``source`` and line."""
        ...


class Writer(Protocol):
    """Writes records in one format."""

    name: str
    description: str
    extension: str  #: the usual file name ending, with the dot

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        """Write ``records`` to ``out``."""
        ...

    # A writer may also set ``key_unsafe``, a pattern of the characters its format's citation
    # keys cannot hold (``citekeys.LINE_KEY_UNSAFE``: a line-based value); the pipeline writes
    # such a key with each of them replaced by ``-``, unique, and reports it. A writer that
    # sets ``keeps_repeated_keys`` writes a key the input repeated as it was read (a .bib:
    # bibtex and biber warn of it, and the file stays as it was); for the others the pipeline
    # gives the later record a new key and reports it.


@dataclass(frozen=True, slots=True)
class Framing:
    """How the output of a writer that writes each record on its own is laid out: ``head``,
    the records' texts with ``separator`` between them, ``tail``; ``empty`` without records."""

    head: str = ""
    separator: str = "\n"
    tail: str = ""
    empty: str = ""


def write_framed(texts: Iterable[str], out: TextIO, framing: Framing) -> None:
    """Write ``texts`` (one per record, or several records' texts already joined by the
    separator) to ``out``, laid out by ``framing``."""
    before, wrote = framing.head, False
    for text in texts:
        out.write(before + text)
        before, wrote = framing.separator, True
    out.write(framing.tail if wrote else framing.empty)


class FramedWriter(Writer, Protocol):
    """A writer whose output is each record's text on its own, laid out by ``framing``: the
    records of one input can then be written in parallel, a part of the input each."""

    framing: Framing

    def record_text(self, record: Record, options: WriteOptions) -> str:
        """The text of one record."""
        ...


@dataclass(frozen=True, slots=True)
class Shard:
    """A byte range of an input file that a reader can read on its own: the text from
    ``start`` to ``end``, starting at line ``first_line``, with ``context`` (what the file
    defined before ``start``, such as a .bib's ``@string`` macros). ``last``: the range runs
    to the end of the file."""

    path: str
    encoding: str
    start: int
    end: int
    first_line: int
    last: bool
    context: tuple[tuple[str, str], ...] = ()


class ShardIncomplete(RefbridgeError):
    """A shard's records depend on text outside it (found only while reading it): the input
    has to be read whole."""


class ShardedReader(Reader, Protocol):
    """A reader that can cut a file into shards that read, one by one, to exactly the records
    (and diagnostics) of reading the whole file."""

    def shards(self, path: str, encoding: str, size: int) -> list[Shard] | None:
        """``path`` cut into shards of about ``size`` bytes, or None when it cannot be cut
        (the whole file is then read at once)."""
        ...

    def read_shard(self, shard: Shard, source: str, diagnostics: Diagnostics
                   ) -> Iterator[Record]:
        """The records of ``shard``; raises ``ShardIncomplete`` when they depend on text
        outside it."""
        ...

    def prepare(self) -> None:
        """Load, in a new worker process, what reading the first shard would (so that the
        work is done while the input is being cut)."""
        ...


@cache
def _group(group: str) -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=group)}


def _entry(group: str, name: str, kind: str) -> EntryPoint:
    found = _group(group).get(name)
    if found is None:
        known = ", ".join(sorted(_group(group))) or "none installed"
        raise UnknownFormatName(f"no {kind} for format {name!r} (known: {known})")
    return found


def _target(entry: EntryPoint) -> str:
    """An entry point's ``module:attribute``, without spaces or extras."""
    return "".join(entry.value.split("[")[0].split())


@dataclass(frozen=True, slots=True)
class ReaderInfo:
    """What detection and listings need of a reader, known without loading it when the
    format is one of refbridge's own (``refbridge.formats.catalogue``)."""

    name: str  #: the entry point's name (``--from``)
    target: str  #: the entry point's ``module:attribute``: two names, one reader
    description: str
    extensions: tuple[str, ...]
    sniff: Callable[[str], bool]
    sniff_first: bool
    generic: bool
    by_name_alone: bool


@dataclass(frozen=True, slots=True)
class WriterInfo:
    """What listings and the choice of a writer by file ending need of a writer."""

    name: str
    description: str
    extension: str


@cache
def reader_info(name: str) -> ReaderInfo:
    """The reader ``name`` as the catalogue knows it, or as it says itself once loaded (a
    format of another package, or a name another package took over)."""
    from refbridge.formats import catalogue

    entry = _entry(READERS_GROUP, name, "reader")
    known = catalogue.READERS.get(name)
    if known is not None and known.target == _target(entry):
        return ReaderInfo(name, known.target, known.description, known.extensions, known.sniff,
                          known.sniff_first, known.generic, known.by_name_alone)
    reader = get_reader(name)
    return ReaderInfo(name, _target(entry), reader.description, tuple(reader.extensions),
                      reader.sniff, bool(getattr(reader, "sniff_first", False)),
                      bool(getattr(reader, "generic", False)),
                      bool(getattr(reader, "by_name_alone", True)))


@cache
def writer_info(name: str) -> WriterInfo:
    """The writer ``name`` as the catalogue knows it, or as it says itself once loaded."""
    from refbridge.formats import catalogue

    entry = _entry(WRITERS_GROUP, name, "writer")
    known = catalogue.WRITERS.get(name)
    if known is not None and known.target == _target(entry):
        return WriterInfo(name, known.description, known.extension)
    writer = get_writer(name)
    return WriterInfo(name, writer.description, writer.extension)


def reader_names() -> list[str]:
    return sorted(_group(READERS_GROUP))


def writer_names() -> list[str]:
    return sorted(_group(WRITERS_GROUP))


def get_reader(name: str) -> Reader:
    reader: Reader = _entry(READERS_GROUP, name, "reader").load()  # type: ignore[assignment]
    return reader


def get_writer(name: str) -> Writer:
    writer: Writer = _entry(WRITERS_GROUP, name, "writer").load()  # type: ignore[assignment]
    return writer


def writer_for_file(path: str) -> str | None:
    """The writer whose usual file ending ``path`` has (the first by name when several share
    it), or None."""
    ending = os.path.splitext(path)[1].lower()
    return next((name for name in writer_names() if writer_info(name).extension == ending),
                None)


#: Reads the records of an input that names a library (the input, the run's diagnostics).
SourceReader = Callable[[str, Diagnostics], Iterator[Record]]


def source_reader(name: str) -> SourceReader | None:
    """The function that reads the input ``name`` when it names a library rather than a file
    (``zotero-desktop:``; ``formats.catalogue.SOURCES``), imported now; None for a file."""
    from refbridge.formats import catalogue

    kind, colon, _ = name.partition(":")
    target = catalogue.SOURCES.get(kind) if colon else None
    if target is None:
        return None
    return cast(SourceReader, EntryPoint(kind, target, "refbridge.sources").load())


def detect_reader(source: str, head: str) -> Reader:
    """The reader for a file named ``source`` whose text starts with ``head``; only that
    reader's module is imported.

    Readers that claim the file's extension are asked first, then every reader; the first whose
    ``sniff`` accepts the text wins, so a ``.txt`` profile page and a ``.json`` that is not
    CSL-JSON are both told apart by content, and a ``.xml`` by its root element. Within each
    group, readers with a signature of their own (``sniff_first``) are asked first, and a reader
    that says it is ``generic`` (its sniff accepts broad content: CSL-JSON takes any JSON with
    ``id`` and ``type``) last, so an OpenAlex or ORCID answer is never taken for CSL-JSON.
    Text that says nothing (blank, or only what no reader recognises, such as a .bib holding
    comments) is read by the one reader its name names: an empty ``refs.bib`` is an empty
    BibTeX library, not an empty JSON document; unless that reader reads only what it
    recognises (``by_name_alone`` false: a ``.txt`` may hold anything).
    """
    readers = sorted((reader_info(name) for name in reader_names()),
                     key=lambda reader: (not reader.sniff_first, reader.generic))
    lowered = source.lower()
    by_extension = [r for r in readers if any(lowered.endswith(e) for e in r.extensions)]
    named = by_extension[0] if len({r.target for r in by_extension}) == 1 else None
    if named is not None and not head.strip():
        return get_reader(named.name)
    for reader in by_extension + [r for r in readers if r not in by_extension]:
        if reader.sniff(head):
            return get_reader(reader.name)
    if named is not None and named.by_name_alone:
        return get_reader(named.name)
    raise UnknownFormat(
        f"{source}: cannot tell the input format from its name or content; "
        f"name it with --from ({', '.join(reader_names())})"
    )
