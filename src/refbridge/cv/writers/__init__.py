"""Writers of CV documents: one module per output, each with ``render(document, fragment)``.

The table below says, for every ``--to`` value, which module writes it and in which of the
style engine's outputs the entries must be formatted (DOCX reads the HTML entries' inline
markup). Writer modules are imported only when used. This package must never format entries.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Protocol

from refbridge.cv.document import CvDocument
from refbridge.cv.select import CvOptionError


class CvRenderer(Protocol):
    def __call__(self, document: CvDocument, fragment: bool) -> str | bytes: ...


@dataclass(frozen=True, slots=True)
class CvWriter:
    module: str
    entry_output: str  #: the style output the entries are formatted in
    binary: bool = False
    extension: str = ""

    def render(self, document: CvDocument, fragment: bool = False) -> str | bytes:
        renderer: CvRenderer = importlib.import_module(self.module).render
        return renderer(document, fragment)


WRITERS: dict[str, CvWriter] = {
    "markdown": CvWriter("refbridge.cv.writers.markdown", "markdown", extension=".md"),
    "html": CvWriter("refbridge.cv.writers.html", "html", extension=".html"),
    "html-interactive": CvWriter("refbridge.cv.writers.interactive", "html",
                                 extension=".html"),
    "latex": CvWriter("refbridge.cv.writers.latex", "latex", extension=".tex"),
    "text": CvWriter("refbridge.cv.writers.text", "text", extension=".txt"),
    "docx": CvWriter("refbridge.cv.writers.docx", "html", binary=True, extension=".docx"),
}


def get_cv_writer(name: str) -> CvWriter:
    try:
        return WRITERS[name]
    except KeyError:
        raise CvOptionError(f"unknown CV output {name!r} (choose from "
                             f"{', '.join(WRITERS)})") from None
