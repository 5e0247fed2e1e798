"""Reader for Crossref's works as its public data file and the REST API give them: JSON Lines
(gzipped or not) of work objects or of pages ``{"items": [...]}``, an API answer
(``{"message": ...}``) on a line, or the public data file itself, a tar of ``.json.gz``
files each holding one page (``refbridge.textio`` reads the archive as its files one after
another).

Each work becomes one record (``crossref_tables``): the type, title (with its subtitle after
a colon) and container title with their inline markup as rich text, every author, editor and
translator with their ORCID iD, volume, issue, pages, article number, publisher and place,
ISSN and ISBN (the first of each list), the issued date, the DOI, the abstract as plain text
(its JATS markup taken off) and the subjects as keywords. References, funders, licences and
counts are not bibliographic data and are left out. This module must never make a request
nor hold more than one line of its input.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

from refbridge.errors import Diagnostics
from refbridge.formats import catalogue
from refbridge.formats.csl_markup import from_markup
from refbridge.formats.dumps.crossref_tables import (
    ISSUED_MEMBERS,
    LIST_MEMBERS,
    NAME_MEMBERS,
    TEXT_MEMBERS,
    WORK_TYPES,
)
from refbridge.formats.dumps.lines import json_objects
from refbridge.formats.services.answers import as_list, as_map, as_text, record_or_error
from refbridge.identifiers import clean_doi
from refbridge.model import Date, DateParts, ModelError, Name, Record, Source
from refbridge.names.ids import PersonIdError, person_id
from refbridge.richtext import Text

WHAT = "a Crossref work"
_TAG = re.compile(r"<[^>]+>")


def works_of(value: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The works of one line: a page's ``items``, an API answer's ``message``, or a work."""
    message = value.get("message")
    if isinstance(message, Mapping):
        value = message
    if "items" in value:
        return [item for item in as_list(value.get("items")) if isinstance(item, Mapping)]
    return [value]


def _first(value: Any) -> str:
    texts = [as_text(item) for item in as_list(value)] if isinstance(value, list) \
        else [as_text(value)]
    return next((text for text in texts if text), "")


def _person(person: Mapping[str, Any]) -> Name | None:
    ids = []
    if as_text(person.get("ORCID")):
        try:
            ids.append(person_id("orcid", as_text(person.get("ORCID"))))
        except PersonIdError:
            pass  # an iD Crossref got wrong identifies nobody
    if as_text(person.get("family")):
        return Name(family=as_text(person.get("family")),
                    given=as_text(person.get("given")) or None,
                    suffix=as_text(person.get("suffix")) or None, ids=tuple(ids))
    if as_text(person.get("name")):
        return Name(literal=as_text(person.get("name")), ids=tuple(ids))
    return None


def work_date(member: Any) -> Date | None:
    """A Crossref date member (``{"date-parts": [[2020, 5, 1]]}``) as a date; None when it
    holds none, or one that is no date (month 13)."""
    parts = as_list(as_list(as_map(member).get("date-parts"))[:1] or [[]])
    numbers = [part for part in as_list(parts[0] if parts else []) if isinstance(part, int)]
    if not numbers:
        return None
    try:
        return Date(start=DateParts(*numbers[:3]))
    except ModelError:
        return None


def _title(work: Mapping[str, Any]) -> str:
    title, subtitle = _first(work.get("title")), _first(work.get("subtitle"))
    return f"{title}: {subtitle}" if title and subtitle and subtitle not in title else title


def work_record(work: Mapping[str, Any], source: Source, diagnostics: Diagnostics
                ) -> Record | None:
    """The record of one Crossref work object."""
    fields: dict[str, Text] = {}
    for member, variable in TEXT_MEMBERS.items():
        if as_text(work.get(member)):
            fields[variable] = as_text(work.get(member))
    for member, variable in LIST_MEMBERS.items():
        if _first(work.get(member)):
            fields[variable] = _first(work.get(member))
    if "container-title" in fields:
        fields["container-title"] = from_markup(str(fields["container-title"]))
    if _title(work):
        fields["title"] = from_markup(_title(work))
    doi = clean_doi(as_text(work.get("DOI")))
    if doi:
        fields["DOI"] = doi
    elif as_text(work.get("URL")):
        fields["URL"] = as_text(work.get("URL"))
    abstract = " ".join(html.unescape(_TAG.sub(" ", as_text(work.get("abstract")))).split())
    if abstract:
        fields["abstract"] = abstract
    names = {role: tuple(name for name in map(_person, map(as_map, as_list(work.get(member))))
                         if name is not None)
             for member, role in NAME_MEMBERS.items()}
    issued = next((date for date in map(work_date, (work.get(m) for m in ISSUED_MEMBERS)) if date),
                  None)
    keywords = tuple(dict.fromkeys(_first(s) for s in as_list(work.get("subject"))
                                   if _first(s)))
    return record_or_error(
        diagnostics, source, id=f"crossref:{doi or source.line}",
        type=WORK_TYPES.get(as_text(work.get("type")), "document"), fields=fields,
        names={role: people for role, people in names.items() if people},
        dates={"issued": issued} if issued else {}, keywords=keywords)


class CrossrefWorksReader(catalogue.CatalogueReader):
    name = "crossref-works"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        for line, value in json_objects(stream, source, diagnostics, WHAT):
            for work in works_of(value):
                record = work_record(work, Source(source, line), diagnostics)
                if record is not None:
                    yield record


READER = CrossrefWorksReader()
