"""The libraries the language server answers from: their entries by key, searchable.

Each library file is read through the pipeline's readers (any format refbridge reads) and
kept with its stamp (modification time and size): ``follow`` re-reads a file whose stamp
changed. A .bib whose entries stand alone (no ``@string``, ``crossref``, ``xref`` or
``xdata``, and nothing that could not be read) is re-read in part: only the entries in the changed stretch of text go through the
reader again, the others keep their records and move by the lines the stretch gained or lost.
Entries are searched by key prefix (sorted keys) and by words of their key, names, title and
year (one folded text for all, searched at C speed). This module must never write a library
nor read one with anything but refbridge's readers.
"""

from __future__ import annotations

import io
import os
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from refbridge.cited.citations import read_document
from refbridge.errors import Diagnostic, Diagnostics, ParseError, RefbridgeError
from refbridge.model import Record
from refbridge.pipeline import read_records, read_stream
from refbridge.richtext import plain
from refbridge.sameness.text import fold

#: What makes a .bib's entries depend on each other (lower-case): macros, an @xdata entry, and
#: fields naming another entry; such a file is always read whole.
_NOT_ALONE = ("@string", "@xdata")
_REFERRING_FIELDS = ("crossref", "xref", "xdata")
#: The name roles whose family names an entry is searched by.
_SEARCHED_ROLES = ("author", "editor")


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a library: its key, record, file and 1-based line; ``words``: its key,
    names, title and year folded to lower-case ASCII words."""

    key: str
    record: Record
    file: str
    line: int
    words: str


def words_of(key: str, record: Record) -> str:
    """What an entry is searched by: its key, its authors' and editors' family names, its
    title and its year, folded."""
    names = [name.family or name.literal or "" for role in _SEARCHED_ROLES
             for name in record.names.get(role, ())]
    issued = record.dates.get("issued")
    year = str(issued.start.year) if issued is not None and issued.start is not None else ""
    return fold(" ".join([key, *names, plain(record.fields.get("title", "")), year]))


def entry_of(record: Record, file: str, line_offset: int = 0) -> Entry:
    key = record.citation_key or record.id
    line = (record.source.line or 1) if record.source is not None else 1
    return Entry(key, record, file, line + line_offset, words_of(key, record))


@dataclass(slots=True)
class LibraryFile:
    """One library file as last read: its stamp, its text (a .bib's, for reading in part),
    its entries in file order and the problems of reading it; ``alone``: its entries depend
    on nothing else of it (it can be re-read in part)."""

    path: str
    stamp: tuple[int, int]
    entries: list[Entry]
    problems: list[Diagnostic]
    text: str | None = None
    alone: bool = False


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def _problems(diagnostics: Diagnostics, path: str) -> list[Diagnostic]:
    return [message for message in diagnostics.messages if message.file in (None, path)]


def read_library(path: str, stamp: tuple[int, int]) -> LibraryFile:
    """The whole library file at ``path``; a file that cannot be read is one problem."""
    diagnostics = Diagnostics()
    text = None
    try:
        if path.lower().endswith(".bib"):
            text = read_document(path, diagnostics)
            records = list(read_stream(io.StringIO(text), text[:4096], path, diagnostics))
        else:
            records = list(read_records([path], diagnostics))
    except RefbridgeError as exc:
        line = exc.line if isinstance(exc, ParseError) else None
        return LibraryFile(path, stamp, [], [Diagnostic("error", str(exc), path, line)])
    problems = _problems(diagnostics, path)
    return LibraryFile(path, stamp, [entry_of(record, path) for record in records], problems,
                       text, text is not None and not _depends(text) and
                       not any(problem.level == "error" for problem in problems))


def _common_prefix(old: str, new: str) -> int:
    """How many characters ``old`` and ``new`` share at their start (halving, C-speed
    comparisons)."""
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(old: str, new: str, most: int) -> int:
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if old[len(old) - middle:len(old) - low] == new[len(new) - middle:len(new) - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _line_start(text: str, offset: int, current: int, line: int) -> int:
    """Where ``line`` (1-based) starts in ``text``, walking from ``offset`` (on line
    ``current``, a few lines away)."""
    at = text.rfind("\n", 0, offset) + 1
    while current > line:
        at = text.rfind("\n", 0, at - 1) + 1
        current -= 1
    while current < line:
        found = text.find("\n", at)
        at, current = (len(text), line) if found < 0 else (found + 1, current + 1)
    return at


def _depends(text: str) -> bool:
    """Whether entries of the .bib ``text`` depend on others or on macros."""
    lowered = text.lower()
    if any(word in lowered for word in _NOT_ALONE):
        return True
    for name in _REFERRING_FIELDS:
        at = lowered.find(name)
        while at >= 0:
            if lowered[at + len(name):at + len(name) + 40].lstrip().startswith("=") and \
                    (at == 0 or not lowered[at - 1].isalnum()):
                return True
            at = lowered.find(name, at + 1)
    return False


def reread_in_part(old: LibraryFile, stamp: tuple[int, int]) -> LibraryFile:
    """``old``'s file read again, only the entries of the changed stretch through the reader
    when it can be (else the whole file)."""
    diagnostics = Diagnostics()
    try:
        text = read_document(old.path, diagnostics)
    except RefbridgeError:
        return read_library(old.path, stamp)
    if old.text is None or not old.entries or not old.alone:
        return read_library(old.path, stamp)
    before = old.text
    prefix = _common_prefix(before, text)
    suffix = _common_suffix(before, text, min(len(before), len(text)) - prefix)
    lines = [entry.line for entry in old.entries]
    changed_end = len(before) - suffix
    prefix_line = before.count("\n", 0, prefix) + 1  # the one pass over the whole text
    end_line = prefix_line + before.count("\n", prefix, changed_end)
    first = max(bisect_right(lines, prefix_line) - 1, 0)
    last = max(bisect_right(lines, end_line) - 1, first)
    begin = 0 if first == 0 else _line_start(before, prefix, prefix_line, lines[first])
    end = _line_start(before, changed_end, end_line, lines[last + 1]) \
        if last + 1 < len(lines) else len(before)
    new_end = end - len(before) + len(text)
    stretch = text[begin:new_end]
    if _depends(stretch):
        return read_library(old.path, stamp)
    line_offset = (lines[first] if first else 1) - 1  # the texts agree up to ``prefix``
    found = Diagnostics()
    try:
        records = list(read_stream(io.StringIO(stretch), stretch[:4096], old.path, found))
    except RefbridgeError:
        return read_library(old.path, stamp)
    if diagnostics.messages or found.errors:  # a broken entry: the whole file tells more
        return read_library(old.path, stamp)
    moved = stretch.count("\n") - before.count("\n", begin, end)
    entries = [*old.entries[:first],
               *(entry_of(record, old.path, line_offset) for record in records),
               *(Entry(entry.key, entry.record, entry.file, entry.line + moved, entry.words)
                 for entry in old.entries[last + 1:])]
    first_line = line_offset + 1
    end_line = lines[last + 1] if last + 1 < len(lines) else before.count("\n") + 2
    problems = [problem if problem.line is None or problem.line < first_line
                else replace(problem, line=problem.line + moved)
                for problem in old.problems
                if problem.line is None or not first_line <= problem.line < end_line]
    problems += [replace(problem, line=problem.line + line_offset)
                 if problem.line is not None else problem
                 for problem in _problems(found, old.path)]
    return LibraryFile(old.path, stamp, entries, problems, text, alone=True)


@dataclass(slots=True)
class Library:
    """The entries of the library files being followed, by key."""

    files: dict[str, LibraryFile] = field(default_factory=dict)
    by_key: dict[str, list[Entry]] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    _haystack: str = ""
    _starts: list[int] = field(default_factory=list)
    _ordered: list[Entry] = field(default_factory=list)

    def follow(self, paths: Sequence[str]) -> list[str]:
        """Follow exactly the library files ``paths``: read those new or changed on disk.
        The files read again (or dropped) are returned."""
        changed = [path for path in self.files if path not in paths]
        for path in changed:
            del self.files[path]
        for path in paths:
            stamp = _stamp(path)
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
        if changed:
            self._index(paths)
        return changed

    def _index(self, order: Sequence[str]) -> None:
        by_key: dict[str, list[Entry]] = {}
        for path in order:
            for entry in self.files[path].entries:
                by_key.setdefault(entry.key, []).append(entry)
        self.by_key = by_key
        self.keys = sorted(by_key)
        self._ordered = [by_key[key][0] for key in self.keys]
        starts, at = [], 0
        for entry in self._ordered:
            starts.append(at)
            at += len(entry.words) + 1
        self._starts = starts
        self._haystack = "\n".join(entry.words for entry in self._ordered)

    def entry(self, key: str) -> Entry | None:
        """The first entry with ``key``, in the order the libraries were given."""
        entries = self.by_key.get(key)
        return entries[0] if entries else None

    def search(self, query: str, limit: int) -> tuple[list[Entry], bool]:
        """Up to ``limit`` entries for what was typed: those whose key starts with it first,
        then those with every word of it among their words; whether there are more."""
        found: dict[str, Entry] = {}
        start = bisect_left(self.keys, query)
        for key in self.keys[start:start + limit + 1]:
            if not key.startswith(query):
                break
            found[key] = self.by_key[key][0]
        for entry in self._word_matches(fold(query).split()):
            if len(found) > limit:
                break
            found.setdefault(entry.key, entry)
        chosen = list(found.values())
        return chosen[:limit], len(chosen) > limit

    def _word_matches(self, words: list[str]) -> Iterator[Entry]:
        if not words:
            return
        longest = max(words, key=len)
        haystack, starts, ordered = self._haystack, self._starts, self._ordered
        at = haystack.find(longest)
        while at >= 0:
            index = bisect_right(starts, at) - 1
            entry = ordered[index]
            if all(word in entry.words for word in words):
                yield entry
            at = starts[index + 1] if index + 1 < len(starts) else -1
            if at >= 0:
                at = haystack.find(longest, at)

    def problems(self, path: str) -> list[Diagnostic]:
        known = self.files.get(path)
        return known.problems if known is not None else []

    def duplicates(self) -> Iterator[tuple[Entry, Entry]]:
        """Each entry whose key an earlier entry has, with that earlier entry."""
        for entries in self.by_key.values():
            for later in entries[1:]:
                yield later, entries[0]
