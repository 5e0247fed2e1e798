"""Semantic Scholar: one person's publication list from the Academic Graph API, read by
Semantic Scholar's reader (``refbridge.formats.services.semantic_scholar``).

``/graph/v1/author/{id}/papers`` with ``offset`` (then ``next``). This module must never
print.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refbridge.formats.services.answers import load_json
from refbridge.formats.services.semantic_scholar import papers_of, read_papers
from refbridge.model import Record
from refbridge.services.listing import MAX_PAGES, Session

S2_LIMIT = "100"
S2_FIELDS = ("title,authors,year,venue,externalIds,publicationTypes,publicationDate,journal,"
             "publicationVenue,abstract")


def fetch_s2(session: Session) -> list[Record]:
    url = f"{session.base}/graph/v1/author/{session.target.value}/papers"
    papers: list[Mapping[str, Any]] = []
    offset: object = 0
    pages = 0
    while isinstance(offset, int) and pages < MAX_PAGES:
        pages += 1
        text = session.text(url, {"fields": S2_FIELDS, "offset": str(offset),
                                  "limit": S2_LIMIT},
                            missing=f"Semantic Scholar has no author {session.target.value}")
        data = load_json(text or "{}", url, "a Semantic Scholar answer",
                         session.diagnostics)
        page, _ = papers_of(data, url)
        if not page:
            break
        papers.extend(page)
        session.page_done(len(papers))
        offset = data.get("next") if isinstance(data, Mapping) else None
    return list(read_papers(papers, None, url, session.diagnostics))
