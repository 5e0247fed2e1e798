"""How each service gives out one person's publication list, page by page, read by the
service's reader (``refbridge.formats``): the same records as reading its saved answers.

- ORCID: ``/v3.0/{orcid}/works`` (the work groups), then the full works of the groups'
  preferred versions, 100 put-codes a request (``/works/{codes}``); when those answer 404
  the summaries alone make the records. ``/person`` names the owner, if it answers.
- dblp: ``/pid/{pid}.xml``, one page.
- OpenAlex: ``/works?filter=author.id:{id}`` with ``cursor`` (``*`` first, then
  ``meta.next_cursor``).
- Semantic Scholar: ``/graph/v1/author/{id}/papers`` with ``offset`` (then ``next``).
- arXiv: ``/api/query?search_query=au:"Name"`` with ``start``.

Pagination stops at the first empty page (or when the service gives no next page), whatever
total it announced. This module must never print.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from refbridge.errors import Diagnostics
from refbridge.fetch.targets import Target
from refbridge.formats.services import dblp, orcid
from refbridge.formats.services.answers import load_json
from refbridge.formats.services.arxiv import read_feed
from refbridge.formats.services.openalex import read_works, works_of
from refbridge.formats.services.semantic_scholar import papers_of, read_papers
from refbridge.model import Record
from refbridge.services.errors import ServiceError
from refbridge.services.http import SERVICE_NAMES, PoliteClient

#: Put-codes ORCID gives full works for in one request.
ORCID_BULK = 100
ORCID_HEADERS: dict[str, str] = {"Accept": "application/json"}
OPENALEX_PER_PAGE = "200"
S2_LIMIT = "100"
S2_FIELDS = ("title,authors,year,venue,externalIds,publicationTypes,publicationDate,journal,"
             "publicationVenue,abstract")
ARXIV_PER_PAGE = 100
#: Pages one listing may take: a service that keeps answering the same cursor stops here.
MAX_PAGES = 1000


@dataclass(slots=True)
class Session:
    """One fetch: the client, the service's base URL, whom to fetch, where messages go."""

    client: PoliteClient
    base: str
    target: Target
    diagnostics: Diagnostics
    mailto: str | None = None
    on_page: Callable[[int], None] | None = None  #: called with the records so far

    def text(self, url: str, params: Mapping[str, str] | None = None,
             headers: Mapping[str, str] | None = None, missing: str | None = None
             ) -> str | None:
        """The body of ``url`` as text; a 404 is None (or ``missing`` raised as an error)."""
        answer = self.client.get(self.target.service, url, params, headers)
        if answer.status == 404:
            if missing is not None:
                raise ServiceError(missing)
            return None
        try:
            return answer.body.decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError(f"{SERVICE_NAMES[self.target.service]} answered {url} with "
                               "text that is not UTF-8") from None

    def page_done(self, count: int) -> None:
        if self.on_page is not None:
            self.on_page(count)


def _chunks(items: Sequence[str], size: int) -> list[Sequence[str]]:
    return [items[start:start + size] for start in range(0, len(items), size)]


def fetch_orcid(session: Session) -> list[Record]:
    base = f"{session.base}/v3.0/{session.target.value}"
    url = f"{base}/works"
    text = session.text(url, headers=ORCID_HEADERS,
                        missing=f"ORCID has no public record {session.target.value}")
    works, _ = orcid.read_document(text or "", url, session.diagnostics)
    documents = [works]
    codes = [code for group in works.groups
             if (summary := orcid.preferred(group)) is not None
             and (code := orcid.put_code(summary)) is not None]
    session.page_done(len(codes))
    for chunk in _chunks(codes, ORCID_BULK):
        bulk_url = f"{base}/works/{','.join(chunk)}"
        bulk = session.text(bulk_url, headers=ORCID_HEADERS)
        if bulk is None:
            session.diagnostics.warning("ORCID has no full works for these put-codes (404); "
                                        "the records are made from the summaries", bulk_url)
            break
        documents.append(orcid.read_document(bulk, bulk_url, session.diagnostics)[0])
    person = session.text(f"{base}/person", headers=ORCID_HEADERS)
    if person is not None:
        works.owner = orcid.person_name(load_json(person, f"{base}/person", "an ORCID person",
                                                   session.diagnostics))
    return list(orcid.records(documents, url, session.diagnostics))


def fetch_dblp(session: Session) -> list[Record]:
    url = f"{session.base}/pid/{session.target.value}.xml"
    text = session.text(url, missing=f"dblp has no person {session.target.value}")
    records = list(dblp.READER.read(io.StringIO(text or ""), url, session.diagnostics))
    session.page_done(len(records))
    return records


def fetch_openalex(session: Session) -> list[Record]:
    url = f"{session.base}/works"
    params = {"filter": f"author.id:{session.target.value}", "per-page": OPENALEX_PER_PAGE,
              **({"mailto": session.mailto} if session.mailto else {})}
    works: list[Mapping[str, Any]] = []
    cursor: str | None = "*"
    seen: set[str] = set()
    while cursor and cursor not in seen and len(seen) < MAX_PAGES:
        seen.add(cursor)
        text = session.text(url, {**params, "cursor": cursor},
                            missing=f"OpenAlex answered 404 for the works of "
                                    f"{session.target.value}")
        data = load_json(text or "{}", url, "OpenAlex works", session.diagnostics)
        page = works_of(data, url)
        if not page:
            break
        works.extend(page)
        session.page_done(len(works))
        meta = data.get("meta") if isinstance(data, Mapping) else None
        cursor = meta.get("next_cursor") if isinstance(meta, Mapping) else None
    return list(read_works(works, url, session.diagnostics))


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


def fetch_arxiv(session: Session) -> list[Record]:
    url = session.base
    query = f'au:"{session.target.value}"'
    records: list[Record] = []
    for _ in range(MAX_PAGES):
        text = session.text(url, {"search_query": query, "start": str(len(records)),
                                  "max_results": str(ARXIV_PER_PAGE),
                                  "sortBy": "submittedDate", "sortOrder": "descending"},
                            missing=f"arXiv answered 404 for its query API at {url}")
        found = list(read_feed(text or "", url, session.diagnostics, session.target.value))
        if not found:
            break
        records.extend(found)
        session.page_done(len(records))
    return records


#: Service -> how its list is fetched.
FETCHERS: dict[str, Callable[[Session], list[Record]]] = {
    "orcid": fetch_orcid,
    "dblp": fetch_dblp,
    "openalex": fetch_openalex,
    "s2": fetch_s2,
    "arxiv": fetch_arxiv,
}
