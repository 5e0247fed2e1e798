"""MODS XML (Library of Congress), read and written: the format of library catalogues and
repositories, and the hub format of bibutils.

A record is a ``mods`` element (in a ``modsCollection``): ``titleInfo/title`` (with
``nonSort`` and ``subTitle``), ``name`` with typed ``namePart``s and a ``role/roleTerm``,
``originInfo`` (``dateIssued`` as W3CDTF, ``publisher``, ``place/placeTerm``, ``edition``),
``genre``, ``language/languageTerm``, ``abstract``, ``note``, ``subject/topic`` (keywords; a
subject's places, periods and genres are kept as ``mods.subject-*`` extras, a map's scale read),
``classification``, ``identifier type="doi|isbn|issn|pmid|pmc|citekey"``, ``location/url``,
``relatedItem type="host"`` (the journal or book, with its own title, editors, publisher and
``part``) and ``relatedItem type="series"``, and ``part`` (``detail type="volume|issue"``,
``extent unit="page"`` with ``start``/``end``). The CSL type is told as Zotero tells it: by
GovInfo's congressional ``extension`` (bills, hearings), the record's genre, its
``typeOfResource``, its host's genre, its ``internetMediaType``, a recipient (a letter), then its
host's ``issuance`` (an article or a chapter), else a monograph is a book (``mods_tables``).
Date ranges
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

from refbridge.citekeys import XML_KEY_UNSAFE
from refbridge.coverage import MODEL_PARTS, Coverage
from refbridge.errors import Diagnostics, ParseError
from refbridge.formats import catalogue
from refbridge.formats.csljson import apply_residues, residue_note
from refbridge.formats.datetext import not_understood_message, read_date
from refbridge.formats.residue import RESIDUE_LABEL, looks_like_residue, note_residue
from refbridge.formats.selection import select
from refbridge.formats.tagged import ris
from refbridge.formats.xml import mods_tables as t
from refbridge.formats.xml.safe import (
    child,
    children,
    local_name,
    parse_xml,
    report_unread,
    text_of,
    xml_text,
)
from refbridge.formats.zotero import tables as zt
from refbridge.formats.zotero.rdf import parse_date
from refbridge.identifiers import clean_doi_field
from refbridge.model import (
    Date,
    DateParts,
    ModelError,
    Name,
    Record,
    Source,
    add_extra_line,
    extra_key,
)
from refbridge.names.reading import name_from_fields, split_name
from refbridge.registry import WriteOptions
from refbridge.richtext import Text, plain

#: Genre term (lower case) -> CSL type: Zotero's item types (its exports' ``authority="local"``
#: genre), MARC's terms as Zotero reads them, then refbridge's own terms, which win.
_TYPE_OF_GENRE = {
    **{zotero.lower(): csl for zotero, csl in zt.CSL_TYPE_OF_ZOTERO.items()},
    **t.MARC_GENRES, **t.GENRE_ALIASES,
    **{genre: csl for csl, (genre, _, _) in reversed(list(t.TYPE_GENRES.items())) if genre}}
#: Genre terms that only name a type: read as the type, not kept as the genre field (a MARC
#: term such as ``fiction`` tells the type and is kept as the genre too).
_TYPE_NAMING_GENRES = frozenset(_TYPE_OF_GENRE) - frozenset(t.MARC_GENRES)
_ROLE_OF_TERM = {**t.ROLE_ALIASES, **{term: role for role, term in t.ROLE_TERMS.items()}}
_VARIABLE_OF_IDENTIFIER = {**t.IDENTIFIER_ALIASES, **{i: v for v, i in t.IDENTIFIERS.items()}}
_VARIABLE_OF_DETAIL = {**t.DETAIL_ALIASES, **{d: v for v, d in t.DETAILS.items()}}
#: CSL type -> the ``typeOfResource`` written for it (the first term that reads as it).
_RESOURCE_OF_TYPE = {csl: resource for resource, csl in reversed(t.RESOURCE_TYPES.items())}
#: Roles written in the host item (a chapter's or paper's editors).
_LEADING_YEAR = re.compile(r"^(\d{4})\b")
_HOST_ROLES = frozenset({"editor", "container-author"})
_LIFE_DATES = re.compile(t.LIFE_DATES)


# -- reading ------------------------------------------------------------------------------------
def _title_of(info: Any) -> str:
    """The title of a ``titleInfo``: ``nonSort``, ``title``, ``subTitle``, then ``partNumber``
    and ``partName`` (``Skrifter. D. 1-6 B. 4: Holbergs Comedier``), as Zotero joins them."""
    title = text_of(child(info, "title"))
    if subtitle := text_of(child(info, "subTitle")):
        title = f"{title.rstrip(' :')}: {subtitle}" if title else subtitle
    if non_sort := text_of(child(info, "nonSort")):
        title = f"{non_sort} {title}"
    number, name = text_of(child(info, "partNumber")), text_of(child(info, "partName"))
    if part := ": ".join(p for p in (number, name) if p):
        title = f"{title.removesuffix('.')}. {part}" if title else part
    return title

#: A key that can be ``mods/@ID``, an ``xs:ID`` (an XML name without a colon; a key that is
#: not one is written only as the ``citekey`` identifier).
_XML_ID = re.compile(r"^[^\W\d][\w.\-\u00b7\u0300-\u036f\u203f\u2040]*\Z")


def _title(item: Any, kind: str | None = None) -> str:
    return next((_title_of(info) for info in children(item, "titleInfo")
                 if info.get("type") == kind), "")


def _host_title(host: Any) -> str:
    """The host's title: its own, else its uniform or other title (``type="uniform"``)."""
    return _title(host) or next((_title_of(info) for info in children(host, "titleInfo")
                                 if info.get("type") != "abbreviated"), "")


def _other_titles(item: Any) -> dict[str, str]:
    """``mods.title-<type>`` extras of the alternative, translated, uniform titles."""
    extra: dict[str, list[str]] = {}
    for info in children(item, "titleInfo"):
        kind = info.get("type")
        if kind not in (None, "abbreviated") and (title := _title_of(info)):
            extra.setdefault(extra_key("mods", f"title-{kind}"), []).append(title)
    return {key: "\n".join(titles) for key, titles in extra.items()}


def _name(element: Any) -> Name | None:
    parts: dict[str, list[str]] = {}
    for part in children(element, "namePart"):
        if text := text_of(part):
            parts.setdefault(part.get("type") or "", []).append(text)
    family, given = " ".join(parts.get("family", ())), " ".join(parts.get("given", ()))
    suffix = " ".join(parts.get("termsOfAddress", ()) or parts.get("suffix", ()))
    if family or given:
        return name_from_fields(family or None, given or None, suffix or None)
    joined = element.get("type") in t.JOINED_NAME_TYPES
    whole = (": " if joined else " ").join(parts.get("", ())) or text_of(
        child(element, "displayForm"))
    if not whole:
        return None
    if joined:
        return Name(literal=whole)
    whole = _LIFE_DATES.sub("", whole).strip() or whole
    person = ris.parse_name(whole) if "," in whole else split_name(whole)
    if suffix and person.literal is None and person.suffix is None:
        person = dataclasses.replace(person, suffix=suffix)
    return person


def _life_dates(element: Any) -> str:
    """The life dates of a name (``1896-1972``): its ``namePart type="date"``, or those written
    in a personal name given whole; '' when it has none."""
    typed = [text_of(p) for p in children(element, "namePart")
             if p.get("type") == "date" and text_of(p)]
    if not typed and element.get("type") not in t.JOINED_NAME_TYPES:
        typed = [found.group().strip(" ,.[]()") for p in children(element, "namePart")
                 if not p.get("type") for found in _LIFE_DATES.finditer(text_of(p))]
    return ", ".join(typed)


def _roles(element: Any) -> list[str]:
    """The ``roleTerm``s of a name, codes and texts, lower case, in order."""
    return [text_of(term).lower() for role in children(element, "role")
            for term in children(role, "roleTerm") if text_of(term)]


def _role(terms: list[str]) -> str | None:
    """The CSL role (or ``publisher``) of a name's role terms: the first term, code or text,
    that says one."""
    for term in terms:
        if term in t.PUBLISHER_ROLES:
            return "publisher"
        if term in _ROLE_OF_TERM:
            return _ROLE_OF_TERM[term]
    return None


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


def _genre_type(item: Any) -> str | None:
    """The CSL type the record's own ``genre``s say (MARC, Dublin Core, Zotero's or
    refbridge's terms), or None."""
    for genre in children(item, "genre"):
        text = text_of(genre)
        if found := _TYPE_OF_GENRE.get(text.lower()):
            return found
        if genre.get("authority") == "dct" and (
                found := t.DCT_GENRES.get("".join(text.split()).lower())):
            return found
    return None


def _told_type(item: Any, host: Any | None, roles: Iterable[str]) -> str | None:
    """The CSL type the record tells: its congressional extension, then in Zotero's order its
    genre, its ``typeOfResource``, its host's genre, its media type, a role of its names."""
    if found := next(_extension_types(item), None):
        return found
    if found := _genre_type(item):
        return found
    for resource in children(item, "typeOfResource"):
        if found := t.RESOURCE_TYPES.get(text_of(resource)):
            return found
    for genre in children(host, "genre") if host is not None else ():
        if found := t.HOST_GENRES.get(text_of(genre).lower()):
            return found
    for description in children(item, "physicalDescription"):
        for media in children(description, "internetMediaType"):
            if found := t.MEDIA_TYPES.get(text_of(media)):
                return found
    return next((t.ROLE_TYPES[role] for role in roles if role in t.ROLE_TYPES), None)


def _extension_types(item: Any) -> Iterator[str]:
    """The CSL types the elements of the record's ``extension``s tell (``billNumber``)."""
    for extension in children(item, "extension"):
        for element in extension.iter():
            if found := t.EXTENSION_TYPES.get(local_name(element) or ""):
                yield found


def _extension_text(item: Any, name: str) -> str:
    """The text of the first ``name`` element of the record's ``extension``s, or ''."""
    return next((text for extension in children(item, "extension")
                 for element in children(extension, name) if (text := text_of(element))), "")


def _bill(item: Any, fields: dict[str, Text], extra: dict[str, str]) -> None:
    """A bill's short title as its title (the official one kept) and its number."""
    if short := _extension_text(item, "shortTitle"):
        if "title" in fields and plain(fields["title"]) != short:
            extra[t.BILL_OFFICIAL_TITLE] = plain(fields["title"])
        fields["title"] = short
    if number := _extension_text(item, "billNumber"):
        kind = t.BILL_CLASSES.get(_extension_text(item, "docClass").lower())
        fields.setdefault("number", f"{kind} {number}" if kind else number)


def _type(item: Any, host: Any | None, roles: Iterable[str]) -> str:
    """The record's CSL type: what it tells (``_told_type``), else an article of a continuing
    host, a chapter of another host, a book when it is monographic, else a document."""
    if found := _told_type(item, host, roles):
        return found
    if host is not None:
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


def _set(fields: dict[str, Text], extra: dict[str, str], variable: str, value: str,
         key: str) -> None:
    """``value`` as ``variable``, or, when the variable holds another value already, as a line
    of the ``key`` extra."""
    if not value:
        return
    if variable not in fields:
        fields[variable] = value
    elif plain(fields[variable]) != value:
        add_extra_line(extra, key, value)


def _part(part: Any, fields: dict[str, Text], extra: dict[str, str]) -> None:
    for detail in children(part, "detail"):
        kind = detail.get("type") or "untyped"
        variable = _VARIABLE_OF_DETAIL.get(kind)
        value = text_of(child(detail, "number")) or text_of(child(detail, "title"))
        if variable:
            _set(fields, extra, variable, value, extra_key("mods", f"detail-{kind}"))
        elif value:
            add_extra_line(extra, extra_key("mods", f"detail-{kind}"), value)
    if text := text_of(child(part, "text")):
        add_extra_line(extra, "mods.part-text", text)
    for extent in children(part, "extent"):
        if extent.get("unit") not in (None, "page", "pages", "pp"):
            continue
        start, end = text_of(child(extent, "start")), text_of(child(extent, "end"))
        pages = "-".join(dict.fromkeys(p for p in (start, end) if p)) or text_of(
            child(extent, "list"))
        if pages:
            fields.setdefault("page", pages)
        elif total := text_of(child(extent, "total")):
            fields.setdefault("number-of-pages", total)


def record_of(item: Any, source: str, number: int, diagnostics: Diagnostics,
              with_residue: bool = True) -> Record:
    """The record of a ``mods`` element; raises ``ValueError`` when it cannot be built."""
    line = item.sourceline or 1
    warn = partial(diagnostics.warning, file=source)
    related: dict[str | None, Any] = {}
    for element in children(item, "relatedItem"):  # the first host, the first series
        related.setdefault(element.get("type"), element)
    host, series = related.get("host"), related.get("series")
    fields: dict[str, Text] = {}
    names: dict[str, list[Name]] = {}
    dates: dict[str, Date] = {}
    keywords: list[str] = []
    notes: list[str] = []
    residues: list[dict[str, Any]] = []
    key = (item.get("ID") or "").strip() or None
    for variable, value in (("title", _title(item)), ("title-short", _title(item, "abbreviated")),
                            ("container-title", _host_title(host) if host is not None else ""),
                            ("container-title-short", _title(host, "abbreviated")
                             if host is not None else ""),
                            ("collection-title", _title(series) if series is not None else "")):
        if value:
            fields[variable] = value
    extra = _other_titles(item)
    life_dates: list[str] = []
    for holder in (item, host):
        for element in children(holder, "name") if holder is not None else ():
            person = _name(element)
            terms = _roles(element) or ["author" if holder is item else "contributor"]
            if person is None:
                continue
            if dates_of_life := _life_dates(element):
                life_dates.append(f"{person.display()}: {dates_of_life}")
            role = _role(terms)
            if role == "publisher":
                fields.setdefault("publisher", person.display())
                continue
            if role is None:
                diagnostics.warning(f"unknown MODS role {' / '.join(terms)!r}, read as a "
                                    "contributor", source, element.sourceline)
                role = "contributor"
            names.setdefault(role, []).append(person)
    if life_dates:
        extra["mods.namePart-date"] = "\n".join(life_dates)
    for holder in (item, host):
        origin = child(holder, "originInfo") if holder is not None else None
        if origin is None:
            continue
        for variable, element in t.ORIGIN.items():
            for found in children(origin, element):
                _set(fields, extra, variable, text_of(found), f"mods.{element}")
        _places(origin, fields, extra)
        for variable, element in t.DATES.items():
            date = _date(list(children(origin, element)), warn)
            if date is not None:
                dates.setdefault(variable, date)
    for holder in (item, host):
        for identifier in children(holder, "identifier") if holder is not None else ():
            kind, value = (identifier.get("type") or "").lower(), text_of(identifier)
            if not value:
                continue
            if kind == t.KEY_IDENTIFIER:
                key = key or value
            elif (identified := _VARIABLE_OF_IDENTIFIER.get(kind)) and (
                    identified not in fields):
                fields[identified] = value
            elif kind == "uri" and "URL" not in fields:
                fields["URL"] = value
            else:
                add_extra_line(extra, extra_key("mods", f"identifier-{kind or 'untyped'}"), value)
    for holder in (item, host):
        for part in children(holder, "part") if holder is not None else ():
            _part(part, fields, extra)
            if "issued" not in dates and (date := _date(list(children(part, "date")), warn)):
                dates["issued"] = date
    for holder in (item, host):
        origin = child(holder, "originInfo") if holder is not None else None
        for element in t.ISSUED_FALLBACKS if origin is not None else ():
            found = list(children(origin, element))
            if "issued" not in dates and (date := _date(found, warn)):
                dates["issued"] = date
            elif holder is item:
                for unused in found:
                    if text := text_of(unused):
                        add_extra_line(extra, f"mods.{element}", text)
    for variable, element in t.LOCATION.items():
        for location in children(item, "location"):
            for found in children(location, element):
                if (value := text_of(found)) and variable not in fields:
                    fields[variable] = value
                elif value and value != fields[variable]:
                    add_extra_line(extra, f"mods.{element}", value)
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
            keywords += _subject(element, fields, extra)
        elif name == "classification" and text:
            _set(fields, extra, "call-number", text, "mods.classification")
        elif name == "genre" and text and text.lower() not in _TYPE_NAMING_GENRES:
            _set(fields, extra, "genre", text, "mods.genre")
        elif name == "language" and text:
            _language(element, fields, extra)
    if notes:
        fields["note"] = "\n".join(notes)
    clean_doi_field(fields)
    csl_type = _type(item, host, names)
    if csl_type == "bill":
        _bill(item, fields, extra)
    record = Record(
        id=key or f"mods{number}",
        type=csl_type,
        fields=fields,
        names={role: tuple(people) for role, people in names.items()},
        dates=dates,
        keywords=tuple(dict.fromkeys(keywords)),
        citation_key=key,
        extra=extra,
        source=Source(source, line),
    )
    return apply_residues(record, residues) if with_residue else record


def _subject(subject: Any, fields: dict[str, Text], extra: dict[str, str]) -> list[str]:
    """The keywords of a ``subject``: its ``topic``s; a map's scale is read, its other parts
    (places, periods, genres, a hierarchical place's parts joined) are kept as
    ``mods.subject-<part>`` extras."""
    keywords: list[str] = []
    for part in subject:
        name = local_name(part)
        if not name:
            continue
        if name == "cartographics":
            _cartographics(part, fields, extra)
            continue
        pieces = [text_of(piece) for piece in part] if name == "hierarchicalGeographic" else []
        text = t.SUBJECT_PARTS_SEPARATOR.join(p for p in pieces if p) or text_of(part)
        if not text:
            continue
        if name == t.KEYWORD_SUBJECT:
            keywords.append(" ".join(text.split()))
        else:
            add_extra_line(extra, extra_key("mods", f"subject-{name}"), " ".join(text.split()))
    return keywords


def _cartographics(element: Any, fields: dict[str, Text], extra: dict[str, str]) -> None:
    """The parts of a ``subject/cartographics``: the scale read, the others kept."""
    for part in element:
        name, text = local_name(part), " ".join(text_of(part).split())
        if not (name and text):
            continue
        key = extra_key("mods", f"subject-cartographics-{name}")
        if variable := t.CARTOGRAPHIC_FIELDS.get(name):
            _set(fields, extra, variable, text, key)
        else:
            add_extra_line(extra, key, text)


def _places(origin: Any, fields: dict[str, Text], extra: dict[str, str]) -> None:
    """The ``place/placeTerm``s of an ``originInfo``: text terms before MARC codes (``mau``),
    the first the place, the others kept."""
    place_terms: list[Any] = [term for place in children(origin, "place") for term in place
                              if local_name(term) in ("placeTerm", "text")]
    for place_term in sorted(place_terms, key=lambda term: term.get("type") == "code"):
        code = place_term.get("type") == "code"
        kept = "mods.placeTerm-code" if code else "mods.placeTerm"
        if code and "publisher-place" in fields:
            add_extra_line(extra, kept, text_of(place_term))
        else:
            _set(fields, extra, "publisher-place", text_of(place_term), kept)


def _language(element: Any, fields: dict[str, Text], extra: dict[str, str]) -> None:
    """The first ``languageTerm`` (or the text) of a ``language`` as the record's language;
    another language or term is kept."""
    terms = [text_of(term) for term in children(element, "languageTerm") if text_of(term)]
    for term in terms or [text_of(element)]:
        if "language" not in fields:
            fields["language"] = term
        elif term != fields["language"]:
            add_extra_line(extra, "mods.language", term)


def report_unread_elements(item: Any, source: str, diagnostics: Diagnostics,
                           reported: set[str]) -> None:
    """Warn about the elements of a ``mods`` record this reader does not carry, once per
    name per file (``mods_tables.ELEMENTS``; of a host only ``HOST_ELEMENTS`` are read, of a
    series only its title, other related items not at all)."""
    report_unread([e for e in item if local_name(e) != "relatedItem"], t.ELEMENTS, "MODS",
                  source, diagnostics, reported)
    first: set[str] = set()
    for related in children(item, "relatedItem"):
        kind = related.get("type") or "untyped"
        if kind in first and f"another {kind}" not in reported:
            reported.add(f"another {kind}")
            diagnostics.warning(f"MODS: <relatedItem type=\"{kind}\"> after the first not "
                                "carried", source, related.sourceline or None)
        if kind in first:
            continue
        first.add(kind)
        readable = {"host": t.HOST_ELEMENTS, "series": t.SERIES_ELEMENTS}.get(kind, frozenset())
        report_unread([e for e in related if local_name(e) in readable], t.ELEMENTS, "MODS",
                      source, diagnostics, reported)
        for element in related:
            name = local_name(element)
            if name and name not in readable and f"{kind}/{name}" not in reported:
                reported.add(f"{kind}/{name}")
                diagnostics.warning(f"MODS: <{name}> of a relatedItem type=\"{kind}\" not "
                                    "carried", source, element.sourceline or None)


def _records_of(root: Any, source: str, diagnostics: Diagnostics, with_residue: bool = True
                ) -> Iterator[Record]:
    if local_name(root) not in ("modsCollection", "mods"):
        raise ParseError("not MODS: the root element is not modsCollection or mods", source,
                         root.sourceline)
    items = [root] if local_name(root) == "mods" else list(children(root, "mods"))
    reported: set[str] = set()
    for number, item in enumerate(items, start=1):
        if not len(item) and not text_of(item):
            diagnostics.warning("an empty <mods> record skipped", source, item.sourceline or 1)
            continue
        try:
            yield record_of(item, source, number, diagnostics, with_residue)
        except ValueError as exc:
            diagnostics.error(f"record skipped: {exc}", source, item.sourceline or 1)
            continue
        report_unread_elements(item, source, diagnostics, reported)


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
    if record.citation_key and _XML_ID.match(record.citation_key):
        item.set("ID", record.citation_key)  # else the key is only the citekey identifier
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
    _sub(item, "typeOfResource", _RESOURCE_OF_TYPE.get(record.type, "text"))
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
    for element, variable in t.CARTOGRAPHIC_FIELDS.items():
        if variable in fields:
            _sub(_sub(_sub(item, "subject"), "cartographics"), element, fields[variable])
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


class ModsReader(catalogue.CatalogueReader):
    name = "mods"

    def read(self, stream: TextIO, source: str, diagnostics: Diagnostics) -> Iterator[Record]:
        root = parse_xml(stream.read(), source, "MODS", diagnostics)
        return _records_of(root, source, diagnostics)


class ModsWriter:
    name = "mods"
    description = catalogue.WRITERS["mods"].description
    extension = catalogue.WRITERS["mods"].extension
    key_unsafe = XML_KEY_UNSAFE  #: XML 1.0's forbidden characters

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
        "type": "genre, typeOfResource (+ the host's genre)",
        "citation-key": "@ID, identifier citekey",
        "keywords": "subject/topic", "title": "titleInfo/title",
        "title-short": "titleInfo[@type=abbreviated]/title",
        "container-title": "relatedItem[@type=host]/titleInfo/title",
        "container-title-short": "relatedItem[@type=host]/titleInfo[@type=abbreviated]",
        "collection-title": "relatedItem[@type=series]/titleInfo/title",
        "publisher-place": "originInfo/place/placeTerm", "abstract": "abstract",
        "note": "note", "call-number": "classification", "genre": "genre",
        "language": "language/languageTerm", "page": "part/extent[@unit=page]",
        "number-of-pages": "part/extent/total",
        **{v: f"subject/cartographics/{e}" for e, v in t.CARTOGRAPHIC_FIELDS.items()},
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
             "terms, with the host's genre for articles and chapters, or as the "
             "`typeOfResource` (sound recording, notated music, mixed material); other types "
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
COVERAGE = _coverage()
