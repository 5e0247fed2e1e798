"""The libraries the language server answers from: their entries by key, searchable.

Each library file is read and kept with its stamp (modification time and size): ``follow``
re-reads a file whose stamp changed. A .bib whose entries stand alone (no ``@string``,
``crossref``, ``xref`` or ``xdata``, and no broken block) is indexed by refbridge's .bib syntax
layer alone: per entry its key, line, the words it is searched by and a one-line detail, and
where its text is (the file's text is held once, as UTF-8 bytes, decoded a stretch at a time);
its record is read through the BibTeX reader only when asked for (an item resolved, a hover),
and the reader's problems come from ``reading_problems`` run apart (see
``refbridge.lsp.checking``). Its index (and those problems, once known) is kept in the cache
on disk (``refbridge.lsp.cache``) and taken from there while the file's content is the same
(re-indexed in part from there when one stretch of it changed, found by the hashes of its
bytes the cache keeps).
Such a file is re-indexed in part: only the entries in the changed stretch of bytes are
scanned again, the others move by the lines and bytes the stretch gained or lost. Any other
file is read whole through the pipeline's readers, records kept. Entries are searched by key
prefix (sorted keys) and by words of their key, names, title and year (one folded text for
all, searched at C speed). This module must never write a library nor read one with
anything but refbridge's readers and its .bib syntax layer.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from heapq import merge
from itertools import accumulate, repeat
from time import perf_counter

from refbridge.cited.citations import read_document
from refbridge.errors import Diagnostic, Diagnostics, ParseError, RefbridgeError
from refbridge.formats.bibtex.dates import parse_iso_date, parse_year_month
from refbridge.formats.bibtex.reader import collapsed_white_space
from refbridge.formats.bibtex.syntax import Block, parse_spans
from refbridge.formats.bibtex.tables import SUBTITLE_FIELDS, SUBTITLE_SEPARATOR
from refbridge.latex.decode import decode_plain
from refbridge.lsp import cache
from refbridge.model import Record, Source
from refbridge.names.bibtex import parse_names
from refbridge.pipeline import read_records, read_stream
from refbridge.richtext import plain
from refbridge.sameness.text import fold

#: What makes a .bib's entries depend on each other: macros (``@string``), ``@xdata``
#: entries, and fields naming another entry; such a file is read whole.
_REFERRING_FIELDS = frozenset({"crossref", "xref", "xdata"})
#: How long ``Library.follow`` indexes before leaving the rest to ``Library.advance``
#: (seconds): a small library is indexed at once.
FIRST_STEP = 0.25
#: A key as a .bib entry starts with it: ``@article{key,`` (``KEY``: the key, escaped).
ENTRY_START = r"@[A-Za-z]+\s*[{(]\s*(KEY)\s*,"
#: How many entries are indexed between two looks at the clock.
_STEP_ENTRIES = 16
#: What an indexing that is over gives.
_DONE = object()
#: The name roles whose family names an entry is searched by.
_SEARCHED_ROLES = ("author", "editor")
#: The fields of a .bib entry its words and detail are made of.
_SUMMARIZED = frozenset({*_SEARCHED_ROLES, "title", SUBTITLE_FIELDS["title"], "date", "year"})


@dataclass(slots=True)
class Entry:
    """One entry of a library: its key, file and 1-based line; ``words``: its key, names,
    title and year folded to lower-case ASCII words; ``detail``: first name, year and title;
    ``start``:``end``: its text in the file's (an indexed .bib), else ``record``: its record.
    The line and offsets move when an earlier stretch of the file changes."""

    key: str
    file: str
    line: int
    words: str
    detail: str
    start: int = 0
    end: int = 0
    record: Record | None = None


def _summary(key: str, families: Sequence[str], year: str, title: str) -> tuple[str, str]:
    """An entry's words and detail (see ``Entry``)."""
    words = fold(" ".join([key, *families, title, year]))
    detail = " ".join(part for part in [families[0] if families else "",
                                        f"({year})" if year else "", title] if part)
    return words, detail


def entry_of(record: Record, file: str, line_offset: int = 0) -> Entry:
    """The entry of a record read whole."""
    key = record.citation_key or record.id
    line = (record.source.line or 1) if record.source is not None else 1
    names = [name.family or name.literal or "" for role in _SEARCHED_ROLES
             for name in record.names.get(role, ())]
    issued = record.dates.get("issued")
    year = str(issued.start.year) if issued is not None and issued.start is not None else ""
    words, detail = _summary(key, names, year, plain(record.fields.get("title", "")))
    return Entry(key, file, line + line_offset, words, detail, record=record)


def _block_entry(block: Block, file: str, start: int, end: int) -> Entry:
    """The entry of an entry block, its names, year and title as the BibTeX reader reads
    them (the first of a repeated field, white space collapsed)."""
    values: dict[str, str] = {}
    for found in block.fields:
        if found.name in _SUMMARIZED and found.name not in values and found.value:
            value = collapsed_white_space(found.value)
            if value:
                values[found.name] = value
    families: list[str] = []
    for role in _SEARCHED_ROLES:
        written = values.get(role)
        if written is not None:
            families += [name.family or name.literal or ""
                         for name in parse_names(written)[0]]
    date = parse_iso_date(values["date"]) if "date" in values else \
        parse_year_month(values["year"], None, None)[0] if "year" in values else None
    year = str(date.start.year) if date is not None and date.start is not None else ""
    title = values.get("title")
    subtitle = values.get(SUBTITLE_FIELDS["title"])
    text = decode_plain(title) if title else ""
    if subtitle:
        text = text + SUBTITLE_SEPARATOR + decode_plain(subtitle) if text \
            else decode_plain(subtitle)
    words, detail = _summary(block.key, families, year, text)
    return Entry(block.key, file, block.line, words, detail, start, end)


@dataclass(slots=True)
class LibraryFile:
    """One library file as last read: its stamp, its entries in file order and the problems
    of reading it; ``text``: a .bib's, as UTF-8 (for reading in part and records asked for;
    ``plain``: it is the file's bytes as they are, which a cache is kept for); ``alone``: its
    entries depend on nothing else of it (it is indexed, and re-indexed in part);
    ``pending``: its reading problems are still to come (``reading_problems``); ``digest``:
    its content hash once known; ``cached``: the cache on disk holds its index as it is
    (``problems_cached``: its reading problems); ``ranked``: taken from that cache, the rows of
    its first entry of each key in key order (its index made without sorting them again)."""

    path: str
    stamp: tuple[int, int]
    entries: list[Entry]
    problems: list[Diagnostic]
    text: bytes | None = None
    alone: bool = False
    pending: bool = False
    indexing: Iterator[None] | None = None
    #: Re-indexed in part: the entries it no longer has, and those it has instead.
    replaced: tuple[list[Entry], list[Entry]] | None = None
    plain: bool = False
    digest: str | None = None
    cached: bool = False
    problems_cached: bool = False
    ranked: list[int] | None = None

    def take(self, other: LibraryFile) -> None:
        """Hold what ``other`` holds (the same file read otherwise)."""
        self.entries, self.problems, self.text = other.entries, other.problems, other.text
        self.alone, self.pending, self.plain = other.alone, other.pending, other.plain

    def unindexed(self, key: str) -> Entry | None:
        """The first entry with ``key`` in the text still to index (scanned now)."""
        if self.indexing is None or self.text is None:
            return None
        last = self.entries[-1] if self.entries else None
        after, line = (last.start, last.line) if last is not None else (0, 1)
        head = re.compile(b"^[ \t]*" + _entry_start(key).pattern, re.MULTILINE)
        found = head.search(self.text, after)
        if found is None:
            return None
        following = self.text.find(b"\n@", found.end())
        line += self.text.count(b"\n", after, found.start())
        try:
            return next(_scanned(self.text, self.path, found.start(),
                                 following + 1 if following >= 0 else len(self.text), line),
                        None)
        except (_NotAlone, UnicodeDecodeError):
            return None

    def index(self, until: float) -> bool:
        """Index until the ``perf_counter`` time ``until``; whether it is all indexed."""
        while self.indexing is not None:
            if next(self.indexing, _DONE) is _DONE:
                self.indexing = None
            elif perf_counter() >= until:
                return False
        return True

    def entry_text(self, entry: Entry) -> str | None:
        """The text of an indexed ``entry`` (None: it was read whole, as a record)."""
        if self.text is None or entry.end <= entry.start:
            return None
        return self.text[entry.start:entry.end].decode("utf-8")

    def record(self, entry: Entry) -> Record | None:
        """``entry``'s record: kept, or read now from its text (None: it cannot be read)."""
        stretch = self.entry_text(entry) if entry.record is None else None
        if stretch is None:
            return entry.record
        try:
            record = next(iter(read_stream(io.StringIO(stretch), stretch[:4096], self.path,
                                           Diagnostics())), None)
        except RefbridgeError:
            return None
        return replace(record, source=Source(self.path, entry.line)) if record else None

    def key_written(self, entry: Entry) -> tuple[int, str, str] | None:
        """Where ``entry``'s key is written in the file: its 1-based line, the text of the
        line before it and the key as written (None: not in a .bib's text)."""
        if self.text is None:
            return None
        pattern = _entry_start(entry.key)
        if entry.end > entry.start:
            found = pattern.search(self.text, entry.start, entry.end)
            line = entry.line + self.text.count(b"\n", entry.start, found.start(1)) \
                if found is not None else 0
        else:  # read whole: the one at the entry's line, else the first
            lines = [(self.text.count(b"\n", 0, match.start(1)) + 1, match)
                     for match in pattern.finditer(self.text)]
            line, found = next((at for at in lines if at[0] == entry.line), lines[0]) \
                if lines else (0, None)
        if found is None:
            return None
        line_start = self.text.rfind(b"\n", 0, found.start(1)) + 1
        return (line, self.text[line_start:found.start(1)].decode("utf-8"),
                found.group(1).decode("utf-8"))

    def save(self) -> bool:
        """Keep the index of an indexed .bib in the cache on disk (not one read whole or
        whose text is not the file's bytes), and its reading problems once they are known;
        whether the cache now holds its index."""
        if not (self.alone and self.plain and self.text is not None):
            return False
        if self.digest is None:
            self.digest = cache.content_hash(self.text)
        stamp = (self.stamp[0], len(self.text))  # the size of the text read, as it was read
        if not self.cached:
            entries, text = self.entries, self.text
            pieces = [text[at:at + _CHUNK] for at in range(0, len(text), _CHUNK)]
            self.cached = cache.store(self.path, stamp, self.digest, cache.Columns(
                {}, {"hash": [_chunk_hash(piece) for piece in pieces],
                     "newlines": [piece.count(b"\n") for piece in pieces],
                     "length": [len(piece) for piece in pieces]}), _CHUNKS) and \
                cache.store(self.path, stamp, self.digest, cache.Columns(
                    {name: [getattr(entry, name) for entry in entries] for name in _TEXTS},
                    {**{name: [getattr(entry, name) for entry in entries] for name in _NUMBERS},
                     _RANKED: _key_order(entries)}))
        if self.cached and not self.pending and not self.problems_cached:
            problems = self.problems
            self.problems_cached = cache.store(self.path, stamp, self.digest, cache.Columns(
                {"level": [problem.level for problem in problems],
                 "message": [problem.message for problem in problems],
                 "file": [problem.file or "" for problem in problems]},
                {"line": [problem.line or 0 for problem in problems]}), _PROBLEMS)
        return self.cached


#: What the cache on disk keeps of each entry of an indexed .bib (its texts, its numbers),
#: and beside them the column ``_RANKED`` (``_key_order``).
_TEXTS = ("key", "words", "detail")
_NUMBERS = ("line", "start", "end")
_RANKED = "ranked"
_CACHED_NUMBERS = (*_NUMBERS, _RANKED)
#: The part of the cache on disk that holds the problems of reading a .bib.
_PROBLEMS = "problems"
#: The part of the cache on disk that holds a hash of each stretch of ``_CHUNK`` bytes of a
#: .bib (and its line breaks): what a .bib changed since it was cached shares with it.
_CHUNKS = "chunks"
_CHUNK = 1 << 16
#: How many bytes changed since a .bib was cached are re-indexed at once, at most (more: the
#: file is indexed anew, a step at a time).
_CHANGED_MOST = 1 << 20


def _chunk_hash(piece: bytes) -> int:
    return int.from_bytes(hashlib.sha1(piece, usedforsecurity=False).digest()[:8], "little",
                          signed=True)


def _key_order(entries: Sequence[Entry]) -> list[int]:
    """The rows of the first entry of each key in key order, then -1 for each later entry
    of a key (as many numbers as entries: a column of the cache)."""
    first: dict[str, int] = {}
    for row, entry in enumerate(entries):
        first.setdefault(entry.key, row)
    return [first[key] for key in sorted(first)] + [-1] * (len(entries) - len(first))


def _ranked(found: cache.Columns) -> list[int] | None:
    """The rows of the first entry of each key in key order that the cached index ``found``
    holds (None: rows it cannot have)."""
    column = found.numbers[_RANKED]
    rows = column[:column.index(-1)] if -1 in column else column
    return rows if rows and 0 <= min(rows) and max(rows) < len(column) else None


def _entries(path: str, found: cache.Columns) -> Iterator[Entry]:
    """The entries of the cached index ``found`` of the .bib ``path``."""
    texts, numbers = found.texts, found.numbers
    return map(Entry, texts["key"], repeat(path), numbers["line"], texts["words"],
               texts["detail"], numbers["start"], numbers["end"])


def _changed_since_cached(path: str, stamp: tuple[int, int], text: bytes
                          ) -> LibraryFile | None:
    """The .bib ``path`` (``text``) changed since its index was cached, re-indexed in part
    from the cached index: only when the cache holds the hashes of its old bytes and little
    changed (the bytes before and after the change found by those hashes), else None."""
    chunks = cache.load(path, None, None, (), ("hash", "newlines", "length"), _CHUNKS)
    if chunks is None:
        return None
    found = cache.load(path, chunks.size, chunks.digest, _TEXTS, _CACHED_NUMBERS)
    if found is None:
        return None
    hashes, lengths = chunks.numbers["hash"], chunks.numbers["length"]
    prefix = shared = 0
    for length, hashed in zip(lengths, hashes, strict=True):
        if prefix + length > len(text) or _chunk_hash(text[prefix:prefix + length]) != hashed:
            break
        prefix, shared = prefix + length, shared + 1
    suffix, shift, old_end = 0, len(text) - chunks.size, chunks.size
    for length, hashed in zip(reversed(lengths), reversed(hashes), strict=True):
        start = old_end - suffix - length
        if start < prefix or start + shift < prefix or \
                _chunk_hash(text[start + shift:start + shift + length]) != hashed:
            break
        suffix += length
    if len(text) - prefix - suffix > _CHANGED_MOST:
        return None
    old_lines = sum(chunks.numbers["newlines"][shared:])
    problems = _cached_problems(path, chunks.size, chunks.digest)
    return _in_part(path, stamp, text, list(_entries(path, found)), problems or [],
                    problems is None, chunks.size, prefix, suffix,
                    lambda at: text.count(b"\n", at, prefix) + old_lines)


def _cached_problems(path: str, size: int, digest: str) -> list[Diagnostic] | None:
    """The problems of reading the .bib ``path`` (``size`` bytes hashed to ``digest``) the
    cache on disk holds, if it does."""
    found = cache.load(path, size, digest, ("level", "message", "file"), ("line",), _PROBLEMS)
    if found is None:
        return None
    texts = found.texts
    return [Diagnostic(level, message, file or None, line or None) for level, message, file, line
            in zip(texts["level"], texts["message"], texts["file"], found.numbers["line"],
                   strict=True)]


def _entry_start(key: str) -> re.Pattern[bytes]:
    """Where an entry with ``key`` starts, in a .bib's text as UTF-8."""
    return re.compile(ENTRY_START.replace("KEY", re.escape(key)).encode("utf-8"))


def stamp_of(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _problems(diagnostics: Diagnostics, path: str) -> list[Diagnostic]:
    return [message for message in diagnostics.messages if message.file in (None, path)]


class _NotAlone(Exception):
    """A broken block (the reader tells more of it) or one other entries depend on."""


#: How many bytes of a .bib are decoded and scanned at a time (a stretch ends where a line
#: starts with ``@``, where the syntax layer starts a block too).
_STRETCH = 1 << 18


def _scanned(text: bytes, path: str, begin: int, end: int, first_line: int
             ) -> Iterator[Entry]:
    """The entries of ``text[begin:end]``, a .bib's text as UTF-8 from the start of a line
    (``first_line``), by its syntax alone, a stretch decoded at a time (their offsets those
    of ``text``); raises ``_NotAlone`` at a broken block or one that entries depend on, and
    UnicodeDecodeError at bytes that are not UTF-8."""
    line = first_line
    while begin < end:
        cut = text.find(b"\n@", min(begin + _STRETCH, end), end)
        cut = end if cut < 0 else cut + 1
        stretch = text[begin:cut].decode("utf-8")
        ascii_only = len(stretch) == cut - begin
        char, byte = 0, begin  # where the last entry's text ends, in characters and bytes
        for span in parse_spans(stretch, {}, line):
            block = span.block
            if block.kind == "entry" and block.entry_type != "xdata" and \
                    _REFERRING_FIELDS.isdisjoint(found.name for found in block.fields):
                if ascii_only:
                    start, stop = begin + span.start, begin + span.end
                else:
                    start = byte + len(stretch[char:span.start].encode("utf-8"))
                    stop = start + len(stretch[span.start:span.end].encode("utf-8"))
                    char, byte = span.end, stop
                yield _block_entry(block, path, start, stop)
            elif block.kind in ("entry", "error", "string"):
                raise _NotAlone
        line += stretch.count("\n")
        begin = cut


def _file_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError:
        return None


def _file_text(path: str, data: bytes | None, diagnostics: Diagnostics
               ) -> tuple[bytes, bool]:
    """A .bib's text as UTF-8, and whether it is the file's bytes ``data`` as they are
    (UTF-8 without a byte-order mark or carriage returns; checked a stretch at a time, never
    held decoded whole); else the file decoded as inputs are (``read_document``), then
    encoded."""
    if data and b"\r" not in data and not data.startswith(codecs.BOM_UTF8):
        decoder = codecs.getincrementaldecoder("utf-8")()
        try:
            for at in range(0, len(data), _STRETCH):
                decoder.decode(data[at:at + _STRETCH])
            decoder.decode(b"", True)
            return data, True
        except UnicodeDecodeError:
            pass
    return read_document(path, diagnostics).encode("utf-8"), False


def _indexing(file: LibraryFile, data: bytes | None) -> Iterator[None]:
    """Index the .bib ``file`` into its entries, a few at a time (one step a ``next``);
    a file whose entries depend on each other or with a broken block is read whole. A
    plain file's index is kept in the cache on disk once it is done."""
    try:
        file.text, file.plain = _file_text(file.path, data, Diagnostics())
    except RefbridgeError:
        file.text = None
    yield
    if file.text is None:
        file.take(read_whole(file.path, file.stamp))
        return
    entries = file.entries
    try:
        for entry in _scanned(file.text, file.path, 0, len(file.text), 1):
            entries.append(entry)
            if len(entries) % _STEP_ENTRIES == 0:
                yield
    except _NotAlone:
        file.take(read_whole(file.path, file.stamp))
        return
    file.alone = file.pending = True
    yield
    file.save()


def _read(path: str, diagnostics: Diagnostics) -> tuple[bytes | None, Iterator[Record]]:
    """A .bib's text (as UTF-8) and the records of the file at ``path``, read by
    refbridge's readers."""
    if path.lower().endswith(".bib"):
        text = read_document(path, diagnostics)
        return text.encode("utf-8"), read_stream(io.StringIO(text), text[:4096], path,
                                                 diagnostics)
    return None, read_records([path], diagnostics)


def _unreadable(path: str, stamp: tuple[int, int], exc: RefbridgeError) -> LibraryFile:
    line = exc.line if isinstance(exc, ParseError) else None
    return LibraryFile(path, stamp, [], [Diagnostic("error", str(exc), path, line)])


def reading_problems(path: str) -> list[Diagnostic]:
    """The problems of reading the library file ``path`` whole through refbridge's readers
    (its records are not kept)."""
    diagnostics = Diagnostics()
    try:
        for _ in _read(path, diagnostics)[1]:
            pass
    except RefbridgeError as exc:
        return _unreadable(path, (0, 0), exc).problems
    return _problems(diagnostics, path)


def read_whole(path: str, stamp: tuple[int, int]) -> LibraryFile:
    """The library file at ``path`` read whole through refbridge's readers, records kept; a
    file that cannot be read is one problem."""
    diagnostics = Diagnostics()
    try:
        text, records = _read(path, diagnostics)
        entries = [entry_of(record, path) for record in records]
    except RefbridgeError as exc:
        return _unreadable(path, stamp, exc)
    return LibraryFile(path, stamp, entries, _problems(diagnostics, path), text)


def read_library(path: str, stamp: tuple[int, int]) -> LibraryFile:
    """The library file at ``path``: a .bib to be indexed (``LibraryFile.indexing``; its
    reading problems pending) from the cache on disk when it holds its index for its content
    as it is, else from its text; any other read whole."""
    if not path.lower().endswith(".bib"):
        return read_whole(path, stamp)
    data = _file_bytes(path)
    digest = cache.content_hash(data) if data else None
    found = cache.load(path, len(data), digest, _TEXTS, _CACHED_NUMBERS) \
        if data and digest else None
    if found is not None and data and digest:
        problems = _cached_problems(path, len(data), digest)
        return LibraryFile(path, stamp, list(_entries(path, found)), problems or [], data,
                           alone=True, pending=problems is None, plain=True, digest=digest,
                           cached=True, problems_cached=problems is not None,
                           ranked=_ranked(found))
    changed = _changed_since_cached(path, stamp, data) if data else None
    if changed is not None:
        return changed
    file = LibraryFile(path, stamp, [], [], digest=digest)
    file.indexing = _indexing(file, data)
    return file


#: How many bytes are compared at a time looking for where two texts differ: slices of
#: whole texts (halving) copy far more than the stretch they share.
_COMPARED = 1 << 16


def _common_prefix(old: bytes, new: bytes) -> int:
    """How many bytes ``old`` and ``new`` share at their start (C-speed comparisons of a
    block at a time, then halving the block that differs)."""
    most = min(len(old), len(new))
    low = 0
    while low < most and old[low:low + _COMPARED] == new[low:low + _COMPARED]:
        low += _COMPARED
    high = min(low + _COMPARED, most)
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return min(low, most)


def _common_suffix(old: bytes, new: bytes, most: int) -> int:
    """How many bytes ``old`` and ``new`` share at their end, at most ``most``."""
    low, old_end, new_end = 0, len(old), len(new)
    while low < most:
        step = min(_COMPARED, most - low)
        if old[old_end - low - step:old_end - low] != new[new_end - low - step:new_end - low]:
            break
        low += step
    high = min(low + _COMPARED, most)
    while low < high:
        middle = (low + high + 1) // 2
        if old[old_end - middle:old_end - low] == new[new_end - middle:new_end - low]:
            low = middle
        else:
            high = middle - 1
    return low


def reread_in_part(old: LibraryFile, stamp: tuple[int, int]) -> LibraryFile:
    """``old``'s file read again: an indexed plain .bib re-indexed in part when it can be
    (only the entries of the changed stretch scanned again, and read for their problems;
    the rest of its bytes, the same, need no second look), else read as new."""
    if old.text is None or not old.entries or not old.alone or not old.plain or \
            old.indexing is not None:
        return read_library(old.path, stamp)
    text = _file_bytes(old.path)
    if text is None:
        return read_library(old.path, stamp)
    before = old.text
    prefix = _common_prefix(before, text)
    suffix = _common_suffix(before, text, min(len(before), len(text)) - prefix)
    return _in_part(old.path, stamp, text, old.entries, old.problems, old.pending,
                    len(before), prefix, suffix, lambda at: before.count(b"\n", at)) or \
        read_library(old.path, stamp)


def _in_part(path: str, stamp: tuple[int, int], text: bytes, entries: list[Entry],
             problems: list[Diagnostic], pending: bool, old_size: int, prefix: int,
             suffix: int, old_lines_from: Callable[[int], int]) -> LibraryFile | None:
    """The .bib ``path`` (``text``) re-indexed in part: of its ``entries`` and ``problems``
    when it was ``old_size`` bytes (``old_lines_from``: how many line breaks it had from an
    offset on), those in the bytes it still shares with it (its first ``prefix`` and last
    ``suffix``) kept, the others scanned again and read for their problems; None when the
    changed stretch cannot be read so (it is not UTF-8, or has a broken or macro block)."""
    if text.startswith(codecs.BOM_UTF8):
        return None
    changed_end = old_size - suffix
    first = max(bisect_right(entries, prefix, key=_start) - 1, 0)
    last = max(bisect_right(entries, changed_end, key=_start) - 1, first)
    begin = 0 if first == 0 else entries[first].start
    end = entries[last + 1].start if last + 1 < len(entries) else old_size
    new_end = end - old_size + len(text)
    first_line = entries[first].line if first else 1
    found = Diagnostics()
    try:
        stretch = text[begin:new_end].decode("utf-8")
        if "\r" in stretch:
            return None
        scanned = list(_scanned(text, path, begin, new_end, first_line))
        for _ in read_stream(io.StringIO(stretch), stretch[:4096], path, found):
            pass
    except (_NotAlone, RefbridgeError, UnicodeDecodeError):
        return None
    if found.errors:  # a broken entry: the whole file tells more
        return None
    later = entries[last + 1:]
    old_lines = later[0].line - first_line if later else old_lines_from(begin)
    moved = stretch.count("\n") - old_lines
    shift = len(text) - old_size
    for entry in later:
        entry.line += moved
        entry.start += shift
        entry.end += shift
    end_line = later[0].line - moved if later else first_line + old_lines + 1
    kept = [problem if problem.line is None or problem.line < first_line
            else replace(problem, line=problem.line + moved)
            for problem in problems
            if problem.line is None or not first_line <= problem.line < end_line]
    kept += [replace(problem, line=problem.line + first_line - 1)
             if problem.line is not None else problem
             for problem in _problems(found, path)]
    return LibraryFile(path, stamp, [*entries[:first], *scanned, *later], kept, text,
                       alone=True, pending=pending,
                       replaced=(entries[first:last + 1], scanned), plain=True)


def _start(entry: Entry) -> int:
    return entry.start


@dataclass(frozen=True, slots=True)
class _Index:
    """Entries made searchable: their keys sorted (each with its first entry) and their
    words as one folded text (``haystack``; where each entry's words start, and which entry
    they are, ``searched``, in the order of the keys ``searched_keys``). An index patched
    keeps its haystack: the entries it no longer holds are None in ``searched``, those it
    holds since are in ``added`` (by key), searched one by one."""

    keys: list[str]
    ordered: list[Entry]
    haystack: str
    starts: list[int]
    searched: list[Entry | None]
    searched_keys: list[str]
    added: list[Entry]

    @classmethod
    def of(cls, by_key: dict[str, list[Entry]], ordered: list[Entry] | None = None
           ) -> _Index:
        """The index of the first entry of each key (``ordered``: those entries in key
        order, when known: 100,000 keys sorted again cost some 0.1 s)."""
        if ordered is None:
            keys = sorted(by_key)
            ordered = [by_key[key][0] for key in keys]
        else:
            keys = [entry.key for entry in ordered]
        words = [entry.words for entry in ordered]
        starts = list(accumulate((len(text) + 1 for text in words), initial=0))
        return cls(keys, ordered, "\n".join(words), starts[:-1], list(ordered), keys, [])

    def patched(self, by_key: dict[str, list[Entry]], keys: Iterable[str]) -> _Index:
        """This index with the first entries of ``keys`` as ``by_key`` has them now (its
        haystack kept: a patch costs a few copies of lists, not the words made again)."""
        sorted_keys, ordered = list(self.keys), list(self.ordered)
        searched, added = list(self.searched), list(self.added)
        for key in keys:
            at = bisect_left(sorted_keys, key)
            there = at < len(sorted_keys) and sorted_keys[at] == key
            if there:
                old = ordered[at]
                slot = bisect_left(self.searched_keys, key)
                if slot < len(searched) and searched[slot] is old:
                    searched[slot] = None
                else:
                    added.remove(old)
            if key not in by_key:
                if there:
                    del sorted_keys[at], ordered[at]
                continue
            entry = by_key[key][0]
            if there:
                ordered[at] = entry
            else:
                sorted_keys.insert(at, key)
                ordered.insert(at, entry)
            added.insert(bisect_left(added, key, key=_key), entry)
        return _Index(sorted_keys, ordered, self.haystack, self.starts, searched,
                      self.searched_keys, added)

    def entry(self, key: str) -> Entry | None:
        at = bisect_left(self.keys, key)
        return self.ordered[at] if at < len(self.keys) and self.keys[at] == key else None

    def search(self, query: str, limit: int) -> list[Entry]:
        """Up to ``limit`` + 1 entries for what was typed: those whose key starts with it
        first, then those with every word of it among their words (in the order of keys)."""
        found: dict[str, Entry] = {}
        start = bisect_left(self.keys, query)
        for at in range(start, min(start + limit + 1, len(self.keys))):
            if not self.keys[at].startswith(query):
                break
            found[self.keys[at]] = self.ordered[at]
        words = fold(query).split()
        if words:
            for entry in merge(self._word_matches(words), (
                    entry for entry in self.added
                    if all(word in entry.words for word in words)), key=_key):
                if len(found) > limit:
                    break
                found.setdefault(entry.key, entry)
        return list(found.values())

    def _word_matches(self, words: list[str]) -> Iterator[Entry]:
        longest = max(words, key=len)
        haystack, starts, searched = self.haystack, self.starts, self.searched
        at = haystack.find(longest)
        while at >= 0:
            index = bisect_right(starts, at) - 1
            entry = searched[index]
            if entry is not None and all(word in entry.words for word in words):
                yield entry
            at = starts[index + 1] if index + 1 < len(starts) else -1
            if at >= 0:
                at = haystack.find(longest, at)


def _key(entry: Entry) -> str:
    return entry.key


def _by_key(entries: Iterable[Entry]) -> dict[str, list[Entry]]:
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        by_key.setdefault(entry.key, []).append(entry)
    return by_key


#: How many entries indexed make a part of the index searched while the rest is indexed.
_SEGMENT = 4000


@dataclass(slots=True)
class Library:
    """The entries of the library files being followed, by key; while they are indexed
    (``indexing``), those indexed so far are searched, in parts of the index."""

    files: dict[str, LibraryFile] = field(default_factory=dict)
    by_key: dict[str, list[Entry]] = field(default_factory=dict)
    indexing: bool = False
    _index: _Index = field(default_factory=lambda: _Index.of({}))
    _order: list[str] = field(default_factory=list)
    _segments: list[_Index] = field(default_factory=list)
    _seen: dict[str, tuple[list[Entry], int]] = field(default_factory=dict)
    _unsegmented: list[Entry] = field(default_factory=list)
    _growing: dict[str, list[Entry]] = field(default_factory=dict)

    def follow(self, paths: Sequence[str]) -> list[str]:
        """Follow exactly the library files ``paths``: read those new or changed on disk.
        The files read again (or dropped) are returned."""
        changed = [path for path in self.files if path not in paths]
        for path in changed:
            del self.files[path]
        for path in paths:
            stamp = stamp_of(path)
            known = self.files.get(path)
            if stamp is None:
                if known is None or known.stamp != (0, 0):
                    self.files[path] = LibraryFile(path, (0, 0), [], [Diagnostic(
                        "error", "no such library file", path, None)])
                    changed.append(path)
            elif known is None or known.stamp == (0, 0):
                self.files[path] = read_library(path, stamp)
                changed.append(path)
            elif known.stamp != stamp:
                self.files[path] = reread_in_part(known, stamp)
                changed.append(path)
        if changed and not (len(changed) == 1 and self._order == list(paths) and
                            not self.indexing and self._patch(self.files.get(changed[0]))):
            self._order, self.indexing = list(paths), True
            self._forget_parts()
            self.advance(FIRST_STEP)
        for path in changed:
            if path in self.files:
                self.files[path].replaced = None
        return changed

    def _patch(self, file: LibraryFile | None) -> bool:
        """Whether the index could take the entries ``file`` replaced (re-indexed in part)
        without being made again: when no other entry has their keys."""
        if file is None or file.replaced is None:
            return False
        removed, added = file.replaced
        gone = {entry.key for entry in removed}
        new = [entry.key for entry in added]
        if len(gone) != len(removed) or len(set(new)) != len(new) or any(
                [found is entry for found in self.by_key.get(entry.key, ())] != [True]
                for entry in removed) or any(
                key in self.by_key and key not in gone for key in new):
            return False
        touched = gone.union(new)
        for entry in removed:
            del self.by_key[entry.key]
        for entry in added:
            self.by_key[entry.key] = [entry]
        self._index = self._index.patched(self.by_key, touched)
        return True

    def advance(self, seconds: float) -> bool:
        """Index the files for up to ``seconds`` more, and once all are, make the index;
        whether it is made."""
        until = perf_counter() + seconds
        done = all(self.files[path].index(until) for path in self._order)
        if self.indexing:
            self._segment(parts=not done)
        if done and self.indexing:
            self.by_key, self._growing = self._growing, {}
            self._index = _Index.of(self.by_key, self._cached_order())
            self.indexing = False
            self._forget_parts()
        return done

    def _cached_order(self) -> list[Entry] | None:
        """The first entry of each key in key order as the cache on disk had them, when
        the one file followed was taken from it whole (its rows, once used, let go)."""
        if len(self._order) != 1:
            return None
        file = self.files[self._order[0]]
        rows, file.ranked = file.ranked, None
        if rows is None or len(rows) != len(self.by_key):
            return None
        return [file.entries[row] for row in rows]

    def _forget_parts(self) -> None:
        self._segments, self._seen, self._unsegmented, self._growing = [], {}, [], {}

    def _segment(self, parts: bool) -> None:
        """The entries indexed since the last look: by key, and (``parts``: the indexing is
        not over, the whole index is not made now) into parts of the index (a file's once
        those of the files before it are all indexed)."""
        for path in self._order:
            file = self.files[path]
            seen, count = self._seen.get(path, (file.entries, 0))
            if seen is not file.entries:  # read whole after all: its entries anew
                self._forget_parts()
                return self._segment(parts)
            added = file.entries[count:]
            self._unsegmented += added
            growing = self._growing
            for entry in added:
                growing.setdefault(entry.key, []).append(entry)
            self._seen[path] = (file.entries, len(file.entries))
            if file.indexing is not None:
                break
        if parts and len(self._unsegmented) >= _SEGMENT:
            self._segments.append(_Index.of(_by_key(self._unsegmented)))
            self._unsegmented = []
        return None

    def _indexes(self) -> list[_Index]:
        """The index, or while indexing its parts so far."""
        if not self.indexing:
            return [self._index]
        return [*self._segments, _Index.of(_by_key(self._unsegmented))]

    def entry(self, key: str) -> Entry | None:
        """The first entry with ``key``, in the order the libraries were given (while
        indexing: among those indexed so far, else the first in the text still to index)."""
        found = next((found for index in self._indexes()
                      if (found := index.entry(key)) is not None), None)
        if found is not None or not self.indexing:
            return found
        return next((found for path in self._order
                     if (found := self.files[path].unindexed(key)) is not None), None)

    def search(self, query: str, limit: int) -> tuple[list[Entry], bool]:
        """Up to ``limit`` entries for what was typed: those whose key starts with it first,
        then those with every word of it among their words; whether there are more (always,
        while indexing: then each part of the index so far is searched in turn)."""
        found: dict[str, Entry] = {}
        for index in self._indexes():
            for entry in index.search(query, limit):
                found.setdefault(entry.key, entry)
        chosen = list(found.values())
        return chosen[:limit], self.indexing or len(chosen) > limit

    def record(self, entry: Entry) -> Record | None:
        """``entry``'s record (read now when it was only indexed)."""
        known = self.files.get(entry.file)
        return known.record(entry) if known is not None else entry.record

    def save(self) -> None:
        """Keep the index of each indexed .bib in the cache on disk, if it is not yet."""
        for file in self.files.values():
            if file.indexing is None:
                file.save()

    def problems(self, path: str) -> list[Diagnostic]:
        known = self.files.get(path)
        return known.problems if known is not None else []

    def duplicates(self) -> Iterator[tuple[Entry, Entry]]:
        """Each entry whose key an earlier entry has, with that earlier entry."""
        for entries in self.by_key.values():
            for later in entries[1:]:
                yield later, entries[0]
