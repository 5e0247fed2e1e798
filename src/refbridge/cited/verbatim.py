"""The cited entries of .bib libraries as the libraries wrote them, with what they need.

Each entry's text is copied byte for byte from its library, after every ``@preamble`` of the
libraries and the ``@string`` definitions the entries use (and those these definitions use),
in the libraries' order: the paper's .bib keeps the macros (``journal = jmlr``) and the layout
its author chose. Used when every entry to write was read from a .bib and no output format was
named; anything else goes through a writer. ``LibraryTexts`` keeps each .bib's text as the
pipeline's reader reads it, so a library is read once. This module must never re-encode an
entry, and never leave out a definition an entry's value uses.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from refbridge.formats.bibtex.syntax import Block, parse_spans, value_pieces
from refbridge.model import Record


class LibraryTexts(dict[str, str]):
    """The text of each .bib the pipeline reads, by the name its records' sources give: a
    ``pipeline.StreamTap`` (the reader reads a copy of what is kept)."""

    def __call__(self, reader: str, source: str, stream: TextIO) -> TextIO:
        if reader != "bibtex":
            return stream
        self[source] = text = stream.read()
        return io.StringIO(text)


@dataclass(slots=True)
class _Library:
    """What the libraries hold, as written: entries by (file name, line), definitions by
    macro name (the first one of a name wins, as in BibTeX), the preambles."""

    entries: dict[tuple[str, int], tuple[Block, str]] = field(default_factory=dict)
    definitions: dict[str, tuple[int, str, tuple[str, ...]]] = field(default_factory=dict)
    preambles: list[str] = field(default_factory=list)


def _macros(raw: str) -> Iterator[str]:
    """The macro names a raw value uses (``jmlr`` of ``jmlr # " 2020"``), lower-cased."""
    for piece in value_pieces(raw) or ():
        if piece and piece[0] not in '{"' and not piece.isdigit():
            yield piece.lower()


def _read(texts: Mapping[str, str]) -> _Library:
    library = _Library()
    for source, text in texts.items():
        for span in parse_spans(text, {}):
            block, written = span.block, text[span.start:span.end]
            if block.kind == "entry":
                library.entries.setdefault((source, block.line), (block, written))
            elif block.kind == "string":
                for definition in block.fields:
                    library.definitions.setdefault(definition.name.lower(), (
                        len(library.definitions), written, tuple(_macros(definition.raw))))
            elif block.kind == "preamble":
                library.preambles.append(written)
    return library


def _needed(blocks: Sequence[Block], library: _Library) -> list[str]:
    """The ``@string`` blocks the entries' values use, directly or through other
    definitions, in the libraries' order."""
    wanted = [name for block in blocks for f in block.fields for name in _macros(f.raw)]
    needed: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in needed or name not in library.definitions:
            continue  # month macros and undefined words: the styles' or nobody's
        needed.add(name)
        wanted.extend(library.definitions[name][2])
    chosen = sorted(library.definitions[name][:2] for name in needed)
    return list(dict.fromkeys(written for _, written in chosen))


def verbatim_bib(records: Sequence[Record], texts: Mapping[str, str]) -> str | None:
    """The .bib text of ``records`` as the libraries of ``texts`` (their texts by name, in
    order) wrote them, or None when one of them is no entry of a .bib among them."""
    library = _read(texts)
    chosen: list[tuple[Block, str]] = []
    for record in records:
        where = (record.source.file, record.source.line) if record.source else None
        if where is None or where not in library.entries:
            return None
        chosen.append(library.entries[where])
    blocks = [*library.preambles, *_needed([block for block, _ in chosen], library),
              *(written for _, written in chosen)]
    return "".join(f"{block}\n\n" for block in blocks)[:-1] if blocks else ""
