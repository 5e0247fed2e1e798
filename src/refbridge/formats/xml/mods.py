"""MODS XML (Library of Congress), read and written: the format of library catalogues and
repositories, and the hub format of bibutils.

A record is a ``mods`` element (in a ``modsCollection``): ``titleInfo/title`` (with
``nonSort`` and ``subTitle``), ``name`` with typed ``namePart``s and a ``role/roleTerm``,
``originInfo`` (``dateIssued`` as W3CDTF, ``publisher``, ``place/placeTerm``, ``edition``),
``genre``, ``language/languageTerm``, ``abstract``, ``note``, ``subject/topic`` (keywords),
``classification``, ``identifier type="doi|isbn|issn|pmid|pmc|citekey"``, ``location/url``,
``relatedItem type="host"`` (the journal or book, with its own title, editors, publisher and
``part``) and ``relatedItem type="series"``, and ``part`` (``detail type="volume|issue"``,
``extent unit="page"`` with ``start``/``end``). The CSL type is told from the record's genre,
else its host's genre, else its host's ``issuance`` (``mods_tables``). Date ranges
(``point="start"``/``"end"``) and circa (``qualifier="approximate"``) are MODS's own.

What MODS has no element for here travels in a ``note`` ``refbridge: {CSL-JSON}``
(``formats.residue``), so reading refbridge's own MODS gives back its records. Parsing
refuses entity declarations (``formats.xmlinput``). This module must never drop a record or
value silently.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TextIO

from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats.datetext import not_understood_message, read_date
from refbridge.formats.residue import (
    RESIDUE_LABEL,
    apply_residues,
    looks_like_residue,
    note_residue,
    residue_note,
)
from refbridge.formats.selection import select
from refbridge.formats.tagged import ris
from refbridge.formats.xml import mods_tables as t
from refbridge.formats.xml.safe import child, children, local_name, parse_xml, text_of, xml_text
from refbridge.formats.zotero.rdf import parse_date
from refbridge.model import Date, DateParts, ModelError, Name, Record, Source
from refbridge.names.reading import name_from_fields, split_name
from refbridge.registry import WriteOptions
from refbridge.richtext import Text, plain

_TYPE_OF_GENRE = {**t.GENRE_ALIASES, **{genre: csl for csl, (genre, _, _) in reversed(list(
    t.TYPE_GENRES.items())) if genre}}
_ROLE_OF_TERM = {**t.ROLE_ALIASES, **{term: role for role, term in t.ROLE_TERMS.items()}}
_VARIABLE_OF_IDENTIFIER = {**t.IDENTIFIER_ALIASES, **{i: v for v, i in t.IDENTIFIERS.items()}}
_VARIABLE_OF_DETAIL = {**t.DETAIL_ALIASES, **{d: v for v, d in t.DETAILS.items()}}
#: Roles written in the host item (a chapter's or paper's editors).
_LEADING_YEAR = re.compile(r"^(\d{4})\b")
_HOST_ROLES = frozenset({"editor", "container-author"})


# -- reading ------------------------------------------------------------------------------------
def _title(item: Any, kind: str | None = None) -> str:
    for info in children(item, "titleInfo"):
        if info.get("type") == kind:
            title = " ".join(p for p in (text_of(child(info, "nonSort")),
                                         text_of(child(info, "title"))) if p)
            subtitle = text_of(child(info, "subTitle"))
            return f"{title}: {subtitle}" if subtitle and title else title or subtitle
    return ""


def _name(element: Any) -> Name | None:
    parts: dict[str, list[str]] = {}
    for part in children(element, "namePart"):
        if text := text_of(part):
            parts.setdefault(part.get("type") or "", []).append(text)
    if not parts:
        return None
    family, given = " ".join(parts.get("family", ())), " ".join(parts.get("given", ()))
    suffix = " ".join(parts.get("termsOfAddress", ()) or parts.get("suffix", ()))
    if family or given:
        return name_from_fields(family or None, given or None, suffix or None)
    whole = " ".join(parts.get("", ()))
    if not whole:
        return None
    if element.get("type") in ("corporate", "conference", "family"):
        return Name(literal=whole)
    person = ris.parse_name(whole) if "," in whole else split_name(whole)
    if suffix and person.literal is None and person.suffix is None:
        person = dataclasses.replace(person, suffix=suffix)
    return person


def _roles(element: Any) -> list[str]:
    return [text_of(term).lower() for role in children(element, "role")
            for term in children(role, "roleTerm") if text_of(term)]


def _date(elements: list[Any], warn: Callable[..., None]) -> Date | None:
    """The date of ``dateIssued``-like elements (a point, or start and end points), their
    text read by ``refbridge.formats.datetext`` (``1985-1988``, ``May 2019``); what cannot be
    read stays literal, after ``warn``."""
    if not elements:
        return None
    by_point = {e.get("point"): text_of(e) for e in elements if text_of(e)}
    start_text = by_point.get("start") or by_point.get(None) or next(iter(by_point.values()),
                                                                     "")
    if not start_text:
        return None
    reading = read_date(start_text)
    start = reading.date or Date(literal=start_text)
    circa = start.circa or any(e.get("qualifier") == "approximate" for e in elements)
    end = parse_date(by_point["end"]) if "end" in by_point else None
    if start.start is None:
        year = _LEADING_YEAR.match(start_text)  # bibutils: 1986-apr-may
        if year is None and reading.not_understood:
            warn(not_understood_message(local_name(elements[0]), start_text),
                 line=elements[0].sourceline)
        return Date(start=DateParts(int(year[1])), literal=start_text) if year else Date(
            literal=start_text)
    try:
        return Date(start=start.start, end=end.start if end else start.end,
                    season=start.season, circa=circa)
    except ModelError:
        return Date(start=start.start, season=start.season, circa=circa)


def _type(item: Any, host: Any | None) -> str:
    for genre in children(item, "genre"):
        if found := _TYPE_OF_GENRE.get(text_of(genre).lower()):
            return found
    if host is not None:
        for genre in children(host, "genre"):
            if found := t.HOST_GENRES.get(text_of(genre).lower()):
                return found
        issuance = text_of(_first(host, "originInfo", "issuance"))
        return "article-journal" if issuance in ("continuing", "serial") else "chapter"
    if text_of(_first(item, "originInfo", "issuance")) == "monographic":
        return "book"
    return "document"


def _first(item: Any | None, *path: str) -> Any | None:
    for name in path:
        if item is None:
            return None
        item = child(item, name)
    return item


def _part(part: Any, fields: dict[str, Text]) -> None:
    for detail in children(part, "detail"):
        variable = _VARIABLE_OF_DETAIL.get(detail.get("type") or "")
        value = text_of(child(detail, "number")) or text_of(child(detail, "title"))
        if variable and value:
            fields.setdefault(variable, value)
    for extent in children(part, "extent"):
        if extent.get("unit") not in (None, "page", "pages", "pp"):
            continue
        start, end = text_of(child(extent, "start")), text_of(child(extent, "end"))
        pages = "-".join(p for p in (start, end) if p) or text_of(child(extent, "list"))
        if pages:
            fields.setdefault("page", pages)
        elif total := text_of(child(extent, "total")):
            fields.setdefault("number-of-pages", total)


def record_of(item: Any, source: str, number: int, diagnostics: Diagnostics,
              with_residue: bool = True) -> Record:
    """The record of a ``mods`` element; raises ``ValueError`` when it cannot be built."""
    line = item.sourceline or 1
    warn = partial(diagnostics.warning, file=source)
    related = {r.get("type"): r for r in children(item, "relatedItem")}
    host, series = related.get("host"), related.get("series")
    fields: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    dates: dict[str, Date] = {}
    keywords: list[str] = []
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    key = (item.get("ID") or "").strip() or None
    for variable, value in (("title", _title(item)), ("title-short", _title(item, "abbreviated")),
                            ("container-title", _title(host) if host is not None else ""),
                            ("container-title-short", _title(host, "abbreviated")
                             if host is not None else ""),
                            ("collection-title", _title(series) if series is not None else "")):
        if value:
            fields[variable] = value
    for holder in (item, host):
        for element in children(holder, "name") if holder is not None else ():
            person = _name(element)
            roles = _roles(element) or ["author" if holder is item else "editor"]
            if person is None:
                continue
            if roles[0] in t.PUBLISHER_ROLES:
                fields.setdefault("publisher", person.display())
                continue
            role = _ROLE_OF_TERM.get(roles[0])
            if role is None:
                diagnostics.warning(f"unknown MODS role {roles[0]!r}, read as a contributor",
                                    source, element.sourceline)
                role = "contributor"
            names.setdefault(role, []).append(person)
    for holder in (item, host):
        origin = child(holder, "originInfo") if holder is not None else None
        if origin is None:
            continue
        for variable, element in t.ORIGIN.items():
            if value := text_of(child(origin, element)):
                fields.setdefault(variable, value)
        place = _first(origin, "place", "placeTerm")
        if text_of(place):
            fields.setdefault("publisher-place", text_of(place))
        for variable, element in t.DATES.items():
            date = _date(list(children(origin, element)), warn)
            if date is not None:
                dates.setdefault(variable, date)
    for holder in (item, host):
        for identifier in children(holder, "identifier") if holder is not None else ():
            kind, value = (identifier.get("type") or "").lower(), text_of(identifier)
            if kind == t.KEY_IDENTIFIER and value:
                key = key or value
            elif (identified := _VARIABLE_OF_IDENTIFIER.get(kind)) and value:
                fields.setdefault(identified, value)
            elif kind == "uri" and value:
                fields.setdefault("URL", value)
    for holder in (item, host):
        for part in children(holder, "part") if holder is not None else ():
            _part(part, fields)
            if "issued" not in dates and (date := _date(list(children(part, "date")), warn)):
                dates["issued"] = date
    for variable, element in t.LOCATION.items():
        for location in children(item, "location"):
            if value := text_of(child(location, element)):
                fields.setdefault(variable, value)
    for element in item:
        name, text = local_name(element), text_of(element)
        if name == "abstract" and text:
            fields.setdefault("abstract", text)
        elif name == "note" and text:
            found = note_residue(text, source, element.sourceline, diagnostics)
            if found is not None:
                residues.append(found)
            else:
                notes.append(text)
        elif name == "subject":
            keywords += [text_of(s) for s in element if text_of(s)]
        elif name == "classification" and text:
            fields.setdefault("call-number", text)
        elif name == "genre" and element.get("authority") is None and text \
                and text.lower() not in _TYPE_OF_GENRE:
            fields.setdefault("genre", text)
        elif name == "language" and text:
            fields.setdefault("language", text)
    if notes:
        fields["note"] = "\n".join(notes)
    record = Record(
        id=key or f"mods{number}",
        type=_type(item, host),
        fields=fields,
        names={role: tuple(people) for role, people in names.items()},
        dates=dates,
        keywords=tuple(dict.fromkeys(keywords)),
        citation_key=key,
        source=Source(source, line),
    )
    return apply_residues(record, residues) if with_residue else record


def _records_of(root: Any, source: str, diagnostics: Diagnostics, with_residue: bool = True
                ) -> Iterator[Record]:
    if local_name(root) not in ("modsCollection", "mods"):
        raise ParseError("not MODS: the root element is not modsCollection or mods", source,
                         root.sourceline)
    items = [root] if local_name(root) == "mods" else list(children(root, "mods"))
    for number, item in enumerate(items, start=1):
        try:
            yield record_of(item, source, number, diagnostics, with_residue)
        except ValueError as exc:
            diagnostics.error(f"record skipped: {exc}", source, item.sourceline or 1)


# -- writing ------------------------------------------------------------------------------------
def _sub(parent: Any, name: str, text: str | None = None, **attributes: str) -> Any:
    from lxml import etree

    element = etree.SubElement(parent, f"{{{t.NAMESPACE}}}{name}", attributes)
    if text is not None:
        element.text = xml_text(text)
    return element


def _write_name(parent: Any, person: Name, role: str) -> None:
    element = _sub(parent, "name", type="corporate" if person.literal else "personal")
    if person.literal is not None:
        _sub(element, "namePart", person.literal)
    else:
        given = " ".join(p for p in (person.given, person.dropping_particle) if p)
        family = " ".join(p for p in (person.non_dropping_particle, person.family) if p)
        for kind, value in (("given", given), ("family", family),
                            ("termsOfAddress", person.suffix or "")):
            if value:
                _sub(element, "namePart", value, type=kind)
    _sub(_sub(element, "role"), "roleTerm", t.ROLE_TERMS[role], authority="marcrelator",
         type="text")


def _w3cdtf(parts: DateParts) -> str:
    year = f"{parts.year:04d}" if parts.year > 0 else f"-{-parts.year:04d}"
    return "-".join([year] + [f"{p:02d}" for p in (parts.month, parts.day) if p])


def _write_date(parent: Any, name: str, date: Date) -> None:
    if date.start is None:
        if date.literal:
            _sub(parent, name, date.literal)
        return
    extra = {"qualifier": "approximate"} if date.circa else {}
    if date.end is None:
        _sub(parent, name, _w3cdtf(date.start), encoding="w3cdtf", **extra)
        return
    _sub(parent, name, _w3cdtf(date.start), encoding="w3cdtf", point="start", **extra)
    _sub(parent, name, _w3cdtf(date.end), encoding="w3cdtf", point="end")


def mods_element(record: Record, note: str | None = None) -> Any:
    """The ``mods`` element of ``record``'s native MODS (plus ``note``, the residue)."""
    from lxml import etree

    fields = {variable: plain(value) for variable, value in record.fields.items()}
    item = etree.Element(f"{{{t.NAMESPACE}}}mods", nsmap={None: t.NAMESPACE})
    if record.citation_key:
        item.set("ID", record.citation_key)
    if "title" in fields:
        _sub(_sub(item, "titleInfo"), "title", fields["title"])
    if "title-short" in fields:
        _sub(_sub(item, "titleInfo", type="abbreviated"), "title", fields["title-short"])
    genre, authority, host_genre = t.TYPE_GENRES.get(record.type, (None, "", None))
    for role, people in record.names.items():
        if role in t.ROLE_TERMS and not (host_genre and role in _HOST_ROLES):
            for person in people:
                _write_name(item, person, role)
    origin = _sub(item, "originInfo")
    for variable, element in t.DATES.items():
        if variable in record.dates:
            _write_date(origin, element, record.dates[variable])
    for variable, element in t.ORIGIN.items():
        if variable in fields:
            _sub(origin, element, fields[variable])
    if "publisher-place" in fields:
        _sub(_sub(origin, "place"), "placeTerm", fields["publisher-place"], type="text")
    if host_genre is None and record.type in ("book", "report", "thesis"):
        _sub(origin, "issuance", "monographic")
    if not len(origin):
        item.remove(origin)
    _sub(item, "typeOfResource", "text")
    if genre:
        _sub(item, "genre", genre, authority=authority)
    if "genre" in fields:
        _sub(item, "genre", fields["genre"])
    if "language" in fields:
        _sub(_sub(item, "language"), "languageTerm", fields["language"], type="text")
    part_holder = item
    if host_genre is not None or "container-title" in fields:
        host = _sub(item, "relatedItem", type="host")
        if "container-title" in fields:
            _sub(_sub(host, "titleInfo"), "title", fields["container-title"])
        if "container-title-short" in fields:
            _sub(_sub(host, "titleInfo", type="abbreviated"), "title",
                 fields["container-title-short"])
        if host_genre is not None:
            for role in _HOST_ROLES & record.names.keys():
                for person in record.names[role]:
                    _write_name(host, person, role)
            if host_genre in ("periodical", "newspaper"):
                _sub(_sub(host, "originInfo"), "issuance", "continuing")
            _sub(host, "genre", host_genre, authority="marcgt")
        part_holder = host
    if "collection-title" in fields:
        _sub(_sub(_sub(item, "relatedItem", type="series"), "titleInfo"), "title",
             fields["collection-title"])
    for variable, element in (("abstract", "abstract"),):
        if variable in fields:
            _sub(item, element, fields[variable])
    if "note" in fields and not looks_like_residue(fields["note"]):
        _sub(item, "note", fields["note"])
    if note is not None:
        _sub(item, "note", note)
    for keyword in record.keywords:
        _sub(_sub(item, "subject"), "topic", keyword)
    if "call-number" in fields:
        _sub(item, "classification", fields["call-number"])
    for variable, kind in t.IDENTIFIERS.items():
        if variable in fields:
            _sub(item, "identifier", fields[variable], type=kind)
    if record.citation_key:
        _sub(item, "identifier", record.citation_key, type=t.KEY_IDENTIFIER)
    location = _sub(item, "location")
    for variable, element in t.LOCATION.items():
        if variable in fields:
            _sub(location, element, fields[variable])
    if not len(location):
        item.remove(location)
    part = _sub(part_holder, "part")
    for variable, kind in t.DETAILS.items():
        if variable in fields:
            _sub(_sub(part, "detail", type=kind), "number", fields[variable])
    if "page" in fields:
        extent = _sub(part, "extent", unit="page")
        first, dash, last = fields["page"].partition("-")
        if dash and first.strip() and last.strip():
            _sub(extent, "start", first.strip())
            _sub(extent, "end", last.strip())
        else:
            _sub(extent, "list", fields["page"])
    if "number-of-pages" in fields and "page" not in fields:
        _sub(_sub(part, "extent", unit="page"), "total", fields["number-of-pages"])
    if not len(part):
        part_holder.remove(part)
    return item


def record_mods(record: Record) -> Any:
    """The ``mods`` element of ``record``, with a residue note when MODS loses something."""
    from lxml import etree

    written = etree.fromstring(etree.tostring(mods_element(record)))
    (native,) = _records_of(written, "<mods>", Diagnostics(), with_residue=False)
    return mods_element(record, residue_note(record, native))


class ModsReader:
    name = "mods"
    sniff_first = True
    description = "MODS XML (Library of Congress; library catalogues, bibutils)"
    extensions = (".mods", ".mods.xml")

    def sniff(self, head: str) -> bool:
        return t.NAMESPACE in head and ("<modsCollection" in head or "<mods" in head)

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        return _records_of(parse_xml(stream.read(), source, "MODS"), source, diagnostics)


class ModsWriter:
    name = "mods"
    description = "MODS XML (Library of Congress; bibutils' xml2bib, xml2ris … read it)"
    extension = ".mods"

    def write(self, records: Iterable[Record], out: TextIO, options: WriteOptions) -> None:
        from lxml import etree

        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<modsCollection '
                  f'xmlns="{t.NAMESPACE}">\n')
        for record in records:
            element = record_mods(select(record, options, {}))
            etree.indent(element, space=options.indent or "  ")
            out.write(etree.tostring(element, encoding="unicode") + "\n")
        out.write("</modsCollection>\n")


def _coverage() -> Coverage:
    native = {
        "type": "genre (+ the host's genre)", "citation-key": "@ID, identifier citekey",
        "keywords": "subject/topic", "title": "titleInfo/title",
        "title-short": "titleInfo[@type=abbreviated]/title",
        "container-title": "relatedItem[@type=host]/titleInfo/title",
        "container-title-short": "relatedItem[@type=host]/titleInfo[@type=abbreviated]",
        "collection-title": "relatedItem[@type=series]/titleInfo/title",
        "publisher-place": "originInfo/place/placeTerm", "abstract": "abstract",
        "note": "note", "call-number": "classification", "genre": "genre",
        "language": "language/languageTerm", "page": "part/extent[@unit=page]",
        "number-of-pages": "part/extent/total",
        **{v: f"originInfo/{e}" for v, e in t.ORIGIN.items()},
        **{v: f"originInfo/{e}" for v, e in t.DATES.items()},
        **{v: f"identifier[@type={i}]" for v, i in t.IDENTIFIERS.items()},
        **{v: f"location/{e}" for v, e in t.LOCATION.items()},
        **{v: f"part/detail[@type={d}]" for v, d in t.DETAILS.items()},
        **{role: f"name (role {term})" for role, term in t.ROLE_TERMS.items()},
    }
    note = f"note `{RESIDUE_LABEL}: {{CSL-JSON}}`"
    return Coverage(
        format="mods",
        native=native,
        elsewhere={part: note for part in MODEL_PARTS if part not in native},
        notes=(
            ("The CSL type is written as MARC (`marcgt`) or bibutils (`bibutilsgt`) genre "
             "terms, with the host's genre for articles and chapters; types without a genre "
             "travel in the residue note."),
            ("Names are typed `namePart`s (given, family, termsOfAddress); particles are "
             "merged into the family and given names and split off again by the particle "
             "table."),
            ("Dates are W3CDTF, with `point=\"start\"`/`\"end\"` ranges and "
             "`qualifier=\"approximate\"`; seasons travel in the residue note."),
            "Rich text is written as plain text and travels exactly in the residue note.",
        ),
    )


READER = ModsReader()
WRITER = ModsWriter()
WRITER.coverage = _coverage()  # type: ignore[attr-defined]
