"""A .bib file as the formatter sees it: its blocks in order, each with the text before it
(comments: BibTeX skips whatever stands between blocks), and the text after the last.

Blocks come from the .bib tokenizer (``formats.bibtex.syntax.parse_spans``), so the formatter
reads a file exactly as the converter does. A broken block makes the file unformattable: its
problems are returned, each with its line, and nothing is to be written. A large file is read
a chunk at a time (``StreamedDocument``), cut where a line starts a block, as the converter
reads it. This module must never change text: it only cuts it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
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
    streamed = StreamedDocument((text,), source)
    units = tuple(streamed)
    return Document(units, streamed.after), streamed.problems


#: Where a block starts on a line of its own: the text is cut into chunks there.
_BLOCK_LINE = re.compile(r"\n[ \t]*@")


def _chunks(texts: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """``texts`` (a file's text in pieces) cut into chunks that each end just before the
    ``@`` of a line that starts a block, and whether each is the last; the blocks read from
    each chunk are those read from the whole text there."""
    pending = ""
    for piece in texts:
        new = len(pending)
        pending += piece
        cut = None  # the last cut: a match may start before the piece (``\n  `` | ``@``)
        for cut in _BLOCK_LINE.finditer(pending, max(pending.rfind("\n", 0, new + 1), 0)):
            pass
        if cut is not None and cut.start() > 0:
            yield pending[:cut.end() - 1], False  # up to the ``@``: a broken block ends there
            pending = pending[cut.end() - 1:]
    yield pending, True


class StreamedDocument:
    """The blocks of a file read a chunk at a time from ``texts`` (its text in pieces, in
    order): iterating gives its units; then ``after`` is the text after the last block and
    ``problems`` those of its broken blocks. Only a chunk's text is held at a time."""

    def __init__(self, texts: Iterable[str], source: str) -> None:
        self._texts = texts
        self._source = source
        self.after = ""
        self.problems: list[Diagnostic] = []

    def __iter__(self) -> Iterator[Unit]:
        strings: dict[str, str] = {}
        line, number, before = 1, 0, ""
        for text, last in _chunks(self._texts):
            spans = parse_spans(text, strings, line)  # one block at a time, and the next
            span, before_start = next(spans, None), 0
            while span is not None:
                block, start, end = span
                if block.kind == "error":
                    self.problems.append(Diagnostic("error", f"broken entry: {block.message}",
                                                    self._source, block.error_line))
                span = next(spans, None)
                line_end = min(_line_end(text, end), span.start if span else len(text))
                yield Unit(number, block, text[start:end], before + text[before_start:start],
                           text[end:line_end].strip())
                number, before, before_start = number + 1, "", line_end
            before += text[before_start:]
            line += text.count("\n")
            if last:
                self.after = before
