"""Reader for ORCID public API v3.0 answers, JSON or XML: a record's works summaries
(``/v3.0/{orcid}/works``), full works in bulk (``/v3.0/{orcid}/works/{put-codes}``), one work
(``/work/{put-code}``) and the whole record (``/v3.0/{orcid}/record``), as the ORCID message
schema (orcid-model, ``record_3.0``) defines them.

ORCID groups the versions of one work that several sources added (by their shared ``self``
identifiers): each group is one record, made from the preferred version (the highest
``display-index``, ORCID's own choice), and completed from that version's full work when a
bulk answer is read with it (``records``). Two groups stay two records even when their titles
agree (versions of a data set with their own DOIs). A work's ``self`` identifiers become DOI,
arXiv identity, PMID, PMCID, ISBN (for a book chapter, the ``part-of`` ISBN is the book's) and
ISSN; other identifiers are kept in ``orcid.ids``; contributors keep their ORCID iDs. A work
without contributors takes the authors of its BibTeX citation when it has one. A record (or a
works answer, by its path) names its owner, who then owns every record; a work known only
by its summary is the owner's, with the author list marked incomplete. XML is read into the
shape of the JSON (element names are the JSON keys), so one mapping serves both. This module
must never make a request.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.services.answers import (
    JsonLines,
    as_map,
    load_json,
    local,
    owned,
    parse_xml,
    record_or_error,
)
from refbridge.identifiers import ARXIV_LABEL_OR_PAGE, clean_doi
from refbridge.model import Date, DateParts, Eprint, ModelError, Name, Record, Source
from refbridge.names.ids import PersonIdError, person_id
from refbridge.names.reading import split_name
from refbridge.richtext import Text

if TYPE_CHECKING:
    from lxml.etree import _Element

#: ORCID work type -> CSL item type (``orcid-model`` ``WorkType``; the rest are ``document``).
WORK_TYPES: dict[str, str] = {
    "journal-article": "article-journal",
    "journal-issue": "periodical",
    "conference-paper": "paper-conference",
    "conference-abstract": "paper-conference",
    "conference-output": "paper-conference",
    "conference-proceedings": "book",
    "conference-poster": "speech",
    "conference-presentation": "speech",
    "lecture-speech": "speech",
    "public-speech": "speech",
    "book": "book",
    "edited-book": "book",
    "book-chapter": "chapter",
    "book-review": "review-book",
    "review": "review",
    "dissertation-thesis": "thesis",
    "dissertation": "thesis",
    "supervised-student-publication": "thesis",
    "preprint": "article",
    "working-paper": "report",
    "report": "report",
    "data-set": "dataset",
    "software": "software",
    "patent": "patent",
    "magazine-article": "article-magazine",
    "newsletter-article": "article-magazine",
    "newspaper-article": "article-newspaper",
    "encyclopedia-entry": "entry-encyclopedia",
    "dictionary-entry": "entry-dictionary",
    "website": "webpage",
    "online-resource": "webpage",
    "blog-post": "post-weblog",
    "manual": "book",
    "standards-and-policy": "standard",
    "technical-standard": "standard",
    "translation": "document",
    "other": "document",
}
#: Genres CSL has no type for.
WORK_GENRES: dict[str, str] = {"conference-poster": "Poster", "working-paper": "Working paper",
                               "conference-abstract": "Abstract"}
#: ``self`` external identifier type -> CSL variable.
ID_VARIABLES: dict[str, str] = {"doi": "DOI", "pmid": "PMID", "pmc": "PMCID", "isbn": "ISBN",
                                "issn": "ISSN"}
#: Identifier types a ``part-of`` relationship gives to the work itself (the book's ISBN for a
#: chapter, the journal's ISSN for an article).
PART_OF_VARIABLES: frozenset[str] = frozenset({"isbn", "issn"})
#: Contributor role -> CSL name role (CRediT roles and the rest are authors).
CONTRIBUTOR_ROLES: dict[str, str] = {"editor": "editor", "chair-or-translator": "translator"}
#: Work member holding text (or ``{"value": text}``) -> CSL variable.
TEXT_MEMBERS: dict[str, str] = {"journal-title": "container-title",
                                "short-description": "abstract", "url": "URL",
                                "language-code": "language"}
_ORCID_PATH = re.compile(r"^/?(?P<id>\d{4}-\d{4}-\d{4}-\d{3}[\dX])", re.IGNORECASE)


# -- XML read into the JSON shape --------------------------------------------------------
#: Elements that repeat (always lists in the JSON).
_REPEATED = frozenset({"group", "work-summary", "external-id", "contributor", "work",
                       "error"})
_LINE = "@line"


def _shape(element: _Element) -> Any:
    """An ORCID XML element as the JSON member it stands for."""
    children = [child for child in element if isinstance(child.tag, str)]
    if not children and not element.attrib:
        return " ".join((element.text or "").split()) or None
    shaped: dict[str, Any] = {key.rsplit("}", 1)[-1]: value
                              for key, value in element.attrib.items()}
    shaped[_LINE] = element.sourceline
    text = " ".join((element.text or "").split())
    if text and not children:  # ``{"value": ..., "transient": true}`` in the JSON
        shaped["value"] = text
    for child in children:
        name = local(child)
        value = _shape(child)
        if name in _REPEATED:
            shaped.setdefault(name, []).append(value)
        else:
            shaped[name] = value
    return shaped


def _xml_document(root: _Element, source: str) -> dict[str, Any]:
    kind = local(root)
    shaped = _shape(root)
    if kind == "bulk":
        return {"bulk": [{local(child): _shape(child)} for child in root
                         if isinstance(child.tag, str)]}
    if kind in ("works", "record", "work"):
        return shaped if isinstance(shaped, dict) else {}
    raise ParseError(f"not an ORCID works answer: root element {kind!r}", source,
                     root.sourceline)


# -- values --------------------------------------------------------------------------------
def _value(member: Any) -> str | None:
    """Text of a member given as text or as ``{"value": text}``."""
    if isinstance(member, Mapping):
        member = member.get("value")
    if isinstance(member, (str, int)) and str(member).strip():
        return " ".join(str(member).split())
    return None


def _list(member: Any, key: str) -> list[Any]:
    """The list ``member[key]`` (a JSON list, or one XML element)."""
    if not isinstance(member, Mapping):
        return []
    found = member.get(key)
    if found is None:
        return []
    return [item for item in (found if isinstance(found, list) else [found])
            if isinstance(item, Mapping)]


def _date(member: Any) -> Date | None:
    if not isinstance(member, Mapping):
        return None
    parts = [_value(member.get(key)) for key in ("year", "month", "day")]
    numbers: list[int] = []
    for part in parts:
        if part is None or not part.isdigit():
            break
        numbers.append(int(part))
    try:
        return Date(start=DateParts(*numbers[:3])) if numbers else None
    except ModelError:
        return None


def _orcid(member: Any) -> str | None:
    path = member.get("path") if isinstance(member, Mapping) else None
    try:
        return person_id("orcid", str(path)) if path else None
    except PersonIdError:
        return None


@dataclass(slots=True)
class _Parts:
    """A work's record being built."""

    fields: dict[str, Text]
    names: dict[str, list[Name]]
    extra: dict[str, str]
    eprint: Eprint | None = None


def _identifiers(work: Mapping[str, Any], parts: _Parts, work_type: str) -> None:
    other: list[str] = []
    for external in _list(work.get("external-ids"), "external-id"):
        kind = str(external.get("external-id-type") or "").lower()
        value = _value(external.get("external-id-normalized")) or _value(
            external.get("external-id-value"))
        relation = str(external.get("external-id-relationship") or "self").lower()
        if not kind or not value:
            continue
        own = relation == "self" or (relation == "part-of" and kind in PART_OF_VARIABLES
                                     and work_type != "book")
        if own and kind == "arxiv" and parts.eprint is None:
            parts.eprint = Eprint("arXiv", ARXIV_LABEL_OR_PAGE.sub("", value))
        elif own and kind in ID_VARIABLES:
            parts.fields.setdefault(ID_VARIABLES[kind],
                                    clean_doi(value) if kind == "doi" else value)
        else:
            other.append(f"{relation} {kind}:{value}")
    if other:
        parts.extra["orcid.ids"] = "\n".join(other)


def _contributors(work: Mapping[str, Any], parts: _Parts) -> None:
    for contributor in _list(work.get("contributors"), "contributor"):
        credit = _value(contributor.get("credit-name"))
        if credit is None:
            continue
        attributes = contributor.get("contributor-attributes")
        role_text = str(attributes.get("contributor-role") or "author").lower() \
            if isinstance(attributes, Mapping) else "author"
        role = CONTRIBUTOR_ROLES.get(role_text, "author")
        split = split_name(credit)
        orcid = _orcid(contributor.get("contributor-orcid"))
        parts.names.setdefault(role, []).append(Name(
            family=split.family, given=split.given,
            non_dropping_particle=split.non_dropping_particle, suffix=split.suffix,
            ids=(orcid,) if orcid else ()))


def _citation_authors(work: Mapping[str, Any], parts: _Parts) -> None:
    """Authors of the work's BibTeX citation, for a work that lists no contributors."""
    citation = work.get("citation")
    if "author" in parts.names or not isinstance(citation, Mapping):
        return
    if str(citation.get("citation-type") or "").lower() != "bibtex":
        return
    text = citation.get("citation-value")
    if not isinstance(text, str) or "@" not in text:
        return
    from refbridge.formats.bibtex.reader import READER as BIBTEX

    quiet = Diagnostics()
    try:
        cited = next(iter(BIBTEX.read(io.StringIO(text), "<orcid citation>", quiet)), None)
    except ParseError:
        return
    if cited is not None and cited.authors:
        parts.names["author"] = list(cited.authors)
        parts.extra["orcid.authors-from"] = "citation"


def _title(work: Mapping[str, Any], parts: _Parts) -> None:
    title = work.get("title")
    if not isinstance(title, Mapping):
        return
    main, subtitle = _value(title.get("title")), _value(title.get("subtitle"))
    if main:
        parts.fields["title"] = f"{main}: {subtitle}" if subtitle else main
    translated = _value(title.get("translated-title"))
    if translated:
        parts.extra["orcid.translated-title"] = translated


def work_record(work: Mapping[str, Any], source: Source, diagnostics: Diagnostics,
                full: Mapping[str, Any] | None = None) -> Record | None:
    """The record of one work (a summary or a full work); ``full``: the full work of the same
    put-code, whose values win."""
    merged = {**work, **{k: v for k, v in (full or {}).items() if v not in (None, "", [])}}
    work_type = str(merged.get("type") or "other").lower()
    parts = _Parts({}, {}, {})
    _title(merged, parts)
    for member, variable in TEXT_MEMBERS.items():
        text = _value(merged.get(member))
        if text:
            parts.fields[variable] = text
    if work_type in WORK_GENRES:
        parts.fields["genre"] = WORK_GENRES[work_type]
    _identifiers(merged, parts, work_type)
    _contributors(merged, parts)
    _citation_authors(merged, parts)
    put_code = _value(merged.get("put-code"))
    if put_code:
        parts.extra["orcid.put-code"] = put_code
    if work_type not in WORK_TYPES:
        parts.extra["orcid.type"] = work_type
    issued = _date(merged.get("publication-date"))
    path = _value(merged.get("path"))
    return record_or_error(
        diagnostics, source, id=f"orcid:{path.strip('/') if path else put_code or source.line}",
        type=WORK_TYPES.get(work_type, "document"), fields=parts.fields,
        names={role: tuple(people) for role, people in parts.names.items()},
        dates={"issued": issued} if issued else {}, eprint=parts.eprint, extra=parts.extra)


def preferred(group: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The version ORCID shows for a group: the highest ``display-index`` (the first of
    equals)."""
    summaries = _list(group, "work-summary")

    def index(summary: Mapping[str, Any]) -> int:
        text = _value(summary.get("display-index")) or "0"
        return int(text) if text.lstrip("-").isdigit() else 0

    return max(summaries, key=index) if summaries else None


# -- documents -----------------------------------------------------------------------------
@dataclass(slots=True)
class Document:
    """What one ORCID answer holds: work groups (summaries), full works, the owner."""

    groups: list[Mapping[str, Any]]
    works: list[Mapping[str, Any]]
    errors: list[Mapping[str, Any]]
    owner: str | None = None
    owner_id: str | None = None


def person_name(person: Any) -> str | None:
    name = person.get("name") if isinstance(person, Mapping) else None
    if not isinstance(name, Mapping):
        return None
    credit = _value(name.get("credit-name"))
    given, family = _value(name.get("given-names")), _value(name.get("family-name"))
    return credit or " ".join(p for p in (given, family) if p) or None


def document(data: Any, source: str) -> Document:
    """The parts of an ORCID answer (JSON, or XML read into its shape)."""
    if not isinstance(data, Mapping):
        raise ParseError("not an ORCID answer: expected a JSON object", source, 1)
    path_match = _ORCID_PATH.match(str(data.get("path") or ""))
    owner_id = _orcid({"path": path_match.group("id")}) if path_match else None
    if "bulk" in data:
        entries = data["bulk"] if isinstance(data["bulk"], list) else []
        return Document([], [e["work"] for e in entries
                             if isinstance(e, Mapping) and isinstance(e.get("work"), Mapping)],
                        [e["error"] for e in entries
                         if isinstance(e, Mapping) and isinstance(e.get("error"), Mapping)])
    if "activities-summary" in data or "orcid-identifier" in data:
        works = as_map(as_map(data.get("activities-summary")).get("works"))
        owner_id = _orcid(data.get("orcid-identifier")) or owner_id
        return Document(_list(works, "group"), [], [], person_name(data.get("person")),
                        owner_id)
    if "group" in data:
        return Document(_list(data, "group"), [], [], None, owner_id)
    if "title" in data and ("put-code" in data or "external-ids" in data):
        return Document([], [data], [])
    raise ParseError("not an ORCID works answer (no group, bulk, work or record)", source, 1)


def put_code(work: Mapping[str, Any]) -> str | None:
    return _value(work.get("put-code"))


def records(documents: Sequence[Document], source: str, diagnostics: Diagnostics,
            lines: JsonLines | None = None) -> Iterator[Record]:
    """The records of ORCID answers read together: one per work group, completed from the
    full works of the same put-codes; full works without a group are records of their own."""
    full = {code: work for doc in documents for work in doc.works
            if (code := put_code(work)) is not None}
    used: set[str] = set()
    found: list[Record] = []
    for doc in documents:
        for error in doc.errors:
            diagnostics.warning(f"ORCID reported an error for a work: "
                                f"{_value(error.get('developer-message')) or error}", source,
                                error.get(_LINE))
        for group in doc.groups:
            summary = preferred(group)
            if summary is None:
                continue
            code = put_code(summary)
            used.add(code or "")
            record = work_record(summary, Source(source, _line(summary, lines)), diagnostics,
                                 full.get(code or ""))
            if record is not None:
                found.append(record)
    for doc in documents:
        for work in doc.works:
            if put_code(work) not in used:
                record = work_record(work, Source(source, _line(work, lines)), diagnostics)
                if record is not None:
                    found.append(record)
    owner = next((doc.owner for doc in documents if doc.owner), None)
    owner_id = next((doc.owner_id for doc in documents if doc.owner_id), None)
    if owner:
        found = [_by_owner(record, owner, owner_id) for record in found]
    yield from owned(found, owner, [owner_id] if owner_id else [])


def _by_owner(record: Record, owner: str, owner_id: str | None) -> Record:
    """A record without names (a summary) as the owner's, the author list marked incomplete:
    a work on someone's ORCID record is theirs, the other authors are unknown."""
    if record.names:
        return record
    split = split_name(owner)
    person = Name(family=split.family, given=split.given,
                  non_dropping_particle=split.non_dropping_particle, suffix=split.suffix,
                  ids=(owner_id,) if owner_id else ())
    return record.replace(names={"author": (person,)}, incomplete_names=frozenset({"author"}))


def _line(work: Mapping[str, Any], lines: JsonLines | None) -> int | None:
    line = work.get(_LINE)
    if isinstance(line, int):
        return line
    code = put_code(work)
    return lines.line_of(f'"put-code": {code}') if lines and code else None


def read_document(text: str, source: str, diagnostics: Diagnostics | None = None
                  ) -> tuple[Document, JsonLines | None]:
    """One ORCID answer, JSON or XML (``diagnostics``: where lone surrogates are reported)."""
    if text.lstrip().startswith("<"):
        return document(_xml_document(parse_xml(text, source, "an ORCID answer"), source),
                        source), None
    lines = JsonLines(re.sub(r'"put-code"\s*:\s*', '"put-code": ', text))
    return document(load_json(text, source, "an ORCID answer", diagnostics), source), lines


class OrcidReader(catalogue.CatalogueReader):
    name = "orcid"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        doc, lines = read_document(stream.read(), source, diagnostics)
        yield from records([doc], source, diagnostics, lines)


READER = OrcidReader()
