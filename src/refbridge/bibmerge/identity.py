"""What work an entry describes, whatever its key: its DOI, else its arXiv id, else its ISBN,
else its type, title, year and first author's family name, each normalised. The merge
driver follows an entry renamed on one side by it, and ``refbridge diff`` tells a renamed
entry from one removed and one added.

It is deliberately small and separate from ``merge``'s duplicate finding (which weighs near
matches): here two entries are the same work only when these values are equal. This module
must never guess: an entry without a title or identifier has no identity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from refbridge.identifiers import ARXIV_VERSION, arxiv_id_from_url, doi_of

#: Letters and digits of a title or a name (LaTeX commands and braces fall away with the rest).
_WORD = re.compile(r"[^\W_]+")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_ISBN_DIGITS = re.compile(r"[^0-9Xx]")
_YEAR = re.compile(r"\d{4}")
#: The .bib fields an arXiv id is written in, beside an ``eprint`` of type arXiv.
_ARXIV_TYPES = frozenset({"arxiv"})


def _words(text: str) -> str:
    return " ".join(_WORD.findall(_LATEX_COMMAND.sub(" ", text).casefold()))


def _first_family(authors: str) -> str:
    first = re.split(r"\s+and\s+", authors.strip(), maxsplit=1)[0]
    family = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    return _words(family)


def _arxiv(fields: Mapping[str, str]) -> str | None:
    kind = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = fields.get("eprint", "").strip()
    if eprint and kind in _ARXIV_TYPES:
        return ARXIV_VERSION.sub("", eprint.lower().removeprefix("arxiv:"))
    for name in ("url", "eprint"):
        found = arxiv_id_from_url(fields.get(name, ""))
        if found:
            return found
    return None


def work_identity(kind: str, title: str, year: str, first_author: str, *, doi: str = "",
                  arxiv: str = "", isbn: str = "") -> str | None:
    """The identity of a work from its values (any may be empty), or None."""
    found_doi = doi_of(doi) if doi else None
    if found_doi:
        return "doi:" + found_doi.lower()
    if arxiv:
        return "arxiv:" + ARXIV_VERSION.sub("", arxiv.strip().lower())
    digits = _ISBN_DIGITS.sub("", isbn).upper()
    if len(digits) in (10, 13):
        return "isbn:" + digits
    words = _words(title)
    if not words:
        return None
    return f"work:{kind.lower()}|{words}|{year}|{first_author}"


def bib_identity(entry_type: str, fields: Mapping[str, str]) -> str | None:
    """The identity of a .bib entry from its fields (lower-case names, resolved values)."""
    year = fields.get("year") or fields.get("date", "")
    found_year = _YEAR.search(year)
    return work_identity(entry_type, fields.get("title", ""),
                         found_year.group() if found_year else "",
                         _first_family(fields.get("author") or fields.get("editor", "")),
                         doi=fields.get("doi", ""), arxiv=_arxiv(fields) or "",
                         isbn=fields.get("isbn", ""))
