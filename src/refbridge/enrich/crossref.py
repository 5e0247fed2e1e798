"""Crossref: find the published version of a record and read it from the works API's JSON.

By DOI (``/works/{doi}``) when the record or its preprint names one, else by bibliographic
query (``/works?query.bibliographic=...&query.author=...``) limited to published work types.
Requests carry ``mailto`` for Crossref's polite pool when the user gave one. A work message
(Crossref's "Metadata API JSON Format") becomes a ``Found`` with the CSL type, container,
volume, issue, pages, publisher, ISSN, DOI, authors and issue date. This module must never
decide whether a candidate matches.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from refbridge.enrich.errors import ServiceError
from refbridge.enrich.found import Found
from refbridge.enrich.http import PoliteClient
from refbridge.enrich.matching import query_words
from refbridge.model import Date, DateParts, ModelError, Name, Record

SERVICE = "crossref"
ROWS = "5"

#: Crossref work type -> CSL item type; the published types are those searched for.
WORK_TYPES: dict[str, str] = {
    "journal-article": "article-journal",
    "proceedings-article": "paper-conference",
    "book-chapter": "chapter",
    "posted-content": "article",
    "report": "report",
    "dissertation": "thesis",
    "book": "book",
}
PUBLISHED_TYPES: tuple[str, ...] = ("journal-article", "proceedings-article", "book-chapter")

#: Crossref work member holding one string -> CSL variable.
TEXT_MEMBERS: dict[str, str] = {
    "volume": "volume",
    "issue": "issue",
    "page": "page",
    "publisher": "publisher",
    "DOI": "DOI",
}
#: Crossref work member holding a list of strings (first one used) -> CSL variable.
LIST_MEMBERS: dict[str, str] = {
    "title": "title",
    "container-title": "container-title",
    "ISSN": "ISSN",
}

#: Markup Crossref keeps in titles (JATS/HTML ``<i>``, ``<sub>`` ...): dropped, text kept.
_MARKUP = re.compile(r"<[^>]+>")


def look_up(client: PoliteClient, base_url: str, record: Record, mailto: str | None
            ) -> tuple[list[Found], bool]:
    """Published candidates for ``record``, and whether they came through its DOI."""
    polite = {"mailto": mailto} if mailto else {}
    doi = record.get("DOI")
    if doi:
        answer = client.get(SERVICE, f"{base_url}/works/{quote(doi, safe='')}", polite)
        if answer.status == 200:
            return [work_found(_message(answer.body, "work"))], True
    words = query_words(record.title or "", limit=20)
    if not words:
        return [], False
    params = {"query.bibliographic": words, "rows": ROWS,
              "filter": ",".join(f"type:{t}" for t in PUBLISHED_TYPES)}
    owner = next((n for n in record.authors if n.family), None)
    if owner is not None and owner.family:
        params["query.author"] = owner.family
    answer = client.get(SERVICE, f"{base_url}/works", {**params, **polite})
    if answer.status == 404:
        return [], False
    items = _message(answer.body, "work-list").get("items") or []
    return [work_found(item) for item in items if isinstance(item, dict)], False


def _message(body: bytes, expected: str) -> dict[str, Any]:
    try:
        envelope = json.loads(body)
    except ValueError as exc:
        raise ServiceError(f"Crossref answered something that is not JSON: {exc}") from None
    message = envelope.get("message") if isinstance(envelope, dict) else None
    if not isinstance(message, dict) or envelope.get("message-type", expected) != expected:
        raise ServiceError(f"Crossref answered without a {expected} message")
    return message


def _clean(text: str) -> str:
    return " ".join(html.unescape(_MARKUP.sub("", text)).split())


def _date(member: Any) -> Date | None:
    if not isinstance(member, Mapping):
        return None
    parts = (member.get("date-parts") or [[None]])[0]
    numbers = [p for p in parts if isinstance(p, int)]
    if not numbers:
        return None
    return Date(start=DateParts(*numbers[:3]))


def _names(people: Any) -> tuple[Name, ...]:
    names: list[Name] = []
    for person in people if isinstance(people, list) else ():
        if person.get("family"):
            names.append(Name(family=_clean(person["family"]),
                              given=_clean(person["given"]) if person.get("given") else None))
        elif person.get("name"):
            names.append(Name(literal=_clean(person["name"])))
    return tuple(names)


def work_found(work: Mapping[str, Any]) -> Found:
    """One Crossref work message as a candidate."""
    fields: dict[str, str] = {}
    for member, variable in TEXT_MEMBERS.items():
        value = work.get(member)
        if isinstance(value, str) and value.strip():
            fields[variable] = _clean(value)
    for member, variable in LIST_MEMBERS.items():
        values = [v for v in work.get(member) or () if isinstance(v, str) and v.strip()]
        if values:
            fields[variable] = _clean(values[0])
    crossref_type = str(work.get("type", ""))
    doi = fields.get("DOI", "")
    issued = next((d for d in (_date(work.get(key)) for key in
                               ("issued", "published-print", "published-online")) if d), None)
    authors = _names(work.get("author"))
    try:
        record = Record(
            id=f"crossref:{doi or 'work'}",
            type=WORK_TYPES.get(crossref_type, "article"),
            fields=fields,
            names={"author": authors} if authors else {},
            dates={"issued": issued} if issued else {},
        )
    except ModelError as exc:
        raise ServiceError(f"Crossref work {doi}: {exc}") from None
    return Found(SERVICE, doi or "work", record, published=crossref_type in PUBLISHED_TYPES)
