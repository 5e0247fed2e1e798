"""Citations of documents rewritten to the keys that replace them (``dedupe --rewrite``).

LaTeX and Markdown documents are read by ``refbridge.cited``'s scanners, which say which key
each citing command cites and on which line (in the document or a file it brings in with
``\\input``); each such key is then found in its place from that line on and replaced, and
nothing else of the text changes (a key in a comment, a code span or plain prose stays). Typst
documents have no scanner there: their citations are ``@key`` and ``#cite(<key>)``, comments
left out. Every file is written atomically, its line endings kept. This module must never
change text that is not a cited key, nor write a file in which it changed nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from refbridge.cited.citations import Citation
from refbridge.cited.documents import DOCUMENT_KINDS, scan_documents
from refbridge.cited.latex import blank_untypeset
from refbridge.cited.markdown import CITATION
from refbridge.errors import Diagnostics, ParseError
from refbridge.textio import atomic_output

#: File endings of Typst documents.
TYPST_ENDINGS: tuple[str, ...] = (".typ",)
#: Typst's ``@key`` (a label's characters, not ending in ``.`` or ``:``) and ``cite(<key>)``.
_TYPST_CITATION = re.compile(r"(?<![\w@])@(?P<key>\w(?:[\w\-:.]*\w)?)"
                             r"|\bcite\(\s*<(?P<label>[\w\-:.]+)>")
_TYPST_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Rewritten:
    """A document whose citations were rewritten: how many keys were replaced."""

    file: str
    replaced: int


def _blanked(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            return stream.read()
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 (byte {exc.start}); cannot rewrite its citations",
                         path) from None
    except OSError as exc:
        raise ParseError(f"cannot read: {exc.strerror}", path) from None


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer(r"\n", text)]


def _latex_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    match = re.compile(r"(?<=[{,])\s*(" + re.escape(key) + r")\s*(?=[,}])").search(
        searchable, start)
    return match.span(1) if match else None


def _markdown_span(searchable: str, key: str, start: int) -> tuple[int, int] | None:
    for match in CITATION.finditer(searchable, start):
        group = "braced" if match.group("braced") else "key"
        if match.group(group).strip() == key:
            return match.span(group)
    return None


def _scanned_spans(path: str, text: str, citations: Sequence[Citation],
                   renames: Mapping[str, str], diagnostics: Diagnostics
                   ) -> Iterator[tuple[int, int, str]]:
    """Where the renamed keys of ``citations`` (all in ``path``) are in ``text``."""
    latex = DOCUMENT_KINDS.get(os.path.splitext(path)[1].lower()) == "latex"
    searchable = blank_untypeset(text) if latex else text
    find = _latex_span if latex else _markdown_span
    starts = _line_starts(text)
    cursor = 0
    for citation in citations:
        if citation.key not in renames:
            continue
        span = find(searchable, citation.key, max(cursor, starts[citation.line - 1]))
        if span is None:
            diagnostics.warning(f"cannot find the citation of {citation.key!r} to rewrite it",
                                path, citation.line)
            continue
        cursor = span[1]
        yield span[0], span[1], renames[citation.key]


def _typst_spans(text: str, renames: Mapping[str, str]) -> Iterator[tuple[int, int, str]]:
    searchable = _TYPST_COMMENT.sub(_blanked, text)
    for match in _TYPST_CITATION.finditer(searchable):
        group = "key" if match.group("key") else "label"
        if match.group(group) in renames:
            yield match.start(group), match.end(group), renames[match.group(group)]


def _replaced(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    pieces, position = [], 0
    for start, end, key in sorted(spans):
        pieces += [text[position:start], key]
        position = end
    return "".join(pieces) + text[position:]


def plan_rewrites(documents: Sequence[str], renames: Mapping[str, str],
                  diagnostics: Diagnostics) -> list[tuple[Rewritten, str]]:
    """Each document (and file a LaTeX document brings in) whose citations of the keys of
    ``renames`` change, with its new text; nothing is written."""
    by_file: dict[str, list[Citation]] = {}
    typst = [path for path in documents if path.lower().endswith(TYPST_ENDINGS)]
    scanned = [path for path in documents if path not in typst]
    for citation in scan_documents(scanned, diagnostics).citations if scanned else ():
        by_file.setdefault(citation.file, []).append(citation)
    planned: list[tuple[Rewritten, str]] = []
    for path in [*by_file, *typst]:
        text = _read(path)
        spans = list(_typst_spans(text, renames)) if path in typst else \
            list(_scanned_spans(path, text, by_file[path], renames, diagnostics))
        if spans:
            planned.append((Rewritten(path, len(spans)), _replaced(text, spans)))
    return planned


def write_rewrites(planned: Sequence[tuple[Rewritten, str]]) -> list[Rewritten]:
    """Write the new texts of ``plan_rewrites``, each file atomically."""
    for rewritten, text in planned:
        with atomic_output(rewritten.file) as out:
            out.write(text)
    return [rewritten for rewritten, _ in planned]
