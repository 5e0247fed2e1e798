"""Hugo Blox (Wowchemy, Hugo Academic) publication pages: ``content/publication/SLUG/``.

Each work is a page bundle: ``index.md`` with the front matter Hugo Blox's publication layout
reads (``title``, ``authors`` with the site's owner as ``admin`` and ``et al.`` ending a list
its source cut short, ``date``, ``publishDate``, ``publication_types``, ``publication`` as
``*Venue*`` Markdown, ``publication_short``, ``abstract``, ``doi``, ``tags``, ``featured``, the
``url_*`` links) plus ``scholar_meta``, the Google Scholar tags for a layout to emit; and ``cite.bib`` beside it, the entry as refbridge's
BibTeX writer writes it. Hugo's templates escape what they print; the two values Hugo Blox
renders as Markdown (``publication``, ``abstract``) are escaped as Markdown. This module must
never write files.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from refbridge.cv.writers.markdown import escape as markdown_escape
from refbridge.identifiers import bare_doi
from refbridge.site.pages import PageFile
from refbridge.site.work import ET_AL, Work

SECTION = "content/publication"
OWNER = "admin"  #: Hugo Blox's name of the site owner's author profile
#: ``work.ET_AL`` is the last author of a list its source cut short: Hugo Blox prints the
#: authors as given, joined by commas ("Ada Lovelace, et al."), and the term urlizes to a slug
#: (``et-al``), as its author taxonomy needs

#: CSL type -> Hugo Blox's publication type (its ``pub_*`` labels: Journal article, Conference
#: paper, Preprint, Report, Book, Book section, Thesis, Patent); other types keep their CSL name
PUBLICATION_TYPES: dict[str, str] = {
    "article-journal": "article-journal",
    "article-magazine": "article-journal",
    "article-newspaper": "article-journal",
    "review": "article-journal",
    "review-book": "article-journal",
    "paper-conference": "paper-conference",
    "article": "article",
    "report": "report",
    "standard": "report",
    "book": "book",
    "collection": "book",
    "classic": "book",
    "chapter": "chapter",
    "entry": "chapter",
    "entry-dictionary": "chapter",
    "entry-encyclopedia": "chapter",
    "thesis": "thesis",
    "patent": "patent",
}
#: kind of link -> Hugo Blox's front-matter key
LINK_KEYS: dict[str, str] = {
    "pdf": "url_pdf", "code": "url_code", "slides": "url_slides", "video": "url_video",
    "dataset": "url_dataset", "poster": "url_poster", "preprint": "url_preprint",
    "source": "url_source",
}
OWN_KEYS = frozenset({"title", "authors", "date", "publishDate", "publication_types",
                      "publication", "publication_short", "abstract", "doi", "tags",
                      "featured", "scholar_meta", *LINK_KEYS.values()})
SEED_KEYS = frozenset({"publishDate", "featured"})


def _authors(work: Work) -> list[str]:
    """The listed authors (the owner as ``admin``; editors when there are no authors), and
    ``ET_AL`` after a list that is incomplete."""
    people, cut_short = work.people
    names = [OWNER if position in work.owner_authors else person.display()
             for position, person in enumerate(people)]
    return [*names, ET_AL] if cut_short else names


def front_matter(work: Work, today: date) -> dict[str, Any]:
    """The page's front matter; empty values are left out."""
    record = work.record
    venue = record.get("container-title") or (record.get("publisher")
                                              if record.type in ("thesis", "report") else None)
    doi = record.get("DOI")
    data: dict[str, Any] = {
        "title": record.title or "",
        "authors": _authors(work),
        "date": work.date,
        "publishDate": today,
        "publication_types": [PUBLICATION_TYPES.get(record.type, record.type)],
        "publication": f"*{markdown_escape(venue)}*" if venue else None,
        "publication_short": record.get("container-title-short"),
        "abstract": markdown_escape(record.get("abstract") or "") or None,
        "doi": bare_doi(doi) if doi else None,
        "tags": list(record.keywords),
        "featured": False,
        **{LINK_KEYS[kind]: url for kind, url in work.links.items()},
        "scholar_meta": [{"name": name, "content": content} for name, content in work.scholar],
    }
    return {key: value for key, value in data.items() if value not in (None, "", [])}


class HugoBlox:
    def page_path(self, slug: str, work_date: date | None) -> str:
        return f"{SECTION}/{slug}/index.md"

    def files(self, work: Work, today: date) -> tuple[PageFile, ...]:
        return (PageFile("page", self.page_path(work.slug, work.date), "",
                         front_matter(work, today), OWN_KEYS, SEED_KEYS),
                PageFile("bibtex", f"{SECTION}/{work.slug}/cite.bib", work.bibtex))


GENERATOR = HugoBlox()
