"""OpenAlex: find the published version of a record and read it from the works API's JSON.

By DOI (``/works/doi:{doi}``) when the record names one, else by title search
(``/works?filter=title.search:...``). Requests carry ``mailto`` for the polite pool when the
user gave one. A work object becomes a ``Found`` whose venue is the primary location's source;
it counts as published when that source is a journal, a conference or a book series and the
DOI is not arXiv's own. A preprint's other locations in a journal or a conference (OpenAlex
puts a work's versions together) are its published ``versions``; ``is_retracted`` is a
retraction notice. Only OpenAlex's own answers count (a 404 is "no such work" only with its
JSON ``error`` body).

A person's publication list is ``/works?filter=author.id:{id}`` with ``cursor`` (``*``
first, then ``meta.next_cursor``), read by OpenAlex's reader
(``refbridge.formats.services.openalex``). This module must never decide whether a candidate
matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from refbridge.formats.services.answers import load_json
from refbridge.formats.services.openalex import (
    authorship_names,
    biblio_fields,
    publication_date,
    read_works,
    works_of,
)
from refbridge.identifiers import ARXIV_DOI_PREFIX, bare_doi
from refbridge.model import ModelError, Record
from refbridge.richtext import Text
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found, Notice, Version
from refbridge.services.http import PoliteClient, json_object
from refbridge.services.listing import MAX_PAGES, Session
from refbridge.services.matching import query_words

SERVICE = "openalex"
PER_PAGE = "5"

#: Source type of the primary location -> CSL item type of the work.
SOURCE_TYPES: dict[str, str] = {
    "journal": "article-journal",
    "conference": "paper-conference",
    "book series": "chapter",
    "repository": "article",
}
PUBLISHED_SOURCE_TYPES: frozenset[str] = frozenset({"journal", "conference", "book series"})


def is_answer(status: int, body: bytes) -> bool:
    """Whether a response is OpenAlex's: a JSON object (its 404 one with an ``error``)."""
    data = json_object(body)
    return data is not None and (status != 404 or "error" in data)


def look_up(client: PoliteClient, base_url: str, record: Record, mailto: str | None
            ) -> tuple[list[Found], bool]:
    """Published candidates for ``record``, and whether they came through its DOI."""
    doi = record.get("DOI")
    if doi:
        found = by_key(client, base_url, f"doi:{doi}", mailto)
        if found is not None:
            return [found], True
    return search(client, base_url, record, mailto), False


def by_key(client: PoliteClient, base_url: str, key: str, mailto: str | None) -> Found | None:
    """The work ``key`` (``doi:10...``, ``pmid:123``) names, or None when OpenAlex has none."""
    polite = {"mailto": mailto} if mailto else {}
    answer = client.get(SERVICE, f"{base_url}/works/{key}", polite, is_answer=is_answer)
    return None if answer.status == 404 else work_found(answer.json())


def search(client: PoliteClient, base_url: str, record: Record, mailto: str | None
           ) -> list[Found]:
    """Works whose title has the words of ``record``'s title."""
    words = query_words(record.title or "", limit=20)
    if not words:
        return []
    params = {"filter": f"title.search:{words}", "per-page": PER_PAGE}
    if mailto:
        params["mailto"] = mailto
    answer = client.get(SERVICE, f"{base_url}/works", params,
                        is_answer=lambda status, body: status == 200 and is_answer(status, body))
    results = answer.json().get("results") or []
    return [work_found(work) for work in results if isinstance(work, dict)]


def work_found(work: Mapping[str, Any]) -> Found:
    """One OpenAlex work object as a candidate."""
    location = work.get("primary_location") or {}
    source = location.get("source") or {}
    source_type = source.get("type") or ""
    doi = bare_doi(work["doi"]) if work.get("doi") else ""
    fields: dict[str, Text] = biblio_fields(work)
    title = work.get("title") or work.get("display_name")
    if title:
        fields["title"] = " ".join(str(title).split())
    if doi:
        fields["DOI"] = doi
    if source.get("display_name") and source_type in PUBLISHED_SOURCE_TYPES:
        fields["container-title"] = source["display_name"]
    identifier = str(work.get("id", "")).rsplit("/", 1)[-1] or doi or "work"
    published = (source_type in PUBLISHED_SOURCE_TYPES
                 and not doi.lower().startswith(ARXIV_DOI_PREFIX))
    authors = authorship_names(work)
    issued = publication_date(work)
    try:
        record = Record(
            id=f"openalex:{identifier}",
            type=SOURCE_TYPES.get(source_type, "article") if published else "article",
            fields=fields,
            names={"author": authors} if authors else {},
            dates={"issued": issued} if issued else {},
        )
    except ModelError as exc:
        raise ServiceError(f"OpenAlex work {identifier}: {exc}") from None
    return Found(SERVICE, identifier, record, published=published,
                 notices=(Notice("retraction", "", "", SERVICE),) if work.get("is_retracted")
                 else (),
                 versions=() if published else _published_locations(work))


def _published_locations(work: Mapping[str, Any]) -> tuple[Version, ...]:
    """The locations of ``work`` in a journal or conference, as versions."""
    versions: list[Version] = []
    for location in work.get("locations") or ():
        source = (location or {}).get("source") or {}
        if source.get("type") not in PUBLISHED_SOURCE_TYPES:
            continue
        landing = str(location.get("landing_page_url") or "")
        doi = bare_doi(landing) if "doi.org/" in landing else ""
        versions.append(Version(doi, str(source.get("display_name") or ""),
                                "openalex location"))
    return tuple(versions)


OPENALEX_PER_PAGE = "200"


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
