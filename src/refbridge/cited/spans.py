"""Where in a source document's text each of its citations' keys is written.

The scanners say which key is cited on which line; this finds each such key in its place from
that line on, in the text as the scanner read it (LaTeX: what TeX typesets; Markdown: pandoc's
citation syntax; Typst: ``@key`` and ``cite(<key>)`` outside comments and raw text;
reStructuredText: the keys of sphinxcontrib-bibtex's roles), so that a key can be shown,
renamed or replaced without touching anything else. This module must never change a text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from refbridge.cited.citations import Citation
from refbridge.cited.documents import document_kind
from refbridge.cited.latex import blank_untypeset
from refbridge.cited.markdown import CITATION as MARKDOWN_CITATION
from refbridge.cited.rst import CITATION as RST_CITATION
from refbridge.cited.typst import blank_unread
from refbridge.errors import Diagnostics

#: A key in a role's key list (notes blanked out), and a note.
_RST_KEY = re.compile(r"[^\s,]+")
_RST_NOTE = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True, slots=True)
class Span:
    """A cited key written at ``start:end`` (offsets into the document's text)."""

    start: int
    end: int
    key: str


def _latex_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    match = re.compile(r"(?<=[{,])\s*(" + re.escape(key) + r")\s*(?=[,}])").search(
        searchable, start)
    return match.span(1) if match else None


def _markdown_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    for match in MARKDOWN_CITATION.finditer(searchable, start):
        group = "braced" if match.group("braced") else "key"
        if match.group(group).strip() == key:
            return match.span(group)
    return None


def _typst_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    pattern = re.compile(r"(?<![\w@])@(" + re.escape(key) + r")(?![\w\-]|[:.]\w)"
                         r"|\bcite\(\s*<(" + re.escape(key) + r")>")
    match = pattern.search(searchable, start)
    if match is None:
        return None
    return match.span(1) if match.group(1) is not None else match.span(2)


@lru_cache(maxsize=4)
def _rst_keys(searchable: str) -> list[tuple[int, int, str]]:
    """Every key of every citing role in ``searchable``, in order."""
    found = []
    for match in RST_CITATION.finditer(searchable):
        offset = match.start("keys")
        for key in _RST_KEY.finditer(_RST_NOTE.sub(lambda m: " " * len(m.group()),
                                                   match.group("keys"))):
            found.append((offset + key.start(), offset + key.end(), key.group()))
    return found


def _rst_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    return next(((begin, end) for begin, end, written in _rst_keys(searchable)
                 if begin >= start and written == key), None)


_Finder = Callable[[str, str, int], "tuple[int, int] | None"]
#: Document kind -> the text its citations are searched in, and how a key is found there.
_FINDERS: dict[str, tuple[Callable[[str], str], _Finder]] = {
    "latex": (blank_untypeset, _latex_span),
    "markdown": (lambda text: text, _markdown_span),
    "typst": (blank_unread, _typst_span),
    "rst": (lambda text: text, _rst_span),
}


def line_starts(text: str) -> list[int]:
    """The offset of each line's start in ``text`` (line 1 first)."""
    return [0] + [match.end() for match in re.finditer(r"\n", text)]


def citation_spans(path: str, text: str, citations: Sequence[Citation],
                   diagnostics: Diagnostics | None = None) -> Iterator[Span]:
    """Where each of ``citations`` (those of ``path``, in the scanner's order) is in ``text``;
    one not found is reported to ``diagnostics``."""
    prepare, find = _FINDERS[document_kind(path)]
    searchable = prepare(text)
    starts = line_starts(text)
    cursor = 0
    for citation in citations:
        begin = starts[min(citation.line, len(starts)) - 1]
        span = find(searchable, citation.key, max(cursor, begin))
        if span is None:
            if diagnostics is not None:
                diagnostics.warning(f"cannot find the citation of {citation.key!r}", path,
                                    citation.line)
            continue
        cursor = span[1]
        yield Span(span[0], span[1], citation.key)
