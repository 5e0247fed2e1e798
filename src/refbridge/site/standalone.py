"""Standalone HTML pages, one per work: ``publication/SLUG/index.html`` for any web server.

Each page is complete: its ``<head>`` has the title and Google Scholar's ``citation_*`` meta
tags, its body the title, the authors (the owner in bold; "et al." ending a list its source
cut short), venue and date, the entry as the citation style formats it, the links, the
abstract and the BibTeX entry. refbridge owns the whole file: a page is rewritten when its
work changes. Everything is escaped with ``html.escape``, braces as character references (no
Liquid or Hugo template syntax). This module must never emit record text unescaped or a link
that is not http(s).
"""

from __future__ import annotations

from datetime import date
from html import escape

from refbridge.cv.links import safe_http_url
from refbridge.cv.writers.html import STYLESHEET, TEMPLATE_BRACES
from refbridge.site.pages import PageFile
from refbridge.site.work import ET_AL, Work

FOLDER = "publication"
VENUE_SEPARATOR = " \u00b7 "
#: kind of link -> its label on the page
LINK_LABELS: dict[str, str] = {
    "pdf": "PDF", "code": "Code", "slides": "Slides", "video": "Video", "dataset": "Data",
    "poster": "Poster", "preprint": "Preprint", "source": "Source",
}


def _authors(work: Work) -> str:
    """The listed people (the owner in bold), ending in ``ET_AL`` when the list is cut short."""
    people, cut_short = work.people
    names = [f"<strong>{escape(person.display())}</strong>" if position in work.owner_authors
             else escape(person.display()) for position, person in enumerate(people)]
    return ", ".join([*names, ET_AL] if cut_short else names)


def page_html(work: Work) -> str:
    """The work's page."""
    record = work.record
    title = escape(record.title or "")
    venue = record.get("container-title") or record.get("publisher")
    when = str(record.year) if record.year is not None else ""
    links = "".join(f'<li><a href="{escape(url)}">{escape(LINK_LABELS[kind])}</a></li>'
                    for kind, url in work.links.items() if safe_http_url(url))
    abstract = record.get("abstract")
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        *(f'<meta name="{escape(name)}" content="{escape(content)}">'
          for name, content in work.scholar),
        f"<style>\n{STYLESHEET}</style>",
        "</head>",
        "<body>",
        '<main class="cv-publications">',
        f'<h1 class="work-title">{title}</h1>',
        f'<p class="work-authors">{_authors(work)}</p>',
        f'<p class="work-venue">{escape(VENUE_SEPARATOR.join(p for p in (venue, when) if p))}</p>',
        f'<div class="work-citation">{work.citation}</div>',
        *([f'<ul class="cv-links work-links">{links}</ul>'] if links else []),
        *([f'<h2>Abstract</h2>\n<p class="work-abstract">{escape(abstract)}</p>']
          if abstract else []),
        f'<h2>BibTeX</h2>\n<pre class="work-bibtex">{escape(work.bibtex)}</pre>',
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(lines).translate(TEMPLATE_BRACES) + "\n"


class StandalonePages:
    def page_path(self, slug: str, work_date: date | None) -> str:
        return f"{FOLDER}/{slug}/index.html"

    def files(self, work: Work, today: date) -> tuple[PageFile, ...]:
        return (PageFile("page", self.page_path(work.slug, work.date), page_html(work)),)


GENERATOR = StandalonePages()
