"""What a site generator is given of each work, and what a generator is.

A ``Work`` is a record (with its citation key) and everything its page shows that needs more
than the record: its slug, its entry formatted by the citation style (HTML, the owner
highlighted), its links by kind, its ``.bib`` entry as refbridge's BibTeX writer writes it,
which of its authors are the site's owner, and its Google Scholar meta tags. A generator turns
a work into its files (``refbridge.site.pages.PageFile``). This module must never write files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from refbridge.model import Name, Record
from refbridge.site.pages import PageFile

#: What ends a list of people its source cut short (a .bib's ``and others``, a profile page
#: naming its owner alone), on every generator's page, so that no page passes them off as all.
ET_AL = "et al."


@dataclass(frozen=True, slots=True)
class Work:
    record: Record
    slug: str
    citation: str  #: the entry as the style formats it, in HTML
    links: Mapping[str, str]  #: kind of link (``pdf``, ``code``...) -> http(s) address
    bibtex: str
    owner_authors: frozenset[int]  #: positions of the owner among the record's authors
    scholar: tuple[tuple[str, str], ...]  #: Scholar's ``citation_*`` tags, in order

    @property
    def date(self) -> date | None:
        return work_date(self.record)

    @property
    def people(self) -> tuple[tuple[Name, ...], bool]:
        """The people the page lists (the authors, else the editors), and whether their list
        is cut short (then ``ET_AL`` ends it)."""
        role = "author" if self.record.authors else "editor"
        people = self.record.names.get(role, ())
        return people, bool(people) and role in self.record.incomplete_names


def work_date(record: Record) -> date | None:
    """The record's date (month and day 1 where the record has none)."""
    issued = record.issued
    if issued is None or issued.start is None:
        return None
    start = issued.start
    for parts in ((start.month or 1, start.day or 1), (start.month or 1, 1), (1, 1)):
        try:
            return date(start.year, *parts)
        except ValueError:  # a day the month has not, or a year before 1 or after 9999
            continue
    return None


class Generator(Protocol):
    def page_path(self, slug: str, work_date: date | None) -> str:
        """Where the page of a new work goes, relative to the site's folder."""
        ...

    def files(self, work: Work, today: date) -> tuple[PageFile, ...]:
        """The work's files: its page first."""
        ...
