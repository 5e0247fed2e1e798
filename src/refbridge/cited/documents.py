"""Which kind of document a file holds, told by its file ending (``DOCUMENT_KINDS``), and what
the documents cite, each read by the scanner of its kind (``aux``, ``bcf``, ``latex``,
``markdown``, ``typst``, ``rst``); a source document's text not yet saved (an editor's) is read
by ``scan_text``. This module must never read a library.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from refbridge.cited import aux, bcf, latex, markdown, rst, typst
from refbridge.cited.citations import Scan
from refbridge.errors import Diagnostics, ParseError

Scanner = Callable[[str, Diagnostics, "str | None"], Scan]
TextScanner = Callable[[str, str, Diagnostics], Scan]

#: Kind of document -> the scanner that reads it.
SCANNERS: dict[str, Scanner] = {
    "aux": aux.scan, "bcf": bcf.scan, "latex": latex.scan, "markdown": markdown.scan,
    "typst": typst.scan, "rst": rst.scan}
#: Kind of source document -> the scanner that reads its text (``scan_text``).
TEXT_SCANNERS: dict[str, TextScanner] = {
    "latex": latex.scan_text, "markdown": markdown.scan_text, "typst": typst.scan_text,
    "rst": rst.scan_text}

#: File ending -> the kind of document it holds.
DOCUMENT_KINDS: dict[str, str] = {
    ".aux": "aux", ".bcf": "bcf", ".tex": "latex", ".ltx": "latex", ".latex": "latex",
    ".md": "markdown", ".markdown": "markdown", ".rmd": "markdown", ".qmd": "markdown",
    ".typ": "typst", ".rst": "rst",
}
#: The kinds of source documents, whose text ``scan_text`` reads.
SOURCE_KINDS: frozenset[str] = frozenset(TEXT_SCANNERS)


def document_kind(path: str) -> str:
    """The kind of the document at ``path``, by its file ending."""
    kind = DOCUMENT_KINDS.get(os.path.splitext(path)[1].lower())
    if kind is None:
        endings = ", ".join(DOCUMENT_KINDS)
        raise ParseError(f"cannot tell what kind of document this is by its name; a document "
                         f"ends in one of {endings}", path)
    return kind


def scan_documents(paths: Iterable[str], diagnostics: Diagnostics,
                   encoding: str | None = None) -> Scan:
    """What the documents at ``paths`` cite, in the order given."""
    scan = Scan()
    for path in paths:
        scan.extend(SCANNERS[document_kind(path)](path, diagnostics, encoding))
    return scan


def scan_text(path: str, text: str, diagnostics: Diagnostics) -> Scan:
    """What the source document ``path`` cites when it holds ``text`` (an editor's unsaved
    text; a LaTeX document's included files are not read)."""
    return TEXT_SCANNERS[document_kind(path)](text, path, diagnostics)
