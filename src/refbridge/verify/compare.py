"""Which of an entry's fields a service's record of its work contradicts: title, authors,
year, venue, pages (and a DOI no registry knows, beside the work's own).

Values are compared as a careful reader would: titles by ``matching``'s similarity once case,
accents and TeX markup are set aside; authors by ``sameness.people.same_person`` (initials match given
names); the year against every year the service states (an arXiv preprint's versions span
several); venues equal once normalized, or one the abbreviation of the other (``Proc. VLDB
Endow.``); pages once dashes are set aside. A field only one side has is no contradiction.
This module must never make a request or change a record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from refbridge.model import Record
from refbridge.sameness.people import same_person
from refbridge.sameness.text import normalize_title
from refbridge.sameness.works import title_similarity
from refbridge.services.found import Found
from refbridge.services.matching import record_years

#: Title similarity below which the titles differ.
SAME_TITLE = 0.90
#: Words an abbreviated venue leaves out.
_VENUE_STOP_WORDS = frozenset({"of", "the", "on", "and", "in", "for", "a", "an"})
_PAGE_DASHES = re.compile(r"\s*[-\u2010-\u2015]+\s*")


@dataclass(frozen=True, slots=True)
class Difference:
    """One field the entry and a service's record disagree on."""

    field: str  #: "title", "authors", "year", "venue", "pages", "DOI"
    ours: str
    theirs: str
    service: str

    def __str__(self) -> str:
        return f"{self.field}: the entry has {self.ours!r}, {self.service} has {self.theirs!r}"


def _abbreviates(short: list[str], long: list[str]) -> bool:
    """Whether each word of ``short`` begins the next remaining word of ``long`` in order."""
    words = iter(w for w in long if w not in _VENUE_STOP_WORDS)
    return bool(short) and all(any(w.startswith(s) for w in words)
                               for s in short if s not in _VENUE_STOP_WORDS)


def same_venue(a: str, b: str) -> bool:
    left, right = normalize_title(a).split(), normalize_title(b).split()
    if left == right:
        return True
    short, long = sorted((left, right), key=len)
    return _abbreviates(short, long) or title_similarity(a, b) >= SAME_TITLE


def same_pages(a: str, b: str) -> bool:
    return _PAGE_DASHES.sub("-", a.strip()) == _PAGE_DASHES.sub("-", b.strip())


def _authors(record: Record) -> str:
    return "; ".join(name.display() for name in record.authors)


def same_authors(ours: Record, theirs: Record) -> bool:
    """Every author of each list is in the other (in any order), and the counts agree."""
    mine, found = ours.authors, theirs.authors
    return len(mine) == len(found) and all(
        any(same_person(a, b) for b in found) for a in mine)


def differences(record: Record, found: Found, service: str) -> list[Difference]:
    """The fields of ``record`` that ``found`` (from ``service``) contradicts."""
    theirs = found.record
    result: list[Difference] = []
    if record.title and theirs.title and \
            title_similarity(record.title, theirs.title) < SAME_TITLE:
        result.append(Difference("title", record.title, theirs.title, service))
    if record.authors and theirs.authors and "author" not in record.incomplete_names \
            and not same_authors(record, theirs):
        result.append(Difference("authors", _authors(record), _authors(theirs), service))
    year, their_years = record.year, record_years(theirs)
    if year is not None and their_years and not min(their_years) <= year <= max(their_years):
        result.append(Difference("year", str(year),
                                 ", ".join(str(y) for y in sorted(their_years)), service))
    for variable, name, same in (("container-title", "venue", same_venue),
                                 ("page", "pages", same_pages)):
        mine, other = record.get(variable), theirs.get(variable)
        if mine and other and not same(mine, other):
            result.append(Difference(name, mine, other, service))
    return result
