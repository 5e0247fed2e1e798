"""DataCite: read the work a DataCite DOI names (datasets, software, arXiv's and Zenodo's DOIs)
from the REST API's JSON:API answer.

``/dois/{doi}`` answers ``{"data": {"id": ..., "type": "dois", "attributes": {...}}}``, the
attributes holding ``titles``, ``creators`` (``familyName``/``givenName`` for people, ``name``
for organisations), ``publicationYear``, ``publisher`` (a string, or an object with a
``name``), ``types.resourceTypeGeneral`` and ``relatedIdentifiers`` (``IsPreprintOf`` names the
published version). A 404 is "no such DOI" only with DataCite's JSON ``errors`` body. This
module must never decide whether a candidate matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from refbridge.identifiers import clean_doi
from refbridge.model import Date, ModelError, Name, Record
from refbridge.services.errors import ServiceError
from refbridge.services.found import Found, Version
from refbridge.services.http import PoliteClient, json_object

SERVICE = "datacite"

#: DataCite resourceTypeGeneral -> CSL item type.
RESOURCE_TYPES: dict[str, str] = {
    "Dataset": "dataset",
    "Software": "software",
    "Preprint": "article",
    "JournalArticle": "article-journal",
    "ConferencePaper": "paper-conference",
    "BookChapter": "chapter",
    "Book": "book",
    "Dissertation": "thesis",
    "Report": "report",
    "Text": "article",
}
#: Resource types that are a version of record.
PUBLISHED_TYPES: frozenset[str] = frozenset({"JournalArticle", "ConferencePaper",
                                             "BookChapter", "Book"})
#: DOI prefixes DataCite registers that Crossref never has: arXiv, Zenodo, Dryad, figshare,
#: PANGAEA. Their DOIs are asked of DataCite first.
DATACITE_PREFIXES: tuple[str, ...] = ("10.48550/", "10.5281/", "10.5061/", "10.6084/",
                                      "10.1594/")


def is_answer(status: int, body: bytes) -> bool:
    """Whether a response is DataCite's: JSON with ``data``, or its 404 with ``errors``."""
    data = json_object(body)
    return data is not None and ("errors" in data if status == 404 else "data" in data)


def by_doi(client: PoliteClient, base_url: str, doi: str) -> Found | None:
    """The work ``doi`` names, or None when DataCite has no such DOI."""
    answer = client.get(SERVICE, f"{base_url}/dois/{quote(doi, safe='')}", is_answer=is_answer)
    if answer.status == 404:
        return None
    data = answer.json().get("data")
    if not isinstance(data, Mapping) or not isinstance(data.get("attributes"), Mapping):
        raise ServiceError(f"DataCite answered {doi} without the DOI's attributes")
    return attributes_found(data["attributes"])


def _creators(creators: Any) -> tuple[Name, ...]:
    names: list[Name] = []
    for creator in creators if isinstance(creators, list) else ():
        if creator.get("familyName"):
            names.append(Name(family=creator["familyName"], given=creator.get("givenName")))
        elif creator.get("name"):
            names.append(Name(literal=creator["name"]))
    return tuple(names)


def attributes_found(attributes: Mapping[str, Any]) -> Found:
    """One DataCite DOI's attributes as a candidate."""
    doi = clean_doi(str(attributes.get("doi") or ""))
    kind = str((attributes.get("types") or {}).get("resourceTypeGeneral") or "")
    fields: dict[str, str] = {"DOI": doi} if doi else {}
    titles = [t.get("title") for t in attributes.get("titles") or () if isinstance(t, Mapping)]
    if titles and titles[0]:
        fields["title"] = " ".join(str(titles[0]).split())
    publisher = attributes.get("publisher")
    if isinstance(publisher, Mapping):
        publisher = publisher.get("name")
    if publisher:
        fields["publisher"] = str(publisher)
    year = attributes.get("publicationYear")
    authors = _creators(attributes.get("creators"))
    versions = tuple(Version(clean_doi(str(link["relatedIdentifier"])), "",
                             "datacite IsPreprintOf")
                     for link in attributes.get("relatedIdentifiers") or ()
                     if isinstance(link, Mapping) and link.get("relationType") == "IsPreprintOf"
                     and link.get("relatedIdentifierType") == "DOI")
    try:
        record = Record(id=f"datacite:{doi}", type=RESOURCE_TYPES.get(kind, "article"),
                        fields=fields, names={"author": authors} if authors else {},
                        dates={"issued": Date.of(int(str(year)))} if str(year).isdigit() else {})
    except ModelError as exc:
        raise ServiceError(f"DataCite DOI {doi}: {exc}") from None
    return Found(SERVICE, doi, record, published=kind in PUBLISHED_TYPES, versions=versions)
