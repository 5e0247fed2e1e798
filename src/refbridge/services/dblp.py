"""dblp: find a record's work in dblp's publication search and read it from the JSON answer.

``/search/publ/api?q=...&format=json`` answers ``{"result": {"hits": {"hit": [...]}}}``, each
hit's ``info`` holding the title (ending in a period), the authors (one object instead of a
list when there is one author; homonym numbers such as ``Wei Wang 0001``), the venue, volume,
number, pages, year, the hit's ``type`` ("Journal Articles", "Conference and Workshop Papers",
"Informal and Other Publications" ...), the DOI and the ``ee`` link. A CoRR hit is the arXiv
preprint (its volume is ``abs/<arXiv id>``); a journal or conference hit is a published
version. Only dblp's own answers count (JSON with a ``result``).

A person's publication list is ``/pid/{pid}.xml``, one page, read by dblp's reader
(``refbridge.formats.services.dblp``). This module must never decide whether a candidate
matches.
"""

from __future__ import annotations

import html
import io
from collections.abc import Mapping
from typing import Any

from refbridge.formats.services.dblp import CORR, HOMONYM_NUMBER, READER
from refbridge.identifiers import clean_doi
from refbridge.model import Date, Eprint, ModelError, Name, Record
from refbridge.names.reading import split_name
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found
from refbridge.services.http import PoliteClient, json_object
from refbridge.services.listing import Session
from refbridge.services.matching import query_words

SERVICE = "dblp"
HITS = "5"

#: dblp hit type -> CSL item type; the published ones are those a preprint may become.
HIT_TYPES: dict[str, str] = {
    "Journal Articles": "article-journal",
    "Conference and Workshop Papers": "paper-conference",
    "Parts in Books or Collections": "chapter",
    "Books and Theses": "book",
    "Editorship": "book",
    "Informal and Other Publications": "article",
    "Informal Publications": "article",
    "Data and Artifacts": "dataset",
    "Reference Works": "entry-encyclopedia",
}
PUBLISHED_TYPES: frozenset[str] = frozenset({"Journal Articles", "Conference and Workshop Papers",
                                             "Parts in Books or Collections"})
#: dblp hit member holding text -> CSL variable.
TEXT_MEMBERS: dict[str, str] = {"venue": "container-title", "volume": "volume",
                                "number": "issue", "pages": "page", "publisher": "publisher"}


def is_answer(status: int, body: bytes) -> bool:
    """Whether a response is dblp's: JSON with a ``result``."""
    data = json_object(body)
    return status == 200 and data is not None and isinstance(data.get("result"), dict)


def search(client: PoliteClient, base_url: str, record: Record) -> list[Found]:
    """The works of dblp whose title (and first author) are like ``record``'s."""
    words = query_words(record.title or "", limit=20)
    if not words:
        return []
    owner = next((n for n in record.authors if n.family), None)
    query = f"{words} {query_words(owner.family)}" if owner and owner.family else words
    answer = client.get(SERVICE, f"{base_url}/search/publ/api",
                        {"q": query, "format": "json", "h": HITS}, is_answer=is_answer)
    hits = ((answer.json()["result"].get("hits") or {}).get("hit")) or []
    return [hit_found(hit["info"]) for hit in hits
            if isinstance(hit, Mapping) and isinstance(hit.get("info"), Mapping)]


def _text(value: Any) -> str:
    return " ".join(html.unescape(str(value)).split())


def _authors(info: Mapping[str, Any]) -> tuple[Name, ...]:
    people = (info.get("authors") or {}).get("author") or []
    if isinstance(people, Mapping):
        people = [people]
    names = []
    for person in people:
        text = person.get("text") if isinstance(person, Mapping) else person
        if text:
            names.append(split_name(HOMONYM_NUMBER.sub("", _text(text))))
    return tuple(names)


def hit_found(info: Mapping[str, Any]) -> Found:
    """One dblp search hit's ``info`` as a candidate."""
    kind = str(info.get("type", ""))
    fields: dict[str, str] = {}
    title = _text(info.get("title", ""))
    if title.endswith(".") and not title.endswith(".."):
        title = title[:-1]
    if title:
        fields["title"] = title
    for member, variable in TEXT_MEMBERS.items():
        if info.get(member):
            fields[variable] = _text(info[member])
    if info.get("doi"):
        fields["DOI"] = clean_doi(str(info["doi"]))
    key = str(info.get("key") or "hit")
    eprint = None
    if fields.get("container-title") == CORR and fields.get("volume", "").startswith("abs/"):
        eprint = Eprint("arXiv", fields.pop("volume").removeprefix("abs/"))
        fields.pop("container-title")
    year = str(info.get("year", ""))
    authors = _authors(info)
    try:
        record = Record(id=f"dblp:{key}", type=HIT_TYPES.get(kind, "article"), fields=fields,
                        names={"author": authors} if authors else {},
                        dates={"issued": Date.of(int(year))} if year.isdigit() else {},
                        eprint=eprint)
    except ModelError as exc:
        raise ServiceError(f"dblp record {key}: {exc}") from None
    return Found(SERVICE, key, record, published=kind in PUBLISHED_TYPES and eprint is None)


def fetch_dblp(session: Session) -> list[Record]:
    url = f"{session.base}/pid/{session.target.value}.xml"
    text = session.text(url, missing=f"dblp has no person {session.target.value}")
    records = list(READER.read(io.StringIO(text or ""), url, session.diagnostics))
    session.page_done(len(records))
    return records
