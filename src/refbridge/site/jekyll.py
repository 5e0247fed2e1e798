"""Jekyll academicpages publication pages: ``_publications/DATE-SLUG.md``.

The front matter is the one academicpages' ``publications`` collection reads: ``title``,
``collection: publications``, ``permalink``, ``excerpt`` (the abstract), ``date``, ``venue``,
``paperurl`` (the PDF, else the work's page), ``slidesurl``, ``bibtexurl`` (``files/SLUG.bib``,
written beside the collection) and ``citation`` (the entry formatted by the citation style in
HTML, the owner in bold), plus ``scholar_meta``, the Google Scholar tags for a layout to emit.
academicpages prints these values into HTML as they are, some through ``markdownify``; so
record text is written as HTML character references (``<``, ``&``, and the Markdown and
Liquid characters ``* _ ` [ ] \\ | ~ { }``, and ``--``, which kramdown makes a dash), which
both show literally. This module must never
write files.
"""

from __future__ import annotations

import re
from datetime import date
from html import escape
from typing import Any

from refbridge.site.pages import PageFile
from refbridge.site.work import Work

COLLECTION = "publications"
FOLDER = "_publications"
FILES = "files"
#: characters Markdown or Liquid would act on, as character references
_LITERAL = str.maketrans({character: f"&#{ord(character)};" for character in "*_`[]\\|~{}"})
#: two hyphens or more, which kramdown's ``markdownify`` would make a dash
_DASHES = re.compile(r"-{2,}")
OWN_KEYS = frozenset({"title", "collection", "permalink", "excerpt", "date", "venue",
                      "paperurl", "slidesurl", "bibtexurl", "citation", "scholar_meta"})


def literal(text: str) -> str:
    """``text`` (on one line) as HTML that academicpages shows exactly, with or without
    ``markdownify``."""
    escaped = escape(" ".join(text.split()), quote=True).translate(_LITERAL)
    return _DASHES.sub(lambda dashes: "&#45;" * len(dashes.group()), escaped)


def _paper_url(work: Work) -> str | None:
    return next((work.links[kind] for kind in ("pdf", "source", "preprint") if kind in work.links),
                None)


def front_matter(work: Work) -> dict[str, Any]:
    """The page's front matter; empty values are left out."""
    record = work.record
    venue = record.get("container-title") or (record.get("publisher")
                                              if record.type in ("thesis", "report") else None)
    data: dict[str, Any] = {
        "title": literal(record.title or ""),
        "collection": COLLECTION,
        "permalink": f"/publication/{work.slug}/",
        "excerpt": literal(record.get("abstract") or ""),
        "date": work.date,
        "venue": literal(venue or ""),
        "paperurl": _paper_url(work),
        "slidesurl": work.links.get("slides"),
        "bibtexurl": f"/{FILES}/{work.slug}.bib",
        "citation": work.citation.translate(_LITERAL),
        "scholar_meta": [{"name": name, "content": content} for name, content in work.scholar],
    }
    return {key: value for key, value in data.items() if value not in (None, "", [])}


class AcademicPages:
    def page_path(self, slug: str, work_date: date | None) -> str:
        return f"{FOLDER}/{work_date.isoformat()}-{slug}.md" if work_date else f"{FOLDER}/{slug}.md"

    def files(self, work: Work, today: date) -> tuple[PageFile, ...]:
        return (PageFile("page", self.page_path(work.slug, work.date), "",
                         front_matter(work), OWN_KEYS),
                PageFile("bibtex", f"{FILES}/{work.slug}.bib", work.bibtex))


GENERATOR = AcademicPages()
