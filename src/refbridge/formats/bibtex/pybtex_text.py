"""pybtex's entries as .bib text, for refbridge's BibTeX reader to read.

pybtex keeps each field's value as the LaTeX it was written in, and its people as parsed
names. Its own BibTeX writer encodes the values as LaTeX once more (``H$_2$O`` becomes
``H$\\_2$O``, ``\\%`` becomes ``\\\\%``); here the writer writes them as they are. This module
must never interpret a value: reading the text is the BibTeX reader's job.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pybtex.database.output.bibtex import Writer


class _LatexAsItIs(Writer):  # type: ignore[misc]
    """pybtex's BibTeX writer without its LaTeX encoding of values that are LaTeX already."""

    def _encode(self, text: str) -> str:
        return text


@dataclass(frozen=True, slots=True)
class _Entries:
    """What pybtex's writer reads of a ``BibliographyData``."""

    entries: Mapping[str, Any] = field(default_factory=dict)
    preamble: str = ""


def pybtex_bib_text(entries: Iterable[tuple[str, Any]], preamble: str = "") -> str:
    """The .bib text of pybtex ``Entry`` objects (by key) and a ``@preamble``."""
    out = io.StringIO()
    _LatexAsItIs().write_stream(_Entries(dict(entries), preamble), out)
    return out.getvalue()
