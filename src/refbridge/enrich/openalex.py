"""OpenAlex: find the published version of a record and read it from the works API's JSON.

By DOI (``/works/doi:{doi}``) when the record names one, else by title search
(``/works?filter=title.search:...``). Requests carry ``mailto`` for the polite pool when the
user gave one. A work object becomes a ``Found`` whose venue is the primary location's source;
it counts as published when that source is a journal, a conference or a book series and the
DOI is not arXiv's own. This module must never decide whether a candidate matches.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from refbridge.enrich.errors import ServiceError
from refbridge.enrich.found import ARXIV_DOI_PREFIX, Found
from refbridge.enrich.http import PoliteClient
from refbridge.enrich.matching import query_words
from refbridge.formats.services.openalex import authorship_names, biblio_fields, publication_date
from refbridge.identifiers import bare_doi
from refbridge.model import ModelError, Record
from refbridge.richtext import Text

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


def look_up(client: PoliteClient, base_url: str, record: Record, mailto: str | None
            ) -> tuple[list[Found], bool]:
    """Published candidates for ``record``, and whether they came through its DOI."""
    polite = {"mailto": mailto} if mailto else {}
    doi = record.get("DOI")
    if doi:
        answer = client.get(SERVICE, f"{base_url}/works/doi:{doi}", polite)
        if answer.status == 200:
            return [work_found(_json(answer.body))], True
    words = query_words(record.title or "", limit=20)
    if not words:
        return [], False
    answer = client.get(SERVICE, f"{base_url}/works",
                        {"filter": f"title.search:{words}", "per-page": PER_PAGE, **polite})
    if answer.status == 404:
        return [], False
    results = _json(answer.body).get("results") or []
    return [work_found(work) for work in results if isinstance(work, dict)], False


def _json(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except ValueError as exc:
        raise ServiceError(f"OpenAlex answered something that is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServiceError("OpenAlex answered JSON that is not an object")
    return data


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
    return Found(SERVICE, identifier, record, published=published)
