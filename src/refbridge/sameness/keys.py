"""Identity keys: the values by which a work is found again, each equal for two records of one
work. ``identities`` are the key lock's (the DOI, the arXiv id, the folded title, year and
first author); ``signature`` is ``refbridge check``'s (title, year and first author as letters
and digits only); ``work_identity`` and ``bib_identity`` are the merge driver's and ``refbridge
diff``'s for a .bib entry's raw fields (its DOI, else arXiv id, else ISBN, else type, title,
year and first author); ``LibraryIndex`` finds a Zotero library's record of a work by its
identifiers, else by its signature. These keys only say "equal"; ``works.same_work`` weighs
near matches. This module must never change a record nor guess: a record without a title or
identifier has no key.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from refbridge.identifiers import ARXIV_DOI_PREFIX, ARXIV_VERSION, arxiv_id_from_url, doi_of
from refbridge.model import Record
from refbridge.sameness.ids import arxiv_id, identifiers
from refbridge.sameness.text import fold

#: Letters and digits of a title or a name (LaTeX commands and braces fall away with the rest).
_WORD = re.compile(r"[^\W_]+")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_ISBN_DIGITS = re.compile(r"[^0-9Xx]")
_YEAR = re.compile(r"\d{4}")
#: The .bib fields an arXiv id is written in, beside an ``eprint`` of type arXiv.
_ARXIV_TYPES = frozenset({"arxiv"})


def _doi_of(record: Record) -> str | None:
    doi = doi_of(record.get("DOI") or "")
    return doi.lower() if doi else None


def identities(record: Record) -> tuple[str, ...]:
    """Every identity of the work ``record`` records, as ``kind:value`` (the key lock's)."""
    found = []
    doi = _doi_of(record)
    arxiv = arxiv_id(record, read_doi=_doi_of, venue=False)
    if doi and not doi.startswith(ARXIV_DOI_PREFIX):
        found.append(f"doi:{doi}")
    if arxiv:
        found.append(f"arxiv:{arxiv}")
    title = fold(record.title or "")
    if title:
        people = record.names.get("author") or record.names.get("editor") or ()
        first = fold(people[0].family or people[0].literal or people[0].given or "") \
            if people else ""
        found.append(f"work:{title}|{record.year or ''}|{first}")
    return tuple(found)


def _letters(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).casefold()
    return "".join(c for c in text if c.isalnum())


def signature(record: Record) -> tuple[str, int | None, str] | None:
    """The normalised title, year and first author's family name (editor's when there is no
    author) that tell one work from another; None without a title."""
    title = record.get("title")
    if title is None or not _letters(title):
        return None
    issued = record.dates.get("issued")
    people = record.names.get("author") or record.names.get("editor") or ()
    first = people[0] if people else None
    family = _letters(first.family or first.literal or first.given or "") if first else ""
    return _letters(title), issued.year if issued else None, family


def _words(text: str) -> str:
    return " ".join(_WORD.findall(_LATEX_COMMAND.sub(" ", text).casefold()))


def _first_family(authors: str) -> str:
    first = re.split(r"\s+and\s+", authors.strip(), maxsplit=1)[0]
    family = first.split(",")[0] if "," in first else (first.split() or [""])[-1]
    return _words(family)


def _bib_arxiv(fields: Mapping[str, str]) -> str | None:
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
                         doi=fields.get("doi", ""), arxiv=_bib_arxiv(fields) or "",
                         isbn=fields.get("isbn", ""))


@dataclass(slots=True)
class LibraryIndex:
    """The records of a library, findable by identifier and by title, year and first author;
    each filed under a handle (the item's key). A push looks every record up here before it
    saves anything, so pushing the same records twice adds nothing the second time. Title,
    year and first author decide only between works that do not have different identifiers
    of the same kind."""

    by_identifier: dict[tuple[str, str], str] = field(default_factory=dict)
    by_signature: dict[tuple[str, int | None, str], list[str]] = field(default_factory=dict)
    identifiers_of: dict[str, dict[str, set[str]]] = field(default_factory=dict)

    def add(self, record: Record, handle: str) -> None:
        found = identifiers(record)
        self.identifiers_of[handle] = found
        for kind, values in found.items():
            for value in values:
                self.by_identifier.setdefault((kind, value), handle)
        if (title := signature(record)) is not None:
            self.by_signature.setdefault(title, []).append(handle)

    def add_all(self, pairs: Iterable[tuple[Record, str]]) -> None:
        for record, handle in pairs:
            self.add(record, handle)

    def find(self, record: Record) -> str | None:
        """The handle of the library's record that is the same work as ``record``, or None."""
        found = identifiers(record)
        for kind, values in found.items():
            for value in sorted(values):
                if (kind, value) in self.by_identifier:
                    return self.by_identifier[(kind, value)]
        title = signature(record)
        for handle in self.by_signature.get(title, ()) if title is not None else ():
            theirs = self.identifiers_of[handle]
            if not any(kind in theirs and not (values & theirs[kind])
                       for kind, values in found.items()):
                return handle
        return None
