"""What documents cite: the citations and the libraries they name, as the scanners give them.

A document is read by the scanner of its kind (``aux``, ``bcf``, ``latex``, ``markdown``,
``typst``, ``rst``; which reads which file is ``cited.documents``'s). Every scanner gives a ``Scan``: each citation with the
file and line that makes it, whether everything is cited (``\\nocite{*}``, ``@*``), and the
libraries the document names (``\\bibdata``, biber's data sources, ``\\bibliography``,
``\\addbibresource``, a Markdown ``bibliography:``, Typst's ``#bibliography``, Sphinx's
``bibtex_bibfiles``). This module must never read a library.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbridge.errors import Diagnostics
from refbridge.textio import open_input

BIBTEX, BIBLATEX = "bibtex", "biblatex"


@dataclass(frozen=True, slots=True)
class Citation:
    """One key cited at ``file``:``line``; ``cross_reference``: a Markdown ``@fig-x`` that is a
    citation only when a library holds the key (else a Quarto or pandoc-crossref label)."""

    key: str
    file: str
    line: int
    cross_reference: bool = False


@dataclass(frozen=True, slots=True)
class NamedLibrary:
    """A library a document names (``path`` as written there, the file ending added)."""

    path: str
    file: str
    line: int


@dataclass(slots=True)
class Scan:
    """What documents cite, in document order. ``everything``: where ``\\nocite{*}`` or
    ``@*`` cites every entry (None: nowhere). ``dialect``: the .bib dialect the document's
    processor reads (``bibtex``, ``biblatex``), when it says. ``style``: the CSL style the
    document names (a Markdown ``csl:``), as written."""

    citations: list[Citation] = field(default_factory=list)
    everything: Citation | None = None
    libraries: list[NamedLibrary] = field(default_factory=list)
    dialects: set[str] = field(default_factory=set)
    style: NamedLibrary | None = None

    def cite(self, key: str, file: str, line: int, cross_reference: bool = False) -> None:
        """Note a cited key (``*``: every entry)."""
        citation = Citation(key, file, line, cross_reference)
        if key == "*":
            self.everything = self.everything or citation
        elif key:
            self.citations.append(citation)

    def name_library(self, path: str, file: str, line: int, ending: str = "") -> None:
        """Note a library the document names; ``ending`` is added when the name has none
        (``\\bibliography{refs}`` means ``refs.bib``)."""
        path = path.strip()
        if path and ending and not path.lower().endswith(ending):
            path += ending
        if path:
            self.libraries.append(NamedLibrary(path, file, line))

    def extend(self, other: Scan) -> None:
        self.citations += other.citations
        self.everything = self.everything or other.everything
        self.libraries += other.libraries
        self.dialects |= other.dialects
        self.style = self.style or other.style


def read_document(path: str, diagnostics: Diagnostics, encoding: str | None = None) -> str:
    """The text of a document (decoded as inputs are: BOM, UTF-8, else cp1252 with a warning)."""
    with open_input(path, diagnostics, encoding) as (stream, _):
        return stream.read()


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1


def split_keys(text: str) -> list[str]:
    """The keys of a comma-separated key list (``\\cite{a, b}``), spaces around them dropped."""
    return [key.strip() for key in text.split(",") if key.strip()]
