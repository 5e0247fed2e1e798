"""The registry of readers and writers, found by name through entry points.

A format is one module that exposes a ``READER`` and/or ``WRITER`` object and is listed under the
``refbridge.readers`` / ``refbridge.writers`` entry-point groups (refbridge's own formats are
listed in its ``pyproject.toml``, third-party packages add theirs the same way). Modules are
imported only when used, so the command line starts fast. This module must never contain
format-specific knowledge.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol, TextIO

from refbridge.entrypoints import EntryPoint, entry_points
from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record

READERS_GROUP = "refbridge.readers"
WRITERS_GROUP = "refbridge.writers"


class UnknownFormat(RefbridgeError):
    """A format name no installed module provides, or input whose format cannot be told."""


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


class Reader(Protocol):
    """Reads one format into records."""

    name: str
    description: str
    extensions: tuple[str, ...]  #: file name endings, with the dot (".bib")

    def sniff(self, head: str) -> bool:
        """Whether text that starts with ``head`` looks like this format."""
        ...

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


@cache
def _group(group: str) -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=group)}


def _load(group: str, name: str, kind: str) -> object:
    found = _group(group).get(name)
    if found is None:
        known = ", ".join(sorted(_group(group))) or "none installed"
        raise UnknownFormat(f"no {kind} for format {name!r} (known: {known})")
    return found.load()


def reader_names() -> list[str]:
    return sorted(_group(READERS_GROUP))


def writer_names() -> list[str]:
    return sorted(_group(WRITERS_GROUP))


def get_reader(name: str) -> Reader:
    reader: Reader = _load(READERS_GROUP, name, "reader")  # type: ignore[assignment]
    return reader


def get_writer(name: str) -> Writer:
    writer: Writer = _load(WRITERS_GROUP, name, "writer")  # type: ignore[assignment]
    return writer


def writer_for_file(path: str) -> str | None:
    """The writer whose usual file ending ``path`` has (the first by name when several share
    it), or None."""
    ending = os.path.splitext(path)[1].lower()
    return next((name for name in writer_names() if get_writer(name).extension == ending), None)


def detect_reader(source: str, head: str) -> Reader:
    """The reader for a file named ``source`` whose text starts with ``head``.

    Readers that claim the file's extension are asked first, then every reader; the first whose
    ``sniff`` accepts the text wins, so a ``.txt`` profile page and a ``.json`` that is not
    CSL-JSON are both told apart by content.
    """
    readers = [get_reader(name) for name in reader_names()]
    lowered = source.lower()
    by_extension = [r for r in readers if any(lowered.endswith(e) for e in r.extensions)]
    for reader in by_extension + [r for r in readers if r not in by_extension]:
        if reader.sniff(head):
            return reader
    raise UnknownFormat(
        f"{source}: cannot tell the input format from its name or content; "
        f"name it with --from ({', '.join(reader_names())})"
    )
