"""Crossref: find the published version of a record and read it from the works API's JSON.

By DOI (``/works/{doi}``) when the record or its preprint names one, else by bibliographic
query (``/works?query.bibliographic=...&query.author=...``) limited to published work types.
Requests carry ``mailto`` for Crossref's polite pool when the user gave one. A work message
(Crossref's "Metadata API JSON Format") becomes a ``Found`` with the CSL type, container,
volume, issue, pages, publisher, ISSN, DOI, authors and issue date, and the work's history:
``updated-by`` (the notices that retract, correct or raise concern about it, from the publisher
or from Retraction Watch, whose data Crossref carries with ``source: retraction-watch`` and a
``record-id``), ``update-to`` (the work is itself such a notice) and ``relation``'s
``is-preprint-of`` / ``has-preprint``. Only Crossref's own answers count: a 404 is "no such
DOI" only with Crossref's ``Resource not found.`` body. This module must never decide whether a
candidate matches.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from refbridge.formats.dumps.crossref_works import work_date
from refbridge.identifiers import clean_doi
from refbridge.model import ModelError, Name, Record
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found, Notice, Version
from refbridge.services.http import Answer, PoliteClient
from refbridge.services.matching import query_words

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

#: The body of Crossref's 404 for a DOI it does not know.
NOT_FOUND_BODY = b"Resource not found."

#: Markup Crossref keeps in titles (JATS/HTML ``<i>``, ``<sub>`` ...): dropped, text kept.
_MARKUP = re.compile(r"<[^>]+>")


def is_answer(status: int, body: bytes) -> bool:
    """Whether a response is Crossref's: a JSON message, or its "no such DOI"."""
    if status == 404:
        return body.strip() == NOT_FOUND_BODY
    return body.lstrip().startswith(b"{")


def look_up(client: PoliteClient, base_url: str, record: Record, mailto: str | None
            ) -> tuple[list[Found], bool]:
    """Published candidates for ``record``, and whether they came through its DOI."""
    doi = record.get("DOI")
    if doi:
        found = by_doi(client, base_url, doi, mailto)
        if found is not None:
            return [found], True
    return search(client, base_url, record, mailto), False


def by_doi(client: PoliteClient, base_url: str, doi: str, mailto: str | None
           ) -> Found | None:
    """The work ``doi`` names, or None when Crossref has no such DOI."""
    polite = {"mailto": mailto} if mailto else {}
    answer = client.get(SERVICE, f"{base_url}/works/{quote(doi, safe='')}", polite,
                        is_answer=is_answer)
    if answer.status == 404:
        return None
    return work_found(_message(answer, "work"))


def search(client: PoliteClient, base_url: str, record: Record, mailto: str | None
           ) -> list[Found]:
    """Published works whose bibliographic data is like ``record``'s title and first author."""
    words = query_words(record.title or "", limit=20)
    if not words:
        return []
    params = {"query.bibliographic": words, "rows": ROWS,
              "filter": ",".join(f"type:{t}" for t in PUBLISHED_TYPES)}
    owner = next((n for n in record.authors if n.family), None)
    if owner is not None and owner.family:
        params["query.author"] = owner.family
    if mailto:
        params["mailto"] = mailto
    answer = client.get(SERVICE, f"{base_url}/works", params,
                        is_answer=lambda status, body: status == 200 and is_answer(status, body))
    items = _message(answer, "work-list").get("items") or []
    return [work_found(item) for item in items if isinstance(item, dict)]


def _message(answer: Answer, expected: str) -> dict[str, Any]:
    envelope = answer.json()
    message = envelope.get("message")
    if not isinstance(message, dict) or envelope.get("message-type", expected) != expected:
        raise ServiceError(f"Crossref ({answer.url}): the answer has no {expected} message")
    return message


def _clean(text: str) -> str:
    return " ".join(html.unescape(_MARKUP.sub("", text)).split())


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
    issued = next((d for d in (work_date(work.get(key)) for key in
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
    return Found(SERVICE, doi or "work", record, published=crossref_type in PUBLISHED_TYPES,
                 notices=notices(work), versions=tuple(
                     Version(target, "", "crossref is-preprint-of")
                     for target in related(work, "is-preprint-of")),
                 preprints=tuple(related(work, "has-preprint")))


def _iso_date(member: Any) -> str:
    date = work_date(member)
    if date is None or date.start is None:
        return ""
    start = date.start
    return "-".join(f"{n:02d}" if i else str(n) for i, n in
                    enumerate(p for p in (start.year, start.month, start.day) if p is not None))


def notices(work: Mapping[str, Any]) -> tuple[Notice, ...]:
    """The work's ``updated-by`` notices, then those it is itself (``update-to``)."""
    found: list[Notice] = []
    for member, is_notice in (("updated-by", False), ("update-to", True)):
        for update in work.get(member) or ():
            if not isinstance(update, Mapping) or not update.get("type"):
                continue
            found.append(Notice(str(update["type"]).lower().replace("-", "_"),
                                str(update.get("DOI") or ""), _iso_date(update.get("updated")),
                                str(update.get("source") or "publisher"),
                                str(update.get("record-id") or ""), is_notice))
    return tuple(found)


def related(work: Mapping[str, Any], relation: str) -> list[str]:
    """The DOIs ``relation`` (``is-preprint-of``, ``has-preprint``) of the work names."""
    links = (work.get("relation") or {}).get(relation) or ()
    return [clean_doi(str(link["id"])) for link in links
            if isinstance(link, Mapping) and link.get("id-type") == "doi" and link.get("id")]
