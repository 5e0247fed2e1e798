"""Google Scholar's ``citation_*`` meta tags of a work, as (name, content) pairs.

Scholar's inclusion guidelines read one ``<meta name="citation_..." content="...">`` per
value: the title, every author (``Family, Given``), the date as ``YYYY/MM/DD`` (or the year),
the venue under the tag of the work's type (journal, conference, book, institution), volume,
issue, pages, publisher, ISBN, ISSN, DOI, arXiv id and the PDF's address. The tags are data
for a layout to emit (escaped by the layout); this module must never write markup.
"""

from __future__ import annotations

from collections.abc import Mapping

from refbridge.model import Name, Record
from refbridge.sameness.ids import arxiv_id

#: CSL type -> (the tag of its venue, the CSL variable the venue is in)
VENUE_TAGS: dict[str, tuple[str, str]] = {
    "article-journal": ("citation_journal_title", "container-title"),
    "article-magazine": ("citation_journal_title", "container-title"),
    "article-newspaper": ("citation_journal_title", "container-title"),
    "review": ("citation_journal_title", "container-title"),
    "paper-conference": ("citation_conference_title", "container-title"),
    "chapter": ("citation_inbook_title", "container-title"),
    "entry-encyclopedia": ("citation_inbook_title", "container-title"),
    "thesis": ("citation_dissertation_institution", "publisher"),
    "report": ("citation_technical_report_institution", "publisher"),
}
#: tag -> the CSL variable it shows, for every type
PLAIN_TAGS: tuple[tuple[str, str], ...] = (
    ("citation_volume", "volume"),
    ("citation_issue", "issue"),
    ("citation_publisher", "publisher"),
    ("citation_isbn", "ISBN"),
    ("citation_issn", "ISSN"),
    ("citation_doi", "DOI"),
)


def _author(name: Name) -> str:
    if name.literal or not name.given:
        return name.display()
    family = " ".join(p for p in (name.non_dropping_particle, name.family) if p)
    return f"{family}, {name.given}"


def _date(record: Record) -> str | None:
    issued = record.issued
    if issued is None or issued.start is None:
        return None
    start = issued.start
    parts = [f"{start.year:04d}"] + [f"{part:02d}" for part in (start.month, start.day) if part]
    return "/".join(parts)


def _pages(record: Record) -> list[tuple[str, str]]:
    page = (record.get("page") or "").replace("\u2013", "-")
    first, _, last = page.partition("-")
    found = [("citation_firstpage", first.strip()), ("citation_lastpage", last.strip("- "))]
    return [(tag, value) for tag, value in found if value]


def scholar_tags(record: Record, links: Mapping[str, str]) -> list[tuple[str, str]]:
    """The work's meta tags in Scholar's order; ``links``: the page's links by kind."""
    tags: list[tuple[str, str]] = []
    if record.title:
        tags.append(("citation_title", record.title))
    tags += [("citation_author", _author(person)) for person in record.authors]
    date = _date(record)
    if date:
        tags.append(("citation_publication_date", date))
    venue_tag, venue_variable = VENUE_TAGS.get(record.type, ("", ""))
    venue = record.get(venue_variable) if venue_tag else None
    if venue:
        tags.append((venue_tag, venue))
    tags += [(tag, value) for tag, variable in PLAIN_TAGS
             if (value := record.get(variable)) and not (tag == "citation_publisher"
                                                        and venue_variable == "publisher")]
    tags += _pages(record)
    arxiv = arxiv_id(record)
    if arxiv:
        tags.append(("citation_arxiv_id", arxiv))
    if "pdf" in links:
        tags.append(("citation_pdf_url", links["pdf"]))
    return tags
