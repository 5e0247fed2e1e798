"""A .bib file as the formatter sees it: its blocks in order, each with the text before it
(comments: BibTeX skips whatever stands between blocks), and the text after the last.

Blocks come from the .bib tokenizer (``formats.bibtex.syntax.parse_spans``), so the formatter
reads a file exactly as the converter does. A broken block makes the file unformattable: its
problems are returned, each with its line, and nothing is to be written. This module must
never change text: it only cuts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from refbridge.errors import Diagnostic
from refbridge.formats.bibtex.syntax import Block, parse_spans


@dataclass(frozen=True, slots=True)
class Unit:
    """One block: ``number`` is its place in the file (0 for the first), ``before`` the
    text between the previous block (or the file's start) and this one, ``source`` the block
    as written, ``tail`` what follows it on its last line."""

    number: int
    block: Block
    source: str
    before: str
    tail: str = ""

    @property
    def key(self) -> str:
        return self.block.key

    @property
    def is_entry(self) -> bool:
        return self.block.kind == "entry"


@dataclass(frozen=True, slots=True)
class Document:
    """The blocks of a file, and the text after the last one (after its line)."""

    units: tuple[Unit, ...]
    after: str

    @property
    def entries(self) -> list[Unit]:
        return [unit for unit in self.units if unit.is_entry]


def _line_end(text: str, offset: int) -> int:
    """The offset just after the line break that ends the line ``offset`` is on."""
    newline = text.find("\n", offset)
    return len(text) if newline == -1 else newline + 1


def read_document(text: str, source: str) -> tuple[Document, list[Diagnostic]]:
    """The document of ``text`` (read from ``source``) and the problems of its broken
    blocks."""
    spans = list(parse_spans(text, {}))
    problems = [Diagnostic("error", f"broken entry: {block.message}", source, block.error_line)
                for block, _, _ in spans if block.kind == "error"]
    units: list[Unit] = []
    before_start = 0
    for index, (block, start, end) in enumerate(spans):
        following = spans[index + 1][1] if index + 1 < len(spans) else len(text)
        line_end = min(_line_end(text, end), following)
        units.append(Unit(index, block, text[start:end], text[before_start:start],
                          text[end:line_end].strip()))
        before_start = line_end
    return Document(tuple(units), text[before_start:]), problems
