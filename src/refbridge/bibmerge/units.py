"""A .bib file cut into the units a three-way merge and a diff work on: each block (entry,
``@string``, ``@preamble``, ``@comment``) with the blank space before it and the rest of its
last line, and free text between blocks as a unit of its own. The units' texts joined, then
the file's trailer, give back the file byte for byte.

Each unit has an ``id`` (what it is in every version of the file: an entry's key, a
``@string``'s name, a preamble's rank, a comment's words) and a ``content`` (what it says,
layout left out: spaces and line breaks, value delimiters, field order). Blocks come from the
.bib tokenizer (``formats.bibtex.syntax``), so a file is read as the converter reads it. This
module must never change text: it only cuts and reads it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from refbridge.formats.bibtex.syntax import Block, parse_spans


class Unreadable(ValueError):
    """A file the .bib tokenizer cannot read whole (a broken block), with its line."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One block or run of free text. ``before``: the blank space before it; ``source``: the
    block as written; ``after``: the rest of its last line, line break included."""

    id: str
    kind: str
    before: str
    source: str
    after: str
    block: Block | None
    content: Hashable

    @property
    def text(self) -> str:
        return self.before + self.source + self.after

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
    """The units of a file in order, and the blank space after the last."""

    units: tuple[Unit, ...]
    trailer: str

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
    return "comment:" + normalised(block.text)


def read_library(text: str) -> Library:
    """The units of .bib ``text``; raises ``Unreadable`` at the first broken block."""
    spans = list(parse_spans(text, {}))
    for block, _, _ in spans:
        if block.kind == "error":
            raise Unreadable(f"line {block.error_line}: {block.message}")
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
                              None, ("text", normalised(words))))
        line_end = _line_end(text, end, following)
        if block.kind == "preamble":
            preambles += 1
        units.append(Unit(ids(_block_id(block, preambles)), block.kind, gap[cut:],
                          text[start:end], text[end:line_end], block, _content(block)))
        position = line_end
    return Library(tuple(units), text[position:])
