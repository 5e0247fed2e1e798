"""A .bib file cut into the units a three-way merge and a diff work on: each block (entry,
``@string``, ``@preamble``, ``@comment``) with the blank space before it and the rest of its
last line, and free text between blocks as a unit of its own. The units' texts joined, then
the file's trailer, give back the file byte for byte.

Each unit has an ``id`` (what it is in every version of the file: an entry's key, a
``@string``'s name, a preamble's rank, a comment's words or JabRef setting) and a ``content``
(what it says, layout left out: spaces and line breaks, value delimiters, field order).
Blocks come from the .bib tokenizer (``formats.bibtex.syntax``), so a file is read as the
converter reads it. A block the tokenizer cannot read (a broken entry) can be kept as an
opaque ``broken`` unit: its id is the entry's key when its head can be read, else the id of the
unit before it, and its content is its text. This module must never change text: it only cuts
and reads it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import NamedTuple

from refbridge.formats.bibtex.syntax import Block, parse_spans


class Unreadable(ValueError):
    """A file the .bib tokenizer cannot read whole (a broken block), with its line."""


class Unit(NamedTuple):
    """One block or run of free text. ``before``: the blank space before it; ``source``: the
    block as written; ``after``: the rest of its last line, line break included (a tuple:
    made by the ten thousand, so made cheaply)."""

    id: str
    kind: str
    before: str
    source: str
    after: str
    block: Block | None

    @property
    def text(self) -> str:
        return self.before + self.source + self.after

    @property
    def content(self) -> Hashable:
        """What the unit says, layout left out: equal for two versions that differ only in
        spaces, line breaks, value delimiters or field order."""
        if self.block is None:
            return ("text", normalised(self.source))
        return _content(self.block)

    @property
    def fields(self) -> dict[str, str]:
        """An entry's fields, name to value with layout left out (the first of a repeated
        name, as BibTeX reads it)."""
        found: dict[str, str] = {}
        for field in self.block.fields if self.block else ():
            found.setdefault(field.name, normalised(field.value))
        return found


@dataclass(frozen=True, slots=True)
class Library:
    """The units of a file in order, the blank space after the last, and what made a block
    unreadable (``line N: problem``) for each ``broken`` unit."""

    units: tuple[Unit, ...]
    trailer: str
    problems: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "".join(unit.text for unit in self.units) + self.trailer


def normalised(text: str) -> str:
    """``text`` with runs of spaces and line breaks as one space, none at the ends."""
    return " ".join(text.split())


def _content(block: Block) -> Hashable:
    if block.kind == "entry":
        fields: dict[str, str] = {}
        for field in block.fields:
            fields.setdefault(field.name, normalised(field.value))
        return ("entry", block.entry_type, block.key, frozenset(fields.items()))
    if block.kind == "string":
        return ("string", block.key, normalised(block.fields[0].value))
    return (block.kind, normalised(block.text))


def _line_end(text: str, offset: int, limit: int) -> int:
    newline = text.find("\n", offset, limit)
    return limit if newline == -1 else newline + 1


class _Ids:
    """Ids made unique in one file: a repeated one gets ``#2``, ``#3`` ..."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        count = self.seen.get(base, 0) + 1
        self.seen[base] = count
        return base if count == 1 else f"{base}#{count}"


def _block_id(block: Block, preambles: int) -> str:
    if block.kind == "entry":
        return "entry:" + block.key
    if block.kind == "string":
        return "string:" + block.key
    if block.kind == "preamble":
        return f"preamble:{preambles}"
    meta = _JABREF_META.match(block.text)
    return "comment:" + (meta.group() if meta else normalised(block.text))


def is_jabref_setting(unit: Unit) -> bool:
    """Whether ``unit`` is a JabRef setting (``@comment{jabref-meta: name: ...}``)."""
    return (unit.kind == "comment" and unit.block is not None
            and _JABREF_META.match(unit.block.text) is not None)


#: JabRef's settings in a comment (``jabref-meta: grouping:``): one block whatever its value.
_JABREF_META = re.compile(r"\s*jabref-meta:\s*[^:]+:")

#: Where a block can start: an ``@`` at the start of a line (as the tokenizer cuts a file).
_BLOCK_START = re.compile(r"\n[ \t]*@")

#: Blocks already read: by the text from one block start to the next and the ``@string``
#: definitions in force there, the blocks of that text (offsets in it) with their content.
SpanCache = dict[tuple[str, tuple[tuple[str, str], ...]], list[tuple[Block, int, int]]]


def _spans(text: str, cache: SpanCache) -> list[tuple[Block, int, int]]:
    """The blocks of ``text`` with their offsets and content: the text cut where blocks
    start, each piece read by the tokenizer once for all the versions of a file read with
    the same ``cache`` (most blocks of a file's versions are the same)."""
    starts = [0] + [match.start() + 1 for match in _BLOCK_START.finditer(text)]
    strings: dict[str, str] = {}
    defined: tuple[tuple[str, str], ...] = ()
    found: list[tuple[Block, int, int]] = []
    line = 1
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        piece = text[start:end]
        read = cache.get((piece, defined))
        if read is None:
            read = list(parse_spans(piece, strings, line))
            if all(block.kind != "error" for block, _, _ in read):
                cache[(piece, defined)] = read
        for block, block_start, block_end in read:
            if block.kind == "string":
                strings[block.key] = block.fields[0].value
                defined = tuple(strings.items())
            found.append((block, start + block_start, start + block_end))
        line += piece.count("\n")
    return found


def _broken_id(block: Block, units: list[Unit]) -> str:
    """A broken block's id: the entry's key when its head was read, else where it stands."""
    if block.key:
        return "entry:" + block.key
    return "broken:" + (units[-1].id if units else "")


def read_library(text: str, cache: SpanCache | None = None, *,
                 broken_as_text: bool = False) -> Library:
    """The units of .bib ``text``; raises ``Unreadable`` at the first broken block, unless
    ``broken_as_text``: then a broken block is a ``broken`` unit (and ``Unreadable`` is raised
    only when no block of the file can be read). ``cache``: shared by the reads of a file's
    versions, to read each block once."""
    spans = _spans(text, {} if cache is None else cache)
    problems = tuple(f"line {block.error_line}: {block.message}" for block, _, _ in spans
                     if block.kind == "error")
    if problems and (not broken_as_text
                     or all(block.kind == "error" for block, _, _ in spans)):
        raise Unreadable(problems[0])
    units: list[Unit] = []
    ids = _Ids()
    preambles = 0
    position = 0
    for index, (block, start, end) in enumerate(spans):
        following = spans[index + 1][1] if index + 1 < len(spans) else len(text)
        gap = text[position:start]
        words = gap.rstrip()
        cut = _line_end(gap, len(words), len(gap)) if words else 0
        if words:
            units.append(Unit(ids("text:" + normalised(words)), "text", "", gap[:cut], "",
                              None))
        if block.kind == "error":
            end = start + len(text[start:end].rstrip())
            unit_id, kind, read = _broken_id(block, units), "broken", None
        else:
            if block.kind == "preamble":
                preambles += 1
            unit_id, kind, read = _block_id(block, preambles), block.kind, block
        line_end = _line_end(text, end, following)
        units.append(Unit(ids(unit_id), kind, gap[cut:], text[start:end],
                          text[end:line_end], read))
        position = line_end
    return Library(tuple(units), text[position:], problems)
