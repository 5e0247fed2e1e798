"""The records ``refbridge serve`` answers from: read through the pipeline's readers (any
format refbridge reads, and library addresses such as ``zotero-sqlite:``), each with a unique
citation key as ``convert`` gives it, found by key and searched by words.

Files named on the command line are read at start, and again when they change (a Zotero
database's address: when its file changes); the app adds records read from text it
was given (an upload, a paste), never from a path it was given. This module must never write
a library, nor read a file the user did not name on the command line.
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from refbridge.errors import Diagnostics, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_records, read_stream, with_keys, write_stream
from refbridge.registry import WriteOptions, get_writer
from refbridge.richtext import plain
from refbridge.sameness.text import fold
from refbridge.textio import HEAD_BYTES

#: The library name answers carry (Better BibTeX's ``library`` of a search result).
LIBRARY_NAME = "My Library"
#: The name roles whose family names a record is searched by.
_SEARCHED_ROLES = ("author", "editor")


@dataclass(frozen=True, slots=True)
class Entry:
    """One record served: its citation key, the record (with that key), the name of the input
    it came from, and its words (key, names, title, container, year), folded."""

    key: str
    record: Record
    origin: str
    words: str


def _entry(record: Record, origin: str) -> Entry:
    key = record.citation_key or record.id
    return Entry(key, record, origin or (record.source.file if record.source else ""),
                 _words(key, record))


def year_of(record: Record) -> str:
    """The year the record was issued, or ''."""
    issued = record.dates.get("issued")
    return str(issued.start.year) if issued is not None and issued.start is not None else ""


def _words(key: str, record: Record) -> str:
    names = [name.family or name.literal or "" for role in _SEARCHED_ROLES
             for name in record.names.get(role, ())]
    texts = [plain(record.fields.get(field, "")) for field in ("title", "container-title")]
    return fold(" ".join([key, *names, *texts, year_of(record)]))


def _watched(path: str) -> str:
    """The file whose changes are a library's: the file itself, a Zotero database's file
    for its address (``zotero-sqlite:PATH``)."""
    from refbridge.zotero_bridge import SQLITE

    if not path.startswith(f"{SQLITE}:"):
        return path
    from refbridge.zotero_bridge.address import DatabaseAddress, parse_address

    try:
        address = parse_address(path)
    except RefbridgeError:
        return path
    return str(address.path) if isinstance(address, DatabaseAddress) else path


def _stamp(path: str) -> tuple[int, int] | None:
    """A library file's modification time and size (None: no such file, or an address of
    no file)."""
    try:
        status = os.stat(_watched(path))
    except (OSError, ValueError):
        return None
    return status.st_mtime_ns, status.st_size


class Library:
    """The records served, in the order they were read: first those of the files named on the
    command line (``read_paths``), re-read when one of them changes (``refresh``), then those
    the app added; safe to use from several threads."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._paths: list[str] = []
        self._stamps: list[tuple[int, int] | None] = []
        self._from_paths = 0  #: how many entries, at the front, came from ``_paths``
        self._by_key: dict[str, Entry] | None = None  #: made when first asked, after a change
        self._lock = threading.Lock()
        #: counts the changes of the records (a file re-read, records added, all forgotten)
        self.generation = 0

    @property
    def paths(self) -> list[str]:
        """The files (and library addresses) named on the command line."""
        return list(self._paths)

    @property
    def entries(self) -> list[Entry]:
        with self._lock:
            return list(self._entries)

    def read_paths(self, paths: Sequence[str], diagnostics: Diagnostics) -> int:
        """Read the files (and library addresses) ``paths``, followed from now on; the count
        of records added. Call it once, before anything else is added."""
        self._paths, self._stamps = list(paths), [_stamp(path) for path in paths]
        added = self._add(read_records(self._paths, diagnostics), "")
        self._from_paths = added
        return added

    def refresh(self, diagnostics: Diagnostics) -> bool:
        """Re-read the files named on the command line when one of them changed (its time or
        size), keeping what the app added; whether they were re-read. When a file cannot be
        read now, the records last read stay (the problem goes to ``diagnostics``)."""
        stamps = [_stamp(path) for path in self._paths]
        if stamps == self._stamps:
            return False
        try:
            records = list(read_records(self._paths, diagnostics))
        except RefbridgeError as exc:
            diagnostics.error(str(exc))
            self._stamps = stamps  # reported once, until the file changes again
            return False
        with self._lock:
            self._stamps = stamps
            added = [entry.record for entry in self._entries[self._from_paths:]]
            origins = [entry.origin for entry in self._entries[self._from_paths:]]
            keyed = with_keys([*records, *added], WriteOptions())
            self._entries = [_entry(record, "") for record in keyed[:len(records)]] + [
                _entry(record, origin) for record, origin in zip(keyed[len(records):], origins)]
            self._from_paths = len(records)
            self._by_key = None
            self.generation += 1
        return True

    def read_text(self, text: str, name: str, diagnostics: Diagnostics,
                  from_format: str | None = None) -> int:
        """Read ``text`` named ``name`` (its ending and content choose the reader when
        ``from_format`` is None); the count of records added."""
        stream = io.StringIO(text, newline=None)
        return self._add(read_stream(stream, text[:HEAD_BYTES], name, diagnostics, from_format),
                         name)

    def read_bytes(self, data: bytes, name: str, diagnostics: Diagnostics,
                   from_format: str | None = None) -> int:
        """Read a file's bytes ``data`` named ``name`` as refbridge reads a file: a gzip file
        or a tar archive unpacked, the encoding found; the count of records added."""
        from typing import cast

        from refbridge.textio import decoded_input, unpacked

        binary = unpacked(cast(io.FileIO, io.BytesIO(data)), name)
        with decoded_input(binary, name, diagnostics, owned=True) as (stream, head):
            return self._add(read_stream(stream, head, name, diagnostics, from_format), name)

    def add_records(self, records: Iterable[Record], origin: str) -> int:
        """Add records got otherwise (a profile fetched, an identifier looked up)."""
        return self._add(records, origin)

    def _add(self, records: Iterable[Record], origin: str) -> int:
        new = list(records)
        with self._lock:
            taken = [entry.record for entry in self._entries]
            keyed = with_keys([*taken, *new], WriteOptions())[len(taken):]
            self._entries.extend(_entry(record, origin) for record in keyed)
            self._by_key = None
            self.generation += 1
        return len(keyed)

    def clear(self) -> None:
        """Forget every record, those of the files named on the command line too (until
        they change)."""
        with self._lock:
            self._entries.clear()
            self._from_paths = 0
            self._by_key = None
            self.generation += 1

    def by_key(self, key: str) -> Entry | None:
        """The entry of citation key ``key`` (a leading ``@`` ignored, as Better BibTeX does)."""
        with self._lock:
            if self._by_key is None:
                self._by_key = {entry.key: entry for entry in reversed(self._entries)}
            return self._by_key.get(key.removeprefix("@"))

    def by_id(self, record_id: str) -> Entry | None:
        """The entry whose record has id ``record_id`` (a Zotero item's key)."""
        return next((entry for entry in self.entries if entry.record.id == record_id), None)

    def search(self, terms: str) -> list[Entry]:
        """The entries whose words contain every word of ``terms`` (all for no words)."""
        wanted = fold(terms).split()
        return [entry for entry in self.entries if all(word in entry.words for word in wanted)]


def written(records: Iterable[Record], writer: str,
            options: WriteOptions = WriteOptions()) -> str:
    """The records as the writer named ``writer`` writes them (the text of a whole file)."""
    out = io.StringIO()
    write_stream(records, out, get_writer(writer), options)
    return out.getvalue()
