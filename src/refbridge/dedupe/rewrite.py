"""Citations of documents rewritten to the keys that replace them (``dedupe --rewrite``).

LaTeX, Markdown, Typst and reStructuredText documents are read by ``refbridge.cited``'s
scanners, which say which key each citing command cites and on which line (in the document or
a file it brings in with ``\\input``); each such key is then found in its place from that line
on (``refbridge.cited.spans``) and replaced, and nothing else of the text changes (a key in a
comment, a code span or plain prose stays). Every file is written atomically, its line
endings kept. This module must never change text that is not a cited key, nor write a file in which it changed nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from refbridge.cited.citations import Citation
from refbridge.cited.documents import scan_documents
from refbridge.cited.spans import citation_spans
from refbridge.errors import Diagnostics, ParseError
from refbridge.textio import atomic_output


@dataclass(frozen=True, slots=True)
class Rewritten:
    """A document whose citations were rewritten: how many keys were replaced."""

    file: str
    replaced: int


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            return stream.read()
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 (byte {exc.start}); cannot rewrite its citations",
                         path) from None
    except OSError as exc:
        raise ParseError(f"cannot read: {exc.strerror}", path) from None


def _scanned_spans(path: str, text: str, citations: Sequence[Citation],
                   renames: Mapping[str, str], diagnostics: Diagnostics
                   ) -> Iterator[tuple[int, int, str]]:
    """Where the renamed keys of ``citations`` (all in ``path``) are in ``text``."""
    renamed = [citation for citation in citations if citation.key in renames]
    for span in citation_spans(path, text, renamed, diagnostics):
        yield span.start, span.end, renames[span.key]


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
    for citation in scan_documents(documents, diagnostics).citations:
        by_file.setdefault(citation.file, []).append(citation)
    planned: list[tuple[Rewritten, str]] = []
    for path, citations in by_file.items():
        text = _read(path)
        spans = list(_scanned_spans(path, text, citations, renames, diagnostics))
        if spans:
            planned.append((Rewritten(path, len(spans)), _replaced(text, spans)))
    return planned


def write_rewrites(planned: Sequence[tuple[Rewritten, str]]) -> list[Rewritten]:
    """Write the new texts of ``plan_rewrites``, each file atomically."""
    for rewritten, text in planned:
        with atomic_output(rewritten.file) as out:
            out.write(text)
    return [rewritten for rewritten, _ in planned]
